"""The settings only: ``config.settings`` reads the environment (``config.env``)."""
