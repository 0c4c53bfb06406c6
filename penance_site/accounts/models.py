from django.db import models


class LoginFailure(models.Model):
    """Failed logins for one username or one client address, in the database so that the
    lockout holds when Redis (the cache) is down and across every server process."""

    KINDS = (("user", "username"), ("address", "client address"))

    kind = models.CharField(max_length=10, choices=KINDS)
    key = models.CharField(max_length=150)
    failures = models.PositiveIntegerField(default=0)
    last_failure_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "key"], name="login_failure_once")]

    def __str__(self) -> str:
        return f"{self.kind} {self.key}: {self.failures}"
