; Decision (alloc40): shadows of Rust heap memory belong to Rust's global allocator.
; `__rust_alloc`/`__rust_alloc_zeroed`'s shadow is a second call of the same entry point
; with the primal's size and alignment (zeroed by a memset for `__rust_alloc`, none for
; `__rust_alloc_zeroed`); `__rust_realloc(p, old, align, new)`'s is
; `__rust_alloc_zeroed(new, align)` in reverse mode and the same `__rust_realloc` of the
; old shadow in forward mode; every shadow goes back through `__rust_dealloc` with its
; size and alignment: directly in forward mode, through the runtime's shadow table in
; reverse mode, whose entries keep two words for the deallocator (the thunk
; `__rust_dealloc.fz_shadow(ptr, i64 size, i64 align)`). The realloc's kept adjoints
; move back over the old size the call states (the last argument of
; `__fz_realloc_adj_f64`; -1 would ask `malloc_usable_size`, which only C blocks answer).
; The memset zeroing a shadow carries the alignment the allocator guarantees: Rust's
; constant alignment (8), `aligned_alloc`'s (64); `malloc`'s shadows stay `calloc`.
; Why it matters: a program's `#[global_allocator]` (counting, arena, header-checking)
; sees shadow `Vec`s dropped through `__rust_dealloc`; calloc'd shadows given to it, or
; its blocks given to `free`, crash (tests/c/1454, tests/rust/tests/alloc40_*).
;
; extern void *__rust_alloc(size_t, size_t); ... (the four entry points declared)
; __attribute__((noinline)) double sum(const double *t, int n);  // sum of squares
; double f(const double *x) {
;   double *t = __rust_alloc(32, 8);
;   double *a = aligned_alloc(64, 64);
;   for (int i = 0; i < 4; i++) t[i] = x[i] * x[i];
;   t = __rust_realloc(t, 32, 8, 64);
;   double *z = __rust_alloc_zeroed(32, 32);
;   for (int i = 0; i < 4; i++) z[i] = t[i] * x[i], a[i] = z[i] * x[i];
;   double s = sum(t, 4) + sum(z, 4) + sum(a, 4);
;   free(a); __rust_dealloc(z, 32, 32); __rust_dealloc(t, 64, 8);
;   return s;
; }
; (and `keep`, which leaves a block in an object the caller owns)
; (clang-22 -O2 -fno-unroll-loops -fno-vectorize -fno-slp-vectorize, attributes and
; metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

; CHECK-LABEL: define internal void @fz_grad_keep(
; CHECK: %[[K:[0-9]+]] = tail call ptr @__rust_alloc(i64 noundef 32, i64 noundef 8)
; CHECK-NEXT: %[[SK:[0-9]+]] = call ptr @__rust_alloc(i64 32, i64 8)
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr align 8 %[[SK]], i8 0, i64 32, i1 false)
; CHECK-NEXT: call void @__fz_shadow_new(ptr %[[K]], ptr %[[SK]], ptr @__rust_dealloc.fz_shadow, i64 32, i64 8, i64 32, i64 0)
; CHECK: call void @__fz_shadow_replayed(ptr %[[SK]], ptr @__rust_dealloc.fz_shadow, i64 32, i64 8)

; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK: %[[T:[0-9]+]] = tail call ptr @__rust_alloc(i64 noundef 32, i64 noundef 8)
; CHECK-NEXT: %[[ST:[0-9]+]] = call ptr @__rust_alloc(i64 32, i64 8)
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr align 8 %[[ST]], i8 0, i64 32, i1 false)
; CHECK-NEXT: call void @__fz_shadow_new(ptr %[[T]], ptr %[[ST]], ptr @__rust_dealloc.fz_shadow, i64 32, i64 8, i64 32, i64 0)
; CHECK-NEXT: %[[A:[0-9]+]] = tail call {{.*}}ptr @aligned_alloc(i64 noundef 64, i64 noundef 64)
; CHECK-NEXT: %[[SA:[0-9]+]] = call ptr @aligned_alloc(i64 64, i64 64)
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr align 64 %[[SA]], i8 0, i64 64, i1 false)
; CHECK-NEXT: call void @__fz_shadow_new(ptr %[[A]], ptr %[[SA]], ptr null, i64 0, i64 0, i64 64, i64 0)
; CHECK: %[[R:[0-9]+]] = tail call ptr @__rust_realloc(ptr noundef nonnull %[[T]], i64 noundef 32, i64 noundef 8, i64 noundef 64)
; CHECK-NEXT: %[[SR:[0-9]+]] = call ptr @__rust_alloc_zeroed(i64 64, i64 8)
; CHECK-NEXT: call void @__fz_shadow_new(ptr %[[R]], ptr %[[SR]], ptr @__rust_dealloc.fz_shadow, i64 64, i64 8, i64 64, i64 0)
; CHECK-NEXT: %[[Z:[0-9]+]] = tail call ptr @__rust_alloc_zeroed(i64 noundef 32, i64 noundef 32)
; CHECK-NEXT: %[[SZ:[0-9]+]] = call ptr @__rust_alloc_zeroed(i64 32, i64 32)
; CHECK-NEXT: call void @__fz_shadow_new(ptr %[[Z]], ptr %[[SZ]], ptr @__rust_dealloc.fz_shadow, i64 32, i64 32, i64 32, i64 0)
; CHECK-NOT: calloc
; CHECK: call void @__fz_shadow_replayed(ptr %[[SZ]], ptr @__rust_dealloc.fz_shadow, i64 32, i64 32)
; CHECK: call void @__fz_realloc_adj_f64(ptr %[[ST]], ptr %[[SR]], i64 64, i64 32)
; CHECK-NEXT: call void @__fz_shadow_replayed(ptr %[[SR]], ptr @__rust_dealloc.fz_shadow, i64 64, i64 8)
; CHECK: call void @__fz_shadow_replayed(ptr %[[SA]], ptr null, i64 0, i64 0)
; CHECK-NEXT: call void @__fz_shadow_replayed(ptr %[[ST]], ptr @__rust_dealloc.fz_shadow, i64 32, i64 8)
; CHECK: ret void

; CHECK-LABEL: define internal { double, double } @fz_fwd_f(
; CHECK: %[[FT:[0-9]+]] = call ptr @__rust_alloc(i64 32, i64 8)
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr align 8 %[[FT]], i8 0, i64 32, i1 false)
; CHECK: %[[FR:[0-9]+]] = call ptr @__rust_realloc(ptr %[[FT]], i64 32, i64 8, i64 64)
; CHECK: %[[FZ:[0-9]+]] = call ptr @__rust_alloc_zeroed(i64 32, i64 32)
; CHECK-NOT: memset
; CHECK-NOT: calloc
; CHECK: call void @__rust_dealloc(ptr %[[FZ]], i64 32, i64 32)
; CHECK: call void @__rust_dealloc(ptr %[[FR]], i64 64, i64 8)

; CHECK-LABEL: define internal void @__rust_dealloc.fz_shadow(ptr %0, i64 %1, i64 %2)
; CHECK-NEXT: entry:
; CHECK-NEXT: call void @__rust_dealloc(ptr %0, i64 %1, i64 %2)
; CHECK-NEXT: ret void

target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external local_unnamed_addr global i32, align 4

; Function Attrs: nofree noinline norecurse nosync nounwind memory(argmem: read) uwtable
define dso_local double @sum(ptr noundef readonly captures(none) %0, i32 noundef %1) local_unnamed_addr {
  %3 = icmp sgt i32 %1, 0
  br i1 %3, label %4, label %6

4:                                                ; preds = %2
  %5 = zext nneg i32 %1 to i64
  br label %8

6:                                                ; preds = %8, %2
  %7 = phi double [ 0.000000e+00, %2 ], [ %13, %8 ]
  ret double %7

8:                                                ; preds = %4, %8
  %9 = phi i64 [ 0, %4 ], [ %14, %8 ]
  %10 = phi double [ 0.000000e+00, %4 ], [ %13, %8 ]
  %11 = getelementptr inbounds nuw double, ptr %0, i64 %9
  %12 = load double, ptr %11, align 8
  %13 = tail call double @llvm.fmuladd.f64(double %12, double %12, double %10)
  %14 = add nuw nsw i64 %9, 1
  %15 = icmp eq i64 %14, %5
  br i1 %15, label %6, label %8
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double)

; Function Attrs: nounwind uwtable
define dso_local double @f(ptr noundef readonly captures(none) %0) {
  %2 = tail call ptr @__rust_alloc(i64 noundef 32, i64 noundef 8)
  %3 = tail call noalias align 64 dereferenceable_or_null(64) ptr @aligned_alloc(i64 noundef 64, i64 noundef 64)
  br label %7

4:                                                ; preds = %7
  %5 = tail call ptr @__rust_realloc(ptr noundef nonnull %2, i64 noundef 32, i64 noundef 8, i64 noundef 64)
  %6 = tail call ptr @__rust_alloc_zeroed(i64 noundef 32, i64 noundef 32)
  br label %21

7:                                                ; preds = %1, %7
  %8 = phi i64 [ 0, %1 ], [ %13, %7 ]
  %9 = getelementptr inbounds nuw double, ptr %0, i64 %8
  %10 = load double, ptr %9, align 8
  %11 = fmul double %10, %10
  %12 = getelementptr inbounds nuw double, ptr %2, i64 %8
  store double %11, ptr %12, align 8
  %13 = add nuw nsw i64 %8, 1
  %14 = icmp eq i64 %13, 4
  br i1 %14, label %4, label %7

15:                                               ; preds = %21
  %16 = tail call double @sum(ptr noundef nonnull %5, i32 noundef 4)
  %17 = tail call double @sum(ptr noundef nonnull %6, i32 noundef 4)
  %18 = fadd double %16, %17
  %19 = tail call double @sum(ptr noundef nonnull %3, i32 noundef 4)
  %20 = fadd double %18, %19
  tail call void @free(ptr noundef nonnull %3)
  tail call void @__rust_dealloc(ptr noundef nonnull %6, i64 noundef 32, i64 noundef 32)
  tail call void @__rust_dealloc(ptr noundef nonnull %5, i64 noundef 64, i64 noundef 8)
  ret double %20

21:                                               ; preds = %4, %21
  %22 = phi i64 [ 0, %4 ], [ %32, %21 ]
  %23 = getelementptr inbounds nuw double, ptr %5, i64 %22
  %24 = load double, ptr %23, align 8
  %25 = getelementptr inbounds nuw double, ptr %0, i64 %22
  %26 = load double, ptr %25, align 8
  %27 = fmul double %24, %26
  %28 = getelementptr inbounds nuw double, ptr %6, i64 %22
  store double %27, ptr %28, align 8
  %29 = load double, ptr %25, align 8
  %30 = fmul double %27, %29
  %31 = getelementptr inbounds nuw double, ptr %3, i64 %22
  store double %30, ptr %31, align 8
  %32 = add nuw nsw i64 %22, 1
  %33 = icmp eq i64 %32, 4
  br i1 %33, label %15, label %21
}

declare ptr @__rust_alloc(i64 noundef, i64 noundef) local_unnamed_addr

; Function Attrs: mustprogress nofree nounwind willreturn allockind("alloc,uninitialized,aligned") allocsize(1) memory(inaccessiblemem: readwrite)
declare noalias noundef ptr @aligned_alloc(i64 allocalign noundef, i64 noundef) local_unnamed_addr

declare ptr @__rust_realloc(ptr noundef, i64 noundef, i64 noundef, i64 noundef) local_unnamed_addr

declare ptr @__rust_alloc_zeroed(i64 noundef, i64 noundef) local_unnamed_addr

; Function Attrs: mustprogress nounwind willreturn allockind("free") memory(argmem: readwrite, inaccessiblemem: readwrite)
declare void @free(ptr allocptr noundef captures(none)) local_unnamed_addr

declare void @__rust_dealloc(ptr noundef, i64 noundef, i64 noundef) local_unnamed_addr

; Function Attrs: nounwind uwtable
define dso_local void @keep(ptr noundef writeonly captures(none) initializes((0, 8)) %0, ptr noundef readonly captures(none) %1) {
  %3 = tail call ptr @__rust_alloc(i64 noundef 32, i64 noundef 8)
  store ptr %3, ptr %0, align 8
  br label %5

4:                                                ; preds = %5
  ret void

5:                                                ; preds = %2, %5
  %6 = phi i64 [ 0, %2 ], [ %11, %5 ]
  %7 = getelementptr inbounds nuw double, ptr %1, i64 %6
  %8 = load double, ptr %7, align 8
  %9 = fmul double %8, %8
  %10 = getelementptr inbounds nuw double, ptr %3, i64 %6
  store double %9, ptr %10, align 8
  %11 = add nuw nsw i64 %6, 1
  %12 = icmp eq i64 %11, 4
  br i1 %12, label %4, label %5
}

; Function Attrs: nounwind uwtable
define dso_local void @df(ptr noundef %0, ptr noundef %1) local_unnamed_addr {
  %3 = load i32, ptr @enzyme_dup, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @f, i32 noundef %3, ptr noundef %0, ptr noundef %1)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

; Function Attrs: nounwind uwtable
define dso_local double @tf(ptr noundef %0, ptr noundef %1) local_unnamed_addr {
  %3 = load i32, ptr @enzyme_dup, align 4
  %4 = tail call double (ptr, ...) @__enzyme_fwddiff(ptr noundef nonnull @f, i32 noundef %3, ptr noundef %0, ptr noundef %1)
  ret double %4
}

declare double @__enzyme_fwddiff(ptr noundef, ...) local_unnamed_addr

; Function Attrs: nounwind uwtable
define dso_local void @dkeep(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3) local_unnamed_addr {
  %5 = load i32, ptr @enzyme_dup, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @keep, i32 noundef %5, ptr noundef %0, ptr noundef %1, i32 noundef %5, ptr noundef %2, ptr noundef %3)
  ret void
}

