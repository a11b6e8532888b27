; Decision: a constant operand with undef/poison elements is used in the reverse sweep with
; those elements zero (reverse/values.rs fetch_key, Value::defined_constant: a valid
; refinement). The primal drops such lanes (`fmul %x, <3.0, poison>` whose lane 1 no
; shuffle reads), but a partial built from the constant as it is multiplied the dropped
; lane's zero adjoint by poison, and the poison reached the operand's adjoint: Eigen's
; 3x3 products at -O3 carry such constants, and cxx/143 got a silently wrong dq[0]
; (-0.928 against -1.115) before this.
;
; RUN: %ferrozyme opt %s -o - | %FileCheck %s

; CHECK-LABEL: define internal void @fz_grad_lane0(
; CHECK: {{^}}rev.entry:
; CHECK-NOT: poison
; CHECK: fmul <2 x double> %{{.*}}, <double 3.000000e+00, double 0.000000e+00>
; CHECK-NOT: poison
; CHECK: ret void

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@enzyme_dup = external local_unnamed_addr global i32, align 4

define dso_local double @lane0(ptr noundef readonly %p) {
entry:
  %x = load <2 x double>, ptr %p, align 16
  %m = fmul <2 x double> %x, <double 3.000000e+00, double poison>
  %s = shufflevector <2 x double> %m, <2 x double> poison, <2 x i32> zeroinitializer
  %y = fadd <2 x double> %s, %x
  %r = extractelement <2 x double> %y, i64 1
  ret double %r
}

define dso_local void @grad(ptr noundef %p, ptr noundef %dp) local_unnamed_addr {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  tail call void (ptr, ...) @__enzyme_autodiff(ptr noundef nonnull @lane0, i32 noundef %0, ptr noundef %p, ptr noundef %dp)
  ret void
}

declare void @__enzyme_autodiff(ptr noundef, ...) local_unnamed_addr
