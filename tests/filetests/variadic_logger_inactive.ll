; Decision: a user's variadic logger whose body only prints (it starts a `va_list`,
; hands it to `vfprintf`, stores only into its own stack slot and returns nothing) is
; inactive: the derivative of `f` copies the call, active double argument and all, and
; differentiates no `log_msg`. Before sweep23 the call was refused ("cannot
; differentiate a variadic function (`llvm.va_start.p0`)", tests/c/907); a variadic
; function that writes anything else stays refused. Reduced from clang-22 -O2 output of
; tests/c/907's logger (the level test kept).
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.__va_list_tag = type { i32, i32, ptr, ptr }

@.str = private unnamed_addr constant [6 x i8] c"y=%g\0A\00", align 1
@stderr = external global ptr, align 8
@verbosity = internal global i32 1, align 4

define internal void @log_msg(i32 %level, ptr %fmt, ...) noinline {
entry:
  %ap = alloca [1 x %struct.__va_list_tag], align 16
  %v = load i32, ptr @verbosity, align 4
  %quiet = icmp sgt i32 %level, %v
  br i1 %quiet, label %done, label %print

print:
  call void @llvm.lifetime.start.p0(ptr nonnull %ap)
  call void @llvm.va_start.p0(ptr nonnull %ap)
  %err = load ptr, ptr @stderr, align 8
  %n = call i32 @vfprintf(ptr %err, ptr %fmt, ptr nonnull %ap)
  call void @llvm.va_end.p0(ptr nonnull %ap)
  call void @llvm.lifetime.end.p0(ptr nonnull %ap)
  br label %done

done:
  ret void
}

; x^3, logging the square on the way.
define double @f(double %x) {
entry:
  %y = fmul double %x, %x
  call void (i32, ptr, ...) @log_msg(i32 1, ptr @.str, double %y)
  %r = fmul double %x, %y
  ret double %r
}

define double @g(double %x) {
entry:
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %d
}

declare double @__enzyme_autodiff(ptr, ...)
declare void @llvm.lifetime.start.p0(ptr)
declare void @llvm.lifetime.end.p0(ptr)
declare void @llvm.va_start.p0(ptr)
declare void @llvm.va_end.p0(ptr)
declare i32 @vfprintf(ptr, ptr, ptr)

; CHECK-LABEL: define {{.*}} @fz_{{.*}}f(
; CHECK: call void (i32, ptr, ...) @log_msg(i32 1, ptr @.str, double
; CHECK-NOT: log_msg
; CHECK: ret
