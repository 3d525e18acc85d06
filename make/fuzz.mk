# fuzz targets: the cargo-fuzz crate in fuzz/ (its own workspace, Cargo.lock and target dir, so
# `cargo test --workspace` never builds it). Not part of `make test`.
#
# fuzz  installs cargo-fuzz if it is missing, then runs every target for FUZZ_SECONDS seconds
#       (default 30) with its dictionary (fuzz/dict/<target>.dict), on stable: `-s none` builds
#       without a sanitizer, which would need nightly (`RUSTC_BOOTSTRAP=1 cargo fuzz run <target>`
#       adds AddressSanitizer). Debug assertions and overflow checks are on. Corpora grow in
#       fuzz/corpus/<target>/ and crashes land in fuzz/artifacts/<target>/ (both ignored by git);
#       replay one with `cargo fuzz run -s none <target> fuzz/artifacts/<target>/<file>`.
#
# One target for longer: `make fuzz FUZZ_TARGETS=patch_plan FUZZ_SECONDS=600`.
#
# fuzz-long  the campaign: every target for SECONDS each (default 3600), the same way, FUZZ_JOBS
#            targets at a time (default 1; one libFuzzer process per target and core). Each
#            run (short or long) appends its target's inputs, coverage and corpus size to
#            fuzz/campaign.log (fuzz/run.sh); `python3 fuzz/campaign.py --write` puts the
#            totals into the figures of fuzz/README.md and RELIABILITY.md. Seeds come from
#            the conformance vectors (fuzz/seed.py writes fuzz/seeds/<target>/, ignored by git).

# Seconds per target.
FUZZ_SECONDS ?= 30
SECONDS ?= 3600
# Targets fuzzed at once by fuzz-long (each is one single-threaded libFuzzer process).
FUZZ_JOBS ?= 1
FUZZ_TARGETS ?= native_apply cline_stream patch_plan ops c_abi fs_ops text_editor mcp udiff_apply

.PHONY: fuzz fuzz-long fuzz-tool fuzz-seeds
fuzz-tool:
	@$(CARGO) fuzz --version >/dev/null 2>&1 || $(CARGO) install cargo-fuzz --locked

fuzz-seeds:
	python3 fuzz/seed.py

fuzz: fuzz-tool fuzz-seeds ## Run every cargo-fuzz target for FUZZ_SECONDS each (default 30; not part of `make test`)
	@set -e; for t in $(FUZZ_TARGETS); do \
	  echo "== fuzz $$t for $(FUZZ_SECONDS) s"; \
	  fuzz/run.sh $$t $(FUZZ_SECONDS); \
	done

fuzz-long: fuzz-tool fuzz-seeds ## The fuzzing campaign: every target for SECONDS each (default 3600, FUZZ_JOBS at a time), logged to fuzz/campaign.log
	$(CARGO) fuzz build -s none
	printf '%s\n' $(FUZZ_TARGETS) | xargs -P $(FUZZ_JOBS) -I{} fuzz/run.sh {} $(SECONDS)
	python3 fuzz/campaign.py --write
