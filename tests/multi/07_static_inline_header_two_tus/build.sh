# OPT: O0 O1 O2 O3
# `static inline` helpers in a header included by two translation units (each gets its
# own copy, internal linkage, the same name in both): model.c's differentiated function
# uses them, main.c uses them for its oracle and calls the hook. Built in one command
# (both files) and, as a second program, from separate objects (`-c`, linked after):
# the two `static` copies must not be mixed up or merged wrongly. Oracle: the analytic
# gradient and central differences.
"$FERROZYME" cc $OPT -I"$FZ_TEST" -I"$SRC" "$SRC/main.c" "$SRC/model.c" -o prog1 -lm
"$FERROZYME" cc $OPT -I"$FZ_TEST" -I"$SRC" -c "$SRC/main.c" -o main.o
"$FERROZYME" cc $OPT -I"$SRC" -c "$SRC/model.c" -o model.o
"$FERROZYME" cc main.o model.o -o prog2 -lm
printf '#!/bin/sh\n./prog1 && ./prog2\n' > prog
chmod +x prog
