# Benchmarks (issue #5): included by the top-level Makefile.
#   make bench        every input BENCHMARKS.md lists that is present (long: ADBench timing),
#                     then compile-time scaling (bench/compile_scaling, issue 18), the
#                     checkpointed ODE at several tape budgets (bench/ckpt, issue 14) and
#                     the parallel stencils (bench/hpc, issue #13)
#   make bench-compile  only the compile-time scaling (four shapes, four sizes)
#   make bench-ckpt   only the checkpointed ODE (time and memory per budget)
#   make bench-quick  one small input per benchmark, short timings (< 3 minutes)
#   make bench-hpc    only the parallel stencils: OpenMP at 1/2 threads, MPI at 1/2/4
#                     processes (installs flang/libomp/Open MPI with scripts/ensure-hpc.sh)
# Both first install what is missing: LLVM 22 (scripts/ensure-llvm.sh) and boost's
# headers for the odeint benchmarks (scripts/ensure-boost.sh, Debian's libboost-dev).
# Outputs: bench/out/results.csv, bench/out/compile.csv, bench/out/grad_primal.svg,
# logs in bench/out/logs.  See bench/README.md for the environment variables.
BENCH_PYTHON ?= python3

.PHONY: bench bench-quick bench-deps bench-hpc bench-compile bench-ckpt
bench-deps:
	@bash scripts/ensure-llvm.sh
	@bash scripts/ensure-boost.sh

bench: bench-deps
	$(BENCH_PYTHON) bench/run.py
	$(BENCH_PYTHON) bench/compile_scaling/run.py
	bash bench/ckpt/run.sh
	@bash scripts/ensure-hpc.sh
	$(BENCH_PYTHON) bench/hpc/run.py

bench-hpc: bench-deps
	@bash scripts/ensure-hpc.sh
	$(BENCH_PYTHON) bench/hpc/run.py $(BENCH_HPC_ARGS)

bench-quick: bench-deps
	$(BENCH_PYTHON) bench/run.py --quick

bench-compile: bench-deps
	@test -x target/release/ferrozyme || cargo build --release -p ferrozyme-cli
	$(BENCH_PYTHON) bench/compile_scaling/run.py $(BENCH_COMPILE_ARGS)

bench-ckpt: bench-deps
	@test -x target/release/ferrozyme || cargo build --release -p ferrozyme-cli
	bash bench/ckpt/run.sh $(BENCH_CKPT_N)
