//! Values a marked loop (`marked.rs`) keeps in registers, moved to stack slots so that
//! its step function sees them as state in memory (which the snapshots then hold).
//!
//! At -O1 and above LICM promotes a global or a local the loop accumulates into
//! (`g = 0.9 * g + ...`, `*acc += ...`) to a header phi, stored back after the loop; a
//! step function `void step(i, live-ins...)` cannot carry such a value. Each header phi
//! other than the counter becomes a slot (an `alloca` in the entry block): the value
//! entering the loop is stored where it comes from, each back edge stores its value, and
//! the phi becomes a load. A value computed in the loop and used after it is stored
//! right after its definition; uses after the loop load the slot (`exit_slots`: the exit
//! block's phis read it on the checkpointed path, `auto::checkpoint_call`).

use ferrozyme_analysis::hash::HashMap;

use crate::common::ir_text::quote;
use ferrozyme_analysis::loops::Loop;
use ferrozyme_llvm::{Builder, Module, Opcode, Value};

/// Demotes the carried values of `l` (all header phis but `counter`) and the values used
/// after it; returns, for each loop value used by a phi after the loop, its slot.
pub(super) fn carried_to_memory(
    module: Module,
    f: Value,
    l: &Loop,
    counter: Value,
) -> Result<HashMap<Value, Value>, String> {
    let b = Builder::new(module.context());
    let entry = f.entry_block().ok_or("a function without an entry block")?;
    let first = entry.first_non_phi().ok_or("an empty entry block")?;
    let slot = |v: Value| {
        b.position_before(first);
        b.alloca(v.ty(), "fz.marked.slot")
    };
    for p in l.header.phis() {
        if p == counter {
            continue;
        }
        let t = p.ty();
        if !(t.is_integer() || t.is_fp_scalar() || t.is_pointer()) {
            return Err(format!(
                "it carries `{}`, of type {t}, from one iteration to the next in a register",
                quote(p)
            ));
        }
        let s = slot(p);
        for (v, from) in p.incoming() {
            let term = from.terminator().ok_or("a block without a terminator")?;
            b.position_before(term);
            b.store(v, s);
        }
        let at = l.header.first_non_phi().ok_or("an empty loop header")?;
        b.position_before(at);
        let now = b.load(t, s, "fz.marked.carried");
        p.replace_all_uses_with(now);
        p.erase();
    }
    let mut exit_slots = HashMap::default();
    let blocks = l.blocks_in(&f.blocks());
    for blk in &blocks {
        for i in blk.instructions() {
            let outside: Vec<Value> = i
                .users()
                .into_iter()
                .filter(|u| u.is_instruction() && !l.blocks.contains(&u.parent_block()))
                .collect();
            if outside.is_empty() {
                continue;
            }
            let s = slot(i);
            let after = if i.opcode() == Some(Opcode::LLVMPHI) {
                blk.first_non_phi()
            } else {
                i.next_instruction()
            }
            .ok_or("a block without a terminator")?;
            b.position_before(after);
            b.store(i, s);
            for u in outside {
                if u.opcode() == Some(Opcode::LLVMPHI) {
                    // Fed from the loop's exits: the checkpointed path loads the slot.
                    exit_slots.insert(i, s);
                    continue;
                }
                b.position_before(u);
                let v = b.load(i.ty(), s, "fz.marked.out");
                for k in 0..u.num_operands() {
                    if u.operand(k) == i {
                        u.set_operand(k, v);
                    }
                }
            }
        }
    }
    Ok(exit_slots)
}
