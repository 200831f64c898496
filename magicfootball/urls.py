"""Top-level URLs: the site (tournament app), language switching, the health probe and the admin."""

from django.contrib import admin
from django.urls import include, path

from magicfootball.health import healthz

urlpatterns = [
    path("", include("tournament.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
]
