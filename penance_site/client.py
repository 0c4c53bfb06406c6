"""The client's address: named proxies, never guessed ones.

REMOTE_ADDR is the peer that opened the connection. Only when that peer is one of the
proxies named in PENANCE_TRUSTED_PROXIES is X-Forwarded-For read, from the right: each
trusted proxy appends the address it saw, so the right-most entry that is not itself a
trusted proxy is the client. Entries left of it were written by the client and can say
anything (R-ADD-200). Throttles, login lockouts and the CSP report limit all use this one
address.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from django.conf import settings
from django.http import HttpRequest

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def _parse(raw: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    text = raw.strip()
    if text.startswith("[") and "]" in text:  # "[::1]:443"
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # "1.2.3.4:5678"
        text = text.split(":", 1)[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _trusted(
    address: ipaddress.IPv4Address | ipaddress.IPv6Address, proxies: Iterable[Network]
) -> bool:
    return any(address.version == net.version and address in net for net in proxies)


def client_address_from(remote_addr: str, forwarded_for: str, proxies: Iterable[Network]) -> str:
    """The client address for a connection from `remote_addr` carrying `forwarded_for`.

    >>> import ipaddress
    >>> proxies = [ipaddress.ip_network("10.0.0.0/8")]
    >>> client_address_from("203.0.113.9", "1.1.1.1", proxies)  # not a proxy: header ignored
    '203.0.113.9'
    >>> client_address_from("10.0.0.2", "6.6.6.6, 198.51.100.7", proxies)
    '198.51.100.7'
    >>> client_address_from("10.0.0.2", "198.51.100.7, 10.0.0.3", proxies)  # two proxies
    '198.51.100.7'
    >>> client_address_from("10.0.0.2", "", proxies)  # a proxy that forwarded nothing
    '10.0.0.2'
    """
    proxies = tuple(proxies)
    peer = _parse(remote_addr)
    if peer is None or not _trusted(peer, proxies):
        return remote_addr
    client = str(peer)
    for entry in reversed([e for e in forwarded_for.split(",") if e.strip()]):
        address = _parse(entry)
        if address is None:
            # An entry no proxy of ours would write: stop at the last address we trust.
            return client
        client = str(address)
        if not _trusted(address, proxies):
            return client
    return client


def client_address(request: HttpRequest) -> str:
    """The client address of `request` under PENANCE_TRUSTED_PROXIES (see module doc)."""
    meta = request.META
    return client_address_from(
        str(meta.get("REMOTE_ADDR") or ""),
        str(meta.get("HTTP_X_FORWARDED_FOR") or ""),
        settings.PENANCE_TRUSTED_PROXIES,
    )
