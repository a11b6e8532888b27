; Decision: the shadow of memory from C++'s `operator new` is made by the same allocation
; function as the primal (`_Znam`, `_ZnwmSt11align_val_t` with the primal's size and
; alignment), zeroed by a memset, and released by the deallocator of the same family
; (`_ZdaPv` for new[], the aligned `_ZdlPvSt11align_val_t` with the primal's alignment
; for aligned new), never by calloc/free (`shadow_memory.rs`, ferrozyme-abi's allocator
; table). Forward mode releases the shadows next to the primal's delete; reverse mode
; records each shadow in the runtime's table with the function that releases it (a
; thunk `<deallocator>.fz_shadow(ptr, i64, i64)`) and the two words it passes on (here
; the aligned new's alignment), which the table calls once both the replay and the
; primal's free have happened. alloc40: the memset zeroing a shadow says the alignment
; the allocator guarantees (`new[]`: 16, __STDCPP_DEFAULT_NEW_ALIGNMENT__; the aligned
; `new`: its constant alignment, 64).
; Why it matters: a shadow may reach the program's own delete (a shadow std::vector
; buffer), and a user-replaced operator new/delete must only see its own blocks;
; calloc'd shadows released by delete (or new'd ones by free) are an alloc-dealloc
; mismatch (AddressSanitizer reports it; a header-checking allocator aborts).
;
; struct alignas(64) B { double a[8]; };
; __attribute__((noinline)) double sum(const double *t, int n);  // sum of squares
; double f(const double *x) {
;   double *t = new double[4];
;   B *b = new B;
;   for (int i = 0; i < 4; i++) t[i] = x[i] * x[i];
;   for (int i = 0; i < 8; i++) b->a[i] = x[i % 4];
;   double s = sum(t, 4) + sum(b->a, 8);
;   delete b;
;   delete[] t;
;   return s;
; }
; (and `keep`, which leaves both blocks in an object the caller owns)
; (clang-22 -O2 -fno-exceptions -fno-unroll-loops -fno-vectorize -fno-slp-vectorize,
; attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

; CHECK-LABEL: define internal void @fz_grad__Z1fPKd(
; CHECK: %[[T:[0-9]+]] = tail call {{.*}}ptr @_Znam(i64 noundef 32)
; CHECK-NEXT: %[[ST:[0-9]+]] = call ptr @_Znam(i64 32)
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr align 16 %[[ST]], i8 0, i64 32, i1 false)
; CHECK-NEXT: call void @__fz_shadow_new(ptr %[[T]], ptr %[[ST]], ptr @_ZdaPv.fz_shadow, i64 0, i64 0, i64 32, i64 0)
; CHECK: %[[B:[0-9]+]] = tail call {{.*}}ptr @_ZnwmSt11align_val_t(i64 noundef 64, i64 noundef 64)
; CHECK-NEXT: %[[SB:[0-9]+]] = call ptr @_ZnwmSt11align_val_t(i64 64, i64 64)
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr align 64 %[[SB]], i8 0, i64 64, i1 false)
; CHECK-NEXT: call void @__fz_shadow_new(ptr %[[B]], ptr %[[SB]], ptr @_ZdlPvSt11align_val_t.fz_shadow, i64 64, i64 0, i64 64, i64 0)
; CHECK-NOT: calloc
; CHECK: call void @__fz_shadow_replayed(ptr %[[SB]], ptr @_ZdlPvSt11align_val_t.fz_shadow, i64 64, i64 0)
; CHECK-NEXT: call void @__fz_shadow_replayed(ptr %[[ST]], ptr @_ZdaPv.fz_shadow, i64 0, i64 0)
; CHECK: ret void

; CHECK-LABEL: define internal { double, double } @fz_fwd__Z1fPKd(
; CHECK: %[[FT:[0-9]+]] = call ptr @_Znam(i64 32)
; CHECK: %[[FB:[0-9]+]] = call ptr @_ZnwmSt11align_val_t(i64 64, i64 64)
; CHECK-NOT: calloc
; CHECK: tail call void @_ZdlPvmSt11align_val_t(ptr noundef nonnull %{{[0-9]+}}, i64 noundef 64, i64 noundef 64)
; CHECK-NEXT: call void @__fz_shadows_forget(ptr %[[FB]])
; CHECK-NEXT: call void @_ZdlPvSt11align_val_t(ptr %[[FB]], i64 64)
; CHECK-NEXT: tail call void @_ZdaPv(ptr noundef nonnull %{{[0-9]+}})
; CHECK-NEXT: call void @__fz_shadows_forget(ptr %[[FT]])
; CHECK-NEXT: call void @_ZdaPv(ptr %[[FT]])

; CHECK-LABEL: define internal void @_ZdaPv.fz_shadow(ptr %0, i64 %1, i64 %2)
; CHECK-NEXT: entry:
; CHECK-NEXT: call void @_ZdaPv(ptr %0)
; CHECK-NEXT: ret void

; CHECK-LABEL: define internal void @_ZdlPvSt11align_val_t.fz_shadow(ptr %0, i64 %1, i64 %2)
; CHECK-NEXT: entry:
; CHECK-NEXT: call void @_ZdlPvSt11align_val_t(ptr %0, i64 %1)
; CHECK-NEXT: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external local_unnamed_addr global i32, align 4

define dso_local noundef double @_Z3sumPKdi(ptr noundef readonly captures(none) %0, i32 noundef %1) local_unnamed_addr {
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

declare double @llvm.fmuladd.f64(double, double, double)

define dso_local noundef double @_Z1fPKd(ptr noundef readonly captures(none) %0) {
  %2 = tail call noalias noundef nonnull dereferenceable(32) ptr @_Znam(i64 noundef 32)
  %3 = tail call noalias noundef nonnull align 64 dereferenceable(64) ptr @_ZnwmSt11align_val_t(i64 noundef 64, i64 noundef 64)
  br label %4

4:                                                ; preds = %1, %4
  %5 = phi i64 [ 0, %1 ], [ %10, %4 ]
  %6 = getelementptr inbounds nuw double, ptr %0, i64 %5
  %7 = load double, ptr %6, align 8
  %8 = fmul double %7, %7
  %9 = getelementptr inbounds nuw double, ptr %2, i64 %5
  store double %8, ptr %9, align 8
  %10 = add nuw nsw i64 %5, 1
  %11 = icmp eq i64 %10, 4
  br i1 %11, label %16, label %4

12:                                               ; preds = %16
  %13 = tail call noundef double @_Z3sumPKdi(ptr noundef nonnull %2, i32 noundef 4)
  %14 = tail call noundef double @_Z3sumPKdi(ptr noundef nonnull %3, i32 noundef 8)
  tail call void @_ZdlPvmSt11align_val_t(ptr noundef nonnull %3, i64 noundef 64, i64 noundef 64)
  tail call void @_ZdaPv(ptr noundef nonnull %2)
  %15 = fadd double %13, %14
  ret double %15

16:                                               ; preds = %4, %16
  %17 = phi i64 [ %22, %16 ], [ 0, %4 ]
  %18 = and i64 %17, 3
  %19 = getelementptr inbounds nuw double, ptr %0, i64 %18
  %20 = load double, ptr %19, align 8
  %21 = getelementptr inbounds nuw double, ptr %3, i64 %17
  store double %20, ptr %21, align 8
  %22 = add nuw nsw i64 %17, 1
  %23 = icmp eq i64 %22, 8
  br i1 %23, label %12, label %16
}

declare noundef nonnull ptr @_Znam(i64 noundef) local_unnamed_addr

declare noalias noundef nonnull ptr @_ZnwmSt11align_val_t(i64 noundef, i64 noundef) local_unnamed_addr

declare void @_ZdlPvmSt11align_val_t(ptr noundef, i64 noundef, i64 noundef) local_unnamed_addr

declare void @_ZdaPv(ptr noundef) local_unnamed_addr

define dso_local void @_Z4gradPKdPd(ptr noundef %0, ptr noundef %1) local_unnamed_addr {
  %3 = load i32, ptr @enzyme_dup, align 4
  %4 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @_Z1fPKd, i32 noundef %3, ptr noundef %0, ptr noundef %1)
  ret void
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

define dso_local noundef double @_Z4tan1PKdPd(ptr noundef %0, ptr noundef %1) local_unnamed_addr {
  %3 = load i32, ptr @enzyme_dup, align 4
  %4 = tail call double (ptr, ...) @__enzyme_fwddiff(ptr noundef nonnull @_Z1fPKd, i32 noundef %3, ptr noundef %0, ptr noundef %1)
  ret double %4
}

declare double @__enzyme_fwddiff(ptr noundef, ...) local_unnamed_addr

define dso_local void @_Z4keepP1HPKd(ptr noundef writeonly captures(none) initializes((0, 16)) %0, ptr noundef readonly captures(none) %1) {
  %3 = tail call noalias noundef nonnull dereferenceable(32) ptr @_Znam(i64 noundef 32)
  store ptr %3, ptr %0, align 8
  %4 = tail call noalias noundef nonnull align 64 dereferenceable(64) ptr @_ZnwmSt11align_val_t(i64 noundef 64, i64 noundef 64)
  %5 = getelementptr inbounds nuw i8, ptr %0, i64 8
  store ptr %4, ptr %5, align 8
  br label %6

6:                                                ; preds = %2, %6
  %7 = phi i64 [ 0, %2 ], [ %12, %6 ]
  %8 = getelementptr inbounds nuw double, ptr %1, i64 %7
  %9 = load double, ptr %8, align 8
  %10 = fmul double %9, %9
  %11 = getelementptr inbounds nuw double, ptr %3, i64 %7
  store double %10, ptr %11, align 8
  %12 = add nuw nsw i64 %7, 1
  %13 = icmp eq i64 %12, 4
  br i1 %13, label %15, label %6

14:                                               ; preds = %15
  ret void

15:                                               ; preds = %6, %15
  %16 = phi i64 [ %21, %15 ], [ 0, %6 ]
  %17 = and i64 %16, 3
  %18 = getelementptr inbounds nuw double, ptr %1, i64 %17
  %19 = load double, ptr %18, align 8
  %20 = getelementptr inbounds nuw double, ptr %4, i64 %16
  store double %19, ptr %20, align 8
  %21 = add nuw nsw i64 %16, 1
  %22 = icmp eq i64 %21, 8
  br i1 %22, label %14, label %15
}

define dso_local void @_Z5gkeepP1HS0_PKdPd(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3) local_unnamed_addr {
  %5 = load i32, ptr @enzyme_dup, align 4
  %6 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @_Z4keepP1HPKd, i32 noundef %5, ptr noundef %0, ptr noundef %1, i32 noundef %5, ptr noundef %2, ptr noundef %3)
  ret void
}



