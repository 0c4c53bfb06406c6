from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from battles import pages, practice

from . import api, views

handler500 = "penance_site.api.server_error"

# Password reset mails a link: only offered when the environment configures mail
# (DJANGO_EMAIL_URL); without it there is no reset route at all.
PASSWORD_RESET = (
    [
        path(
            "accounts/password_reset/",
            auth_views.PasswordResetView.as_view(),
            name="password_reset",
        ),
        path(
            "accounts/password_reset/done/",
            auth_views.PasswordResetDoneView.as_view(),
            name="password_reset_done",
        ),
        path(
            "accounts/reset/<uidb64>/<token>/",
            auth_views.PasswordResetConfirmView.as_view(),
            name="password_reset_confirm",
        ),
        path(
            "accounts/reset/done/",
            auth_views.PasswordResetCompleteView.as_view(),
            name="password_reset_complete",
        ),
    ]
    if settings.EMAIL_CONFIGURED
    else []
)

urlpatterns = [
    path("", views.home, name="home"),
    path("health/", views.health, name="health"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"
    ),
    path(
        "accounts/password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="api-redoc"),
    path("api/", include("battles.urls")),
    path("api/", include("campaigns.urls")),
    path("api/", include("penance_site.accounts.urls")),
    path("battles/", pages.battle_list_page, name="battle-list"),
    path("battles/practice/", practice.battle_practice_page, name="battle-practice"),
    # The URL people guess for a battle: its page is the viewer (which plays it too).
    path(
        "battles/<uuid:battle_id>/",
        RedirectView.as_view(pattern_name="battle-replay", permanent=False),
        name="battle",
    ),
    path("battles/<uuid:battle_id>/replay/", pages.battle_replay_page, name="battle-replay"),
    path("battles/<uuid:battle_id>/replay/log", pages.battle_log_after, name="battle-log"),
    path("rules/", pages.rulings_page, name="rulings"),
    path("", include("campaigns.page_urls")),
    *PASSWORD_RESET,
    # Last: any other /api/ URL is a JSON 404, not Django's HTML page.
    re_path(r"^api/", api.api_not_found),
]
