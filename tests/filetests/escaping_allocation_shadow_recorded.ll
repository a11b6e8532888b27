; Decision: the shadow of an allocation whose pointer leaves the function (here stored
; into the object the caller passed) is recorded with its primal (`__fz_shadow_new`) and
; the replay only reports that the reverse sweep is done with it
; (`__fz_shadow_replayed`): the runtime frees it once the primal is freed too, or leaves
; it to the user with the primal (`runtime/ir/shadows.ll`); the top-level call settles
; the table after the derivative (`__fz_shadow_settle`); the third argument of
; `__fz_shadow_new` is the function that releases the shadow (null: `free`, the family
; of `malloc`; alloc39_new_shadows.ll), the next two the words it is given, the last two
; the shadow's size and where its floats are (0: all floats), for the zeroing of shadows
; a global reaches (`runtime/ir/kept.ll`). A scratch buffer that stays in
; its function keeps the direct `free` at the replay (malloc_shadow_freed_by_reverse.ll).
; Why it matters: freeing such a shadow at the replay left the user's shadow object
; pointing to freed memory, and the user's own free of it was a double free
; (tests/c/516, 517; Eigen outputs resized inside the differentiated function).
;
; typedef struct { double *data; int n; } Buf;
; double f(Buf *out, const double *x, int n) {
;   out->data = malloc(n * sizeof(double));
;   double s = 0;
;   for (int i = 0; i < n; i++) { out->data[i] = x[i] * x[i]; s += out->data[i]; }
;   return s;
; }
; void grad(Buf *o, Buf *d, const double *x, double *dx, int n) {
;   __enzyme_autodiff((void *)f, enzyme_dup, o, d, enzyme_dup, x, dx, enzyme_const, n);
; }
; (clang-22 -O2 -fno-vectorize -fno-unroll-loops, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external local_unnamed_addr global i32, align 4
@enzyme_const = external local_unnamed_addr global i32, align 4

; Function Attrs: nofree nounwind memory(write, argmem: readwrite, inaccessiblemem: readwrite, target_mem0: none, target_mem1: none) uwtable
define dso_local double @f(ptr noundef writeonly captures(none) initializes((0, 8)) %0, ptr noundef readonly captures(none) %1, i32 noundef %2) {
  %4 = sext i32 %2 to i64
  %5 = shl nsw i64 %4, 3
  %6 = tail call noalias ptr @malloc(i64 noundef %5)
  store ptr %6, ptr %0, align 8
  %7 = icmp sgt i32 %2, 0
  br i1 %7, label %8, label %10

8:                                                ; preds = %3
  %9 = zext nneg i32 %2 to i64
  br label %12

10:                                               ; preds = %12, %3
  %11 = phi double [ 0.000000e+00, %3 ], [ %19, %12 ]
  ret double %11

12:                                               ; preds = %8, %12
  %13 = phi i64 [ 0, %8 ], [ %20, %12 ]
  %14 = phi double [ 0.000000e+00, %8 ], [ %19, %12 ]
  %15 = getelementptr inbounds nuw double, ptr %1, i64 %13
  %16 = load double, ptr %15, align 8
  %17 = fmul double %16, %16
  %18 = getelementptr inbounds nuw double, ptr %6, i64 %13
  store double %17, ptr %18, align 8
  %19 = fadd double %14, %17
  %20 = add nuw nsw i64 %13, 1
  %21 = icmp eq i64 %20, %9
  br i1 %21, label %10, label %12
}

; Function Attrs: mustprogress nofree nounwind willreturn allockind("alloc,uninitialized") allocsize(0) memory(inaccessiblemem: readwrite)
declare noalias noundef ptr @malloc(i64 noundef) local_unnamed_addr

; Function Attrs: nounwind uwtable
define dso_local void @grad(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, i32 noundef %4) local_unnamed_addr {
  %6 = load i32, ptr @enzyme_dup, align 4
  %7 = load i32, ptr @enzyme_const, align 4
  %8 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @f, i32 noundef %6, ptr noundef %0, ptr noundef %1, i32 noundef %6, ptr noundef %2, ptr noundef %3, i32 noundef %7, i32 noundef %4)
  ret void
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr




; CHECK-LABEL: define dso_local void @grad(
; CHECK: call void @fz_grad_f(
; CHECK-NEXT: call void @__fz_shadow_settle()
; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK: [[P:%.*]] = tail call noalias ptr @malloc(i64 noundef [[N:%.*]])
; CHECK-NEXT: [[S:%.*]] = call ptr @calloc(i64 [[N]], i64 1)
; CHECK-NEXT: call void @__fz_shadow_new(ptr [[P]], ptr [[S]], ptr null, i64 0, i64 0, i64 [[N]], i64 0)
; CHECK-NOT: @free(
; CHECK: call void @__fz_shadow_replayed(ptr [[S]], ptr null, i64 0, i64 0)
; CHECK-NOT: @free(
; CHECK: {{^}}}
