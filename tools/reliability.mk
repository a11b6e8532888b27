# Reliability targets (included by the top-level Makefile).
#   make fuzz N=200 [SEED=1] [TIMEOUT=20] [SOURCE=both]   crash fuzzing of `ferrozyme opt` (tools/fuzz/run.py)
#   make difftest K=50 [SEED=1] [LANG=c|cxx|fortran|both|all] [MODE=rev|fwd|both] [FEATURES=+fnptr,-stderr] [CONFIGS=O0,O2]
#       random C/C++/Fortran programs vs long-double (Fortran: real(10)) finite differences (tools/difftest/check.py)
# MODE: reverse (__enzyme_autodiff), forward (__enzyme_fwddiff) or both (the default).
# LANG is also the locale's variable: a value other than c, cxx, fortran, both or all means both.
N ?= 200
K ?= 50
SEED ?= 1
TIMEOUT ?= 20
MODE ?= both
SOURCE ?= both
FEATURES ?=
CONFIGS ?=
JOBS ?= 2
PYTHON ?= python3
FERROZYME_BIN ?= $(CURDIR)/target/release/ferrozyme
DT_LANG := $(if $(filter c cxx fortran both all,$(LANG)),$(LANG),both)

.PHONY: fuzz difftest ferrozyme-release

ferrozyme-release:
	cargo build --release

fuzz: ferrozyme-release
	FERROZYME_BIN=$(FERROZYME_BIN) $(PYTHON) tools/fuzz/run.py $(N) --seed $(SEED) --timeout $(TIMEOUT) --source $(SOURCE) --jobs $(JOBS) --quiet

difftest: ferrozyme-release
	FERROZYME_BIN=$(FERROZYME_BIN) $(PYTHON) tools/difftest/check.py $(K) --seed $(SEED) --mode $(MODE) --lang $(DT_LANG) --features "$(FEATURES)" --configs "$(CONFIGS)" --jobs $(JOBS)
