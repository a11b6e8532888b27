; Decision: the run-time guard on a pointer read from a global's zero-filled shadow also
; covers a load, two calls down, through a parameter that receives the global from its
; caller's parameter (`f` calls `mid(&G)`, `mid(m)` calls `get(m)`, `get` reads `m->data`):
; `global_args.rs` follows (function, parameter) pairs backwards over the call graph to a
; fixed point, so `get`'s augmented forward stops with a message naming `G` when the
; shadow is null and the pointer is not (`@__fz_check_shadow`). `mid` reads no pointer
; through its parameter and gets no check.
; Why it matters: `G.data` set by `main` has no shadow; only callees of a call passing the
; global itself were guarded, so two calls down the reverse sweep wrote adjoints through
; the null shadow and crashed, or at -O2 gave a wrong number
; (tests/c/660_global_ptr_two_levels.c).
;
; struct S { double *data; int n; };
; struct S G;
; __attribute__((noinline)) double get(struct S *m, int i) { return m->data[i]; }
; __attribute__((noinline)) double mid(struct S *m, int i) { return 2.0 * get(m, i); }
; double f(double x) { return mid(&G, 1) * x * x; }
; double grad(double x) { return __enzyme_autodiff((void *)f, x); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

%struct.S = type { ptr, i32 }

@G = dso_local global %struct.S zeroinitializer, align 8

define dso_local double @get(ptr noundef readonly captures(none) %m, i32 noundef %i) local_unnamed_addr {
entry:
  %0 = load ptr, ptr %m, align 8
  %idxprom = sext i32 %i to i64
  %arrayidx = getelementptr inbounds double, ptr %0, i64 %idxprom
  %1 = load double, ptr %arrayidx, align 8
  ret double %1
}

define dso_local double @mid(ptr noundef readonly captures(none) %m, i32 noundef %i) local_unnamed_addr {
entry:
  %call = tail call double @get(ptr noundef %m, i32 noundef %i)
  %mul = fmul double %call, 2.000000e+00
  ret double %mul
}

define dso_local double @f(double noundef %x) {
entry:
  %call = tail call double @mid(ptr noundef nonnull @G, i32 noundef 1)
  %mul = fmul double %x, %call
  %mul1 = fmul double %x, %mul
  ret double %mul1
}

define dso_local double @grad(double noundef %x) local_unnamed_addr {
entry:
  %call = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @f, double noundef %x)
  ret double %call
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr


; CHECK: @fz.msg = private constant {{.*}}in `get`: the pointer read from global `G` has no shadow
; CHECK-NOT: @fz.msg{{.*}} = private constant {{.*}}in `mid`
; CHECK-LABEL: define internal { double, ptr } @fz_aug_mid.nest(ptr %m, ptr %m.shadow, i32 %i, ptr %tape, ptr %region)
; CHECK-NOT: @__fz_check_shadow
; CHECK-LABEL: define internal { double, ptr } @fz_aug_get.nest(ptr %m, ptr %m.shadow, i32 %i, ptr %tape, ptr %region)
; CHECK: [[P:%.*]] = load ptr, ptr %m
; CHECK: [[S:%.*]] = load ptr, ptr %m.shadow
; CHECK: [[NOSH:%.*]] = icmp eq ptr [[S]], null
; CHECK: [[HASP:%.*]] = icmp ne ptr [[P]], null
; CHECK: [[BAD:%.*]] = and i1 [[NOSH]], [[HASP]]
; CHECK: call void @__fz_check_shadow(i1 [[BAD]], ptr @fz.msg)
