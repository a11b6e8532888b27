# Benchmarks (issue #5): included by the top-level Makefile.
#   make bench        every input BENCHMARKS.md lists that is present (long: ADBench timing)
#   make bench-quick  one small input per benchmark, short timings (< 3 minutes)
# Outputs: bench/out/results.csv, bench/out/compile.csv, bench/out/grad_primal.svg,
# logs in bench/out/logs.  See bench/README.md for the environment variables.
BENCH_PYTHON ?= python3

.PHONY: bench bench-quick
bench:
	$(BENCH_PYTHON) bench/run.py

bench-quick:
	$(BENCH_PYTHON) bench/run.py --quick
