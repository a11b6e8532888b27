# OPT: O0 O2
# A C++ static library (classes with out-of-line member functions, an explicitly
# instantiated template, a namespace-scope constant table) compiled with `ferrozyme c++ -c`
# (machine code plus IR) and archived; the program differentiates through it with
# Enzyme's C++ interface (<enzyme/enzyme>, found without flags) in reverse and forward
# mode. Oracles: analytic gradient, and the dot-product identity between the modes.
"$FERROZYME" c++ $OPT -std=c++17 -I"$SRC" -c "$SRC/geom.cpp" -o geom.o
"$FERROZYME" c++ $OPT -std=c++17 -I"$SRC" -c "$SRC/cost.cpp" -o cost.o
$AR rcs libgeom.a geom.o cost.o
"$FERROZYME" c++ $OPT -std=c++17 -I"$FZ_TEST" -I"$SRC" "$SRC/main.cpp" libgeom.a -o prog -lm
