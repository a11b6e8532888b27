# OPT: O0 O2
# A static library of LLVM bitcode objects (`ferrozyme cc -flto -c`, archived with
# llvm-ar), linked with -L/-l: the linker-like member selection pulls only the members the
# program needs. unused.o references a function defined nowhere; pulling it would make
# the link fail, so passing proves it stayed out. The library holds only IR, so it also
# stays off the system linker's command line. Oracle: analytic (spring chain energy).
"$FERROZYME" cc $OPT -flto -c "$SRC/springs.c" -o springs.o
"$FERROZYME" cc $OPT -flto -c "$SRC/norms.c" -o norms.o
"$FERROZYME" cc $OPT -flto -c "$SRC/unused.c" -o unused.o
mkdir -p lib
$AR rcs lib/libphys.a springs.o norms.o unused.o
"$FERROZYME" cc $OPT -I"$FZ_TEST" "$SRC/main.c" -Llib -lphys -o prog -lm
