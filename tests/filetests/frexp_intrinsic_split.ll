; Decision: `{T, i32} @llvm.frexp(x)` (what `std::frexp(long double)` and boost::math's
; `erf` compile to) is split before differentiation into the exponent
; `e = ilogb(x) + 1` (0 for a zero, an infinity or a NaN, as frexp gives) and the
; mantissa `ldexp(x, -e)`: the mantissa's derivative is `2^-e` through `llvm.ldexp`'s
; rule, the exponent an integer from an inactive library call.
; Why it matters: the intrinsic had no rule ("no derivative rule for the intrinsic
; llvm.frexp.f80.i32"), so any program using boost::math::erf was refused
; (tests/cxx/110).
;
; long double f(long double x) { int e; long double m = frexpl(x, &e); return m * m + e; }
; (clang-22 -O2 shape, written by hand)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define x86_fp80 @f(x86_fp80 %x) {
entry:
  %fr = call { x86_fp80, i32 } @llvm.frexp.f80.i32(x86_fp80 %x)
  %m = extractvalue { x86_fp80, i32 } %fr, 0
  %e = extractvalue { x86_fp80, i32 } %fr, 1
  %mm = fmul x86_fp80 %m, %m
  %ef = sitofp i32 %e to x86_fp80
  %r = fadd x86_fp80 %mm, %ef
  ret x86_fp80 %r
}

declare { x86_fp80, i32 } @llvm.frexp.f80.i32(x86_fp80)

define x86_fp80 @grad(x86_fp80 %x) {
entry:
  %d = call x86_fp80 (ptr, ...) @__enzyme_autodiff(ptr @f, x86_fp80 %x)
  ret x86_fp80 %d
}

declare x86_fp80 @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal { x86_fp80 } @fz_grad_f(x86_fp80 %x, x86_fp80 %d_ret)
; CHECK-NOT: @llvm.frexp
; CHECK: [[K:%.*]] = call i32 @ilogbl(x86_fp80 %x)
; CHECK: [[E:%.*]] = select i1 {{%.*}}, i32 0, i32 {{%.*}}
; CHECK: [[NE:%.*]] = sub i32 0, [[E]]
; CHECK: call x86_fp80 @llvm.ldexp.f80.i32(x86_fp80 %x, i32 [[NE]])
; CHECK-LABEL: {{^}}rev.entry:
; CHECK: @llvm.exp2.f80
; CHECK: ret { x86_fp80 }
