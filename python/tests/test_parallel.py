"""Parallel tool calls, subagents and processes editing one file at once, as a Python agent
framework runs them: every edit of its own line lands, of two edits of one line exactly one
lands and the other raises a coded error, nothing is lost. Prints ``parallel python ...`` lines
(``pytest -s``)."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path
from typing import Callable, TypeVar

import hunkloom

FUNCTIONS = 240
T = TypeVar("T")


def module() -> str:
    """240 small functions four lines apart; every ``return`` line is unique."""
    return "".join(f"def f{i}(x):\n    y = x + {i}\n    return y * {i}\n\n" for i in range(FUNCTIONS))


def old_line(i: int) -> str:
    return f"    return y * {i}\n"


def new_line(i: int, who: str) -> str:
    return f"    return y * {i}  # {who}\n"


def together(n: int, work: Callable[[int], T]) -> list[T | BaseException]:
    """Runs ``work(i)`` on ``n`` threads released at once; results (or exceptions) in order."""
    start = threading.Barrier(n)
    results: list[T | BaseException] = [RuntimeError("not run")] * n

    def run(i: int) -> None:
        start.wait()
        try:
            results[i] = work(i)
        except BaseException as e:  # collected for the assertions
            results[i] = e

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


PICKS = [k * 15 + 3 for k in range(16)]


def expected(picks: list[int], who: Callable[[int], str]) -> str:
    text = module()
    for t, i in enumerate(picks):
        text = text.replace(old_line(i), new_line(i, who(t)))
    return text


def test_one_workspace_sixteen_parallel_str_replace(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(module())
    ws = hunkloom.Workspace(tmp_path)
    ws.read("m.py")
    results = together(16, lambda t: ws.str_replace("m.py", old_line(PICKS[t]), new_line(PICKS[t], "x")))
    failed = [r for r in results if isinstance(r, BaseException)]
    print(f"parallel python one Workspace, 16 threads: {16 - len(failed)}/16 landed")
    assert not failed, failed
    assert (tmp_path / "m.py").read_text() == expected(PICKS, lambda t: "x")


def test_sixteen_workspaces_read_then_edit_at_once(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(module())
    workspaces = [hunkloom.Workspace(tmp_path) for _ in range(16)]
    for ws in workspaces:
        ws.read("m.py")
    results = together(
        16, lambda t: workspaces[t].str_replace("m.py", old_line(PICKS[t]), new_line(PICKS[t], f"agent {t}"))
    )
    failed = [r for r in results if isinstance(r, BaseException)]
    print(f"parallel python 16 Workspaces (subagents): {16 - len(failed)}/16 landed")
    assert not failed, failed
    assert (tmp_path / "m.py").read_text() == expected(PICKS, lambda t: f"agent {t}")


def test_one_text_editor_sixteen_parallel_calls(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(module())
    editor = hunkloom.TextEditor(tmp_path)
    assert not editor.call({"command": "view", "path": "m.py"}).is_error
    results = together(
        16,
        lambda t: editor.call(
            {"command": "str_replace", "path": "m.py", "old_str": old_line(PICKS[t]), "new_str": new_line(PICKS[t], "x")}
        ),
    )
    bad = [r for r in results if isinstance(r, BaseException) or r.is_error]
    print(f"parallel python one TextEditor, 16 threads: {16 - len(bad)}/16 landed")
    assert not bad, bad
    assert (tmp_path / "m.py").read_text() == expected(PICKS, lambda t: "x")


def test_of_each_same_line_pair_exactly_one_lands(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(module())
    ws = hunkloom.Workspace(tmp_path)
    ws.read("m.py")
    line = [(t // 2) * 30 + 1 for t in range(16)]
    results = together(16, lambda t: ws.str_replace("m.py", old_line(line[t]), new_line(line[t], f"t{t}")))
    after = (tmp_path / "m.py").read_text()
    codes: dict[str, int] = {}
    for pair in range(8):
        a, b = results[2 * pair], results[2 * pair + 1]
        assert isinstance(a, BaseException) != isinstance(b, BaseException), (a, b)
        winner, loser = (2 * pair, b) if not isinstance(a, BaseException) else (2 * pair + 1, a)
        assert new_line(line[winner], f"t{winner}") in after
        assert isinstance(loser, hunkloom.HunkloomError)
        assert loser.code in ("stale_file", "not_found"), loser
        codes[loser.code] = codes.get(loser.code, 0) + 1
    print(f"parallel python same-line pairs: 8/8 with exactly one winner, refusals {codes}")


CHILD = """
import sys, hunkloom
root, who, lines = sys.argv[1], sys.argv[2], [int(x) for x in sys.argv[3].split(",")]
ws = hunkloom.Workspace(root)
for i in lines:
    for attempt in range(50):
        ws.read("m.py")
        try:
            ws.str_replace("m.py", f"    return y * {i}\\n", f"    return y * {i}  # {who}\\n")
            break
        except hunkloom.StaleFileError:
            continue
    else:
        raise SystemExit(f"line {i} never landed")
"""


def test_four_processes_four_edits_each(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(module())
    groups = [PICKS[k::4] for k in range(4)]
    children = [
        subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path), f"p{k}", ",".join(map(str, g))])
        for k, g in enumerate(groups)
    ]
    assert [c.wait(timeout=120) for c in children] == [0, 0, 0, 0]
    want = module()
    for k, g in enumerate(groups):
        for i in g:
            want = want.replace(old_line(i), new_line(i, f"p{k}"))
    assert (tmp_path / "m.py").read_text() == want
    print("parallel python 4 processes x 4 edits: 16/16 landed")


def test_the_users_editor_saving_meanwhile_loses_nothing(tmp_path: Path) -> None:
    """16 parallel edits while the user's editor saves 6 other lines 30 times (a temporary file
    renamed over the file): every save of the user's stays, every edit lands."""
    import ctypes
    import os
    import time

    libc = ctypes.CDLL(None, use_errno=True)
    if not hasattr(libc, "renameat2"):
        import pytest

        pytest.skip("renameat2 is Linux-only")
    at_fdcwd, rename_exchange = -100, 2
    path = tmp_path / "m.py"
    path.write_text(module())
    user_lines = [k * 40 + 20 for k in range(6)]
    rounds = 30
    clobbered: set[int] = set()

    def user() -> None:
        temp = tmp_path / ".m.py.user"
        for r in range(rounds):
            prev = [old_line(i) if r == 0 else new_line(i, f"user {r - 1}") for i in user_lines]
            started = time.monotonic()
            while True:  # a commit's swap-back restores a save within microseconds
                seen = path.read_text()
                if all(p in seen for p in prev):
                    break
                assert time.monotonic() - started < 2, "a save of the user's was lost"
                time.sleep(0.001)
            nxt = seen
            for i, p in zip(user_lines, prev):
                nxt = nxt.replace(p, new_line(i, f"user {r}"))
            temp.write_text(nxt)
            # Saved as a rename, swapped so the test sees what the save replaced.
            assert libc.renameat2(at_fdcwd, os.fsencode(temp), at_fdcwd, os.fsencode(path), rename_exchange) == 0
            displaced = temp.read_text()
            temp.unlink()
            if displaced != seen:  # the user's editor overwrote what landed since its read
                clobbered.update(i for i in PICKS if new_line(i, "x") in displaced and new_line(i, "x") not in nxt)

    ws = hunkloom.Workspace(tmp_path)
    ws.read("m.py")
    saver = threading.Thread(target=user)
    saver.start()

    def agent(t: int) -> object:
        for _ in range(50):
            try:
                return ws.str_replace("m.py", old_line(PICKS[t]), new_line(PICKS[t], "x"))
            except hunkloom.StaleFileError:
                ws.read("m.py")
        raise AssertionError("no progress")

    results = together(16, agent)
    saver.join()
    assert not [r for r in results if isinstance(r, BaseException)], results
    after = path.read_text()
    for i in PICKS:
        assert new_line(i, "x") in after or i in clobbered, i
    for i in user_lines:
        assert new_line(i, f"user {rounds - 1}") in after
    print(
        f"parallel python agents + user saving: 16/16 landed ({len(clobbered)} overwritten afterwards "
        f"by the user's own stale saves), {rounds}/{rounds} user saves kept, lost: 0"
    )
