; Fuzz regression (tools/fuzz, llvm-stress): an i64 holding a float pair (adjoint <2 x float>)
; inserted into an <8 x i64> (lane adjoint double) produced `fadd <2 x float>, double`.
; EXPECT-ERROR: error[unsupported-instruction]
; EXPECT-ERROR: integer vector

@enzyme_dup = external global i32
@enzyme_out = external global i32
@enzyme_const = external global i32

define double @autogen_SD296599447(double %fzx, float %fzy, ptr %0, ptr %1, ptr %2, i32 %3, i64 %4, i8 %5) {
BB:
  %L = load i64, ptr %0, align 4
  %I = insertelement <8 x i64> zeroinitializer, i64 %L, i64 0
  store <8 x i64> %I, ptr %0, align 64
  store <8 x float> zeroinitializer, ptr %0, align 32
  ret double 0.000000e+00
}

declare { double, float } @__enzyme_autodiff_fzw0(ptr, ...)

define { double, float } @__fz_wrap_0() {
entry:
  %mout = load i32, ptr @enzyme_out, align 4
  %mdup = load i32, ptr @enzyme_dup, align 4
  %mconst = load i32, ptr @enzyme_const, align 4
  %r = call { double, float } (ptr, ...) @__enzyme_autodiff_fzw0(ptr @autogen_SD296599447, i32 %mout, double 0.000000e+00, i32 %mout, float 0.000000e+00, i32 %mdup, ptr null, ptr null, i32 %mdup, ptr null, ptr null, i32 %mdup, ptr null, ptr null, i32 %mconst, i32 0, i32 %mconst, i64 0, i32 %mconst, i8 0)
  ret { double, float } %r
}
