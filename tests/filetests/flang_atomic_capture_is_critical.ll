; Decision: flang's `!$omp atomic capture` of a real, the compare-and-swap loop of an
; atomic update whose old value (the phi's bits) or new value (the `fadd`) is used after
; the loop, becomes a critical section on the module's lock (`__kmpc_critical`, plain
; load, the operation, plain store, `__kmpc_end_critical`), the captured uses replaced
; by its load or its result (`parallel/atomic_cas.rs`); reversed in the order the
; threads entered, the captured values' adjoints reach the right updates. An update
; whose value nobody captures stays `atomicrmw fadd` (tests/filetests/
; flang_atomic_cas_loop_is_atomic_fadd.ll).
; Why it matters: the loop was rejected (an integer load of a real, a cmpxchg) in
; Fortran programs with `!$omp atomic capture` at -O0 (tests/openmp/57).
;
;   !$omp atomic capture              ! flang-22 -O0 -fopenmp, reduced by hand
;   old = a
;   a = a + w * w
;   !$omp end atomic
;   !$omp atomic capture
;   a = a + w
;   new = a
;   !$omp end atomic
;   out = old * new
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

; CHECK-LABEL: define internal {{.*}}@fz_grad_upd(
; CHECK-NOT: cmpxchg
; CHECK: call void @__kmpc_critical(
; CHECK: load double, ptr %a
; CHECK: fadd
; CHECK: store double
; CHECK: call void @__kmpc_end_critical(
; CHECK-NOT: cmpxchg
; CHECK: call void @__kmpc_critical(
; CHECK-NOT: cmpxchg
; CHECK: ret void

@enzyme_dup = external global i32

define void @upd(ptr %a, ptr %w, ptr %out) {
entry:
  %w0 = load double, ptr %w, align 8
  %v = fmul contract double %w0, %w0
  %old0 = load atomic i64, ptr %a monotonic, align 8
  br label %add

add:
  %old = phi i64 [ %old0, %entry ], [ %seen, %add ]
  %x = bitcast i64 %old to double
  %r = fadd contract double %x, %v
  %new = bitcast double %r to i64
  %pair = cmpxchg ptr %a, i64 %old, i64 %new monotonic monotonic, align 8
  %seen = extractvalue { i64, i1 } %pair, 0
  %ok = extractvalue { i64, i1 } %pair, 1
  br i1 %ok, label %mid, label %add

mid:
  %cold0 = load atomic i64, ptr %a monotonic, align 8
  br label %cap

cap:
  %cold = phi i64 [ %cold0, %mid ], [ %cseen, %cap ]
  %cx = bitcast i64 %cold to double
  %cr = fadd contract double %cx, %w0
  %cnew = bitcast double %cr to i64
  %cpair = cmpxchg ptr %a, i64 %cold, i64 %cnew monotonic monotonic, align 8
  %cseen = extractvalue { i64, i1 } %cpair, 0
  %cok = extractvalue { i64, i1 } %cpair, 1
  br i1 %cok, label %exit, label %cap

exit:
  %p = fmul contract double %x, %cr
  store double %p, ptr %out, align 8
  ret void
}

define void @grad(ptr %a, ptr %da, ptr %w, ptr %dw, ptr %o, ptr %do) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @upd, ptr @enzyme_dup, ptr %a, ptr %da, ptr @enzyme_dup, ptr %w, ptr %dw, ptr @enzyme_dup, ptr %o, ptr %do)
  ret void
}

declare void @__enzyme_autodiff(ptr, ...)
