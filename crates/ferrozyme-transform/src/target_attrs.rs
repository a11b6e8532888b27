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
//!
//! One exception to the baseline case: features beyond the baseline's (`-mavx2 -mfma`
//! without `-march`). A generated function that calls one of the target's own intrinsics
//! (`llvm.x86.avx.max.pd.256`, copied from the primal of `_mm256_max_pd`) cannot be
//! compiled without them: LLVM's back end stopped with "Do not know how to split the
//! result of this operator!" (tests/cxx/407). And generated functions pass `<4 x double>`
//! to each other (`fz_aug_hsum(<4 x double>)` at -O0): caller and callee must agree on
//! the features that say whether it travels in one `ymm` register, so all of them get the
//! common `"target-features"` (only those: the tuning stays the target machine's).
//!
//! The user's `-mprefer-vector-width=N` (clang's `"prefer-vector-width"` on every
//! function) is part of that target: without it generated code used the CPU's own
//! preference (512 bits on Zen 4/5) where the user asked for less.
//!
//! Second rule (`share_vector_width`): generated functions get a
//! `"min-legal-vector-width"`, as clang gives every function it compiles.

use ferrozyme_llvm::{Module, Type, TypeKind, Value};

use crate::generated::is_generated;

/// The attributes that name the target.
const KEYS: [&str; 4] = [
    "target-cpu",
    "target-features",
    "tune-cpu",
    "prefer-vector-width",
];

/// The defined functions of `module`: those the pass did not generate, and those it did.
fn defined_functions(module: Module) -> (Vec<Value>, Vec<Value>) {
    module.definitions().partition(|f| !is_generated(*f))
}

/// Gives the generated functions of `module` the target every other function shares
/// (see the module doc). Returns how many functions got it.
pub fn share_target(module: Module) -> usize {
    let (user, generated) = defined_functions(module);
    let mut common: Option<[Option<String>; 4]> = None;
    for f in &user {
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
        let Some(features) = target[1].as_ref().filter(|f| beyond_baseline(f)) else {
            return 0;
        };
        let mut given = 0;
        for f in generated
            .into_iter()
            .filter(|f| f.string_fn_attr(KEYS[1]).is_none())
        {
            f.add_string_fn_attr(KEYS[1], features);
            given += 1;
        }
        return given;
    }
    let mut given = 0;
    for f in generated
        .into_iter()
        .filter(|f| f.string_fn_attr(KEYS[0]).is_none())
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

/// Does a `"target-features"` string enable more than x86-64's baseline (SSE2), as
/// `-mavx2` or `-mfma` do?
fn beyond_baseline(features: &str) -> bool {
    const BASELINE: &[&str] = &["+cmov", "+cx8", "+fxsr", "+mmx", "+sse", "+sse2", "+x87"];
    features
        .split(',')
        .any(|f| f.starts_with('+') && !BASELINE.contains(&f))
}

/// `"min-legal-vector-width"`: the widest vector, in bits, a function needs legal (its
/// own vector arguments and results, those of its calls, clang's vector intrinsics).
/// Absent means unknown: the X86 back end must then keep 512-bit vectors legal, and on
/// an AVX-512 CPU tuned for 256 bits (Intel's: `X86Subtarget::useAVX512Regs` asks for
/// a 512 preference or a required width above 256) it builds `zmm` code against the
/// tuning. LLVM's inliner, inlining a callee without the attribute, removes it from the
/// caller, so a derivative inlined into the user's function took that function's value
/// away too: BA's `run_grad` at `-march=native` on Rocket Lake got SLP-built
/// `<8 x double>` bundles in `zmm` registers, and libm's `cos` called between them ran
/// at about twice its cost (bench/README "ba14"). On a CPU that prefers 512 bits
/// (Zen 4/5) the value changes no code.
const MIN_LEGAL: &str = "min-legal-vector-width";

/// Widest vector, in bits, anywhere in `t` (inside arrays and structs too); `None` for
/// a scalable vector or one whose elements have no fixed width.
fn vector_bits(t: Type) -> Option<u64> {
    match t.kind() {
        TypeKind::Vector if t.has_scalable() => None,
        TypeKind::Vector => {
            let e = t.element_type();
            let bits = if e.is_pointer() {
                64
            } else if let Some(w) = e.int_width() {
                w
            } else {
                match e.fp_bits() {
                    0 => return None,
                    b => b,
                }
            };
            Some(u64::from(bits) * u64::from(t.vector_len()))
        }
        TypeKind::Array => vector_bits(t.element_type()),
        TypeKind::Struct => t
            .struct_fields()
            .into_iter()
            .try_fold(0, |w, f| Some(w.max(vector_bits(f)?))),
        _ => Some(0),
    }
}

/// Widest vector in a function type's result and parameters.
fn signature_bits(fty: Type) -> Option<u64> {
    std::iter::once(fty.return_type())
        .chain(fty.param_types())
        .try_fold(0, |w, t| Some(w.max(vector_bits(t)?)))
}

/// Rule: when every defined function the pass did not generate has the attribute (the
/// front end is clang, which gives one to every function), each generated function
/// without it gets the largest of: their values (what the user's code needs: a
/// derivative copies its primal's operations, intrinsics included), the widest vector
/// in its own signature and in the signature of every call it makes (there the value
/// is an ABI, how a vector argument is passed, and caller and callee must agree). That
/// is never less than what clang would give the same code. A scalable vector leaves
/// the function without it (unknown, as before). Returns how many functions got it.
pub fn share_vector_width(module: Module) -> usize {
    let (user, generated) = defined_functions(module);
    let mut widest: Option<u64> = None;
    for f in &user {
        let Some(v) = f
            .string_fn_attr(MIN_LEGAL)
            .and_then(|v| v.parse::<u64>().ok())
        else {
            return 0;
        };
        widest = Some(widest.map_or(v, |w| w.max(v)));
    }
    let Some(widest) = widest else {
        return 0;
    };
    let mut given = 0;
    for f in generated
        .into_iter()
        .filter(|f| f.string_fn_attr(MIN_LEGAL).is_none())
    {
        let calls = f.calls().map(|c| signature_bits(c.called_function_type()));
        let Some(width) = std::iter::once(signature_bits(f.function_type()))
            .chain(calls)
            .try_fold(widest, |w, b| Some(w.max(b?)))
        else {
            continue;
        };
        f.add_string_fn_attr(MIN_LEGAL, &width.to_string());
        given += 1;
    }
    given
}

#[cfg(test)]
mod tests {
    use super::beyond_baseline;

    #[test]
    fn baseline_features_are_not_beyond_it() {
        assert!(!beyond_baseline("+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87"));
        assert!(beyond_baseline(
            "+avx,+avx2,+cmov,+cx8,+fma,+fxsr,+mmx,+sse,+sse2,+x87"
        ));
        assert!(!beyond_baseline("-avx512f,+sse2"));
    }
}
