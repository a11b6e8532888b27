# Reliability targets (included by the top-level Makefile).
#   make fuzz N=200 [SEED=1] [TIMEOUT=20]   crash fuzzing of `ferrozyme opt` (tools/fuzz/run.py)
#   make difftest K=50 [SEED=1] [MODE=both]  random programs vs finite differences at -O0 and -O2
# MODE=rev|fwd|both: reverse (__enzyme_autodiff), forward (__enzyme_fwddiff) or both.
# The default is `both`.
N ?= 200
K ?= 50
SEED ?= 1
TIMEOUT ?= 20
MODE ?= both
PYTHON ?= python3
FERROZYME_BIN ?= $(CURDIR)/target/release/ferrozyme

.PHONY: fuzz difftest ferrozyme-release

ferrozyme-release:
	cargo build --release

fuzz: ferrozyme-release
	FERROZYME_BIN=$(FERROZYME_BIN) $(PYTHON) tools/fuzz/run.py $(N) --seed $(SEED) --timeout $(TIMEOUT) --quiet

difftest: ferrozyme-release
	FERROZYME_BIN=$(FERROZYME_BIN) $(PYTHON) tools/difftest/check.py $(K) --seed $(SEED) --mode $(MODE)
