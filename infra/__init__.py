"""The foundation every app stands on: coded errors, rows and bulk writes, the cache, the task
queue, logs, metrics, liveness and idempotency keys. It imports no app and no transport."""
