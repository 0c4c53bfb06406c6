"""The JSON calls the battle API tests make: a POST, the stream's version, a command with
its envelope (a fresh command id unless one is given, the current version expected)."""

from __future__ import annotations

import json
import uuid
from typing import Any

from django.test import Client

from penance_site.eventstore.store import StreamRef, stream_version


def post(client: Client, url: str, body: Any) -> Any:
    return client.post(url, data=json.dumps(body), content_type="application/json")


def version(bid: str) -> int:
    return stream_version(StreamRef("battle", bid))


def send(client: Client, bid: str, body: dict[str, Any], command_id: str | None = None) -> Any:
    envelope = {"command_id": command_id or uuid.uuid4().hex, "expected_version": version(bid)}
    return post(client, f"/api/battles/{bid}/commands", {**envelope, **body})
