"""The project's settings with channels-redis's list-based RedisChannelLayer instead of pub/sub: what
bench/realtime.py ``--layers`` measures our default against (DJANGO_SETTINGS_MODULE of the server)."""

from magicfootball.settings import *  # noqa: F403
from magicfootball.settings import REDIS_URL

CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": [REDIS_URL], "capacity": 100, "expiry": 10, "group_expiry": 300},
    }
}
