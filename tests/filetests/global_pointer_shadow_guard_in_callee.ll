; Decision: in a callee, a pointer loaded through a parameter that a call site passes a
; shadowed global holding pointers for (`get(&G, i)` with `struct S { double *data; int n; }
; G`) gets the same run-time guard as a pointer loaded from the global itself: its shadow
; (read from the global's zero-filled shadow) null while the primal pointer is not stops
; the program with a message naming the global (`@__fz_check_shadow`), before the reverse
; sweep would add adjoints through it.
; Why it matters: `G.data` set by `main` has no shadow; the guard covered only loads whose
; address is the global, so through a helper the reverse sweep wrote through the null
; shadow and the program crashed (tests/c/656_global_struct_pointer_callee.c).
;
; struct S { double *data; int n; };
; struct S G;
; __attribute__((noinline)) double get(struct S *s, int i) { return s->data[i]; }
; double f(double x) { return get(&G, 1) * x * x; }
; double grad(double x) { return __enzyme_autodiff((void *)f, x); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

%struct.S = type { ptr, i32 }

@G = dso_local global %struct.S zeroinitializer, align 8

define dso_local double @get(ptr noundef readonly captures(none) %0, i32 noundef %1) local_unnamed_addr {
  %3 = load ptr, ptr %0, align 8
  %4 = sext i32 %1 to i64
  %5 = getelementptr inbounds double, ptr %3, i64 %4
  %6 = load double, ptr %5, align 8
  ret double %6
}

define dso_local double @f(double noundef %0) {
  %2 = tail call double @get(ptr noundef nonnull @G, i32 noundef 1)
  %3 = fmul double %0, %2
  %4 = fmul double %0, %3
  ret double %4
}

define dso_local double @grad(double noundef %0) local_unnamed_addr {
  %2 = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @f, double noundef %0)
  ret double %2
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

; CHECK: @fz.msg = private constant {{.*}}in `get`: the pointer read from global `G` has no shadow
; CHECK-LABEL: define internal { double, ptr } @fz_aug_get.nest(ptr %0, ptr %.shadow, i32 %1, ptr %tape, ptr %region)
; CHECK: [[P:%.*]] = load ptr, ptr %0
; CHECK: [[S:%.*]] = load ptr, ptr %.shadow
; CHECK: [[NOSH:%.*]] = icmp eq ptr [[S]], null
; CHECK: [[HASP:%.*]] = icmp ne ptr [[P]], null
; CHECK: [[BAD:%.*]] = and i1 [[NOSH]], [[HASP]]
; CHECK: call void @__fz_check_shadow(i1 [[BAD]], ptr @fz.msg)
