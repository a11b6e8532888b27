; Decision: a constant pointer (`%gen`, no shadow) stored into memory that has a
; shadow (the holder `%h`) takes runtime activity (the holder's shadow gets `%gen`
; itself, accesses through it are guarded) unless type analysis' facts cover the whole
; object and find integers only. Here `f`'s facts about `%gen` stop short of the
; engine's field 1 (offset 4992, past `types::MAX_OFFSET`), which `draw` writes and
; whose "adjoint" its reverse clears: with the null shadow the audit used to store, a
; SIGSEGV at run time (tests/cxx/181 at -O0 was the same with `std::mt19937`). The
; object's size comes from the user's `f` (`dereferenceable(5000)`); the clone being
; differentiated keeps only `dereferenceable(1)`. sweep20 found the shape, the lead
; made the audit read the user's function. Written by hand.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
;
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4
@enzyme_const = external global i32, align 4

%Engine = type { [624 x i64], i64 }
%Holder = type { ptr, double }

; The engine's state: integers only, 5000 bytes.
define internal i64 @draw(ptr %e) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc1, %loop ]
  %p = getelementptr inbounds [624 x i64], ptr %e, i64 0, i64 %i
  %v = load i64, ptr %p, align 8
  %acc1 = xor i64 %acc, %v
  store i64 %acc1, ptr %p, align 8
  %i1 = add i64 %i, 1
  %done = icmp eq i64 %i1, 624
  br i1 %done, label %exit, label %loop
exit:
  %pp = getelementptr inbounds %Engine, ptr %e, i64 0, i32 1
  store i64 0, ptr %pp, align 8
  ret i64 %acc1
}

define internal double @sample(ptr %h) {
entry:
  %e = load ptr, ptr %h, align 8
  %r = call i64 @draw(ptr %e)
  %f = uitofp i64 %r to double
  %s = fmul double %f, 0x3DF0000000000000
  ret double %s
}

; y = x * sample(h), the holder (with a shadow) keeping the constant engine's address.
define double @f(ptr %x, ptr dereferenceable(5000) %gen) {
entry:
  %h = alloca %Holder, align 8
  store ptr %gen, ptr %h, align 8
  %x0 = load double, ptr %x, align 8
  %hx = getelementptr inbounds %Holder, ptr %h, i64 0, i32 1
  store double %x0, ptr %hx, align 8
  %u = call double @sample(ptr %h)
  %y = fmul double %x0, %u
  ret double %y
}

define void @grad(ptr %x, ptr %dx, ptr %gen) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %1 = load i32, ptr @enzyme_const, align 4
  %a = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %0, ptr %x, ptr %dx, i32 %1, ptr %gen)
  ret void
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK: store ptr %gen, ptr %h, align 8
; CHECK-NEXT: store ptr %gen, ptr %h.shadow
