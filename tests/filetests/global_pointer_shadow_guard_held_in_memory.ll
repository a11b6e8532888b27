; Decision: a pointer loaded through a pointer that was itself read from memory the
; caller stored a shadowed global's address into (`h->s = &G` in a heap block, then
; `get(h)` reads `h->s->data`) gets the run-time guard of a pointer loaded from the
; global: its shadow (from the global's zero-filled shadow) null while the primal pointer
; is not stops the program with a message naming the global (`@__fz_check_shadow`).
; Why it matters: `G.data` set by `main` has no shadow; the guard followed the global's
; address through parameters only, so stored into a local struct or a heap block first the
; reverse sweep wrote through the null shadow and the program crashed
; (tests/c/673_global_address_in_memory.c; sweep11).
;
; struct S { double *data; int n; };  struct S G;
; struct H { struct S *s; double w; };
; __attribute__((noinline)) double get(struct H *h, int i) { return h->s->data[i]; }
; double f(double x) {
;   struct H *h = malloc(sizeof *h); h->s = &G;
;   double s = 0; for (int i = 0; i < 3; i++) s += get(h, i) * x * x;
;   free(h); return s; }
; double grad(double x) { return __enzyme_autodiff((void *)f, x); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

%struct.S = type { ptr, i32 }

@G = dso_local global %struct.S zeroinitializer, align 8

define dso_local double @get(ptr noundef readonly captures(none) %h, i32 noundef %i) local_unnamed_addr {
entry:
  %0 = load ptr, ptr %h, align 8
  %1 = load ptr, ptr %0, align 8
  %idxprom = sext i32 %i to i64
  %arrayidx = getelementptr inbounds double, ptr %1, i64 %idxprom
  %2 = load double, ptr %arrayidx, align 8
  ret double %2
}

define dso_local double @f(double noundef %x) {
entry:
  %call = tail call noalias dereferenceable_or_null(16) ptr @malloc(i64 noundef 16)
  store ptr @G, ptr %call, align 8
  %call2 = tail call double @get(ptr noundef nonnull %call, i32 noundef 0)
  %mul = fmul double %x, %call2
  %0 = tail call double @llvm.fmuladd.f64(double %mul, double %x, double 0.000000e+00)
  %call2.1 = tail call double @get(ptr noundef nonnull %call, i32 noundef 1)
  %mul.1 = fmul double %x, %call2.1
  %1 = tail call double @llvm.fmuladd.f64(double %mul.1, double %x, double %0)
  %call2.2 = tail call double @get(ptr noundef nonnull %call, i32 noundef 2)
  %mul.2 = fmul double %x, %call2.2
  %2 = tail call double @llvm.fmuladd.f64(double %mul.2, double %x, double %1)
  tail call void @free(ptr noundef nonnull %call)
  ret double %2
}

declare noalias noundef ptr @malloc(i64 noundef) local_unnamed_addr

declare double @llvm.fmuladd.f64(double, double, double)

declare void @free(ptr allocptr noundef captures(none)) local_unnamed_addr

define dso_local double @grad(double noundef %x) local_unnamed_addr {
entry:
  %call = tail call double (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @f, double noundef %x)
  ret double %call
}

declare double @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr

; CHECK: @fz.msg = private constant {{.*}}in `get`: the pointer read from global `G` has no shadow
; CHECK-LABEL: define internal { double, ptr } @fz_aug_get.nest(ptr %h, ptr %h.shadow, i32 %i, ptr %tape, ptr %region)
; CHECK: [[S:%.*]] = load ptr, ptr %h.shadow
; CHECK: [[P:%.*]] = load ptr, ptr %0
; CHECK: [[SS:%.*]] = load ptr, ptr [[S]]
; CHECK: [[NOSH:%.*]] = icmp eq ptr [[SS]], null
; CHECK: [[HASP:%.*]] = icmp ne ptr [[P]], null
; CHECK: [[BAD:%.*]] = and i1 [[NOSH]], [[HASP]]
; CHECK: call void @__fz_check_shadow(i1 [[BAD]], ptr @fz.msg)
