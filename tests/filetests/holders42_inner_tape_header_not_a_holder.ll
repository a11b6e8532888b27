; Decision: under forward over reverse with a constant kept in shadowed memory (`bind`
; stores `w + k` or `x + k` into the caller's stack `View`, so every pointer the inner
; gradient reads from shadowed memory may be a primal), the inner tape's header (an
; `alloca` the tape runtime is given) holds no constant (`runtime_activity/holders.rs`
; `is_tape_header`): `__fz_push` and `__fz_grow_plain` get no run-time checks; the records
; the tape holds stay guarded (`%fz.cached*`). The split-mode tape handed to `fz_rev_bind`
; is copied as shadow bytes, with a run-time stop should its shadow be the primal
; (`tangent/calls.rs`, tape moves).
; Why it matters: main's binary refused it at every level ("a pointer that is constant or
; differentiable depending on the run is passed to `realloc`" in `__fz_grow_plain`,
; "memory holding pointers is copied from a pointer that is constant or differentiable
; depending on the run" in `fz_rev_bind`), as it did cxx/486 at -O0 (tests/c/1479).
;
; typedef struct Node { const struct Node *next; int b; } Node;
; typedef struct { const double *p; } View;
; __attribute__((noinline)) static void bind(View *v, const double *w, const double *x,
;                                            int k) {
;   v->p = k > 2 ? w + k : x + k;
; }
; __attribute__((noinline)) double energy(const double *x, const Node *head,
;                                         const double *w) {
;   double e = 0;
;   for (const Node *t = head; t; t = t->next) {
;     View v;
;     bind(&v, w, x, t->b);
;     e += x[0] * *v.p;
;   }
;   return e;
; }
; void gradient(const double *x, double *g, const Node *head, const double *w) {
;   __enzyme_autodiff((void *)energy, enzyme_dup, x, g, enzyme_const, head,
;                     enzyme_const, w);
; }
; void hvp(const double *x, const double *v, double *g, double *hv, const Node *head,
;          const double *w) {
;   __enzyme_fwddiff((void *)gradient, enzyme_dup, x, v, enzyme_dup, g, hv,
;                    enzyme_const, head, enzyme_const, w);
; }
; (clang-22 -O2 -fno-discard-value-names -fno-unroll-loops, attributes and metadata
; removed, `noinline` kept.) Run natively: tests/c/1479.
;
; RUN: %ferrozyme opt %s -o - --print-activity | %FileCheck %s --check-prefix=ACT
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.View = type { ptr }

@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_const = external local_unnamed_addr global i32, align 4

define dso_local double @energy(ptr noundef %x, ptr noundef readonly captures(address_is_null) %head, ptr noundef %w) noinline {
entry:
  %v = alloca %struct.View, align 8
  %tobool.not5 = icmp eq ptr %head, null
  br i1 %tobool.not5, label %for.cond.cleanup, label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %e.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %4, %for.body ]
  ret double %e.0.lcssa

for.body:                                         ; preds = %entry, %for.body
  %t.07 = phi ptr [ %5, %for.body ], [ %head, %entry ]
  %e.06 = phi double [ %4, %for.body ], [ 0.000000e+00, %entry ]
  call void @llvm.lifetime.start.p0(ptr nonnull %v)
  %b = getelementptr inbounds nuw i8, ptr %t.07, i64 8
  %0 = load i32, ptr %b, align 8
  call fastcc void @bind(ptr noundef %v, ptr noundef %w, ptr noundef %x, i32 noundef %0)
  %1 = load double, ptr %x, align 8
  %2 = load ptr, ptr %v, align 8
  %3 = load double, ptr %2, align 8
  %4 = tail call double @llvm.fmuladd.f64(double %1, double %3, double %e.06)
  call void @llvm.lifetime.end.p0(ptr nonnull %v)
  %5 = load ptr, ptr %t.07, align 8
  %tobool.not = icmp eq ptr %5, null
  br i1 %tobool.not, label %for.cond.cleanup, label %for.body
}

declare void @llvm.lifetime.start.p0(ptr captures(none))

define internal fastcc void @bind(ptr noundef nonnull writeonly captures(none) initializes((0, 8)) %v, ptr noundef %w, ptr noundef %x, i32 noundef %k) unnamed_addr noinline {
entry:
  %cmp = icmp sgt i32 %k, 2
  %idx.ext = sext i32 %k to i64
  %cond.v = select i1 %cmp, ptr %w, ptr %x
  %cond = getelementptr inbounds double, ptr %cond.v, i64 %idx.ext
  store ptr %cond, ptr %v, align 8
  ret void
}

declare double @llvm.fmuladd.f64(double, double, double)

declare void @llvm.lifetime.end.p0(ptr captures(none))

define dso_local void @gradient(ptr noundef %x, ptr noundef %g, ptr noundef %head, ptr noundef %w) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  %call = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @energy, i32 noundef %0, ptr noundef %x, ptr noundef %g, i32 noundef %1, ptr noundef %head, i32 noundef %1, ptr noundef %w)
  ret void
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

define dso_local void @hvp(ptr noundef %x, ptr noundef %v, ptr noundef %g, ptr noundef %hv, ptr noundef %head, ptr noundef %w) local_unnamed_addr {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  tail call void (ptr, ...) @__enzyme_fwddiff(ptr noundef nonnull @gradient, i32 noundef %0, ptr noundef %x, ptr noundef %v, i32 noundef %0, ptr noundef %g, ptr noundef %hv, i32 noundef %1, ptr noundef %head, i32 noundef %1, ptr noundef %w)
  ret void
}

declare void @__enzyme_fwddiff(ptr noundef, ...) local_unnamed_addr

; ACT-NOT: runtime activity in @__fz_
; ACT: runtime activity in @fz_grad_energy: shadow = primal for ; accesses guarded through {{.*}}%fz.cached
; ACT-NOT: runtime activity in @__fz_

; CHECK-LABEL: define internal void @fz_fwd_fz_rev_bind(
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 16 %fz.tape, ptr align 16 %tape,
; CHECK-NEXT: [[OK:%.*]] = icmp ne ptr %tape.d0, %tape
; CHECK-NEXT: [[BAD:%.*]] = xor i1 [[OK]], true
; CHECK-NEXT: call void @__fz_check_shadow(i1 [[BAD]],
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 16 %fz.tape.d0, ptr align 16 %tape.d0,
