"""Tournament rules that need no database: plans, draft options, trophies, the Robot, standings.

Pure functions and small value types over the standard library only, like the match engine. So the
services can stay thin, and every rule can be tested without Django.
"""
