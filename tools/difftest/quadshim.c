/* The quad-precision math flang-22 calls for real(10) (it extends the argument to fp128
 * and calls _FortranA<Name>F128, which its runtime does not provide without
 * libquadmath): the Fortran difftest's real(10) reference links this (with
 * -lquadmath). Never differentiated. */
typedef __float128 fzq;
#define UNARY(N, f) extern fzq f(fzq); fzq _FortranA##N##F128(fzq x) { return f(x); }
#define BINARY(N, f) extern fzq f(fzq, fzq); fzq _FortranA##N##F128(fzq x, fzq y) { return f(x, y); }
UNARY(Sin, sinq) UNARY(Cos, cosq) UNARY(Tan, tanq) UNARY(Exp, expq) UNARY(Log, logq) UNARY(Log10, log10q)
UNARY(Tanh, tanhq) UNARY(Sinh, sinhq) UNARY(Cosh, coshq) UNARY(Sqrt, sqrtq) UNARY(Atan, atanq)
UNARY(Asin, asinq) UNARY(Acos, acosq) UNARY(Erf, erfq)
BINARY(Atan2, atan2q) BINARY(Pow, powq) BINARY(Hypot, hypotq)
