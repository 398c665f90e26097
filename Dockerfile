# syntax=docker/dockerfile:1
# One image for every Python service of docker-compose.yml (http, ws, worker, init).
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml .
RUN python - <<'PY' > /tmp/requirements.txt && pip install --no-cache-dir -r /tmp/requirements.txt
import tomllib
print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"]))
PY
COPY . .
# The gettext catalogues (locale/), compiled with polib.
RUN python -c "from config.catalogues import compile_catalogues; compile_catalogues()"
EXPOSE 8000
