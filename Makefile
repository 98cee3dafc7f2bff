# SPDX-FileCopyrightText: 2026 The ptelens authors
# SPDX-License-Identifier: BSD-3-Clause
# Thin wrapper over CMake. `make run` and `make test` work on a fresh Debian 12 machine.
BUILD_DIR ?= build
ASAN_DIR ?= build-asan
JOBS ?= $(shell nproc)
CORPUS_GUESS := $(abspath $(CURDIR)/../shared/fixtures)
export PTELENS_CORPUS ?= $(if $(wildcard $(CORPUS_GUESS)),$(CORPUS_GUESS),)
# ExecuTorch's own runtime for the `runtime` tests (skipped when it is missing).
RUNNER_GUESS := $(abspath $(CURDIR)/../shared/tools/etrt_runner)
export PTELENS_ET_RUNNER ?= $(if $(wildcard $(RUNNER_GUESS)),$(RUNNER_GUESS),)
# The same runtime with ExecuTorch's XNNPACK backend, for the programs with XNNPACK delegates.
RUNNER_XNNPACK_GUESS := $(abspath $(CURDIR)/../shared/tools/etrt_runner_xnnpack)
export PTELENS_ET_RUNNER_XNNPACK ?= $(if $(wildcard $(RUNNER_XNNPACK_GUESS)),$(RUNNER_XNNPACK_GUESS),)
EXAMPLE ?= $(BUILD_DIR)/examples/example.etrecord
# ccache, when installed, makes rebuilds in other checkouts (git worktrees) cheap; nothing depends on it.
LAUNCHER := $(if $(shell command -v ccache 2>/dev/null),-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache,)

.PHONY: all deps configure build run test test-asan format format-check layering-check header-docs-check bench bench-table clean fuzz install package operators-table test-data decompositions-table

all: build

deps:
	@bash scripts/install-deps.sh

$(BUILD_DIR)/build.ninja: | deps
	@cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo $(LAUNCHER)

configure: deps $(BUILD_DIR)/build.ninja

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

# Opens the bundled example and emits it, so every view is filled. Offscreen (no display to look at),
# it loads, emits, saves screenshots of each view to $(BUILD_DIR)/screenshots and exits. Builds only what it runs
# (the GUI, the CLI and the example); `make build` and `make test` build the rest (tests, benchmarks).
run: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS) --target ptelens ptelens-cli ptelens_example
ifeq ($(QT_QPA_PLATFORM),offscreen)
	$(BUILD_DIR)/bin/ptelens --emit --screenshot $(BUILD_DIR)/screenshots $(EXAMPLE)
	@echo "ptelens: offscreen run; screenshots in $(BUILD_DIR)/screenshots"
else
	$(BUILD_DIR)/bin/ptelens --emit $(EXAMPLE)
endif

# Reconfigured when this Makefile changes, so an older build-asan (e.g. one made with the GUI off) follows it.
$(ASAN_DIR)/build.ninja: Makefile | deps
	@cmake -S . -B $(ASAN_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DPTELENS_SANITIZE=ON -DPTELENS_BUILD_GUI=ON -DPTELENS_BUILD_BENCH=OFF $(LAUNCHER)

# Every test again (core, CLI and the offscreen GUI) under AddressSanitizer + UndefinedBehaviorSanitizer. Leaks
# inside Qt, fontconfig and glib (not ours) are suppressed by tests/lsan.supp.
test-asan: deps $(ASAN_DIR)/build.ninja
	@cmake --build $(ASAN_DIR) -j $(JOBS)
	@cd $(ASAN_DIR) && ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS)

test: build format-check layering-check header-docs-check
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)
	@$(MAKE) --no-print-directory test-asan

format:
	@git ls-files '*.cpp' '*.h' | xargs clang-format -i

format-check:
	@git ls-files '*.cpp' '*.h' | xargs clang-format --dry-run --Werror

# Every #include against the allow-list of scripts/layering.txt (which folder may include which).
layering-check:
	@python3 scripts/check-layering.py

# Every type declared in the public headers core/include/pte/*.h has a doc comment.
header-docs-check:
	@python3 scripts/check-header-docs.py

# The CLI and core benchmarks (ptelens-bench), then the GUI benchmarks (Google Benchmark; bench/, offscreen).
bench: build
	@$(BUILD_DIR)/bin/ptelens-bench
	@if [ -x $(BUILD_DIR)/bin/bench_workbench ]; then QT_QPA_PLATFORM=offscreen $(BUILD_DIR)/bin/bench_workbench; \
	else echo "bench_workbench was not built (needs PTELENS_BUILD_GUI, PTELENS_BUILD_BENCH and libbenchmark-dev)"; fi
	@if [ -x $(BUILD_DIR)/bin/bench_profile ]; then QT_QPA_PLATFORM=offscreen $(BUILD_DIR)/bin/bench_profile; fi

# docs/benchmarks.md's tables, rewritten by the programs that measure them. The full sizes write a few GiB into BENCH_DIR
# (default: the system temp folder); run it on an otherwise idle machine.
BENCH_DIR ?=
bench-table: configure
	@cmake --build $(BUILD_DIR) --target ptelens-bench ptelens-cli -j $(JOBS)
	@$(BUILD_DIR)/bin/ptelens-bench $(if $(BENCH_DIR),--dir $(BENCH_DIR),) --markdown docs/benchmarks.md
	@if grep -q bench_workbench $(BUILD_DIR)/build.ninja; then \
		cmake --build $(BUILD_DIR) --target bench_workbench bench_profile -j $(JOBS) && python3 scripts/bench-gui-table.py --build $(BUILD_DIR); \
	else echo "bench_workbench is not configured (needs PTELENS_BUILD_GUI, PTELENS_BUILD_BENCH and libbenchmark-dev): the GUI table is left as it is"; fi

# `cmake --install` into PREFIX (default /usr/local); DESTDIR=/scratch/root stages it elsewhere.
PREFIX ?= /usr/local
install: build
	@DESTDIR=$(DESTDIR) cmake --install $(BUILD_DIR) --prefix $(PREFIX)

# A Debian package (CPack) in $(BUILD_DIR): binaries, desktop entry, icons, man page; Depends from dpkg-shlibdeps.
package: build
	@cmake --build $(BUILD_DIR) --target package

# docs/operators.md: every kernel of ExecuTorch's runtime, run with ptelens-emitted programs (needs the runner).
operators-table: configure
	@BUILD_DIR=$(BUILD_DIR) JOBS=$(JOBS) bash scripts/operators-table.sh

# The XNNPACK payloads of the delegate dumps in tests/data/dumps, written by the tests' payload builder (their README).
test-data: configure
	@cmake --build $(BUILD_DIR) --target gen-test-payloads
	@$(BUILD_DIR)/bin/gen-test-payloads tests/data/dumps

# docs/decompositions.md: every composite aten operator and what the lowering makes of it (no runner needed).
decompositions-table: configure
	@cmake --build $(BUILD_DIR) --target tst_decomposition_table -j $(JOBS)
	@PTELENS_TEST_DATA=$(CURDIR)/tests/data PTELENS_DECOMPOSITIONS_TABLE=$(CURDIR)/docs/decompositions.md \
		$(BUILD_DIR)/bin/tst_decomposition_table theDocumentIsCurrent -silent
	@echo "wrote docs/decompositions.md"

clean:
	@rm -rf $(BUILD_DIR) $(ASAN_DIR)

# libFuzzer targets (fuzz/): a separate clang-14 build in $(FUZZ_DIR), then each fuzzer for FUZZ_SECONDS on the
# generated seed corpus (plus $PTELENS_CORPUS files, read in place). Not part of `build` or `test`.
FUZZ_DIR ?= build-fuzz
FUZZ_SECONDS ?= 60
fuzz:
	@bash scripts/install-deps.sh --fuzz
	@if [ ! -f $(FUZZ_DIR)/build.ninja ]; then CC=clang-14 CXX=clang++-14 cmake -S . -B $(FUZZ_DIR) -G Ninja \
		-DCMAKE_BUILD_TYPE=RelWithDebInfo -DPTELENS_BUILD_FUZZ=ON -DPTELENS_BUILD_GUI=OFF -DPTELENS_BUILD_BENCH=OFF \
		-DBUILD_TESTING=OFF; fi
	@cmake --build $(FUZZ_DIR) --target fuzz_all -j $(JOBS)
	@FUZZ_SECONDS=$(FUZZ_SECONDS) bash fuzz/run-fuzzers.sh $(FUZZ_DIR)
