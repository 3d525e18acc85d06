"""The resume cache behind construct_new_file_content: a call on every growing prefix gives the
stateless result and resumes the previous call; capacity 0 empties the cache and resumes
nothing; the switches, their counters and their argument errors."""

from __future__ import annotations

from typing import Any, Union

import pytest

import hunkloom
from conftest import load, utf16_to_str_index

# Characters of two, three and four UTF-8 bytes (the last two astral in UTF-16).
ASTRAL: dict[str, Any] = {
    "id": "astral",
    "version": "v1",
    "original": "a \U0001f680\nb \u00e9\nc\n",
    "diff": "------- SEARCH\nb \u00e9\n=======\n\u20ac \U0001f600\n+++++++ REPLACE\n",
    "is_final": True,
    "expect": {"new_content": "a \U0001f680\n\u20ac \U0001f600\nc\n", "match_indices": [5]},
}

Observed = Union[tuple[str, list[int], list[int]], tuple[str, str, str]]


def vectors() -> list[dict[str, Any]]:
    """``cline-unit`` (both versions, final and partial calls, errors) and ``ASTRAL``."""
    return load("cline-unit") + [ASTRAL]


def call(diff: str, vector: dict[str, Any], is_final: bool) -> Observed:
    try:
        r = hunkloom.construct_new_file_content(
            diff, vector["original"], is_final, vector["version"]
        )
    except hunkloom.HunkloomError as error:
        return ("error", error.code, str(error))
    return (r.new_content, r.match_indices, r.match_lines)


def replay(vector: dict[str, Any]) -> list[Observed]:
    """A partial call on every prefix of the diff (cut after each character), then the vector's
    own call."""
    diff = vector["diff"]
    results = [call(diff[:end], vector, False) for end in range(1, len(diff))]
    results.append(call(diff, vector, vector["is_final"]))
    return results


def matches_the_vector(vector: dict[str, Any], got: Observed) -> bool:
    expect = vector["expect"]
    if "error" in expect:
        return got[0] == "error" and got[2] == expect["error"]
    indices = [utf16_to_str_index(vector["original"], i) for i in expect["match_indices"]]
    return got[:2] == (expect["new_content"], indices)


def test_every_prefix_resumes_and_equals_the_stateless_call(resume_cache_capacity: None) -> None:
    vs = vectors()
    hunkloom.set_resume_cache_capacity(0)  # every call computed from scratch
    stateless = [replay(v) for v in vs]
    hunkloom.set_resume_cache_capacity(4)
    before = hunkloom.resume_cache_stats()
    resumed = [replay(v) for v in vs]
    after = hunkloom.resume_cache_stats()

    for v, want, got in zip(vs, stateless, resumed):
        assert got == want, v["id"]
        assert matches_the_vector(v, got[-1]), (v["id"], got[-1])
    calls = sum(len(r) for r in resumed)
    hits, misses = after.hits - before.hits, after.misses - before.misses
    assert hits + misses == calls
    # Each chain's first call may start from scratch; every later one resumes.
    assert misses <= len(vs)
    assert hits >= calls - len(vs) > 7000
    assert after.entries <= after.capacity == 4


def test_capacity_zero_empties_the_cache_and_resumes_nothing(resume_cache_capacity: None) -> None:
    hunkloom.set_resume_cache_capacity(4)
    hunkloom.construct_new_file_content(ASTRAL["diff"][:20], ASTRAL["original"], False)
    assert hunkloom.resume_cache_stats().entries >= 1

    hunkloom.set_resume_cache_capacity(0)
    before = hunkloom.resume_cache_stats()
    assert (before.entries, before.capacity) == (0, 0)
    calls = sum(len(replay(v)) for v in vectors())
    after = hunkloom.resume_cache_stats()
    assert after.hits == before.hits
    assert after.misses - before.misses == calls
    assert (after.entries, after.capacity) == (0, 0)


def test_capacity_argument_errors_change_nothing(resume_cache_capacity: None) -> None:
    hunkloom.set_resume_cache_capacity(3)
    with pytest.raises(ValueError, match="non-negative"):
        hunkloom.set_resume_cache_capacity(-1)
    with pytest.raises(TypeError):
        hunkloom.set_resume_cache_capacity("4")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        hunkloom.set_resume_cache_capacity(4.0)  # type: ignore[arg-type]
    with pytest.raises(OverflowError):
        hunkloom.set_resume_cache_capacity(2**80)
    assert hunkloom.resume_cache_stats().capacity == 3


def test_stats_are_a_frozen_value() -> None:
    stats = hunkloom.resume_cache_stats()
    assert stats.capacity == 4  # the default (every test that changes it restores it)
    assert isinstance(stats, hunkloom.ResumeCacheStats)
    assert all(
        isinstance(n, int) and n >= 0
        for n in (stats.hits, stats.misses, stats.entries, stats.capacity)
    )
    with pytest.raises(AttributeError):
        stats.hits = 0  # type: ignore[misc]
    assert stats == hunkloom.resume_cache_stats()  # no call in between
    assert repr(stats) == (
        f"ResumeCacheStats(hits={stats.hits}, misses={stats.misses}, "
        f"entries={stats.entries}, capacity=4)"
    )
