"""The ASGI application (`make serve`: gunicorn with uvicorn workers, penance_site.serving).

PENANCE_ASGI tells the settings the site runs under ASGI (database connections closed
at each request's end, settings.py)."""

import os

from django.core.asgi import get_asgi_application

from penance_site.dice_keys import require_dice_keys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "penance_site.settings")
os.environ["PENANCE_ASGI"] = "1"
application = get_asgi_application()

# The server refuses to start without its dice key (penance_site/dice_keys.py).
require_dice_keys()
