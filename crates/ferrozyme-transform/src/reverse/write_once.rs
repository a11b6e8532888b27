//! Adjoint slots written once: the zero that a store's adjoint leaves in a shadow slot,
//! carried in a register to the accumulation that next reads the slot.
//!
//! The reverse of `*p = v` reads `p`'s shadow and zeroes it; the reverse of an earlier
//! `x = *p` of the same block adds to it again (in-place updates: FFT butterflies,
//! `a[i] += ...`). LLVM forwards the zero to the add when nothing between may touch the
//! slot. When an access between may alias it (the butterfly's other element: `d[i]`
//! against `d[i + n]`, `n` unknown), the zero store and the load stay, and once the SLP
//! vectorizer packs the adds of two adjacent slots into one 16-byte load over two 8-byte
//! zero stores, the load cannot be forwarded from the store buffer and waits for both
//! stores to retire (bench/README "fft33", "fft34").
//!
//! Rule, inside one reverse block: `store 0, P` ... `%o = load T, P`, `%s = fadd %o, %d`,
//! `store %s, P`. Every instruction between the zero store and the load touches no
//! memory, or is a tape access or a tape stack call (tape memory is never shadow memory:
//! `alias.rs`), or accesses bytes at constant offsets from P's base outside P's, or is a
//! plain load or store of type T at an address Q aligned to T's power-of-two size, as
//! the zero store is: two such accesses are the same bytes or share none. Between the
//! load and its store nothing touches memory. Then the slot's value lives in a register
//! `r`, zero after the zero store: a load of such a Q becomes `select(Q == P, r, load)`,
//! a store of `V` to it sets `r = select(Q == P, V, r)`, the accumulation's load becomes
//! `r`, and the zero store goes. Memory at P is read only through those selects until
//! the accumulation's store overwrites it, so every value is the one the original
//! sequence computed, bit for bit (the same adds in the same order). The compares of
//! pointers with a common base fold to compares of indices, loop invariant in butterfly
//! loops. Windows where no access between may be the slot are left to LLVM (GVN and DSE
//! forward the zero there). Only for AVX targets (see [`has_avx`]).

use ferrozyme_llvm::{Block, Builder, Context, IntPredicate, Module, Opcode, Through, Value};

use super::memory::{may_alias, underlying};
use crate::streams::{pure_call, tape_call};

/// At most this many instructions between the zero store and the accumulation.
const MAX_WINDOW: usize = 256;
/// At most this many accesses between that need a compare (each costs a compare and a
/// select).
const MAX_COMPARED: usize = 4;

/// The zero store, the accesses between that may be the slot, and the accumulation's load.
struct Window {
    zero: Value,
    compared: Vec<Value>,
    load: Value,
}

/// Rewrites every window of `blocks` (reverse blocks of the derivative of `f`) when `f`
/// is compiled for AVX.
pub(super) fn write_once(ctx: Context, m: Module, f: Value, blocks: &[Block]) {
    if !has_avx(f) {
        return;
    }
    let b = Builder::new(ctx);
    for &blk in blocks {
        let mut next = blk.first_instruction();
        while let Some(z) = next {
            next = z.next_instruction();
            if let Some(w) = window(ctx, m, z) {
                if next == Some(w.load) {
                    next = w.load.next_instruction();
                }
                carry(&b, w);
            }
        }
    }
}

/// Is `f` compiled for a target with AVX (`-march=x86-64-v3`, `-march=native` here)? There
/// the SLP vectorizer packs the adds of adjacent slots into one 16-byte load (the stall
/// the rule removes) and a select of doubles is a blend or a masked move. Without it
/// (`-O2`, SSE2) the adds stay scalar and forward from the zero stores, and LLVM lowers
/// each scalar select of doubles to a branch: the rule cost the FFT gradients 14-29% more
/// instructions and fft-iter 8% more time at Enzyme's harness flags (bench/README "fft34").
fn has_avx(f: Value) -> bool {
    f.string_fn_attr("target-features")
        .is_some_and(|t| t.split(',').any(|x| x.starts_with("+avx")))
}

/// A plain (not volatile, not atomic) load or store: its pointer and accessed type.
fn plain_access(x: Value) -> Option<(Value, ferrozyme_llvm::Type)> {
    let (p, t) = match x.opcode()? {
        Opcode::LLVMLoad => (x.operand(0), x.ty()),
        Opcode::LLVMStore => (x.operand(1), x.operand(0).ty()),
        _ => return None,
    };
    (!x.is_volatile() && !x.is_atomic_access()).then_some((p, t))
}

fn window(ctx: Context, m: Module, z: Value) -> Option<Window> {
    let (p, t) = plain_access(z)?;
    if z.opcode() != Some(Opcode::LLVMStore) || !t.is_fp() || !z.operand(0).is_null() {
        return None;
    }
    let size = m.store_size(t);
    let exact = size.is_power_of_two() && u64::from(z.alignment()) >= size;
    let (pbase, poff) = m.strip_const_geps_through(p, Through::Geps);
    let pobj = underlying(p);
    // Other objects (an adjoint slot's `alloca` against a shadow argument or global), or
    // other bytes at constant offsets from the same base.
    let apart = |q: Value, qsize: u64| {
        if !may_alias(pobj, underlying(q)) {
            return true;
        }
        let (qbase, qoff) = m.strip_const_geps_through(q, Through::Geps);
        match (poff, qoff) {
            (Some(a), Some(c)) if qbase == pbase => {
                let (a, c) = (i128::from(a), i128::from(c));
                a + size as i128 <= c || c + qsize as i128 <= a
            }
            _ => false,
        }
    };
    let mut compared = Vec::new();
    let mut at = z.next_instruction();
    for _ in 0..MAX_WINDOW {
        let x = at?;
        at = x.next_instruction();
        match x.opcode()? {
            Opcode::LLVMLoad | Opcode::LLVMStore => {
                if super::alias::is_tape_access(ctx, x) {
                    continue;
                }
                let (q, qt) = plain_access(x)?;
                if q == p {
                    // Where nothing between may be the slot, LLVM's GVN and DSE forward
                    // the zero themselves: left to them.
                    let load = x.opcode() == Some(Opcode::LLVMLoad);
                    return (load && qt == t && !compared.is_empty() && accumulates(x, p))
                        .then_some(Window {
                            zero: z,
                            compared,
                            load: x,
                        });
                }
                if apart(q, m.store_size(qt)) {
                    continue;
                }
                if !(exact && qt == t && q.ty() == p.ty() && u64::from(x.alignment()) >= size)
                    || compared.len() == MAX_COMPARED
                {
                    return None;
                }
                compared.push(x);
            }
            Opcode::LLVMCall if pure_call(x) || tape_call(x) => {}
            Opcode::LLVMCall
            | Opcode::LLVMInvoke
            | Opcode::LLVMAtomicRMW
            | Opcode::LLVMAtomicCmpXchg
            | Opcode::LLVMFence
            | Opcode::LLVMVAArg => return None,
            _ => {}
        }
    }
    None
}

/// Is `load` (of `p`) used only by an `fadd` whose only use is a store of it to `p`, with
/// nothing between the load and that store touching memory?
fn accumulates(load: Value, p: Value) -> bool {
    let [add] = load.users()[..] else {
        return false;
    };
    if add.opcode() != Some(Opcode::LLVMFAdd) || add.parent_block() != load.parent_block() {
        return false;
    }
    let [st] = add.users()[..] else { return false };
    if st.opcode() != Some(Opcode::LLVMStore)
        || st.operand(0) != add
        || st.operand(1) != p
        || st.parent_block() != load.parent_block()
        || st.is_volatile()
        || st.is_atomic_access()
    {
        return false;
    }
    let mut at = load.next_instruction();
    while let Some(x) = at {
        if x == st {
            return true;
        }
        let quiet = match x.opcode() {
            Some(Opcode::LLVMLoad | Opcode::LLVMStore) => false,
            Some(Opcode::LLVMCall) => pure_call(x),
            Some(Opcode::LLVMInvoke | Opcode::LLVMAtomicRMW | Opcode::LLVMAtomicCmpXchg)
            | Some(Opcode::LLVMFence | Opcode::LLVMVAArg) => false,
            _ => true,
        };
        if !quiet {
            return false;
        }
        at = x.next_instruction();
    }
    false
}

/// Carries the slot's value in a register through the window (see the module comment).
fn carry(b: &Builder, w: Window) {
    let p = w.zero.operand(1);
    let mut r = w.zero.operand(0);
    for x in w.compared {
        let is_load = x.opcode() == Some(Opcode::LLVMLoad);
        // A store of the value the slot holds (another zero) leaves `r` as it is.
        if !is_load && x.operand(0) == r {
            continue;
        }
        b.position_before(x);
        let q = if is_load { x.operand(0) } else { x.operand(1) };
        let same = b.icmp(IntPredicate::LLVMIntEQ, q, p);
        b.position_after(x);
        if is_load {
            let sel = b.select(same, r, x);
            x.replace_all_uses_with(sel);
            // The select's own operand went too.
            sel.set_operand(2, x);
        } else {
            r = b.select(same, x.operand(0), r);
        }
    }
    w.load.replace_all_uses_with(r);
    w.load.erase();
    w.zero.erase();
}
