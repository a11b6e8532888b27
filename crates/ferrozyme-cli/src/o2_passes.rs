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
//!   indirect calls.
//!
//! [`trimmed_o2`] gives, for such a module, `default<O2>` as LLVM 22 expands it
//! (`opt-22 -passes='default<O2>' -print-pipeline-passes`, stored in
//! `llvm22_o2_pipeline.txt`) less those three passes; any other module gets `None` and the
//! caller runs `default<O2>` itself. Which modules qualify is [`survey`]'s, an analysis
//! that changes nothing. The stored text is only right for the pipeline options it was
//! printed with (loop and SLP vectorization and interleaving on, unrolling off), so other
//! options get `None` too.
//!
//! Measured (issue 18, bench/README.md "pipe26"): objects identical on
//! `bench/compile_scaling`'s chain and tree, about 1% less `ferrozyme cc` process time.
//! `unchanged_by_the_llvm_in_use` notices an LLVM whose expansion differs.

use ferrozyme_llvm::Value;
use ferrozyme_transform::Module;

use crate::pipeline::LoopOptions;

/// LLVM 22's `default<O2>` (without `opt`'s closing `verify`) less the three passes above.
const O2_WITHOUT_IDLE_PASSES: &str = include_str!("llvm22_o2_pipeline.txt");

/// What in a module could give the three passes work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Survey {
    /// A loop ID on some terminator names an `llvm.loop.unroll.*` property (forcing or
    /// not: any of them keeps the full pipeline).
    pub unroll_properties: bool,
    /// A call, invoke or callbr whose callee is not a known function.
    pub indirect_calls: bool,
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
            if let Some(t) = b.terminator() {
                if !s.unroll_properties {
                    s.unroll_properties = t.metadata(loop_kind).is_some_and(names_unrolling);
                }
            }
            if !s.indirect_calls {
                s.indirect_calls = b.instructions().into_iter().any(|i| {
                    matches!(
                        i.opcode(),
                        Some(
                            ferrozyme_llvm::Opcode::LLVMCall
                                | ferrozyme_llvm::Opcode::LLVMInvoke
                                | ferrozyme_llvm::Opcode::LLVMCallBr
                        )
                    ) && i.called_function().is_none()
                });
            }
            if s.unroll_properties && s.indirect_calls {
                return s;
            }
        }
    }
    s
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
            if op.md_string().is_some_and(|s| s.starts_with("llvm.loop.unroll.")) {
                return true;
            }
            todo.push(op);
        }
    }
    false
}

/// The post-AD `-O2` pipeline less the three passes, when `loops` are the options the
/// stored text was printed with and [`survey`] finds nothing for those passes; `None`
/// means: run `default<O2>`.
pub fn trimmed_o2(module: Module, loops: LoopOptions) -> Option<&'static str> {
    let printed_options = loops.vectorize && loops.slp_vectorize && !loops.unroll;
    if !printed_options {
        return None;
    }
    let s = survey(module);
    (!s.unroll_properties && !s.indirect_calls).then_some(O2_WITHOUT_IDLE_PASSES.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;
    use inkwell::context::Context;

    /// The passes of `default<O2>` that [`trimmed_o2`] leaves out.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum IdlePass {
        FullUnroll,
        Unroll,
        CalledValuePropagation,
    }

    impl IdlePass {
        const ALL: [IdlePass; 3] = [
            IdlePass::CalledValuePropagation,
            IdlePass::FullUnroll,
            IdlePass::Unroll,
        ];

        /// The pass as `-print-pipeline-passes` writes it.
        fn printed(self) -> &'static str {
            match self {
                IdlePass::FullUnroll => "loop-unroll-full",
                IdlePass::Unroll => "loop-unroll<O2>",
                IdlePass::CalledValuePropagation => "called-value-propagation",
            }
        }
    }

    /// `text` less one occurrence of each idle pass, or why not.
    fn without_idle_passes(text: &str) -> Result<String, String> {
        let mut t = text.trim().to_string();
        for p in IdlePass::ALL {
            let name = p.printed();
            // A pass sits between commas, or last in a nested pipeline.
            let (with, without) = if t.contains(&format!(",{name},")) {
                (format!(",{name},"), ",".to_string())
            } else {
                (format!(",{name})"), ")".to_string())
            };
            if t.matches(&with).count() != 1 {
                return Err(format!("'{name}' is not in the pipeline exactly once"));
            }
            t = t.replacen(&with, &without, 1);
        }
        Ok(t)
    }

    /// The stored text is what the LLVM in use prints for `default<O2>`, less the idle
    /// passes: an LLVM upgrade that changes the pipeline fails here.
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
            without_idle_passes(&printed).unwrap(),
            O2_WITHOUT_IDLE_PASSES.trim_end(),
            "LLVM's default<O2> changed: regenerate llvm22_o2_pipeline.txt (see o2_passes.rs)"
        );
    }

    fn surveyed(ir: &str) -> Survey {
        let ctx = Context::create();
        let buf = inkwell::memory_buffer::MemoryBuffer::create_from_memory_range_copy(
            ir.as_bytes(),
            "t",
        );
        let m = ctx.create_module_from_ir(buf).unwrap();
        survey(Module::from_inkwell(&m))
    }

    const LOOP: &str = "define void @f(ptr %p, i64 %n) {\nentry:\n  br label %l\nl:\n  \
        %i = phi i64 [ 0, %entry ], [ %j, %l ]\n  store i64 %i, ptr %p\n  \
        %j = add i64 %i, 1\n  %c = icmp ult i64 %j, %n\n  br i1 %c, label %l, label %e, !llvm.loop !0\n\
        e:\n  ret void\n}\n";

    #[test]
    fn survey_sees_unroll_properties_and_indirect_calls() {
        let plain = format!("{LOOP}!0 = distinct !{{!0, !1}}\n!1 = !{{!\"llvm.loop.mustprogress\"}}\n");
        assert_eq!(surveyed(&plain), Survey::default());
        let count = format!(
            "{LOOP}!0 = distinct !{{!0, !1}}\n!1 = !{{!\"llvm.loop.unroll.count\", i32 4}}\n"
        );
        assert!(surveyed(&count).unroll_properties);
        // Nested in a follow-up attribute.
        let nested = format!(
            "{LOOP}!0 = distinct !{{!0, !1}}\n!1 = !{{!\"llvm.loop.distribute.followup_all\", !2}}\n\
             !2 = !{{!\"llvm.loop.unroll.full\"}}\n"
        );
        assert!(surveyed(&nested).unroll_properties);
        let direct = "declare void @g()\ndefine void @h() {\n  call void @g()\n  ret void\n}\n";
        assert_eq!(surveyed(direct), Survey::default());
        let indirect = "define void @h(ptr %g) {\n  call void %g()\n  ret void\n}\n";
        assert!(surveyed(indirect).indirect_calls);
    }

    #[test]
    fn full_pipeline_unless_the_printed_options() {
        let ctx = Context::create();
        let m = ctx.create_module("m");
        let m = Module::from_inkwell(&m);
        let o2 = LoopOptions {
            vectorize: true,
            slp_vectorize: true,
            unroll: false,
            preheader_checks: false,
            ordered_reductions: false,
        };
        assert!(trimmed_o2(m, o2).is_some());
        for other in [
            LoopOptions { unroll: true, ..o2 },
            LoopOptions { vectorize: false, ..o2 },
            LoopOptions { slp_vectorize: false, ..o2 },
        ] {
            assert_eq!(trimmed_o2(m, other), None, "{other:?}");
        }
    }
}
