//! Unit tests of `layout.rs` on a small module: byte offsets of GEPs, trees implied by
//! IR types, and the facts `!tbaa` / `!tbaa.struct` metadata give. Expected offsets are
//! the x86-64 C layout, worked out by hand in the comments of the IR below.

use ferrozyme_llvm::{Module, Value};
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;

use super::*;
use crate::types::BaseType::*;

const IR: &str = r#"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; struct S { int k; double d; float f[3]; double *p; }: k at 0, d at 8, f at 16..27,
; p at 32 (aligned to 8), size 40.
%S = type { i32, double, [3 x float], ptr }

@g = global [4 x %S] zeroinitializer

define void @geps(ptr %s, i64 %i, i32 %j) {
  %d = getelementptr %S, ptr %s, i64 0, i32 1              ; 8
  %f2 = getelementptr %S, ptr %s, i64 0, i32 2, i64 2      ; 16 + 2*4 = 24
  %next = getelementptr %S, ptr %s, i64 1, i32 3           ; 40 + 32 = 72
  %row = getelementptr %S, ptr %s, i64 %i, i32 1           ; 8, stride 40
  %fi = getelementptr %S, ptr %s, i64 0, i32 2, i64 %i     ; 16, stride 4
  %sh = shl i64 %i, 3
  %bytes = getelementptr i8, ptr %s, i64 %sh               ; 0, stride 8
  %j64 = sext i32 %j to i64
  %m = mul i64 %j64, 24
  %bytes24 = getelementptr i8, ptr %s, i64 %m              ; 0, stride 24
  %both = getelementptr [4 x %S], ptr %s, i64 %i, i64 %i   ; 0, strides 160 and 40: gcd 40
  %cexpr = getelementptr i8, ptr getelementptr ([4 x %S], ptr @g, i64 0, i64 2, i32 1), i64 0
  ; rustc's `Vec<f64>` with its zero-sized allocator fields: 24 bytes, stride 24
  %vec = getelementptr { { { i64, ptr, {} }, {} }, i64 }, ptr %s, i64 %i
  %zst = getelementptr {}, ptr %s, i64 %i                  ; zero-sized: does not move
  ret void
}

; odeint's euler stepper: an empty base's byte, a bool inside a member struct, then a
; boost::array<double, 1>; and a byte buffer (std::aligned_storage-like).
%E = type { i8, %R, { [1 x double] } }
%R = type { i8 }
%Buf = type { [16 x i8] }
%Objs = type { [2 x %R] }
; std::function: type-erased storage (a union laid out as a member-function pointer),
; the manager pointer, and a double after it.
%union.any = type { { i64, i64 } }
%Fn = type { %union.any, ptr, double }

define void @bytes() {
  %e = alloca %E
  %buf = alloca %Buf
  %objs = alloca %Objs
  %fn = alloca %Fn
  ret void
}

define void @tbaa(ptr %s, ptr %t) {
  %d = getelementptr %S, ptr %s, i64 0, i32 1
  %x = load double, ptr %d, align 8, !tbaa !6
  %k = load i32, ptr %s, align 4, !tbaa !7
  %q = load ptr, ptr %t, align 8, !tbaa !9
  call void @llvm.memcpy.p0.p0.i64(ptr %t, ptr %s, i64 16, i1 false), !tbaa.struct !11
  ret void
}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

!0 = !{!"Simple C/C++ TBAA"}
!1 = !{!"omnipotent char", !0, i64 0}
!2 = !{!"int", !1, i64 0}
!3 = !{!"double", !1, i64 0}
!4 = !{!"any pointer", !1, i64 0}
; struct S as a TBAA struct type: members int@0, double@8, pointer@32.
!5 = !{!"S", !2, i64 0, !3, i64 8, !4, i64 32}
; Access tags: S.d, S.k, and a plain pointer.
!6 = !{!5, !3, i64 8}
!7 = !{!5, !2, i64 0}
!8 = !{!"p1 double", !4, i64 0}
!9 = !{!8, !8, i64 0}
; memcpy of {int at 0 (4 bytes), double at 8 (8 bytes)}.
!10 = !{!2, !2, i64 0}
!11 = !{i64 0, i64 4, !10, i64 8, i64 8, !12}
!12 = !{!3, !3, i64 0}
"#;

fn with_module(body: impl FnOnce(Module)) {
    let ctx = Context::create();
    let buf = MemoryBuffer::create_from_memory_range_copy(IR.as_bytes(), "layout.ll");
    let m = ctx.create_module_from_ir(buf).expect("the test IR parses");
    body(Module::from_inkwell(&m));
}

fn inst(m: Module, f: &str, name: &str) -> Value {
    m.function(f)
        .expect("function")
        .instructions()
        .find(|i| i.name() == name)
        .unwrap_or_else(|| panic!("no %{name}"))
}

fn offset(m: Module, name: &str) -> (i64, Option<u64>) {
    let g = gep_offset(m, inst(m, "geps", name)).expect("a decomposable GEP");
    (g.constant, g.stride)
}

#[test]
fn gep_offsets_follow_the_c_layout() {
    with_module(|m| {
        assert_eq!(offset(m, "d"), (8, None));
        assert_eq!(offset(m, "f2"), (24, None));
        assert_eq!(offset(m, "next"), (72, None));
        assert_eq!(offset(m, "row"), (8, Some(40)));
        assert_eq!(offset(m, "fi"), (16, Some(4)));
        assert_eq!(
            offset(m, "bytes"),
            (0, Some(8)),
            "i << 3 walks 8-byte elements"
        );
        assert_eq!(offset(m, "bytes24"), (0, Some(24)), "sext(j) * 24");
        assert_eq!(offset(m, "both"), (0, Some(40)), "gcd of 160 and 40");
        // A constant-expression GEP inside the operand: the outer GEP adds nothing.
        assert_eq!(offset(m, "cexpr"), (0, None));
        // Empty structs are sized (0 bytes): a `Vec`'s element type is followable (front16).
        assert_eq!(offset(m, "vec"), (0, Some(24)));
        assert_eq!(offset(m, "zst"), (0, None));
        let inner = inst(m, "geps", "cexpr").operand(0);
        let g = gep_offset(m, inner).expect("constant expressions decompose too");
        assert_eq!((g.constant, g.stride), (2 * 40 + 8, None));
    });
}

#[test]
fn type_trees_and_leaves() {
    with_module(|m| {
        let s = inst(m, "geps", "d").gep_source_type();
        let leaves: Vec<i64> = leaves(m, s).into_iter().map(|(o, _)| o).collect();
        assert_eq!(leaves, vec![0, 8, 16, 20, 24, 32]);
        assert_eq!(size_of(m, s), Some(40));
        let t = type_tree(m, s, true);
        assert_eq!(t.get(0), Integer, "declared storage: an i32 is an integer");
        assert_eq!(t.get(8), Double);
        assert_eq!((t.get(16), t.get(20), t.get(24)), (Float, Float, Float));
        assert_eq!(t.get(32), Pointer);
        // In loaded values an integer may carry float bits: no claim about it.
        assert_eq!(type_tree(m, s, false).get(0), Unknown);
        // An array of one scalar is that scalar at every offset.
        let arr = m.context().array_type(m.context().f64(), 1000);
        assert_eq!(type_tree(m, arr, true).to_string(), "{[-1]:Double}");
    });
}

#[test]
fn byte_fields_are_integers_byte_buffers_are_not() {
    with_module(|m| {
        let ty = |name: &str| inst(m, "bytes", name).allocated_type();
        let e = type_tree(m, ty("e"), true);
        assert_eq!((e.get(0), e.get(1)), (Integer, Integer), "byte fields");
        assert_eq!((e.get(2), e.get(4)), (Integer, Integer), "padding");
        assert_eq!(e.get(8), Double);
        let b = type_tree(m, ty("buf"), true);
        assert_eq!(b.get(0), Unknown, "a [16 x i8] member is untyped storage");
        let o = type_tree(m, ty("objs"), true);
        assert_eq!(
            (o.get(0), o.get(1)),
            (Integer, Integer),
            "structs in an array"
        );
        // Loaded values: no claim.
        assert_eq!(type_tree(m, ty("e"), false).get(0), Unknown);
        // A union's IR type is one member's layout: no claim about its bytes.
        let f = type_tree(m, ty("fn"), true);
        assert_eq!(
            (f.get(0), f.get(4), f.get(8), f.get(12)),
            (Unknown, Unknown, Unknown, Unknown)
        );
        assert_eq!((f.get(16), f.get(24)), (Pointer, Double));
    });
}

#[test]
fn tbaa_tags_name_the_accessed_scalar_and_its_struct() {
    with_module(|m| {
        let kind = m.context().md_kind("tbaa");
        let tag = |name: &str| inst(m, "tbaa", name).metadata(kind).expect("has !tbaa");
        // Loading S.d: the double at offset 8 of S; the other members come along.
        let (tree, at) = tbaa_access_tree(tag("x"));
        assert_eq!(at, 8);
        assert_eq!(tree.get(8), Double);
        assert_eq!(tree.get(0), Integer);
        assert_eq!(tree.get(32), Pointer);
        let (tree, at) = tbaa_access_tree(tag("k"));
        assert_eq!((at, tree.get(0)), (0, Integer));
        let (tree, at) = tbaa_access_tree(tag("q"));
        assert_eq!(
            (at, tree.get(0)),
            (0, Pointer),
            "\"p1 double\" is a pointer"
        );
        assert_eq!(tbaa_name_base("float"), Float);
        assert_eq!(tbaa_name_base("long long"), Integer);
        assert_eq!(
            tbaa_name_base("omnipotent char"),
            Unknown,
            "char says nothing"
        );
    });
}

#[test]
fn tbaa_struct_lists_the_copied_fields() {
    with_module(|m| {
        let kind = m.context().md_kind("tbaa.struct");
        let cp = m
            .function("tbaa")
            .unwrap()
            .instructions()
            .find(|i| i.is_call())
            .expect("the memcpy");
        let md = cp.metadata(kind).expect("has !tbaa.struct");
        assert_eq!(
            tbaa_struct_entries(md),
            vec![(0, 4, Integer), (8, 8, Double)]
        );
    });
}
