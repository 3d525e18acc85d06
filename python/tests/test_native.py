"""The `native` dialect through Python: the robustness corpus and the API's edges.

Scoring follows tests/vectors/ROBUSTNESS.md exactly as the core's runner does.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any, Union

import pytest

import hunkloom
from conftest import VECTORS, split

# Apply cases refused on purpose, with the reason (none today).
REFUSED: dict[str, str] = {}

Observed = Union[str, tuple[str, str]]  # new content, or (code, message)


def load_cases() -> list[dict[str, Any]]:
    with open(VECTORS / "robustness.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def score(case: dict[str, Any], got: Observed) -> str:
    unchanged = got == case["original"]
    refused = isinstance(got, tuple)
    if case["expect"].get("refuse"):
        return "correct" if refused or unchanged else "wrong"
    if not refused and got == case["expect"].get("content"):
        return "correct"
    return "refused" if refused or unchanged else "wrong"


def stateless(case: dict[str, Any]) -> Observed:
    try:
        return hunkloom.apply_diff(case["diff"], case["original"]).new_content
    except hunkloom.HunkloomError as error:
        return (error.code, str(error))


def streamed(case: dict[str, Any], mode: str) -> Observed:
    applier = hunkloom.StreamingApplier(case["original"], dialect="native")
    mirror = case["original"]
    for piece in split(case["diff"], mode):
        mirror = applier.push(piece).apply_to(mirror)
    assert mirror == applier.preview, f"{case['id']} {mode}: splices do not rebuild the preview"
    try:
        return applier.finish().new_content
    except hunkloom.HunkloomError as error:
        return (error.code, str(error))


def test_robustness_corpus(summary: list[str]) -> None:
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    problems = []
    refused = []
    for case in load_cases():
        got = stateless(case)
        verdict = score(case, got)
        counts[case["category"]][verdict] += 1
        if verdict == "wrong":
            problems.append(f"WRONG {case['id']}")
        elif verdict == "refused":
            refused.append(case["id"])
        for mode in ("whole", "random"):
            if streamed(case, mode) != got:
                problems.append(f"{case['id']} {mode}: streamed outcome differs from apply_diff")
    total: dict[str, int] = defaultdict(int)
    for category in sorted(counts):
        c = counts[category]
        n = sum(c.values())
        summary.append(f"robustness {category}: {c['correct']}/{n} correct, {c['wrong']} wrong")
        for k, v in c.items():
            total[k] += v
    n = sum(total.values())
    summary.append(f"robustness total: {total['correct']}/{n} correct, {total['wrong']} wrong")
    problems += [f"{i} refused but not listed in REFUSED" for i in refused if i not in REFUSED]
    problems += [f"{i} listed in REFUSED but applied" for i in REFUSED if i not in refused]
    if total["wrong"] or total["correct"] * 100 < n * 99:
        problems.append("below the bar: 99% correct and none wrong")
    assert not problems, "\n".join(problems[:20])


def test_native_applies_what_the_model_meant() -> None:
    original = "def f():\r\n    x = 1\r\n    return x\r\n"
    diff = "<<<<<<< SEARCH\nx = 1\nreturn x\n=======\n    x = 2\n    return x\n>>>>>>> REPLACE\n"
    outcome = hunkloom.apply_diff(diff, original)
    assert outcome.new_content == "def f():\r\n    x = 2\r\n    return x\r\n"
    [block] = outcome.blocks
    assert (block.status, block.strategy, block.candidates) == ("applied", "indentation", 1)
    assert (block.start_line, block.end_line) == (2, 3)
    assert "indentation" in block.normalizations
    assert block.error is None


def test_native_refuses_ambiguity_with_the_candidate_lines() -> None:
    diff = "------- SEARCH\na = 1\n=======\na = 3\n+++++++ REPLACE\n"
    with pytest.raises(hunkloom.AmbiguousMatchError) as info:
        hunkloom.apply_diff(diff, "a = 1\nb = 2\na = 1\n")
    assert info.value.code == "ambiguous_match"
    assert "line 1" in str(info.value) and "line 3" in str(info.value)


def test_partial_policy_reports_the_failed_block() -> None:
    diff = (
        "------- SEARCH\nb = 2\n=======\nb = 20\n+++++++ REPLACE\n"
        "------- SEARCH\nzzz\n=======\nyyy\n+++++++ REPLACE\n"
    )
    with pytest.raises(hunkloom.SearchNotFoundError):
        hunkloom.apply_diff(diff, "a = 1\nb = 2\n")
    outcome = hunkloom.apply_diff(diff, "a = 1\nb = 2\n", policy="partial")
    assert outcome.new_content == "a = 1\nb = 20\n"
    statuses = sorted((b.status, b.strategy) for b in outcome.blocks)
    assert statuses == [("applied", "exact"), ("failed", "unmatched")]
    [failed] = [b for b in outcome.blocks if b.status == "failed"]
    assert isinstance(failed.error, hunkloom.SearchNotFoundError)
    assert failed.error.code == "search_not_found"


def test_overlapping_blocks_are_an_error() -> None:
    diff = (
        "------- SEARCH\na\nb\n=======\nA\nB\n+++++++ REPLACE\n"
        "------- SEARCH\nb\nc\n=======\nB\nC\n+++++++ REPLACE\n"
    )
    with pytest.raises(hunkloom.MalformedDiffError) as info:
        hunkloom.apply_diff(diff, "a\nb\nc\n")
    assert info.value.code == "overlapping_blocks"


def test_native_streaming_positions_are_str_indices() -> None:
    original = "😀 start\nkeep\nchange me\nend\n"
    applier = hunkloom.StreamingApplier(original, dialect="native")
    view = original
    for ch in "------- SEARCH\nchange me\n=======\nchanged 🚀\n+++++++ REPLACE\n":
        update = applier.push(ch)
        view = view[: update.start] + update.inserted + view[update.start + update.removed :]
        assert view == applier.preview
    assert applier.finish().new_content == "😀 start\nkeep\nchanged 🚀\nend\n"


def test_unknown_policy_and_cline_dialect_through_apply_diff() -> None:
    with pytest.raises(hunkloom.InvalidOptionError) as info:
        hunkloom.apply_diff("", "", policy="some")  # type: ignore[arg-type]
    assert info.value.code == "invalid_policy"
    diff = "------- SEARCH\nb\n=======\nB\n+++++++ REPLACE\n"
    outcome = hunkloom.apply_diff(diff, "a\nb\n", dialect="cline-v1")
    assert (outcome.new_content, outcome.match_indices) == ("a\nB\n", [2])
