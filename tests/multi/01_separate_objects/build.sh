# OPT: O0 O2
# Three C files compiled separately with `ferrozyme cc -c` (objects that carry their IR),
# linked by `ferrozyme cc` without -O (the level recorded in the objects is used): the
# gradient crosses all three files (main -> model.c -> act.c). main.o alone cannot be
# differentiated (the model is elsewhere), so its -c leaves the hook to the link step.
# Oracle: central finite differences.
"$FERROZYME" cc $OPT -I"$FZ_TEST" -c "$SRC/main.c" -o main.o
"$FERROZYME" cc $OPT -c "$SRC/model.c" -o model.o
"$FERROZYME" cc $OPT -c "$SRC/act.c" -o act.o
"$FERROZYME" cc main.o model.o act.o -o prog -lm
