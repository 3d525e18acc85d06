"""Memory bounds: the peak memory of an entry point, as a multiple of its input (original +
diff + result), on a 100 MB file with one edit near its end. Each measurement runs in a fresh
process (peak resident set size from ``getrusage``, less that of the same process before the
call), so other tests do not count. Prints ``memory <entry point>: peak +N MB for M MB of
input = X.XXx`` lines for RELIABILITY.md (``pytest -s``) and checks the documented bound."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

LINES = 2_600_000
# The documented bound: peak memory above the process's own at most this multiple of
# (original + diff + result).
BOUND = 3.5

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="getrusage")


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("memory")
    with open(d / "big.py", "w") as f:
        for start in range(0, LINES, 100_000):
            f.write("".join(f"    value_{i} = compute({i}) + {i % 7}\n" for i in range(start, start + 100_000)))
    return d


DIFF = "------- SEARCH\n    value_2599990 = compute(2599990) + 1\n=======\n    value_2599990 = 0\n+++++++ REPLACE\n"

# Each script prints its peak RSS (KiB) before and after the call.
SCRIPTS = {
    "python Workspace.apply_diff": """
import resource, sys, hunkloom
root, diff = sys.argv[1], sys.argv[2]
ws = hunkloom.Workspace(root)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
ws.read("big.py")
ws.apply_diff("big.py", diff)
print(before, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
""",
    "python apply_diff (in memory)": """
import resource, sys, hunkloom
root, diff = sys.argv[1], sys.argv[2]
original = open(root + "/big.py").read()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
out = hunkloom.apply_diff(diff, original)
assert len(out.new_content) == len(original) - len(" compute(2599990) + 1") + 2
print(before, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
""",
}


def measure(label: str, before_kib: int, after_kib: int, size: int) -> float:
    peak = (after_kib - before_kib) * 1024
    ratio = peak / size
    print(f"memory {label}: peak +{peak / 2**20:.0f} MB for {size / 2**20:.0f} MB of input = {ratio:.2f}x")
    return ratio


def test_peak_memory_is_a_small_multiple_of_the_input(big: Path, tmp_path: Path) -> None:
    original = (big / "big.py").stat().st_size
    # original + diff + result (the result is about the original's size).
    size = 2 * original + len(DIFF)
    for label, script in SCRIPTS.items():
        work = tmp_path / label.replace(" ", "_").replace("(", "").replace(")", "")
        work.mkdir()
        (work / "big.py").write_bytes((big / "big.py").read_bytes())
        out = subprocess.run(
            [sys.executable, "-c", script, str(work), DIFF], capture_output=True, text=True, check=True
        )
        before, after = map(int, out.stdout.split())
        assert measure(label, before, after, size) <= BOUND, label
    exe = os.environ.get("HUNKLOOM_BIN")
    if exe and os.path.exists(exe):
        work = tmp_path / "cli"
        work.mkdir()
        (work / "big.py").write_bytes((big / "big.py").read_bytes())
        (work / "e.diff").write_text(DIFF)
        script = (
            "import resource, subprocess, sys\n"
            "subprocess.run([sys.argv[1], 'apply', '--diff', 'e.diff', 'big.py'], cwd=sys.argv[2], check=True)\n"
            "print(0, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        )
        out = subprocess.run([sys.executable, "-c", script, exe, str(work)], capture_output=True, text=True, check=True)
        before, after = map(int, out.stdout.split())
        assert measure("cli hunkloom apply", before, after, size) <= BOUND
    else:
        print("memory cli: skipped (HUNKLOOM_BIN is not set; make test-python sets it)")
