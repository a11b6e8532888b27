; Fuzz regression (tools/fuzz, llvm-stress): a scalable-vector alloca aborted LLVM
; (LLVMABISizeOfType on <vscale x ...>) while the forward sweep sized its shadow.
; EXPECT-ERROR: error[unsupported-instruction]
; EXPECT-ERROR: scalable vectors

@enzyme_dup = external global i32
@enzyme_out = external global i32
@enzyme_const = external global i32

define double @autogen_SD444022382(double %fzx, float %fzy, ptr %0, ptr %1, ptr %2, i32 %3, i64 %4, i8 %5) {
BB:
  %A = alloca <vscale x 2 x i16>, align 4
  store i64 %4, ptr %A, align 4
  %6 = bitcast i64 %4 to double
  ret double %6
}

declare { double, float } @__enzyme_autodiff_fzw0(ptr, ...)

define { double, float } @__fz_wrap_0() {
entry:
  %mout = load i32, ptr @enzyme_out, align 4
  %mdup = load i32, ptr @enzyme_dup, align 4
  %mconst = load i32, ptr @enzyme_const, align 4
  %r = call { double, float } (ptr, ...) @__enzyme_autodiff_fzw0(ptr @autogen_SD444022382, i32 %mout, double 0.000000e+00, i32 %mout, float 0.000000e+00, i32 %mdup, ptr null, ptr null, i32 %mdup, ptr null, ptr null, i32 %mdup, ptr null, ptr null, i32 %mconst, i32 0, i32 %mconst, i64 0, i32 %mconst, i8 0)
  ret { double, float } %r
}
