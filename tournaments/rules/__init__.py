"""Tournament rules that need no database.

They cover plans, draft options, trophies, the Robot and standings. They are pure functions and
small value types over the standard library only, like the match engine. So the services can stay
thin, and every rule can be tested without Django.
"""
