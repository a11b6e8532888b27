; Decision: a periodic stencil whose wrapped neighbours are chosen by `?:` (or `if`), after
; clang peeled the wrap iterations itself (`j = 0` before and `j = 15` after the column
; loop `j = 1 .. 14`), reads its neighbours in that loop through 32-bit spellings:
; `(j + 1 + 16i) & 0xffffffff` and `ashr exact ((j << 32) - (1 << 32)), 32`. The
; counters' ranges (j in [1, 14], i in [0, 15]) prove both exact, so the masks and
; shift pairs go, the neighbour addresses become offsets of the centre's, the peeled
; last iteration's `j + 1` (the loop counter's exit value) becomes the constant 15
; (nothing on the tape), and the reverse loop carries streams for u and v.
; Why it matters: without it the reverse loop kept four read-modify-write adds per field
; per cell and a tape of the counter's exit value: the Brusselator with periodic
; boundaries by branches (users' -O2 -ffast-math) 116.8k -> 104.1k instructions per
; gradient (wrap_index.rs; the refusal: wrap_neighbours_refused_runtime_rows).
; Since bruss15 the rows' `i == 0` / `i == M - 1` tests also peel the first and last
; rows (peel_rows.rs, filetest peel_rows_periodic_boundary_rows); the loop checked here
; is the interior rows' column loop, whose stream names are numbered (the copies' loops
; come first).
;
; enum { M = 16 };
; void st(double *restrict out, const double *restrict x) {
;   const double *u = x, *v = x + M * M;
;   for (int i = 0; i < M; i++) {
;     int ip = i == M - 1 ? 0 : i + 1, im = i == 0 ? M - 1 : i - 1;
;     for (int j = 0; j < M; j++) {
;       int jp = j == M - 1 ? 0 : j + 1, jm = j == 0 ? M - 1 : j - 1;
;       double lu = u[M * im + j] + u[M * ip + j] + u[M * i + jp] + u[M * i + jm] - 4.0 * u[M * i + j];
;       double lv = v[M * im + j] + v[M * ip + j] + v[M * i + jp] + v[M * i + jm] - 4.0 * v[M * i + j];
;       out[M * i + j] = lu + u[M * i + j] * v[M * i + j];
;       out[M * M + M * i + j] = lv - u[M * i + j] * v[M * i + j];
;     }
;   }
; }
; void grad(double *out, double *dout, double *x, double *dx) {
;   __enzyme_autodiff((void *)st, enzyme_dupnoneed, out, dout, enzyme_dup, x, dx);
; }
; (clang-22 -O2 -ffast-math, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dupnoneed = external local_unnamed_addr global i32, align 4
@enzyme_dup = external local_unnamed_addr global i32, align 4

define dso_local void @st(ptr noalias noundef writeonly captures(none) %0, ptr noalias noundef readonly captures(none) %1) {
  %3 = getelementptr inbounds nuw i8, ptr %1, i64 2048
  br label %47

4:                                                ; preds = %99
  %5 = or disjoint i64 %101, %60
  %6 = getelementptr inbounds double, ptr %1, i64 %5
  %7 = load double, ptr %6, align 8
  %8 = or disjoint i64 %101, %56
  %9 = getelementptr inbounds nuw double, ptr %1, i64 %8
  %10 = load double, ptr %9, align 8
  %11 = fadd fast double %10, %7
  %12 = and i64 %52, 4294967280
  %13 = getelementptr inbounds nuw double, ptr %1, i64 %12
  %14 = load double, ptr %13, align 8
  %15 = fadd fast double %11, %14
  %16 = or disjoint i64 %52, 14
  %17 = getelementptr inbounds nuw double, ptr %1, i64 %16
  %18 = load double, ptr %17, align 8
  %19 = fadd fast double %15, %18
  %20 = or disjoint i64 %101, %52
  %21 = getelementptr inbounds nuw double, ptr %1, i64 %20
  %22 = load double, ptr %21, align 8
  %23 = fmul fast double %22, -4.000000e+00
  %24 = fadd fast double %19, %23
  %25 = getelementptr inbounds double, ptr %3, i64 %5
  %26 = load double, ptr %25, align 8
  %27 = getelementptr inbounds nuw double, ptr %3, i64 %8
  %28 = load double, ptr %27, align 8
  %29 = getelementptr inbounds nuw double, ptr %3, i64 %12
  %30 = load double, ptr %29, align 8
  %31 = getelementptr inbounds nuw double, ptr %3, i64 %16
  %32 = load double, ptr %31, align 8
  %33 = getelementptr inbounds nuw double, ptr %3, i64 %20
  %34 = load double, ptr %33, align 8
  %35 = fmul fast double %34, %22
  %36 = fadd fast double %24, %35
  %37 = getelementptr inbounds nuw double, ptr %0, i64 %20
  store double %36, ptr %37, align 8
  %38 = fmul fast double %34, -4.000000e+00
  %39 = fadd fast double %28, %26
  %40 = fadd fast double %39, %30
  %41 = fadd fast double %40, %32
  %42 = fsub fast double %41, %35
  %43 = fadd fast double %42, %38
  %44 = getelementptr inbounds nuw i8, ptr %37, i64 2048
  store double %43, ptr %44, align 8
  %45 = icmp eq i64 %50, 16
  br i1 %45, label %46, label %47

46:                                               ; preds = %4
  ret void

47:                                               ; preds = %4, %2
  %48 = phi i64 [ 0, %2 ], [ %50, %4 ]
  %49 = icmp eq i64 %48, 15
  %50 = add nuw nsw i64 %48, 1
  %51 = icmp eq i64 %48, 0
  %52 = shl nuw nsw i64 %48, 4
  %53 = trunc i64 %50 to i32
  %54 = shl i32 %53, 4
  %55 = sext i32 %54 to i64
  %56 = select i1 %49, i64 0, i64 %55
  %57 = shl i64 %48, 36
  %58 = add i64 %57, -68719476736
  %59 = ashr exact i64 %58, 32
  %60 = select i1 %51, i64 240, i64 %59
  %61 = getelementptr inbounds double, ptr %1, i64 %60
  %62 = load double, ptr %61, align 8
  %63 = getelementptr inbounds nuw double, ptr %1, i64 %56
  %64 = load double, ptr %63, align 8
  %65 = fadd fast double %64, %62
  %66 = and i64 %52, 4294967280
  %67 = or disjoint i64 %66, 1
  %68 = getelementptr inbounds nuw double, ptr %1, i64 %67
  %69 = load double, ptr %68, align 8
  %70 = fadd fast double %65, %69
  %71 = or disjoint i64 %52, 15
  %72 = getelementptr inbounds nuw double, ptr %1, i64 %71
  %73 = load double, ptr %72, align 8
  %74 = fadd fast double %70, %73
  %75 = getelementptr inbounds nuw double, ptr %1, i64 %52
  %76 = load double, ptr %75, align 8
  %77 = fmul fast double %76, -4.000000e+00
  %78 = fadd fast double %74, %77
  %79 = getelementptr inbounds double, ptr %3, i64 %60
  %80 = load double, ptr %79, align 8
  %81 = getelementptr inbounds nuw double, ptr %3, i64 %56
  %82 = load double, ptr %81, align 8
  %83 = getelementptr inbounds nuw double, ptr %3, i64 %67
  %84 = load double, ptr %83, align 8
  %85 = getelementptr inbounds nuw double, ptr %3, i64 %71
  %86 = load double, ptr %85, align 8
  %87 = getelementptr inbounds nuw double, ptr %3, i64 %52
  %88 = load double, ptr %87, align 8
  %89 = fmul fast double %88, %76
  %90 = fadd fast double %78, %89
  %91 = getelementptr inbounds nuw double, ptr %0, i64 %52
  store double %90, ptr %91, align 8
  %92 = fmul fast double %88, -4.000000e+00
  %93 = fadd fast double %82, %80
  %94 = fadd fast double %93, %84
  %95 = fadd fast double %94, %86
  %96 = fsub fast double %95, %89
  %97 = fadd fast double %96, %92
  %98 = getelementptr inbounds nuw i8, ptr %91, i64 2048
  store double %97, ptr %98, align 8
  br label %99

99:                                               ; preds = %47, %99
  %100 = phi i64 [ 1, %47 ], [ %101, %99 ]
  %101 = add nuw nsw i64 %100, 1
  %102 = or disjoint i64 %100, %60
  %103 = getelementptr inbounds double, ptr %1, i64 %102
  %104 = load double, ptr %103, align 8
  %105 = or disjoint i64 %100, %56
  %106 = getelementptr inbounds nuw double, ptr %1, i64 %105
  %107 = load double, ptr %106, align 8
  %108 = fadd fast double %107, %104
  %109 = add nuw i64 %101, %52
  %110 = and i64 %109, 4294967295
  %111 = getelementptr inbounds nuw double, ptr %1, i64 %110
  %112 = load double, ptr %111, align 8
  %113 = fadd fast double %108, %112
  %114 = shl i64 %100, 32
  %115 = add nsw i64 %114, -4294967296
  %116 = ashr exact i64 %115, 32
  %117 = add nuw nsw i64 %116, %52
  %118 = getelementptr inbounds double, ptr %1, i64 %117
  %119 = load double, ptr %118, align 8
  %120 = fadd fast double %113, %119
  %121 = or disjoint i64 %100, %52
  %122 = getelementptr inbounds nuw double, ptr %1, i64 %121
  %123 = load double, ptr %122, align 8
  %124 = fmul fast double %123, -4.000000e+00
  %125 = fadd fast double %120, %124
  %126 = getelementptr inbounds double, ptr %3, i64 %102
  %127 = load double, ptr %126, align 8
  %128 = getelementptr inbounds nuw double, ptr %3, i64 %105
  %129 = load double, ptr %128, align 8
  %130 = getelementptr inbounds nuw double, ptr %3, i64 %110
  %131 = load double, ptr %130, align 8
  %132 = getelementptr inbounds double, ptr %3, i64 %117
  %133 = load double, ptr %132, align 8
  %134 = getelementptr inbounds nuw double, ptr %3, i64 %121
  %135 = load double, ptr %134, align 8
  %136 = fmul fast double %135, %123
  %137 = fadd fast double %125, %136
  %138 = getelementptr inbounds nuw double, ptr %0, i64 %121
  store double %137, ptr %138, align 8
  %139 = fmul fast double %135, -4.000000e+00
  %140 = fadd fast double %129, %127
  %141 = fadd fast double %140, %131
  %142 = fadd fast double %141, %133
  %143 = fsub fast double %142, %136
  %144 = fadd fast double %143, %139
  %145 = getelementptr inbounds nuw i8, ptr %138, i64 2048
  store double %144, ptr %145, align 8
  %146 = icmp eq i64 %101, 15
  br i1 %146, label %4, label %99
}

define dso_local void @grad(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3) local_unnamed_addr {
  %5 = load i32, ptr @enzyme_dupnoneed, align 4
  %6 = load i32, ptr @enzyme_dup, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @st, i32 noundef %5, ptr noundef %0, ptr noundef %1, i32 noundef %6, ptr noundef %2, ptr noundef %3)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr


; CHECK-LABEL: define internal void @fz_grad_st(
; CHECK-NOT: {{__fz_push|4294967295}}
; CHECK: {{^}}fz.stream.flush:
; CHECK-NOT: {{__fz_push|4294967295}}
; CHECK: = phi i64 [ 14, %rev.{{[0-9]+}} ]
; CHECK-NEXT: %fz.stream{{[0-9]*}} = phi double
; CHECK-NOT: {{__fz_push|4294967295}}
; CHECK: %fz.stream.old{{[0-9]*}} = load double
; CHECK-NOT: {{__fz_push|4294967295}}
; CHECK: {{^}}}
