"""Error answers in the site's style: a form posted without a valid CSRF token (``CSRF_FAILURE_VIEW``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext

from tournament.realtime.html import render_toast


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """Refuse the post with a clear message: a toast for the room pages' htmx posts, else a page."""
    message = gettext(
        "This page was open for too long or your cookies were cleared, so the form could not be accepted. "
        "Reload the page and try again."
    )
    if request.headers.get("HX-Request") == "true":
        return HttpResponse(render_toast(message), status=403)
    return render(request, "tournament/forbidden.html", {"message": message, "reload": True}, status=403)
