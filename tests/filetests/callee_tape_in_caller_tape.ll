; Decision: an active call that runs at most once per run of its caller (on no CFG
; cycle), of a function with IR that is on no cycle of direct calls with the caller,
; gets the callee's nested pair (`fz_aug_f.nest` taking its tape block as its last
; parameter, `fz_rev_f.nest` not freeing it) and a region of the caller's own tape:
; after the own tape in a split pair's block, in a separate `fz.nest` alloca of a
; combined function. The offsets are patched once every callee's size is known (here
; `mid` holds `sq`'s tape after its own 16 bytes). A call in a loop (`sq` in `top`'s
; loop) and a recursive call (`rec` calling itself) keep blocks of their own; the
; outermost `fz_aug_rec` allocates its own tape and `sq`'s nested one in one block.
; Why it matters: one arena allocation and free per augmented call was most of the
; generated code of a call chain (321 on a chain of 320 functions, issue 18); a region
; for a call in a loop would be overwritten by the next iteration, and a recursive
; callee's tape would have to contain itself.
;
; __attribute__((noinline)) void sq(double *p) { p[0] = p[0] * p[0]; }
; __attribute__((noinline)) void mid(double *p) { sq(p); p[1] = p[1] * p[0]; }
; __attribute__((noinline)) void rec(double *p, int n) { if (n > 0) { sq(p); rec(p, n - 1); p[1] = p[1] * p[0]; } }
; double top(double *p, int n) {
;   mid(p);
;   for (int i = 0; i < n; i++) sq(p + 1);
;   rec(p, n);
;   return p[0] + p[1];
; }
; void grad(double *p, double *dp, int n) { __enzyme_autodiff((void *)top, p, dp, enzyme_const, n); }
; (clang-22 -O2 -fno-unroll-loops, attributes and metadata removed; tests/c/630 runs such calls)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"
@enzyme_const = external global i32, align 4
define void @sq(ptr %p) {
entry:
  %0 = load double, ptr %p, align 8
  %mul = fmul double %0, %0
  store double %mul, ptr %p, align 8
  ret void
}
define void @mid(ptr %p) {
entry:
  tail call void @sq(ptr %p)
  %arrayidx = getelementptr inbounds nuw i8, ptr %p, i64 8
  %0 = load double, ptr %arrayidx, align 8
  %1 = load double, ptr %p, align 8
  %mul = fmul double %0, %1
  store double %mul, ptr %arrayidx, align 8
  ret void
}
define void @rec(ptr %p, i32 %n) {
entry:
  %cmp = icmp sgt i32 %n, 0
  br i1 %cmp, label %if.then, label %common.ret8
common.ret8:                                      ; preds = %entry, %if.then
  ret void
if.then:                                          ; preds = %entry
  tail call void @sq(ptr %p)
  %sub = add nsw i32 %n, -1
  tail call void @rec(ptr %p, i32 %sub)
  %arrayidx = getelementptr inbounds nuw i8, ptr %p, i64 8
  %0 = load double, ptr %arrayidx, align 8
  %1 = load double, ptr %p, align 8
  %mul = fmul double %0, %1
  store double %mul, ptr %arrayidx, align 8
  br label %common.ret8
}
define double @top(ptr %p, i32 %n) {
entry:
  tail call void @mid(ptr %p)
  %cmp8 = icmp sgt i32 %n, 0
  br i1 %cmp8, label %for.body.lr.ph, label %for.cond.cleanup
for.body.lr.ph:                                   ; preds = %entry
  %add.ptr = getelementptr inbounds nuw i8, ptr %p, i64 8
  br label %for.body
for.cond.cleanup:                                 ; preds = %for.body, %entry
  tail call void @rec(ptr %p, i32 %n)
  %0 = load double, ptr %p, align 8
  %arrayidx1 = getelementptr inbounds nuw i8, ptr %p, i64 8
  %1 = load double, ptr %arrayidx1, align 8
  %add = fadd double %0, %1
  ret double %add
for.body:                                         ; preds = %for.body.lr.ph, %for.body
  %i.09 = phi i32 [ 0, %for.body.lr.ph ], [ %inc, %for.body ]
  tail call void @sq(ptr nonnull %add.ptr)
  %inc = add nuw nsw i32 %i.09, 1
  %exitcond.not = icmp eq i32 %inc, %n
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}
define void @grad(ptr %p, ptr %dp, i32 %n) {
entry:
  %0 = load i32, ptr @enzyme_const, align 4
  %call = tail call double (ptr, ...) @__enzyme_autodiff(ptr nonnull @top, ptr %p, ptr %dp, i32 %0, i32 %n)
  ret void
}
declare double @__enzyme_autodiff(ptr noundef, ...)

; The combined function: regions for `mid` and `rec` in `fz.nest`, sized for both;
; `sq` in the loop keeps its own block (a tape returned and cached).
; CHECK-LABEL: define internal void @fz_grad_top(
; CHECK: %fz.nest = alloca i8, i64 80, align 16
; CHECK-NEXT: [[MID:%.*]] = getelementptr i8, ptr %fz.nest, i64 0
; CHECK-NEXT: [[REC:%.*]] = getelementptr i8, ptr %fz.nest, i64 32
; CHECK: call { ptr } @fz_aug_mid.nest(ptr %p, ptr %p.shadow, ptr [[MID]], ptr {{%region|null}})
; CHECK: call { ptr } @fz_aug_rec.nest(ptr %p, ptr %p.shadow, i32 %n, ptr [[REC]], ptr {{%region|null}})
; CHECK: call { ptr } @fz_aug_sq(ptr
; CHECK: call void @fz_rev_mid.nest(ptr %p, ptr %p.shadow, ptr [[MID]])
; CHECK: call void @fz_rev_rec.nest(ptr %p, ptr %p.shadow, i32 %n, ptr [[REC]])
; CHECK: call void @fz_rev_sq(ptr {{%.*}}, ptr {{%.*}}, ptr %fz.cached

; A nested pair: no allocation, no free; its callee's region after its own 16 bytes.
; CHECK-LABEL: define internal { ptr } @fz_aug_mid.nest(ptr %p, ptr %p.shadow, ptr %tape, ptr %region)
; CHECK-NOT: __fz_tape_alloc
; CHECK: [[SQ:%.*]] = getelementptr i8, ptr %tape, i64 16
; CHECK: call { ptr } @fz_aug_sq.nest(ptr %p, ptr %p.shadow, ptr [[SQ]], ptr {{%region|null}})
; CHECK: ret { ptr }
; CHECK-LABEL: define internal void @fz_rev_mid.nest(ptr %p, ptr %0, ptr %tape)
; CHECK: [[SQR:%.*]] = getelementptr i8, ptr %tape, i64 16
; CHECK: call void @fz_rev_sq.nest(ptr %p, ptr %0, ptr [[SQR]])
; CHECK-NOT: __fz_tape_free
; CHECK: {{^}}}

; The recursive call keeps a block of its own; the outermost pair allocates its tape
; (32 bytes) and `sq`'s nested one (16) at once, and frees them at once.
; CHECK-LABEL: define internal { ptr } @fz_aug_rec.nest(
; CHECK: call { ptr } @fz_aug_sq.nest(
; CHECK: call { ptr } @fz_aug_rec(ptr %p, ptr %p.shadow, i32 %sub)
; CHECK-LABEL: define internal { ptr } @fz_aug_rec(ptr %p, ptr %p.shadow, i32 %n)
; CHECK: call ptr @__fz_tape_alloc(i64 48)
; CHECK-LABEL: define internal void @fz_rev_rec(
; CHECK: call void @__fz_tape_free(ptr %tape)
