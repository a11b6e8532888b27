//! Activity analysis on small `.ll` inputs in `tests/data/activity/`: hand-written
//! functions (`basics.ll`, `calls.ll`, `globals.ll`) and clang-22 output at -O0/-O2.
//! One property per test; the tests choose each argument's activity.

mod common;
#[allow(unused_imports)]
use common::{func, val};

use ferrozyme_analysis::hash::HashSet;

use ferrozyme_analysis::activity::{
    functions_touching_shadowed_globals, global_needs_shadow, is_readonly_function, Activity,
    ActivityInput, ArgActivity,
};
use ferrozyme_llvm::{Module, Value};

use ArgActivity::{Active, Const, Dup};

fn with_module(file: &str, body: impl FnOnce(Module)) {
    common::with_data_module("activity", file, body)
}

/// The `n`-th (0-based) instruction with opcode `op` in `f`, for unnamed clang values.
fn nth_op(f: Value, op: ferrozyme_llvm::Opcode, n: usize) -> Value {
    f.instructions()
        .filter(|i| i.opcode() == Some(op))
        .nth(n)
        .unwrap_or_else(|| panic!("no {op:?} #{n} in @{}", f.name()))
}

/// Runs the analysis on `@name` with the given argument activities and the module's
/// global touchers.
fn run(m: Module, name: &str, args: &[ArgActivity]) -> (Value, Activity, HashSet<Value>) {
    let f = func(m, name);
    let touchers = functions_touching_shadowed_globals(m);
    let a = Activity::run(&ActivityInput {
        func: f,
        args,
        global_touchers: &touchers,
    });
    (f, a, touchers)
}

/// Asserts the named values of `f` are active (`want` true) or not.
fn check_active(f: Value, a: &Activity, want: bool, names: &[&str]) {
    for n in names {
        assert_eq!(a.is_active(val(f, n)), want, "%{n} active? {}", a.print(f));
    }
}

fn check_shadowed(f: Value, a: &Activity, want: bool, names: &[&str]) {
    for n in names {
        assert_eq!(
            a.is_shadowed(val(f, n)),
            want,
            "%{n} shadowed? {}",
            a.print(f)
        );
    }
}

#[test]
fn load_through_dup_pointer_is_active() {
    with_module("basics.ll", |m| {
        let (f, a, _) = run(m, "load_gep", &[Dup, Const]);
        check_shadowed(f, &a, true, &["x", "p"]);
        check_active(f, &a, true, &["v"]);
        // An integer loaded from the same memory is not.
        check_active(f, &a, false, &["k", "i", "x", "p"]);
        check_shadowed(f, &a, false, &["v", "k", "i"]);
    });
}

#[test]
fn load_through_const_pointer_is_inactive() {
    with_module("basics.ll", |m| {
        let (f, a, _) = run(m, "load_gep", &[Const, Const]);
        check_shadowed(f, &a, false, &["x", "p"]);
        check_active(f, &a, false, &["v"]);
        assert!(a.active.is_empty() && a.shadowed.is_empty());
    });
}

#[test]
fn float_chain_from_active_arg() {
    with_module("basics.ll", |m| {
        let (f, a, _) = run(m, "arith", &[Active, Const]);
        check_active(f, &a, true, &["x", "sq", "r", "neg", "h", "back"]);
        // sitofp starts a constant; integers are never active.
        check_active(
            f,
            &a,
            false,
            &["n", "nf", "nn", "m", "k", "bits", "ci", "cmp"],
        );
    });
}

#[test]
fn const_float_arg_makes_nothing_active() {
    with_module("basics.ll", |m| {
        let (_, a, _) = run(m, "arith", &[Const, Const]);
        assert!(a.active.is_empty());
        // Activities that do not fit the type are ignored: Active on an i32.
        let (_, a, _) = run(m, "arith", &[Const, Active]);
        assert!(a.active.is_empty());
    });
}

#[test]
fn vectors_and_aggregates() {
    with_module("basics.ll", |m| {
        let (f, a, _) = run(m, "vectors", &[Active]);
        check_active(f, &a, true, &["v0", "v1", "sh", "e", "s0", "s1", "f"]);
        check_active(f, &a, false, &["c", "i"]);
    });
}

#[test]
fn phi_and_select_of_active_and_constant() {
    with_module("basics.ll", |m| {
        let (f, a, _) = run(m, "phi_mix", &[Const, Active]);
        check_active(f, &a, true, &["y", "p", "s"]);
        check_active(f, &a, false, &["q", "t", "c"]);
    });
}

#[test]
fn loop_carried_phi_reaches_fixed_point() {
    with_module("basics.ll", |m| {
        let (f, a, _) = run(m, "loop_phi", &[Active, Const]);
        check_active(f, &a, true, &["acc", "acc.next"]);
        check_active(f, &a, false, &["i", "i.next", "done"]);
    });
}

#[test]
fn pointer_loaded_from_shadowed_memory_is_shadowed() {
    with_module("basics.ll", |m| {
        let (f, a, _) = run(m, "pointer_chase", &[Dup]);
        check_shadowed(f, &a, true, &["pp", "p", "q", "pair"]);
        check_active(f, &a, true, &["v", "pair"]);
        check_active(f, &a, false, &["p", "q"]);

        let (f, a, _) = run(m, "pointer_chase", &[Const]);
        check_shadowed(f, &a, false, &["p", "q", "pair"]);
        check_active(f, &a, false, &["v", "pair"]);
    });
}

#[test]
fn pointer_phi_and_select() {
    with_module("basics.ll", |m| {
        let (f, a, _) = run(m, "pointer_merge", &[Const, Const, Dup]);
        check_shadowed(f, &a, true, &["p", "s"]);
        check_active(f, &a, true, &["v", "w"]);

        let (f, a, _) = run(m, "pointer_merge", &[Const, Dup, Const]);
        check_shadowed(f, &a, true, &["p"]);
        check_shadowed(f, &a, false, &["s"]);
        check_active(f, &a, true, &["v"]);
        check_active(f, &a, false, &["w"]);
    });
}

#[test]
fn allocations() {
    with_module("basics.ll", |m| {
        let (f, a, _) = run(m, "allocs", &[Const]);
        // Stack slots holding floats, and heap blocks, get shadows.
        check_shadowed(f, &a, true, &["buf", "pair", "h"]);
        // A slot holding only pointers gets one only once a pointer with a shadow is
        // stored into it (`copy_slots::pointer_slot`); nothing is here.
        check_shadowed(f, &a, false, &["cnt", "ints", "c", "slot"]);
        // Loads of floats from shadowed memory are active even with no active input:
        // the analysis over-approximates.
        check_active(f, &a, true, &["v", "w", "r"]);
        check_active(f, &a, false, &["c"]);
    });
}

#[test]
fn readonly_function_returning_int_is_an_inactive_call() {
    with_module("calls.ll", |m| {
        assert!(is_readonly_function(func(m, "is_positive")));
        assert!(
            is_readonly_function(func(m, "peek")),
            "memory(argmem: read)"
        );
        assert!(
            !is_readonly_function(func(m, "scale")),
            "no memory attribute"
        );
        let (f, a, touchers) = run(m, "caller", &[Dup, Active]);
        let n = val(f, "n");
        assert!(a.is_shadowed(f.params()[0]));
        assert!(!a.is_active(n));
        assert!(!a.call_is_active(n, &touchers), "read-only, integer result");
        // Same arguments, but a double result: active.
        let d = val(f, "d");
        assert!(a.is_active(d));
        assert!(a.call_is_active(d, &touchers));
        // Writes through its shadowed argument: active despite the integer result.
        let k = val(f, "k");
        assert!(!a.is_active(k));
        assert!(a.call_is_active(k, &touchers));
    });
}

#[test]
fn defined_function_activity_follows_its_arguments() {
    with_module("calls.ll", |m| {
        let (f, a, touchers) = run(m, "caller", &[Dup, Active]);
        assert!(a.is_active(val(f, "q")));
        assert!(a.call_is_active(val(f, "q"), &touchers));
        assert!(!a.is_active(val(f, "qc")), "constant argument");
        assert!(!a.call_is_active(val(f, "qc"), &touchers));
    });
}

#[test]
fn printf_with_active_argument_is_inactive() {
    with_module("calls.ll", |m| {
        let (f, a, touchers) = run(m, "caller", &[Dup, Active]);
        let pr = val(f, "pr");
        assert!(
            pr.call_args().iter().any(|&x| a.is_active(x)),
            "printf gets the active %y"
        );
        assert!(!a.is_active(pr));
        assert!(!a.call_is_active(pr, &touchers));
    });
}

#[test]
fn math_calls() {
    with_module("calls.ll", |m| {
        let (f, a, touchers) = run(m, "caller", &[Dup, Active]);
        check_active(f, &a, true, &["s", "e", "r"]);
        assert!(a.call_is_active(val(f, "s"), &touchers));
        // Constant argument; zero derivative (floor).
        check_active(f, &a, false, &["sc", "fl"]);
        assert!(!a.call_is_active(val(f, "sc"), &touchers));
        assert!(!a.call_is_active(val(f, "fl"), &touchers));
        // memcpy between shadowed pointers must be mirrored on the shadows.
        let memcpy = f
            .instructions()
            .find(|i| {
                i.is_call()
                    && i.called_function()
                        .is_some_and(|c| c.name().starts_with("llvm.memcpy"))
            })
            .unwrap();
        assert!(a.call_is_active(memcpy, &touchers));

        let (f, a, touchers) = run(m, "caller", &[Const, Const]);
        assert!(a.active.is_empty(), "{}", a.print(f));
        assert!(!a.call_is_active(val(f, "d"), &touchers));
        assert!(!a.call_is_active(val(f, "k"), &touchers));
    });
}

#[test]
fn mutable_float_globals_are_shadowed_constant_tables_not() {
    with_module("globals.ll", |m| {
        let g = |n: &str| m.global(n).unwrap_or_else(|| panic!("no @{n}"));
        assert!(global_needs_shadow(g("gd")));
        assert!(global_needs_shadow(g("gs")), "struct with a double field");
        assert!(!global_needs_shadow(g("gi")));
        assert!(!global_needs_shadow(g("table")), "constant");
        assert!(
            !global_needs_shadow(func(m, "bump")),
            "a function is no global variable"
        );

        let (f, a, _) = run(m, "read_globals", &[Const]);
        assert!(a.is_shadowed(g("gd")));
        assert!(!a.is_shadowed(g("table")));
        check_active(f, &a, true, &["g", "s", "r"]);
        check_active(f, &a, false, &["t", "tt", "n"]);
        check_shadowed(f, &a, false, &["f"]);
        // The constant-expression GEP into @gs is shadowed.
        let s = val(f, "s");
        assert!(a.is_shadowed(s.operand(0)));
    });
}

#[test]
fn global_touchers_are_transitive() {
    with_module("globals.ll", |m| {
        let touchers = functions_touching_shadowed_globals(m);
        let names: HashSet<String> = touchers.iter().map(|f| f.name()).collect();
        for n in [
            "read_globals",
            "bump",
            "calls_bump",
            "calls_calls_bump",
            "reads_struct_field",
            "via_touchers",
        ] {
            assert!(
                names.contains(n),
                "@{n} touches a shadowed global: {names:?}"
            );
        }
        for n in [
            "reads_table",
            "reads_int",
            "calls_table_and_int",
            "external_user",
        ] {
            assert!(!names.contains(n), "@{n} does not: {names:?}");
        }
    });
}

#[test]
fn calls_to_global_touchers_are_active() {
    with_module("globals.ll", |m| {
        let (f, a, touchers) = run(m, "via_touchers", &[]);
        let v = val(f, "v");
        assert!(a.is_active(v));
        assert!(a.call_is_active(v, &touchers));
        let bump = f.blocks()[0].instructions()[0];
        assert!(
            a.call_is_active(bump, &touchers),
            "void call that writes @gd"
        );
        let t = val(f, "t");
        assert!(!a.is_active(t));
        assert!(!a.call_is_active(t, &touchers));
    });
}

#[test]
fn load_through_global_pointer_to_shadowed_global() {
    with_module("globals.ll", |m| {
        let (f, a, _) = run(m, "through_global_pointer", &[]);
        check_shadowed(f, &a, true, &["p"]);
        check_active(f, &a, true, &["v"]);
    });
}

#[test]
fn clang_o2_loop_with_dup_array() {
    with_module("sum_o2.ll", |m| {
        let (f, a, _) = run(m, "sum", &[Dup, Const]);
        check_shadowed(f, &a, true, &["a", "arrayidx"]);
        check_active(f, &a, true, &["s.05", "add", "s.0.lcssa"]);
        check_active(
            f,
            &a,
            false,
            &[
                "indvars.iv",
                "indvars.iv.next",
                "wide.trip.count",
                "exitcond.not",
                "cmp4",
            ],
        );
        // The unnamed `load double`.
        assert!(a.is_active(nth_op(f, ferrozyme_llvm::Opcode::LLVMLoad, 0)));
    });
}

#[test]
fn clang_o0_stack_slots() {
    with_module("poly_o0.ll", |m| {
        use ferrozyme_llvm::Opcode::LLVMLoad;
        let (f, a, _) = run(m, "poly", &[Active, Const]);
        check_shadowed(
            f,
            &a,
            true,
            &[
                "x.addr",
                "acc",
                "arrayidx",
                "arrayidx1",
                "arrayidx2",
                "arrayidx3",
            ],
        );
        check_shadowed(f, &a, false, &["n.addr", "k"]);
        check_active(f, &a, true, &["x", "mul", "add", "mul4"]);
        check_active(f, &a, false, &["n", "conv"]);
        // Loads: %0 (i32 from %n.addr) inactive, %1 and %2 (double from %x.addr) active,
        // %3 active, %4 (i32 from %k) inactive.
        let loads: Vec<bool> = (0..7)
            .map(|i| a.is_active(nth_op(f, LLVMLoad, i)))
            .collect();
        assert_eq!(loads, [false, true, true, true, false, true, true]);
    });
}

#[test]
fn clang_o0_byte_alloca_agrees_with_its_reload() {
    with_module("byte_alloca_o0.ll", |m| {
        use ferrozyme_llvm::Opcode::{LLVMAlloca, LLVMLoad};
        let (f, a, _) = run(m, "square_via_alloca", &[Active]);
        check_active(f, &a, true, &["mul"]);
        let raw = nth_op(f, LLVMAlloca, 2);
        assert_eq!(raw.allocated_type().to_string(), "i8");
        // %2 = load ptr, ptr %b: the same address as %0.
        let reload = nth_op(f, LLVMLoad, 1);
        assert!(a.is_shadowed(reload));
        assert!(a.is_shadowed(raw), "{}", a.print(f));
    });
    // Without the pointer slot the derivative is lost outright: %v is x itself.
    with_module("basics.ll", |m| {
        let (f, a, _) = run(m, "byte_buffer", &[Active]);
        check_shadowed(f, &a, true, &["buf"]);
        check_active(f, &a, true, &["v"]);
    });
}

#[test]
fn print_labels_every_line() {
    with_module("basics.ll", |m| {
        let (f, a, _) = run(m, "phi_mix", &[Const, Active]);
        let out = a.print(f);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "activity for @phi_mix");
        let n_insts = f.instruction_count();
        assert_eq!(
            lines.len(),
            1 + f.params().len() + f.blocks().len() + n_insts,
            "{out}"
        );
        for b in f.blocks() {
            assert!(lines.contains(&format!("{}:", b.name()).as_str()), "{out}");
        }
        let labels = [
            " : active, shadowed",
            " : active",
            " : shadowed",
            " : inactive",
        ];
        for l in &lines[1..] {
            assert!(
                l.ends_with(':') || labels.iter().any(|s| l.ends_with(s)),
                "unlabelled line {l:?}"
            );
        }
        assert!(lines.contains(&"  double %x : active"), "{out}");
        assert!(lines.contains(&"  i1 %c : inactive"), "{out}");
        assert!(
            lines.contains(&"  %y = fmul double %x, 2.000000e+00 : active"),
            "{out}"
        );
        assert!(
            lines.contains(
                &"  %q = phi double [ 1.000000e+00, %then ], [ 0.000000e+00, %entry ] : inactive"
            ),
            "{out}"
        );

        let (f, a, _) = run(m, "load_gep", &[Dup, Const]);
        let out = a.print(f);
        assert!(out.contains("  ptr %x : shadowed\n"), "{out}");
    });
}

#[test]
fn unused_results_are_not_active_after_restriction() {
    with_module("basics.ll", |m| {
        let f = func(m, "arith");
        let mut a = Activity::run(&ActivityInput {
            func: f,
            args: &[Active, Const],
            global_touchers: &HashSet::default(),
        });
        a.restrict_to_useful(f);
        // After the backward half, every active instruction still has a user on the way to
        // the return value.
        for v in &a.active {
            assert!(
                v.is_argument() || !v.users().is_empty(),
                "{v} is active but unused"
            );
        }
        assert!(a.is_active(val(f, "x")), "the argument feeds the result");
    });
}

/// Runs the forward half and the backward restriction on `@name`.
fn run_restricted(m: Module, name: &str, args: &[ArgActivity]) -> (Value, Activity) {
    let f = func(m, name);
    let mut a = Activity::run(&ActivityInput {
        func: f,
        args,
        global_touchers: &HashSet::default(),
    });
    a.restrict_to_useful(f);
    (f, a)
}

#[test]
fn values_only_compared_or_converted_to_integers_are_not_active() {
    // A comparison's result and an integer have no derivative, so nothing flows back to
    // what they were computed from: d/dx of `c ? x*x : 3x` does not involve exp(x).
    with_module("compared.ll", |m| {
        let (f, a) = run_restricted(m, "compared", &[Active]);
        check_active(f, &a, false, &["t", "c"]);
        check_active(f, &a, true, &["x", "sq", "lin", "r"]);
        let (f, a) = run_restricted(m, "converted", &[Active]);
        check_active(f, &a, false, &["t", "k", "kf"]);
        check_active(f, &a, true, &["x", "r"]);
        // The same comparison, but `t` is also a possible result: it stays active.
        let (f, a) = run_restricted(m, "compared_and_returned", &[Active]);
        check_active(f, &a, true, &["t", "r"]);
        check_active(f, &a, false, &["c"]);
    });
}

// Pointer slots at -O0 (`copy_slots::pointer_slot`, `local_stores::param_writes`):
// `std::lower_bound` over a constant vector with an active query.

const LOWER_BOUND: &str =
    "_ZSt13__lower_boundIN9__gnu_cxx17__normal_iteratorIPKdSt6vectorIdSaIdEEEEdNS0_5__ops14_Iter_less_valEET_SA_SA_RKT0_T1_";
const ADVANCE: &str = "_ZSt7advanceIN9__gnu_cxx17__normal_iteratorIPKdSt6vectorIdSaIdEEEElEvRT_T0_";
const ITER_CATEGORY: &str =
    "_ZSt19__iterator_categoryIN9__gnu_cxx17__normal_iteratorIPKdSt6vectorIdSaIdEEEEENSt15iterator_traitsIT_E17iterator_categoryERKS9_";
const ITER_COPY: &str = "_ZN9__gnu_cxx17__normal_iteratorIPKdSt6vectorIdSaIdEEEC2ERKS2_";
const ITER_BASE: &str = "_ZNK9__gnu_cxx17__normal_iteratorIPKdSt6vectorIdSaIdEEE4baseEv";

#[test]
fn iterator_slots_into_constant_data_stay_constant() {
    with_module("lower_bound_o0.ll", |m| {
        // Iterators into constant data, an active query behind a reference.
        let (f, a, _) = run(m, LOWER_BOUND, &[Const, Const, Dup]);
        check_shadowed(
            f,
            &a,
            false,
            &[
                "__first", "__last", "__middle", "agg.tmp", "agg.tmp2", "retval",
            ],
        );
        // The slot holding the query's address keeps its shadow.
        check_shadowed(f, &a, true, &["__val.addr"]);
    });
}

#[test]
fn iterator_slots_into_active_data_keep_their_shadow() {
    with_module("lower_bound_o0.ll", |m| {
        let (f, a, _) = run(m, LOWER_BOUND, &[Dup, Dup, Dup]);
        check_shadowed(
            f,
            &a,
            true,
            &[
                "__first", "__last", "__middle", "agg.tmp", "agg.tmp2", "retval",
            ],
        );
    });
}

#[test]
fn param_writes_of_iterator_helpers() {
    use ferrozyme_analysis::activity::{param_writes, ParamWrites, PARAM_WRITES_DEPTH};
    with_module("lower_bound_o0.ll", |m| {
        let w = |name: &str, k: usize| param_writes(func(m, name), k, PARAM_WRITES_DEPTH);
        // `std::advance(it, n)` moves the iterator in place.
        assert_eq!(w(ADVANCE, 0), ParamWrites::From(vec![0]));
        // `__iterator_category(it)` only looks at it.
        assert_eq!(w(ITER_CATEGORY, 0), ParamWrites::Nothing);
        // The copy constructor copies the other iterator's pointer into `this`.
        assert_eq!(w(ITER_COPY, 0), ParamWrites::From(vec![1]));
        assert_eq!(w(ITER_COPY, 1), ParamWrites::Nothing);
        // `base()` hands back `&_M_current` and writes nothing.
        assert_eq!(w(ITER_BASE, 0), ParamWrites::Nothing);
    });
}

const LOWER_BOUND_ENTRY: &str =
    "_ZSt11lower_boundIN9__gnu_cxx17__normal_iteratorIPKdSt6vectorIdSaIdEEEEdET_S8_S8_RKT0_";

#[test]
fn returned_iterator_into_constant_data_is_constant_while_the_query_is_passed_down() {
    with_module("lower_bound_o0.ll", |m| {
        // `lower_bound` hands the query reference (a parameter there, with a shadow) on
        // to `__lower_bound`; `returned_shadow` asks that callee, whose result is an
        // iterator into the constant vector: provably constant (`constant_pointers`).
        // Before cxx27 it was taken as shadowed (cxx/195 and 250 refused at -O0).
        let (f, a, _) = run(m, LOWER_BOUND_ENTRY, &[Const, Const, Dup]);
        check_shadowed(f, &a, false, &["call", "retval", "__first", "agg.tmp"]);
        check_shadowed(f, &a, true, &["__val.addr"]);
        // Iterators into memory with a shadow: everything has one.
        let (f, a, _) = run(m, LOWER_BOUND_ENTRY, &[Dup, Dup, Const]);
        check_shadowed(f, &a, true, &["call", "retval", "__first", "agg.tmp"]);
    });
}

#[test]
fn pointer_slots_follow_what_flows_in() {
    use ferrozyme_analysis::activity::{param_writes, ParamWrites, PARAM_WRITES_DEPTH};
    with_module("copy_slots.ll", |m| {
        let w = |name: &str, k: usize| param_writes(func(m, name), k, PARAM_WRITES_DEPTH);
        assert_eq!(w("peek", 0), ParamWrites::Nothing);
        assert_eq!(w("fresh", 0), ParamWrites::Unknown);
        assert_eq!(w("assign", 0), ParamWrites::From(vec![1]));
        assert_eq!(w("leak", 0), ParamWrites::Unknown);
        // `c` constant, `d` duplicated.
        let (f, a, _) = run(m, "slots", &[Const, Dup, Const]);
        // Only constant pointers reach these: no shadow.
        check_shadowed(f, &a, false, &["read", "from_c", "cslot"]);
        // A callee may put any pointer there, or the slot escapes: the shadow stays.
        check_shadowed(f, &a, true, &["fresh", "leaked"]);
        // What `d` points to flows in (through a callee, through memcpy).
        check_shadowed(f, &a, true, &["from_d", "dslot", "copy"]);
    });
}

// Pointer slots take only provably constant pointers as constant
// (`activity/constant_pointers.rs`): the shape of tests/c/508 at -O0.

#[test]
fn pointer_slot_holding_a_pointer_into_a_mutable_global_keeps_its_shadow() {
    with_module("pool_o0.ll", |m| {
        // The pool is a byte array whose float store goes through the slot: the pool gets
        // a shadow (`global_uses` follows an address kept in a local slot), and the slot,
        // holding a pointer into a mutable global, keeps one whatever the pool's verdict.
        assert!(global_needs_shadow(m.global("pool").unwrap()));
        let (f, a, _) = run(m, "place", &[Active]);
        check_shadowed(f, &a, true, &["m", "mp", "ret"]);
        // The caller: the pointer `place` returns has a shadow, so do the slots keeping
        // it, and what is read back is active.
        let (f, a, _) = run(m, "f", &[Active]);
        check_shadowed(f, &a, true, &["call", "call1", "t", "u", "tp"]);
        check_active(f, &a, true, &["tv"]);
    });
}

#[test]
fn pointer_slots_holding_constant_data_stay_constant() {
    with_module("pool_o0.ll", |m| {
        // `c` is `enzyme_const`; `row` returns its argument; `table` is a constant global.
        let (f, a, _) = run(m, "g", &[Active, Const]);
        check_shadowed(f, &a, false, &["c.addr", "p", "q", "pp", "qp"]);
        check_active(f, &a, false, &["pv", "qv"]);
        // With `c` duplicated the slot holding `row`'s result has a shadow.
        let (f, a, _) = run(m, "g", &[Active, Dup]);
        check_shadowed(f, &a, true, &["c.addr", "p", "pp"]);
        check_active(f, &a, true, &["pv"]);
    });
}

#[test]
fn in_place_updates_of_parameters() {
    use ferrozyme_analysis::activity::may_update_param_in_place;
    with_module("in_place.ll", |m| {
        let upd = |name: &str, k: usize| may_update_param_in_place(func(m, name), k);
        // Read and written through the -O0 home slot.
        assert!(upd("square_o0", 0));
        // Out of place: x only read, y only written.
        assert!(!upd("cube", 0));
        assert!(!upd("cube", 1));
        // Read by a callee, written by memcpy; `tmp` written by the callee, read by memcpy.
        assert!(upd("through_call", 0));
        assert!(upd("through_call", 1));
        // A call without IR: unknown.
        assert!(upd("opaque_use", 0));
    });
}
