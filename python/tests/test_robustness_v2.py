"""The second robustness corpus (tests/vectors/robustness-v2.jsonl) through Python.

Scored exactly as the core's runner (crates/hunkloom/tests/robustness_v2.rs, scoring in
crates/hunkloom-testkit/src/robustness_v2.rs) scores it, per tests/vectors/ROBUSTNESS-V2.md:
correct, refused, or WRONG, in four modes:

  stateless            apply_diff (default options: ``native``, all or nothing)
  whole/line/random    a StreamingApplier in ``native`` fed the diff whole, per line and at
                       seeded random split points (the Rust runner's chunking and seed)

Each mode is scored on its own. The streamed outcomes (content, match indices and block
reports, or the error's code and message) must equal apply_diff's, and the splices of each
Update must rebuild the preview.

Records ``robustness-v2 <category>: <correct>/<total> correct, <refused> refused, <wrong>
wrong`` per category (stateless), then ``robustness-v2 <mode>: <P>/<T> correct, <R> refused,
<W> wrong`` per mode. Fails on any WRONG result, below 99% correct in a mode, on a streamed
mismatch, or when the cases not scored correct differ from REFUSED.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Union

import hunkloom
from conftest import load, split

# Cases not scored correct on purpose, with the reason (the Rust runner's list; none today).
REFUSED: dict[str, str] = {}

MODES = ("stateless", "whole", "line", "random")
ALREADY_APPLIED = "already_applied"
CORRECT, REFUSE, WRONG = "correct", "refused", "wrong"

# A block report as plain values, so streamed and stateless reports compare field by field.
Block = tuple[Any, ...]


@dataclass(frozen=True)
class Applied:
    """What the engine returned without an error."""

    content: str
    match_indices: list[int]
    blocks: list[Block]


@dataclass(frozen=True)
class Refusal:
    """The error the engine raised."""

    code: str
    message: str


Full = Union[Applied, Refusal]


def block(b: hunkloom.BlockReport) -> Block:
    error = None if b.error is None else (b.error.code, str(b.error))
    return (
        b.index,
        b.status,
        b.strategy,
        b.start,
        b.end,
        b.start_line,
        b.end_line,
        b.candidates,
        b.indent_delta,
        b.reindented,
        tuple(b.normalizations),
        error,
    )


def outcome(o: hunkloom.Outcome) -> Full:
    return Applied(o.new_content, o.match_indices, [block(b) for b in o.blocks])


def refusal(error: hunkloom.HunkloomError) -> Full:
    return Refusal(error.code, str(error))


def score(case: dict[str, Any], got: Full) -> str:
    """The case's score for what the engine did, per ROBUSTNESS-V2.md (the Rust ``score_v2``)."""
    expect = case["expect"]
    code = expect.get("code")
    unchanged = isinstance(got, Applied) and got.content == case["original"]
    if expect.get("refuse"):
        if isinstance(got, Refusal):
            return CORRECT if code is None or code == got.code else REFUSE
        if unchanged:
            return CORRECT if code is None else REFUSE
        return WRONG
    status = expect.get("status")
    if status not in (None, ALREADY_APPLIED):
        raise AssertionError(f"{case['id']}: unknown expected status {status!r}")
    if isinstance(got, Applied) and got.content == expect.get("content"):
        if status is None or any(b[1] == ALREADY_APPLIED for b in got.blocks):
            return CORRECT
    if isinstance(got, Refusal) or unchanged:
        return REFUSE
    return WRONG


def stateless(case: dict[str, Any]) -> Full:
    try:
        return outcome(hunkloom.apply_diff(case["diff"], case["original"]))
    except hunkloom.HunkloomError as error:
        return refusal(error)


def streamed(case: dict[str, Any], mode: str) -> Union[Full, str]:
    """The case streamed through a ``native`` applier, or a string saying what went wrong."""
    applier = hunkloom.StreamingApplier(case["original"], dialect="native")
    mirror = case["original"]
    for piece in split(case["diff"], mode):
        mirror = applier.push(piece).apply_to(mirror)
    if mirror != applier.preview:
        return "the splices do not rebuild the preview"
    try:
        return outcome(applier.finish())
    except hunkloom.HunkloomError as error:
        return refusal(error)


def brief(full: Full) -> str:
    """What a result is, for messages (never the content: files are long)."""
    return full.code if isinstance(full, Refusal) else "content"


def test_robustness_v2_corpus(summary: list[str]) -> None:
    cases = load("robustness-v2")
    assert len(cases) >= 2300, f"the corpus has {len(cases)} cases"
    counts: dict[str, dict[str, dict[str, int]]] = {
        mode: defaultdict(lambda: defaultdict(int)) for mode in MODES
    }
    problems: list[str] = []
    not_correct: list[tuple[str, str, Full]] = []

    def record(mode: str, case: dict[str, Any], got: Full) -> None:
        verdict = score(case, got)
        counts[mode][case["category"]][verdict] += 1
        if verdict == WRONG:
            problems.append(f"WRONG {case['id']} ({mode})")
        elif verdict == REFUSE:
            not_correct.append((mode, case["id"], got))

    for case in cases:
        got = stateless(case)
        record("stateless", case, got)
        for mode in MODES[1:]:
            streamed_got = streamed(case, mode)
            if isinstance(streamed_got, str):
                problems.append(f"{case['id']} {mode}: {streamed_got}")
                continue
            record(mode, case, streamed_got)
            if streamed_got != got:
                problems.append(
                    f"{case['id']} {mode}: streamed {brief(streamed_got)} "
                    f"differs from stateless {brief(got)}"
                )

    # Sorted by name, as the Rust runner's BTreeMap (the names are ASCII).
    for category in sorted(counts["stateless"]):
        c = counts["stateless"][category]
        n = sum(c.values())
        summary.append(
            f"robustness-v2 {category}: {c[CORRECT]}/{n} correct, "
            f"{c[REFUSE]} refused, {c[WRONG]} wrong"
        )
    for mode in MODES:
        total: dict[str, int] = defaultdict(int)
        for c in counts[mode].values():
            for k, v in c.items():
                total[k] += v
        n = sum(total.values())
        correct, refused_n, wrong = total[CORRECT], total[REFUSE], total[WRONG]
        summary.append(
            f"robustness-v2 {mode}: {correct}/{n} correct, {refused_n} refused, {wrong} wrong"
        )
        if n != len(cases) or wrong or correct * 100 < n * 99:
            problems.append(
                f"{mode}: {correct}/{n} correct with {wrong} wrong "
                f"({len(cases)} cases): below the bar"
            )

    listed: set[str] = set()
    for mode, case_id, got in not_correct:
        if case_id not in REFUSED:
            problems.append(f"{case_id} ({mode}) refused but not listed in REFUSED: {brief(got)}")
        elif case_id not in listed:
            summary.append(f"robustness-v2 refused {case_id}: {REFUSED[case_id]}")
            listed.add(case_id)
    ids = {case_id for _, case_id, _ in not_correct}
    problems += [f"{i} is listed in REFUSED but no longer refused" for i in REFUSED if i not in ids]
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])
