"""The rulings page in a browser: typing in its search box filters the rulings as one
types, says how many match, and hides the table of contents while a filter is typed."""

from __future__ import annotations

import re
from typing import Any


def test_typing_filters_the_rulings_as_one_types(browser: Any, site: str) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{site}/rules/")
    total = page.locator("[data-ruling]").count()
    assert total > 100
    assert page.locator("[data-rulings-toc]").is_visible()
    page.locator("[data-rulings-filter]").press_sequentially("line of sight", delay=20)
    page.wait_for_function(
        "() => document.querySelector('[data-rulings-count]').textContent.includes('match')"
    )
    shown = page.locator("[data-ruling]:not([hidden])")
    count = shown.count()
    assert 0 < count < total
    assert page.inner_text("[data-rulings-count]") == f"{count} of {total} rulings match"
    for text in shown.all_inner_texts():
        assert all(w in text.lower() for w in ("line", "of", "sight")), text
    assert page.locator("[data-rulings-toc]").is_hidden()
    # A word no ruling holds: nothing shown, and the page says so.
    page.fill("[data-rulings-filter]", "zzzqqq")
    page.wait_for_function("() => !document.querySelector('[data-rulings-none]').hidden")
    assert page.locator("[data-ruling]:not([hidden])").count() == 0
    # Emptied: every ruling and the contents are back.
    page.fill("[data-rulings-filter]", "")
    page.wait_for_function(
        f"() => document.querySelectorAll('[data-ruling]:not([hidden])').length === {total}"
    )
    assert page.locator("[data-rulings-toc]").is_visible()
    assert re.fullmatch(rf"{total} rulings", page.inner_text("[data-rulings-count]"))
    assert errors == []
    page.context.close()
