//! Order-preserving carried streams: the reverse stencil's neighbour updates kept in
//! registers *without* reassociating them (issue 14, the Brusselator without fast-math).
//!
//! `streams/mod.rs` carries, per cell of the window `d[c + qmin] ..= d[c + qmax]`, the
//! partial sum of the adds of the iterations that touched it, and adds that sum to memory
//! once: `d[x] + (a + b + e)` instead of `((d[x] + a) + b) + e`, another rounding, hence
//! only when every add has `reassoc`. Here the register carries the cell's *value*:
//!
//! * a cell enters the window at the leading position (the smallest offset: the anchor
//!   moves down): the iteration's first add of that offset keeps its load of `d[x]`;
//! * every later add of the cell, in this and the next iterations, reads the register
//!   instead of memory, in the original order (iteration order, and within an
//!   iteration program order: the adds are the original instructions, with their
//!   operands and flags, only their load operand replaced; they move to the end of the
//!   iteration, cell after cell, which reorders only adds of different cells);
//! * the cell leaves the window at the trailing position: the last add's store of that
//!   offset stays, every other store of the stream is dropped;
//! * the cells the first iteration finds inside the window (positions past the leading
//!   one) are loaded in the preheader, at the first iteration's anchor (its address
//!   computation copied there with the counter's start value); those still open when
//!   the loop ends are stored on the exit edge, at the last iteration's anchor.
//!
//! Every floating-point operation of the stream keeps its operands and order, so the
//! result is bit-identical to the loop's, with or without `reassoc`. What makes it sound
//! is that nothing else reads or writes a cell while it is in a register: no other
//! access of the loop reaches the stream's object (`streams::others_ok`, stricter than
//! for partial sums: a `reassoc` add of another pointer no longer commutes with an
//! exact cell), and the positions are contiguous (every cell the preheader loads or the
//! exit stores is one the loop's first or last iteration accesses).

use ferrozyme_analysis::hash::HashMap;
use std::collections::BTreeMap;

use ferrozyme_llvm::{Block, Builder, Context, Opcode, Type, Value};

use crate::streams::{Rmw, Stream};

/// Most instructions copied into the preheader for the first iteration's anchor.
const MAX_SLICE_DEPTH: u32 = 12;

/// Whether the first iteration's anchor can be computed in the preheader: the anchor
/// depends on the loop only through the counter `c`, by instructions that neither touch
/// memory nor trap (no loads, no divisions, no other phi).
pub(crate) fn anchor_at_start_ok(v: Value, b: Block, c: Value) -> bool {
    fn go(v: Value, b: Block, c: Value, depth: u32) -> bool {
        if v == c || !v.is_instruction() || v.parent_block() != b {
            return true;
        }
        if depth == 0 {
            return false;
        }
        let pure = match v.opcode() {
            Some(
                Opcode::LLVMGetElementPtr
                | Opcode::LLVMAdd
                | Opcode::LLVMSub
                | Opcode::LLVMMul
                | Opcode::LLVMShl
                | Opcode::LLVMLShr
                | Opcode::LLVMAShr
                | Opcode::LLVMAnd
                | Opcode::LLVMOr
                | Opcode::LLVMXor
                | Opcode::LLVMTrunc
                | Opcode::LLVMZExt
                | Opcode::LLVMSExt
                | Opcode::LLVMICmp
                | Opcode::LLVMSelect,
            ) => true,
            Some(Opcode::LLVMCall) => crate::streams::pure_call(v),
            _ => false,
        };
        pure && (0..v.num_operands()).all(|i| go(v.operand(i), b, c, depth - 1))
    }
    go(v, b, c, MAX_SLICE_DEPTH)
}

/// `v` as the loop's first iteration computes it, emitted at the builder's position
/// (in the preheader): the loop's instructions `v` depends on, copied with the counter
/// replaced by `start` (checked by `anchor_at_start_ok`).
fn at_start(
    bld: &Builder,
    v: Value,
    b: Block,
    c: Value,
    start: Value,
    memo: &mut HashMap<Value, Value>,
) -> Value {
    if v == c {
        return start;
    }
    if !v.is_instruction() || v.parent_block() != b {
        return v;
    }
    if let Some(&x) = memo.get(&v) {
        return x;
    }
    let ops: Vec<Value> = (0..v.num_operands())
        .map(|i| at_start(bld, v.operand(i), b, c, start, memo))
        .collect();
    let k = v.clone_instruction();
    for (i, o) in ops.into_iter().enumerate() {
        k.set_operand(i as u32, o);
    }
    bld.insert(k);
    if !v.ty().is_void() {
        k.set_name(&format!("{}.first", v.name()));
    }
    memo.insert(v, k);
    k
}

/// What the value form needs of the loop: its block, counter and the counter's value on
/// entry, the preheader (the entry block, whose only successor is the loop), and the
/// exit edge's block's branch.
pub(crate) struct LoopEdges {
    pub b: Block,
    pub c: Value,
    pub start: Value,
    pub pre: Block,
    pub flush_br: Value,
}

/// What a rewrite of stream `s` keeps of its original accesses: the read-modify-writes,
/// the element type, the positions' range, and how a new access of a cell is tagged.
pub(crate) struct Accesses {
    pub rmws: Vec<Rmw>,
    pub ty: Type,
    pub pmin: i64,
    pub pmax: i64,
    /// The claim each original access made holds for the cell it touched; the new
    /// accesses touch those cells, so the smallest claim holds for all of them.
    align: u32,
    /// The new accesses are shadow accesses like the ones they replace: not the tape
    /// (`reverse/alias.rs`). Read before the originals are erased.
    noalias: u32,
    load_md: Option<Value>,
    store_md: Option<Value>,
}

impl Accesses {
    pub(crate) fn of(ctx: Context, s: &Stream) -> Accesses {
        let rmws: Vec<Rmw> = s.by_q.values().flatten().copied().collect();
        let align = rmws
            .iter()
            .flat_map(|r| [r.load.alignment(), r.store.alignment()])
            .min()
            .unwrap_or(1)
            .max(1);
        let noalias = ctx.md_kind("noalias");
        Accesses {
            ty: rmws[0].add.ty(),
            pmin: *s.by_q.keys().next().unwrap(),
            pmax: *s.by_q.keys().last().unwrap(),
            align,
            noalias,
            load_md: rmws[0].load.metadata(noalias),
            store_md: rmws[0].store.metadata(noalias),
            rmws,
        }
    }

    /// Tags a new load of a cell as the original loads were.
    pub(crate) fn tag_load(&self, i: Value) {
        i.set_alignment(self.align);
        i.set_metadata(self.noalias, self.load_md);
    }

    /// Tags a new store of a cell as the original stores were.
    pub(crate) fn tag_store(&self, i: Value) {
        i.set_alignment(self.align);
        i.set_metadata(self.noalias, self.store_md);
    }
}

/// Rewrites stream `s` (the anchor falling by one element per iteration: position `p`
/// is offset `q = p`, the leading cell the smallest) into the value form described
/// above. The caller checked contiguous positions and `anchor_at_start_ok`.
pub(crate) fn carry_values(ctx: Context, bld: &Builder, e: &LoopEdges, s: &Stream) {
    let cells = Accesses::of(ctx, s);
    let (rmws, ty, pmin, pmax) = (&cells.rmws, cells.ty, cells.pmin, cells.pmax);
    let off = |p: i64| ctx.i64().const_i64(s.byte_offset(p));
    // The first iteration's window, loaded in the preheader.
    let pre_t = e.pre.terminator().unwrap();
    bld.position_before(pre_t);
    let mut memo = HashMap::default();
    let a0 = at_start(bld, s.anchor, e.b, e.c, e.start, &mut memo);
    let first = e.b.first_non_phi().unwrap();
    let mut phis: BTreeMap<i64, Value> = BTreeMap::new();
    for p in pmin + 1..=pmax {
        bld.position_before(pre_t);
        let addr = bld.byte_gep(a0, off(p));
        let v = bld.load(ty, addr, "fz.cell.first");
        cells.tag_load(v);
        bld.position_before(first);
        let phi = bld.phi(ty, "fz.cell");
        phi.add_incoming(v, e.pre);
        phis.insert(p, phi);
    }
    // The adds, in place, on the register.
    let mut acc: BTreeMap<i64, Value> = BTreeMap::new();
    for p in pmin..=pmax {
        let mut cur = phis.get(&p).copied();
        for r in &s.by_q[&p] {
            if let Some(v) = cur {
                let k = if r.add.operand(0) == r.load { 0 } else { 1 };
                r.add.set_operand(k, v);
                r.load.erase();
            }
            cur = Some(r.add);
        }
        acc.insert(p, cur.unwrap());
    }
    let keep = s.by_q[&pmax].last().unwrap().store;
    for r in rmws {
        if r.store != keep {
            r.store.erase();
        }
    }
    // The stream's accesses and adds move to the end of the iteration, the cells in the
    // order they enter the window (leading first), each cell's adds in their order: the
    // adds of different cells commute exactly (other registers), and so every user of a
    // cell's phi comes after the value the phi carries to the next iteration, which
    // LoopVectorize requires of a fixed-order recurrence (it sinks no store: with the
    // adds left in place the loop stayed scalar).
    let t = e.b.terminator().unwrap();
    let move_to_end = |i: Value| {
        let name = i.name();
        i.remove_from_parent();
        bld.position_before(t);
        bld.insert(i);
        if !name.is_empty() {
            i.set_name(&name);
        }
    };
    move_to_end(s.by_q[&pmin][0].load);
    for p in pmin..=pmax {
        for r in &s.by_q[&p] {
            move_to_end(r.add);
        }
    }
    move_to_end(keep);
    for (p, phi) in &phis {
        phi.add_incoming(acc[&(p - 1)], e.b);
    }
    // The cells still open after the last iteration.
    bld.position_before(e.flush_br);
    for p in pmin..pmax {
        let addr = bld.byte_gep(s.anchor, off(p));
        let st = bld.store(acc[&p], addr);
        cells.tag_store(st);
    }
}

/// Whether `s`'s positions are contiguous (no offset between the smallest and the
/// largest without an add): then every cell loaded in the preheader or stored on the
/// exit edge is one the first or the last iteration accesses anyway.
pub(crate) fn contiguous(s: &Stream) -> bool {
    let keys: Vec<i64> = s.by_q.keys().copied().collect();
    keys.windows(2).all(|w| w[1] == w[0] + 1)
}
