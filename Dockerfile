# Magic Football Online: one image for every `web` replica (uvicorn serves HTTP, websockets and static files).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    SERVE_STATIC=true \
    STATIC_ROOT=/app/staticfiles

WORKDIR /app

# Dependencies first (read from pyproject.toml) so code changes do not reinstall them.
COPY pyproject.toml README.md ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt

COPY . .
RUN pip install --no-deps -e . \
    && useradd --create-home --uid 1000 mft \
    && mkdir -p /app/staticfiles /var/lib/mft \
    && chown -R mft /app/staticfiles /var/lib/mft

USER mft
EXPOSE 8000

# docker-compose.yml overrides this with migrations + catalog + collectstatic first. uvicorn with the
# project's options (magicfootball/serve.py); `daphne magicfootball.asgi:application` serves it too.
CMD ["python", "-m", "magicfootball.serve", "--host", "0.0.0.0", "--port", "8000", "--proxy-headers"]
