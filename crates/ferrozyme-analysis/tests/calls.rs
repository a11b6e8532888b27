//! `calls::classify` on `tests/data/activity/classify.ll`: one call of each kind, each
//! call named after what it should be classified as.

mod common;
#[allow(unused_imports)]
use common::{func, val};

use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_llvm::{Module, Value};

fn with_module(file: &str, body: impl FnOnce(Module)) {
    common::with_data_module("activity", file, body)
}

/// Every call instruction of `@all_kinds`.
fn calls(m: Module) -> Vec<Value> {
    let f = m.function("all_kinds").expect("no @all_kinds");
    f.calls().collect()
}

/// The call whose result is `%name`, or the void call whose callee is `@name`.
fn call(m: Module, name: &str) -> Value {
    calls(m)
        .into_iter()
        .find(|c| {
            c.name() == name
                || (c.name().is_empty() && c.called_function().is_some_and(|f| f.name() == name))
        })
        .unwrap_or_else(|| panic!("no call {name} in @all_kinds"))
}

fn kind(m: Module, name: &str) -> CallKind {
    classify(call(m, name))
}

/// Asserts `kind(m, name)` is `Math` with a rule called `rule`.
fn assert_math(m: Module, name: &str, rule: &str) {
    match kind(m, name) {
        CallKind::Math(r) => assert_eq!(r.name, rule, "{name}"),
        k => panic!("{name}: expected Math({rule}), got {k:?}"),
    }
}

#[test]
fn intrinsics_with_rules_are_math() {
    with_module("classify.ll", |m| {
        assert_math(m, "sin", "llvm.sin");
        // The overload suffix does not matter, vectors included.
        assert_math(m, "fmuladd.v", "llvm.fmuladd");
    });
}

#[test]
fn libm_functions_are_math() {
    with_module("classify.ll", |m| {
        // `sinf` shares the rule of `sin`.
        assert_math(m, "sinf", "sin");
        assert_math(m, "libm.sin", "sin");
    });
}

#[test]
fn zero_derivative_intrinsics() {
    with_module("classify.ll", |m| {
        assert!(matches!(
            kind(m, "llvm.lifetime.start.p0"),
            CallKind::NoDerivative
        ));
        // floor has a rule whose partials are all zero.
        assert!(
            matches!(kind(m, "floor"), CallKind::NoDerivative),
            "{:?}",
            kind(m, "floor")
        );
        assert!(matches!(kind(m, "ctpop"), CallKind::NoDerivative));
    });
}

#[test]
fn memory_intrinsics() {
    with_module("classify.ll", |m| {
        assert!(matches!(kind(m, "llvm.memcpy.p0.p0.i64"), CallKind::Memcpy));
        assert!(matches!(
            kind(m, "llvm.memmove.p0.p0.i64"),
            CallKind::Memmove
        ));
        assert!(matches!(kind(m, "llvm.memset.p0.i64"), CallKind::Memset));
        assert!(matches!(kind(m, "reduce"), CallKind::ReduceFAdd));
    });
}

#[test]
fn intrinsic_without_rule_is_never_an_external() {
    with_module("classify.ll", |m| {
        // `llvm.copysign` has no rule today; whether or not it gets one, an intrinsic
        // is never classified as a user function.
        let k = kind(m, "copysign");
        assert!(
            matches!(k, CallKind::UnknownIntrinsic | CallKind::Math(_)),
            "{k:?}"
        );
    });
}

#[test]
fn allocation_functions() {
    with_module("classify.ll", |m| {
        assert!(matches!(kind(m, "malloc"), CallKind::Malloc));
        assert!(matches!(kind(m, "new"), CallKind::Malloc));
        assert!(matches!(kind(m, "calloc"), CallKind::Calloc));
        assert!(matches!(kind(m, "realloc"), CallKind::Realloc));
        assert!(matches!(kind(m, "free"), CallKind::Free));
        assert!(matches!(kind(m, "_ZdlPv"), CallKind::Free));
    });
}

#[test]
fn externals_defined_and_indirect() {
    with_module("classify.ll", |m| {
        assert!(matches!(kind(m, "printf"), CallKind::InactiveExternal));
        assert!(matches!(kind(m, "unknown"), CallKind::UnknownExternal));
        match kind(m, "defined") {
            CallKind::Defined(f) => assert_eq!(f, m.function("helper").unwrap()),
            k => panic!("expected Defined(@helper), got {k:?}"),
        }
        assert!(matches!(kind(m, "indirect"), CallKind::Indirect));
        assert!(matches!(kind(m, "asm"), CallKind::InlineAsm));
    });
}

#[test]
fn every_call_is_classified_without_panicking() {
    with_module("classify.ll", |m| {
        let cs = calls(m);
        assert_eq!(cs.len(), 23, "a call was added or lost in classify.ll");
        for c in cs {
            let _ = classify(c);
        }
    });
}
