"""What the benches that start real servers share: waiting for one to answer."""

from __future__ import annotations

import http.client
import subprocess
import time


def wait_until_serving(server: subprocess.Popen[bytes], port: int) -> subprocess.Popen[bytes]:
    """`server` once it answers `GET /api/rules/` on `port`; killed, and the bench stopped,
    when it has not within a minute."""
    for _ in range(120):
        try:
            probe = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            probe.request("GET", "/api/rules/")
            if probe.getresponse().status == 200:
                return server
        except OSError:
            pass
        time.sleep(0.5)
    server.kill()
    raise SystemExit(f"the server on port {port} did not answer within a minute")
