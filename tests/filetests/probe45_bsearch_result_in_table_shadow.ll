; Decision: `bsearch` (no IR: glibc's inline version is a call at -O0) over a table of the
; program's doubles (a duplicated argument) goes through its built-in rule
; (`custom/search.rs`): the augmented call returns the element found and its shadow, the
; same byte offset into the table's shadow, through which the reverse sweep adds the
; adjoint of the value read from the element. The reverse rule does nothing.
; Why it matters: before probe45 the call was refused ("no derivative for `bsearch`",
; tests/c/1517 and c/738 at -O0); a shadow taken from anything but the table's shadow
; would add the adjoint to the wrong record or through null. Written by hand.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s
; RUN: %ferrozyme opt %s -o - | %FileCheck %s --check-prefix=SHADOW

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external global i32, align 4
@enzyme_const = external global i32, align 4

define internal i32 @cmp(ptr %key, ptr %elt) {
entry:
  %x = load double, ptr %key, align 8
  %k0 = load double, ptr %elt, align 8
  %lt = fcmp olt double %x, %k0
  %gt = fcmp ogt double %x, %k0
  %g = select i1 %gt, i32 1, i32 0
  %r = select i1 %lt, i32 -1, i32 %g
  ret i32 %r
}

; {key, value} records; the value of the record whose key is q, squared.
define double @pick(ptr %tab, double %q) {
entry:
  %slot = alloca double, align 8
  store double %q, ptr %slot, align 8
  %hit = call ptr @bsearch(ptr %slot, ptr %tab, i64 4, i64 16, ptr @cmp)
  %pv = getelementptr inbounds i8, ptr %hit, i64 8
  %v = load double, ptr %pv, align 8
  %r = fmul double %v, %v
  ret double %r
}

define void @grad_dup(ptr %tab, ptr %dtab, double %q) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %a = call double (ptr, ...) @__enzyme_autodiff(ptr @pick, i32 %0, ptr %tab, ptr %dtab, double %q)
  ret void
}

declare ptr @bsearch(ptr, ptr, i64, i64, ptr)
declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal {{.*}} @fz_grad_pick(
; CHECK: [[AUG:%.*]] = call { ptr, ptr, ptr } @fz_aug_bsearch(ptr %slot, ptr %slot.shadow, ptr %tab, ptr %tab.shadow, i64 4, i64 16, ptr @cmp)
; CHECK: [[SH:%.*]] = extractvalue { ptr, ptr, ptr } [[AUG]], 1
; CHECK: [[SHV:%.*]] = getelementptr inbounds i8, ptr [[SH]], i64 8
; CHECK-LABEL: rev.entry:
; CHECK: store double {{.*}}, ptr [[SHV]]
; CHECK: call void @fz_rev_bsearch(

; SHADOW-LABEL: define internal ptr @__fz_search_shadow(
; SHADOW: [[OFF:%.*]] = sub i64 %ri, %bi
; SHADOW: getelementptr i8, ptr %dbase, i64 [[OFF]]
