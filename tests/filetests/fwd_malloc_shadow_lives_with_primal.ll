; Decision: in forward mode an allocation's shadow is allocated zeroed next to it
; (`calloc(size, 1)`) and freed right after the primal is freed: there is no reverse
; sweep that could still need it.
; Why it matters: the shadow lives exactly as long as the primal memory, so forward
; mode never holds more memory than twice the primal's.
;
; double heap(const double *x, int n) {
;   double *t = malloc(8 * n);
;   double s = 0;
;   for (int i = 0; i < n; i++) t[i] = x[i] * x[i];
;   for (int i = 0; i < n; i++) s += t[i];
;   free(t);
;   return s;
; }
; double dheap(const double *x, double *dx, int n) { return __enzyme_fwddiff((void *)heap, x, dx, n); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @heap(ptr %x, i32 %n) {
entry:
  %mul = shl i32 %n, 3
  %conv = sext i32 %mul to i64
  %call = call noalias ptr @malloc(i64 %conv)
  %cmp30 = icmp sgt i32 %n, 0
  br i1 %cmp30, label %for.body.preheader, label %for.cond.cleanup11

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext i32 %n to i64
  br label %for.body

for.body12.preheader:                             ; preds = %for.body
  %wide.trip.count39 = zext i32 %n to i64
  br label %for.body12

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %arrayidx = getelementptr double, ptr %x, i64 %indvars.iv
  %0 = load double, ptr %arrayidx, align 8
  %mul4 = fmul double %0, %0
  %arrayidx6 = getelementptr double, ptr %call, i64 %indvars.iv
  store double %mul4, ptr %arrayidx6, align 8
  %indvars.iv.next = add i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.body12.preheader, label %for.body

for.cond.cleanup11:                               ; preds = %for.body12, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %add, %for.body12 ]
  call void @free(ptr %call)
  ret double %s.0.lcssa

for.body12:                                       ; preds = %for.body12.preheader, %for.body12
  %indvars.iv36 = phi i64 [ 0, %for.body12.preheader ], [ %indvars.iv.next37, %for.body12 ]
  %s.033 = phi double [ 0.000000e+00, %for.body12.preheader ], [ %add, %for.body12 ]
  %arrayidx14 = getelementptr double, ptr %call, i64 %indvars.iv36
  %1 = load double, ptr %arrayidx14, align 8
  %add = fadd double %s.033, %1
  %indvars.iv.next37 = add i64 %indvars.iv36, 1
  %exitcond40.not = icmp eq i64 %indvars.iv.next37, %wide.trip.count39
  br i1 %exitcond40.not, label %for.cond.cleanup11, label %for.body12
}

declare noalias ptr @malloc(i64)

declare void @free(ptr allocptr)

define double @dheap(ptr %x, ptr %dx, i32 %n) {
entry:
  %call = call double (ptr, ...) @__enzyme_fwddiff(ptr @heap, ptr %x, ptr %dx, i32 %n)
  ret double %call
}

declare double @__enzyme_fwddiff(ptr, ...)

; CHECK-LABEL: define internal { double, double } @fz_fwd_heap(
; CHECK: [[T:%.*]] = call {{.*}}ptr @malloc(i64 [[N:%.*]])
; CHECK-NEXT: [[DT:%.*]] = call ptr @calloc(i64 [[N]], i64 1)
; CHECK: call void @free(ptr [[T]])
; CHECK-NEXT: call void @free(ptr [[DT]])
; CHECK-NOT: @free
; CHECK: {{^}}}
