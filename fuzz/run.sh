#!/usr/bin/env bash
# One libFuzzer run: fuzz/run.sh TARGET SECONDS, from the repository root.
#
# Runs `cargo fuzz run -s none TARGET` for SECONDS on its growing corpus (fuzz/corpus/TARGET)
# plus its seeds (fuzz/seeds/TARGET, from `python3 fuzz/seed.py`), its committed regression
# inputs (fuzz/regressions/TARGET: every crash found, replayed first) and dictionary, then appends
# one line to fuzz/campaign.log:
#   <UTC time> target=T seconds=S inputs=N cov=C ft=F corpus=K crashes=X
# inputs is libFuzzer's stat::number_of_executed_units (-print_final_stats=1), cov and ft the
# coverage of its last status line, corpus the files in the corpus directory afterwards, and
# crashes the artifacts this run added. `python3 fuzz/campaign.py` totals the log. Exits with
# libFuzzer's status (non-zero on a crash, which lands in fuzz/artifacts/TARGET/).
set -u
target=$1
seconds=$2
mkdir -p "fuzz/corpus/$target" "fuzz/seeds/$target" "fuzz/artifacts/$target" "fuzz/regressions/$target"
dict=()
[ -f "fuzz/dict/$target.dict" ] && dict=("-dict=fuzz/dict/$target.dict")
before=$(ls "fuzz/artifacts/$target" | wc -l)
out=$(mktemp)
cargo fuzz run -s none "$target" "fuzz/corpus/$target" "fuzz/seeds/$target" \
    "fuzz/regressions/$target" -- \
    -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=4096 -timeout=30 \
    "${dict[@]}" 2>&1 | tee "$out" | grep -E "^#[0-9]+\s+(INITED|DONE|pulse)|^stat::number_of_executed_units|SUMMARY|^==" || true
status=${PIPESTATUS[0]}
inputs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$out" | tail -n 1)
[ -n "$inputs" ] || inputs=$(sed -n 's/^#\([0-9]*\).*/\1/p' "$out" | tail -n 1)
if [ -z "$inputs" ]; then
    # libFuzzer never started (the target did not build): show why, log nothing.
    tail -n 40 "$out" >&2
    rm -f "$out"
    echo "fuzz/run.sh: $target did not run" >&2
    exit 1
fi
cov=$(sed -n 's/.* cov: \([0-9]*\) .*/\1/p' "$out" | tail -n 1)
ft=$(sed -n 's/.* ft: \([0-9]*\) .*/\1/p' "$out" | tail -n 1)
corpus=$(ls "fuzz/corpus/$target" | wc -l)
crashes=$(( $(ls "fuzz/artifacts/$target" | wc -l) - before ))
echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) target=$target seconds=$seconds inputs=${inputs:-0} cov=${cov:-0} ft=${ft:-0} corpus=$corpus crashes=$crashes" \
    | tee -a fuzz/campaign.log
rm -f "$out"
exit "$status"
