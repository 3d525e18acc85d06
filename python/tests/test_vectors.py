"""Every Cline vector through construct_new_file_content and StreamingApplier (four chunkings).

Expected ``match_indices`` are JavaScript UTF-16 offsets; they are converted to ``str`` indices
before comparing, since that is the unit the Python API promises.
"""

from __future__ import annotations

from typing import Any, Literal, Union

import pytest

import hunkloom
from conftest import CLINE_CORPORA, load, split, utf16_to_str_index

MODES = ("stateless", "whole", "line", "char", "random")
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
    pending = applier.error
    if pending is not None:
        assert isinstance(pending, hunkloom.HunkloomError)
        return raised(pending)
    return (applier.preview, applier.match_indices)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("corpus", CLINE_CORPORA)
def test_cline_vectors(corpus: str, mode: str, summary: list[str]) -> None:
    vectors = load(corpus)
    failures = []
    for vector in vectors:
        want = expected(vector)
        got = stateless(vector) if mode == "stateless" else streamed(vector, mode)
        if got != want:
            failures.append(f"{vector['id']}:\n  want {want!r}\n  got  {got!r}")
    line = f"{corpus} {mode}: {len(vectors) - len(failures)}/{len(vectors)} passed"
    summary.append(line)
    assert not failures, line + "\n" + "\n".join(failures[:5])
