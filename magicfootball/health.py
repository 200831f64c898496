"""Liveness probe for the proxy, Docker's healthcheck and the tests' server fixtures."""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Answer 200 when the database answers: a replica that cannot reach it must leave the proxy's pool."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any database failure makes the replica unhealthy
        return JsonResponse({"status": "error", "database": type(exc).__name__}, status=503)
    return JsonResponse(
        {
            "status": "ok",
            "database": connection.vendor,
            "channel_layer": settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[-1],
        }
    )
