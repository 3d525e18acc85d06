# patchloom tasks. `make` lists them; `make test` is exactly what CI runs.

CARGO ?= cargo
export RUST_BACKTRACE = 0

.DEFAULT_GOAL := help

.PHONY: help
help: ## List the tasks
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

.PHONY: demo
demo: ## Stream a built-in edit into a built-in file and show the live preview
	$(CARGO) run --release --locked -q -p patchloom-cli -- demo

.PHONY: test
test: lint test-rust ## Every test in every language (what CI runs)

.PHONY: test-rust
test-rust: ## Rust: unit, conformance vectors (every chunking), property tests, CLI, doctests
	$(CARGO) test --workspace --locked

.PHONY: lint
lint: ## rustfmt, clippy (warnings are errors) and rustdoc (broken links are errors)
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets --locked -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps --locked -q

.PHONY: bench
bench: ## Criterion benchmarks S1-S5 (stateful vs stateless-per-prefix vs a copy of the file)
	$(CARGO) bench --locked -p patchloom-bench --bench streaming -- --warm-up-time 1 --measurement-time 3

.PHONY: clean
clean: ## Remove build output
	$(CARGO) clean
