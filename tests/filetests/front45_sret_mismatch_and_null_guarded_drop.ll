; Decision: a call through a pointer may reach only functions whose `sret`/`byval`
; parameters match the call's (front45: `abi_marks.rs`), and a null-guarded call with no
; candidate left stops the program at run time where it is reached, instead of refusing
; the module (`calls::null_guarded`, `dispatch::stop_unresolved`).
; Why it matters: rustc drops a `Box<dyn Trait>` by calling slot 0 of its vtable, a
; `void (ptr)`, only when it is not null (it is null for closures capturing only floats).
; In a test harness every `#[test]` closure is a `void (ptr sret)` whose address is taken:
; all of them were candidates, so a `Box<dyn Fn>` built inside a differentiated function
; made the pass differentiate the tests themselves and refuse the program; outside one
; (no candidate at all) it was refused with "no function of its type has its address
; taken". `@a_test` plays the test closure here: no derivative of it may be made.
;
; (written by hand in rustc -O's shape)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=FWD
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=NONE
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=TEXT

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32
@enzyme_const = external global i32
@tests = constant [1 x ptr] [ptr @a_test]

define void @a_test(ptr sret([24 x i8]) %out) {
  %v = load double, ptr @gx
  %s = call double @llvm.sin.f64(double %v)
  store double %s, ptr %out
  ret void
}
@gx = global double 1.0

define double @f(ptr %p, ptr %vt) {
  %v = load double, ptr %p
  %d = load ptr, ptr %vt, !invariant.load !0
  %isnull = icmp eq ptr %d, null
  br i1 %isnull, label %done, label %drop

drop:
  call void %d(ptr %p)
  br label %done

done:
  %r = fmul double %v, %v
  ret double %r
}

define void @grad(ptr %p, ptr %dp, ptr %vt) {
  %e = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %e, ptr %p, ptr %dp, i32 %c, ptr %vt)
  ret void
}

define void @tangent(ptr %p, ptr %dp, ptr %vt) {
  %e = load i32, ptr @enzyme_dup
  %c = load i32, ptr @enzyme_const
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %e, ptr %p, ptr %dp, i32 %c, ptr %vt)
  ret void
}

declare void @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)
declare double @llvm.sin.f64(double)
!0 = !{}

; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK: br i1 %isnull, label %done, label %drop
; CHECK: drop:
; CHECK-NEXT: call void @__fz_check_shadow(i1 true, ptr @fz.msg{{[.0-9]*}})
; CHECK-NEXT: call void %d(ptr %p)

; FWD-LABEL: define internal { double, double } @fz_fwd_f(
; FWD: call void @__fz_check_shadow(i1 true, ptr
; FWD-NEXT: call void %d(ptr %p)

; TEXT: @fz.msg{{.*}} = private constant {{.*}}a call through a function pointer was reached, but no function of its type has its address taken

; NONE-NOT: @fz_{{[a-z]+}}_a_test
