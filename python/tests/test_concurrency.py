"""Threads under load: one Workspace shared by several threads (every call runs, calls on one
file take turns), one applier shared by several threads (each call either runs alone or raises
ConcurrentUseError, never a race), and separate ones in parallel (no interference). Each test counts operations and checks that no edit is lost or torn. Prints
``concurrency python ...: N ops, ... lost: 0`` lines for RELIABILITY.md (``pytest -s``)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Callable

import hunkloom

SECONDS = 1.5
THREADS = 4


def run_threads(work: Callable[[int], None], threads: int = THREADS) -> None:
    errors: list[BaseException] = []

    def wrapped(i: int) -> None:
        try:
            work(i)
        except BaseException as e:  # reported on the test's thread
            errors.append(e)

    ts = [threading.Thread(target=wrapped, args=(i,)) for i in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    if errors:
        raise errors[0]


def counter_file(i: int) -> str:
    return f"t{i}.txt"


def test_one_workspace_shared_by_threads(tmp_path: Path) -> None:
    """Each thread counts up its own file through one shared workspace: every call commits (none
    is refused for running beside another); the final counts equal the commits."""
    for i in range(THREADS):
        (tmp_path / counter_file(i)).write_text("header\ncount: 0\nfooter\n")
    ws = hunkloom.Workspace(tmp_path)
    commits = [0] * THREADS
    refused = [0] * THREADS
    deadline = time.monotonic() + SECONDS

    def work(i: int) -> None:
        name = counter_file(i)
        while time.monotonic() < deadline:
            ws.read(name)
            ws.str_replace(name, f"count: {commits[i]}\n", f"count: {commits[i] + 1}\n")
            commits[i] += 1

    run_threads(work)
    for i in range(THREADS):
        assert (tmp_path / counter_file(i)).read_text() == f"header\ncount: {commits[i]}\nfooter\n"
    print(
        f"concurrency python {THREADS} threads, one shared Workspace: {sum(commits)} commits, "
        f"{sum(refused)} refused, lost: 0, torn: 0"
    )
    assert all(commits), commits


def test_one_applier_shared_by_threads() -> None:
    """One thread streams a diff into an applier while others read its preview: every call
    runs alone or raises ConcurrentUseError; the result is the diff's."""
    original = "".join(f"line {i}\n" for i in range(2000))
    diff = "".join(f"------- SEARCH\nline {i}\n=======\nLINE {i}\n+++++++ REPLACE\n" for i in range(0, 2000, 10))
    applier = hunkloom.StreamingApplier(original, dialect="native")
    pushes = [0]
    reads = [0] * THREADS
    refused = [0] * THREADS
    done = threading.Event()
    start = threading.Barrier(THREADS)

    def work(i: int) -> None:
        start.wait()
        if i == 0:
            for k in range(0, len(diff), 3):
                while True:
                    try:
                        applier.push(diff[k : k + 3])
                        time.sleep(0)
                        pushes[0] += 1
                        break
                    except hunkloom.ConcurrentUseError:
                        refused[0] += 1
            done.set()
            return
        while not done.is_set():
            try:
                preview = applier.preview
                assert preview.endswith("line 1999\n")
                reads[i] += 1
            except hunkloom.ConcurrentUseError:
                refused[i] += 1
            time.sleep(0.0002)

    run_threads(work)
    want = "".join(f"LINE {i}\n" if i % 10 == 0 else f"line {i}\n" for i in range(2000))
    assert applier.finish().new_content == want
    assert sum(reads) > 0
    print(
        f"concurrency python 1 pushing + {THREADS - 1} reading threads, one shared applier: "
        f"{pushes[0]} pushes, {sum(reads)} previews, {sum(refused)} concurrent_use refusals, lost: 0"
    )


def test_separate_workspaces_and_appliers_do_not_interfere(tmp_path: Path) -> None:
    """Each thread has its own workspace (on one root, its own file) and its own appliers:
    none is ever refused and every edit lands."""
    for i in range(THREADS):
        (tmp_path / counter_file(i)).write_text("count: 0\n")
    ops = [0] * THREADS
    deadline = time.monotonic() + SECONDS

    def work(i: int) -> None:
        ws = hunkloom.Workspace(tmp_path)
        name = counter_file(i)
        n = 0
        while time.monotonic() < deadline:
            ws.read(name)
            ws.apply_diff(name, f"------- SEARCH\ncount: {n}\n=======\ncount: {n + 1}\n+++++++ REPLACE\n")
            n += 1
            applier = hunkloom.StreamingApplier(f"x {i} {n}\n", dialect="native")
            applier.push(f"------- SEARCH\nx {i} {n}\n=======\ny {i} {n}\n+++++++ REPLACE\n")
            assert applier.finish().new_content == f"y {i} {n}\n"
            ops[i] += 2
        assert (tmp_path / name).read_text() == f"count: {n}\n"

    run_threads(work)
    print(
        f"concurrency python {THREADS} threads, own Workspace and appliers, one root: "
        f"{sum(ops)} ops (commits and applies), 0 refused, lost: 0"
    )
    assert sum(ops) > 0
