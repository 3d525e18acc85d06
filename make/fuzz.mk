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

# Seconds per target.
FUZZ_SECONDS ?= 30
FUZZ_TARGETS ?= native_apply cline_stream patch_plan ops udiff_apply

.PHONY: fuzz
fuzz: ## Run every cargo-fuzz target for FUZZ_SECONDS each (default 30; not part of `make test`)
	@$(CARGO) fuzz --version >/dev/null 2>&1 || $(CARGO) install cargo-fuzz --locked
	@set -e; for t in $(FUZZ_TARGETS); do \
	  echo "== fuzz $$t for $(FUZZ_SECONDS) s"; \
	  $(CARGO) fuzz run -s none $$t -- -max_total_time=$(FUZZ_SECONDS) -dict=fuzz/dict/$$t.dict; \
	done
