"""With REDIS_URL set, Channels pushes go through a real Redis: each replica sees every group message."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Callable
from typing import Any

import redis

ROUND_TRIP = """
import asyncio, json
from channels.layers import channel_layers, get_channel_layer

async def main():
    sender = get_channel_layer()                      # what the app uses
    receiver = channel_layers.make_backend("default")  # a second, independent layer: another replica
    channel = await receiver.new_channel()
    await receiver.group_add("room.GROUPNAME", channel)
    await sender.group_send("room.GROUPNAME", {"type": "game.changed", "version": 7, "seq": 41})
    message = await asyncio.wait_for(receiver.receive(channel), timeout=10)
    await receiver.group_discard("room.GROUPNAME", channel)
    names = {"sender": type(sender).__name__, "receiver": type(receiver).__name__}
    print(json.dumps({**names, "message": message}))

asyncio.run(main())
"""


def test_group_message_crosses_two_layers_through_redis(
    redis_url: str, django_subprocess: Callable[..., str]
) -> None:
    group = uuid.uuid4().hex
    out = django_subprocess(ROUND_TRIP.replace("GROUPNAME", group), REDIS_URL=redis_url)
    result = json.loads(out.strip().splitlines()[-1])
    assert result["sender"] == result["receiver"] == "RedisPubSubChannelLayer"
    assert result["message"] == {"type": "game.changed", "version": 7, "seq": 41}


def test_without_redis_url_two_layers_do_not_share_groups(django_subprocess: Callable[..., str]) -> None:
    """The control: the in-memory layer is per process, which is why several replicas need Redis."""
    code = (
        ROUND_TRIP.replace("GROUPNAME", "control")
        .replace(
            "asyncio.run(main())",
            "try:\n    asyncio.run(main())\nexcept TimeoutError:\n    print(json.dumps({'timeout': True}))",
        )
        .replace("timeout=10", "timeout=0.5")
    )
    out = django_subprocess(code, REDIS_URL=None)
    assert json.loads(out.strip().splitlines()[-1]) == {"timeout": True}


async def test_a_group_is_a_redis_subscription_that_ends_with_its_last_member(
    redis_url: str, redis_channel_layer: Any
) -> None:
    """A hub's group membership is a Redis SUBSCRIBE: other processes' PUBLISHes reach it; after
    ``group_discard`` nothing reaches it and Redis forgets the subscription (no leftover per process)."""
    layer = redis_channel_layer
    group = f"room.{uuid.uuid4().hex}"
    channel = await layer.new_channel()
    client = redis.Redis.from_url(redis_url)
    subscribers = 0
    try:
        await layer.group_add(group, channel)
        name = next(n for n in client.pubsub_channels() if group.encode() in n)
        subscribers = client.pubsub_numsub(name)[0][1]
        published = client.publish(name, b"\x81\xa4type\xacgame.changed")  # what another process sends
        assert published == 1
        assert await asyncio.wait_for(layer.receive(channel), timeout=10) == {"type": "game.changed"}
        await layer.group_send(group, {"type": "game.changed", "version": 1})
        assert await asyncio.wait_for(layer.receive(channel), timeout=10) == {
            "type": "game.changed",
            "version": 1,
        }
        await layer.group_discard(group, channel)
        assert client.pubsub_numsub(name)[0][1] == 0
        assert client.publish(name, b"\x80") == 0
    finally:
        client.close()
        await layer.flush()
    assert subscribers == 1


THREAD_PUSH = """
import asyncio, json, threading
from channels.layers import channel_layers, get_channel_layer
from tournament.services import notify

async def main():
    receiver = channel_layers.make_backend("default")  # another replica's layer
    channel = await receiver.new_channel()
    await receiver.group_add(notify.room_group("GROUPNAME"), channel)
    # what a committing thread does after an action: no event loop in that thread
    worker = threading.Thread(target=notify.game_changed, args=("GROUPNAME", 9, 55))
    worker.start()
    worker.join()
    message = await asyncio.wait_for(receiver.receive(channel), timeout=10)
    direct = notify._thread_publisher.applies(get_channel_layer())
    loop_used = notify._publisher._loop is not None
    print(json.dumps({"message": message, "direct": direct, "publisher_loop": loop_used}))

asyncio.run(main())
"""


def test_a_committing_thread_publishes_to_other_replicas_itself(
    redis_url: str, django_subprocess: Callable[..., str]
) -> None:
    """The thread that committed sends the PUBLISH on its own connection, in channels-redis's format (the
    other replica's layer decodes it), without the background publisher loop."""
    group = uuid.uuid4().hex[:12]
    out = django_subprocess(THREAD_PUSH.replace("GROUPNAME", group), REDIS_URL=redis_url)
    result = json.loads(out.strip().splitlines()[-1])
    assert result["message"] == {"type": "game.changed", "version": 9, "seq": 55}
    assert result["direct"] is True
    assert result["publisher_loop"] is False


def test_a_thread_push_to_a_redis_that_is_down_fails_fast_and_backs_off() -> None:
    """Redis unreachable: the push is logged as lost (hubs poll), and the thread leaves Redis alone for a
    while instead of paying a connect timeout on every action."""
    from channels_redis.pubsub import RedisPubSubChannelLayer

    from tournament.services.notify import _ThreadPublisher

    layer = RedisPubSubChannelLayer(hosts=["redis://127.0.0.1:1/0"])  # nothing listens on port 1
    publisher = _ThreadPublisher()
    assert publisher.applies(layer)
    assert publisher.publish(layer, "room.X", {"type": "game.changed", "version": 1, "seq": 1}) is False
    assert not publisher.applies(layer)


def test_the_committing_thread_publishes_on_a_bare_resp_connection(redis_url: str) -> None:
    """A plain Redis address gets the committing thread's own RESP connection (a third of redis-py's CPU per
    push); the subscribers receive exactly what channels-redis would have published, and the publisher
    learns how many listened. Addresses it cannot serve (TLS) keep redis-py's client."""
    from channels_redis.pubsub import RedisPubSubChannelLayer

    from tournament.services import notify

    assert isinstance(notify._sync_client({"address": redis_url}), notify._RespPublisher)
    assert isinstance(notify._sync_client({"host": "127.0.0.1", "port": 6379}), notify._RespPublisher)
    assert isinstance(notify._sync_client({"address": "rediss://127.0.0.1:6379/0"}), redis.Redis)
    assert isinstance(notify._sync_client({"address": redis_url, "ssl_cert_reqs": None}), redis.Redis)

    layer = RedisPubSubChannelLayer(hosts=[redis_url])
    publisher = notify._ThreadPublisher()
    group = f"room.RESP{uuid.uuid4().hex[:8]}"
    listener = redis.Redis.from_url(redis_url).pubsub(ignore_subscribe_messages=True)
    listener.subscribe(f"asgi__group__{group}")
    try:
        message = {"type": "game.changed", "version": 3, "seq": 9, "carry": {"data": b"\x00\r\n" * 3000}}
        assert publisher.publish(layer, group, message)
        assert publisher.others_may_listen(group, here=False)  # one listener, and it is not this process
        received = None
        for _ in range(50):
            received = listener.get_message(timeout=0.1)
            if received is not None:
                break
        assert received is not None
        assert layer.deserialize(received["data"]) == message
    finally:
        listener.close()


def test_a_push_redis_refuses_is_lost_and_backed_off(redis_url: str) -> None:
    """Redis answers the publisher's connection with an error (here: a password it does not know): the push
    is logged as lost, as for an unreachable Redis, and the thread leaves Redis alone for a while."""
    from channels_redis.pubsub import RedisPubSubChannelLayer

    from tournament.services.notify import _ThreadPublisher

    address = redis_url.replace("redis://", "redis://:not-the-password@", 1)
    layer = RedisPubSubChannelLayer(hosts=[address])
    publisher = _ThreadPublisher()
    assert publisher.publish(layer, "room.REFUSED", {"type": "game.changed", "version": 1, "seq": 1}) is False
    assert not publisher.applies(layer)


def test_the_bare_publisher_signs_in_with_the_addresss_user_and_password(redis_url: str) -> None:
    """A Redis that wants a user and password (an ACL user, so the shared server's default user is left
    alone): the committing thread's own connection signs in with the ones in the address and its pushes
    arrive; a wrong password is a lost push, not an error."""
    from urllib.parse import urlsplit

    from channels_redis.pubsub import RedisPubSubChannelLayer

    from tournament.services.notify import _ThreadPublisher

    admin = redis.Redis.from_url(redis_url)
    user = f"mft-{uuid.uuid4().hex[:8]}"
    admin.execute_command("ACL", "SETUSER", user, "on", ">s3cret:/@", "&*", "+publish", "+auth")
    url = urlsplit(redis_url)
    try:
        for password, arrives in (("s3cret%3A%2F%40", True), ("wrong", False)):
            address = f"redis://{user}:{password}@{url.hostname}:{url.port}{url.path}"
            layer = RedisPubSubChannelLayer(hosts=[address])
            group = f"room.AUTH{uuid.uuid4().hex[:8]}"
            listener = admin.pubsub(ignore_subscribe_messages=True)
            listener.subscribe(f"asgi__group__{group}")
            try:
                message = {"type": "game.changed", "version": 2, "seq": 5}
                assert _ThreadPublisher().publish(layer, group, message) is arrives
                received = None
                for _ in range(10 if arrives else 3):
                    received = listener.get_message(timeout=0.1)
                    if received is not None:
                        break
                assert (received is not None) is arrives
            finally:
                listener.close()
    finally:
        admin.execute_command("ACL", "DELUSER", user)
        admin.close()
