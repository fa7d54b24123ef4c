# Front door. Two commands matter (see README.md):
#   make demo    install missing Debian packages, build everything, run the demo
#   make check   the whole test suite (what CI runs)
# Everything else is CMake underneath; build trees live in build/ (normal,
# the system compiler), build-clang/ (everything built and tested with
# clang), build-san/ (ravel's own code under ASan+UBSan) and build-fuzz/
# (clang, libFuzzer harnesses).

BUILD     ?= build
JOBS      ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: all build deps demo check check-fast test-clang test-san fuzz-smoke bench bench-dpor bench-genmc bench-lanes bench-pbt bench-races bench-hashmap bench-lint bench-unit soak clean

all: build

deps:
	@scripts/install-deps

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	@scripts/demo $(BUILD)

# The whole suite: a warnings-as-errors build with its unit and end-to-end
# tests (and the exported-symbol check), the same with clang, the same again
# with ravel's own code under ASan+UBSan, and the parser fuzzers for a
# short while.
check: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRAVEL_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	@$(MAKE) --no-print-directory test-clang
	@$(MAKE) --no-print-directory test-san
	@$(MAKE) --no-print-directory fuzz-smoke
	@echo "make check: all passed"

check-fast: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -L fast

test-clang: deps
	@CC=clang cmake -S . -B build-clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRAVEL_WERROR=ON >/dev/null
	@cmake --build build-clang -j $(JOBS)
	@cd build-clang && ctest --output-on-failure -j $(JOBS)

test-san: deps
	@cmake -S . -B build-san -DCMAKE_BUILD_TYPE=Debug -DRAVEL_WERROR=ON -DRAVEL_SANITIZE=ON >/dev/null
	@cmake --build build-san -j $(JOBS)
	@cd build-san && ctest --output-on-failure -j $(JOBS) -L san

fuzz-smoke: deps
	@CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DRAVEL_FUZZ=ON -DRAVEL_EXAMPLES=OFF >/dev/null
	@cmake --build build-fuzz -j $(JOBS)
	@scripts/fuzz-smoke build-fuzz $${RAVEL_FUZZ_SECONDS:-20}

bench: build
	@scripts/bench $(BUILD)

# The classic DPOR benchmarks as a table (`ravel bench`): rates under sc
# with four configurations, and the rc11 columns (execution graphs and
# executions per second under --memory-model rc11, within a budget).
bench-dpor: build
	@$(BUILD)/bin/ravel bench

# ravel and GenMC side by side (bench/genmc-side-by-side): builds GenMC
# from its repository into ~/.cache/ravel-bench on first use (about ten
# minutes; scripts/install-genmc-deps installs what that needs), falls
# back to GenMC's published figures, marked, if it cannot.
bench-genmc: build
	@scripts/install-genmc-deps
	@bench/genmc-side-by-side $(BUILD)

# What the second executor buys a complete optimal-DPOR search: one
# against two lanes, alternating, medians of 3 (bench/lanes-speedup).
bench-lanes: build
	@bench/lanes-speedup $(BUILD)

# Property-based testing: generated test cases per second (bench/pbt.py).
bench-pbt: build
	@bench/pbt.py $(BUILD)

# RAVEL_TEST: tests per second, and executions per second of a test
# against the same body as main (bench/unit.c).
bench-unit: build
	@scripts/bench-unit $(BUILD)

# The race detector's cost per plain access and slowdown (bench/races.c).
bench-races: build
	@scripts/bench-races $(BUILD)

# One long execution (bench/hashmap.c at 10^4, 10^5, 10^6 operations):
# time and memory per operation under random, PCT and the default strategy.
bench-hashmap: build
	@scripts/bench-hashmap $(BUILD)

# ravel lint on the SQLite amalgamation (fetched from the npm registry on
# first use) against clang -O0 on the same file.
bench-lint: build
	@bench/lint-sqlite $(BUILD)

# Long runs (scripts/soak): the differential oracle for SOAK_SECONDS
# (default an hour), then the lane and signal stress tests with their full
# counts (100 runs of an assertion in many lanes, 20 runs of
# `timeout -s TERM 5 ravel run`).
soak: build
	@scripts/soak $(BUILD) $${SOAK_SECONDS:-3600}

clean:
	rm -rf build build-clang build-san build-fuzz ravel-tickets
