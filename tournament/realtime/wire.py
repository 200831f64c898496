"""Writing one pre-encoded websocket frame to many sockets cheaply (issue 10, docs/PERFORMANCE.md).

The textbook path for every socket and every frame is: consumer ``send`` → session middleware → the
server's websocket protocol frames the payload → the transport writes it. For a frame that hundreds of
sockets share, we frame the payload once (a server-to-client text frame is just a header plus the UTF-8
bytes, never masked) and hand the same bytes straight to each socket's transport:

- under daphne, to the socket itself when Twisted has nothing buffered for it (else through Twisted's
  ordered buffer);
- under uvicorn (``websockets-sansio``), to its asyncio transport, which every frame of that protocol
  goes through in one write, so order is kept.

Under any other server (or in tests with Channels' communicator) the normal ASGI send is used, so
behaviour is identical; only the cost differs.
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Callable
from typing import Any


class Frame(str):
    """A frame's text that remembers its encoded websocket frame (one encoding for all sockets)."""

    _wire: bytes | None = None

    @classmethod
    def of(cls, payload: bytes) -> Frame:
        """A frame from its UTF-8 payload, framed at once (the payload is never encoded again)."""
        frame = cls(payload.decode("utf-8"))
        frame._wire = websocket_frame(payload)
        return frame

    @property
    def wire(self) -> bytes:
        """The complete websocket text frame, built once."""
        if self._wire is None:
            self._wire = websocket_frame(self.encode("utf-8"))
        return self._wire


def websocket_frame(payload: bytes) -> bytes:
    """An unmasked, unfragmented websocket text frame (RFC 6455 §5.2) carrying ``payload``."""
    n = len(payload)
    if n < 126:
        header = struct.pack("!BB", 0x81, n)
    elif n < 1 << 16:
        header = struct.pack("!BBH", 0x81, 126, n)
    else:
        header = struct.pack("!BBQ", 0x81, 127, n)
    return header + payload


def wire_of(frame: str) -> bytes:
    """The encoded frame of any text (cached when it is a ``Frame``)."""
    if isinstance(frame, Frame):
        return frame.wire
    return websocket_frame(frame.encode("utf-8"))


Writer = Callable[[bytes], bool]


def writer_of(send: Any) -> Writer | None:
    """A direct writer for the websocket behind a consumer's ``base_send`` (daphne's or uvicorn's), or
    None when the server is another (the ASGI ``send`` is used then).

    Channels' session middleware wraps the server's send; each wrapper keeps the next as ``real_send``.
    """
    for _ in range(4):
        if isinstance(send, functools.partial):  # daphne: partial(Server.handle_reply, protocol)
            if getattr(send.func, "__name__", "") == "handle_reply" and send.args:
                proto = send.args[0]
                if hasattr(proto, "sendMessage") and hasattr(proto, "transport"):
                    return functools.partial(_write_daphne, proto)
            return None
        owner = getattr(send, "__self__", None)
        if owner is not None and type(owner).__name__ == "WebSocketsSansIOProtocol":  # uvicorn
            if hasattr(owner, "conn") and hasattr(owner, "transport"):
                return functools.partial(_write_uvicorn, owner)
            return None
        send = getattr(owner, "real_send", None)
        if send is None:
            return None
    return None


def _write_daphne(proto: Any, data: bytes) -> bool:
    """Write a framed message to an open daphne websocket; False if the socket is not open.

    When Twisted has nothing buffered for the socket, the bytes go to the kernel at once; whatever the
    kernel does not take (or everything, when a buffer exists) goes through Twisted's ordered buffer.
    """
    if getattr(proto, "state", None) != getattr(proto, "STATE_OPEN", object()):
        return False
    transport = proto.transport
    if transport is None or not transport.connected or transport._writeDisconnected:
        return False
    sock = getattr(transport, "socket", None)
    if (
        sock is not None
        and not transport._tempDataBuffer
        and len(transport.dataBuffer) - transport.offset == 0
    ):
        try:
            sent = sock.send(data)
        except BlockingIOError:
            sent = 0
        except OSError:
            return False
        if sent == len(data):
            return True
        data = data[sent:]
    transport.write(data)
    return True


def _write_uvicorn(proto: Any, data: bytes) -> bool:
    """Write a framed message to an open uvicorn (websockets-sansio) socket; False if it is not open."""
    transport = proto.transport
    if proto.conn.state is not _OPEN or proto.close_sent or transport is None or transport.is_closing():
        return False
    transport.write(data)  # asyncio writes at once what the kernel takes and buffers the rest, in order
    return True


try:
    from websockets.protocol import State as _State

    _OPEN: Any = _State.OPEN
except ImportError:  # no websockets package: uvicorn's sans-I/O protocol cannot be running either
    _OPEN = object()
