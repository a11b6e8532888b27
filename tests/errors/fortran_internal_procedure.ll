; EXPECT-ERROR: bad-autodiff-call
; EXPECT-ERROR: is a closure (`llvm.adjust.trampoline`) of `_QFPmodel`
; EXPECT-ERROR: move the procedure into a module
; A Fortran main passing an internal procedure that reads a host variable to the hook:
;   program p; real(8) :: scale; ...
;     call __enzyme_autodiff(model, enzyme_dup, x, dx, enzyme_dup, y, dy)
;   contains; subroutine model(x, y); y = scale * sum(x * x); end subroutine; end program
; flang passes `model` through a trampoline (`llvm.init.trampoline` with the host's
; frame as the `nest` argument, then `llvm.adjust.trampoline`), a run-time closure, not a
; function. It was rejected as "not a function" with C advice; now the error names the
; internal procedure and says how to restructure (hpc14's tests/fortran/19 does it).
; Reduced from flang-22 -O2 output.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = common global i32 0

define void @_QQmain() {
  %frame = alloca { ptr }, align 8
  %tramp = alloca [32 x i8], align 1
  %scale = alloca double, align 8
  %y = alloca double, align 8
  %dy = alloca double, align 8
  %x = alloca [3 x double], align 8
  %dx = alloca [3 x double], align 8
  store ptr %scale, ptr %frame, align 8
  store double 2.000000e+00, ptr %scale, align 8
  store double 1.000000e+00, ptr %dy, align 8
  call void @llvm.init.trampoline(ptr nonnull %tramp, ptr nonnull @_QFPmodel, ptr nonnull %frame)
  %f = call ptr @llvm.adjust.trampoline(ptr nonnull %tramp)
  call void @__enzyme_autodiff_(ptr %f, ptr nonnull @enzyme_dup, ptr nonnull %x, ptr nonnull %dx, ptr nonnull @enzyme_dup, ptr nonnull %y, ptr nonnull %dy)
  ret void
}

define internal void @_QFPmodel(ptr %x, ptr %y, ptr nest %host) {
  %p = load ptr, ptr %host, align 8
  %scale = load double, ptr %p, align 8
  %a = load double, ptr %x, align 8
  %sq = fmul contract double %a, %a
  %r = fmul contract double %scale, %sq
  store double %r, ptr %y, align 8
  ret void
}

declare void @__enzyme_autodiff_(ptr, ptr, ptr, ptr, ptr, ptr, ptr)
declare void @llvm.init.trampoline(ptr, ptr, ptr)
declare ptr @llvm.adjust.trampoline(ptr)
