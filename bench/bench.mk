# Benchmarks (issue #5): included by the top-level Makefile.
#   make bench        every input BENCHMARKS.md lists that is present (long: ADBench timing)
#   make bench-quick  one small input per benchmark, short timings (< 3 minutes)
# Both first install what is missing: LLVM 22 (scripts/ensure-llvm.sh) and boost's
# headers for the odeint benchmarks (scripts/ensure-boost.sh, Debian's libboost-dev).
# Outputs: bench/out/results.csv, bench/out/compile.csv, bench/out/grad_primal.svg,
# logs in bench/out/logs.  See bench/README.md for the environment variables.
BENCH_PYTHON ?= python3

.PHONY: bench bench-quick bench-deps
bench-deps:
	@bash scripts/ensure-llvm.sh
	@bash scripts/ensure-boost.sh

bench: bench-deps
	$(BENCH_PYTHON) bench/run.py

bench-quick: bench-deps
	$(BENCH_PYTHON) bench/run.py --quick
