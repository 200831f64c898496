"""Counter-based random generators whose whole state is two integers stored with the game.

Why counter-based: the service layer persists the game after every action; storing ``(seed, counter)``
is tiny and makes replays exact, where ``random.Random.getstate()`` would be 2.5 KB per game.

Two generations, and a game stores which one it draws from (``setup["rng"]``; absent means 1), so every
stored game and record replays with the numbers it was played with:

1. ``Rng``: number ``i`` is BLAKE2b-64 of (seed, i). Magic Football and every game stored before
   generation 2 existed.
2. ``BlockRng``: numbers ``16b … 16b+15`` come from the sixteen 32-bit words of one BLAKE2b-512 of
   (seed, b): the same hash, less than half the cost per number (a digest costs about 4,000 CPU
   instructions, more than the rules of a dice-football roll). Every game under games/ starts on it
   (bench/formats.py, docs/PERFORMANCE.md); Magic Football, which draws a few numbers per action, keeps 1.
"""

from __future__ import annotations

from hashlib import blake2b
from struct import Struct
from typing import TypeVar

T = TypeVar("T")

_MASK64 = (1 << 64) - 1
# randbelow's rejection limit (the largest accepted 64-bit value) for the small ranges games draw from
_LIMITS = {n: _MASK64 - (_MASK64 + 1) % n for n in range(1, 257)}
_MASK32 = (1 << 32) - 1
# the same for BlockRng's 32-bit words, by index (cheaper than a dict's get)
_LIMIT32 = [0, *(_MASK32 - (_MASK32 + 1) % n for n in range(1, 257))]
# the digest as a little-endian unsigned 64-bit integer: int.from_bytes(digest, "little"), at half the cost
_UINT64 = Struct("<Q").unpack
_PACK64 = Struct("<Q").pack
_UINT32X16 = Struct("<16I").unpack  # a 64-byte digest as sixteen little-endian 32-bit words


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


class BlockRng(Rng):
    """Generation 2: the same ``(seed, counter)`` state, sixteen numbers per BLAKE2b digest.

    Number ``counter`` is 32-bit word ``counter % 16`` of BLAKE2b-512(seed, counter // 16). The block of the
    next number is kept (made at once when a generator resumes mid-block), so fifteen draws in sixteen cost
    an index.

    >>> a, b = BlockRng(7), BlockRng(7, 5)
    >>> [a.randbelow(6) for _ in range(40)][5:] == [b.randbelow(6) for _ in range(35)]
    True
    """

    __slots__ = ("_words",)

    def __init__(self, seed: int, counter: int = 0) -> None:
        self.seed = int(seed)
        self.counter = int(counter)
        self._keyed = blake2b(self.seed.to_bytes(16, "little", signed=True), digest_size=64)
        # invariant: while ``counter % 16`` is not 0, ``_words`` is the block of ``counter``
        self._words: tuple[int, ...] = self._block(self.counter >> 4) if self.counter & 15 else ()

    def _block(self, block: int) -> tuple[int, ...]:
        h = self._keyed.copy()
        h.update(_PACK64(block))
        return _UINT32X16(h.digest())

    def _next64(self) -> int:
        return (self._next32() << 32) | self._next32()

    def _next32(self) -> int:
        c = self.counter
        self.counter = c + 1
        i = c & 15
        if not i:
            self._words = self._block(c >> 4)
        return self._words[i]

    def randbelow(self, n: int) -> int:
        """Uniform integer in ``[0, n)``: rejection sampling on 32-bit words for ``n`` up to 256 (what games
        draw), on 64 bits beyond."""
        if 0 < n < 257:
            limit = _LIMIT32[n]
            while True:
                c = self.counter
                self.counter = c + 1
                i = c & 15
                if not i:
                    self._words = self._block(c >> 4)
                x = self._words[i]
                if x <= limit:
                    return x % n
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _MASK64 - (_MASK64 + 1) % n
        while True:
            x = self._next64()
            if x <= limit:
                return x % n


#: the generations a stored game may name, and the one new games under games/ start on
GENERATIONS: dict[int, type[Rng]] = {1: Rng, 2: BlockRng}
LATEST = 2


def make_rng(seed: int, counter: int = 0, generation: int = 1) -> Rng:
    """The generator of ``generation`` at ``(seed, counter)``.

    :raises ValueError: for a generation that does not exist (a forged or corrupt record).
    """
    try:
        cls = GENERATIONS[generation]
    except (KeyError, TypeError):
        raise ValueError(f"unknown random generator generation {generation!r}") from None
    return cls(seed, counter)
