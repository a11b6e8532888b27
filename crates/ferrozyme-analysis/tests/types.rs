//! Type analysis on small `.ll` inputs in `tests/data/types/`: one property per test.

mod common;
#[allow(unused_imports)]
use common::{func, val};

use ferrozyme_analysis::types::{BaseType, FpType, TypeAnalysis, TypeTree};
use ferrozyme_llvm::{Module, Value};

fn with_module(file: &str, body: impl FnOnce(Module)) {
    common::with_data_module("types", file, body)
}

fn tree(pairs: &[(i64, BaseType)]) -> TypeTree {
    let mut t = TypeTree::new();
    for (k, b) in pairs {
        t.insert(*k, *b);
    }
    t
}

use BaseType::*;

#[test]
fn double_array_param_is_double_everywhere() {
    with_module("array_param.ll", |m| {
        let f = func(m, "sum");
        let ta = TypeAnalysis::run(m, f);
        let a = val(f, "a");
        assert_eq!(ta.pointee_tree(a), tree(&[(-1, Double)]));
        assert_eq!(ta.value_tree(a).get(0), Pointer);
        assert_eq!(ta.memory_fp_type(a), Some(FpType::F64));
        assert!(!ta.memory_may_hold_pointers(a));
        // The index is an integer because it indexes memory.
        assert_eq!(ta.value_tree(val(f, "i")).get(0), Integer);

        let g = func(m, "first");
        let ta = TypeAnalysis::run(m, g);
        assert_eq!(ta.pointee_tree(val(g, "q")), tree(&[(0, Double)]));
    });
}

#[test]
fn struct_alloca_has_field_offsets() {
    with_module("struct_alloca.ll", |m| {
        let f = func(m, "f");
        let ta = TypeAnalysis::run(m, f);
        let s = val(f, "s");
        // The padding after `int k` counts as integer (it never holds a float).
        assert_eq!(
            ta.pointee_tree(s),
            tree(&[(0, Integer), (4, Integer), (8, Double)])
        );
        assert_eq!(ta.pointee_tree(val(f, "px")), tree(&[(0, Double)]));
        assert_eq!(ta.value_tree(val(f, "k")).get(0), Integer);
    });
}

#[test]
fn i64_load_with_double_tbaa_carries_f64() {
    with_module("tbaa_int_load.ll", |m| {
        let f = func(m, "copy");
        let ta = TypeAnalysis::run(m, f);
        let bits = val(f, "bits");
        assert_eq!(ta.value_tree(bits).get(0), Double);
        assert_eq!(ta.int_carries_fp(bits), Some(FpType::F64));
        // Storing it makes the destination double memory.
        assert_eq!(ta.pointee_tree(val(f, "q")), tree(&[(0, Double)]));
        assert_eq!(ta.memory_fp_type(val(f, "p")), Some(FpType::F64));
    });
}

#[test]
fn i64_load_from_double_memory_is_double_without_tbaa() {
    with_module("tbaa_int_load.ll", |m| {
        let f = func(m, "copy2");
        let ta = TypeAnalysis::run(m, f);
        assert_eq!(ta.int_carries_fp(val(f, "bits")), Some(FpType::F64));
        assert_eq!(ta.memory_fp_type(val(f, "q")), Some(FpType::F64));
        // Half of a double is not a float: nothing to say for the i32 lanes.
        assert_eq!(ta.int_carries_fp(val(f, "w")), None);
    });
}

#[test]
fn memcpy_shares_pointee_between_dst_and_src() {
    with_module("memcpy_float.ll", |m| {
        let f = func(m, "cp");
        let ta = TypeAnalysis::run(m, f);
        assert_eq!(ta.pointee_tree(val(f, "dst")), tree(&[(0, Float)]));
        assert_eq!(ta.memory_fp_type(val(f, "dst")), Some(FpType::F32));
        assert_eq!(ta.value_tree(val(f, "n")), TypeTree::new());

        let g = func(m, "cp2");
        let ta = TypeAnalysis::run(m, g);
        let expect = tree(&[(0, Double), (8, Integer)]);
        assert_eq!(ta.pointee_tree(val(g, "dst")), expect);
        assert_eq!(ta.pointee_tree(val(g, "src")), expect);
    });
}

#[test]
fn argument_type_comes_from_the_callee() {
    with_module("interproc.ll", |m| {
        let f = func(m, "caller");
        let ta = TypeAnalysis::run(m, f);
        assert_eq!(
            ta.pointee_tree(val(f, "x")),
            tree(&[(0, Double), (8, Integer)])
        );
        assert_eq!(ta.memory_fp_type(val(f, "x")), Some(FpType::F64));

        // Upwards too: the caller's caller passes an untyped buffer.
        let outer = func(m, "outer");
        assert_eq!(
            ta.pointee_tree(val(outer, "buf")),
            tree(&[(0, Double), (8, Integer)])
        );
        // Through a returned pointer to a malloc'ed block.
        let ta = TypeAnalysis::run(m, outer);
        assert_eq!(ta.pointee_tree(val(outer, "h")), tree(&[(0, Float)]));
        assert_eq!(ta.value_tree(val(outer, "h")).get(0), Pointer);
    });
}

#[test]
fn enzyme_autodiff_call_leaves_the_differentiated_function_out_of_scope() {
    with_module("autodiff.ll", |m| {
        let main = func(m, "main_like");
        let ta = TypeAnalysis::run(m, main);
        // The function a hook differentiates is analysed from its own side (its clone's
        // analysis); from the caller's side it is not data: the caller's scope does not
        // reach it (a Rust debug build's whole program used to join every derivative's
        // code this way), and the marker call's arguments are not linked to anything.
        let sq = func(m, "square");
        assert_eq!(ta.pointee_tree(val(sq, "x")), TypeTree::new());
        assert_eq!(ta.pointee_tree(val(main, "x")), TypeTree::new());
        // Its own analysis has its facts.
        let ta = TypeAnalysis::run(m, sq);
        assert_eq!(ta.pointee_tree(val(sq, "x")), tree(&[(0, Double)]));
    });
}

#[test]
fn phi_and_select_of_pointers_merge() {
    with_module("phi_ptr.ll", |m| {
        let f = func(m, "pick");
        let ta = TypeAnalysis::run(m, f);
        // %a holds double at 0, %b holds long at 0: the phi sees both → conflict, and
        // the conflict flows back to both incoming pointers.
        let p = val(f, "p");
        assert_eq!(ta.pointee_tree(p).get(0), Anything);
        assert_eq!(ta.pointee_tree(val(f, "a")).get(0), Anything);
        assert_eq!(ta.memory_fp_type(p), None);
        // The select merges %a with %b+8.
        let s = ta.pointee_tree(val(f, "s"));
        assert_eq!(s.get(0), Anything);
    });
}

#[test]
fn phi_of_agreeing_pointers_keeps_the_type() {
    let ir = "define double @g(ptr %a, ptr %b, i1 %c) {\n\
              entry:\n  %x = load double, ptr %a\n  br i1 %c, label %t, label %e\n\
              t:\n  br label %j\ne:\n  br label %j\n\
              j:\n  %p = phi ptr [ %a, %t ], [ %b, %e ]\n  %y = load double, ptr %p\n  ret double %y\n}\n";
    let ctx = inkwell::context::Context::create();
    let buf =
        inkwell::memory_buffer::MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "t");
    let module = ctx.create_module_from_ir(buf).expect("valid IR");
    let m = Module::from_inkwell(&module);
    let f = func(m, "g");
    let ta = TypeAnalysis::run(m, f);
    assert_eq!(ta.pointee_tree(val(f, "b")), tree(&[(0, Double)]));
    assert_eq!(ta.pointee_tree(val(f, "p")), tree(&[(0, Double)]));
}

#[test]
fn float_and_double_at_one_offset_conflict() {
    with_module("conflict.ll", |m| {
        let f = func(m, "both");
        let ta = TypeAnalysis::run(m, f);
        let p = val(f, "p");
        assert_eq!(ta.pointee_tree(p).get(0), Anything);
        assert_eq!(ta.memory_fp_type(p), None);
        assert!(ta.memory_may_hold_pointers(p), "a conflict may be anything");
        // Float at 0 and double at 8 is no conflict, but two float types: ambiguous.
        let q = val(f, "q");
        assert_eq!(ta.pointee_tree(q), tree(&[(0, Float), (8, Double)]));
        assert_eq!(ta.memory_fp_type(q), None);
    });
}

#[test]
fn clang_o2_struct_of_mixed_fields() {
    with_module("mixed_struct.ll", |m| {
        let f = func(m, "energy");
        let ta = TypeAnalysis::run(m, f);
        let ps = f.params()[0];
        let mut expect = tree(&[
            (0, Integer),
            (8, Double),
            (16, Float),
            (24, Pointer),
            // `long steps`: both 4-byte pieces (integer accesses are checked per piece).
            (32, Integer),
            (36, Integer),
        ]);
        // Nested: the pointer at 24 (`pos`) is known to lead to doubles.
        expect.insert_inner(24, &tree(&[(0, Double)]));
        let one_particle = expect.clone();
        // The loop is unrolled by two: the second particle's fields are read at +40..+80
        // from a `nuw` GEP over whole particles, and those facts stay at their own
        // offsets (element 1) instead of folding onto element 0's (sweep13).
        for (k, b) in [
            (40, Integer),
            (48, Double),
            (56, Float),
            (64, Pointer),
            (72, Integer),
            (76, Integer),
        ] {
            expect.insert(k, b);
        }
        assert_eq!(ta.pointee_tree(ps), expect);
        assert!(ta.memory_may_hold_pointers(ps));
        assert_eq!(ta.memory_fp_type(ps), None, "float and double fields");
        // The loaded `pos` pointer points to doubles.
        let pos_loads: Vec<Value> = f
            .instructions()
            .filter(|i| i.ty().is_pointer() && i.opcode() == Some(ferrozyme_llvm::Opcode::LLVMLoad))
            .collect();
        assert!(!pos_loads.is_empty());
        for p in pos_loads {
            assert_eq!(ta.memory_fp_type(p), Some(FpType::F64), "{p}");
        }

        let g = func(m, "step");
        let ta = TypeAnalysis::run(m, g);
        let t = ta.pointee_tree(g.params()[0]);
        assert_eq!(
            t.iter().collect::<Vec<_>>(),
            one_particle.iter().collect::<Vec<_>>()
        );
    });
}

#[test]
fn clang_o2_struct_pointer_field_leads_to_doubles() {
    with_module("mixed_struct.ll", |m| {
        let g = func(m, "step");
        let ta = TypeAnalysis::run(m, g);
        // `step` reads pos[0] and pos[1] through the pointer at offset 24.
        assert_eq!(
            ta.pointee_tree(g.params()[0]).inner(24),
            tree(&[(0, Double), (8, Double)])
        );
    });
}

#[test]
fn print_lists_every_argument_and_instruction() {
    with_module("struct_alloca.ll", |m| {
        let f = func(m, "f");
        let ta = TypeAnalysis::run(m, f);
        let out = ta.print(f);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "type analysis for @f");
        let n_insts = f.instruction_count();
        assert_eq!(lines.len(), 1 + f.params().len() + n_insts, "{out}");
        assert!(
            out.contains(
                "%s = alloca %struct.S, align 8 : ptr {[0]:Integer, [4]:Integer, [8]:Double}"
            ),
            "{out}"
        );
        assert!(
            out.contains("%r = load double, ptr %px, align 8 : {[0]:Double}"),
            "{out}"
        );
        assert!(out.contains("i32 %k : {[0]:Integer}"), "{out}");
    });
}

#[test]
fn terminates_on_recursion_and_pointer_loops() {
    with_module("recursion.ll", |m| {
        let f = func(m, "rec");
        let ta = TypeAnalysis::run(m, f);
        assert!(ta.rounds() <= 20);
        let p = val(f, "p");
        assert_eq!(ta.pointee_tree(p).get(0), Double);
        assert_eq!(ta.memory_fp_type(p), Some(FpType::F64));

        let g = func(m, "walk");
        let ta = TypeAnalysis::run(m, g);
        assert_eq!(ta.pointee_tree(val(g, "a")), tree(&[(-1, Double)]));
        assert_eq!(ta.memory_fp_type(val(g, "b")), Some(FpType::F64));
        assert_eq!(ta.memory_fp_type(val(g, "t")), Some(FpType::F64));
    });
}

#[test]
fn odd_ir_does_not_panic() {
    with_module("odd.ll", |m| {
        let f = func(m, "odd");
        let ta = TypeAnalysis::run(m, f);
        let out = ta.print(f);
        assert!(out.lines().count() > 10);
        // `llvm.ctpop`'s count, through an aggregate (front38: bit counts are integers).
        assert_eq!(ta.value_tree(val(f, "ev")).get(0), Integer);
        assert_eq!(ta.value_tree(val(f, "vl")).get(8), Pointer);
        assert_eq!(ta.pointee_tree(val(f, "big")), tree(&[(-1, Double)]));
        assert_eq!(ta.pointee_tree(val(f, "bg")), tree(&[(-1, Double)]));
    });
}

#[test]
fn display_formats() {
    let t = tree(&[(8, Integer), (0, Double)]);
    assert_eq!(t.to_string(), "{[0]:Double, [8]:Integer}");
    assert_eq!(Anything.to_string(), "Anything");
    // "Every offset" prints last; concrete entries that agree with it are folded in,
    // ones that disagree are conflicts.
    let t = tree(&[(8, Integer), (0, Float), (-1, Float)]);
    assert_eq!(t.to_string(), "{[8]:Anything, [-1]:Float}");
    assert_eq!(t.get(4), Float);
}

#[test]
fn rust_allocator_entry_points_do_not_merge_their_callers() {
    with_module("rust_allocator.ll", |m| {
        let f = func(m, "floats");
        let ta = TypeAnalysis::run(m, f);
        // A realloc returns what its pointer held; the other caller's integers stay out.
        assert_eq!(ta.pointee_tree(val(f, "buf")).get(8), Double);
        assert_eq!(ta.pointee_tree(val(f, "grown")).get(0), Double);
        assert_eq!(ta.memory_fp_type(val(f, "buf")), Some(FpType::F64));
        assert_eq!(ta.memory_fp_type(val(f, "fresh")), Some(FpType::F64));
        let g = func(m, "ints");
        let ta = TypeAnalysis::run(m, g);
        assert_eq!(ta.pointee_tree(val(g, "grown")).get(8), Integer);
        assert!(ta
            .pointee_tree(val(g, "buf"))
            .iter()
            .all(|(_, b)| b == Integer));
    });
}

/// The memcpy calls of `f`, in order.
fn memcpys(f: Value) -> Vec<Value> {
    f.instructions()
        .filter(|i| {
            i.called_function()
                .is_some_and(|c| c.name().starts_with("llvm.memcpy"))
        })
        .collect()
}

#[test]
fn struct_path_access_member_types_an_integer_access() {
    // stl24: `this->_M_size` of std::list's header ({_List_node_header, long, 16}) is an
    // integer whatever the memory's merged facts; a scalar `long` tag (punning) is not
    // taken, nor a member of another width or a `double` member moved as an `i64`.
    with_module("member_typed_accesses.ll", |m| {
        let f = func(m, "tbaa");
        let ta = TypeAnalysis::run(m, f);
        assert_eq!(ta.access_member_type(val(f, "member")), Some(Integer));
        assert_eq!(ta.access_member_type(val(f, "scalar")), None);
        assert_eq!(ta.access_member_type(val(f, "dmember")), Some(Double));
        assert_eq!(ta.access_member_type(val(f, "narrow")), None);
        let store = f.blocks()[0].instructions()[5];
        assert_eq!(ta.access_member_type(store), Some(Integer));
    });
}

#[test]
fn struct_gep_member_types_an_integer_access_at_o0() {
    // stl24: without `!tbaa`, a GEP of a named struct type selecting an `i64` member types
    // an `i64` access; a union's field, a narrower access and a byte offset do not.
    with_module("member_typed_accesses.ll", |m| {
        let f = func(m, "geps");
        let ta = TypeAnalysis::run(m, f);
        assert_eq!(ta.access_member_type(val(f, "size")), Some(Integer));
        assert_eq!(ta.access_member_type(val(f, "narrow")), None);
        assert_eq!(ta.access_member_type(val(f, "usize")), None);
        assert_eq!(ta.access_member_type(val(f, "raw")), None);
    });
}

#[test]
fn copy_of_a_struct_local_is_typed_by_its_members_at_o0() {
    // stl24: a memcpy of exactly a struct local's size moves its members; a partial copy,
    // a byte-array struct and a union local type nothing.
    with_module("member_typed_accesses.ll", |m| {
        let f = func(m, "copies");
        let ta = TypeAnalysis::run(m, f);
        let c = memcpys(f);
        assert_eq!(
            ta.copy_tags(c[0], 24),
            Some(vec![(0, Double), (8, Double), (16, Double)])
        );
        assert_eq!(ta.copy_tags(c[1], 16), None);
        assert_eq!(
            ta.copy_tags(c[2], 16),
            Some(vec![(0, Double), (8, Integer), (12, Float)])
        );
        assert_eq!(ta.copy_tags(c[3], 16), None);
        assert_eq!(ta.copy_tags(c[4], 24), None);
    });
}

#[test]
fn member_array_fill_stays_in_its_array() {
    with_module("member_array_fill.ll", |m| {
        let f = func(m, "setup");
        let ta = TypeAnalysis::run(m, f);
        // `&base[i].pos`: doubles (every offset, as `fill` says), nothing of the members
        // after them.
        let pos = ta.pointee_tree(val(f, "pos"));
        assert_eq!(pos, tree(&[(-1, Double)]));
        // The struct keeps its `int id` at 56 (it became Anything).
        let elem = ta.pointee_tree(val(f, "arrayidx7"));
        for k in [0, 8, 16, 24, 32, 40, 48] {
            assert_eq!(elem.get(k), Double, "offset {k}");
        }
        assert_eq!(elem.get(56), Integer);
        // The flat fill of `fr.m` types all nine doubles of the 2-D member, and `flags`
        // after it stays an integer.
        let fr = m.global("fr").expect("@fr");
        let t = ta.pointee_tree(fr);
        for k in 0..9 {
            assert_eq!(t.get(8 + 8 * k), Double, "m element {k}");
        }
        assert_eq!(t.get(80), Integer);
        assert_eq!(t.get(0), Integer);
        // The callee's parameter: doubles at every offset, no conflict.
        let g = func(m, "fill");
        let tf = TypeAnalysis::run(m, g);
        assert!(!tf.pointee_tree(val(g, "x")).contains(Anything));
    });
}

#[test]
fn counted_index_stays_in_its_elements() {
    with_module("counted_index_own_address.ll", |m| {
        // The cell copied whole keeps its members: the ints of node and kind, the
        // doubles of w and x, nothing conflicting.
        let f = func(m, "assemble");
        let c = func(m, "assemble.clone");
        for (ta, at) in [
            (TypeAnalysis::run(m, f), f),
            (TypeAnalysis::run_for_clone(m, c, Some(f)), c),
        ] {
            let t = ta.pointee_tree(val(at, "t"));
            assert!(!t.contains(Anything), "{t:?}");
            for k in [0, 4, 8, 12, 72] {
                assert_eq!(t.get(k), Integer, "offset {k}: {t:?}");
            }
            for k in (16..72).step_by(8) {
                assert_eq!(t.get(k), Double, "offset {k}: {t:?}");
            }
        }
        // The loop alone writes four ints from its parameter on, not "every offset".
        let g = func(m, "set_four");
        let ta = TypeAnalysis::run(m, g);
        assert_eq!(
            ta.pointee_tree(val(g, "v")),
            tree(&[(0, Integer), (4, Integer), (8, Integer), (12, Integer)])
        );
    });
}

#[test]
fn member_array_pointer_arithmetic_stays_in_its_member() {
    with_module("member_array_pointer_arith.ll", |m| {
        let f = func(m, "use");
        let ta = TypeAnalysis::run(m, f);
        // The local copy keeps its members: the ints of node and kind, the doubles of w
        // and x, nothing conflicting (the int array indexed from offset 0 did not make the
        // whole cell Integer, the doubles of x did not meet kind).
        let t = ta.pointee_tree(val(f, "t"));
        assert!(!t.contains(Anything), "{t:?}");
        for k in [0, 4, 8, 12, 72] {
            assert_eq!(t.get(k), Integer, "offset {k}: {t:?}");
        }
        for k in (16..72).step_by(8) {
            assert_eq!(t.get(k), Double, "offset {k}: {t:?}");
        }
        assert_eq!(ta.pointee_tree(val(f, "xj")).get(0), Double);
        assert_eq!(ta.pointee_tree(val(f, "np")).get(0), Integer);
        // The helper's parameter sees doubles only.
        let g = func(m, "fill");
        let tf = TypeAnalysis::run(m, g);
        assert!(!tf.pointee_tree(val(g, "p")).contains(Anything));
    });
}

#[test]
fn integer_vectors_are_integers_in_every_lane_and_rotates_take_integers() {
    with_module("integer_vector_lanes.ll", |m| {
        let f = func(m, "fill");
        let ta = TypeAnalysis::run(m, f);
        for v in ["k", "ind", "ind.next"] {
            let t = ta.value_tree(val(f, v));
            for lane in 0..4 {
                assert_eq!(t.get(lane * 8), Integer, "%{v} lane {lane}");
            }
        }
        // What the vector store leaves in memory: integers, never an ambiguous type.
        assert_eq!(ta.pointee_tree(val(f, "p")).get(24), Integer);

        let g = func(m, "rot");
        let ta = TypeAnalysis::run(m, g);
        assert_eq!(ta.value_tree(val(g, "a")).get(0), Integer);
        assert_eq!(ta.pointee_tree(val(g, "key")).get(0), Integer);
    });
}
