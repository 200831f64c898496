"""A counter-based random generator whose whole state is two integers stored with the game.

Why counter-based: the service layer persists the game after every action; storing ``(seed, counter)``
is tiny and makes replays exact, where ``random.Random.getstate()`` would be 2.5 KB per game.
"""

from __future__ import annotations

from hashlib import blake2b
from struct import Struct
from typing import TypeVar

T = TypeVar("T")

_MASK64 = (1 << 64) - 1
# randbelow's rejection limit (the largest accepted 64-bit value) for the small ranges games draw from
_LIMITS = {n: _MASK64 - (_MASK64 + 1) % n for n in range(1, 257)}
# the digest as a little-endian unsigned 64-bit integer: int.from_bytes(digest, "little"), at half the cost
_UINT64 = Struct("<Q").unpack


class Rng:
    """Deterministic stream of random numbers for one game.

    >>> a, b = Rng(7), Rng(7)
    >>> [a.d6() for _ in range(5)] == [b.d6() for _ in range(5)]
    True
    """

    __slots__ = ("_keyed", "counter", "seed")

    def __init__(self, seed: int, counter: int = 0) -> None:
        self.seed = int(seed)
        self.counter = int(counter)
        # BLAKE2b of (seed, counter) is BLAKE2b fed the seed, then the counter: the hash state after the
        # seed is made once and copied for each draw (the same numbers, about twice as fast)
        self._keyed = blake2b(self.seed.to_bytes(16, "little", signed=True), digest_size=8)

    def _next64(self) -> int:
        h = self._keyed.copy()
        h.update(self.counter.to_bytes(8, "little"))
        self.counter += 1
        return int.from_bytes(h.digest(), "little")

    def randbelow(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` (rejection sampling, no modulo bias).

        ``_next64`` written out, with the rejection limits of small ``n`` from a table: a dice-football
        match draws about 260 numbers, so this is on the hot path of every match format (bench/formats.py).
        """
        limit = _LIMITS.get(n)
        if limit is None:
            if n <= 0:
                raise ValueError("n must be positive")
            limit = _MASK64 - (_MASK64 + 1) % n
        while True:
            h = self._keyed.copy()
            h.update(self.counter.to_bytes(8, "little"))
            self.counter += 1
            x = _UINT64(h.digest())[0]
            if x <= limit:
                return x % n

    def d6(self) -> int:
        """Roll the ball die: 1..6."""
        return self.randbelow(6) + 1

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place (Fisher–Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: list[T] | tuple[T, ...]) -> T:
        """Pick one element uniformly."""
        return items[self.randbelow(len(items))]

    def state(self) -> tuple[int, int]:
        """The generator's whole state, to store with the game."""
        return (self.seed, self.counter)
