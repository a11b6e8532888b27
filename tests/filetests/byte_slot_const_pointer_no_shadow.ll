; Decision: rustc's byte-typed stack slot (`alloca [8 x i8]`) holding only a pointer —
; every store and load through it moves a `ptr`, and the function it is passed to only
; reads it (`readonly`) — is a pointer slot (`activity/copy_slots.rs`): it gets a shadow
; only if a pointer stored into it has one. Here it holds an `enzyme_const` map, so it
; has no shadow and the callee reading the map is not differentiated at all.
; Why it matters: a closure's environment holding `&coeffs` (a `Const` `&HashMap<String,
; f64>` read by `|k| coeffs.get(k)`, not inlined in a Rust debug build) got a shadow, so
; the map pointer loaded from it was "constant or differentiable depending on the run",
; and the hasher's `<2 x i64>` key loads were refused (cannot-deduce-type, rust31:
; tests/rust-probe/src/leftovers31.rs). The base binary gives `%env` a shadow and an
; augmented copy of `@coeff`.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @scaled(ptr %x, ptr %m) {
entry:
  %env = alloca [8 x i8], align 8
  store ptr %m, ptr %env, align 8
  %c = call double @coeff(ptr %env)
  %v = load double, ptr %x, align 8
  %r = fmul double %v, %c
  ret double %r
}

define internal double @coeff(ptr readonly %env) noinline {
entry:
  %p = load ptr, ptr %env, align 8
  %keys = getelementptr inbounds i8, ptr %p, i64 8
  %k = load <2 x i64>, ptr %keys, align 8
  %k0 = extractelement <2 x i64> %k, i64 0
  %hit = icmp eq i64 %k0, 7
  %w = load double, ptr %p, align 8
  %r = select i1 %hit, double %w, double 0.000000e+00
  ret double %r
}

define double @grad(ptr %x, ptr %dx, ptr %m) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @scaled, ptr %x, ptr %dx, metadata !"enzyme_const", ptr %m)
  ret double %d
}

declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_scaled(
; CHECK-NOT: env.shadow
; CHECK-NOT: fz_aug_coeff
; CHECK: {{^}}}
