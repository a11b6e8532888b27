; Decision: forward mode guards a pointer read from a global's zero-filled shadow as
; reverse mode does: its tangent (read from the shadow) null while the pointer is not
; stops the program with a message naming the global (`@__fz_check_shadow`), for a load
; from the global itself and for a load through a parameter that may receive the global at
; any call depth (here two: `f` -> `mid(&G)` -> `get(m)` reads `m->data`, global_args.rs).
; Why it matters: `G.data` set by `main` has no shadow; forward mode had no guard and read
; the tangent of `m->data[i]` through the null pointer: a segmentation fault
; (tests/c/660_global_ptr_forward.c, 660_global_ptr_forward_direct.c).
;
; struct S { double *data; int n; };
; struct S G;
; __attribute__((noinline)) double get(struct S *m, int i) { return m->data[i]; }
; __attribute__((noinline)) double mid(struct S *m, int i) { return 2.0 * get(m, i); }
; double f(double x) { return mid(&G, 1) * x * x; }
; double tangent(double x) { return __enzyme_fwddiff((void *)f, x, 1.0); }
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

define dso_local double @tangent(double noundef %x) local_unnamed_addr {
entry:
  %call = tail call double (ptr, ...) @__enzyme_fwddiff(ptr noundef nonnull @f, double noundef %x, double noundef 1.000000e+00)
  ret double %call
}

declare double @__enzyme_fwddiff(ptr noundef, ...) local_unnamed_addr


; CHECK: @fz.msg = private constant {{.*}}in `get`: the pointer read from global `G` has no shadow
; CHECK-LABEL: define internal { double, double } @fz_fwd_mid(ptr %m, ptr %m.d0, i32 %i)
; CHECK-NOT: @__fz_check_shadow
; CHECK-LABEL: define internal { double, double } @fz_fwd_get(ptr %m, ptr %m.d0, i32 %i)
; CHECK: [[P:%.*]] = load ptr, ptr %m
; CHECK: [[T:%.*]] = load ptr, ptr %m.d0
; CHECK: [[NOT:%.*]] = icmp eq ptr [[T]], null
; CHECK: [[HASP:%.*]] = icmp ne ptr [[P]], null
; CHECK: [[BAD:%.*]] = and i1 [[NOT]], [[HASP]]
; CHECK: call void @__fz_check_shadow(i1 [[BAD]], ptr @fz.msg)
