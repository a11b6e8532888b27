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

use ferrozyme_llvm::{Module, Value};

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
