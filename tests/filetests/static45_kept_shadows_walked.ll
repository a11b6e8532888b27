; Decision (static45): shadows a derivative leaves where a global can reach them are zeroed
; when the next top-level derivative starts. `grow` (not inlined, given the table as a
; constructor is given `this`) reallocates the static table `ta` inside the derivatives
; of `f`. The reverse derivative records the new block's shadow with its size and float
; layout (`__fz_shadow_new`'s last two arguments: the bytes, 0 = floats only); the
; forward one offers its shadow as a candidate (`__fz_shadows_keep`); both top-level
; calls first run `__fz_kept.zero`, which walks from the globals holding pointers (the
; constant `__fz_kept.roots`: `ta` and its shadow, 16 bytes) and zeroes the floats of
; the shadows reached (`runtime/ir/kept.ll`); the runtime keeps candidates only once the
; pass turned it on (`__fz_shadows_kept_on`). Why it matters: the adjoints the reverse
; sweeps accumulated in the table's shadow were read as tangents by the next forward
; derivative (tests/cxx/501, c/1513; the base binary emits none of this).
; Source: tests/c/1513's pattern reduced, clang-22 -O1.
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; CHECK: @__fz_shadows_kept_on = internal global i8 1
; CHECK: @__fz_kept.roots = internal constant [1 x { ptr, ptr, i64 }] [{ ptr, ptr, i64 } { ptr @ta, ptr @__fz_shadow_ta, i64 16 }]
; CHECK-LABEL: define dso_local void @df(
; CHECK: call void @__fz_kept.zero()
; CHECK-NEXT: call void @fz_grad_f(
; CHECK-NEXT: call void @__fz_shadow_settle()
; CHECK-LABEL: define dso_local double @tf(
; CHECK: call void @__fz_kept.zero()
; CHECK: call void @__fz_shadows_keep(ptr %{{.*}}, ptr %{{.*}}, i64 %{{.*}}, i64 0)
; CHECK: call void @__fz_shadow_new(ptr %{{.*}}, ptr %{{.*}}, ptr null, i64 0, i64 0, i64 %{{.*}}, i64 0)
; CHECK-LABEL: define internal void @__fz_kept.zero()
; CHECK-NEXT: entry:
; CHECK-NEXT: call void @__fz_shadows_kept_walk(ptr @__fz_kept.roots, i64 1)

; ModuleID = 'k.c'
source_filename = "k.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.Table = type { ptr, i32 }

@ta = internal global %struct.Table zeroinitializer, align 8
@tb = internal global %struct.Table zeroinitializer, align 8
@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_const = external local_unnamed_addr global i32, align 4

; Function Attrs: nounwind memory(readwrite, target_mem0: none, target_mem1: none) uwtable
define dso_local double @f(ptr noundef readonly captures(none) %x, i32 noundef %n) #0 {
entry:
  tail call fastcc void @grow(ptr noundef nonnull @ta, i32 noundef %n)
  %cmp13 = icmp sgt i32 %n, 0
  br i1 %cmp13, label %for.body.lr.ph, label %for.cond.cleanup

for.body.lr.ph:                                   ; preds = %entry
  %0 = load ptr, ptr @ta, align 8, !tbaa !9
  %wide.trip.count = zext nneg i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %3, %for.body ]
  ret double %s.0.lcssa

for.body:                                         ; preds = %for.body.lr.ph, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.lr.ph ], [ %indvars.iv.next, %for.body ]
  %s.014 = phi double [ 0.000000e+00, %for.body.lr.ph ], [ %3, %for.body ]
  %arrayidx = getelementptr inbounds nuw double, ptr %0, i64 %indvars.iv
  %1 = load double, ptr %arrayidx, align 8, !tbaa !13
  %arrayidx2 = getelementptr inbounds nuw double, ptr %x, i64 %indvars.iv
  %2 = load double, ptr %arrayidx2, align 8, !tbaa !13
  %mul = fmul double %1, %2
  %3 = tail call double @llvm.fmuladd.f64(double %mul, double %2, double %s.014)
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body, !llvm.loop !15
}

; Function Attrs: noinline nounwind memory(readwrite, target_mem0: none, target_mem1: none) uwtable
define internal fastcc void @grow(ptr noundef captures(none) %t, i32 noundef %n) unnamed_addr #1 {
entry:
  %have = getelementptr inbounds nuw i8, ptr %t, i64 8
  %0 = load i32, ptr %have, align 8, !tbaa !18
  %cmp.not = icmp sgt i32 %n, %0
  br i1 %cmp.not, label %if.end, label %return

if.end:                                           ; preds = %entry
  %1 = load ptr, ptr %t, align 8, !tbaa !9
  %conv = sext i32 %n to i64
  %mul = shl nsw i64 %conv, 3
  %call = tail call ptr @realloc(ptr noundef %1, i64 noundef %mul) #6
  store ptr %call, ptr %t, align 8, !tbaa !9
  %2 = load i32, ptr %have, align 8, !tbaa !18
  %cmp319 = icmp slt i32 %2, %n
  br i1 %cmp319, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %if.end
  %3 = sext i32 %2 to i64
  %wide.trip.count = sext i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %if.end
  store i32 %n, ptr %have, align 8, !tbaa !18
  br label %return

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ %3, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %4 = trunc nsw i64 %indvars.iv to i32
  %conv5 = sitofp i32 %4 to double
  %add = fadd double %conv5, 1.000000e+00
  %arrayidx = getelementptr inbounds double, ptr %call, i64 %indvars.iv
  store double %add, ptr %arrayidx, align 8, !tbaa !13
  %indvars.iv.next = add nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body, !llvm.loop !19

return:                                           ; preds = %entry, %for.cond.cleanup
  ret void
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #2

; Function Attrs: nounwind memory(readwrite, target_mem0: none, target_mem1: none) uwtable
define dso_local double @g(i32 noundef %n) local_unnamed_addr #0 {
entry:
  tail call fastcc void @grow(ptr noundef nonnull @tb, i32 noundef %n)
  %0 = load ptr, ptr @tb, align 8, !tbaa !9
  %1 = load double, ptr %0, align 8, !tbaa !13
  ret double %1
}

; Function Attrs: nounwind uwtable
define dso_local void @df(ptr noundef %x, ptr noundef %dx, i32 noundef %n) local_unnamed_addr #3 {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4, !tbaa !5
  %1 = load i32, ptr @enzyme_const, align 4, !tbaa !5
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @f, i32 noundef %0, ptr noundef %x, ptr noundef %dx, i32 noundef %1, i32 noundef %n) #7
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr #4

; Function Attrs: nounwind uwtable
define dso_local double @tf(ptr noundef %x, ptr noundef %v, i32 noundef %n) local_unnamed_addr #3 {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4, !tbaa !5
  %1 = load i32, ptr @enzyme_const, align 4, !tbaa !5
  %call = tail call double (ptr, ...) @__enzyme_fwddiff(ptr noundef nonnull @f, i32 noundef %0, ptr noundef %x, ptr noundef %v, i32 noundef %1, i32 noundef %n) #7
  ret double %call
}

declare double @__enzyme_fwddiff(ptr noundef, ...) local_unnamed_addr #4

; Function Attrs: mustprogress nounwind willreturn allockind("realloc") allocsize(1) memory(argmem: readwrite, inaccessiblemem: readwrite)
declare noalias noundef ptr @realloc(ptr allocptr noundef captures(none), i64 noundef) local_unnamed_addr #5

attributes #0 = { nounwind memory(readwrite, target_mem0: none, target_mem1: none) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { noinline nounwind memory(readwrite, target_mem0: none, target_mem1: none) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #5 = { mustprogress nounwind willreturn allockind("realloc") allocsize(1) memory(argmem: readwrite, inaccessiblemem: readwrite) "alloc-family"="malloc" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #6 = { nounwind allocsize(1) }
attributes #7 = { nounwind }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4}
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
!9 = !{!10, !11, i64 0}
!10 = !{!"", !11, i64 0, !6, i64 8}
!11 = !{!"p1 double", !12, i64 0}
!12 = !{!"any pointer", !7, i64 0}
!13 = !{!14, !14, i64 0}
!14 = !{!"double", !7, i64 0}
!15 = distinct !{!15, !16, !17}
!16 = !{!"llvm.loop.mustprogress"}
!17 = !{!"llvm.loop.unroll.disable"}
!18 = !{!10, !6, i64 8}
!19 = distinct !{!19, !16, !17}
