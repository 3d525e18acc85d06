"""Benchmarks of the Python API on the core's scenarios (S1, S2, S4, S5), in one run.

The stateful ``StreamingApplier`` is measured against the stateless pattern it replaces: calling
``construct_new_file_content`` on every prefix of the streamed diff. Inputs come from the Rust
scenario generator, so every language measures the same data:

    cargo run --release -p hunkloom-bench --bin scenarios -- target/scenarios
    python python/bench/bench.py target/scenarios
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Callable

import hunkloom


def measure(work: Callable[[], object], budget: float = 1.0) -> float:
    """Median seconds per call over repeated runs within about `budget` seconds."""
    work()  # warm up
    times: list[float] = []
    deadline = time.perf_counter() + budget
    while len(times) < 5 or (time.perf_counter() < deadline and len(times) < 1000):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def pieces(diff: str, n: int = 4) -> list[str]:
    return [diff[i : i + n] for i in range(0, len(diff), n)]


def one_shot(original: str, diff: str) -> Callable[[], object]:
    return lambda: hunkloom.construct_new_file_content(diff, original)


def stateful(original: str, chunks: list[str]) -> Callable[[], object]:
    def run() -> object:
        applier = hunkloom.StreamingApplier(original)
        for chunk in chunks:
            applier.push(chunk)
        return applier.finish()

    return run


def per_prefix(original: str, chunks: list[str]) -> Callable[[], object]:
    def run() -> object:
        prefix = ""
        for chunk in chunks[:-1]:
            prefix += chunk
            hunkloom.construct_new_file_content(prefix, original, False)
        return hunkloom.construct_new_file_content(prefix + chunks[-1], original, True)

    return run


def fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:9.1f} µs"
    return f"{seconds * 1e3:9.2f} ms"


def main(folder: Path) -> None:
    def load(name: str) -> tuple[str, str]:
        return (
            (folder / f"{name}.original").read_text(encoding="utf-8"),
            (folder / f"{name}.diff").read_text(encoding="utf-8"),
        )

    s1, s4 = load("s1"), load("s4")
    c1, c4 = pieces(s1[1]), pieces(s4[1])
    s2_stateful = measure(stateful(s1[0], c1))
    s2_prefix = measure(per_prefix(s1[0], c1), 3.0)
    s5_stateful = measure(stateful(s4[0], c4))
    s5_prefix = measure(per_prefix(s4[0], c4), 3.0)
    rows = [
        ("S1 10k lines, 20 exact blocks", "one-shot", measure(one_shot(*s1))),
        ("S1", "copy floor (str -> new str)", measure(lambda: (s1[0] + " ")[:-1])),
        (f"S2 S1 in {len(c1)} 4-char pushes", "StreamingApplier", s2_stateful),
        ("S2", "construct_new_file_content per prefix", s2_prefix),
        ("S4 200k lines, one block at the end", "one-shot", measure(one_shot(*s4))),
        ("S4", "copy floor (str -> new str)", measure(lambda: (s4[0] + " ")[:-1])),
        (f"S5 S4 in {len(c4)} 4-char pushes", "StreamingApplier", s5_stateful),
        ("S5", "construct_new_file_content per prefix", s5_prefix),
    ]
    width = max(len(r[0]) for r in rows)
    kind_width = max(len(r[1]) for r in rows)
    print(f"hunkloom {hunkloom.__version__}, Python {sys.version.split()[0]}")
    for scenario, kind, seconds in rows:
        print(f"{scenario:<{width}}  {kind:<{kind_width}}  {fmt(seconds)}")
    print(
        f"StreamingApplier vs per-prefix calls: S2 {s2_prefix / s2_stateful:.0f}x faster, "
        f"S5 {s5_prefix / s5_stateful:.0f}x faster"
    )

if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "target/scenarios"))
