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
//!   follows them), so the primal code gets what clang alone would have given it. The
//!   cleanup passes of that tail already ran on these functions in the first compile
//!   (clang's pipeline keeps them with the vectorizers off), so each function gets them
//!   again only after a held-back transformation that changed it ([`run_tail`]).
//!
//! The pass plugin (`clang -fpass-plugin`) still runs at the `OptimizerLast` extension
//! point, after clang's vectorizers (`plugin.cpp`); moving it to `OptimizerEarly`, just
//! before them, is not done yet.

use ferrozyme_analysis::hash::{HashMap, HashSet};
use ferrozyme_llvm::{Opcode, TypeKind, Value};

use crate::args::OptLevel;
use crate::error::CliError;
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
/// with the user's loop options. `None` when nothing was held back. [`run_tail`] runs it
/// in [`tail_steps`]; this whole text is what the tests compare with LLVM's pipeline.
#[cfg(test)]
pub fn tail_pipeline(level: OptLevel, loops: LoopOptions) -> Option<String> {
    tail_passes(level, loops).map(|p| format!("function({})", p.join(",")))
}

/// The passes of [`tail_pipeline`], in order.
fn tail_passes(level: OptLevel, loops: LoopOptions) -> Option<Vec<String>> {
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
    Some(p)
}

/// A held-back transformation of [`tail_pipeline`] (with what it needs before it) and
/// the rest of the tail after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TailStep {
    pub transform: String,
    pub rest: String,
}

/// Whether a pass of the tail is one of the transformations the first compile held
/// back (the others clean up after them).
fn is_held_back(pass: &str) -> bool {
    pass.starts_with("loop-vectorize<")
        || pass == "slp-vectorizer"
        || pass.starts_with("loop-unroll<")
}

/// [`tail_pipeline`] cut at its held-back transformations, for [`run_tail`]: step `k`'s
/// `transform` is the `k`-th of them (the first with the TLI mappings before it), its
/// `rest` everything after it to the end of the tail. The cleanup passes between them
/// are what the first compile already ran on every function (clang's pipeline with the
/// vectorizers and partial unrolling off still runs them): on a function none of the
/// transformations changes, running them again is work clang alone does not do
/// (issue 18: 1.3-1.9% of `ferrozyme cc` on `bench/compile_scaling`'s chain and tree,
/// whose primal functions the tail leaves as they are).
pub fn tail_steps(level: OptLevel, loops: LoopOptions) -> Option<Vec<TailStep>> {
    let passes = tail_passes(level, loops)?;
    let held: Vec<usize> = (0..passes.len())
        .filter(|&i| is_held_back(&passes[i]))
        .collect();
    let steps = held
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            let from = if k == 0 { 0 } else { i };
            let rest = &passes[i + 1..];
            TailStep {
                transform: format!("function({})", passes[from..=i].join(",")),
                rest: if rest.is_empty() {
                    String::new()
                } else {
                    format!("function({})", rest.join(","))
                },
            }
        })
        .collect();
    Some(steps)
}

/// What a function none of the held-back transformations changed still gets: the tail's
/// `instsimplify` and its last `simplifycfg`, which take out what the loop vectorizer's
/// and the unroller's loop canonicalisation left (LCSSA phis of one value, dedicated exit
/// blocks). Without them such leftovers reached code generation and changed the
/// operand order of equality compares in the benchmarks' input reader
/// (`bench_json_nums`); with them the objects are the same as with the whole tail.
pub fn settle_pipeline(level: OptLevel, loops: LoopOptions) -> Option<String> {
    let passes = tail_passes(level, loops)?;
    let last = passes.len() - 1;
    let kept: Vec<&str> = passes
        .iter()
        .enumerate()
        .filter(|&(i, p)| p == "instsimplify" || i == last)
        .map(|(_, p)| p.as_str())
        .collect();
    Some(format!("function({})", kept.join(",")))
}

/// What a held-back transformation changes in a function when it does anything: the
/// instructions other than phis and unconditional branches, by opcode and vector-ness, in
/// order (a hash). Loop canonicalisation, which the loop vectorizer and the unroller do
/// on every loop they look at whether they transform it or not (dedicated exits and
/// preheaders: blocks of one `br`; LCSSA: phis), leaves it as it was; vectorizing,
/// interleaving, SLP packing and unrolling add or replace instructions.
fn shape(f: Value) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for b in f.blocks() {
        for i in b.instructions() {
            let op = i.opcode();
            if op == Some(Opcode::LLVMPHI) || (op == Some(Opcode::LLVMBr) && i.num_operands() == 1)
            {
                continue;
            }
            (op.map(|o| o as u32), i.ty().kind() == TypeKind::Vector).hash(&mut h);
        }
    }
    h.finish()
}

/// Runs the tail on the functions the pass left alone (`untouched`), step by step
/// ([`tail_steps`]): each function gets the rest of the tail after the first held-back
/// transformation that changed it ([`shape`]), and none of the cleanup between them when
/// none did, but [`settle_pipeline`]. A function that the first compile left as clang
/// would have (no loop to vectorize or unroll, no SLP tree) then costs one run of each
/// transformation and two cheap passes.
pub fn run_tail(
    module: &inkwell::module::Module<'_>,
    tm: &inkwell::targets::TargetMachine,
    untouched: &HashSet<String>,
    level: OptLevel,
    loops: LoopOptions,
) -> Result<(), CliError> {
    let Some(steps) = tail_steps(level, loops) else {
        return Ok(());
    };
    let m = ferrozyme_transform::Module::from_inkwell(module);
    let mut left: HashSet<String> = untouched.clone();
    let run = |names: &HashSet<String>, text: &str| -> Result<(), CliError> {
        if names.is_empty() || text.is_empty() {
            return Ok(());
        }
        let f = ferrozyme_transform::freeze::freeze_all_except(m, names);
        let ran = crate::pipeline::run_pipeline(module, tm, text, loops);
        ferrozyme_transform::freeze::thaw(f);
        ran
    };
    for step in &steps {
        let before: HashMap<String, u64> = shapes(m, &left);
        run(&left, &step.transform)?;
        let changed: HashSet<String> = shapes(m, &left)
            .into_iter()
            .filter(|(n, s)| before.get(n) != Some(s))
            .map(|(n, _)| n)
            .collect();
        run(&changed, &step.rest)?;
        left.retain(|n| !changed.contains(n));
    }
    if let Some(settle) = settle_pipeline(level, loops) {
        run(&left, &settle)?;
    }
    Ok(())
}

/// [`shape`] of each defined function named in `names`.
fn shapes(m: ferrozyme_transform::Module, names: &HashSet<String>) -> HashMap<String, u64> {
    names
        .iter()
        .filter_map(|n| m.function(n))
        .filter(|f| !f.is_declaration())
        .map(|f| (f.name(), shape(f)))
        .collect()
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

    /// Each step's transformation is one held-back pass, and the first step with the rest
    /// after it is the whole tail: a function the first transformation changes gets what
    /// it got before the tail was cut into steps.
    #[test]
    fn tail_steps_cut_the_tail_at_the_held_back_passes() {
        let tail = tail_pipeline(OptLevel::O2, all_on()).unwrap();
        let steps = tail_steps(OptLevel::O2, all_on()).unwrap();
        assert_eq!(steps.len(), 3);
        let inner = |t: &str| {
            t.strip_prefix("function(")
                .unwrap()
                .strip_suffix(')')
                .unwrap()
                .to_string()
        };
        assert_eq!(
            format!(
                "function({},{})",
                inner(&steps[0].transform),
                inner(&steps[0].rest)
            ),
            tail
        );
        assert!(steps[0]
            .transform
            .starts_with("function(inject-tli-mappings,loop-vectorize<"));
        assert_eq!(steps[1].transform, "function(slp-vectorizer)");
        assert_eq!(steps[2].transform, "function(loop-unroll<O2>)");
        for s in &steps[1..] {
            assert!(tail.ends_with(&format!("{},{})", inner(&s.transform), inner(&s.rest))));
        }
        // Without SLP and unrolling only the loop vectorizer is a step.
        let lv_only = LoopOptions {
            slp_vectorize: false,
            unroll: false,
            ..all_on()
        };
        assert_eq!(tail_steps(OptLevel::O2, lv_only).unwrap().len(), 1);
        assert!(tail_steps(OptLevel::O0, all_on()).is_none());
        let settle = settle_pipeline(OptLevel::O2, all_on()).unwrap();
        assert!(settle.starts_with("function(instsimplify,simplifycfg<"));
        assert!(tail.ends_with(&settle["function(instsimplify,".len()..]));
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
