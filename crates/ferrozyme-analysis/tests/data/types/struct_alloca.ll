%struct.S = type { i32, double }

define double @f(i32 %k, double %v) {
  %s = alloca %struct.S, align 8
  store i32 %k, ptr %s, align 8
  %px = getelementptr inbounds %struct.S, ptr %s, i64 0, i32 1
  store double %v, ptr %px, align 8
  %r = load double, ptr %px, align 8
  ret double %r
}
