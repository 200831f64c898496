"""ASGI entry point: HTTP through Django, websockets through Channels (served by daphne)."""

import gc
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "magicfootball.settings")

from django.core.asgi import get_asgi_application

django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from cards.catalog import get_catalog  # noqa: E402
from magicfootball.routing import websocket_urlpatterns  # noqa: E402

http_app = django_asgi_app
if settings.SERVE_STATIC:
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    http_app = ASGIStaticFilesHandler(django_asgi_app)

application = ProtocolTypeRouter(
    {
        "http": http_app,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

# What start-up built lives as long as the process (Django, the card catalog: ~100,000 objects). Freezing
# it keeps Python's cyclic collector from re-scanning all of it in every full collection — a pause of
# several milliseconds in the middle of a game, on every screen at once (issue 10, docs/PERFORMANCE.md).
get_catalog()
gc.collect()
gc.freeze()
