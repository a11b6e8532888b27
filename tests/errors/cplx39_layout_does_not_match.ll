; EXPECT-ERROR: bad-autodiff-call
; EXPECT-ERROR: the clang plugin's description of this call's arguments (`.fzargs.2`) does not match its 3 operands
; A hook whose name carries the clang plugin's description of its arguments
; (`.fzargs.<digits>`, request/reader/two_part.rs) that does not account for the call's
; operands (here one two-operand value for three doubles): an error, never a guess at
; which operands belong together.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define double @f(double %x, double %y) {
entry:
  %m = fmul double %x, %y
  ret double %m
}

define double @caller(double %re, double %im, double %d) {
entry:
  %t = call double (ptr, ...) @__enzyme_fwddiff.fzargs.2(ptr @f, double %re, double %im, double %d)
  ret double %t
}

declare double @__enzyme_fwddiff.fzargs.2(ptr, ...)
