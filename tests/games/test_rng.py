"""The seeded generators' numbers are their definitions: generation 1 is BLAKE2b-64 of (seed, counter),
generation 2 the 32-bit words of BLAKE2b-512 of (seed, counter // 16). Stored games are replayed from their
seed with the generation their setup names, so a faster implementation must give exactly the same
numbers."""

from __future__ import annotations

from hashlib import blake2b

import pytest

from games.rng import GENERATIONS, LATEST, BlockRng, Rng, make_rng

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


# ------------------------------------------------------------------------------------ generation 2
MASK32 = (1 << 32) - 1


def block_word(seed: int, counter: int) -> int:
    data = seed.to_bytes(16, "little", signed=True) + (counter // 16).to_bytes(8, "little")
    digest = blake2b(data, digest_size=64).digest()
    i = counter % 16
    return int.from_bytes(digest[4 * i : 4 * i + 4], "little")


@pytest.mark.parametrize("seed", [0, 1, -5, 2**62, -(2**100)])
@pytest.mark.parametrize("start", [0, 1, 15, 16, 17, 1000])
def test_generation_2_draws_are_the_words_of_blake2b_512_from_any_counter(seed: int, start: int) -> None:
    limit = MASK32 - (MASK32 + 1) % 6
    expected, counter = [], start
    while len(expected) < 50:
        x = block_word(seed, counter)
        counter += 1
        if x <= limit:
            expected.append(x % 6 + 1)
    rng = BlockRng(seed, start)  # resumed mid-block as a reloaded game is
    assert [rng.d6() for _ in range(50)] == expected
    assert rng.state() == (seed, counter)


def test_generation_2_covers_large_ranges_on_64_bits_without_bias() -> None:
    rng = BlockRng(9)
    n = 10**12 + 39
    draws = [rng.randbelow(n) for _ in range(200)]
    assert all(0 <= x < n for x in draws) and len(set(draws)) == 200
    assert rng.counter == 400  # two words per number beyond 256
    assert BlockRng(9, 2)._next64() == (block_word(9, 2) << 32) | block_word(9, 3)
    with pytest.raises(ValueError):
        rng.randbelow(0)


def test_generation_2_rolls_are_fair() -> None:
    """60,000 rolls: every face within 4 standard deviations of 10,000 (a broken mapping is far off)."""
    rng = BlockRng(2026)
    counts = [0] * 6
    for _ in range(60_000):
        counts[rng.randbelow(6)] += 1
    assert all(abs(c - 10_000) < 4 * 91.3 for c in counts), counts


def test_make_rng_builds_each_generation_and_refuses_an_unknown_one() -> None:
    assert type(make_rng(3, 4, 1)) is Rng and make_rng(3, 4, 1).state() == (3, 4)
    assert type(make_rng(3, 4, 2)) is BlockRng and GENERATIONS[LATEST] is BlockRng
    assert make_rng(3, 0, 1).d6() == Rng(3).d6() and make_rng(3, 0, 2).d6() == BlockRng(3).d6()
    for bad in (0, 3, "2", None, [2]):
        with pytest.raises(ValueError):
            make_rng(3, 0, bad)  # type: ignore[arg-type]
