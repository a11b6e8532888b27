; Decision: flang's `!$omp atomic` update of a real, a compare-and-swap loop on the
; value's bits (`load atomic i64`; `bitcast` to double, `fadd`/`fsub`, `bitcast` back;
; `cmpxchg` until it succeeds), is rewritten in the clone before differentiation into
; `atomicrmw fadd` (`fsub` for `x = x - v`), whose derivative the pass knows
; (`parallel/atomic_cas.rs`).
; Why it matters: the loop was rejected (an integer load of a real, a cmpxchg) in every
; Fortran OpenMP program with `!$omp atomic` on a real (tests/openmp/16).
;
;   subroutine upd(a, w)             ! flang-22 -O2 -fopenmp, inside a parallel do:
;     !$omp atomic
;     a = a + w * w
;     !$omp atomic
;     a = a - 3 * w
; (reduced by hand to a plain function, the same loop shapes: the operands of the fadd
; commuted as flang emits them at -O2)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

; CHECK-LABEL: define internal {{.*}}@fz_grad_upd(
; CHECK-NOT: cmpxchg
; CHECK: atomicrmw fadd ptr %{{.*}}, double %{{.*}} monotonic
; CHECK-NOT: cmpxchg
; CHECK: atomicrmw fsub ptr %{{.*}}, double %{{.*}} monotonic
; CHECK-NOT: cmpxchg
; CHECK: ret void

@enzyme_dup = external global i32

define void @upd(ptr %a, ptr %w) {
entry:
  %w0 = load double, ptr %w, align 8
  %v = fmul contract double %w0, %w0
  %old0 = load atomic i64, ptr %a monotonic, align 8
  br label %add

add:
  %old = phi i64 [ %old0, %entry ], [ %seen, %add ]
  %x = bitcast i64 %old to double
  %r = fadd contract double %v, %x
  %new = bitcast double %r to i64
  %pair = cmpxchg ptr %a, i64 %old, i64 %new monotonic monotonic, align 8
  %seen = extractvalue { i64, i1 } %pair, 0
  %ok = extractvalue { i64, i1 } %pair, 1
  br i1 %ok, label %mid, label %add

mid:
  %u = fmul contract double %w0, 3.000000e+00
  %sold0 = load atomic i64, ptr %a monotonic, align 8
  br label %sub

sub:
  %sold = phi i64 [ %sold0, %mid ], [ %sseen, %sub ]
  %sx = bitcast i64 %sold to double
  %sr = fsub contract double %sx, %u
  %snew = bitcast double %sr to i64
  %spair = cmpxchg ptr %a, i64 %sold, i64 %snew monotonic monotonic, align 8
  %sseen = extractvalue { i64, i1 } %spair, 0
  %sok = extractvalue { i64, i1 } %spair, 1
  br i1 %sok, label %exit, label %sub

exit:
  ret void
}

define void @grad(ptr %a, ptr %da, ptr %w, ptr %dw) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @upd, ptr @enzyme_dup, ptr %a, ptr %da, ptr @enzyme_dup, ptr %w, ptr %dw)
  ret void
}

declare void @__enzyme_autodiff(ptr, ...)
