"""Every Cline vector through every way of calling hunkloom from Python:

  stateless        construct_new_file_content (resume cache off: one stateless call each)
  whole/line/char/random
                   StreamingApplier fed the diff in that chunking; the splices of each Update
                   rebuild the preview; then finish() (final vectors) or preview/error/
                   match_indices (partial vectors)
  growing-prefix   Cline's calling pattern with the resume cache on: construct_new_file_content
                   on growing prefixes of the diff (seeded random character cuts, as the Node
                   runner cuts them), each checked against a StreamingApplier fed the same
                   pieces, then the vector's own call, checked against the vector; the cache must
                   have resumed every call after the first of each chain

Expected ``match_indices`` are JavaScript UTF-16 offsets; they are converted to ``str`` indices
before comparing, since that is the unit the Python API promises.
"""

from __future__ import annotations

from typing import Any, Literal, Union

import pytest

import hunkloom
from conftest import CLINE_CORPORA, load, split, utf16_to_str_index

MODES = ("stateless", "whole", "line", "char", "random", "growing-prefix")
PREFIX_SEED = 0xC11E  # the Node runner's seed for the growing-prefix cuts
DIALECTS: dict[str, Literal["cline-v1", "cline-v2"]] = {"v1": "cline-v1", "v2": "cline-v2"}

Observed = Union[tuple[str, list[int]], tuple[str, str]]


def expected(vector: dict[str, Any]) -> Observed:
    expect = vector["expect"]
    if "error" in expect:
        return ("error", expect["error"])
    indices = [utf16_to_str_index(vector["original"], i) for i in expect["match_indices"]]
    return (expect["new_content"], indices)


def raised(error: hunkloom.HunkloomError) -> Observed:
    return ("error", str(error))


def stateless(vector: dict[str, Any]) -> Observed:
    try:
        result = hunkloom.construct_new_file_content(
            vector["diff"], vector["original"], vector["is_final"], vector["version"]
        )
    except hunkloom.HunkloomError as error:
        return raised(error)
    return (result.new_content, result.match_indices)


def partial_state(applier: hunkloom.StreamingApplier) -> Observed:
    """The applier's state as a partial call reports it."""
    pending = applier.error
    if pending is not None:
        assert isinstance(pending, hunkloom.HunkloomError)
        return raised(pending)
    return (applier.preview, applier.match_indices)


def growing_prefix(vector: dict[str, Any]) -> tuple[Observed, int]:
    """The vector's own call after one call per growing prefix, and how many calls were made."""
    pieces = list(split(vector["diff"], "random", PREFIX_SEED))
    applier = hunkloom.StreamingApplier(
        vector["original"], dialect=DIALECTS[vector["version"]]
    )
    prefix = ""
    for piece in pieces[:-1]:
        prefix += piece
        applier.push(piece)
        try:
            result = hunkloom.construct_new_file_content(
                prefix, vector["original"], False, vector["version"]
            )
            got: Observed = (result.new_content, result.match_indices)
        except hunkloom.HunkloomError as error:
            got = raised(error)
        want = partial_state(applier)
        if got != want:
            return (("error", f"prefix {prefix!r}: want {want!r}, got {got!r}"), 0)
    return (stateless(vector), max(len(pieces), 1))


def streamed(vector: dict[str, Any], mode: str) -> Observed:
    applier = hunkloom.StreamingApplier(
        vector["original"], dialect=DIALECTS[vector["version"]]
    )
    mirror = ""  # the caller's own copy of the preview, kept only through the splices
    for piece in split(vector["diff"], mode):
        mirror = applier.push(piece).apply_to(mirror)
    if mirror != applier.preview:
        return ("error", "splices do not rebuild the preview")
    if vector["is_final"]:
        try:
            outcome = applier.finish()
        except hunkloom.HunkloomError as error:
            return raised(error)
        return (outcome.new_content, outcome.match_indices)
    return partial_state(applier)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("corpus", CLINE_CORPORA)
def test_cline_vectors(
    corpus: str, mode: str, summary: list[str], resume_cache_capacity: None
) -> None:
    vectors = load(corpus)
    failures = []
    hunkloom.set_resume_cache_capacity(0 if mode == "stateless" else 4)
    hits_before = hunkloom.resume_cache_stats().hits
    chained = 0
    for vector in vectors:
        want = expected(vector)
        if mode == "stateless":
            got = stateless(vector)
        elif mode == "growing-prefix":
            got, calls = growing_prefix(vector)
            chained += max(calls - 1, 0)
        else:
            got = streamed(vector, mode)
        if got != want:
            failures.append(f"{vector['id']}:\n  want {want!r}\n  got  {got!r}")
    line = f"{corpus} {mode}: {len(vectors) - len(failures)}/{len(vectors)} passed"
    summary.append(line)
    assert not failures, line + "\n" + "\n".join(failures[:5])
    hits = hunkloom.resume_cache_stats().hits - hits_before
    assert hits >= chained, f"the cache resumed {hits} calls, want at least {chained}"
    assert mode != "growing-prefix" or chained > 0
