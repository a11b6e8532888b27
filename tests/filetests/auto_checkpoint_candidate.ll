; Decision: automatic checkpointing by budget (checkpoint/auto.rs). The time loop of a
; reverse-differentiated function (a counted loop whose state is what it writes through
; its two pointer arguments, bounded by `m` on entry) becomes a candidate: its body is
; outlined into @__fz_auto_step.0, the preheader computes the trip count, the regions'
; sizes and the tape estimate and asks @__fz_ckpt_auto_use (FERROZYME_TAPE_BUDGET), and
; branches to the checkpointed call (lowered to @__fz_ckpt_call.0 with both regions) or
; to the taped loop, whose own preheader calls @__fz_ckpt_auto_taped (it keeps the
; taped loop's tape reservation off the checkpointed path). The final reduction loop
; carries its sum in a register: not a candidate (no second step).
; Why it matters: without the candidate the gradient's tape grows with `n` whatever the
; budget; a reservation on the checkpointed path would allocate the whole tape anyway.
;
; double ode(double *x, double *tmp, int m, long n) {
;   for (long t = 0; t < n; t++) {
;     for (int i = 0; i < m; i++) tmp[i] = x[i] + 0.05 * sin(x[i]);
;     for (int i = 0; i < m; i++) x[i] = tmp[i];
;   }
;   double s = 0;
;   for (int i = 0; i < m; i++) s += x[i];
;   return s;
; }
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=STEP


@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_const = external local_unnamed_addr global i32, align 4

; Function Attrs: nofree norecurse nounwind memory(argmem: readwrite, errnomem: write) uwtable
define dso_local double @ode(ptr noundef captures(none) %x, ptr noundef captures(none) %tmp, i32 noundef %m, i64 noundef %n) {
entry:
  %cmp55 = icmp sgt i64 %n, 0
  br i1 %cmp55, label %for.cond1.preheader.lr.ph, label %for.cond25.preheader

for.cond1.preheader.lr.ph:                        ; preds = %entry
  %cmp251 = icmp sgt i32 %m, 0
  %wide.trip.count = zext nneg i32 %m to i64
  %wide.trip.count64 = zext nneg i32 %m to i64
  br label %for.cond1.preheader

for.cond1.preheader:                              ; preds = %for.cond1.preheader.lr.ph, %for.cond.cleanup12
  %t.056 = phi i64 [ 0, %for.cond1.preheader.lr.ph ], [ %inc22, %for.cond.cleanup12 ]
  br i1 %cmp251, label %for.body4, label %for.cond.cleanup12

for.cond25.preheader:                             ; preds = %for.cond.cleanup12, %entry
  %cmp2657 = icmp sgt i32 %m, 0
  br i1 %cmp2657, label %for.body28.preheader, label %for.cond.cleanup27

for.body28.preheader:                             ; preds = %for.cond25.preheader
  %wide.trip.count70 = zext nneg i32 %m to i64
  br label %for.body28

for.body4:                                        ; preds = %for.cond1.preheader, %for.body4
  %indvars.iv = phi i64 [ %indvars.iv.next, %for.body4 ], [ 0, %for.cond1.preheader ]
  %arrayidx = getelementptr inbounds nuw double, ptr %x, i64 %indvars.iv
  %0 = load double, ptr %arrayidx, align 8
  %call = tail call double @sin(double noundef %0)
  %1 = tail call double @llvm.fmuladd.f64(double %call, double 5.000000e-02, double %0)
  %arrayidx8 = getelementptr inbounds nuw double, ptr %tmp, i64 %indvars.iv
  store double %1, ptr %arrayidx8, align 8
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.body13, label %for.body4

for.cond.cleanup12:                               ; preds = %for.body13, %for.cond1.preheader
  %inc22 = add nuw nsw i64 %t.056, 1
  %exitcond66.not = icmp eq i64 %inc22, %n
  br i1 %exitcond66.not, label %for.cond25.preheader, label %for.cond1.preheader

for.body13:                                       ; preds = %for.body4, %for.body13
  %indvars.iv61 = phi i64 [ %indvars.iv.next62, %for.body13 ], [ 0, %for.body4 ]
  %arrayidx15 = getelementptr inbounds nuw double, ptr %tmp, i64 %indvars.iv61
  %2 = load double, ptr %arrayidx15, align 8
  %arrayidx17 = getelementptr inbounds nuw double, ptr %x, i64 %indvars.iv61
  store double %2, ptr %arrayidx17, align 8
  %indvars.iv.next62 = add nuw nsw i64 %indvars.iv61, 1
  %exitcond65.not = icmp eq i64 %indvars.iv.next62, %wide.trip.count64
  br i1 %exitcond65.not, label %for.cond.cleanup12, label %for.body13

for.cond.cleanup27:                               ; preds = %for.body28, %for.cond25.preheader
  %s.0.lcssa = phi double [ 0.000000e+00, %for.cond25.preheader ], [ %add, %for.body28 ]
  ret double %s.0.lcssa

for.body28:                                       ; preds = %for.body28.preheader, %for.body28
  %indvars.iv67 = phi i64 [ 0, %for.body28.preheader ], [ %indvars.iv.next68, %for.body28 ]
  %s.058 = phi double [ 0.000000e+00, %for.body28.preheader ], [ %add, %for.body28 ]
  %arrayidx30 = getelementptr inbounds nuw double, ptr %x, i64 %indvars.iv67
  %3 = load double, ptr %arrayidx30, align 8
  %add = fadd double %s.058, %3
  %indvars.iv.next68 = add nuw nsw i64 %indvars.iv67, 1
  %exitcond71.not = icmp eq i64 %indvars.iv.next68, %wide.trip.count70
  br i1 %exitcond71.not, label %for.cond.cleanup27, label %for.body28
}

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(errnomem: write)
declare double @sin(double noundef) local_unnamed_addr

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double)

; Function Attrs: nounwind uwtable
define dso_local void @grad(ptr noundef %x, ptr noundef %dx, ptr noundef %t, ptr noundef %dt, i32 noundef %m, i64 noundef %n) local_unnamed_addr {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  %call = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @ode, i32 noundef %0, ptr noundef %x, ptr noundef %dx, i32 noundef %0, ptr noundef %t, ptr noundef %dt, i32 noundef %1, i32 noundef %m, i32 noundef %1, i64 noundef %n)
  ret void
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr




; CHECK-LABEL: define dso_local double @ode(
; CHECK: %[[USE:[0-9]+]] = call i32 @__fz_ckpt_auto_use(i64 %[[TRIPS:[0-9]+]], i64 %{{[0-9]+}})
; CHECK-NEXT: %[[GO:[0-9]+]] = icmp ne i32 %[[USE]], 0
; CHECK-NEXT: br i1 %[[GO]], label %fz.auto.ckpt, label %fz.auto.taped
; CHECK: fz.auto.ckpt:
; CHECK: call void @__fz_ckpt_call.0(i64 0, i64 %[[TRIPS]], i64 0, i64 0, i64 %{{[0-9]+}}, i64 %{{[0-9]+}}, i64 %{{[0-9]+}}, i64 %{{[0-9]+}}, {{.*}}ptr %x, ptr %tmp
; CHECK-NEXT: br label %for.cond25.preheader
; CHECK: fz.auto.taped:
; CHECK-NEXT: call void @__fz_ckpt_auto_taped()
; CHECK-NEXT: br label %for.cond1.preheader
; CHECK-NOT: @__fz_auto_step.1

; STEP-LABEL: define internal void @__fz_auto_step.0(i64
; STEP-NOT: phi i64 [ 0, %entry ]
; STEP: call double @sin(
; STEP: ret void
