; Decision: a loop annotated for checkpointing (checkpoint/marked.rs). The clang plugin put
; `__enzyme_set_checkpointing(2, 3)` ([[enzyme::checkpoint("revolve", 3)]]) at the top of the
; loop's body; the function is reverse-differentiated. The loop is outlined into
; @__fz_marked_step.0 and replaced, unconditionally (no @__fz_ckpt_auto_use budget test),
; by the checkpointed loop with the annotation's schedule and budget as its data
; (@__fz_marked_spec.0 = {REVOLVE, 3}); the memory it writes through %u, which the
; analysis cannot bound (the inner loop runs to a global's value), is the 48 bytes that
; `__enzyme_ptr_size_hint(u, 48, 0)` gives; the set and hint calls are gone.
; Why it matters: without the hint the loop is refused (a snapshot could not hold its
; state); a plain taped loop would ignore what the user asked for.
;
; double g; int m;
; void run(double *u, long n) {
;   __enzyme_ptr_size_hint(u, 6 * sizeof(double), 0);
;   [[enzyme::checkpoint("revolve", 3)]] for (long i = 0; i < n; i++) {
;     for (int k = 0; k < m; k++) u[k] = u[k] * u[k] + 0.1 * g;
;     g = 0.5 * g + u[0];
;   }
; }
; void grad(double *u, double *du, long n) {
;   __enzyme_autodiff((void *)run, enzyme_dup, u, du, enzyme_const, n);
; }
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

; CHECK: @__fz_marked_spec.0 = internal constant { i64, i64 } { i64 2, i64 3 }
; CHECK-LABEL: define dso_local void @run(
; CHECK-NOT: call {{.*}}@__fz_ckpt_auto_use
; CHECK-NOT: __enzyme_set_checkpointing
; CHECK-NOT: __enzyme_ptr_size_hint
; CHECK: call void @__fz_ckpt_call.0(i64 0, i64 %{{[0-9]+}}, i64 0, i64 ptrtoint (ptr @__fz_marked_spec.0 to i64), i64 %{{[0-9]+}}, i64 48, ptr %u, i64 %n)
; CHECK-NEXT: br label
; CHECK-NEXT: }
; CHECK: define internal void @__fz_marked_step.0(


@m = dso_local local_unnamed_addr global i32 0, align 4
@g = dso_local local_unnamed_addr global double 0.000000e+00, align 8
@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_const = external local_unnamed_addr global i32, align 4

; Function Attrs: nounwind uwtable
define dso_local void @run(ptr noundef %u, i64 noundef %n) #0 {
entry:
  tail call void @__enzyme_ptr_size_hint(ptr noundef %u, i64 noundef 48, i64 noundef 0) #3
  %cmp25 = icmp sgt i64 %n, 0
  br i1 %cmp25, label %for.body, label %for.cond.cleanup

for.cond.cleanup:                                 ; preds = %for.cond.cleanup3, %entry
  ret void

for.body:                                         ; preds = %entry, %for.cond.cleanup3
  %i.026 = phi i64 [ %inc12, %for.cond.cleanup3 ], [ 0, %entry ]
  tail call void @__enzyme_set_checkpointing(i64 noundef 2, i64 noundef 3) #3
  %0 = load i32, ptr @m, align 4, !tbaa !5
  %cmp223 = icmp sgt i32 %0, 0
  br i1 %cmp223, label %for.body4.preheader, label %for.cond.cleanup3

for.body4.preheader:                              ; preds = %for.body
  %wide.trip.count = zext nneg i32 %0 to i64
  br label %for.body4

for.cond.cleanup3:                                ; preds = %for.body4, %for.body
  %1 = load double, ptr @g, align 8, !tbaa !9
  %2 = load double, ptr %u, align 8, !tbaa !9
  %3 = tail call double @llvm.fmuladd.f64(double %1, double 5.000000e-01, double %2)
  store double %3, ptr @g, align 8, !tbaa !9
  %inc12 = add nuw nsw i64 %i.026, 1
  %exitcond28.not = icmp eq i64 %inc12, %n
  br i1 %exitcond28.not, label %for.cond.cleanup, label %for.body, !llvm.loop !11

for.body4:                                        ; preds = %for.body4.preheader, %for.body4
  %indvars.iv = phi i64 [ 0, %for.body4.preheader ], [ %indvars.iv.next, %for.body4 ]
  %arrayidx = getelementptr inbounds nuw double, ptr %u, i64 %indvars.iv
  %4 = load double, ptr %arrayidx, align 8, !tbaa !9
  %5 = load double, ptr @g, align 8, !tbaa !9
  %mul7 = fmul double %5, 1.000000e-01
  %6 = tail call double @llvm.fmuladd.f64(double %4, double %4, double %mul7)
  store double %6, ptr %arrayidx, align 8, !tbaa !9
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup3, label %for.body4, !llvm.loop !14
}

declare void @__enzyme_ptr_size_hint(ptr noundef, i64 noundef, i64 noundef) local_unnamed_addr #1

declare void @__enzyme_set_checkpointing(i64 noundef, i64 noundef) local_unnamed_addr #1

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #2

; Function Attrs: nounwind uwtable
define dso_local void @grad(ptr noundef %u, ptr noundef %du, i64 noundef %n) local_unnamed_addr #0 {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4, !tbaa !5
  %1 = load i32, ptr @enzyme_const, align 4, !tbaa !5
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @run, i32 noundef %0, ptr noundef %u, ptr noundef %du, i32 noundef %1, i64 noundef %n) #3
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr #1

attributes #0 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { nounwind }

!llvm.errno.tbaa = !{!5}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 8, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 2}
!4 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!5 = !{!6, !6, i64 0}
!6 = !{!"int", !7, i64 0}
!7 = !{!"omnipotent char", !8, i64 0}
!8 = !{!"Simple C/C++ TBAA"}
!9 = !{!10, !10, i64 0}
!10 = !{!"double", !7, i64 0}
!11 = distinct !{!11, !12, !13}
!12 = !{!"llvm.loop.mustprogress"}
!13 = !{!"llvm.loop.unroll.disable"}
!14 = distinct !{!14, !12, !13}
