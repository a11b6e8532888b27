# OPT: O0 O2
# A third-party C library built by plain clang with -fembed-bitcode (machine code plus
# the IR in .llvmbc), next to a member compiled without any IR that the program only
# calls outside the differentiated code (report.o, linked from the archive by the system
# linker). The program includes <ferrozyme.h> (found without flags) instead of declaring
# the ABI, and differentiates through the library in reverse and forward mode.
# Oracles: finite differences and the dot-product identity.
$CLANG $OPT -fembed-bitcode -c "$SRC/smooth.c" -o smooth.o
$CLANG $OPT -c "$SRC/report.c" -o report.o
$AR rcs libsmooth.a smooth.o report.o
"$FERROZYME" cc $OPT -I"$FZ_TEST" "$SRC/main.c" libsmooth.a -o prog -lm
