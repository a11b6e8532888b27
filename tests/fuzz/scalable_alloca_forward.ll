; Fuzz regression (tools/fuzz, llvm-stress, forward-mode wrapper): a scalable-vector
; alloca aborted LLVM while forward mode sized its shadow.
; EXPECT-ERROR: error[unsupported-instruction]
; EXPECT-ERROR: scalable vectors

define double @autogen_SD1046221870(double %fzx, float %fzy, ptr %0, ptr %1, ptr %2, i32 %3, i64 %4, i8 %5) {
BB:
  %A4 = alloca i32, align 4
  %A3 = alloca double, align 8
  %A2 = alloca i8, align 1
  %A1 = alloca i1, align 1
  %A = alloca <vscale x 16 x float>, align 64
  store i1 true, ptr %0, align 1
  store <vscale x 1 x double> undef, ptr %0, align 8
  store i16 -1, ptr %A, align 2
  store <vscale x 4 x i32> splat (i32 -1), ptr %0, align 16
  %fzret = load double, ptr %0
  ret double %fzret
}

@enzyme_dup = external global i32
@enzyme_out = external global i32
@enzyme_const = external global i32
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1 immarg)
declare { double, float } @__enzyme_autodiff_fzw0(ptr, ...)
define void @__fz_wrap_0(double %a0, float %a1, ptr %a2, ptr %a3, ptr %a4, i32 %a5, i64 %a6, i8 %a7) {
entry:
  %mdup = load i32, ptr @enzyme_dup
  %mout = load i32, ptr @enzyme_out
  %mconst = load i32, ptr @enzyme_const
  %sh2 = alloca [256 x i8], align 16
  call void @llvm.memset.p0.i64(ptr %sh2, i8 0, i64 256, i1 false)
  %sh3 = alloca [256 x i8], align 16
  call void @llvm.memset.p0.i64(ptr %sh3, i8 0, i64 256, i1 false)
  %sh4 = alloca [256 x i8], align 16
  call void @llvm.memset.p0.i64(ptr %sh4, i8 0, i64 256, i1 false)
  %r = call { double, float } (ptr, ...) @__enzyme_autodiff_fzw0(ptr @autogen_SD1046221870, i32 %mout, double %a0, i32 %mout, float %a1, i32 %mdup, ptr %a2, ptr %sh2, i32 %mdup, ptr %a3, ptr %sh3, i32 %mdup, ptr %a4, ptr %sh4, i32 %mconst, i32 %a5, i32 %mconst, i64 %a6, i32 %mconst, i8 %a7)
  ret void
}
declare void @__enzyme_fwddiff_fzf0(ptr, ...)
define void @__fz_fwrap_0(double %a0, float %a1, ptr %a2, ptr %a3, ptr %a4, i32 %a5, i64 %a6, i8 %a7) {
entry:
  %mdup = load i32, ptr @enzyme_dup
  %mconst = load i32, ptr @enzyme_const
  %fsh2 = alloca [256 x i8], align 16
  call void @llvm.memset.p0.i64(ptr %fsh2, i8 0, i64 256, i1 false)
  %fsh3 = alloca [256 x i8], align 16
  call void @llvm.memset.p0.i64(ptr %fsh3, i8 0, i64 256, i1 false)
  %fsh4 = alloca [256 x i8], align 16
  call void @llvm.memset.p0.i64(ptr %fsh4, i8 0, i64 256, i1 false)
  call void (ptr, ...) @__enzyme_fwddiff_fzf0(ptr @autogen_SD1046221870, i32 %mdup, double %a0, double %a0, i32 %mdup, float %a1, float %a1, i32 %mdup, ptr %a2, ptr %fsh2, i32 %mdup, ptr %a3, ptr %fsh3, i32 %mdup, ptr %a4, ptr %fsh4, i32 %mconst, i32 %a5, i32 %mconst, i64 %a6, i32 %mconst, i8 %a7)
  ret void
}
