; Calls seen by activity analysis: read-only helpers, libm/intrinsics, printf.

@fmt = private unnamed_addr constant [4 x i8] c"%g\0A\00"

; Read-only: the i32 result cannot carry a derivative.
define i32 @is_positive(ptr %x) memory(read) {
entry:
  %v = load double, ptr %x
  %c = fcmp ogt double %v, 0.0
  %r = zext i1 %c to i32
  ret i32 %r
}

; Read-only too, but the double result does depend on *x.
define double @peek(ptr %x) memory(argmem: read) {
entry:
  %v = load double, ptr %x
  ret double %v
}

; Writes through its argument and returns an integer: the call must stay active.
define i32 @scale(ptr %x) {
entry:
  %v = load double, ptr %x
  %d = fmul double %v, 2.0
  store double %d, ptr %x
  ret i32 0
}

define double @square(double %y) {
entry:
  %r = fmul double %y, %y
  ret double %r
}

define double @caller(ptr %x, double %y) {
entry:
  %n = call i32 @is_positive(ptr %x)
  %d = call double @peek(ptr %x)
  %k = call i32 @scale(ptr %x)
  %q = call double @square(double %y)
  %qc = call double @square(double 2.0)
  %pr = call i32 (ptr, ...) @printf(ptr @fmt, double %y)
  %s = call double @llvm.sin.f64(double %y)
  %sc = call double @llvm.sin.f64(double 1.0)
  %fl = call double @llvm.floor.f64(double %y)
  %e = call double @exp(double %d)
  %u = call double @mystery(double %y)
  call void @llvm.memcpy.p0.p0.i64(ptr %x, ptr %x, i64 8, i1 false)
  %r = fadd double %s, %e
  ret double %r
}

declare i32 @printf(ptr, ...)
declare double @llvm.sin.f64(double)
declare double @llvm.floor.f64(double)
declare double @exp(double)
declare double @mystery(double)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
