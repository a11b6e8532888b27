//! The target of generated functions.
//!
//! clang gives each function it compiles the attributes `"target-cpu"`,
//! `"target-features"` and `"tune-cpu"` (`-march=x86-64-v3` or `-march=native`: AVX2,
//! FMA, ...); the target machine the CLI creates is generic (`pipeline::target_machine`)
//! and relies on them. Functions the pass creates had none, so their code was generated
//! for the baseline CPU (SSE2, no FMA) whatever `-march` the user gave: the RK4
//! gradient counted the same 10.57M instructions at `-O2` and `-O2 -march=x86-64-v3`
//! while the primal went from 3.2M to 2.0M (bench/README "native9"). Worse, LLVM's
//! inliner does not inline a callee whose features are not a subset of its caller's,
//! so primal helpers compiled for AVX2 stayed calls in baseline derivative code.
//!
//! Rule: when every defined function the pass did not generate and that names a target
//! CPU names the same CPU, features and tuning, generated functions without a target
//! CPU get those three. Any disagreement (per-function `__attribute__((target))`, objects
//! of several `-march`) leaves them as they are: baseline code is slower, never wrong,
//! and it is the one choice that is valid for every caller. Nor are they given a
//! baseline CPU (`x86-64`, `generic`: no `-march`): the target machine's default already
//! has its features, and copying the attributes there changed the code's tuning for the
//! worse (Euler, harness flags: 35.6M -> 37.1M gradient instructions).

use ferrozyme_llvm::{Module, Type, TypeKind, Value};

use crate::generated::is_generated;

/// The attributes that name the target.
const KEYS: [&str; 3] = ["target-cpu", "target-features", "tune-cpu"];

/// Gives the generated functions of `module` the target every other function shares
/// (see the module doc). Returns how many functions got it.
pub fn share_target(module: Module) -> usize {
    let defined: Vec<Value> = module
        .functions()
        .into_iter()
        .filter(|f| !f.is_declaration())
        .collect();
    let mut common: Option<[Option<String>; 3]> = None;
    for f in defined.iter().filter(|f| !is_generated(**f)) {
        if f.string_fn_attr(KEYS[0]).is_none() {
            continue;
        }
        let t = KEYS.map(|k| f.string_fn_attr(k));
        match &common {
            None => common = Some(t),
            Some(c) if *c == t => {}
            Some(_) => return 0,
        }
    }
    let Some(target) = common else {
        return 0;
    };
    if matches!(target[0].as_deref(), Some("x86-64" | "generic")) {
        return 0;
    }
    let mut given = 0;
    for f in defined
        .into_iter()
        .filter(|f| is_generated(*f) && f.string_fn_attr(KEYS[0]).is_none())
    {
        for (k, v) in KEYS.iter().zip(&target) {
            if let Some(v) = v {
                f.add_string_fn_attr(k, v);
            }
        }
        given += 1;
    }
    given
}

/// `"min-legal-vector-width"`: the widest vector a function needs legal (its own vector
/// arguments and intrinsics). clang gives every C function `"0"`; absent means "unknown",
/// and the X86 back end then treats 512-bit vectors as legal and preferred on an AVX-512
/// CPU, whatever its 256-bit tuning (`-march=native` on Rocket Lake). Generated functions
/// had none, and LLVM's inliner drops the caller's attribute when it inlines a callee
/// without it: BA's `run_grad` lost it when the fused width-2 gradient (`seed_fusion.rs`)
/// was inlined, so the SLP vectorizer built `<8 x double>` bundles there and code
/// generation kept them in `zmm` registers. That made the gradient 20-25% slower than
/// the same IR with the attribute (bench/README.md, "ba14"; libm's `cos` and `sin`
/// called from the `zmm` code ran at about twice their cost).
const MIN_LEGAL: &str = "min-legal-vector-width";

/// Widest vector, in bits, anywhere in `t` (vectors inside arrays and structs too).
/// Scalable vectors (and element types of unknown width) count as unbounded.
fn vector_bits(t: Type) -> u64 {
    if t.has_scalable() {
        return u64::MAX;
    }
    match t.kind() {
        TypeKind::Vector => {
            let e = t.element_type();
            let bits = if e.is_pointer() {
                64
            } else if let Some(w) = e.int_width() {
                u64::from(w)
            } else if e.fp_bits() > 0 {
                u64::from(e.fp_bits())
            } else {
                return u64::MAX;
            };
            bits * u64::from(t.vector_len())
        }
        TypeKind::Array => vector_bits(t.element_type()),
        TypeKind::Struct => t.struct_fields().into_iter().map(vector_bits).max().unwrap_or(0),
        _ => 0,
    }
}

/// Rule: when every defined function the pass did not generate has
/// `"min-legal-vector-width"`, each generated function without it gets the largest of
/// their values, provided no vector in its signature is wider than that value or 256
/// bits (what AVX targets keep legal under any value): the signature is where the value
/// is an ABI (how a vector argument is passed), and there caller and callee must agree.
/// Vectors inside the body are legalized whatever the value (split into legal halves).
/// Otherwise the function stays without it (as before: correct, possibly 512-bit code).
/// Returns how many functions got it.
pub fn share_vector_width(module: Module) -> usize {
    let defined: Vec<Value> = module
        .functions()
        .into_iter()
        .filter(|f| !f.is_declaration())
        .collect();
    let mut width: Option<u64> = None;
    for f in defined.iter().filter(|f| !is_generated(**f)) {
        let Some(v) = f.string_fn_attr(MIN_LEGAL) else {
            return 0;
        };
        let Ok(v) = v.parse::<u64>() else {
            return 0;
        };
        width = Some(width.map_or(v, |w| w.max(v)));
    }
    let Some(width) = width else {
        return 0;
    };
    let mut given = 0;
    for f in defined
        .into_iter()
        .filter(|f| is_generated(*f) && f.string_fn_attr(MIN_LEGAL).is_none())
    {
        let fty = f.function_type();
        let widest = std::iter::once(fty.return_type())
            .chain(fty.param_types())
            .map(vector_bits)
            .max()
            .unwrap_or(0);
        if widest > width.max(256) {
            continue;
        }
        f.add_string_fn_attr(MIN_LEGAL, &width.to_string());
        given += 1;
    }
    given
}
