"""The GIL is released while the engine works on large inputs, and one applier used from two
threads at once raises ConcurrentUseError instead of racing."""

from __future__ import annotations

import functools
import sys
import threading
import time
from typing import Callable

import hunkloom

NOT_FOUND_DIFF = (
    "------- SEARCH\nnothing like this\nat all here\nnor this\n=======\nX\n+++++++ REPLACE\n"
)


@functools.lru_cache(maxsize=1)
def big_original() -> str:
    """About 60 MB of distinct lines: a failed search over it takes the engine ~0.1 s."""
    lines = "".join(f"    value_{i} = compute({i}) + {i % 7}\n" for i in range(200_000))
    return lines * 8


def ticks_during(work: Callable[[], object]) -> int:
    """Run `work` in a thread and count how often this thread ran while `work` was inside its
    call.

    The switch interval is raised far above the call's length, so Python never takes the GIL
    from the worker by itself: this thread can run during the call only if the call released
    the GIL. The count is 0 when it did not, whatever the machine's load.
    """
    window: list[float] = []

    def run() -> None:
        start = time.perf_counter()
        try:
            work()
        except hunkloom.HunkloomError:
            pass
        window.extend((start, time.perf_counter()))

    old = sys.getswitchinterval()
    sys.setswitchinterval(5.0)
    try:
        ticks: list[float] = []
        worker = threading.Thread(target=run)
        worker.start()
        while worker.is_alive():
            time.sleep(0)  # blocks briefly without the GIL, so the worker can take it
            ticks.append(time.perf_counter())
        worker.join()
    finally:
        sys.setswitchinterval(old)
    start, end = window
    return sum(1 for t in ticks if start < t < end)


def test_other_threads_run_during_a_large_apply() -> None:
    original = big_original()
    ticks = ticks_during(lambda: hunkloom.construct_new_file_content(NOT_FOUND_DIFF, original))
    assert ticks > 0, "this thread never ran while the engine searched 60 MB"


def test_other_threads_run_during_a_large_push() -> None:
    applier = hunkloom.StreamingApplier(big_original())
    assert ticks_during(lambda: applier.push(NOT_FOUND_DIFF)) > 0
    assert isinstance(applier.error, hunkloom.SearchNotFoundError)


def provoke_concurrent_use() -> hunkloom.ConcurrentUseError:
    """Call an applier while another thread is inside a long push on it."""
    for _ in range(10):
        applier = hunkloom.StreamingApplier(big_original())
        worker = threading.Thread(target=applier.push, args=(NOT_FOUND_DIFF,))
        worker.start()
        try:
            while worker.is_alive():
                applier.blocks_completed
        except hunkloom.ConcurrentUseError as error:
            worker.join()
            return error
        worker.join()
    raise AssertionError("never observed the applier busy in 10 long pushes")


def test_concurrent_use_is_an_error_not_a_race() -> None:
    error = provoke_concurrent_use()
    assert error.code == "concurrent_use"
    assert isinstance(error, hunkloom.HunkloomError)


def test_appliers_in_many_threads() -> None:
    """Independent appliers in parallel threads all get the right answer."""
    results: list[str] = []

    def work(i: int) -> None:
        applier = hunkloom.StreamingApplier(f"line {i}\n")
        for piece in ["------- SEARCH\n", f"line {i}\n", "=======\n", f"LINE {i}\n", "+++++++ REPLACE\n"]:
            applier.push(piece)
        results.append(applier.finish().new_content)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == sorted(f"LINE {i}\n" for i in range(8))
