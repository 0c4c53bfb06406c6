from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from battles import pages

from . import api, views

handler500 = "penance_site.api.server_error"

urlpatterns = [
    path("", views.home, name="home"),
    path("health/", views.health, name="health"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/", include("battles.urls")),
    path("api/", include("campaigns.urls")),
    path("battles/", pages.battle_list_page, name="battle-list"),
    path("battles/<uuid:battle_id>/replay/", pages.battle_replay_page, name="battle-replay"),
    # Last: any other /api/ URL is a JSON 404, not Django's HTML page.
    re_path(r"^api/", api.api_not_found),
]
