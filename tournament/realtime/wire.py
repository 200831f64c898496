"""Writing one pre-encoded websocket frame to many sockets cheaply (issue 10, docs/PERFORMANCE.md).

The textbook path for every socket and every frame is: consumer ``send`` → session middleware → daphne's
``handle_reply`` → autobahn frames the payload → Twisted buffers it, registers a writer with the event
loop, and writes on the next loop turn. For a frame that hundreds of sockets share, we frame the payload
once (a server-to-client text frame is just a header plus the UTF-8 bytes, never masked) and hand the
same bytes straight to each socket, falling back on Twisted's buffer only when the kernel cannot take
them at once. Under any other server (or in tests with Channels' communicator) the normal ASGI send is
used, so behaviour is identical; only the cost differs.
"""

from __future__ import annotations

import functools
import struct
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


def protocol_of(send: Any) -> Any | None:
    """daphne's websocket protocol behind a consumer's ``base_send``, or None when it cannot be found.

    Channels' session middleware wraps daphne's ``partial(Server.handle_reply, protocol)``; anything
    else (another ASGI server, a test communicator) is left alone.
    """
    for _ in range(4):
        if isinstance(send, functools.partial):
            if getattr(send.func, "__name__", "") == "handle_reply" and send.args:
                proto = send.args[0]
                if hasattr(proto, "sendMessage") and hasattr(proto, "transport"):
                    return proto
            return None
        owner = getattr(send, "__self__", None)
        send = getattr(owner, "real_send", None)
        if send is None:
            return None
    return None


def write(proto: Any, data: bytes) -> bool:
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
