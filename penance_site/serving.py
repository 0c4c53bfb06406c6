"""The production web worker: gunicorn's process management, uvicorn's ASGI server.

`make serve` (Procfile `web`) runs `gunicorn penance_site.asgi:application -k
penance_site.serving.Worker`: every request is served by Django's ASGI handler, so an
open battle page's live stream (`…/stream`, battles.streams) waits in the event loop
and holds no thread; the other views run in Django's thread pool as before.

Shutting down (SIGTERM from gunicorn or the platform), a server first waits for its open
responses to finish, and a live stream never finishes by itself: this server ends every
stream first (the shutdown hooks of penance_site.lifecycle: battles registers
battles.live.BROKER.close_all), so the pages reconnect, to a process that
is still up, and catch up from their Last-Event-ID, and the worker stops at once
instead of at gunicorn's graceful timeout.
"""

from __future__ import annotations

import socket
import sys
from typing import Any, ClassVar

from gunicorn.arbiter import Arbiter
from uvicorn.server import Server
from uvicorn_worker import UvicornWorker

from penance_site.lifecycle import run_shutdown_hooks


class LiveServer(Server):
    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        run_shutdown_hooks()
        await super().shutdown(sockets)


class Worker(UvicornWorker):
    # h11 (pure Python) and the standard asyncio loop: nothing compiled to install. Django
    # answers no lifespan events, so uvicorn sends none.
    CONFIG_KWARGS: ClassVar[dict[str, Any]] = {"loop": "asyncio", "http": "h11", "lifespan": "off"}

    async def _serve(self) -> None:
        # UvicornWorker._serve with LiveServer in place of uvicorn's Server.
        self.config.app = self.wsgi
        server = LiveServer(config=self.config)
        self._install_sigquit_handler()
        await server.serve(sockets=self.sockets)
        if not server.started:
            sys.exit(Arbiter.WORKER_BOOT_ERROR)
