"""Settings for Magic Football Online.

Configuration comes from the environment only (see README): the embedded default is SQLite plus
Channels' in-memory layer, so `make run` needs no Redis, PostgreSQL or Docker.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean environment variable ("1", "true", "yes", "on" are true)."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY") or "dev-insecure-magic-football-change-me"
ALLOWED_HOSTS = [
    h.strip() for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]").split(",") if h.strip()
]
CSRF_TRUSTED_ORIGINS = [o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()]
# Behind the deployment's proxy (deploy/Caddyfile) the scheme the browser used arrives in X-Forwarded-Proto;
# trusting it only there keeps CSRF origin checks right when the proxy terminates HTTPS.
if env_bool("BEHIND_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "django_htmx",
    "template_partials",
    "cards",
    "tournament",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "magicfootball.urls"
WSGI_APPLICATION = None
ASGI_APPLICATION = "magicfootball.asgi.application"

# A game brings its board's template and static files in games/<game>/templates and games/<game>/static;
# they are found without a per-game edit here.
GAME_TEMPLATE_DIRS = sorted(BASE_DIR.glob("games/*/templates"))
GAME_STATIC_DIRS = sorted(BASE_DIR.glob("games/*/static"))

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates", *GAME_TEMPLATE_DIRS],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- database: SQLite by default, PostgreSQL (psycopg 3) when DATABASE_URL is set -----------------
SQLITE_PATH = os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3"))
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    # CONN_MAX_AGE stays 0: Django's docs say persistent connections must be disabled under ASGI (daphne),
    # where requests and consumers run in thread pools that do not close them reliably.
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": SQLITE_PATH,
            "OPTIONS": {
                # WAL lets readers (websocket renders) run beside the single writer; IMMEDIATE takes the
                # write lock at BEGIN so two actions never both read a version and then race to write. The
                # log is copied back by a background thread (magicfootball/sqlite.py), not inside a commit.
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": (
                    "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000;"
                    " PRAGMA wal_autocheckpoint=0;"
                ),
            },
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- channel layer: Redis when REDIS_URL is set, else in-memory (single process) ----------------
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # Redis pub/sub (channels-redis): a push is one PUBLISH, heard by every process whose room hub
            # subscribed to the room's group. Chosen by bench/realtime.py (docs/PERFORMANCE.md, issue 10):
            # the list-based RedisChannelLayer cost ~3.5 ms of server CPU per action (four round trips per
            # group_send, a blocking pop per receive) against ~0.3 ms. Its queueing buys us nothing: each
            # process holds one subscription per room, a push only says "version v exists", a lost one is
            # repaired by the hub's 2-second re-read, and redis-py re-subscribes after a Redis restart.
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL]},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# Reliability tests only: lose this fraction of pushes on purpose (tournament/realtime/testing.py).
CHANNEL_LAYER_DROP = float(os.environ.get("CHANNEL_LAYER_DROP") or 0)
if CHANNEL_LAYER_DROP:
    CHANNEL_LAYERS["default"]["BACKEND"] = (
        "tournament.realtime.testing.DroppingRedisChannelLayer"
        if REDIS_URL
        else "tournament.realtime.testing.DroppingInMemoryChannelLayer"
    )
    CHANNEL_LAYERS["default"].setdefault("CONFIG", {}).update(
        drop=CHANNEL_LAYER_DROP, drop_seed=int(os.environ.get("CHANNEL_LAYER_DROP_SEED") or 0)
    )

# --- sessions: signed cookies identify a browser, no sign-up --------------------------------------
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 30
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"

# --- i18n -------------------------------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("nl", _("Dutch")), ("de", _("German")), ("es", _("Spanish"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static", *GAME_STATIC_DIRS]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", str(BASE_DIR / "staticfiles")))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    # DEBUG logs every push a room's hub receives: how to tell a push from the hubs' poll (lost pushes)
    "loggers": {
        "tournament.realtime.hub": {"level": os.environ.get("REALTIME_LOG_LEVEL", "WARNING")},
        # DEBUG logs every decision a process's driver submits, INFO every lease it takes or loses
        "tournament.realtime.driver": {"level": os.environ.get("DRIVER_LOG_LEVEL", "WARNING")},
        "tournament.realtime.lease": {"level": os.environ.get("DRIVER_LOG_LEVEL", "WARNING")},
    },
}

# daphne serves static files itself (Django's ASGI static handler): one process, no extra proxy needed.
SERVE_STATIC = env_bool("SERVE_STATIC", True)

# --- live games -------------------------------------------------------------------------------------
# Seconds a bot "thinks" before it acts (tournament/realtime/driver.py); the browser tests use 0.05.
BOT_DELAY = float(os.environ.get("BOT_DELAY", "0.9"))
# A push to the other processes carries the new version's public data up to this many bytes (0: none), so
# their spectators need no database read (issue 22, tournament/realtime/frames.py, "carried versions").
CARRY_MAX_BYTES = int(os.environ.get("CARRY_MAX_BYTES", str(64 * 1024)))
# Seconds a player may be away (no open socket) before the default decides for him, in rooms without a
# decision timer (tournament/realtime/driver.py; the e2e tests use a few seconds).
ABSENT_PLAYER_TIMEOUT = float(os.environ.get("ABSENT_PLAYER_TIMEOUT", "45"))
# A form posted without a valid CSRF token gets a page (or, for htmx, a toast) in the site's style.
CSRF_FAILURE_VIEW = "tournament.views.errors.csrf_failure"
