; Globals: mutable float globals get shadows, constant tables and integers do not;
; functions that (transitively) touch a shadowed global are "global touchers".

@gd = global double 1.0
@gs = global { i32, double } zeroinitializer
@gi = global i32 0
@table = constant [4 x double] [double 1.0, double 2.0, double 3.0, double 4.0]
@gp = global ptr @gd

define double @read_globals(i64 %i) {
entry:
  %g = load double, ptr @gd
  %f = getelementptr inbounds [4 x double], ptr @table, i64 0, i64 %i
  %t = load double, ptr %f
  %s = load double, ptr getelementptr inbounds (i8, ptr @gs, i64 8)
  %n = load i32, ptr @gi
  %tt = fmul double %t, %t
  %r = fadd double %g, %tt
  ret double %r
}

; Writes @gd.
define void @bump(double %d) {
entry:
  %g = load double, ptr @gd
  %s = fadd double %g, %d
  store double %s, ptr @gd
  ret void
}

define void @calls_bump() {
entry:
  call void @bump(double 1.0)
  ret void
}

define void @calls_calls_bump() {
entry:
  call void @calls_bump()
  ret void
}

; Reads the double field of @gs only through a constant expression.
define double @reads_struct_field() {
entry:
  %v = load double, ptr getelementptr inbounds (i8, ptr @gs, i64 8)
  ret double %v
}

define double @reads_table(i64 %i) {
entry:
  %p = getelementptr inbounds [4 x double], ptr @table, i64 0, i64 %i
  %v = load double, ptr %p
  ret double %v
}

define i32 @reads_int() {
entry:
  %v = load i32, ptr @gi
  ret i32 %v
}

define double @calls_table_and_int(i64 %i) {
entry:
  %a = call double @reads_table(i64 %i)
  %b = call i32 @reads_int()
  %c = sitofp i32 %b to double
  %r = fadd double %a, %c
  ret double %r
}

; No active argument, but the callee reads a shadowed global: the result is active.
define double @via_touchers() {
entry:
  call void @calls_bump()
  %v = call double @reads_struct_field()
  %t = call double @reads_table(i64 0)
  ret double %v
}

; @gp holds the address of the shadowed @gd.
define double @through_global_pointer() {
entry:
  %p = load ptr, ptr @gp
  %v = load double, ptr %p
  ret double %v
}

declare double @external_user(ptr)
