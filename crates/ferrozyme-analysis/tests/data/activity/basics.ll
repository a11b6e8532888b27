; Hand-written inputs for activity analysis, one idea per function. The tests pick
; the argument activities; comments say what each function is for.

; x[i]: active with x Dup, inactive with x Const.
define double @load_gep(ptr %x, i64 %i) {
entry:
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  %k = load i64, ptr %p
  ret double %v
}

; Float arithmetic on an Active x; integers and values from integers stay inactive.
define double @arith(double %x, i32 %n) {
entry:
  %sq = fmul double %x, %x
  %nf = sitofp i32 %n to double
  %nn = fmul double %nf, %nf
  %r = fadd double %sq, %nn
  %neg = fneg double %r
  %h = fptrunc double %neg to float
  %back = fpext float %h to double
  %m = mul i32 %n, %n
  %k = add i32 %m, 1
  %bits = bitcast double %x to i64
  %ci = fptosi double %x to i32
  %cmp = fcmp olt double %x, 0.0
  ret double %back
}

; Vectors and aggregates of floats carry activity through element operations.
define double @vectors(double %x) {
entry:
  %v0 = insertelement <2 x double> zeroinitializer, double %x, i64 0
  %v1 = fmul <2 x double> %v0, <double 2.0, double 3.0>
  %sh = shufflevector <2 x double> %v1, <2 x double> poison, <2 x i32> <i32 1, i32 0>
  %e = extractelement <2 x double> %sh, i64 1
  %c = extractelement <2 x double> <double 1.0, double 2.0>, i64 0
  %s0 = insertvalue { double, i64 } poison, double %e, 0
  %s1 = insertvalue { double, i64 } %s0, i64 7, 1
  %f = extractvalue { double, i64 } %s1, 0
  %i = extractvalue { double, i64 } %s1, 1
  ret double %f
}

; A phi or select of an active and a constant value is active.
define double @phi_mix(i1 %c, double %x) {
entry:
  br i1 %c, label %then, label %join

then:
  %y = fmul double %x, 2.0
  br label %join

join:
  %p = phi double [ %y, %then ], [ 0.0, %entry ]
  %q = phi double [ 1.0, %then ], [ 0.0, %entry ]
  %s = select i1 %c, double %x, double 3.0
  %t = select i1 %c, double 4.0, double 3.0
  ret double %p
}

; The active value reaches the phi through the back edge, defined after the phi.
define double @loop_phi(double %x, i32 %n) {
entry:
  br label %loop

loop:
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %loop ]
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc.next = fadd double %acc, %x
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret double %acc.next
}

; pp is a Dup double**: the loaded pointer is shadowed, the double behind it active.
define double @pointer_chase(ptr %pp) {
entry:
  %p = load ptr, ptr %pp
  %q = getelementptr inbounds double, ptr %p, i64 1
  %v = load double, ptr %q
  %pair = load { ptr, double }, ptr %pp
  ret double %v
}

; Pointer phis and selects are shadowed when any incoming pointer is.
define double @pointer_merge(i1 %c, ptr %a, ptr %b) {
entry:
  br i1 %c, label %then, label %join

then:
  br label %join

join:
  %p = phi ptr [ %a, %then ], [ %b, %entry ]
  %s = select i1 %c, ptr %b, ptr %b
  %v = load double, ptr %p
  %w = load double, ptr %s
  ret double %v
}

; Allocations: float/pointer stack slots and heap blocks get shadows, int slots do not.
define double @allocs(double %x) {
entry:
  %buf = alloca [4 x double]
  %cnt = alloca i32
  %ints = alloca [4 x i32]
  %slot = alloca ptr
  %pair = alloca { i32, float }
  %h = call ptr @malloc(i64 32)
  store double %x, ptr %buf
  %v = load double, ptr %buf
  %c = load i32, ptr %cnt
  %w = load double, ptr %h
  call void @free(ptr %h)
  %r = fadd double %v, %w
  ret double %r
}

declare ptr @malloc(i64)
declare void @free(ptr)

; An untyped byte buffer (what __builtin_alloca gives) that holds a double.
define double @byte_buffer(double %x) {
entry:
  %buf = alloca i8, i64 16, align 16
  store double %x, ptr %buf
  %v = load double, ptr %buf
  ret double %v
}
