"""The aider corpora (``tests/vectors/aider/``, format in its README) through
``hunkloom.apply_patch(reply, files, dialect=...)``, as the Rust runner
``crates/hunkloom/tests/aider_vectors.rs`` checks them: ``ok`` gives exactly the files aider
left; ``error`` raises with aider's text as the message, and with ``policy="partial"`` gives
the files aider left (blocks that matched, empty files it created); ``exception`` (aider
itself crashed) raises."""

from __future__ import annotations

import functools
import json
from typing import Any, Optional

import pytest

import hunkloom
from conftest import VECTORS

CORPORA = ("aider", "aider-differences")
DIALECTS = {"diff": "aider", "diff-fenced": "aider-fenced", "whole": "aider-whole"}


@functools.lru_cache(maxsize=None)
def load(name: str) -> list[dict[str, Any]]:
    with open(VECTORS / "aider" / f"{name}.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def answer(case: dict[str, Any], policy: str, dialect: Optional[str] = None) -> "dict[str, str] | hunkloom.HunkloomError":
    try:
        result = hunkloom.apply_patch(
            case["reply"], case["files"], dialect=dialect or DIALECTS[case["format"]], policy=policy  # type: ignore[arg-type]
        )
    except hunkloom.HunkloomError as error:
        return error
    return result.files


def judge(case: dict[str, Any]) -> Optional[str]:
    want = case["expect"]
    whole = answer(case, "all_or_nothing")
    partial = answer(case, "partial")
    if want["outcome"] == "ok":
        for name, got in (("all_or_nothing", whole), ("partial", partial)):
            if got != want["files"]:
                return f"{name}: {got!r}"
        return None
    if want["outcome"] == "error":
        if not isinstance(whole, hunkloom.HunkloomError):
            return "applied where aider refused"
        if str(whole) != want["error"]:
            return f"message {str(whole)!r}"
        return None if partial == want["files"] else f"partial: {partial!r}"
    return None if isinstance(whole, hunkloom.HunkloomError) else "applied where aider crashed"


@pytest.mark.parametrize("corpus", CORPORA)
def test_aider_vectors(corpus: str, summary: list[str]) -> None:
    cases = load(corpus)
    assert cases, corpus
    failures = [f"{case['id']} {why}" for case in cases if (why := judge(case)) is not None]
    summary.append(f"aider-{corpus}: {len(cases) - len(failures)}/{len(cases)} passed")
    assert not failures, f"{len(failures)} failures; first:\n" + "\n".join(failures[:5])


def as_aider_writes(files: dict[str, str]) -> dict[str, str]:
    """Line breaks as ``\\n`` and a final newline, as aider writes every file it edits."""
    out = {}
    for path, text in files.items():
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        out[path] = text + "\n" if text and not text.endswith("\n") else text
    return out


@pytest.mark.parametrize("corpus", CORPORA)
def test_aider_native_is_never_silently_wrong(corpus: str, summary: list[str]) -> None:
    """``aider-native`` on the block replies: where aider applied a reply, the same files (as
    aider writes them) or a refusal; never other files."""
    counts = {"correct": 0, "refused": 0, "wrong": 0}
    wrong = []
    for case in load(corpus):
        if case["format"] == "whole" or case["expect"]["outcome"] != "ok":
            continue
        got = answer(case, "all_or_nothing", "aider-native")
        if isinstance(got, hunkloom.HunkloomError):
            counts["refused"] += 1
        elif as_aider_writes(got) == as_aider_writes(case["expect"]["files"]):
            counts["correct"] += 1
        else:
            counts["wrong"] += 1
            wrong.append(case["id"])
    total = sum(counts.values())
    summary.append(
        f"aider-native-{corpus}: {counts['correct']}/{total} correct, {counts['refused']} refused, "
        f"{counts['wrong']} wrong"
    )
    assert not wrong, wrong[:5]


def test_an_aider_reply_edits_and_creates_files() -> None:
    reply = (
        "app.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```\n\n"
        "new.py\n```python\n<<<<<<< SEARCH\n=======\nprint()\n>>>>>>> REPLACE\n```\n"
    )
    result = hunkloom.apply_patch(reply, {"app.py": "x = 1\n"}, dialect="aider")
    assert result.files == {"app.py": "x = 2\n", "new.py": "print()\n"}
    with pytest.raises(hunkloom.SearchNotFoundError) as info:
        hunkloom.apply_patch(reply.replace("x = 1", "y = 1", 1), {"app.py": "x = 1\n"}, dialect="aider")
    assert info.value.code == "patch_context_not_found"
    assert str(info.value).startswith("# 1 SEARCH/REPLACE block failed to match!")


def streamed(case: dict[str, Any], pieces: list[str]) -> "dict[str, str] | hunkloom.HunkloomError":
    applier = hunkloom.AiderApplier(case["files"], dialect=DIALECTS[case["format"]])  # type: ignore[arg-type]
    try:
        for piece in pieces:
            applier.push(piece)
        return applier.finish().files
    except hunkloom.HunkloomError as error:
        return error


def lines(text: str) -> list[str]:
    return text.splitlines(keepends=True) or [text]


def random_cuts(text: str, seed: int) -> list[str]:
    import random

    rng = random.Random(seed)
    cuts = sorted(rng.sample(range(1, len(text)), min(len(text) - 1, 8))) if len(text) > 1 else []
    return [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)])]


@pytest.mark.parametrize("corpus", CORPORA)
def test_aider_applier_streams_to_the_one_shot_result(corpus: str) -> None:
    """Pushed per line, per character (the first 200 cases) and at random cuts, the reply
    ends as ``apply_patch`` ends it: the same files, or an error with the same message."""
    failures = []
    for n, case in enumerate(load(corpus)):
        want = answer(case, "all_or_nothing")
        cuts = [lines(case["reply"]), random_cuts(case["reply"], n)]
        if n < 200:
            cuts.append(list(case["reply"]))
        for pieces in cuts:
            got = streamed(case, pieces)
            same = (
                str(got) == str(want)
                if isinstance(want, hunkloom.HunkloomError)
                else got == want
            )
            if not same:
                failures.append(case["id"])
                break
    assert not failures, failures[:5]


def test_the_preview_follows_the_reply_block_by_block() -> None:
    applier = hunkloom.AiderApplier({"app.py": "x = 1\ny = 1\n"})
    assert applier.push("app.py\n```\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n") == []
    assert applier.preview("app.py") == "x = 1\ny = 1\n"
    assert applier.push(">>>>>>> REPLACE\n```\n\nnew.py\n```\n<<<<<<< SEARCH\n=======\n") == ["app.py"]
    assert applier.preview("app.py") == "x = 2\ny = 1\n"
    assert applier.push("print()\n>>>>>>> REPLACE\n```\n") == ["new.py"]
    assert applier.touched == ["app.py", "new.py"]
    result = applier.finish()
    assert result.files == {"app.py": "x = 2\ny = 1\n", "new.py": "print()\n"}
    assert applier.finished
    with pytest.raises(hunkloom.AlreadyFinishedError):
        applier.push("more")
    with pytest.raises(hunkloom.InvalidOptionError):
        hunkloom.AiderApplier({}, dialect="codex")  # type: ignore[arg-type]
