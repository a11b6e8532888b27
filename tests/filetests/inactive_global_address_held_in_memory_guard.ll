; Decision: a pointer read back from memory the caller stored the address of a global
; declared inactive into (`h->s = &G` in a heap block, `G` in __enzyme_inactive_global;
; `get(h)` reads `h->s->data[i]`) is guarded where it is loaded: its shadow is null (an
; inactive global has none) while the pointer is not, so the program stops with a message
; naming the global and advising enzyme_const (`@__fz_check_shadow`), before the shadow of
; `h->s->data` is read through the null pointer. A pointer used only to read integers
; (`cnt` reads `h->s->n`) is not guarded. `&G` is not used as its own shadow: activity
; does not know the pointer read back is G's, so the reverse sweep would add the
; adjoints of `data[i]` into G's own data.
; Why it matters: the program crashed (SIGSEGV) at every level (tests/c/674; sweep11).
;
; struct S { double *data; int n; };  struct S G;
; void *__enzyme_inactive_global[] = {(void *)&G};
; struct H { struct S *s; double w; };
; __attribute__((noinline)) int cnt(struct H *h) { return h->s->n; }
; __attribute__((noinline)) double get(struct H *h, int i) { return h->s->data[i]; }
; double f(double x) {
;   struct H *h = malloc(sizeof *h); h->s = &G;
;   double s = 0; for (int i = 0; i < 3; i++) s += get(h, i) * x * x;
;   s *= cnt(h); free(h); return s; }
; double grad(double x) { return __enzyme_autodiff((void *)f, x); }
; (clang-22 -O2, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
%struct.S = type { ptr, i32 }

@G = dso_local global %struct.S zeroinitializer, align 8
@__enzyme_inactive_global = dso_local local_unnamed_addr global [1 x ptr] [ptr @G], align 8

define dso_local i32 @cnt(ptr noundef readonly captures(none) %h) local_unnamed_addr {
entry:
  %0 = load ptr, ptr %h, align 8
  %n = getelementptr inbounds nuw i8, ptr %0, i64 8
  %1 = load i32, ptr %n, align 8
  ret i32 %1
}

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
  %call = tail call dereferenceable_or_null(16) ptr @malloc(i64 noundef 16)
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
  %call4 = tail call i32 @cnt(ptr noundef nonnull %call)
  %conv = sitofp i32 %call4 to double
  %mul5 = fmul double %2, %conv
  tail call void @free(ptr noundef nonnull %call)
  ret double %mul5
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

; CHECK: @fz.msg = private constant {{.*}}in `get`: the pointer read here is the address of global `G`, declared inactive (__enzyme_inactive_global){{.*}}enzyme_const
; CHECK-LABEL: define internal { double, ptr } @fz_aug_get.nest(ptr %h, ptr %h.shadow, i32 %i, ptr %tape, ptr %region)
; CHECK: [[P:%.*]] = load ptr, ptr %h
; CHECK: [[S:%.*]] = load ptr, ptr %h.shadow
; CHECK: [[NOSH:%.*]] = icmp eq ptr [[S]], null
; CHECK: [[HASP:%.*]] = icmp ne ptr [[P]], null
; CHECK: [[BAD:%.*]] = and i1 [[NOSH]], [[HASP]]
; CHECK: call void @__fz_check_shadow(i1 [[BAD]], ptr @fz.msg)
; CHECK: load ptr, ptr [[S]]
; CHECK-LABEL: define internal { i32, ptr } @fz_aug_cnt.nest(
; CHECK-NOT: __fz_check_shadow
; CHECK: ret { i32, ptr }
