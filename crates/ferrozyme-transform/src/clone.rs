//! Cloning a function and preparing the clone for differentiation.
//!
//! Like Enzyme, we never differentiate the user's function in place: we clone it, run a
//! few cheap canonicalising passes on the clone (SSA construction, so `-O0` code with its
//! stack slots looks like optimized code), differentiate the clone, then delete it. The
//! clone keeps its `!dbg` locations so diagnostics can name source lines; the generated
//! code drops them (see `reverse`).

use ferrozyme_analysis::hash::HashMap;

use ferrozyme_llvm::{run_function_passes, Builder, Module, Opcode, Value};

/// The name prefix of the clones `driver.rs` differentiates (`fz_primal_<name>`).
pub const CLONE_PREFIX: &str = "fz_primal_";

/// Is `f` a clone made for differentiation (its calls stand for the original's)?
pub fn is_clone(f: Value) -> bool {
    f.is_function() && f.name().starts_with(CLONE_PREFIX)
}

/// Copies `src`'s body into a new internal function `name`.
pub fn clone_function(m: Module, src: Value, name: &str) -> Value {
    // Generated code differentiated again: its tape scopes (`reverse/alias.rs`) describe
    // memory that is primal memory of the new derivative.
    copy_body(m, src, name, crate::generated::is_generated(src))
}

/// Copies `src`'s body into a new internal function `name`, with its parameters'
/// `noalias` marks, and without the instructions' alias scopes when `strip_scopes`.
pub fn copy_body(m: Module, src: Value, name: &str, strip_scopes: bool) -> Value {
    let dst = m.add_function(name, src.function_type());
    dst.set_linkage_internal();
    dst.mark_origin(src);
    // A body with `invoke`/`landingpad` needs its personality: LLVM's passes (simplifycfg
    // on the clone) crash on exception handling in a function without one.
    if let Some(p) = src.personality() {
        dst.set_personality(p);
    }
    let mut map: HashMap<Value, Value> = HashMap::default();
    for (k, (p, q)) in src.params().into_iter().zip(dst.params()).enumerate() {
        q.set_name(&p.name());
        map.insert(p, q);
        // Aliasing facts the analyses use (memory.rs: loads that can be re-read).
        if src.has_param_attr(k as u32, "noalias") {
            dst.add_param_attr(k as u32, "noalias");
        }
        // References to empty classes (`activity::is_empty_object_param`: they need no
        // shadow). Only size 1 is copied: larger sizes would let the passes run on the
        // clone speculate loads and change the code type analysis sees.
        if src.param_int_attr(k as u32, "dereferenceable") == Some(1) {
            dst.add_param_int_attr(k as u32, "dereferenceable", 1);
        }
    }
    copy_blocks(m, src, dst, &mut map, strip_scopes);
    dst
}

/// Copies `src`'s blocks into `dst`, whose parameters (or the values standing for
/// them) `map` already maps `src`'s to. A block `map` already maps (`src`'s entry, to a
/// block of `dst` with instructions of its own) receives its copy at its end.
pub fn copy_blocks(
    m: Module,
    src: Value,
    dst: Value,
    map: &mut HashMap<Value, Value>,
    strip_scopes: bool,
) {
    let ctx = m.context();
    let b = Builder::new(ctx);
    let blocks = src.blocks();
    for blk in &blocks {
        if !map.contains_key(&blk.as_value()) {
            let nb = b.append_block(dst, &blk.name());
            map.insert(blk.as_value(), nb.as_value());
        }
    }
    let mut phis = Vec::new();
    let mut clones = Vec::new();
    for blk in &blocks {
        let nb = map[&blk.as_value()].as_block();
        b.position_at_end(nb);
        for i in blk.instructions() {
            if i.opcode() == Some(Opcode::LLVMPHI) {
                let p = b.phi(i.ty(), &i.name());
                map.insert(i, p);
                phis.push((i, p));
            } else {
                let c = i.clone_instruction();
                b.insert(c);
                c.set_name(&i.name());
                if strip_scopes {
                    for kind in ["alias.scope", "noalias"] {
                        let k = ctx.md_kind(kind);
                        if c.metadata(k).is_some() {
                            c.set_metadata(k, None);
                        }
                    }
                }
                map.insert(i, c);
                clones.push(c);
            }
        }
    }
    for c in clones {
        for k in 0..c.num_operands() {
            let op = c.operand(k);
            if let Some(&n) = map.get(&op) {
                c.set_operand(k, n);
            }
        }
    }
    for (old, new) in phis {
        for (v, blk) in old.incoming() {
            let v = map.get(&v).copied().unwrap_or(v);
            new.add_incoming(v, map[&blk.as_value()].as_block());
        }
    }
}

/// Makes a clone ready for differentiation: no `optnone`, SSA form. For reverse mode,
/// loops with a small constant trip count are also unrolled (LLVM's full-unroll cost
/// model), whatever the user's `-fno-unroll-loops` did to the primal: straight-line code
/// keeps its values in tape slots instead of pushing them on stacks, and the small local
/// arrays such loops index (`double w[3]`) become registers, so they need no shadow
/// memory either.
///
/// `unpeeled`: the primal has not been through the optimizer's LoopUnroll yet (the plugin
/// differentiates at clang's OptimizerEarly, before it): the reverse clone first gets what
/// LoopUnroll did in `ferrozyme cc`'s first compile (`clang_unroll.rs`).
pub fn preprocess(m: Module, f: Value, reverse: bool, unpeeled: Option<u8>) -> Result<(), String> {
    for attr in ["optnone", "noinline", "alwaysinline"] {
        f.remove_fn_attr(attr);
    }
    // First: the procedures it inlines bring their calls into the clone for the steps below.
    crate::trampolines::resolve(m, f)?;
    crate::coerced_structs::inline_float_carrying_calls(m, f)?;
    use_plain_runtime(m, f);
    inline_runtime_leaves(m, f);
    crate::iter::bump_in_clone(f);
    drop_unwind_paths(m, f);
    crate::fortran_constants::copy_constant_arrays(m, f);
    crate::constant_copies::restore_constant_pointers(m, f);
    crate::fortran::redirect_runtime_calls(m, f)?;
    crate::parallel::atomic_cas::rewrite(m, f);
    crate::parallel::tasks::serialize(m, f);
    crate::parallel::copyprivate::rewrite(m, f);
    crate::parallel::fork_if::rewrite(m, f);
    crate::parallel::firstprivate::rewrite(m, f);
    crate::parallel::openmp::rewrite_reductions(m, f);
    crate::libdefs::redirect(m, f)?;
    crate::thread_locals::use_globals_directly(m, f);
    crate::split_math::split(m, f);
    crate::known_asm::rewrite(m, f);
    crate::ifunc_calls::call_resolved(m, f);
    crate::fortify::rewrite(m, f);
    let done = preprocess_passes(m, f, reverse, unpeeled);
    // After inlining and SSA construction: the shuffles' bitcasts are then direct.
    crate::double_halves::rewrite(m, f);
    // After SROA: pointers it or InstCombine carried through integers (`intptr.rs`).
    crate::intptr::rebuild_pointers(f);
    done
}

fn preprocess_passes(
    m: Module,
    f: Value,
    reverse: bool,
    unpeeled: Option<u8>,
) -> Result<(), String> {
    if reverse {
        // Loop IDs (with clang's `llvm.loop.unroll.disable` under -fno-unroll-loops)
        // belong to the primal's loops; the clone's loops are ours to transform.
        // So do the reverse loops' marks of generated code (`rolled_loops.rs`).
        let ctx = f.ty().context();
        for kind in [
            ctx.md_kind("llvm.loop"),
            ctx.md_kind(crate::rolled_loops::MARK),
        ] {
            for b in f.blocks() {
                if let Some(t) = b.terminator() {
                    if t.metadata(kind).is_some() {
                        t.set_metadata(kind, None);
                    }
                }
            }
        }
        run_function_passes(
            f,
            "sroa,mem2reg,instsimplify,simplifycfg,loop(loop-unroll-full),sroa,instsimplify,simplifycfg",
        )?;
        if let Some(level) = unpeeled {
            crate::clang_unroll::unroll_as_clang(f, level)?;
        }
        // Clamped rows of outer loops (`peel_rows.rs`): the boundary rows peeled, the
        // rows' clamps gone from the loop left; the copies' constant rows fold.
        if crate::peel_rows::peel_clamped_rows(m, f)? {
            run_function_passes(f, "instsimplify")?;
        }
        // Clamped neighbour indices become affine in the loop (`peel.rs`); the peeled
        // copies' constant counters fold.
        if crate::peel::peel_clamped_loops(m, f)? {
            run_function_passes(f, "instsimplify")?;
        }
        // Periodic loops clang peeled itself: their neighbour indices read as offsets
        // once ranges prove clang's 32-bit spellings exact (`wrap_index.rs`).
        crate::wrap_index::anchor_wrapped_loops(m, f)?;
        Ok(())
    } else {
        run_function_passes(f, "sroa,mem2reg,instsimplify,simplifycfg")
    }
}

/// C++ compiled with exceptions calls with `invoke` where the caller has cleanups (a local
/// `std::vector`'s destructor). The derivative follows the normal path only: each `invoke`
/// becomes a call and a branch to its normal destination, so the landing pads and their
/// cleanup code become unreachable and the canonicalising passes remove them. Generated
/// functions are `nounwind`: an exception thrown on the differentiated path at run time
/// ends the program in `std::terminate` (never a derivative computed past it).
fn drop_unwind_paths(m: Module, f: Value) {
    let invokes: Vec<Value> = f
        .blocks()
        .into_iter()
        .filter_map(|b| b.terminator())
        .filter(|t| t.opcode() == Some(Opcode::LLVMInvoke))
        .collect();
    if !invokes.is_empty() {
        crate::unmerge::invokes_to_calls(m, invokes);
    }
}

/// Generated code that is differentiated again (higher order) calls the runtime's plain
/// stack and tape functions: the pool and the arena keep per-thread state that has no
/// derivative (their shadows would be separate pools, out of step with the primal ones).
fn use_plain_runtime(m: Module, f: Value) {
    for b in f.blocks() {
        for i in b.instructions() {
            let Some(g) = (i.opcode() == Some(Opcode::LLVMCall))
                .then(|| i.called_function())
                .flatten()
            else {
                continue;
            };
            let name = g.name();
            if let Some((_, plain)) = crate::runtime::PLAIN_VARIANTS
                .iter()
                .find(|(n, _)| *n == name)
            {
                let p = m.get_or_declare(plain, g.function_type());
                i.set_operand(i.num_operands() - 1, p);
            }
        }
    }
}

/// In a clone of generated code (higher order), calls of the runtime's single-block
/// `alwaysinline` functions (`__fz_push_reserved`, `__fz_top`, `__fz_pop`) are inlined
/// before it is differentiated. Differentiated as calls, each would become an augmented
/// call with a tape block of its own from the arena, one per record pushed or popped
/// (bench/README, "Reverse over reverse of taped loops"); inlined, they are loads and
/// stores of the stack header (typed by `!ferrozyme.tape.int`) and address arithmetic,
/// which the outer derivative caches or recomputes like any other.
fn inline_runtime_leaves(m: Module, f: Value) {
    let calls: Vec<(Value, Value)> = f
        .calls()
        .filter_map(|i| {
            let g = i.called_function()?;
            let leaf = crate::runtime::is_runtime_symbol(&g.name())
                && g.has_fn_attr("alwaysinline")
                && g.blocks().len() == 1;
            leaf.then_some((i, g))
        })
        .collect();
    let b = Builder::new(m.context());
    for (call, g) in calls {
        let mut map: HashMap<Value, Value> = g.params().into_iter().zip(call.call_args()).collect();
        b.position_before(call);
        let mut ret = None;
        for i in g.blocks()[0].instructions() {
            if i.opcode() == Some(Opcode::LLVMRet) {
                ret = (i.num_operands() > 0).then(|| i.operand(0));
                break;
            }
            let c = i.clone_instruction();
            for k in 0..c.num_operands() {
                if let Some(&v) = map.get(&c.operand(k)) {
                    c.set_operand(k, v);
                }
            }
            b.insert(c);
            map.insert(i, c);
        }
        if let Some(r) = ret {
            call.replace_all_uses_with(map.get(&r).copied().unwrap_or(r));
        }
        call.erase();
    }
}

/// The error for a function whose control flow goes through an `indirectbr` (GCC's
/// computed `goto *p`) or a `callbr` (`asm goto`), reported on the user's function before
/// it is cloned. The clone cannot keep such a branch: the `blockaddress` constants it
/// jumps to name the original function's blocks, so in the clone the branch's target is
/// never one of its own successors, and the canonicalising passes turn it into
/// `unreachable` — a derivative that crashed when called (tests/errors/computed_goto.c).
/// The sweeps also replay control flow through recorded successor indices, which a
/// computed target has not.
pub fn reject_computed_branches(
    f: Value,
    fname: &str,
) -> Result<(), Vec<ferrozyme_llvm::Diagnostic>> {
    use crate::common::diags::Problem;
    let mut out = Vec::new();
    for b in f.blocks() {
        let Some(t) = b.terminator() else { continue };
        let Some(op) = t.opcode() else { continue };
        if !matches!(op, Opcode::LLVMIndirectBr | Opcode::LLVMCallBr) {
            continue;
        }
        let ferrozyme_rules::OpKind::Unsupported { why } = crate::common::ops::kind(op) else {
            continue;
        };
        let p = Problem::UnsupportedOpcode {
            opcode: ferrozyme_llvm::opcode_name(op),
            why,
        };
        out.push(
            ferrozyme_llvm::Diagnostic::new(p.kind(), p.message())
                .in_function(fname.to_string())
                .with_help(p.help().to_string())
                .at_instruction(t.to_string())
                .at_loc(t.source_loc().or_else(|| target_loc(t))),
        );
    }
    if out.is_empty() {
        Ok(())
    } else {
        Err(out)
    }
}

/// clang gives an `indirectbr` no source location (at `-O0` all `goto *p` share one
/// dispatch block); the instructions computing its target address have the `goto`'s
/// line. Searches the address's definition (through phis, loads and address arithmetic,
/// breadth first), then the branch's own block backwards, for the first location.
fn target_loc(t: Value) -> Option<ferrozyme_llvm::SourceLoc> {
    crate::common::first_located(vec![t.operand(0)], |v| {
        if v.opcode() == Some(Opcode::LLVMPHI) {
            v.incoming().into_iter().map(|(x, _)| x).collect()
        } else {
            (0..v.num_operands()).map(|k| v.operand(k)).collect()
        }
    })
    .or_else(|| {
        let insts = t.parent_block().instructions();
        insts.iter().rev().find_map(|i| i.source_loc())
    })
}
