; Decision: a pointer read from a global the user declared inactive (`G.b`, `G` in
; __enzyme_inactive_global) and kept in a stack slot at -O0 (an iterator `it i; i.p =
; G.b;` moved by `next(&i)` and read by `deref(&i)`) is provably constant, so the slot
; gets no shadow and the helpers are called as they are (the read value is a constant
; times x). Before, the slot had a shadow holding null (an inactive global has none),
; and the augmented `deref` read `*i->p`'s shadow through it: SIGSEGV at run time.
; Why it matters: C++ range-for over a global std::vector declared inactive crashed at
; -O0 the same way (tests/cxx/506, probe43).
;
; struct V { double *b, *e; };  struct V G;
; void *__enzyme_inactive_global[] = {(void *)&G};
; typedef struct { double *p; } it;
; double deref(it *i) { return *i->p; }
; void next(it *i) { i->p++; }
; double f(double x) {
;   it i; i.p = G.b; double s = 0;
;   for (; i.p != G.e; next(&i)) s += deref(&i) * x;
;   return s; }
; double grad(double x) { return __enzyme_autodiff((void *)f, x); }
; (clang-22 -O0, attributes and metadata removed)
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; CHECK-LABEL: define internal { double } @fz_grad_f(
; CHECK-NOT: shadow
; CHECK: call double @deref(ptr noundef %i)
; CHECK-NOT: shadow
; CHECK: call void @next(ptr noundef %i)
; CHECK-NOT: shadow
; CHECK: ret { double }
%struct.V = type { ptr, ptr }
%struct.it = type { ptr }

@G = dso_local global %struct.V zeroinitializer, align 8
@__enzyme_inactive_global = dso_local global [1 x ptr] [ptr @G], align 8

define dso_local double @deref(ptr noundef %i) {
entry:
  %i.addr = alloca ptr, align 8
  store ptr %i, ptr %i.addr, align 8
  %0 = load ptr, ptr %i.addr, align 8
  %p = getelementptr inbounds nuw %struct.it, ptr %0, i32 0, i32 0
  %1 = load ptr, ptr %p, align 8
  %2 = load double, ptr %1, align 8
  ret double %2
}

define dso_local void @next(ptr noundef %i) {
entry:
  %i.addr = alloca ptr, align 8
  store ptr %i, ptr %i.addr, align 8
  %0 = load ptr, ptr %i.addr, align 8
  %p = getelementptr inbounds nuw %struct.it, ptr %0, i32 0, i32 0
  %1 = load ptr, ptr %p, align 8
  %incdec.ptr = getelementptr inbounds nuw double, ptr %1, i32 1
  store ptr %incdec.ptr, ptr %p, align 8
  ret void
}

define dso_local double @f(double noundef %x) {
entry:
  %x.addr = alloca double, align 8
  %i = alloca %struct.it, align 8
  %s = alloca double, align 8
  store double %x, ptr %x.addr, align 8
  %0 = load ptr, ptr @G, align 8
  %p = getelementptr inbounds nuw %struct.it, ptr %i, i32 0, i32 0
  store ptr %0, ptr %p, align 8
  store double 0.000000e+00, ptr %s, align 8
  br label %for.cond

for.cond:                                         ; preds = %for.inc, %entry
  %p1 = getelementptr inbounds nuw %struct.it, ptr %i, i32 0, i32 0
  %1 = load ptr, ptr %p1, align 8
  %2 = load ptr, ptr getelementptr inbounds nuw (%struct.V, ptr @G, i32 0, i32 1), align 8
  %cmp = icmp ne ptr %1, %2
  br i1 %cmp, label %for.body, label %for.end

for.body:                                         ; preds = %for.cond
  %call = call double @deref(ptr noundef %i)
  %3 = load double, ptr %x.addr, align 8
  %4 = load double, ptr %s, align 8
  %5 = call double @llvm.fmuladd.f64(double %call, double %3, double %4)
  store double %5, ptr %s, align 8
  br label %for.inc

for.inc:                                          ; preds = %for.body
  call void @next(ptr noundef %i)
  br label %for.cond

for.end:                                          ; preds = %for.cond
  %6 = load double, ptr %s, align 8
  ret double %6
}

declare double @llvm.fmuladd.f64(double, double, double)

define dso_local double @grad(double noundef %x) {
entry:
  %x.addr = alloca double, align 8
  store double %x, ptr %x.addr, align 8
  %0 = load double, ptr %x.addr, align 8
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr noundef @f, double noundef %0)
  ret double %call
}

declare double @__enzyme_autodiff(ptr noundef, ...)

