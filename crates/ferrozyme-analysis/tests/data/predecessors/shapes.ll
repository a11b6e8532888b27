; ModuleID = 'pred.c'
source_filename = "pred.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: read) uwtable
define dso_local double @guarded_loops(ptr noundef readonly captures(none) %x, i32 noundef %n, i32 noundef %d) local_unnamed_addr {
entry:
  %cmp37 = icmp sgt i32 %n, 0
  br i1 %cmp37, label %for.body.lr.ph, label %for.cond.cleanup

for.body.lr.ph:                                   ; preds = %entry
  %cmp1 = icmp sgt i32 %d, 0
  %cmp834 = icmp sgt i32 %d, 0
  %wide.trip.count46 = zext nneg i32 %n to i64
  %wide.trip.count = zext nneg i32 %d to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %if.end, %entry
  %s.0.lcssa = phi double [ 0.000000e+00, %entry ], [ %add, %if.end ]
  ret double %s.0.lcssa

for.body:                                         ; preds = %for.body.lr.ph, %if.end
  %indvars.iv43 = phi i64 [ 0, %for.body.lr.ph ], [ %indvars.iv.next44, %if.end ]
  %s.038 = phi double [ 0.000000e+00, %for.body.lr.ph ], [ %add, %if.end ]
  br i1 %cmp1, label %for.cond2.preheader, label %if.else

for.cond2.preheader:                              ; preds = %for.body
  %0 = trunc nuw nsw i64 %indvars.iv43 to i32
  %conv = uitofp nneg i32 %0 to double
  br label %for.body5

for.cond7.preheader:                              ; preds = %for.body5
  br i1 %cmp834, label %for.body11, label %if.end

for.body5:                                        ; preds = %for.cond2.preheader, %for.body5
  %indvars.iv = phi i64 [ 0, %for.cond2.preheader ], [ %indvars.iv.next, %for.body5 ]
  %t.032 = phi double [ 0.000000e+00, %for.cond2.preheader ], [ %2, %for.body5 ]
  %arrayidx = getelementptr inbounds nuw double, ptr %x, i64 %indvars.iv
  %1 = load double, ptr %arrayidx, align 8
  %2 = tail call double @llvm.fmuladd.f64(double %1, double %conv, double %t.032)
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond7.preheader, label %for.body5

for.body11:                                       ; preds = %for.cond7.preheader, %for.body11
  %j6.036 = phi i32 [ %inc13, %for.body11 ], [ 0, %for.cond7.preheader ]
  %t.135 = phi double [ %mul, %for.body11 ], [ %2, %for.cond7.preheader ]
  %mul = fmul double %t.135, 5.000000e-01
  %inc13 = add nuw nsw i32 %j6.036, 1
  %exitcond42.not = icmp eq i32 %inc13, %d
  br i1 %exitcond42.not, label %if.end, label %for.body11

if.else:                                          ; preds = %for.body
  %arrayidx16 = getelementptr inbounds nuw double, ptr %x, i64 %indvars.iv43
  %3 = load double, ptr %arrayidx16, align 8
  br label %if.end

if.end:                                           ; preds = %for.body11, %for.cond7.preheader, %if.else
  %t.2 = phi double [ %3, %if.else ], [ %2, %for.cond7.preheader ], [ %mul, %for.body11 ]
  %add = fadd double %s.038, %t.2
  %indvars.iv.next44 = add nuw nsw i64 %indvars.iv43, 1
  %exitcond47.not = icmp eq i64 %indvars.iv.next44, %wide.trip.count46
  br i1 %exitcond47.not, label %for.cond.cleanup, label %for.body
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double)

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(none) uwtable
define dso_local noundef double @nested_ifs(double noundef %a, i32 noundef %k) local_unnamed_addr {
entry:
  %cmp = icmp sgt i32 %k, 2
  br i1 %cmp, label %if.then, label %if.else4

if.then:                                          ; preds = %entry
  %cmp1 = icmp sgt i32 %k, 5
  %mul = fmul double %a, 2.000000e+00
  %add = fadd double %a, 1.000000e+00
  %r.0 = select i1 %cmp1, double %mul, double %add
  %mul3 = fmul double %r.0, %r.0
  br label %if.end5

if.else4:                                         ; preds = %entry
  %sub = fadd double %a, -3.000000e+00
  br label %if.end5

if.end5:                                          ; preds = %if.else4, %if.then
  %r.1 = phi double [ %mul3, %if.then ], [ %sub, %if.else4 ]
  ret double %r.1
}

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: read) uwtable
define dso_local double @loop_in_branch_reentered(ptr noundef readonly captures(none) %x, i32 noundef %n) local_unnamed_addr {
entry:
  %cmp = icmp sgt i32 %n, 3
  br i1 %cmp, label %again.preheader, label %if.end3

again.preheader:                                  ; preds = %entry
  %wide.trip.count = zext nneg i32 %n to i64
  br label %again

again:                                            ; preds = %again.preheader, %again
  %indvars.iv = phi i64 [ 0, %again.preheader ], [ %indvars.iv.next, %again ]
  %s.0 = phi double [ 0.000000e+00, %again.preheader ], [ %add, %again ]
  %arrayidx = getelementptr inbounds nuw double, ptr %x, i64 %indvars.iv
  %0 = load double, ptr %arrayidx, align 8
  %add = fadd double %s.0, %0
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %if.end3, label %again

if.end3:                                          ; preds = %again, %entry
  %s.1 = phi double [ 1.000000e+00, %entry ], [ %add, %again ]
  ret double %s.1
}




; The shape of GMM's inner body: per iteration of %outer, a branch on the
; loop-invariant %pos (d > 0) either runs two inner loops or takes %skip; both
; reach %join, whose predecessor %pos decides (dominating branch in %body).
define void @invariant_guard_in_loop(ptr %p, i64 %n, i64 %d, i1 %pos) {
entry:
  br label %outer

outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %join ]
  br label %body

body:
  br i1 %pos, label %inner1, label %skip

inner1:
  %j = phi i64 [ 0, %body ], [ %j.next, %inner1 ]
  %j.next = add i64 %j, 1
  %c1 = icmp eq i64 %j.next, %d
  br i1 %c1, label %inner2, label %inner1

inner2:
  %k = phi i64 [ 0, %inner1 ], [ %k.next, %inner2 ]
  %k.next = add i64 %k, 1
  %c2 = icmp eq i64 %k.next, %d
  br i1 %c2, label %tail, label %inner2

tail:
  br label %join

skip:
  br label %join

join:
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %outer

exit:
  ret void
}

; Not decidable from the branch: %join can be reached again from itself without
; passing %d (the back edge goes to %again, below the branch).
define void @rejoin_below_branch(i1 %c, i1 %more) {
d:
  br i1 %c, label %a, label %b

a:
  br label %join

b:
  br label %join

join:
  br label %again

again:
  br i1 %more, label %a, label %exit

exit:
  ret void
}

; A join of three paths inside a loop: %pos (loop-invariant) picks the inner loop
; or the other side, where %neg (also invariant, defined before the loop) picks a
; second loop or a direct edge to %join.
define void @three_way_join(i64 %n, i64 %d, i1 %pos, i1 %neg) {
entry:
  br label %outer

outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %join ]
  br i1 %pos, label %loop1, label %other

loop1:
  %j = phi i64 [ 0, %outer ], [ %j.next, %loop1 ]
  %j.next = add i64 %j, 1
  %c1 = icmp eq i64 %j.next, %d
  br i1 %c1, label %join, label %loop1

other:
  br i1 %neg, label %loop2, label %join

loop2:
  %k = phi i64 [ 0, %other ], [ %k.next, %loop2 ]
  %k.next = add i64 %k, 1
  %c2 = icmp eq i64 %k.next, %d
  br i1 %c2, label %join, label %loop2

join:
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %outer

exit:
  ret void
}
