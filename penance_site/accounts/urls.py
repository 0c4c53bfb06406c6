from django.urls import path

from . import accounts_api

urlpatterns = [
    path("auth/token", accounts_api.TokenView.as_view(), name="auth-token"),
    path("auth/logout", accounts_api.LogoutView.as_view(), name="auth-logout"),
]
