; Decision: before differentiating (reverse mode, on the clone), an outer counted loop
; (rows 0..5) whose counter is tested for equality with its first and last values, the
; periodic boundaries written with `if` (`i == 5 ? 0 : i + 1`, `i == 0 ? 5 : i - 1`:
; clang's `select (icmp eq i, 5), 0, 64 * (i + 1)` and `select (icmp eq i, 0), 320,
; 64 * (i - 1)`), loses its first row to a copy on its entry edge (`.first` blocks) and
; its last to a copy on its exit edge (`.peel`); in the loop left (rows 1..4: counter
; from 1, exit at 5) both tests are constants, so no `select` is left in the function,
; and clang's rows `ashr exact ((i << 38) +- (1 << 38)), 32` are read as `64 * i +- 64`
; (wrap_index.rs, no `nsw` on the add: it wraps only in bits the shift drops). The
; reverse column loop of an interior row then carries order-preserving streams for both
; fields (`fz.cell` phis, two per field) although u and v are blocks of one array, with
; the rows i - 1, i + 1 (byte offsets -512, +512) as plain adds (streams/far.rs: proven
; apart from both streams). Why it matters: `brusselator-periodic-br` at `-O3
; -march=native` (no fast-math) had no stream and a scalar reverse loop: grad/primal
; 5.3 -> 2.0-2.4 (bench/README.md "bruss15").
;
; void st(double *restrict out, const double *restrict x) {
;   const double *u = x, *v = x + 384;
;   for (int i = 0; i < 6; i++) {
;     int ip, im;
;     if (i == 5) ip = 0; else ip = i + 1;
;     if (i == 0) im = 5; else im = i - 1;
;     for (int j = 0; j < 64; j++) {
;       int jp, jm;
;       if (j == 63) jp = 0; else jp = j + 1;
;       if (j == 0) jm = 63; else jm = j - 1;
;       double c = u[64 * i + j], d = v[64 * i + j];
;       out[64 * i + j] = (u[64 * im + j] + u[64 * ip + j] + u[64 * i + jp] + u[64 * i + jm]) * c;
;       out[384 + 64 * i + j] = (v[64 * im + j] + v[64 * ip + j] + v[64 * i + jp] + v[64 * i + jm]) * d;
;     }
;   }
; }
; void grad(double *out, double *dout, double *x, double *dx) {
;   __enzyme_autodiff((void *)st, enzyme_dupnoneed, out, dout, enzyme_dup, x, dx);
; }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dupnoneed = external local_unnamed_addr global i32, align 4
@enzyme_dup = external local_unnamed_addr global i32, align 4

define dso_local void @st(ptr noalias noundef writeonly captures(none) %0, ptr noalias noundef readonly captures(none) %1) {
  %3 = getelementptr inbounds nuw i8, ptr %1, i64 3072
  br label %5

4:                                                ; preds = %53
  ret void

5:                                                ; preds = %53, %2
  %6 = phi i64 [ 0, %2 ], [ %89, %53 ]
  %7 = icmp eq i64 %6, 5
  %8 = shl nuw nsw i64 %6, 6
  %9 = icmp eq i64 %6, 0
  %10 = add nuw nsw i64 %8, 384
  %11 = shl i64 %6, 38
  %12 = add i64 %11, 274877906944
  %13 = ashr exact i64 %12, 32
  %14 = select i1 %7, i64 0, i64 %13
  %15 = shl i64 %6, 38
  %16 = add i64 %15, -274877906944
  %17 = ashr exact i64 %16, 32
  %18 = select i1 %9, i64 320, i64 %17
  %19 = getelementptr inbounds nuw double, ptr %1, i64 %8
  %20 = load double, ptr %19, align 8
  %21 = getelementptr inbounds nuw double, ptr %3, i64 %8
  %22 = load double, ptr %21, align 8
  %23 = getelementptr inbounds double, ptr %1, i64 %18
  %24 = load double, ptr %23, align 8
  %25 = getelementptr inbounds nuw double, ptr %1, i64 %14
  %26 = load double, ptr %25, align 8
  %27 = fadd double %24, %26
  %28 = and i64 %8, 4294967232
  %29 = or disjoint i64 %28, 1
  %30 = getelementptr inbounds nuw double, ptr %1, i64 %29
  %31 = load double, ptr %30, align 8
  %32 = fadd double %27, %31
  %33 = or disjoint i64 %8, 63
  %34 = getelementptr inbounds nuw double, ptr %1, i64 %33
  %35 = load double, ptr %34, align 8
  %36 = fadd double %32, %35
  %37 = fmul double %20, %36
  %38 = getelementptr inbounds nuw double, ptr %0, i64 %8
  store double %37, ptr %38, align 8
  %39 = getelementptr inbounds double, ptr %3, i64 %18
  %40 = load double, ptr %39, align 8
  %41 = getelementptr inbounds nuw double, ptr %3, i64 %14
  %42 = load double, ptr %41, align 8
  %43 = fadd double %40, %42
  %44 = getelementptr inbounds nuw double, ptr %3, i64 %29
  %45 = load double, ptr %44, align 8
  %46 = fadd double %43, %45
  %47 = getelementptr inbounds nuw double, ptr %3, i64 %33
  %48 = load double, ptr %47, align 8
  %49 = fadd double %46, %48
  %50 = fmul double %22, %49
  %51 = getelementptr inbounds nuw double, ptr %0, i64 %10
  store double %50, ptr %51, align 8
  %52 = getelementptr inbounds nuw double, ptr %0, i64 %10
  br label %91

53:                                               ; preds = %91
  %54 = or disjoint i64 %93, %8
  %55 = getelementptr inbounds nuw double, ptr %1, i64 %54
  %56 = load double, ptr %55, align 8
  %57 = getelementptr inbounds nuw double, ptr %3, i64 %54
  %58 = load double, ptr %57, align 8
  %59 = or disjoint i64 %93, %18
  %60 = getelementptr inbounds double, ptr %1, i64 %59
  %61 = load double, ptr %60, align 8
  %62 = or disjoint i64 %93, %14
  %63 = getelementptr inbounds nuw double, ptr %1, i64 %62
  %64 = load double, ptr %63, align 8
  %65 = fadd double %61, %64
  %66 = and i64 %8, 4294967232
  %67 = getelementptr inbounds nuw double, ptr %1, i64 %66
  %68 = load double, ptr %67, align 8
  %69 = fadd double %65, %68
  %70 = or disjoint i64 %8, 62
  %71 = getelementptr inbounds nuw double, ptr %1, i64 %70
  %72 = load double, ptr %71, align 8
  %73 = fadd double %69, %72
  %74 = fmul double %56, %73
  %75 = getelementptr inbounds nuw double, ptr %0, i64 %54
  store double %74, ptr %75, align 8
  %76 = getelementptr inbounds double, ptr %3, i64 %59
  %77 = load double, ptr %76, align 8
  %78 = getelementptr inbounds nuw double, ptr %3, i64 %62
  %79 = load double, ptr %78, align 8
  %80 = fadd double %77, %79
  %81 = getelementptr inbounds nuw double, ptr %3, i64 %66
  %82 = load double, ptr %81, align 8
  %83 = fadd double %80, %82
  %84 = getelementptr inbounds nuw double, ptr %3, i64 %70
  %85 = load double, ptr %84, align 8
  %86 = fadd double %83, %85
  %87 = fmul double %58, %86
  %88 = getelementptr inbounds nuw double, ptr %52, i64 %93
  store double %87, ptr %88, align 8
  %89 = add nuw nsw i64 %6, 1
  %90 = icmp eq i64 %89, 6
  br i1 %90, label %4, label %5

91:                                               ; preds = %5, %91
  %92 = phi i64 [ 1, %5 ], [ %93, %91 ]
  %93 = add nuw nsw i64 %92, 1
  %94 = or disjoint i64 %92, %8
  %95 = getelementptr inbounds nuw double, ptr %1, i64 %94
  %96 = load double, ptr %95, align 8
  %97 = getelementptr inbounds nuw double, ptr %3, i64 %94
  %98 = load double, ptr %97, align 8
  %99 = or disjoint i64 %92, %18
  %100 = getelementptr inbounds double, ptr %1, i64 %99
  %101 = load double, ptr %100, align 8
  %102 = or disjoint i64 %92, %14
  %103 = getelementptr inbounds nuw double, ptr %1, i64 %102
  %104 = load double, ptr %103, align 8
  %105 = fadd double %101, %104
  %106 = add nuw i64 %93, %8
  %107 = and i64 %106, 4294967295
  %108 = getelementptr inbounds nuw double, ptr %1, i64 %107
  %109 = load double, ptr %108, align 8
  %110 = fadd double %105, %109
  %111 = shl i64 %92, 32
  %112 = add nsw i64 %111, -4294967296
  %113 = ashr exact i64 %112, 32
  %114 = add nuw nsw i64 %113, %8
  %115 = getelementptr inbounds double, ptr %1, i64 %114
  %116 = load double, ptr %115, align 8
  %117 = fadd double %110, %116
  %118 = fmul double %96, %117
  %119 = getelementptr inbounds nuw double, ptr %0, i64 %94
  store double %118, ptr %119, align 8
  %120 = getelementptr inbounds double, ptr %3, i64 %99
  %121 = load double, ptr %120, align 8
  %122 = getelementptr inbounds nuw double, ptr %3, i64 %102
  %123 = load double, ptr %122, align 8
  %124 = fadd double %121, %123
  %125 = getelementptr inbounds nuw double, ptr %3, i64 %107
  %126 = load double, ptr %125, align 8
  %127 = fadd double %124, %126
  %128 = getelementptr inbounds double, ptr %3, i64 %114
  %129 = load double, ptr %128, align 8
  %130 = fadd double %127, %129
  %131 = fmul double %98, %130
  %132 = getelementptr inbounds nuw double, ptr %52, i64 %92
  store double %131, ptr %132, align 8
  %133 = icmp eq i64 %93, 63
  br i1 %133, label %53, label %91
}

define dso_local void @grad(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3) local_unnamed_addr {
  %5 = load i32, ptr @enzyme_dupnoneed, align 4
  %6 = load i32, ptr @enzyme_dup, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @st, i32 noundef %5, ptr noundef %0, ptr noundef %1, i32 noundef %6, ptr noundef %2, ptr noundef %3)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr


; CHECK-LABEL: define internal void @fz_grad_st(
; CHECK-NOT: select
; CHECK: {{^}}.peel:
; CHECK-NOT: select
; CHECK: {{^}}.first1:
; CHECK-NOT: select
; CHECK: phi i64 [ 1, %.first1 ]
; CHECK-NOT: select
; CHECK: icmp eq i64 %{{[0-9]+}}, 5
; CHECK-NOT: select
; CHECK: {{^}}rev..first2:
; CHECK: {{^}}rev.{{[0-9]+}}:{{ +}}; preds = %rev.{{[0-9]+}}, %rev.{{[0-9]+}}
; CHECK-NEXT: phi i64 [ 62,
; CHECK-NEXT: %fz.cell{{[0-9]+}} = phi double
; CHECK-NEXT: %fz.cell{{[0-9]+}} = phi double
; CHECK-NEXT: %fz.cell{{[0-9]+}} = phi double
; CHECK-NEXT: %fz.cell{{[0-9]+}} = phi double
; the recomputed primal's rows i - 1, i + 1 of u, then the adds into their shadows
; CHECK: getelementptr inbounds i8, ptr %{{[0-9]+}}, i64 -512
; CHECK-NEXT: load double
; CHECK-NEXT: getelementptr inbounds nuw i8, ptr %{{[0-9]+}}, i64 512
; CHECK: %[[UP:[0-9]+]] = getelementptr inbounds nuw i8, ptr %{{[0-9]+}}, i64 512
; CHECK-NEXT: %[[OLD:sh[0-9]+]] = load double, ptr %[[UP]]
; CHECK-NEXT: %[[SUM:[0-9]+]] = fadd nsz double %[[OLD]],
; CHECK-NEXT: store double %[[SUM]], ptr %[[UP]]
; CHECK-NEXT: %[[DN:[0-9]+]] = getelementptr inbounds i8, ptr %{{[0-9]+}}, i64 -512
; CHECK-NEXT: %[[OLD2:sh[0-9]+]] = load double, ptr %[[DN]]
; CHECK-NEXT: %[[SUM2:[0-9]+]] = fadd nsz double %[[OLD2]],
; CHECK-NEXT: store double %[[SUM2]], ptr %[[DN]]
; CHECK-NOT: select
; CHECK: br i1 %{{[0-9]+}}, label %rev.{{[0-9]+}}, label %fz.stream.flush
