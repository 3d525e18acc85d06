"""The GIL is released while the engine works on large inputs, and one applier used from two
threads at once raises ConcurrentUseError instead of racing."""

from __future__ import annotations

import functools
import threading
import time
from typing import Callable

import patchloom

NOT_FOUND_DIFF = (
    "------- SEARCH\nnothing like this\nat all here\nnor this\n=======\nX\n+++++++ REPLACE\n"
)


@functools.lru_cache(maxsize=1)
def big_original() -> str:
    """About 60 MB of distinct lines: a failed search over it takes the engine ~0.1 s."""
    lines = "".join(f"    value_{i} = compute({i}) + {i % 7}\n" for i in range(200_000))
    return lines * 8


def time_running_during(work: Callable[[], object]) -> tuple[float, float]:
    """Run `work` in a thread while this thread ticks; return (how long this thread ran, counted
    as the sum of sub-millisecond gaps between its ticks, and the duration of the work)."""
    done = threading.Event()
    span: list[float] = []

    def run() -> None:
        start = time.perf_counter()
        try:
            work()
        except patchloom.PatchloomError:
            pass
        span.append(time.perf_counter() - start)
        done.set()

    worker = threading.Thread(target=run)
    last = time.perf_counter()
    running = 0.0
    worker.start()
    while not done.is_set():
        now = time.perf_counter()
        if now - last < 0.001:
            running += now - last
        last = now
    worker.join()
    return running, span[0]


def test_other_threads_run_during_a_large_apply() -> None:
    original = big_original()
    running, duration = time_running_during(
        lambda: patchloom.construct_new_file_content(NOT_FOUND_DIFF, original)
    )
    # Holding the GIL for the whole call would stop this thread for all of it. (Converting the
    # 60 MB `str` to UTF-8 needs the GIL; the engine's search does not.)
    assert running > duration / 5, f"ran {running:.3f}s during a {duration:.3f}s call"


def test_other_threads_run_during_a_large_push() -> None:
    applier = patchloom.StreamingApplier(big_original())
    running, duration = time_running_during(lambda: applier.push(NOT_FOUND_DIFF))
    assert running > duration / 2, f"ran {running:.3f}s during a {duration:.3f}s push"
    assert isinstance(applier.error, patchloom.SearchNotFoundError)


def provoke_concurrent_use() -> patchloom.ConcurrentUseError:
    """Call an applier while another thread is inside a long push on it."""
    for _ in range(10):
        applier = patchloom.StreamingApplier(big_original())
        worker = threading.Thread(target=applier.push, args=(NOT_FOUND_DIFF,))
        worker.start()
        try:
            while worker.is_alive():
                applier.blocks_completed
        except patchloom.ConcurrentUseError as error:
            worker.join()
            return error
        worker.join()
    raise AssertionError("never observed the applier busy in 10 long pushes")


def test_concurrent_use_is_an_error_not_a_race() -> None:
    error = provoke_concurrent_use()
    assert error.code == "concurrent_use"
    assert isinstance(error, patchloom.PatchloomError)


def test_appliers_in_many_threads() -> None:
    """Independent appliers in parallel threads all get the right answer."""
    results: list[str] = []

    def work(i: int) -> None:
        applier = patchloom.StreamingApplier(f"line {i}\n")
        for piece in ["------- SEARCH\n", f"line {i}\n", "=======\n", f"LINE {i}\n", "+++++++ REPLACE\n"]:
            applier.push(piece)
        results.append(applier.finish().new_content)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == sorted(f"LINE {i}\n" for i in range(8))
