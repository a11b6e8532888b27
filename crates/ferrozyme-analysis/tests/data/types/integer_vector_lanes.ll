; Integer vectors are integers in every lane (the loop vectorizer's induction vectors, a
; `sitofp` of a loaded `<4 x i64>`), and a rotate's operands are integers (SipHash).
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

define void @fill(ptr %idx, ptr %out, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %ind = phi <4 x i64> [ <i64 0, i64 1, i64 2, i64 3>, %entry ], [ %ind.next, %loop ]
  %p = getelementptr inbounds i64, ptr %idx, i64 %i
  store <4 x i64> %ind, ptr %p, align 8
  %k = load <4 x i64>, ptr %p, align 8
  %kf = sitofp <4 x i64> %k to <4 x double>
  %q = getelementptr inbounds double, ptr %out, i64 %i
  store <4 x double> %kf, ptr %q, align 8
  %ind.next = add <4 x i64> %ind, splat (i64 4)
  %i.next = add nuw i64 %i, 4
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define i64 @rot(ptr %key) {
  %a = load i64, ptr %key, align 8
  %b = xor i64 %a, 8317987319222330741
  %r = call i64 @llvm.fshl.i64(i64 %b, i64 %b, i64 13)
  ret i64 %r
}

declare i64 @llvm.fshl.i64(i64, i64, i64)
