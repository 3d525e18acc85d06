#!/usr/bin/env python3
"""Totals the fuzzing campaign log (fuzz/campaign.log, one line per target and run, appended
by `make fuzz` and `make fuzz-long`) into the figures RELIABILITY.md and fuzz/README.md
quote: per target the inputs run, seconds, runs, the last corpus size and coverage, and the
crashes; then `total inputs fuzzed: N`. Numbers are printed with thousands separators.

Usage: python3 fuzz/campaign.py [fuzz/campaign.log]"""

from __future__ import annotations

import sys
from collections import OrderedDict
from pathlib import Path


def parse(line: str) -> dict[str, str]:
    fields = {}
    for part in line.split():
        if "=" in part:
            k, v = part.split("=", 1)
            fields[k] = v
    return fields


def main() -> int:
    path = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent / "campaign.log")
    totals: "OrderedDict[str, dict[str, int]]" = OrderedDict()
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        f = parse(line)
        t = totals.setdefault(f["target"], {"inputs": 0, "seconds": 0, "runs": 0, "crashes": 0, "corpus": 0, "cov": 0})
        t["inputs"] += int(f.get("inputs", 0))
        t["seconds"] += int(f.get("seconds", 0))
        t["runs"] += 1
        t["crashes"] += int(f.get("crashes", 0))
        t["corpus"] = int(f.get("corpus", t["corpus"]))
        t["cov"] = max(t["cov"], int(f.get("cov", 0)))
    print("| target | inputs | seconds (budget) | runs | corpus (last) | coverage (cov, best) | crashes |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for target, t in totals.items():
        print(
            f"| {target} | {t['inputs']:,} | {t['seconds']:,} | {t['runs']:,} | {t['corpus']:,} | "
            f"{t['cov']:,} | {t['crashes']:,} |"
        )
    print()
    print(f"total inputs fuzzed: {sum(t['inputs'] for t in totals.values()):,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
