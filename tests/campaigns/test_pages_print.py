"""Issue 14 in Debian's Chromium, headless, without a server: the pilot sheet prints on one
page, and the pages' controls are touch targets of at least 44 px. Each page is rendered
by the test client and written to a file with the site's stylesheet; skipped when
/usr/bin/chromium is missing (PENANCE_REQUIRE_BROWSER=1 makes that a failure)."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from campaigns import services
from campaigns.between import decide as between
from campaigns.between import relationships, skills, soulstone
from campaigns.settlement_services import settlement_step

from .builders import demo_campaign, finish, start_mission
from .test_pages_campaign import client_for

CHROMIUM = Path(os.environ.get("PENANCE_CHROMIUM", "/usr/bin/chromium"))
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.browser,
    pytest.mark.skipif(
        os.environ.get("PENANCE_SKIP_BROWSER") == "1"
        or (not CHROMIUM.exists() and os.environ.get("PENANCE_REQUIRE_BROWSER") != "1"),
        reason=f"no Chromium at {CHROMIUM} (or PENANCE_SKIP_BROWSER=1)",
    ),
]

# Every control a finger must hit: its box, or for a checkbox or radio button its label's.
MEASURE = """<script>
window.addEventListener('load', () => {
  const small = [];
  for (const el of document.querySelectorAll(
      '.cp a, .cp button, .cp input:not([type=hidden]), .cp select, .cp textarea')) {
    const box = el.getBoundingClientRect();
    if (!box.width) continue;  // not shown
    let h = box.height, w = box.width;
    if (el.type === 'checkbox' || el.type === 'radio') {
      const s = getComputedStyle(el);
      h = Math.max(h + parseFloat(s.marginTop) + parseFloat(s.marginBottom),
                   ...[...el.labels].map(l => l.getBoundingClientRect().height));
      w = Math.max(w + parseFloat(s.marginLeft) + parseFloat(s.marginRight), 44);
    }
    if (h < 43.5 || w < 43.5) small.push(`${el.tagName} ${el.name || el.textContent.trim().slice(0, 30)}: ${Math.round(w)}x${Math.round(h)}`);
  }
  const out = document.createElement('pre');
  out.id = 'measured';
  out.textContent = JSON.stringify(small);
  document.body.append(out);
});
</script>"""


def _file(html: str, tmp_path: Path, name: str, script: str = "") -> Path:
    css = Path(settings.BASE_DIR) / "penance_site" / "static"
    # The campaign pages' own stylesheets are the campaigns app's static files.
    own = Path(settings.BASE_DIR) / "campaigns" / "static" / "campaigns"
    html = html.replace('href="/static/campaigns/', f'href="{own.as_uri()}/')
    html = html.replace('href="/static/', f'href="{css.as_uri()}/')
    html = html.replace("</body>", f"{script}</body>")
    path = tmp_path / f"{name}.html"
    path.write_text(html, encoding="utf-8")
    return path


def _chromium(*args: str) -> subprocess.CompletedProcess[str]:
    if not CHROMIUM.exists():
        pytest.fail(f"PENANCE_REQUIRE_BROWSER=1 but there is no Chromium at {CHROMIUM}")
    return subprocess.run(
        [str(CHROMIUM), *ARGS, *args], capture_output=True, text=True, timeout=120, check=True
    )


def _pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


@pytest.fixture
def played() -> Any:
    dc = demo_campaign()
    _, battle = start_mission(dc, seed=3, name="Cinder Road")
    finish(battle, dc.gm)
    pid = str(dc.pilots[0].id)
    for n in range(6):
        services.pilot_taint_adjust(
            campaign=dc.campaign, actor=dc.gm, pilot_id=pid, delta=1, reason=f"Heresy {n}"
        )
    services.pilot_scar_add(
        campaign=dc.campaign, actor=dc.gm, pilot_id=pid, scar="Ash lung", reason="Smoke"
    )
    return dc


def test_the_pilot_sheet_prints_on_one_page(played: Any, tmp_path: Path) -> None:
    dc = played
    url = f"/campaigns/{dc.campaign.id}/pilots/{dc.pilots[0].id}/"
    page = _file(client_for(dc.gm).get(url).content.decode(), tmp_path, "sheet")
    pdf = tmp_path / "sheet.pdf"
    _chromium("--no-pdf-header-footer", f"--print-to-pdf={pdf}", page.as_uri())
    assert _pdf_pages(pdf.read_bytes()) == 1


def test_controls_are_touch_targets_of_44_px(played: Any, tmp_path: Path) -> None:
    dc = played
    mission = services.mission_plan(campaign=dc.campaign, actor=dc.gm, name="Second")
    base = f"/campaigns/{dc.campaign.id}"
    urls = {
        "list": "/campaigns/",
        "campaign": f"{base}/",
        "sheet": f"{base}/pilots/{dc.pilots[0].id}/",
        "builds": f"{base}/builds/",
        "builder": f"{base}/builds/{dc.builds[0].id}/edit/",
        "wizard": f"{base}/missions/{mission.id}/start/",
        "mission": f"{base}/missions/{mission.id}/",
        "profile": "/accounts/profile/",
    }
    client = client_for(dc.gm)
    small = {}
    for name, url in urls.items():
        page = _file(client.get(url).content.decode(), tmp_path, name, MEASURE)
        dom = _chromium("--window-size=1280,900", "--dump-dom", page.as_uri()).stdout
        found = re.search(r'<pre id="measured">(.*?)</pre>', dom, re.S)
        assert found is not None, name
        measured = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
        if measured:
            small[name] = measured
    assert small == {}


def test_the_settlement_prints_on_one_a4_page_with_the_modules(tmp_path: Path) -> None:
    """The settlement page with every built module on (R-ADD-315…321): XP, a skill, the
    relationships tracker, notes at deployment, on one A4 page."""
    dc = demo_campaign(
        campaign_rules={
            "version": "pc-1",
            "modules": [
                "xp_skills",
                "flesh_bargains",
                "faction_relationships",
                "soulstone_energy",
            ],
        }
    )
    mission, battle = start_mission(dc, seed=3, name="Cinder Road")
    finish(battle, dc.gm, seed=3)
    mid = str(mission.id)
    step = {"campaign": dc.campaign, "actor": dc.gm}
    settlement_step(**step, command=between.OpenPhase(mid, "0" * 64))
    bonuses = ("three-caskets", "no-allied-lost", "bonus-objective", "boss-defeated")
    for pilot in dc.pilots:
        award = skills.AwardXP(mid, pilot_id=str(pilot.id), result="victory", bonuses=bonuses)
        settlement_step(**step, command=award, faces=[4])
    for faction, cause in (("church", "broker-peace"), ("ossuarium", "kill-members")):
        change = relationships.ChangeRelationship(mid, faction=faction, cause=cause)
        settlement_step(**step, command=change)
    spend = soulstone.SpendEnergy(mid, build_id=str(dc.builds[0].id), costs=("heavy",))
    settlement_step(**step, command=spend)
    html = client_for(dc.gm).get(f"/campaigns/{dc.campaign.id}/settlement/").content.decode()
    assert "Efficient Movement" in html and 'data-faction="church"' in html
    assert "<strong>75</strong>/100 Healthy" in html
    page = _file(html, tmp_path, "settlement")
    pdf = tmp_path / "settlement.pdf"
    _chromium("--no-pdf-header-footer", f"--print-to-pdf={pdf}", page.as_uri())
    assert _pdf_pages(pdf.read_bytes()) == 1
