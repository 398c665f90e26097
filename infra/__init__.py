"""The foundation every app stands on.

It holds coded errors, rows and bulk writes, the cache, and the task queue. It holds logs,
metrics, liveness and idempotency keys. It imports no app and no transport."""
