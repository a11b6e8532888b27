//! Fusion of two adjacent one-block reverse loops that count the same way: the second
//! loop's body moves into the first, so a value the first stores and the second reads
//! back at the same index stays in a register.
//!
//! The reverse sweep emits the reverses of the forward's loops one after the other, in
//! the forward's structure. Where the forward computed `xc[i] = x[i] - mu[i]` in one loop
//! and read `xc[i]` in the next (GMM's `subtract` then the diagonal of `Qtimesx`), the
//! reverse of the second loop accumulates `dxc[i] += Qdiag[i] * dQxc[i]` into memory and
//! the reverse of the first reads `dxc[i]` back, zeroes it and updates `dmu[i]`: a store,
//! a reload, and a whole loop's control per element (bench/README "gmm8", "gmm14").
//! LLVM's `loop-fusion` pass is not in the default pipeline and would not prove the
//! loops independent anyway (the adjoint of `mu` and the primal `mu` are both
//! arguments).
//!
//! Taken, after the post-AD pipeline, for blocks `B1`, `E`, `B2` where:
//! * `B1` and `B2` are one-block loops (header and latch), entered from one block
//!   outside, without calls other than `fmuladd`/`fma`, allocas, volatile or atomic
//!   accesses, not produced by the vectorizer, at most [`MAX_BODY`] instructions each;
//! * `B1` leaves only to `E`, which only `B1` enters, which has no phis, computes only
//!   address and integer arithmetic from values not defined in `B1` (hoisted before the
//!   loops) and branches to `B2`, which only `E` and `B2` itself enter;
//! * each loop's only phi is its counter `i = phi [s, pre], [i + c, latch]`, `c` = ±1,
//!   and the exit tests are the same: the same start `s`, step, predicate, bound (the
//!   same value), operand (the phi or the next value) and exit successor, so both loops
//!   run the same trips with the same counter values;
//! * `B2` reads no value `B1` computes;
//! * every pair of memory accesses of `B1` and `B2` of which one writes is independent
//!   across different trips: both address `base[i]` (a GEP of the same base, the same
//!   element type, the access as wide as the element, indexed by the counter) and so
//!   meet only in the same trip, where fusion keeps their order; or they touch different
//!   objects (`reverse/memory.rs`'s `may_alias`: fresh allocations are distinct from
//!   everything else, distinct globals, `noalias` arguments); or one goes through a
//!   parameter marked as a shadow (`generated::SHADOW_PARAM_ATTR`) and the other through
//!   an identified object that is not one. That last rule is the AD contract: a
//!   shadow's memory is disjoint from all primal memory, which the reverse sweep already
//!   relies on when it re-reads primal memory after writing adjoints (`reverse/memory.rs`
//!   considers only the primal's own writes); where a shadow may be the primal at run
//!   time (runtime activity) or for `enzyme_dupnoneed` memory no parameter is marked.
//!
//! Fusion then runs trip `k` of `B2` right after trip `k` of `B1` instead of after all of
//! `B1`; the conditions say no reordered pair of accesses can meet. In the fused body a
//! load of an address the first part stored (the same GEP, nothing between that may
//! write it) takes the stored value, and a store overwritten later in the body with no
//! read between goes: GMM's `dxc[i]` becomes `dmu[i] -= dxc[i] + Qdiag[i] * dQxc[i]`,
//! `dxc[i] = 0`. No arithmetic changes, so values are bit for bit the same.

use ferrozyme_analysis::hash::HashMap;

use ferrozyme_llvm::{Block, Builder, IntPredicate, Opcode, Value};

use crate::adjoint_split::one_block_loop;
use crate::generated::is_shadow_param;
use crate::reverse::memory::{may_alias, underlying, Obj};

/// Longest loop body (instructions, phis excluded) taken, per loop.
pub const MAX_BODY: usize = 48;

/// Fuses every qualifying pair of loops of the function whose blocks are `blocks`;
/// returns how many pairs were fused.
pub fn fuse_function(blocks: &[Block]) -> usize {
    let Some(&entry) = blocks.first() else {
        return 0;
    };
    let f = entry.parent();
    let ctx = f.ty().context();
    let loop_md = ctx.md_kind("llvm.loop");
    let mut done = 0;
    // One pair at a time: fusing changes the predecessor map.
    'again: loop {
        let blocks = f.blocks();
        let mut preds: HashMap<Block, Vec<Block>> = HashMap::default();
        for &b in &blocks {
            for s in b.successors() {
                preds.entry(s).or_default().push(b);
            }
        }
        for &b1 in &blocks {
            if b1 == entry {
                continue;
            }
            if let Some(pair) = candidate(b1, &preds, loop_md) {
                fuse(pair);
                done += 1;
                continue 'again;
            }
        }
        return done;
    }
}

/// A one-block loop's counter and exit test.
#[derive(Clone, Copy)]
struct Counted {
    block: Block,
    pre: Block,
    exit: Block,
    phi: Value,
    next: Value,
    cmp: Value,
}

impl Counted {
    /// The exit test's shape, to compare two loops: (start, step, predicate, bound,
    /// tests the next value, exit successor index).
    fn test(&self) -> (Value, i64, IntPredicate, Value, bool, bool) {
        let start = incoming_from(self.phi, self.pre);
        let step = self.next.operand(1).const_int_value().unwrap_or(0);
        let t = self
            .block
            .terminator()
            .expect("a counted loop has a branch");
        let uses_next = self.cmp.operand(0) == self.next;
        (
            start,
            step,
            self.cmp.icmp_predicate(),
            self.cmp.operand(1),
            uses_next,
            t.successor(0) == self.exit,
        )
    }
}

#[derive(Clone, Copy)]
struct Pair {
    first: Counted,
    /// The block between the loops, when there is one.
    between: Option<Block>,
    second: Counted,
}

fn incoming_from(phi: Value, b: Block) -> Value {
    phi.incoming()
        .into_iter()
        .find(|&(_, from)| from == b)
        .expect("a loop phi has a value from each predecessor")
        .0
}

fn candidate(b1: Block, preds: &HashMap<Block, Vec<Block>>, loop_md: u32) -> Option<Pair> {
    let first = counted(b1, preds, loop_md)?;
    let e = first.exit;
    // `B1` leaves straight into `B2`, or through a block `E` of address arithmetic that
    // only `B1` enters.
    let (between, b2) = match counted(e, preds, loop_md) {
        Some(_) => (None, e),
        None => {
            if preds.get(&e).map(Vec::as_slice) != Some(&[b1][..]) || !e.phis().is_empty() {
                return None;
            }
            let et = e.terminator()?;
            if et.opcode() != Some(Opcode::LLVMBr) || et.num_successors() != 1 {
                return None;
            }
            (Some(e), et.successor(0))
        }
    };
    if b2 == b1 {
        return None;
    }
    let second = counted(b2, preds, loop_md)?;
    if second.pre != between.unwrap_or(b1) || first.test() != second.test() {
        return None;
    }
    // What moves before the loops: arithmetic on values from outside `B1`.
    let hoistable = between.is_none_or(|e| {
        let et = e.terminator().expect("checked above");
        e.instructions().into_iter().all(|i| {
            i == et
                || matches!(
                    i.opcode(),
                    Some(
                        Opcode::LLVMGetElementPtr
                            | Opcode::LLVMAdd
                            | Opcode::LLVMSub
                            | Opcode::LLVMMul
                            | Opcode::LLVMShl
                            | Opcode::LLVMZExt
                            | Opcode::LLVMSExt
                            | Opcode::LLVMTrunc
                    )
                ) && (0..i.num_operands()).all(|k| !defined_in(i.operand(k), b1))
        })
    });
    // `B2` reads nothing `B1` computes (its counter's start comes from before `B1`).
    let reads_first = b2.instructions().into_iter().any(|i| {
        (0..i.num_operands()).any(|k| {
            let o = i.operand(k);
            defined_in(o, b1)
        })
    });
    if !hoistable || reads_first || !independent(&first, &second) {
        return None;
    }
    Some(Pair {
        first,
        between,
        second,
    })
}

fn defined_in(v: Value, b: Block) -> bool {
    v.is_instruction() && v.parent_block() == b
}

/// `b` as a one-block counted loop (see the module doc).
fn counted(b: Block, preds: &HashMap<Block, Vec<Block>>, loop_md: u32) -> Option<Counted> {
    let (pre, exit) = one_block_loop(b, preds, loop_md, MAX_BODY)?;
    let t = b.terminator()?;
    let phis = b.phis();
    let [phi] = phis[..] else { return None };
    if !phi.ty().is_integer() {
        return None;
    }
    let next = incoming_from(phi, b);
    let step = (next.opcode() == Some(Opcode::LLVMAdd)
        && next.parent_block() == b
        && next.operand(0) == phi)
        .then(|| next.operand(1).const_int_value())
        .flatten()?;
    if step != 1 && step != -1 {
        return None;
    }
    let cmp = t.operand(0);
    if cmp.opcode() != Some(Opcode::LLVMICmp)
        || cmp.parent_block() != b
        || !(cmp.operand(0) == phi || cmp.operand(0) == next)
        || defined_in(cmp.operand(1), b)
    {
        return None;
    }
    Some(Counted {
        block: b,
        pre,
        exit,
        phi,
        next,
        cmp,
    })
}

/// One memory access: its address, whether it writes, and its width in bytes.
#[derive(Clone, Copy)]
struct Access {
    ptr: Value,
    write: bool,
    bytes: u64,
}

fn accesses(l: &Counted) -> Vec<Access> {
    let m = l.block.parent().parent_module();
    l.block
        .instructions()
        .into_iter()
        .filter_map(|i| match i.opcode() {
            Some(Opcode::LLVMLoad) => Some(Access {
                ptr: i.operand(0),
                write: false,
                bytes: m.alloc_size(i.ty()),
            }),
            Some(Opcode::LLVMStore) => Some(Access {
                ptr: i.operand(1),
                write: true,
                bytes: m.alloc_size(i.operand(0).ty()),
            }),
            _ => None,
        })
        .collect()
}

/// `base[i]` with `i` the loop's counter and the access as wide as the element:
/// (base, element size).
fn slot(a: Access, l: &Counted) -> Option<(Value, u64)> {
    let g = a.ptr;
    if g.opcode() != Some(Opcode::LLVMGetElementPtr) || g.num_operands() != 2 {
        return None;
    }
    let m = l.block.parent().parent_module();
    let size = m.alloc_size(g.gep_source_type());
    (g.operand(1) == l.phi && size == a.bytes && size > 0).then(|| (g.operand(0), size))
}

/// Can trip `j` of the first loop and a different trip `k` of the second touch the same
/// memory through `a` and `b`?
fn independent(first: &Counted, second: &Counted) -> bool {
    let a1 = accesses(first);
    let a2 = accesses(second);
    a1.iter().all(|&a| {
        a2.iter().all(|&b| {
            if !a.write && !b.write {
                return true;
            }
            let same_slot = match (slot(a, first), slot(b, second)) {
                (Some(x), Some(y)) => x == y,
                _ => false,
            };
            same_slot || disjoint(a.ptr, b.ptr)
        })
    })
}

/// Do `p` and `q` address different objects?
fn disjoint(p: Value, q: Value) -> bool {
    let (o, w) = (underlying(p), underlying(q));
    if o == Obj::Unknown || w == Obj::Unknown {
        return false;
    }
    if !may_alias(o, w) {
        return true;
    }
    // The AD contract: shadow memory is disjoint from primal memory.
    let shadow = |x: Obj| matches!(x, Obj::Arg(a) if is_shadow_param(a));
    shadow(o) != shadow(w)
}

fn fuse(pair: Pair) {
    let Pair {
        first,
        between,
        second,
    } = pair;
    let b1 = first.block;
    let b2 = second.block;
    let ctx = b1.parent().ty().context();
    let builder = Builder::new(ctx);
    // The block between the loops computes addresses only: before the first loop.
    let pre_term = first.pre.terminator().expect("a preheader has a branch");
    if let Some(e) = between {
        let et = e.terminator().expect("checked in candidate");
        for i in e.instructions() {
            if i == et {
                break;
            }
            i.remove_from_parent();
            builder.position_before(pre_term);
            builder.insert(i);
        }
    }
    // The second counter is the first.
    second.phi.replace_all_uses_with(first.phi);
    second.next.replace_all_uses_with(first.next);
    second.cmp.replace_all_uses_with(first.cmp);
    // The second body after the first, before the latch branch.
    let t1 = b1.terminator().expect("checked in counted");
    let t2 = b2.terminator().expect("checked in counted");
    let moved: Vec<Value> = b2
        .instructions()
        .into_iter()
        .filter(|&i| i != second.phi && i != second.next && i != second.cmp && i != t2)
        .collect();
    for &i in &moved {
        i.remove_from_parent();
        builder.position_before(t1);
        builder.insert(i);
    }
    // The fused loop leaves where the second did.
    let exit2 = second.exit;
    let first_exit = between.unwrap_or(b2);
    for k in 0..t1.num_successors() {
        if t1.successor(k) == first_exit {
            t1.set_successor(k, exit2);
        }
    }
    // Phis of the second loop's exit: incoming from `b1` instead of `b2`.
    for p in exit2.phis() {
        builder.position_before(p);
        let np = builder.phi(p.ty(), &p.name());
        for (v, from) in p.incoming() {
            np.add_incoming(v, if from == b2 { b1 } else { from });
        }
        np.set_fast_math_flags(p.fast_math_flags());
        p.replace_all_uses_with(np);
        p.erase();
    }
    t2.erase();
    second.phi.erase();
    second.cmp.erase();
    second.next.erase();
    if let Some(e) = between {
        e.terminator().expect("checked in candidate").erase();
        b2.delete();
        e.delete();
    } else {
        b2.delete();
    }
    forward_in_block(b1);
    share_index(&first);
}

/// The fused loop's `base[i]` addresses take the counter through a `freeze` (of
/// `counter + 0`, see below), which code generation's loop strength reduction does not
/// look through: offered the many strided uses of a fused body (GMM's reverse diagonal
/// and subtract: 7 arrays), LSR gave each array a pointer of its own, one addition per
/// array and trip, where one index register serves all of them in x86's
/// `base + 8 * index` addressing (measured on GMM's fused loop, harness flags: 25
/// instructions per trip -> 17; the gradient 47.16M -> 45.22M instructions per call).
/// `freeze` of a counter is the counter (it is never poison: the exit test reads it),
/// so nothing the program computes changes.
fn share_index(l: &Counted) {
    let geps: Vec<Value> = l
        .block
        .instructions()
        .into_iter()
        .filter(|g| {
            g.opcode() == Some(Opcode::LLVMGetElementPtr)
                && g.num_operands() == 2
                && g.operand(1) == l.phi
        })
        .collect();
    if geps.len() < 2 {
        return;
    }
    let builder = Builder::new(l.block.parent().ty().context());
    builder.position_before(l.block.first_non_phi().expect("a loop has a branch"));
    // Frozen through `+ 0`: code generation's `CanonicalizeFreezeInLoops` (before LSR)
    // moves a freeze of the counter itself onto its start value, which gave the counter
    // back to LSR, and LSR then rebased every array by the start index (7 `lea`s and
    // their reloads per entry into GMM's loop); with the addresses opaque, the arrays
    // keep their bases and the counter itself is the index.
    let zero = l.phi.ty().const_int(0);
    let copy = builder.binop(Opcode::LLVMAdd, l.phi, zero);
    let idx = builder.freeze(copy);
    for g in geps {
        g.set_operand(1, idx);
    }
}

/// In the fused body: GEPs repeated by the second part are the first's; a load of an
/// address stored earlier in the body, with nothing between that may write it, takes the
/// stored value; a store overwritten later in the body with nothing between that may
/// read it goes.
fn forward_in_block(b: Block) {
    let insts = b.instructions();
    let mut geps: Vec<Value> = Vec::new();
    for &i in &insts {
        if i.opcode() != Some(Opcode::LLVMGetElementPtr) {
            continue;
        }
        let same = geps.iter().copied().find(|&g| {
            g.gep_source_type() == i.gep_source_type()
                && g.num_operands() == i.num_operands()
                && (0..g.num_operands()).all(|k| g.operand(k) == i.operand(k))
                && g.is_inbounds() == i.is_inbounds()
        });
        match same {
            Some(g) => {
                i.replace_all_uses_with(g);
                i.erase();
            }
            None => geps.push(i),
        }
    }
    let insts = b.instructions();
    // Store-to-load forwarding.
    let mut dead_loads = Vec::new();
    for (k, &l) in insts.iter().enumerate() {
        if l.opcode() != Some(Opcode::LLVMLoad) || l.is_volatile() {
            continue;
        }
        let p = l.operand(0);
        for &s in insts[..k].iter().rev() {
            match s.opcode() {
                Some(Opcode::LLVMStore) if s.operand(1) == p => {
                    if s.operand(0).ty() == l.ty() && !s.is_volatile() {
                        l.replace_all_uses_with(s.operand(0));
                        dead_loads.push(l);
                    }
                    break;
                }
                Some(Opcode::LLVMStore) if !disjoint(s.operand(1), p) => break,
                Some(Opcode::LLVMCall) if !s.is_fma_call() => break,
                _ => {}
            }
        }
    }
    for l in dead_loads {
        l.erase();
    }
    // Stores overwritten before any read.
    let insts = b.instructions();
    let mut dead_stores = Vec::new();
    for (k, &s) in insts.iter().enumerate() {
        if s.opcode() != Some(Opcode::LLVMStore) || s.is_volatile() {
            continue;
        }
        let p = s.operand(1);
        let ty = s.operand(0).ty();
        for &n in &insts[k + 1..] {
            match n.opcode() {
                Some(Opcode::LLVMStore) if n.operand(1) == p => {
                    if n.operand(0).ty() == ty {
                        dead_stores.push(s);
                    }
                    break;
                }
                Some(Opcode::LLVMLoad) if !disjoint(n.operand(0), p) => break,
                Some(Opcode::LLVMCall) if !n.is_fma_call() => break,
                _ => {}
            }
        }
    }
    for s in dead_stores {
        s.erase();
    }
}
