//! `__enzyme_set_fixed_point` (`include/enzyme/fixed_point.h`): a fixed-point loop marked
//! from inside its body.
//!
//! ```c
//! do {
//!   __enzyme_set_fixed_point(enzyme_fp_state, z, (int64_t)bytes,
//!                            [enzyme_fp_reduction, r,] [enzyme_fp_max_iters, n,]
//!                            [enzyme_fp_control, control,]
//!                            [enzyme_checkpoint_region, ptr, (int64_t)bytes,]...);
//!   ... z = phi(z, x) ...
//! } while (not converged);
//! ```
//!
//! is the loop as written, differentiated as `__enzyme_fixed_point` differentiates its
//! step (`fixed_point.rs`): at the fixed point only. Before anything else reads the
//! module, the loop holding the call (the innermost one) is outlined into a step function
//! (`while_outline.rs`) and replaced by `__enzyme_fixed_point(step, markers..., live-ins...)`,
//! which the checkpoint lowering (`mod.rs`) then takes like one the user wrote.
//!
//! What this module checks, each failure an error at the marker:
//! * the call is in a loop, the only marker of that loop, and its values are known before
//!   the loop (loads of the `enzyme_*` globals are made again there);
//! * the loop tests whether to go on at the end of its body only: one exit, after which
//!   the body goes straight back to its header. The derivative applies one whole
//!   iteration at the converged state; an exit before part of the body (a `while (cond)`
//!   test at the top, a `break` in the middle) would make the last iteration a part of
//!   one;
//! * nothing but the counter (`for (it = 0; ; it++)`, the step number) is carried from one
//!   iteration to the next in a register: the state is memory, listed as a state;
//! * the values computed in the loop and used after it (at -O2 also the state's last
//!   values, forwarded from its stores) are kept in slots the step writes, output only.
//!
//! Memory the body reads and writes that is not listed is `fixed_point.rs`'s error.
//! The function is put in SSA form first (`sroa,mem2reg`; at -O0 without `optnone` for
//! that while), as `marked.rs` does for loops annotated for checkpointing.

use ferrozyme_analysis::hash::HashMap;

use ferrozyme_analysis::cfg::Cfg;
use ferrozyme_analysis::loops::{Loop, Loops};
use ferrozyme_llvm::{
    run_function_passes, Block, Builder, DiagKind, Diagnostic, Module, Opcode, Value,
};

use super::while_outline::{inputs, outline, WhileLoop};
use crate::common::ir_text::quote;

/// The marker (matched by containment: C++ may mangle it).
pub(crate) const SET_FIXED: &str = "__enzyme_set_fixed_point";

const HELP: &str = "write the loop as `do { __enzyme_set_fixed_point(enzyme_fp_state, z, (int64_t)bytes); z = phi(z, x); } while (!converged);` with the state in memory, or pass one iteration as a step function to __enzyme_fixed_point";

fn is_marker(i: Value) -> bool {
    i.is_call()
        && i.called_function()
            .is_some_and(|f| f.name().contains(SET_FIXED))
}

fn error(at: Value, msg: String) -> Diagnostic {
    Diagnostic::new(DiagKind::BadAutodiffCall, format!("`{SET_FIXED}`: {msg}"))
        .at_value(at)
        .with_help(HELP.to_string())
}

/// Replaces every marked loop of `module` by a call of `__enzyme_fixed_point`.
pub(crate) fn apply(module: Module) -> Result<(), Vec<Diagnostic>> {
    let decls: Vec<Value> = module
        .functions()
        .into_iter()
        .filter(|f| f.is_declaration() && f.name().contains(SET_FIXED))
        .collect();
    let mut diags = Vec::new();
    let mut fns: Vec<Value> = Vec::new();
    for d in &decls {
        for u in d.users() {
            if u.is_instruction() && is_marker(u) {
                let f = u.parent_function();
                if !fns.contains(&f) {
                    fns.push(f);
                }
            } else {
                diags.push(error(
                    u,
                    "it must be called directly, inside the loop it marks".into(),
                ));
            }
        }
    }
    let mut k = 0;
    while module.function(&step_name(k)).is_some() {
        k += 1;
    }
    for f in fns {
        if let Err(d) = mark_function(module, f, &mut k) {
            diags.extend(d);
        }
    }
    for d in decls {
        if d.users().is_empty() {
            d.delete_function();
        }
    }
    if diags.is_empty() {
        Ok(())
    } else {
        Err(diags)
    }
}

fn step_name(k: usize) -> String {
    format!("__fz_fp_loop_step.{k}")
}

fn mark_function(module: Module, f: Value, k: &mut usize) -> Result<(), Vec<Diagnostic>> {
    let optnone = f.has_fn_attr("optnone");
    f.remove_fn_attr("optnone");
    let prepared = run_function_passes(f, "sroa,mem2reg,instsimplify,simplifycfg");
    let result = prepared
        .map_err(|e| vec![error(f, format!("preparing `{}` failed: {e}", f.name()))])
        .and_then(|()| mark_loops(module, f, k));
    if result.is_ok() {
        // The marked loops are cut off: their blocks are unreachable.
        let _ = run_function_passes(f, "simplifycfg");
    }
    if optnone {
        f.add_fn_attr("optnone");
    }
    result
}

fn mark_loops(module: Module, f: Value, k: &mut usize) -> Result<(), Vec<Diagnostic>> {
    let markers: Vec<Value> = f.instructions().filter(|i| is_marker(*i)).collect();
    let cfg = Cfg::new(f);
    let loops = Loops::new(&cfg);
    let mut diags = Vec::new();
    let mut marked: Vec<(&Loop, Value)> = Vec::new();
    for c in markers {
        let b = c.parent_block();
        let l = loops
            .loops
            .iter()
            .filter(|l| l.blocks.contains(&b))
            .min_by_key(|l| l.blocks.len());
        match l {
            None => diags.push(error(c, format!("the call in `{}` is not inside a loop: it marks the loop whose body holds it (a loop with a constant trip count may have been unrolled away)", f.source_name()))),
            Some(l) if marked.iter().any(|(m, _)| m.header == l.header) => {
                diags.push(error(c, "a second marker in the same loop: one loop has one set of states and settings".into()))
            }
            Some(l) => marked.push((l, c)),
        }
    }
    for (l, c) in &marked {
        if marked
            .iter()
            .any(|(o, _)| o.header != l.header && o.blocks.contains(&l.header))
        {
            diags.push(error(*c, "a marked fixed-point loop inside another marked loop: only one of them can be iterated to its fixed point".into()));
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    for (l, c) in marked {
        match replace_loop(module, f, &cfg, l, c, &step_name(*k)) {
            Ok(()) => *k += 1,
            Err(why) => diags.push(error(c, why)),
        }
    }
    if diags.is_empty() {
        Ok(())
    } else {
        Err(diags)
    }
}

/// The loop's only exit: (exiting block, exit block); an error unless the body goes
/// straight back to the header after it.
fn end_exit(cfg: &Cfg, l: &Loop) -> Result<(Block, Block), String> {
    let blocks = l.ordered_blocks();
    let exiting: Vec<_> = blocks
        .iter()
        .filter(|b| cfg.succs(**b).iter().any(|s| !l.blocks.contains(s)))
        .collect();
    let middle = "the loop leaves its body before the end of an iteration: the derivative applies one whole iteration at the converged state, and the last one would be a part of one";
    let e = match exiting.as_slice() {
        [] => return Err("the loop has no exit".into()),
        [e] => **e,
        _ => {
            return Err(format!(
                "{middle} (it has {} exits; test for convergence once, at the end of the body)",
                exiting.len()
            ))
        }
    };
    let succs = cfg.succs(e);
    let (inside, outside): (Vec<Block>, Vec<Block>) =
        succs.iter().partition(|s| l.blocks.contains(*s));
    let (Some(x), [s]) = (outside.first().copied(), inside.as_slice()) else {
        return Err(format!("{middle} (its exit test is not a two-way branch)"));
    };
    let back = *s == l.header
        || (s.phis().is_empty() && s.instructions().len() == 1 && cfg.succs(*s) == vec![l.header]);
    if !back {
        return Err(format!("{middle} (work follows its exit test: test for convergence at the end of the body, `do {{ ... }} while (!converged)`)"));
    }
    Ok((e, x))
}

/// The header phi counting from 0 by 1, or an error for another carried value.
fn counter(l: &Loop) -> Result<Option<Value>, String> {
    let mut found = None;
    for p in l.header.phis() {
        let counts = p.incoming().iter().all(|(v, from)| {
            if l.blocks.contains(from) {
                v.opcode() == Some(Opcode::LLVMAdd)
                    && ((v.operand(0) == p && v.operand(1).const_int_value() == Some(1))
                        || (v.operand(1) == p && v.operand(0).const_int_value() == Some(1)))
            } else {
                v.const_int_value() == Some(0)
            }
        });
        if counts && found.is_none() && p.ty().is_integer() {
            found = Some(p);
            continue;
        }
        return Err(format!("the loop carries `{}` from one iteration to the next in a register: the state of a fixed-point loop is memory listed with enzyme_fp_state", quote(p)));
    }
    Ok(found)
}

fn replace_loop(
    module: Module,
    f: Value,
    cfg: &Cfg,
    l: &Loop,
    marker: Value,
    name: &str,
) -> Result<(), String> {
    let (exiting, exit) = end_exit(cfg, l)?;
    let counter = counter(l)?;
    let entry = l.entry.ok_or("the loop is entered from several places")?;
    let blocks = l.blocks_in(&f.blocks());
    // The values used after the loop (at -O2 also the state's last values, forwarded
    // from its stores).
    let mut outs = Vec::new();
    for blk in &blocks {
        for i in blk.instructions() {
            let used_after = i
                .users()
                .iter()
                .any(|u| u.is_instruction() && !l.blocks.contains(&u.parent_block()));
            if used_after {
                outs.push(i);
            }
        }
    }
    let ctx = module.context();
    let b = Builder::new(ctx);
    // The marker's values, known before the loop.
    let pre_term = entry.terminator().ok_or("a block without a terminator")?;
    b.position_before(pre_term);
    let mut fixed_args = Vec::new();
    for a in marker.call_args() {
        let v = before_loop(&b, l, a).ok_or_else(|| format!("its argument `{}` is computed in the loop: the states and settings must be known before the loop", quote(a)))?;
        fixed_args.push(v);
    }
    let mut dead: Vec<Value> = marker
        .call_args()
        .into_iter()
        .filter(|a| a.is_instruction())
        .collect();
    let mut once = ferrozyme_analysis::hash::HashSet::default();
    dead.retain(|v| once.insert(*v));
    marker.erase();
    for a in dead {
        if a.users().is_empty() && l.blocks.contains(&a.parent_block()) {
            a.erase();
        }
    }
    let ins = inputs(l, &blocks, counter)?;
    let w = WhileLoop {
        l,
        blocks,
        counter,
        live: ins.live,
        locals: ins.locals,
        rebuilt: ins.rebuilt,
        outs,
    };
    let step = outline(module, f, &w, name);
    // A block of its own before the loop, where the call goes.
    let pre = b.append_block(f, "fz.fp.loop");
    for s in 0..pre_term.num_successors() {
        if pre_term.successor(s) == l.header {
            pre_term.set_successor(s, pre);
        }
    }
    let first = f
        .entry_block()
        .and_then(|e| e.first_non_phi())
        .ok_or("a function without an entry block")?;
    b.position_before(first);
    let slots: Vec<Value> = w
        .outs
        .iter()
        .map(|v| b.alloca(v.ty(), "fz.fp.out"))
        .collect();
    b.position_at_end(pre);
    let decl = fixed_point_decl(module);
    let mut args = vec![step];
    args.extend(fixed_args);
    args.extend(w.live.iter().copied());
    args.extend(slots.iter().copied());
    b.call_fn(decl, &args);
    let loaded: HashMap<Value, Value> = w
        .outs
        .iter()
        .zip(&slots)
        .map(|(v, s)| (*v, b.load(v.ty(), *s, "fz.fp.out")))
        .collect();
    // Always the call; the loop is left unreachable for simplifycfg.
    b.cond_br(ctx.i1().const_int(1), exit, l.header);
    if let Some(c) = counter {
        super::auto::rebuild_phi(&b, l.header, c, entry, pre)?;
    }
    // The code after the loop: the values from the slots, the exit's phis from `pre`.
    for (&v, &now) in &loaded {
        for u in v.users() {
            if u.is_instruction()
                && !l.blocks.contains(&u.parent_block())
                && u.opcode() != Some(Opcode::LLVMPHI)
            {
                for j in 0..u.num_operands() {
                    if u.operand(j) == v {
                        u.set_operand(j, now);
                    }
                }
            }
        }
    }
    // The exiting block stays a (dead) predecessor until simplifycfg removes the loop.
    for p in exit.phis() {
        let from_loop = p.incoming().into_iter().find(|(_, from)| *from == exiting);
        if let Some((v, _)) = from_loop {
            p.add_incoming(loaded.get(&v).copied().unwrap_or(v), pre);
        }
    }
    Ok(())
}

/// `v` where the builder stands, before the loop: itself when defined outside `l`, else
/// made again there when it is a load of a global (a marker) or an address computed from
/// values outside the loop (`&z[0]` of a local array at -O0); `None` otherwise.
fn before_loop(b: &Builder, l: &Loop, v: Value) -> Option<Value> {
    if !(v.is_instruction() && l.blocks.contains(&v.parent_block())) {
        return Some(v);
    }
    match v.opcode() {
        Some(Opcode::LLVMLoad) if v.operand(0).is_global_variable() => {
            Some(b.load(v.ty(), v.operand(0), &v.name()))
        }
        Some(Opcode::LLVMGetElementPtr) | Some(Opcode::LLVMBitCast) => {
            let ops: Option<Vec<Value>> = (0..v.num_operands())
                .map(|j| before_loop(b, l, v.operand(j)))
                .collect();
            let ops = ops?;
            let n = v.clone_instruction();
            b.insert(n);
            for (j, o) in ops.into_iter().enumerate() {
                n.set_operand(j as u32, o);
            }
            Some(n)
        }
        _ => None,
    }
}

/// `void __enzyme_fixed_point(ptr, ...)`, declared where the module lacks it.
fn fixed_point_decl(module: Module) -> Value {
    if let Some(f) = module.function(super::FIXED) {
        return f;
    }
    let ctx = module.context();
    let fty = ctx.function_type(ctx.void(), &[ctx.ptr()], true);
    module.add_function(super::FIXED, fty)
}
