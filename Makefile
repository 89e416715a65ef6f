# ContactArena — the two commands a user needs are `make reproduce` and `make test`.
# Each installs its own Debian dependencies first (scripts/install-deps.sh, idempotent).

BUILD_DIR ?= build
# SANITIZE=address,undefined: a sanitizer build in its own folder (build-address-undefined).
SANITIZE  ?=
comma     := ,
ifneq ($(SANITIZE),)
BUILD_DIR := build-$(subst $(comma),-,$(SANITIZE))
SANITIZE_FLAGS := -DARENA_SANITIZE=$(SANITIZE)
# Leaks of the third-party libraries (their static registries) are not ours to fix.
export ASAN_OPTIONS ?= detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS ?= print_stacktrace=1:halt_on_error=1
endif
# ccache (when CMake found it) rewrites paths inside the clone as relative ones, so a clone in
# another folder hits the cache of an earlier build (docs/build.md).
export CCACHE_BASEDIR ?= $(CURDIR)
PROFILE   ?= quick
THREADS   ?= $(shell nproc)
# Debian's python3, which has python3-matplotlib and python3-pandas (a pyenv python may not).
PYTHON    ?= /usr/bin/python3
ARENA     := $(BUILD_DIR)/bin/arena
JOBS      ?= $(shell nproc)

.PHONY: all deps configure build build-arena build-bench test soak test-cluster reproduce bench perf fuzz clean

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release $(SANITIZE_FLAGS) >/dev/null

# Everything but the benchmarks: the arena binary and the test executables.
build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

# Only what a target needs: the arena binary (reproduce, test-cluster), the benchmarks (bench, perf).
build-arena: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS) --target arena

build-bench: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS) --target arena_bench

# The unit and regression tiers (tests/CMakeLists.txt); `make soak` runs the soak tier.
test: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) -L 'unit|regression'

soak: build
	@cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) -L soak

# A one-node Slurm on this machine (Debian's slurm-wlm and munge, installed if missing; as root)
# runs a small sweep through scripts/slurm/ in 2 shards + merge and checks it against an
# unsharded run (tests/cluster/slurm_test.sh; about 20 s). It needs only the arena binary,
# so it builds that target rather than every test.
test-cluster: build-arena
	@tests/cluster/slurm_test.sh "$(ARENA)" "$(PYTHON)"

# Every registered experiment at PROFILE (quick by default), every figure, then the report.
reproduce: build-arena
	@scripts/reproduce.sh "$(ARENA)" "$(PROFILE)" "$(THREADS)" "$(PYTHON)"

# BENCH_FLAGS: more Google Benchmark flags, e.g. --benchmark_repetitions=3 (medians) or a
# --benchmark_filter; scripts/readme_bench.py --snapshot results/bench/bench.json keeps a whole
# run as docs/timings.md's table.
BENCH_FLAGS ?=
bench: build-bench
	@mkdir -p results/bench
	@$(BUILD_DIR)/bin/arena_bench --benchmark_out=results/bench/bench.json \
	    --benchmark_out_format=json --benchmark_counters_tabular=true $(BENCH_FLAGS) \
	    --benchmark_context=git_commit=$$(git rev-parse HEAD 2>/dev/null || echo unknown) \
	    --benchmark_context=git_dirty=$$(test -z "$$(git status --porcelain 2>/dev/null)" && echo false || echo true)

# The speed-regression suite against bench/perf/baseline.json and a sweep's parallel efficiency
# (scripts/perf.py; a few minutes: the sweep alone is timed three ways, 1.5-4 min).
perf: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS) --target arena_bench arena
	@$(PYTHON) scripts/perf.py --bench $(BUILD_DIR)/bin/arena_bench --arena $(ARENA)

# libFuzzer on the URDF, MJCF, STL, OBJ and TOML loaders (scripts/fuzz.sh; clang, own build folder).
FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?=
fuzz:
	@scripts/fuzz.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

clean:
	@rm -rf $(BUILD_DIR) plots/out
