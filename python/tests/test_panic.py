"""A bug inside hunkloom (a panic, injected by the test build's `fault-injection` feature) must
raise `InternalError` with code `internal_error` and retire the applier or workspace it happened
on, while other objects go on working. `make test-python` builds with the feature."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

import hunkloom

ORIGINAL = "a\nb\nc\n"
DIFF = "------- SEARCH\nb\n=======\nB\n+++++++ REPLACE\n"

hooked = hasattr(hunkloom.StreamingApplier, "_inject_panic")
pytestmark = pytest.mark.skipif(
    not hooked, reason="built without the fault-injection feature (use make test-python)"
)


def inject(obj: Any) -> None:
    obj._inject_panic()


def provoke_internal_error() -> hunkloom.InternalError:
    """A real internal_error from an injected panic (for the every-code test)."""
    applier = hunkloom.StreamingApplier(ORIGINAL)
    inject(applier)
    with pytest.raises(hunkloom.InternalError) as info:
        applier.push("x")
    return info.value


@pytest.mark.parametrize("dialect", ["cline-v1", "cline-v2", "native"])
def test_a_panic_in_push_retires_that_applier_only(dialect: str) -> None:
    broken = hunkloom.StreamingApplier(ORIGINAL, dialect=dialect)  # type: ignore[arg-type]
    healthy = hunkloom.StreamingApplier(ORIGINAL, dialect=dialect)  # type: ignore[arg-type]
    broken.push("------- SEARCH\n")
    inject(broken)
    with pytest.raises(hunkloom.InternalError) as info:
        broken.push("b\n")
    assert info.value.code == "internal_error"
    assert "this applier stopped" in str(info.value)
    assert isinstance(info.value, hunkloom.HunkloomError)

    calls: list[Callable[[], object]] = [
        lambda: broken.push("b\n"),
        lambda: broken.preview,
        lambda: broken.error,
        lambda: broken.match_indices,
        lambda: broken.blocks_completed,
        broken.finish,
    ]
    for call in calls:
        with pytest.raises(hunkloom.InternalError) as later:
            call()
        assert later.value.code == "internal_error"
        assert "earlier call" in str(later.value)
    assert broken.finished
    assert "stopped by an internal error" in repr(broken)

    healthy.push(DIFF)
    assert healthy.finish().new_content == "a\nB\nc\n"


def test_a_panic_in_finish_is_an_internal_error() -> None:
    applier = hunkloom.StreamingApplier(ORIGINAL)
    applier.push(DIFF)
    inject(applier)
    with pytest.raises(hunkloom.InternalError):
        applier.finish()
    with pytest.raises(hunkloom.HunkloomError):
        applier.push("x")


def test_a_panic_in_a_workspace_call_retires_that_workspace_only(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("one\n")
    broken = hunkloom.Workspace(tmp_path)
    healthy = hunkloom.Workspace(tmp_path)
    assert broken.read("f.txt") == "one\n"
    inject(broken)
    with pytest.raises(hunkloom.InternalError) as info:
        broken.write("f.txt", "two\n")
    assert "this workspace stopped" in str(info.value)
    assert (tmp_path / "f.txt").read_text() == "one\n"
    for call in (lambda: broken.read("f.txt"), lambda: broken.root, lambda: broken.undo("f.txt")):
        with pytest.raises(hunkloom.InternalError):
            call()
    assert repr(broken) == "Workspace(<stopped>)"
    assert healthy.read("f.txt") == "one\n"
    healthy.write("f.txt", "two\n")
    assert (tmp_path / "f.txt").read_text() == "two\n"
