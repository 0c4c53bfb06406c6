"""The Celery app. Settings live in Django settings under the CELERY_ namespace.

Without REDIS_URL, tasks run eagerly in-process (the embedded default); with it,
Redis is the broker and the result backend.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "penance_site.settings")

app = Celery("penance_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
