from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from battles import pages

from . import views

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
]
