"""The seeded generator's numbers are its definition: BLAKE2b-64 of (seed, counter). Stored games are
replayed from their seed, so a faster implementation must give exactly the same numbers."""

from __future__ import annotations

from hashlib import blake2b

import pytest

from games.rng import Rng

MASK64 = (1 << 64) - 1


def by_definition(seed: int, counter: int) -> int:
    data = seed.to_bytes(16, "little", signed=True) + counter.to_bytes(8, "little")
    return int.from_bytes(blake2b(data, digest_size=8).digest(), "little")


@pytest.mark.parametrize("seed", [0, 1, -5, 7, 2**62, -(2**100), 123_456_789])
def test_the_numbers_are_blake2b_of_seed_and_counter(seed: int) -> None:
    rng = Rng(seed, 17)
    assert [rng._next64() for _ in range(40)] == [by_definition(seed, c) for c in range(17, 57)]
    assert rng.state() == (seed, 57)


def test_a_generator_rebuilt_from_its_state_continues_the_same_stream() -> None:
    rng = Rng(42)
    for _ in range(25):
        rng.d6()
    again = Rng(*rng.state())
    assert [rng.randbelow(1000) for _ in range(25)] == [again.randbelow(1000) for _ in range(25)]


def test_die_rolls_reject_the_biased_tail_and_follow_the_definition() -> None:
    limit = MASK64 - (MASK64 + 1) % 6
    expected, counter = [], 0
    while len(expected) < 200:
        x = by_definition(2026, counter)
        counter += 1
        if x <= limit:
            expected.append(x % 6 + 1)
    rng = Rng(2026)
    assert [rng.d6() for _ in range(200)] == expected
    assert rng.counter == counter
