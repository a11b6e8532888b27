; EXPECT-ERROR: malformed-ir
; Garbage IR: the harness runs `ferrozyme opt malformed.ll -o out.ll`.
define double @f(double %x) {
entry:
  %y = fmul double %x, %undefined_value
  %z = frobnicate double %y 42
  ret i32 %z
