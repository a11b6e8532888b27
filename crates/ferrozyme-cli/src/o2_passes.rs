//! The post-AD `-O2` pipeline without the passes that can have no work on the module.
//!
//! `default<O2>` runs three passes that only act on what a module may lack:
//!
//! * `loop-unroll-full` (in the function simplification pipeline) and `loop-unroll<O2>`
//!   (after the vectorizers): with the pipeline's loop unrolling off, as it is for the
//!   derivative code at `-O2` (`pipeline::derivative_loops`), LLVM builds both "only when
//!   forced", so they unroll only loops whose ID asks for it (`llvm.loop.unroll.count`,
//!   `.enable`, `.full`: `#pragma unroll`);
//! * `called-value-propagation`: a module-wide solve whose only output is `!callees` on
//!   indirect calls whose callee it can follow to a set of functions. It follows a
//!   callee loaded from a global variable, never one loaded through any other pointer:
//!   the tape runtime's indirect calls (`__fz_state_release` calls the pool's and the
//!   arena's release through the thread state) get nothing from it.
//!
//! [`o2_pipeline`] gives `default<O2>` as LLVM 22 expands it (`opt-22
//! -passes='default<O2>' -print-pipeline-passes`, stored in `llvm22_o2_pipeline.txt`)
//! less those of the three passes that [`survey`], an analysis that changes nothing,
//! finds no work for. The stored text is only right for the pipeline options it was
//! printed with (loop and SLP vectorization and interleaving on, unrolling off): other
//! options get `None`, and the caller runs `default<O2>` itself. The printed names do not
//! say "only when forced" (`loop-unroll-full` read back unrolls whatever it likes), so
//! the text is never run with the unroll passes in it: a module whose loop IDs name
//! unrolling gets `None` too.
//!
//! Measured (issue 18, bench/README.md "pipe26"): objects identical on
//! `bench/compile_scaling`'s chain and tree and the benchmark programs; the `ferrozyme`
//! process ran 1.2-1.3% fewer instructions on chain and tree n = 80.
//! `unchanged_by_the_llvm_in_use` notices an LLVM whose expansion differs.

use ferrozyme_llvm::{Opcode, Value};
use ferrozyme_transform::Module;

use crate::pipeline::LoopOptions;

/// LLVM 22's `default<O2>` as `-print-pipeline-passes` writes it (without `opt`'s closing
/// `verify`).
const O2_EXPANDED: &str = include_str!("llvm22_o2_pipeline.txt");

/// A pass of `default<O2>` that may have nothing to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum IdlePass {
    FullUnroll,
    Unroll,
    CalledValuePropagation,
}

impl IdlePass {
    /// The pass as `-print-pipeline-passes` writes it.
    fn printed(self) -> &'static str {
        match self {
            IdlePass::FullUnroll => "loop-unroll-full",
            IdlePass::Unroll => "loop-unroll<O2>",
            IdlePass::CalledValuePropagation => "called-value-propagation",
        }
    }
}

/// What in a module could give the three passes work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Survey {
    /// A loop ID on some terminator names an `llvm.loop.unroll.*` property (forcing or
    /// not: any of them keeps the unroll passes).
    pub unroll_properties: bool,
    /// A call, invoke or callbr whose callee is neither a known function nor loaded
    /// through a pointer that is not a global variable.
    pub followable_indirect_calls: bool,
}

/// Reads every defined function's terminators' loop IDs and calls.
pub fn survey(module: Module) -> Survey {
    let loop_kind = module.context().md_kind("llvm.loop");
    let mut s = Survey::default();
    for f in module.functions() {
        if f.is_declaration() {
            continue;
        }
        for b in f.blocks() {
            if !s.unroll_properties {
                s.unroll_properties = b
                    .terminator()
                    .and_then(|t| t.metadata(loop_kind))
                    .is_some_and(names_unrolling);
            }
            if !s.followable_indirect_calls {
                s.followable_indirect_calls = b.instructions().into_iter().any(followable_call);
            }
            if s.unroll_properties && s.followable_indirect_calls {
                return s;
            }
        }
    }
    s
}

/// An indirect call `called-value-propagation` might annotate: not through a known
/// function, and not through a value loaded via a pointer other than a global variable
/// (for which LLVM's solver gives up: overdefined).
fn followable_call(i: Value) -> bool {
    if !matches!(
        i.opcode(),
        Some(Opcode::LLVMCall | Opcode::LLVMInvoke | Opcode::LLVMCallBr)
    ) || i.called_function().is_some()
    {
        return false;
    }
    let callee = i.called_value();
    let opaque_load =
        callee.opcode() == Some(Opcode::LLVMLoad) && !callee.operand(0).is_global_variable();
    !opaque_load
}

/// Does a loop ID hold, at any depth (follow-up attributes nest), a string
/// `llvm.loop.unroll.*`? A loop ID's first operand is the ID itself: nodes are visited
/// once.
fn names_unrolling(loop_id: Value) -> bool {
    let mut seen = std::collections::HashSet::new();
    let mut todo = vec![loop_id];
    while let Some(n) = todo.pop() {
        if !seen.insert(n) {
            continue;
        }
        for op in n.md_node_operands().into_iter().flatten() {
            if op
                .md_string()
                .is_some_and(|s| s.starts_with("llvm.loop.unroll."))
            {
                return true;
            }
            todo.push(op);
        }
    }
    false
}

/// `text` less one occurrence of `pass`, which sits between commas or last in a nested
/// pipeline; `None` when it is not there exactly once.
fn without(text: &str, pass: IdlePass) -> Option<String> {
    let name = pass.printed();
    let inner = format!(",{name},");
    let (with, rest) = if text.contains(&inner) {
        (inner, ",")
    } else {
        (format!(",{name})"), ")")
    };
    (text.matches(&with).count() == 1).then(|| text.replacen(&with, rest, 1))
}

/// The post-AD `-O2` pipeline less the passes [`survey`] finds no work for, when `loops`
/// are the options the stored text was printed with and the module's loop IDs name no
/// unrolling; `None` means: run `default<O2>`.
pub fn o2_pipeline(module: Module, loops: LoopOptions) -> Option<String> {
    let printed_options = loops.vectorize && loops.slp_vectorize && !loops.unroll;
    if !printed_options {
        return None;
    }
    let s = survey(module);
    if s.unroll_properties {
        return None;
    }
    let mut idle = vec![IdlePass::FullUnroll, IdlePass::Unroll];
    if !s.followable_indirect_calls {
        idle.push(IdlePass::CalledValuePropagation);
    }
    idle.into_iter()
        .try_fold(O2_EXPANDED.trim().to_string(), |t, p| without(&t, p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use inkwell::context::Context;

    /// The stored text is what the LLVM in use prints for `default<O2>`: an LLVM upgrade
    /// that changes the pipeline fails here; so does one that drops or renames a pass
    /// [`o2_pipeline`] takes out.
    #[test]
    fn unchanged_by_the_llvm_in_use() {
        let dir = tempfile::tempdir().unwrap();
        let ll = dir.path().join("empty.ll");
        std::fs::write(&ll, "define void @f() {\n  ret void\n}\n").unwrap();
        let out = std::process::Command::new("opt-22")
            .args([
                "-passes=default<O2>",
                "-print-pipeline-passes",
                "-disable-output",
                "-disable-verify",
            ])
            .arg(&ll)
            .output()
            .expect("opt-22 (LLVM 22) is needed to check the stored pipeline");
        assert!(out.status.success(), "{out:?}");
        let printed = String::from_utf8(out.stdout).unwrap();
        assert_eq!(
            printed.trim(),
            O2_EXPANDED.trim(),
            "LLVM's default<O2> changed: regenerate llvm22_o2_pipeline.txt (see o2_passes.rs)"
        );
        for p in [
            IdlePass::FullUnroll,
            IdlePass::Unroll,
            IdlePass::CalledValuePropagation,
        ] {
            let less = without(O2_EXPANDED.trim(), p).unwrap();
            assert!(!less.contains(&format!(",{},", p.printed())), "{p:?}");
            assert!(!less.contains(&format!(",{})", p.printed())), "{p:?}");
            assert_eq!(less.len() + p.printed().len() + 1, O2_EXPANDED.trim().len());
        }
    }

    fn with_module<T>(ir: &str, f: impl FnOnce(Module) -> T) -> T {
        let ctx = Context::create();
        let buf =
            inkwell::memory_buffer::MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "t");
        let m = ctx.create_module_from_ir(buf).unwrap();
        f(Module::from_inkwell(&m))
    }

    const LOOP: &str = "define void @f(ptr %p, i64 %n) {\nentry:\n  br label %l\nl:\n  \
        %i = phi i64 [ 0, %entry ], [ %j, %l ]\n  store i64 %i, ptr %p\n  \
        %j = add i64 %i, 1\n  %c = icmp ult i64 %j, %n\n  br i1 %c, label %l, label %e, !llvm.loop !0\n\
        e:\n  ret void\n}\n";

    #[test]
    fn survey_sees_unroll_properties_and_followable_calls() {
        let plain =
            format!("{LOOP}!0 = distinct !{{!0, !1}}\n!1 = !{{!\"llvm.loop.mustprogress\"}}\n");
        assert_eq!(with_module(&plain, survey), Survey::default());
        let count = format!(
            "{LOOP}!0 = distinct !{{!0, !1}}\n!1 = !{{!\"llvm.loop.unroll.count\", i32 4}}\n"
        );
        assert!(with_module(&count, survey).unroll_properties);
        assert_eq!(with_module(&count, |m| o2_pipeline(m, O2)), None);
        // Nested in a follow-up attribute.
        let nested = format!(
            "{LOOP}!0 = distinct !{{!0, !1}}\n!1 = !{{!\"llvm.loop.distribute.followup_all\", !2}}\n\
             !2 = !{{!\"llvm.loop.unroll.full\"}}\n"
        );
        assert!(with_module(&nested, survey).unroll_properties);
        let direct = "declare void @g()\ndefine void @h() {\n  call void @g()\n  ret void\n}\n";
        assert_eq!(with_module(direct, survey), Survey::default());
        // Through an argument: the solver follows the callers' arguments.
        let argument = "define void @h(ptr %g) {\n  call void %g()\n  ret void\n}\n";
        assert!(with_module(argument, survey).followable_indirect_calls);
        let global = "@fp = global ptr null\ndefine void @h() {\n  %g = load ptr, ptr @fp\n  \
            call void %g()\n  ret void\n}\n";
        assert!(with_module(global, survey).followable_indirect_calls);
        let field = "define void @h(ptr %s) {\n  %a = getelementptr i8, ptr %s, i64 8\n  \
            %g = load ptr, ptr %a\n  call void %g()\n  ret void\n}\n";
        assert_eq!(with_module(field, survey), Survey::default());
        let kept = with_module(argument, |m| o2_pipeline(m, O2)).unwrap();
        assert!(kept.contains(",called-value-propagation,"));
        assert!(!kept.contains("loop-unroll"));
    }

    const O2: LoopOptions = LoopOptions {
        vectorize: true,
        slp_vectorize: true,
        unroll: false,
        preheader_checks: false,
        ordered_reductions: false,
    };

    #[test]
    fn full_pipeline_unless_the_printed_options() {
        let ctx = Context::create();
        let m = ctx.create_module("m");
        let m = Module::from_inkwell(&m);
        let trimmed = o2_pipeline(m, O2).unwrap();
        for p in ["called-value-propagation", "loop-unroll"] {
            assert!(!trimmed.contains(p), "{p} in {trimmed}");
        }
        for other in [
            LoopOptions { unroll: true, ..O2 },
            LoopOptions {
                vectorize: false,
                ..O2
            },
            LoopOptions {
                slp_vectorize: false,
                ..O2
            },
        ] {
            assert_eq!(o2_pipeline(m, other), None, "{other:?}");
        }
    }
}
