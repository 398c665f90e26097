# syntax=docker/dockerfile:1
# One image for every Python service of docker-compose.yml (http, ws, worker, beat, init).
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
# pg_dump and pg_restore for manage.py backup/restore and the compose file's backup service.
RUN apt-get update && apt-get install -y --no-install-recommends postgresql-client \
    && rm -rf /var/lib/apt/lists/*
COPY pyproject.toml .
# The pinned dependencies of pyproject.toml (no heredoc: buildah, podman's builder, has none).
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))\
['project']['dependencies']))" > /tmp/requirements.txt \
    && pip install --no-cache-dir -r /tmp/requirements.txt
COPY . .
# The gettext catalogues (locale/), compiled with polib.
RUN python -c "from infra.catalogues import compile_catalogues; compile_catalogues()"
# The services run as a user without privileges who owns nothing of the code (it only reads it;
# Celery beat writes its schedule and the heartbeat file under /tmp). It owns the two directories
# compose mounts volumes on: an empty named volume takes the image's directory, owner and all,
# so the metrics files (PROMETHEUS_MULTIPROC_DIR) and the dumps can be written. Without them
# the volume is root's, and prometheus_client stops every Django process at import.
RUN groupadd --system --gid 10001 app \
    && useradd --system --uid 10001 --gid app --no-create-home --shell /usr/sbin/nologin app \
    && install -d -o app -g app -m 0755 /run/prometheus /backups
USER app
EXPOSE 8000
# Liveness of the web process (gunicorn on 8000); compose gives each service a check of its own.
HEALTHCHECK --interval=10s --timeout=6s --start-period=30s --retries=3 \
    CMD ["python", "deploy/healthcheck.py", "8000"]
