//! Loop transformations held back until after the AD pass.
//!
//! clang's `-O<n>` pipeline simplifies each function (inlining, SROA, GVN, full unrolling
//! of small loops, ...) and then, in its optimization part, vectorizes loops
//! (LoopVectorize, with interleaving), packs straight-line code into vectors (SLP), and
//! unrolls loops partially or at run time (LoopUnroll). Differentiating the result of
//! the latter is expensive and gains nothing: every vector body, remainder loop and
//! run-time check of a vectorized loop gets its own tape, SLP-packed scalar chains put
//! shuffles on the reverse sweep's loop-carried path, and unrolled loops step their
//! counters by 4. So `ferrozyme cc` compiles each source with those three held back
//! ([`phase1_flags`]: the simplification pipeline, full unrolling included, runs as the
//! user asked), differentiates, and then runs them:
//!
//! * on the functions the pass generated or changed, as part of `default<O<n>>` with the
//!   user's loop options (`pipeline::optimize`);
//! * on every other function, the tail of clang's optimization pipeline from the
//!   vectorizers on ([`tail_pipeline`], the passes of LLVM's `addVectorPasses` and what
//!   follows them), so the primal code gets what clang alone would have given it.
//!
//! The pass plugin (`clang -fpass-plugin`) still runs at the `OptimizerLast` extension
//! point, after clang's vectorizers (`plugin.cpp`); moving it to `OptimizerEarly`, just
//! before them, is not done yet.

use crate::args::OptLevel;
use crate::pipeline::LoopOptions;

/// What the first compile adds to the user's flags so that clang stops before
/// vectorizing and before partial or run-time unrolling (full unrolling of small loops,
/// part of the simplification pipeline, still happens). Empty at `-O0`.
pub fn phase1_flags(level: OptLevel) -> Vec<&'static str> {
    if level == OptLevel::O0 {
        return Vec::new();
    }
    vec![
        "-fno-vectorize",
        "-fno-slp-vectorize",
        // Interleaving is the loop vectorizer's own unrolling, on even under
        // -fno-vectorize; partial and run-time unrolling are LoopUnroll's, which these
        // switches turn off without touching the full unrolling of small loops.
        "-mllvm",
        "-interleave-loops=false",
        "-mllvm",
        "-unroll-runtime=false",
        "-mllvm",
        "-unroll-allow-partial=false",
    ]
}

/// Does the user's command line ask for any of the held-back transformations?
pub fn anything_deferred(level: OptLevel, loops: LoopOptions) -> bool {
    level != OptLevel::O0 && (loops.vectorize || loops.slp_vectorize || loops.unroll)
}

/// The function pipeline that gives a function compiled with [`phase1_flags`] what clang
/// would have run on it after the simplification passes: LLVM 22's vectorization passes
/// and the cleanup that follows them (the end of `buildModuleOptimizationPipeline`),
/// with the user's loop options. `None` when nothing was held back.
pub fn tail_pipeline(level: OptLevel, loops: LoopOptions) -> Option<String> {
    if !anything_deferred(level, loops) {
        return None;
    }
    let unroll_level = match level {
        OptLevel::O1 => "O1",
        OptLevel::O3 => "O3",
        _ => "O2",
    };
    let instcombine = "instcombine<max-iterations=1;no-verify-fixpoint>";
    let mut p: Vec<String> = vec!["inject-tli-mappings".into()];
    p.push(format!(
        "loop-vectorize<{}interleave-forced-only;{}vectorize-forced-only;>",
        if loops.unroll { "no-" } else { "" },
        if loops.vectorize { "no-" } else { "" }
    ));
    p.extend(
        [
            "drop-unnecessary-assumes",
            "infer-alignment",
            "loop-load-elim",
            instcombine,
            "simplifycfg<bonus-inst-threshold=1;forward-switch-cond;switch-range-to-icmp;switch-to-arithmetic;switch-to-lookup;no-keep-loops;hoist-common-insts;no-hoist-loads-stores-with-cond-faulting;sink-common-insts;speculate-blocks;simplify-cond-branch;no-speculate-unpredictables>",
        ]
        .map(String::from),
    );
    if loops.slp_vectorize {
        p.push("slp-vectorizer".into());
    }
    p.push("vector-combine".into());
    p.push(instcombine.into());
    if loops.unroll {
        p.push(format!("loop-unroll<{unroll_level}>"));
    }
    p.extend(
        [
            "transform-warning",
            "sroa<preserve-cfg>",
            "infer-alignment",
            instcombine,
            "loop-mssa(licm<allowspeculation>)",
            "alignment-from-assumptions",
            "loop-sink",
            "instsimplify",
            "div-rem-pairs",
            "tailcallelim",
            "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;switch-range-to-icmp;switch-to-arithmetic;no-switch-to-lookup;keep-loops;no-hoist-common-insts;hoist-loads-stores-with-cond-faulting;no-sink-common-insts;speculate-blocks;simplify-cond-branch;speculate-unpredictables>",
        ]
        .map(String::from),
    );
    Some(format!("function({})", p.join(",")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_on() -> LoopOptions {
        LoopOptions {
            vectorize: true,
            slp_vectorize: true,
            unroll: true,
            preheader_checks: false,
            ordered_reductions: false,
        }
    }

    #[test]
    fn nothing_deferred_at_o0_or_with_every_loop_option_off() {
        assert!(phase1_flags(OptLevel::O0).is_empty());
        assert!(tail_pipeline(OptLevel::O0, all_on()).is_none());
        let off = LoopOptions {
            vectorize: false,
            slp_vectorize: false,
            unroll: false,
            preheader_checks: false,
            ordered_reductions: false,
        };
        assert!(tail_pipeline(OptLevel::O2, off).is_none());
    }

    /// The tail is, pass for pass, the end of what LLVM 22 itself runs at -O2 and -O3
    /// (`opt-22 -print-pipeline-passes`), so an LLVM update that changes that end is
    /// noticed here.
    #[test]
    fn tail_matches_llvm_22_pipeline() {
        let dir = tempfile::tempdir().unwrap();
        let ll = dir.path().join("e.ll");
        std::fs::write(&ll, "define void @f() {\n  ret void\n}\n").unwrap();
        for (level, name) in [(OptLevel::O2, "O2"), (OptLevel::O3, "O3")] {
            let out = std::process::Command::new("opt-22")
                .arg(format!("-passes=default<{name}>"))
                .args(["-print-pipeline-passes", "-disable-output"])
                .arg(&ll)
                .output();
            let Ok(out) = out else {
                panic!("opt-22 is needed for this test (scripts/ensure-llvm.sh installs it)");
            };
            let full = String::from_utf8_lossy(&out.stdout).to_string();
            let tail = tail_pipeline(level, all_on()).unwrap();
            let inner = tail
                .strip_prefix("function(")
                .and_then(|t| t.strip_suffix(')'))
                .unwrap();
            assert!(
                full.contains(inner),
                "the tail for {name} is not part of LLVM's pipeline:\n{inner}\n---\n{full}"
            );
        }
    }
}
