"""The signed-in user of a request, for views that require one.

Views that need a user are guarded (DRF's IsAuthenticated, Django's login_required), so an
anonymous user never reaches their body; the request's type still says "a user or an
anonymous one". `signed_in` narrows it once, where the view hands the user to a service,
and refuses plainly should a guard ever be missing.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied


def signed_in(user: User | AnonymousUser) -> User:
    """The user, who must be signed in.

    >>> signed_in(AnonymousUser())
    Traceback (most recent call last):
    ...
    django.core.exceptions.PermissionDenied: sign in first
    """
    if not isinstance(user, User):
        raise PermissionDenied("sign in first")
    return user
