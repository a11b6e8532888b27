; Decision: a math call whose value reaches a phi that drops it on some path (LLVM
; hoisted `sqrt(x)` above the `x < 0` test; the other edge into the phi leaves the
; call's own block for the error path), or whose only users (stores) lie on one side of
; the branch that ends its block, has its contribution guarded, `d == 0 ? 0 : d·∂`,
; as for a select (`reverse/speculated.rs`). A loop-carried accumulator phi, whose other
; edge comes from the preheader, is not a drop: the sum of roots keeps its plain product.
; Why it matters: on the error path the root is computed and discarded, its adjoint is
; 0, and 0 · 1/(2√x) with x < 0 is NaN: Rust's `collect::<Result<Vec<f64>, _>>()` of
; `if v < 0.0 { Err(i) } else { Ok(v.sqrt()) }` gave a NaN gradient where the function is
; locally constant (front17, tests/rust/src/front17_user.rs `barrier`). The guard costs
; a compare and a select, so loops must not get it where nothing is dropped.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=STORE
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=LOOP

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @root_or_flag(double %x, ptr %err) {
entry:
  %s = call double @llvm.sqrt.f64(double %x)
  %neg = fcmp olt double %x, 0.000000e+00
  br i1 %neg, label %bad, label %join

bad:
  store i32 1, ptr %err, align 4
  br label %join

join:
  %r = phi double [ %s, %entry ], [ -1.000000e+00, %bad ]
  ret double %r
}

define void @root_or_skip(ptr %x, ptr %out) {
entry:
  %v = load double, ptr %x, align 8
  %s = call double @llvm.sqrt.f64(double %v)
  %neg = fcmp olt double %v, 0.000000e+00
  br i1 %neg, label %done, label %keep

keep:
  store double %s, ptr %out, align 8
  br label %done

done:
  ret void
}

define double @sum_roots(ptr %x, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi double [ 0.000000e+00, %entry ], [ %acc.next, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p, align 8
  %s = call double @llvm.sqrt.f64(double %v)
  %acc.next = fadd double %acc, %s
  %i.next = add nuw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret double %acc.next
}

define double @grad(double %x, ptr %err) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @root_or_flag, double %x, metadata !"enzyme_const", ptr %err)
  ret double %d
}

define void @grad_loop(ptr %x, ptr %dx, i64 %n) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @sum_roots, ptr %x, ptr %dx, i64 %n)
  ret void
}

define void @grad_store(ptr %x, ptr %dx, ptr %out, ptr %dout) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @root_or_skip, ptr %x, ptr %dx, ptr %out, ptr %dout)
  ret void
}

declare double @llvm.sqrt.f64(double)
declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal { double } @fz_grad_root_or_flag(
; CHECK-LABEL: rev.entry:
; CHECK: [[D:%.*]] = load double, ptr %d.s
; CHECK: [[C:%.*]] = fmul double [[D]],
; CHECK: [[Z:%.*]] = fcmp oeq double [[D]], 0.000000e+00
; CHECK: [[G:%.*]] = select i1 [[Z]], double 0.000000e+00, double [[C]]
; CHECK: fadd nsz double %{{.*}}, [[G]]

; LOOP-LABEL: define internal void @fz_grad_sum_roots(
; STORE-LABEL: define internal void @fz_grad_root_or_skip(
; STORE: [[C:%.*]] = fmul double [[D:%.*]],
; STORE: [[Z:%.*]] = fcmp oeq double [[D]], 0.000000e+00
; STORE: select i1 [[Z]], double 0.000000e+00, double [[C]]

; The one compare with zero is the root rule's own `x == 0` guard, not one of the adjoint.
; LOOP: fcmp oeq double
; LOOP-NOT: fcmp oeq double
; LOOP: {{^}}}
