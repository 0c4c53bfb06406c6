from csp.constants import NONCE, SELF
from csp.decorators import csp_update
from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path
from django.views.generic import RedirectView
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)

from battles import pages, practice
from campaigns import portability_admin

from . import api, csp_report, views
from .accounts.forms import LockoutAuthenticationForm

handler500 = "penance_site.api.server_error"

# ReDoc's bundle (drf-spectacular-sidecar 2026.10.1) inserts perfect-scrollbar's stylesheet
# as it loads, before Redoc.init gives it the nonce: an empty <style>, then its text. These
# are the SHA-256 hashes of the two; a new sidecar with other text fails the browser test
# tests/browser/test_csp_pages.py, which names the hash the browser wants.
REDOC_STYLE_HASHES = (
    "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='",
    "'sha256-QMIg+bpjm3JdElJ388KYke01izlUW0UoNOeKjpMxdgc='",
)

# Password reset mails a link: only offered when the environment configures mail
# (DJANGO_EMAIL_URL); without it there is no reset route at all.
PASSWORD_RESET_PAGES = (
    ("accounts/password_reset/", auth_views.PasswordResetView, "password_reset"),
    ("accounts/password_reset/done/", auth_views.PasswordResetDoneView, "password_reset_done"),
    (
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView,
        "password_reset_confirm",
    ),
    ("accounts/reset/done/", auth_views.PasswordResetCompleteView, "password_reset_complete"),
)
PASSWORD_RESET = (
    [path(route, view.as_view(), name=name) for route, view, name in PASSWORD_RESET_PAGES]
    if settings.EMAIL_CONFIGURED
    else []
)

urlpatterns = [
    path("", views.home, name="home"),
    path("health/", views.health, name="health"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("csp-report/", csp_report.csp_report, name="csp-report"),
    # Before the admin's own URLs: staff import a campaign file (campaigns/portability.py).
    path(
        "admin/campaigns/import/",
        portability_admin.campaign_import_page,
        name="admin-campaign-import",
    ),
    path("admin/", admin.site.urls),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(authentication_form=LockoutAuthenticationForm),
        name="login",
    ),
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
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    # ReDoc writes <style> elements as it renders and runs its search in a worker made
    # from a blob: this page alone allows styles carrying its response's nonce
    # (templates/drf_spectacular/redoc.html), the one stylesheet ReDoc inserts before it
    # knows the nonce (REDOC_STYLE_HASHES), and blob: workers; still no 'unsafe-inline'.
    path(
        "api/redoc/",
        csp_update({"style-src": [NONCE, *REDOC_STYLE_HASHES], "worker-src": [SELF, "blob:"]})(
            SpectacularRedocView.as_view(url_name="schema")
        ),
        name="api-redoc",
    ),
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
