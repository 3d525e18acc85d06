# hunkloom tasks. `make` lists them; `make test` is exactly what CI runs.
# Each language's targets live in make/<language>.mk.

CARGO ?= cargo
# Panics caught at the FFI boundary must not leave a backtrace cache behind under valgrind.
export RUST_BACKTRACE = 0

# napi-rs builds the Node addon with `--target <host>`, which puts it in target/<host>/release.
# Every release build `make` runs names the same target, so the C library, the Python extension,
# the command and the addon share one set of compiled crates (with two directories, the addon's
# build compiled every crate a second time: ~2 minutes of a fresh clone's `make test`).
HOST_TRIPLE := $(shell rustc -vV | sed -n 's/^host: //p')
RELEASE_TARGET := CARGO_BUILD_TARGET=$(HOST_TRIPLE)
RELEASE_DIR := $(or $(CARGO_TARGET_DIR),target)/$(HOST_TRIPLE)/release
# The Python and Node test runners run this many test files at once (Node's default is one
# fewer than the cores: one on a 2-core machine).
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.DEFAULT_GOAL := help

.PHONY: help
help: ## List the tasks
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-16s %s\n", $$1, $$2}'

.PHONY: demo
demo: ## Stream a built-in edit into a built-in file and show the live preview
	@echo "make demo: building the hunkloom command (release; the first build takes a few minutes), then streaming the demo edit"
	$(CARGO) build --release --locked -p hunkloom-cli
	$(CARGO) run --release --locked -q -p hunkloom-cli -- demo

.PHONY: test
# test-rust's `cargo test --workspace` runs the C crate's tests (the vectors through the C
# ABI) too, so the C stage is test-c without them: nothing runs twice.
TEST_STAGES := lint test-rust test-c-programs test-python test-node test-dist

test: ## Every test in every language and of the release artifacts (what CI runs); prints each stage's time
	@for stage in $(TEST_STAGES); do \
		start=$$(date +%s); \
		$(MAKE) --no-print-directory $$stage || exit 1; \
		echo "make test: $$stage took $$(( $$(date +%s) - start )) s"; \
	done

.PHONY: test-rust
# The test binaries wait on the file system for about a third of their time, so test-rust runs
# them two at a time (make/rust_lanes.py): the three longest corpus runs in one lane, every other
# test binary and the doctests in the other, then the file layer's tests that race threads and
# a simulated user against each other alone. What is built and run is what
# `cargo test --workspace` builds and runs.
RUST_LANE := c_abi,toolset_vectors,text_editor_vectors
RUST_ALONE := stress,parallel,concurrency

test-rust: ## Rust: unit, conformance vectors (every chunking), property tests, CLI, doctests, the vectors through the C ABI
	CARGO=$(CARGO) python3 make/rust_lanes.py --lane $(RUST_LANE) --alone $(RUST_ALONE) -- --locked

.PHONY: test-long
test-long: ## The long cases: native semantics under every toolset on every robustness row (make test runs every third)
	HUNKLOOM_SEMANTICS_STRIDE=1 $(CARGO) test --locked -p hunkloom-tools --test toolset_semantics -- --nocapture

.PHONY: lint
lint: ## rustfmt, clippy (warnings are errors), rustdoc (broken links are errors), fuzz targets compile, actionlint
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets --locked -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps --locked -q
	@# The fuzz targets (their own workspace) must keep compiling as the APIs they drive change;
	@# type-checked without building libFuzzer itself, in the workspace's target directory so
	@# the dependencies clippy just checked are not checked again (no code depends on
	@# `cfg(fuzzing)`, so the flag, which would rebuild every dependency, is not needed).
	CARGO_TARGET_DIR="$(or $(CARGO_TARGET_DIR),$(CURDIR)/target)" $(CARGO) check --manifest-path fuzz/Cargo.toml --locked --no-default-features --bins -q
	python3 fuzz/campaign.py --check
	@# docs/error-codes.md's tables are what ErrorKind and ToolCode generate (`make gen-docs`).
	@# (--workspace: the features of test-rust's build, which then reuses what this one compiled.)
	$(CARGO) test -q --locked --workspace --test error_codes --test codes_doc
	$(MAKE) --no-print-directory lint-workflows

.PHONY: gen
gen: gen-c gen-node gen-docs ## Regenerate the committed generated files (C header, Node loader and types, error-code tables)

.PHONY: gen-docs
gen-docs: ## Rebuild docs/error-codes.md's code tables from ErrorKind and ToolCode (advice cells are kept)
	HUNKLOOM_BLESS=1 $(CARGO) test -q --locked --workspace --test error_codes --test codes_doc -- is_generated

.PHONY: bench
bench: bench-rust bench-lazy bench-parallel bench-python bench-node ## Every benchmark (Rust criterion, Python and Node scripts)

.PHONY: bench-rust
bench-rust: ## Criterion benchmarks S1-S5 (stateful vs stateless-per-prefix vs a copy of the file), cost bounds (10^4-10^6 blocks), one hunk on 2 MB per patch reading (multiples of a copy), text-editor calls streamed 1 byte at a time vs made whole; the codex dialect vs a stand-in of Codex's core
	$(CARGO) bench --locked -p hunkloom-bench --bench streaming -- --warm-up-time 1 --measurement-time 3
	$(CARGO) bench --locked -p hunkloom-bench --bench cost_bounds -- --warm-up-time 1 --measurement-time 3
	$(CARGO) bench --locked -p hunkloom-bench --bench one_shot -- --warm-up-time 1 --measurement-time 3
	$(CARGO) bench --locked -p hunkloom-bench --bench edit_stream -- --warm-up-time 1 --measurement-time 3
	$(CARGO) bench --locked -p hunkloom-bench --bench peers

.PHONY: bench-parallel
bench-parallel: ## Criterion: 16 edits of one file from 1, 4 and 16 threads through one Workspace (each committed with fsync), and one edit alone
	$(CARGO) bench --locked -p hunkloom-bench --bench parallel -- --warm-up-time 1 --measurement-time 5

.PHONY: bench-lazy
bench-lazy: ## Criterion: lazy edits (apply_lazy) of a 10,000-line file, in MB/s of file plus snippet
	$(CARGO) bench --locked -p hunkloom-bench --bench lazy -- --warm-up-time 1 --measurement-time 3

.PHONY: clean
clean: ## Remove build output
	$(CARGO) clean
	rm -rf .venv node/node_modules node/*.node python/hunkloom/*.so dist

include make/c.mk make/python.mk make/node.mk make/fuzz.mk make/dist.mk
