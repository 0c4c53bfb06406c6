from django.conf import settings
from django.db import models
from django.utils import timezone


class LoginFailure(models.Model):
    """Failed logins for one (username, client address) pair, one username or one client
    address, in the database so that the lockout holds when Redis (the cache) is down and
    across every server process (accounts/services.py)."""

    KINDS = (
        ("pair", "username from a client address"),
        ("user", "username"),
        ("address", "client address"),
    )

    kind = models.CharField(max_length=10, choices=KINDS)
    key = models.CharField(max_length=150)
    failures = models.PositiveIntegerField(default=0)
    last_failure_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "key"], name="login_failure_once")]

    def __str__(self) -> str:
        return f"{self.kind} {self.key}: {self.failures}"


class ApiToken(models.Model):
    """One of a user's API tokens (`Authorization: Token <key>`), named by its owner; a user
    holds as many as they like and revokes each on its own. Only the key's SHA-256 is
    stored: the key is shown once, when it is made (accounts/tokens.py)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=100)
    digest = models.CharField(max_length=64, unique=True)  # sha256(key), hex
    prefix = models.CharField(max_length=8)  # the key's first characters, to tell them apart
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["user", "created_at", "id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"
