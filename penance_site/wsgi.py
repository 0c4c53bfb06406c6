import os

from django.core.wsgi import get_wsgi_application

from penance_site.dice_keys import require_dice_keys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "penance_site.settings")
application = get_wsgi_application()

# The server refuses to start without its dice key (penance_site/dice_keys.py).
require_dice_keys()
