"""Roo Code's ``apply_diff`` through ``apply_diff(..., dialect="roo")`` and ``StreamingApplier``.

Runs the corpora of tests/vectors/roo-multi-search-replace* (the generated sets at thresholds
1.0 and 0.9, Roo's spec calls and the probes) as crates/hunkloom/tests/roo_vectors.rs does, in
modes ``apply`` (one-shot) and ``whole``/``line``/``char``/``random`` (the streaming applier),
comparing with what ``expect`` (Roo's ``DiffResult``) means for the dialect: Roo's ``content``
and each ``failParts`` text as a failed block's error, or the refusal (Roo's top-level
``error``; or, when no block applied, every ``failParts`` text separated by blank lines).
Prints ``<corpus> <mode>: <passed>/<total> passed`` and ``<corpus>: <passed>/<total> passed``
(rows that passed in every mode). No row is skipped.

The marker-check corpus records Roo's internal ``validateMarkerSequencing``; Python reaches it
through ``apply_diff``: its 14 error rows raise exactly that error, and for its 11 rows in
sequence the call does not fail with a marker error.
"""

from __future__ import annotations

from typing import Any, Union

import pytest

import hunkloom
from conftest import load, split

CORPORA = (
    ("roo-msr-t100", "roo-multi-search-replace/roo-msr-t100"),
    ("roo-msr-t090", "roo-multi-search-replace/roo-msr-t090"),
    ("roo-msr-spec", "roo-multi-search-replace"),
    ("roo-msr-probes", "roo-multi-search-replace-probes"),
)
MODES = ("apply", "whole", "line", "char", "random")

Observed = Union[tuple[str, str, list[str]], tuple[str, str]]


def options(row: dict[str, Any]) -> dict[str, Any]:
    threshold, buffer = row["constructor_args"]
    return {
        "fuzzy_threshold": 1.0 if threshold is None else threshold,
        "buffer_lines": 40 if buffer is None else int(buffer),
    }


def expected(row: dict[str, Any]) -> Observed:
    e = row["expect"]
    parts = [p["error"] for p in e.get("failParts", [])]
    if "error" in e:
        return ("refused", e["error"])
    if "content" in e:
        return ("applied", e["content"], parts)
    return ("refused", "\n\n".join(parts))


def outcome(o: hunkloom.Outcome) -> Observed:
    failed = [str(b.error) for b in o.blocks if b.status == "failed"]
    return ("applied", o.new_content, failed)


def run(row: dict[str, Any], mode: str) -> Observed:
    try:
        if mode == "apply":
            return outcome(
                hunkloom.apply_diff(row["diff"], row["original"], dialect="roo", **options(row))
            )
        applier = hunkloom.StreamingApplier(row["original"], dialect="roo", **options(row))
        for piece in split(row["diff"], mode):
            applier.push(piece)
        assert applier.preview == row["original"]
        return outcome(applier.finish())
    except hunkloom.HunkloomError as error:
        return ("refused", str(error))


@pytest.mark.parametrize("corpus,file", CORPORA)
def test_roo_corpus(corpus: str, file: str, summary: list[str]) -> None:
    rows = load(file)
    passed = {m: 0 for m in MODES}
    every = 0
    failures: list[str] = []
    for row in rows:
        want = expected(row)
        ok = True
        for mode in MODES:
            got = run(row, mode)
            if got == want:
                passed[mode] += 1
            else:
                ok = False
                failures.append(f"{row['id']} {mode}\n  want {want!r}\n  got  {got!r}")
        every += ok
    for mode in MODES:
        summary.append(f"{corpus} {mode}: {passed[mode]}/{len(rows)} passed")
    summary.append(f"{corpus}: {every}/{len(rows)} passed")
    assert not failures, "\n".join(failures[:5])


def test_roo_marker_checks(summary: list[str]) -> None:
    rows = load("roo-multi-search-replace-markers")
    failures: list[str] = []
    for row in rows:
        want = row["expect"].get("error")
        try:
            hunkloom.apply_diff(row["diff"], "", dialect="roo")
            got = None
        except hunkloom.HunkloomError as error:
            got = str(error) if str(error).startswith("ERROR:") else None
        if got != want:
            failures.append(f"{row['id']}: want {want!r}, got {got!r}")
    summary.append(f"roo-msr-markers: {len(rows) - len(failures)}/{len(rows)} passed")
    assert not failures, "\n".join(failures[:5])


def test_roo_reports_each_block_and_raises_when_none_applies() -> None:
    original = "a = 1\nb = 2\n"
    diff = (
        "<<<<<<< SEARCH\n:start_line:2\n-------\nb = 2\n=======\nb = 3\n>>>>>>> REPLACE\n"
        "<<<<<<< SEARCH\nzzz\n=======\nq\n>>>>>>> REPLACE"
    )
    out = hunkloom.apply_diff(diff, original, dialect="roo")
    assert out.new_content == "a = 1\nb = 3\n"
    # Roo tries the hint-less block first (no hint counts as 0), then the one at line 2.
    assert [b.index for b in out.blocks] == [1, 0]
    assert [b.status for b in out.blocks] == ["failed", "applied"]
    assert [b.strategy for b in out.blocks] == ["unmatched", "similarity"]
    assert out.blocks[1].start == 6 and out.blocks[1].end_line == 2
    failed = out.blocks[0].error
    assert isinstance(failed, hunkloom.SearchNotFoundError)
    assert str(failed).startswith("No sufficiently similar match found (0% similar, needs 100%)")
    with pytest.raises(hunkloom.SearchNotFoundError) as info:
        hunkloom.apply_diff("<<<<<<< SEARCH\nb = 9\n=======\nx\n>>>>>>> REPLACE", original, dialect="roo")
    assert "(80% similar, needs 100%)" in str(info.value)
    loose = hunkloom.apply_diff(
        "<<<<<<< SEARCH\nb = 9\n=======\nx\n>>>>>>> REPLACE", original, dialect="roo",
        fuzzy_threshold=0.8,
    )
    assert loose.new_content == "a = 1\nx\n"
    with pytest.raises(hunkloom.MalformedDiffError, match="^ERROR: Unexpected end of sequence"):
        hunkloom.apply_diff("<<<<<<< SEARCH\na\n", original, dialect="roo")
