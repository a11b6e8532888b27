; An integer access through a GEP of a `%union.*` type whose field is an `i64` stays
; refused where type analysis merged the memory with a `double`: clang lowers a union to
; one of its members' types, so the field's IR type does not say what the bytes hold
; (tests/filetests/list_size_struct_gep_O0.ll is the same module with a struct type).
; EXPECT-ERROR: cannot-deduce-type
; EXPECT-ERROR: an integer access to differentiable memory whose type is ambiguous

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%"struct.std::__detail::_List_node_base" = type { ptr, ptr }
%"struct.std::__detail::_List_node_header" = type { %"struct.std::__detail::_List_node_base", i64 }
%"struct.std::_List_node" = type { %"struct.std::__detail::_List_node_base", double }
%"union.hdr" = type { %"struct.std::__detail::_List_node_base", i64 }

@enzyme_dup = external global i32, align 4

define void @inc_size(ptr %this, i64 %n) {
entry:
  %sz = getelementptr inbounds %"union.hdr", ptr %this, i32 0, i32 1
  %old = load i64, ptr %sz, align 8
  %new = add i64 %old, %n
  store i64 %new, ptr %sz, align 8
  ret void
}

define double @f(ptr %x) {
entry:
  %h = alloca %"struct.std::__detail::_List_node_header", align 8
  %n = call ptr @malloc(i64 24)
  %x0 = load double, ptr %x, align 8
  %sq = fmul double %x0, %x0
  %nv = getelementptr inbounds %"struct.std::_List_node", ptr %n, i32 0, i32 1
  store double %sq, ptr %nv, align 8
  store ptr %h, ptr %n, align 8
  store ptr %n, ptr %h, align 8
  %hs = getelementptr inbounds %"struct.std::__detail::_List_node_header", ptr %h, i32 0, i32 1
  store i64 0, ptr %hs, align 8
  call void @inc_size(ptr %h, i64 1)
  %first = load ptr, ptr %h, align 8
  br label %loop

loop:
  %p = phi ptr [ %first, %entry ], [ %next, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %loop ]
  %pv = getelementptr inbounds %"struct.std::_List_node", ptr %p, i32 0, i32 1
  %v = load double, ptr %pv, align 8
  %acc.next = fadd double %acc, %v
  %next = load ptr, ptr %p, align 8
  %done = icmp eq ptr %next, %h
  br i1 %done, label %exit, label %loop

exit:
  call void @free(ptr %n)
  ret double %acc.next
}

define void @grad(ptr %x, ptr %dx) {
entry:
  %0 = load i32, ptr @enzyme_dup, align 4
  %call = call double (ptr, ...) @__enzyme_autodiff(ptr @f, i32 %0, ptr %x, ptr %dx)
  ret void
}

declare ptr @malloc(i64)
declare void @free(ptr)
declare double @__enzyme_autodiff(ptr, ...)

; CHECK-LABEL: define internal void @fz_grad_f(
; CHECK: fmul double
