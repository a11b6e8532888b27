//! Undoing LLVM's merging of `__enzyme_autodiff` calls.
//!
//! Optimizing before differentiation has one cost: two calls that differ only in the
//! function to differentiate (`if (w) d = __enzyme_autodiff(g, x); else d =
//! __enzyme_autodiff(f, x);`) look alike to SimplifyCFG, which sinks them into one call
//! of `select %w, @g, @f`. We split such a call back into a diamond, one direct call per
//! arm, before reading the calls:
//!
//! ```text
//!   head:  ...instructions before the call...   br %c, %then, %else
//!   then:  %r1 = call @hook(@g, args)            br %tail
//!   else:  %r2 = call @hook(@f, args)            br %tail
//!   tail:  %r = phi [%r1, %then], [%r2, %else]   ...rest of the block...
//! ```
//!
//! The original block keeps its tail (so phis in its successors stay valid); the head is a
//! new block that takes the block's place for its predecessors.

use ferrozyme_llvm::{Block, Builder, Module, Opcode, Value};

/// C++ code calls the hook with `invoke` when the caller has cleanups. Our derivatives
/// never throw, so the hook becomes a plain call followed by a branch to the normal
/// destination; the unwind block loses that predecessor (its phis are rebuilt without it).
pub fn invokes_to_calls(m: Module, calls: Vec<Value>) -> Vec<Value> {
    let b = Builder::new(m.context());
    calls
        .into_iter()
        .map(|inv| {
            if inv.opcode() != Some(Opcode::LLVMInvoke) {
                return inv;
            }
            let blk = inv.parent_block();
            let (normal, unwind) = inv.invoke_dests();
            b.position_before(inv);
            let call = b.call(
                inv.called_function_type(),
                inv.called_value(),
                &inv.call_args(),
            );
            inv.copy_call_site_attributes(call);
            inv.copy_calling_convention(call);
            if !inv.ty().is_void() {
                inv.replace_all_uses_with(call);
            }
            // Erase the invoke first: debug records attached to it become trailing records
            // of the block, which the branch inserted at the block's end takes over
            // (inserted before the invoke, they would be left trailing after the branch).
            inv.erase();
            b.position_at_end(blk);
            b.br(normal);
            for phi in unwind.phis() {
                let keep: Vec<(Value, ferrozyme_llvm::Block)> = phi
                    .incoming()
                    .into_iter()
                    .filter(|(_, p)| *p != blk)
                    .collect();
                b.position_before(phi);
                let np = b.phi(phi.ty(), &phi.name());
                for (v, p) in keep {
                    np.add_incoming(v, p);
                }
                phi.replace_all_uses_with(np);
                phi.erase();
            }
            call
        })
        .collect()
}

/// Index of the function operand of a hook call (after a hidden `sret` pointer).
fn fn_operand(call: Value) -> u32 {
    if call.call_sret_type(0).is_some() {
        1
    } else {
        0
    }
}

/// How a merged call picks its function.
enum Dispatch {
    /// `select %c, @f, @g`.
    Select(Value, Value, Value),
    /// `load (getelementptr @table, %i)` from a constant table of functions.
    Table(Value, Vec<Value>),
}

fn dispatch_of(f: Value) -> Option<Dispatch> {
    match f.opcode() {
        Some(Opcode::LLVMSelect) => {
            Some(Dispatch::Select(f.operand(0), f.operand(1), f.operand(2)))
        }
        Some(Opcode::LLVMLoad) => {
            let gep = f.operand(0);
            if gep.opcode() != Some(Opcode::LLVMGetElementPtr) || gep.num_operands() != 2 {
                return None;
            }
            let table = gep.operand(0);
            if !table.is_global_variable() || !table.is_global_constant() {
                return None;
            }
            let init = table.initializer()?;
            let n = init.num_operands();
            let fns: Vec<Value> = (0..n).map(|k| init.operand(k)).collect();
            if fns.is_empty() || !fns.iter().all(|f| f.is_function()) {
                return None;
            }
            Some(Dispatch::Table(gep.operand(1), fns))
        }
        _ => None,
    }
}

/// Splits every hook call whose function is chosen at run time among known functions
/// (a `select`, or a load from a constant table of functions — what SimplifyCFG makes of
/// a `switch` over hook calls); returns the calls now present.
pub fn split_selected_calls(m: Module, calls: Vec<Value>) -> Vec<Value> {
    let mut work = calls;
    let mut done = Vec::new();
    while let Some(call) = work.pop() {
        let k = fn_operand(call);
        if k >= call.num_call_args() {
            done.push(call);
            continue;
        }
        let mut chooser = call.operand(k);
        if chooser.opcode() == Some(Opcode::LLVMPHI) {
            match phi_as_selects(m, call, chooser) {
                Some(c) => {
                    call.set_operand(k, c);
                    chooser = c;
                }
                None => {
                    done.push(call);
                    continue;
                }
            }
        }
        if chooser.is_function() {
            done.push(call);
            continue;
        }
        let Some(dispatch) = dispatch_of(chooser) else {
            done.push(call);
            continue;
        };
        let (arms, fns): (Vec<ferrozyme_llvm::Block>, Vec<Value>) = match &dispatch {
            Dispatch::Select(c, a, b) => {
                let arms = split(
                    m,
                    call,
                    |b, head_arms| {
                        b.cond_br(*c, head_arms[0], head_arms[1]);
                    },
                    2,
                );
                (arms, vec![*a, *b])
            }
            Dispatch::Table(idx, fns) => {
                let n = fns.len();
                let arms = split(
                    m,
                    call,
                    |b, head_arms| {
                        let cases: Vec<(Value, ferrozyme_llvm::Block)> = (1..n)
                            .map(|j| (idx.ty().const_int(j as u64), head_arms[j]))
                            .collect();
                        b.switch(*idx, head_arms[0], &cases);
                    },
                    n,
                );
                (arms, fns.clone())
            }
        };
        let copies: Vec<Value> = arms
            .iter()
            .zip(&fns)
            .map(|(blk, f)| retarget(call, k, *f, *blk))
            .collect();
        let builder = Builder::new(m.context());
        let tail = call.parent_block();
        if !call.ty().is_void() {
            builder.position_before(tail.first_instruction().expect("tail holds the call"));
            let phi = builder.phi(call.ty(), "fz.unmerged");
            for (c, blk) in copies.iter().zip(&arms) {
                phi.add_incoming(*c, *blk);
            }
            call.replace_all_uses_with(phi);
        }
        call.erase();
        if chooser.users().is_empty() {
            let gep = if chooser.opcode() == Some(Opcode::LLVMLoad) {
                Some(chooser.operand(0))
            } else {
                None
            };
            chooser.erase();
            if let Some(g) = gep.filter(|g| g.users().is_empty() && g.is_instruction()) {
                g.erase();
            }
        }
        work.extend(copies);
    }
    done
}

/// A phi of functions choosing a hook call's function (SimplifyCFG's merge of calls from
/// several predecessors) as a chain of selects on comparisons of the phi, inserted before
/// the call, which `split_selected_calls` then splits: `p == @f ? @f : (p == @g ? @g :
/// @h)`. `None` when an incoming value is not a function; the function itself when all
/// incoming values are one function.
fn phi_as_selects(m: Module, call: Value, phi: Value) -> Option<Value> {
    let mut fns: Vec<Value> = Vec::new();
    for (v, _) in phi.incoming() {
        if !v.is_function() {
            return None;
        }
        if !fns.contains(&v) {
            fns.push(v);
        }
    }
    let last = *fns.last()?;
    let b = Builder::new(m.context());
    b.position_before(call);
    let mut chosen = last;
    for f in fns.iter().rev().skip(1) {
        let same = b.icmp(ferrozyme_llvm::IntPredicate::LLVMIntEQ, phi, *f);
        chosen = b.select(same, *f, chosen);
    }
    Some(chosen)
}

/// Moves everything before `inst` in its block into a new block `name` placed before it
/// (the predecessors branch to the new block, which is left without a terminator);
/// returns the new block. The predecessors' branches are retargeted one by one, not by
/// a blanket replace-all-uses, which would also rewrite the incoming blocks of phis in
/// the tail's successors. Also used by `seed_fusion.rs`.
pub(crate) fn split_before(m: Module, inst: Value, name: &str) -> Block {
    let ctx = m.context();
    let tail = inst.parent_block();
    let head = tail.insert_before(ctx, name);
    for u in tail.as_value().users() {
        if u.is_instruction() && u.is_terminator() {
            for k in 0..u.num_successors() {
                if u.successor(k) == tail {
                    u.set_successor(k, head);
                }
            }
        }
    }
    let b = Builder::new(ctx);
    b.position_at_end(head);
    for i in tail.instructions() {
        if i == inst {
            break;
        }
        i.remove_from_parent();
        b.insert(i);
    }
    head
}

/// Moves everything before `call` into a new head block ending in the terminator that
/// `branch` builds over `n` new arm blocks, each of which branches to the call's block.
fn split(
    m: Module,
    call: Value,
    branch: impl FnOnce(&Builder, &[ferrozyme_llvm::Block]),
    n: usize,
) -> Vec<ferrozyme_llvm::Block> {
    let ctx = m.context();
    let tail = call.parent_block();
    let head = split_before(m, call, "fz.split");
    let b = Builder::new(ctx);
    b.position_at_end(head);
    let arms: Vec<ferrozyme_llvm::Block> = (0..n)
        .map(|j| tail.insert_before(ctx, &format!("fz.split.{j}")))
        .collect();
    b.position_at_end(head);
    branch(&b, &arms);
    for a in &arms {
        b.position_at_end(*a);
        b.br(tail);
    }
    arms
}

/// A copy of `call` with operand `k` replaced, inserted before the terminator of `blk`.
fn retarget(call: Value, k: u32, f: Value, blk: ferrozyme_llvm::Block) -> Value {
    let c = call.clone_instruction();
    let b = Builder::new(blk.parent().ty().context());
    b.position_before(blk.terminator().expect("split blocks are terminated"));
    b.insert(c);
    c.set_operand(k, f);
    c
}
