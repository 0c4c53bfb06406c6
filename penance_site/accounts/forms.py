"""The site's login form, saying plainly when a login is locked out or slowed down."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm

from .services import client_address, login_lockout


class LockoutAuthenticationForm(AuthenticationForm):
    """Django's login form, which checks the lockout (accounts/services.py, R-ADD-202)
    before the password and names it: "locked for N minutes". It says the same whether
    or not the username exists."""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        lockout = login_lockout(username=username, address=client_address(self.request))
        if lockout is not None:
            self.lockout = lockout
            raise forms.ValidationError(lockout.message.capitalize() + ".", code="locked_out")
        return super().clean()
