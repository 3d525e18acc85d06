"""Lazy edits through Python: the lazy-edit corpus (tests/vectors/lazy-edits.jsonl), scored as
tests/vectors/LAZY-EDITS.md defines it (the Rust runner crates/hunkloom/tests/lazy_edits.rs,
scoring in crates/hunkloom-testkit/src/lazy.rs), and what is specific to the boundary.

Records ``lazy-edits <category>: <C>/<T> correct, <R> refused, <W> wrong`` per category (sorted
by name) and ``lazy-edits total: ...``. Fails on any WRONG result, below 95% correct, or when the
content cases refused differ from REFUSED.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any, Union

import pytest

import hunkloom
from conftest import load

# Content cases refused on purpose, with the reason (the Rust runner's list; none today).
REFUSED: dict[str, str] = {}

CORRECT, REFUSE, WRONG = "correct", "refused", "wrong"


def run(case: dict[str, Any]) -> Union[str, hunkloom.HunkloomError]:
    try:
        return hunkloom.apply_lazy(case["snippet"], case["original"], path=f"case.{case['lang']}")
    except hunkloom.HunkloomError as error:
        return error


def score(case: dict[str, Any], got: Union[str, hunkloom.HunkloomError]) -> str:
    unchanged = got == case["original"]
    if case["expect"].get("refuse"):
        return CORRECT if isinstance(got, hunkloom.HunkloomError) or unchanged else WRONG
    if got == case["expect"].get("content"):
        return CORRECT
    return REFUSE if isinstance(got, hunkloom.HunkloomError) or unchanged else WRONG


def test_lazy_edits_corpus(summary: list[str]) -> None:
    cases = load("lazy-edits")
    assert len(cases) == 1500, f"the corpus has {len(cases)} cases"
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    problems: list[str] = []
    refused: set[str] = set()
    for case in cases:
        got = run(case)
        verdict = score(case, got)
        counts[case["category"]][verdict] += 1
        if verdict == WRONG:
            problems.append(f"WRONG {case['id']}")
        elif verdict == REFUSE:
            refused.add(case["id"])
            if case["id"] not in REFUSED:
                code = got.code if isinstance(got, hunkloom.HunkloomError) else "unchanged"
                problems.append(f"{case['id']} refused but not listed in REFUSED: {code}")
        # The language by name gives the same result as by extension.
        try:
            again = hunkloom.apply_lazy(case["snippet"], case["original"], lang=case["lang"])
        except hunkloom.HunkloomError as error:
            again = error.code
        if again != (got.code if isinstance(got, hunkloom.HunkloomError) else got):
            problems.append(f"{case['id']}: the language by name gives another result")
    total: dict[str, int] = defaultdict(int)
    for category in sorted(counts):
        c = counts[category]
        for k, v in c.items():
            total[k] += v
        summary.append(
            f"lazy-edits {category}: {c[CORRECT]}/{sum(c.values())} correct, "
            f"{c[REFUSE]} refused, {c[WRONG]} wrong"
        )
    n = sum(total.values())
    summary.append(
        f"lazy-edits total: {total[CORRECT]}/{n} correct, {total[REFUSE]} refused, "
        f"{total[WRONG]} wrong"
    )
    for case_id in sorted(refused & set(REFUSED)):
        summary.append(f"lazy-edits refused {case_id}: {REFUSED[case_id]}")
    problems += [f"{i} is listed in REFUSED but no longer refused" for i in REFUSED if i not in refused]
    if total[WRONG] or total[CORRECT] * 100 < n * 95:
        problems.append(f"{total[CORRECT]}/{n} correct with {total[WRONG]} wrong: below the bar")
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])


FILE = "def load(path):\n    return open(path).read()\n\n\ndef save(path, text):\n    open(path, 'w').write(text)\n"


def test_refusals_carry_codes_classes_and_matches() -> None:
    with pytest.raises(hunkloom.SearchNotFoundError) as not_found:
        hunkloom.apply_lazy("# ...\ndef close(path):\n    pass\n# ...\n", FILE, path="io.py")
    assert not_found.value.code == "lazy_no_anchor"
    assert str(not_found.value).startswith("segment 1 (snippet lines 2-3) cannot be placed")
    twice = "x = 1\ny = 2\nx = 1\n"
    with pytest.raises(hunkloom.AmbiguousMatchError) as ambiguous:
        hunkloom.apply_lazy("# ...\nx = 1\nz = 3\n# ...\n", twice, lang="python")
    assert ambiguous.value.code == "lazy_ambiguous"
    assert ambiguous.value.matches is not None
    assert [m.start_line for m in ambiguous.value.matches] == [1, 3]
    with pytest.raises(hunkloom.InvalidOptionError) as language:
        hunkloom.apply_lazy("x", "y", lang="cobol")
    assert language.value.code == "invalid_language"
    # No markers: the snippet is the whole file, whatever the original.
    assert hunkloom.apply_lazy("print('é')\n", FILE, path="io.py") == "print('é')\n"
    with pytest.raises(TypeError):
        hunkloom.apply_lazy(b"x", FILE)  # type: ignore[arg-type]


def test_workspace_apply_lazy_is_all_or_nothing(tmp_path: Path) -> None:
    (tmp_path / "io.py").write_bytes(FILE.replace("\n", "\r\n").encode())
    ws = hunkloom.Workspace(tmp_path)
    ws.read("io.py")
    snippet = "# ...\ndef save(path, text):\n    log(path)\n    open(path, 'w').write(text)\n"
    outcome = ws.apply_lazy("io.py", snippet)
    assert outcome.changed and outcome.report is None
    merged = FILE.replace("text):\n", "text):\n    log(path)\n").replace("\n", "\r\n")
    assert (tmp_path / "io.py").read_bytes() == merged.encode()
    with pytest.raises(hunkloom.SearchNotFoundError):
        ws.apply_lazy("io.py", "# ...\ndef gone():\n    pass\n# ...\n")
    assert (tmp_path / "io.py").read_bytes() == merged.encode()
    # `lang` wins over the extension: in Go `#` starts no comment, so this is the whole file.
    ws.apply_lazy("io.py", "# ...\nx\n", lang="go")
    assert (tmp_path / "io.py").read_bytes() == b"# ...\r\nx\r\n"
