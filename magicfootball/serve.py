"""Serve the project with uvicorn, the production worker (docker-compose.yml): ``python -m magicfootball.serve
--host 0.0.0.0 --port 8000 [uvicorn options]``.

uvicorn with uvloop, httptools and the sans-I/O websocket protocol costs ~17-26 % fewer server
instructions per game action than daphne (bench/realtime.py, docs/PERFORMANCE.md); ``make run`` keeps
daphne. The options are those every uvicorn of ours runs with (tests, benchmarks, compose):

- websocket frames up to 1 MiB, like daphne (the consumer refuses protocol frames over 16 KiB itself);
- no per-message compression: frames are pre-encoded once and written to every socket as they are
  (tournament/realtime/wire.py); compressing each socket's copy would cost more than it saves on a LAN;
- no access log (a line per websocket frame would be most of the process's work).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

APP = "magicfootball.asgi:application"
UVICORN_OPTIONS = (
    "--loop",
    "uvloop",
    "--http",
    "httptools",
    "--ws",
    "websockets-sansio",
    "--ws-max-size",
    "1048576",
    "--ws-per-message-deflate",
    "false",
    "--no-access-log",
)


def command(*extra: str) -> list[str]:
    """The argv for uvicorn: the app, our options, then ``extra`` (host, port, proxy headers)."""
    return [APP, *UVICORN_OPTIONS, *extra]


def argv(server: str, host: str, port: int, app: str = APP, extra: Sequence[str] = ()) -> list[str]:
    """The command serving ``app`` on ``host:port``: daphne (``make run``; ``extra`` are its options) or
    uvicorn as docker-compose runs it (this module; the project only). Tests and benchmarks start both."""
    if server == "uvicorn":
        if app != APP or extra:
            raise ValueError("uvicorn serves the project only, with its own options")
        return [sys.executable, "-m", "magicfootball.serve", "--host", host, "--port", str(port)]
    if server != "daphne":
        raise ValueError(f"unknown server {server!r}")
    return [sys.executable, "-m", "daphne", "-b", host, "-p", str(port), *extra, app]


def main(argv: list[str] | None = None) -> None:
    """Run uvicorn with the project's options followed by ``argv``."""
    from uvicorn.main import main as uvicorn

    uvicorn.main(args=command(*(sys.argv[1:] if argv is None else argv)), prog_name="magicfootball.serve")


if __name__ == "__main__":
    main()
