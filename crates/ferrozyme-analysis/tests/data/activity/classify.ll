; One call of each kind, for `calls::classify`. Each call's name says what it should be.

define double @helper(double %x) {
entry:
  ret double %x
}

define void @all_kinds(ptr %p, ptr %q, ptr %fp, double %x, float %y, <4 x double> %v, i64 %n) {
entry:
  %slot = alloca double
  %sin = call double @llvm.sin.f64(double %x)
  %fmuladd.v = call <4 x double> @llvm.fmuladd.v4f64(<4 x double> %v, <4 x double> %v, <4 x double> %v)
  %floor = call double @llvm.floor.f64(double %x)
  call void @llvm.lifetime.start.p0(ptr %slot)
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %q, i64 %n, i1 false)
  call void @llvm.memmove.p0.p0.i64(ptr %p, ptr %q, i64 %n, i1 false)
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 %n, i1 false)
  %reduce = call double @llvm.vector.reduce.fadd.v4f64(double 0.0, <4 x double> %v)
  %copysign = call double @llvm.copysign.f64(double %x, double %x)
  %ctpop = call i64 @llvm.ctpop.i64(i64 %n)
  %malloc = call ptr @malloc(i64 %n)
  %new = call ptr @_Znwm(i64 %n)
  %calloc = call ptr @calloc(i64 %n, i64 8)
  %realloc = call ptr @realloc(ptr %malloc, i64 %n)
  call void @free(ptr %realloc)
  call void @_ZdlPv(ptr %new)
  %sinf = call float @sinf(float %y)
  %libm.sin = call double @sin(double %x)
  %printf = call i32 (ptr, ...) @printf(ptr %p, double %x)
  %unknown = call double @mystery(double %x)
  %defined = call double @helper(double %x)
  %indirect = call double %fp(double %x)
  %asm = call double asm "", "=x,0"(double %x)
  ret void
}

declare double @llvm.sin.f64(double)
declare <4 x double> @llvm.fmuladd.v4f64(<4 x double>, <4 x double>, <4 x double>)
declare double @llvm.floor.f64(double)
declare void @llvm.lifetime.start.p0(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare double @llvm.vector.reduce.fadd.v4f64(double, <4 x double>)
declare i64 @llvm.ctpop.i64(i64)
declare double @llvm.copysign.f64(double, double)
declare ptr @malloc(i64)
declare ptr @_Znwm(i64)
declare ptr @calloc(i64, i64)
declare ptr @realloc(ptr, i64)
declare void @free(ptr)
declare void @_ZdlPv(ptr)
declare float @sinf(float)
declare double @sin(double)
declare i32 @printf(ptr, ...)
declare double @mystery(double)
