"""The Celery app. Settings live in Django settings under the CELERY_ namespace.

Without REDIS_URL, tasks run eagerly in-process (the embedded default); with it,
Redis is the broker and the result backend.
"""

import os

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "penance_site.settings")

app = Celery("penance_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def _require_dice_key(**_: object) -> None:
    # A worker refuses to start without its dice key, as the web server does
    # (penance_site/dice_keys.py).
    from penance_site.dice_keys import require_dice_keys

    require_dice_keys()
