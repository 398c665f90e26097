"""The settings, and nothing else: ``config.settings`` reads the environment (``config.env``)."""
