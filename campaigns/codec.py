"""Campaign streams in the event store: their name and their events' codec.

The domain (campaigns/domain.py) defines the events and knows nothing of storage;
this module registers them with the store's one codec (penance_site/eventstore),
with the settlement phase's events (campaigns/between/ledger.py, R-ADD-230), which
importing the ledger also registers with the domain's `evolve`.
"""

from __future__ import annotations

from penance_site.eventstore import codec

from .between import bargains, ledger, relationships, skills, soulstone, storage, travel
from .domain import EVENT_TYPES, upcast_build_revised_v1

STREAM_TYPE = "campaign"

CAMPAIGN_EVENTS = codec.register(
    STREAM_TYPE,
    [
        *EVENT_TYPES.values(),
        *ledger.EVENT_TYPES.values(),
        *skills.EVENT_TYPES.values(),
        *bargains.EVENT_TYPES.values(),
        *relationships.EVENT_TYPES.values(),
        *soulstone.EVENT_TYPES.values(),
        *travel.EVENT_TYPES.values(),
        *storage.EVENT_TYPES.values(),
    ],
    # R-ADD-220: builds revised before decks were made from equipment.
    {("BuildRevised", 1): upcast_build_revised_v1},
)
