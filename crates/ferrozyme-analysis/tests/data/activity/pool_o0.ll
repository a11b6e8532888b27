; The shape of tests/c/508 at -O0 (clang-22 -O0 -fno-discard-value-names, a few loads
; renamed): a bump allocator carves `double *` out of a global `char` pool and returns
; it; the caller keeps it in a stack slot. The pool's declared type holds no floats and
; the store of a float into it goes through a slot, so the pool has no shadow of its own:
; a pointer into it is unshadowed yet not constant (`activity/constant_pointers.rs`).
; @g: slots holding a pointer into `enzyme_const` data (through a callee returning its
; argument) and into a constant global stay constant.

@used = dso_local global i32 0, align 4
@pool = dso_local global [1024 x i8] zeroinitializer, align 16
@table = internal constant [4 x double] [double 1.000000e+00, double 2.000000e+00, double 3.000000e+00, double 4.000000e+00], align 16
define dso_local ptr @place(double noundef %x) {
entry:
  %x.addr = alloca double, align 8
  %m = alloca ptr, align 8
  store double %x, ptr %x.addr, align 8
  %0 = load i32, ptr @used, align 4
  %idxprom = sext i32 %0 to i64
  %arrayidx = getelementptr inbounds [1024 x i8], ptr @pool, i64 0, i64 %idxprom
  store ptr %arrayidx, ptr %m, align 8
  %1 = load i32, ptr @used, align 4
  %conv = sext i32 %1 to i64
  %add = add i64 %conv, 8
  %conv1 = trunc i64 %add to i32
  store i32 %conv1, ptr @used, align 4
  %2 = load double, ptr %x.addr, align 8
  %mp = load ptr, ptr %m, align 8
  store double %2, ptr %mp, align 8
  %ret = load ptr, ptr %m, align 8
  ret ptr %ret
}
define dso_local double @f(double noundef %a) {
entry:
  %a.addr = alloca double, align 8
  %t = alloca ptr, align 8
  %u = alloca ptr, align 8
  store double %a, ptr %a.addr, align 8
  store i32 0, ptr @used, align 4
  %0 = load double, ptr %a.addr, align 8
  %call = call ptr @place(double noundef %0)
  store ptr %call, ptr %t, align 8
  %1 = load double, ptr %a.addr, align 8
  %2 = load double, ptr %a.addr, align 8
  %mul = fmul double %1, %2
  %call1 = call ptr @place(double noundef %mul)
  store ptr %call1, ptr %u, align 8
  %tp = load ptr, ptr %t, align 8
  %tv = load double, ptr %tp, align 8
  %5 = load ptr, ptr %u, align 8
  %6 = load double, ptr %5, align 8
  %7 = load ptr, ptr %t, align 8
  %8 = load double, ptr %7, align 8
  %9 = call double @llvm.fmuladd.f64(double %tv, double %6, double %8)
  ret double %9
}
declare double @llvm.fmuladd.f64(double, double, double)
define dso_local ptr @row(ptr noundef %base, i32 noundef %k) {
entry:
  %base.addr = alloca ptr, align 8
  %k.addr = alloca i32, align 4
  store ptr %base, ptr %base.addr, align 8
  store i32 %k, ptr %k.addr, align 4
  %0 = load ptr, ptr %base.addr, align 8
  %1 = load i32, ptr %k.addr, align 4
  %idx.ext = sext i32 %1 to i64
  %add.ptr = getelementptr inbounds double, ptr %0, i64 %idx.ext
  ret ptr %add.ptr
}
define dso_local double @g(double noundef %a, ptr noundef %c) {
entry:
  %a.addr = alloca double, align 8
  %c.addr = alloca ptr, align 8
  %p = alloca ptr, align 8
  %q = alloca ptr, align 8
  store double %a, ptr %a.addr, align 8
  store ptr %c, ptr %c.addr, align 8
  %0 = load ptr, ptr %c.addr, align 8
  %call = call ptr @row(ptr noundef %0, i32 noundef 1)
  store ptr %call, ptr %p, align 8
  store ptr getelementptr inbounds ([4 x double], ptr @table, i64 0, i64 2), ptr %q, align 8
  %1 = load double, ptr %a.addr, align 8
  %pp = load ptr, ptr %p, align 8
  %pv = load double, ptr %pp, align 8
  %mul = fmul double %1, %pv
  %qp = load ptr, ptr %q, align 8
  %qv = load double, ptr %qp, align 8
  %mul1 = fmul double %mul, %qv
  ret double %mul1
}
