"""Template filters of the battle viewer: a replay sentence (battles/replay.py) as HTML.

A Python filter rather than an include per part: the log of a long battle has thousands of
parts, and an include each would cost most of the page's render time.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from battles.sentences import wound_name

register = template.Library()


@register.filter
def wound(name: str) -> str:
    """A pilot wound deck's card in words: "severe-3" reads "severe wound no. 3"."""
    return wound_name(str(name))


def _card(part: Any, focusable: bool) -> SafeString:
    _, _instance, name, cost, text = part
    tip = f"{cost} SP — {text}" if cost is not None else text
    if focusable:  # the tooltip also shows on keyboard focus (CSS :focus-within)
        return format_html(
            '<span class="card" tabindex="0">{}<span class="tip" role="tooltip">{}</span></span>',
            name,
            tip,
        )
    return format_html('<span class="card" title="{}">{}</span>', tip, name)


@register.filter
def sentence(parts: Any, mode: str = "") -> SafeString:
    """Render parts: text, cards (name, cost and text on hover or focus), dice drawn as faces
    with a text label, ruling IDs linked to the ruling, hexes."""
    focusable = mode == "focus"
    out = []
    for part in parts:
        kind = part[0]
        if kind == "text":
            out.append(format_html("{}", part[1]))
        elif kind == "card":
            out.append(_card(part, focusable))
        elif kind == "die":
            out.append(
                format_html(
                    '<span class="die face-{}" role="img" aria-label="{}" title="{}">{}</span>',
                    part[1],
                    part[2],
                    part[2],
                    part[1],
                )
            )
        elif kind == "rule":
            out.append(format_html('<a class="rule" href="/rules/#{}">{}</a>', part[1], part[1]))
        elif kind == "hex":
            out.append(format_html('<span class="hexref">hex {}</span>', part[1]))
        else:
            raise ValueError(f"unknown sentence part {kind!r}")
    return SafeString("".join(out))


@register.filter
def cards_list(cards: Any) -> SafeString:
    """Card parts joined with commas, each focusable for its tooltip."""
    return (
        format_html_join(", ", "{}", ((_card(c, True),) for c in cards))
        if cards
        else SafeString("–")
    )


@register.filter
def card(part: Any) -> SafeString:
    """One card part, focusable for its tooltip."""
    return _card(part, True)
