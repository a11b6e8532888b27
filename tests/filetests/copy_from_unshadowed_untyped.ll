; Decision: a `memcpy` whose source has no shadow (here a string literal, as `strcpy(r->tag,
; "ab")` becomes at -O1 and above) into differentiable memory whose layout type analysis
; cannot tell (three bytes of a struct that also holds a double) is accepted: the reverse
; sweep only clears the destination's adjoint bytes (`memset` of the shadow, 3 bytes), as
; for any copy from constant memory. A copy between two shadowed buffers of unknown
; layout stays an error (cannot-deduce-type).
; Why it matters: the program was rejected with "cannot deduce the type of the memory
; copied here" although nothing differentiable is copied (tests/c/655_c_corners.c,
; `strided`); the cleared bytes are the ones the copy overwrote, so the adjoint is exact.
;
; struct rec { char tag[4]; double val; };
; double tagged(struct rec *r, double x) {
;   r->val = x;
;   __builtin_memcpy(r, "ab", 3);
;   return r->val * r->val;
; }
; double grad(struct rec *r, struct rec *dr, double x) {
;   return __enzyme_autodiff((void *)tagged, enzyme_dup, r, dr, x);
; }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
@.str = private unnamed_addr constant [3 x i8] c"ab\00", align 1
@enzyme_dup = external local_unnamed_addr global i32, align 4

define dso_local noundef double @tagged(ptr noundef writeonly captures(none) initializes((0, 3), (8, 16)) %0, double noundef %1) {
  %3 = getelementptr inbounds nuw i8, ptr %0, i64 8
  store double %1, ptr %3, align 8
  tail call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 8 dereferenceable(3) %0, ptr noundef nonnull align 1 dereferenceable(3) @.str, i64 3, i1 false)
  %4 = fmul double %1, %1
  ret double %4
}

declare void @llvm.memcpy.p0.p0.i64(ptr noalias writeonly captures(none), ptr noalias readonly captures(none), i64, i1 immarg)

define dso_local double @grad(ptr noundef %0, ptr noundef %1, double noundef %2) local_unnamed_addr {
  %4 = load i32, ptr @enzyme_dup, align 4
  %5 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @tagged, i32 noundef %4, ptr noundef %0, ptr noundef %1, double noundef %2)
  ret double %5
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr




; CHECK-LABEL: define internal { double } @fz_grad_tagged(ptr %0, ptr %.shadow, double %1, double %d_ret)
; CHECK: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}%0, ptr {{.*}}@.str, i64 3, i1 false)
; CHECK: call void @llvm.memset.p0.i64(ptr align 1 %.shadow, i8 0, i64 3, i1 false)
; CHECK: ret { double }
