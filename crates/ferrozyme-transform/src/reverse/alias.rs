//! The tape is memory no other code can point to: telling LLVM so.
//!
//! Tape buffers come from the tape runtime (an `alloca` of the generated function, stack
//! buffers from `malloc` or the per-thread pool, split-mode blocks from the arena); their
//! addresses never reach the user's code. LLVM cannot know that, so in a reverse loop
//! that adds into shadow memory it must assume every shadow store may overwrite the tape
//! and re-loads loop-invariant tape values in every iteration (GMM's triangular loop
//! re-read a cached start index and a cached `x - mu` per iteration).
//!
//! Every load and store of a cached value (`values.rs`: slots and record fields) is put in
//! one alias scope, `ferrozyme.tape` (`!alias.scope`), and at the end of a synthesis every
//! other load and store of the generated functions (primal copies, shadows) is marked as
//! not aliasing it (`!noalias`, added to any list it already carries). Scoped-noalias
//! alias analysis then lets LICM and GVN move tape loads across shadow stores. Memory
//! the runtime itself touches (stack headers, inlined `__fz_push`) is left unmarked, which
//! LLVM treats as possibly aliasing anything.
//!
//! The scope is named by a string, so it is the same in every generated function and
//! survives inlining of derivatives into each other: a tape is distinct from every
//! shadow and primal buffer whichever derivative owns it. Generated code differentiated
//! again (higher order) has this metadata removed when it is cloned (`clone.rs`): there
//! the inner tape is primal memory of the outer derivative.

use ferrozyme_llvm::{Context, Opcode, Value};

/// The scope list `!{!{!"ferrozyme.tape", !{!"ferrozyme"}}}`.
fn tape_scope_list(ctx: Context) -> Value {
    let domain = ctx.md_node(&[ctx.md_string("ferrozyme")]);
    let scope = ctx.md_node(&[ctx.md_string("ferrozyme.tape"), domain]);
    ctx.md_node(&[scope])
}

/// Is this load or store a tape access (marked by [`mark_tape`])? Tape memory is never
/// user or shadow memory (`streams/mod.rs`).
pub(crate) fn is_tape_access(ctx: Context, inst: Value) -> bool {
    inst.metadata(ctx.md_kind("alias.scope")) == Some(tape_scope_list(ctx))
}

/// Marks a load or store of a cached value as a tape access.
pub(super) fn mark_tape(ctx: Context, inst: Value) {
    inst.set_metadata(ctx.md_kind("alias.scope"), Some(tape_scope_list(ctx)));
}

/// Marks a tape access that moves plain integer data (a loop counter, a path tag, a
/// primal integer without float bits) so that type analysis of this derivative, when it
/// is differentiated again, takes the integer from the access and not from the tape
/// memory, whose records mix integers and floats at the same offsets
/// (`ferrozyme-analysis` `types/engine/typed_access.rs`). Not `!tbaa`: alias analysis
/// must not take tape slots reused with another type for distinct memory.
pub(super) fn mark_tape_int(ctx: Context, inst: Value) {
    inst.set_metadata(
        ctx.md_kind(ferrozyme_analysis::types::TAPE_INT_MD),
        Some(ctx.md_node(&[])),
    );
}

/// Marks every load and store of `f` that is not a tape access as not aliasing the tape.
pub(super) fn mark_not_tape(ctx: Context, f: Value) {
    let scope_kind = ctx.md_kind("alias.scope");
    let noalias_kind = ctx.md_kind("noalias");
    let list = tape_scope_list(ctx);
    let scope = list.md_node_operands()[0].expect("the list holds the scope");
    for b in f.blocks() {
        for i in b.instructions() {
            if !matches!(i.opcode(), Some(Opcode::LLVMLoad | Opcode::LLVMStore))
                || i.metadata(scope_kind) == Some(list)
            {
                continue;
            }
            let md = match i.metadata(noalias_kind) {
                None => list,
                Some(old) => {
                    let mut ops: Vec<Value> =
                        old.md_node_operands().into_iter().flatten().collect();
                    if ops.contains(&scope) {
                        continue;
                    }
                    ops.push(scope);
                    ctx.md_node(&ops)
                }
            };
            i.set_metadata(noalias_kind, Some(md));
        }
    }
}

/// Shadow memory is not primal memory: telling LLVM so inside one reverse function.
///
/// By the AD contract the memory behind a shadow parameter marked
/// `generated::SHADOW_PARAM_ATTR` (not under run-time activity, where a shadow may be
/// its primal, nor for `enzyme_dupnoneed`) is disjoint from all primal memory. Without
/// the fact LLVM's vectorizer guards a reverse loop that reads primal memory and adds
/// into a shadow behind a run-time overlap check (GMM's reverse row loop at `-O2`, `icf`
/// against its shadow `dicf`, gmm8), and LICM cannot keep primal loads across adjoint
/// stores.
///
/// Every load and store of `f` whose address is computed (GEPs, casts) from a marked
/// shadow parameter gets `!alias.scope` of a scope named after `f`; every one whose
/// address is computed from `primals` (the reverse function's copies of the primal
/// pointer parameters) gets that scope added to its `!noalias`. Nothing else is marked: accesses through loaded
/// or merged pointers, the tape (its own scope), other shadows among themselves (two
/// shadow parameters may be one buffer when their primals are). The scope is per
/// function (the contract is the caller's, about this function's parameters); inlined
/// elsewhere the marks keep describing the same parameters. Differentiated again, the
/// marks are dropped with the tape's (`clone.rs`).
pub(super) fn mark_shadows_disjoint(ctx: Context, f: Value, primals: &[Value]) {
    let shadows: Vec<Value> = f
        .params()
        .into_iter()
        .filter(|p| crate::generated::is_shadow_param(*p))
        .collect();
    if shadows.is_empty() {
        return;
    }
    let domain = ctx.md_node(&[ctx.md_string("ferrozyme")]);
    let scope = ctx.md_node(&[
        ctx.md_string(&format!("ferrozyme.shadow.{}", f.name())),
        domain,
    ]);
    let scope_kind = ctx.md_kind("alias.scope");
    let noalias_kind = ctx.md_kind("noalias");
    for b in f.blocks() {
        for i in b.instructions() {
            let ptr = match i.opcode() {
                Some(Opcode::LLVMLoad) => i.operand(0),
                Some(Opcode::LLVMStore) => i.operand(1),
                _ => continue,
            };
            if is_tape_access(ctx, i) {
                continue;
            }
            let base = crate::common::base_object(ptr);
            let kind = if shadows.contains(&base) {
                scope_kind
            } else if primals.contains(&base) {
                noalias_kind
            } else {
                continue;
            };
            let mut ops: Vec<Value> = i
                .metadata(kind)
                .map(|old| old.md_node_operands().into_iter().flatten().collect())
                .unwrap_or_default();
            if !ops.contains(&scope) {
                ops.push(scope);
                i.set_metadata(kind, Some(ctx.md_node(&ops)));
            }
        }
    }
}
