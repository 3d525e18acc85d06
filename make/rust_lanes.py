"""Run the workspace's Rust tests as `cargo test --workspace` does, in two lanes at once.

The test binaries wait on the file system for about a third of their time, so on a small
machine two of them running at once finish well before the two in a row. Cargo runs its test
binaries one after another, and selecting targets with `--lib` / `--bins` / `--test` changes
which targets it builds (it forces targets marked `test = false`), so this script asks cargo to
build exactly what `cargo test --workspace` builds (`--no-run`), then runs the binaries itself,
each from its package's directory as cargo does:

- lane 1: the targets named with `--lane` (the longest corpus runs), one after another;
- lane 2, at the same time: every other test binary, then the doctests (`cargo test --doc`);
- then, alone: the targets named with `--alone` (tests that race threads against a simulated
  user and give it a bounded time).

Each lane's output is printed whole when the lane ends. The exit status is 1 if any binary or
the doctests failed, and the failures are listed last.

Usage: python3 make/rust_lanes.py --lane c_abi,toolset_vectors --alone stress [-- cargo args]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Step:
    """One command a lane runs: a test binary (from its package's directory, as cargo runs it) or
    the doctests; `name` is the test target's name (empty for the doctests)."""

    title: str
    command: list[str]
    cwd: str | None = None
    name: str = ""


def build(cargo: str, cargo_args: list[str]) -> list[Step]:
    """Build what `cargo test --workspace` builds; return its test executables in build order."""
    command = [cargo, "test", "--workspace", *cargo_args, "--no-run", "--message-format=json-render-diagnostics"]
    print(" ".join(command), flush=True)
    done = subprocess.run(command, stdout=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit(done.returncode)
    binaries = []
    for line in done.stdout.splitlines():
        message = json.loads(line)
        if message.get("reason") != "compiler-artifact" or not message.get("executable"):
            continue
        if not message["profile"]["test"]:
            continue
        target = message["target"]
        source = Path(target["src_path"])
        package_dir = str(Path(message["manifest_path"]).parent)
        shown = os.path.relpath(source, package_dir)
        kind = "unittests" if target["kind"] != ["test"] else ""
        title = f"     Running {f'{kind} {shown}'.strip()} ({os.path.relpath(message['executable'])})"
        binaries.append(Step(title, [message["executable"]], package_dir, target["name"]))
    return binaries


def lane(steps: list[Step], out: list[str], failed: list[str]) -> None:
    """Run the steps one after another, appending their output to `out`."""
    for step in steps:
        done = subprocess.run(step.command, cwd=step.cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        out.append(f"{step.title}\n{done.stdout}")
        if done.returncode != 0:
            out.append(f"error: {step.title} exited with {done.returncode}\n")
            failed.append(step.title)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lane", default="", help="comma-separated targets for lane 1")
    parser.add_argument("--alone", default="", help="comma-separated targets run alone at the end")
    parser.add_argument("cargo_args", nargs="*", help="more arguments for cargo test (e.g. --locked)")
    args = parser.parse_args()
    cargo = os.environ.get("CARGO", "cargo")
    first = set(filter(None, args.lane.split(",")))
    alone = set(filter(None, args.alone.split(",")))
    binaries = build(cargo, args.cargo_args)
    named = {b.name for b in binaries}
    missing = (first | alone) - named
    if missing:
        sys.exit(f"no test target named {', '.join(sorted(missing))} in the workspace")
    doctests = [cargo, "test", "--workspace", *args.cargo_args, "--doc"]
    lanes: list[list[Step]] = [
        [b for b in binaries if b.name in first],
        [*(b for b in binaries if b.name not in first | alone), Step(" ".join(doctests), doctests)],
    ]
    failed: list[str] = []
    outputs: list[list[str]] = [[] for _ in lanes]
    threads = [threading.Thread(target=lane, args=(steps, out, failed)) for steps, out in zip(lanes, outputs)]
    for thread in threads:
        thread.start()
    for thread, out in zip(threads, outputs):
        thread.join()
        print("".join(out), end="", flush=True)
    last: list[str] = []
    lane([b for b in binaries if b.name in alone], last, failed)
    print("".join(last), end="", flush=True)
    if failed:
        print("\nfailed:\n" + "".join(f"  {f}\n" for f in failed), end="")
        sys.exit(1)
    print(f"rust tests: {len(binaries)} test binaries and the doctests passed")


if __name__ == "__main__":
    main()
