# OPT: O0 O2
# A custom derivative registered for a function without a body in the differentiated
# module: `bessel_j0` comes from a library compiled to machine code only (plain clang,
# no IR), and the program registers its reverse and forward derivatives the Enzyme
# way. Without the rules this is a missing-derivative error (05_lib_without_ir).
# Oracles: analytic (J0' = -J1, computed by the library too), and the rules' call counts.
$CLANG $OPT -c "$SRC/bessel.c" -o bessel.o
$AR rcs libbessel.a bessel.o
"$FERROZYME" cc $OPT -I"$FZ_TEST" "$SRC/main.c" -L. -lbessel -o prog -lm
