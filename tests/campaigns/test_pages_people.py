"""Issue 14: people: the GM's invitation link (sign-up through it joins the campaign, no
email), the profile page with the user's own API tokens (several, named, each revocable), and the header (Admin for staff)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import signing
from django.test import Client

from campaigns import selectors, services
from campaigns.models import CampaignPlayer
from penance_site.accounts.models import ApiToken
from penance_site.accounts.tokens import api_token_create

from .builders import demo_campaign, make_users
from .test_pages_campaign import client_for

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-enough-passphrase-42"


@pytest.fixture
def dc() -> Any:
    return demo_campaign()


def invite(dc: Any) -> str:
    return f"/join/{services.campaign_invite_token(campaign=dc.campaign)}/"


def test_the_gm_sees_the_invitation_link_players_do_not(dc: Any) -> None:
    gm = client_for(dc.gm).get(f"/campaigns/{dc.campaign.id}/").content.decode()
    assert 'id="invite-link"' in gm and "/join/" in gm
    ann = client_for(dc.ann).get(f"/campaigns/{dc.campaign.id}/").content.decode()
    assert "/join/" not in ann


def test_signing_up_through_the_link_joins_the_campaign(dc: Any) -> None:
    client = Client()
    link = invite(dc)
    page = client.get(link)
    assert page.status_code == 200 and "Ashes" in page.content.decode()
    r = client.post(link, {"username": "cid", "password1": PASSWORD, "password2": PASSWORD})
    assert r.status_code == 302 and r["Location"] == f"/campaigns/{dc.campaign.id}/"
    cid = get_user_model().objects.get(username="cid")
    assert CampaignPlayer.objects.filter(campaign=dc.campaign, user=cid).exists()
    assert "cid" in selectors.campaign_state(campaign=dc.campaign).players
    assert client.get(r["Location"]).status_code == 200  # signed in, and a member now


def test_a_refused_sign_up_is_a_400_naming_the_field_and_creates_no_one(dc: Any) -> None:
    r = Client().post(invite(dc), {"username": "cid", "password1": "x", "password2": "y"})
    assert r.status_code == 400
    assert "<strong>password2</strong>" in r.content.decode()
    r = Client().post(invite(dc), {"username": "ann", "password1": PASSWORD, "password2": PASSWORD})
    assert r.status_code == 400 and "<strong>username</strong>" in r.content.decode()
    assert not get_user_model().objects.filter(username="cid").exists()
    assert selectors.campaign_state(campaign=dc.campaign).players == ("ann", "bob")


def test_a_signed_in_user_joins_with_one_button_and_joining_twice_is_harmless(dc: Any) -> None:
    (dee,) = make_users("dee")
    client = client_for(dee)
    assert "Join as dee" in client.get(invite(dc)).content.decode()
    assert client.post(invite(dc)).status_code == 302
    assert client.post(invite(dc)).status_code == 302
    assert selectors.campaign_state(campaign=dc.campaign).players == ("ann", "bob", "dee")
    # the GM following their own link changes nothing
    assert client_for(dc.gm).post(invite(dc)).status_code == 302
    assert selectors.campaign_state(campaign=dc.campaign).players == ("ann", "bob", "dee")


@pytest.mark.parametrize("token", ["nonsense", "campaign:forged:token"])
def test_a_bad_invitation_is_refused(dc: Any, token: str) -> None:
    r = Client().get(f"/join/{token}/")
    assert r.status_code == 400 and "<strong>invite</strong>" in r.content.decode()
    r = Client().post(
        f"/join/{token}/", {"username": "x", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert r.status_code == 400
    assert not get_user_model().objects.filter(username="x").exists()


def test_an_invitation_for_another_campaign_gm_is_void(dc: Any) -> None:
    token = signing.dumps({"c": str(dc.campaign.id), "gm": dc.ann.pk}, salt=services.INVITE_SALT)
    assert Client().get(f"/join/{token}/").status_code == 400


def test_profile_makes_several_named_tokens_each_shown_once_and_revoked_alone(dc: Any) -> None:
    client = client_for(dc.ann)
    assert Client().get("/accounts/profile/")["Location"].startswith("/accounts/login/")
    assert "You have no token" in client.get("/accounts/profile/").content.decode()
    keys = []
    for name in ("table laptop", "dice bot"):
        r = client.post("/accounts/profile/", {"action": "create_token", "name": name})
        assert r.status_code == 302 and r["Location"] == "/accounts/profile/#tokens"
        page = client.get("/accounts/profile/").content.decode()
        key = re.search(r'id="new-token" readonly size="44"[^>]*value="([0-9a-f]{40})"', page)
        assert key is not None
        keys.append(key.group(1))
        assert key.group(1) not in client.get("/accounts/profile/").content.decode()  # once
    page = client.get("/accounts/profile/").content.decode()
    assert "table laptop" in page and "dice bot" in page and f"{keys[0][:6]}…" in page
    held = list(ApiToken.objects.filter(user=dc.ann).order_by("created_at", "id"))
    assert [t.name for t in held] == ["table laptop", "dice bot"]
    assert all(k not in t.digest for t, k in zip(held, keys, strict=True))  # digests only
    for key in keys:
        assert Client(HTTP_AUTHORIZATION=f"Token {key}").get("/api/campaigns/").status_code == 200
    r = client.post("/accounts/profile/", {"action": "revoke_token", "token": str(held[0].pk)})
    assert r.status_code == 302
    assert Client(HTTP_AUTHORIZATION=f"Token {keys[0]}").get("/api/campaigns/").status_code == 401
    assert Client(HTTP_AUTHORIZATION=f"Token {keys[1]}").get("/api/campaigns/").status_code == 200
    held[1].refresh_from_db()
    assert held[1].last_used_at is not None  # the API use is recorded


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"action": "steal"}, "action"),
        ({"action": "create_token", "name": "  "}, "name"),
        ({"action": "create_token", "name": "x" * 101}, "name"),
        ({"action": "revoke_token", "token": "abc"}, "token"),
        ({"action": "revoke_token", "token": "999999"}, "token"),
    ],
)
def test_bad_token_forms_are_a_400_naming_the_field(
    dc: Any, data: dict[str, str], field: str
) -> None:
    r = client_for(dc.ann).post("/accounts/profile/", data)
    assert r.status_code == 400 and f"<strong>{field}</strong>" in r.content.decode()
    assert not ApiToken.objects.filter(user=dc.ann).exists()


def test_profile_touches_only_the_users_own_tokens(dc: Any) -> None:
    bobs, bob_key = api_token_create(user=dc.bob, name="bob's tool")
    r = client_for(dc.ann).post("/accounts/profile/", {"action": "revoke_token", "token": bobs.pk})
    assert r.status_code == 400
    assert "bob's tool" not in client_for(dc.ann).get("/accounts/profile/").content.decode()
    assert Client(HTTP_AUTHORIZATION=f"Token {bob_key}").get("/api/campaigns/").status_code == 200


def test_header_offers_admin_only_to_staff_and_a_logout(dc: Any) -> None:
    body = client_for(dc.ann).get("/campaigns/").content.decode()
    header = body[body.index("<header") : body.index("</header>")]
    assert "/admin/" not in header and "Log out" in header and "/accounts/profile/" in header
    dc.gm.is_staff = True
    dc.gm.save()
    body = client_for(dc.gm).get("/campaigns/").content.decode()
    assert 'href="/admin/"' in body[body.index("<header") : body.index("</header>")]
    anon = Client().get("/").content.decode()
    assert "Log in" in anon[anon.index("<header") : anon.index("</header>")]


def test_logout_from_the_header_ends_the_session(dc: Any) -> None:
    client = client_for(dc.ann)
    r = client.post("/accounts/logout/", {"next": "/"})
    assert r.status_code == 302
    assert client.get("/campaigns/").status_code == 302
