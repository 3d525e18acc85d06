# Python targets: the pip package in python/, built from bindings/python into .venv.

VENV := .venv
VENV_BIN := $(CURDIR)/$(VENV)/bin
# maturin is run by pip from the venv; --locked keeps the build on Cargo.lock. The tested build
# adds the fault-injection feature (hidden `_inject_panic()` methods for tests/test_panic.py);
# `pip install ./python` leaves it out.
PIP_BUILD := $(RELEASE_TARGET) PATH="$(VENV_BIN):$$PATH" MATURIN_PEP517_ARGS="--locked --features fault-injection" $(VENV_BIN)/pip install -q --no-build-isolation --no-deps --force-reinstall

# The `hunkloom` binary tests/test_mcp.py drives as an MCP server (built by test-python; follows
# CARGO_TARGET_DIR when it is set).
HUNKLOOM_BIN := $(abspath $(RELEASE_DIR))/hunkloom

$(VENV)/.installed: python/requirements-dev.txt
	python3 -m venv $(VENV)
	$(VENV_BIN)/pip install -q --disable-pip-version-check -r python/requirements-dev.txt
	touch $@

.PHONY: python-install hunkloom-bin test-python bench-python
python-install: $(VENV)/.installed ## Build the extension and pip-install the package into .venv
	$(PIP_BUILD) ./python

hunkloom-bin: ## Build the hunkloom command (release) for the MCP client test
	$(RELEASE_TARGET) $(CARGO) build --release --locked -p hunkloom-cli

test-python: python-install hunkloom-bin ## Python: vectors in every mode, API and thread tests, the MCP client test, stubtest, mypy --strict
	HUNKLOOM_BIN=$(HUNKLOOM_BIN) $(VENV_BIN)/pytest -q -n $(TEST_JOBS) python/tests
	$(VENV_BIN)/python -m mypy.stubtest hunkloom
	cd python && $(VENV_BIN)/mypy --strict tests bench

bench-python: python-install ## Python: S1/S2/S4/S5 through the Python API, stateful vs per-prefix; the text editor beside Anthropic's and OpenHands' (stand-ins), unified diffs beside whatthepatch and git apply, 10 KB-2 MB
	$(VENV_BIN)/pip install -q --disable-pip-version-check -r python/requirements-bench.txt
	$(CARGO) run -q --release --locked -p hunkloom-bench --bin scenarios -- target/scenarios
	$(VENV_BIN)/python python/bench/bench.py target/scenarios
	$(VENV_BIN)/python python/bench/editor.py
	$(VENV_BIN)/python python/bench/udiff.py
