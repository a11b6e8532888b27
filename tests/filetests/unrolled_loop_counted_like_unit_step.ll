; Decision (not yet made): a loop that clang unrolled at run time (`-O2` does this by
; default: the main loop steps its counter `niter` by 4, an epilogue loop by 1) should
; be treated like a `+1` loop: the counter counted down by 4 in the reverse sweep, the
; header's predecessor recomputed from `niter == 0`, and the stack reserved once, for
; `n / 4 + 1` records. Today counters.rs, PredRule::Counter and loops::trip_count only
; know steps of 1, so the unrolled loop pushes an `i32` predecessor index with every
; record and its stack grows by doubling (16 reallocations for 2 million steps); only
; the epilogue loop gets the treatment.
; Why it matters: this is what clang makes of most small loops at -O2, so the decisions
; pinned by counter_counted_down.ll, pred_from_counter.ll and reserve_known_trip_count.ll
; are lost exactly where they matter.
;
; typedef struct { double a, b; } pair;
; extern pair __enzyme_autodiff2(void *, ...);
; double integrate(double x, double h, int n) {
;   for (int i = 0; i < n; i++) x = x + h * sin(x) * x;
;   return x;
; }
; pair grad(double x, double h, int n) { return __enzyme_autodiff2((void *)integrate, x, h, n); }
; (clang-22 -O2 -funroll-loops, attributes and metadata removed)
;
; IGNORE: counters, the predecessor rule and trip counts only recognise induction variables that step by 1
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @integrate(double %x, double %h, i32 %n) {
entry:
  %cmp6 = icmp sgt i32 %n, 0
  br i1 %cmp6, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %xtraiter = and i32 %n, 3
  %0 = icmp ult i32 %n, 4
  br i1 %0, label %for.body.epil.preheader, label %for.body.preheader.new

for.body.preheader.new:                           ; preds = %for.body.preheader
  %unroll_iter = and i32 %n, 2147483644
  br label %for.body

for.cond.cleanup.loopexit.unr-lcssa:              ; preds = %for.body
  %lcmp.mod.not = icmp eq i32 %xtraiter, 0
  br i1 %lcmp.mod.not, label %for.cond.cleanup, label %for.body.epil.preheader

for.body.epil.preheader:                          ; preds = %for.cond.cleanup.loopexit.unr-lcssa, %for.body.preheader
  %x.addr.07.epil.init = phi double [ %x, %for.body.preheader ], [ %5, %for.cond.cleanup.loopexit.unr-lcssa ]
  %lcmp.mod10 = icmp ne i32 %xtraiter, 0
  call void @llvm.assume(i1 %lcmp.mod10)
  br label %for.body.epil

for.body.epil:                                    ; preds = %for.body.epil, %for.body.epil.preheader
  %x.addr.07.epil = phi double [ %1, %for.body.epil ], [ %x.addr.07.epil.init, %for.body.epil.preheader ]
  %epil.iter = phi i32 [ %epil.iter.next, %for.body.epil ], [ 0, %for.body.epil.preheader ]
  %call.epil = call double @sin(double %x.addr.07.epil)
  %mul.epil = fmul double %h, %call.epil
  %1 = call double @llvm.fmuladd.f64(double %mul.epil, double %x.addr.07.epil, double %x.addr.07.epil)
  %epil.iter.next = add i32 %epil.iter, 1
  %epil.iter.cmp.not = icmp eq i32 %epil.iter.next, %xtraiter
  br i1 %epil.iter.cmp.not, label %for.cond.cleanup, label %for.body.epil

for.cond.cleanup:                                 ; preds = %for.cond.cleanup.loopexit.unr-lcssa, %for.body.epil, %entry
  %x.addr.0.lcssa = phi double [ %x, %entry ], [ %5, %for.cond.cleanup.loopexit.unr-lcssa ], [ %1, %for.body.epil ]
  ret double %x.addr.0.lcssa

for.body:                                         ; preds = %for.body, %for.body.preheader.new
  %x.addr.07 = phi double [ %x, %for.body.preheader.new ], [ %5, %for.body ]
  %niter = phi i32 [ 0, %for.body.preheader.new ], [ %niter.next.3, %for.body ]
  %call = call double @sin(double %x.addr.07)
  %mul = fmul double %h, %call
  %2 = call double @llvm.fmuladd.f64(double %mul, double %x.addr.07, double %x.addr.07)
  %call.1 = call double @sin(double %2)
  %mul.1 = fmul double %h, %call.1
  %3 = call double @llvm.fmuladd.f64(double %mul.1, double %2, double %2)
  %call.2 = call double @sin(double %3)
  %mul.2 = fmul double %h, %call.2
  %4 = call double @llvm.fmuladd.f64(double %mul.2, double %3, double %3)
  %call.3 = call double @sin(double %4)
  %mul.3 = fmul double %h, %call.3
  %5 = call double @llvm.fmuladd.f64(double %mul.3, double %4, double %4)
  %niter.next.3 = add i32 %niter, 4
  %niter.ncmp.3 = icmp eq i32 %niter.next.3, %unroll_iter
  br i1 %niter.ncmp.3, label %for.cond.cleanup.loopexit.unr-lcssa, label %for.body
}

declare double @sin(double)

declare double @llvm.fmuladd.f64(double, double, double)

define { double, double } @grad(double %x, double %h, i32 %n) {
entry:
  %call = call { double, double } (ptr, ...) @__enzyme_autodiff2(ptr @integrate, double %x, double %h, i32 %n)
  ret { double, double } %call
}

declare { double, double } @__enzyme_autodiff2(ptr, ...)

declare void @llvm.assume(i1)

; CHECK-LABEL: define internal { double, double } @fz_grad_integrate(
; CHECK-LABEL: {{^}}for.body.preheader.new:
; CHECK-NOT: br label
; CHECK: call void @__fz_reserve(
; CHECK-NEXT: br label %for.body{{$}}
; CHECK-LABEL: {{^}}for.body:
; CHECK-NOT: phi i32 [ {{[0-9]+}}, %{{[^ ]+}} ], [ {{[0-9]+}}, %
; CHECK-NOT: store i32
; CHECK: br i1
