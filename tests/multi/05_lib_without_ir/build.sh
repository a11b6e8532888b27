# OPT: O2
# EXPECT-ERROR: error[missing-derivative]
# EXPECT-ERROR: `blend`
# EXPECT-ERROR: libplain.a(blend.o)
# EXPECT-ERROR: -fembed-bitcode
# A library compiled to machine code only (plain clang, no IR): the function the
# gradient needs from it cannot be differentiated, and the error names the symbol, the
# library member that defines it and the remedies.
$CLANG $OPT -c "$SRC/blend.c" -o blend.o
$AR rcs libplain.a blend.o
"$FERROZYME" cc $OPT -I"$FZ_TEST" "$SRC/main.c" -L. -lplain -o prog -lm
