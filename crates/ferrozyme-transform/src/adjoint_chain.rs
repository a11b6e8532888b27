//! Preaccumulated adjoint recurrences: a reverse loop whose carried adjoint is a fixed
//! linear map of itself gets that map computed once, before the loop.
//!
//! The reverse sweep of a linear, constant-coefficient step (RK4 or Euler on
//! `x' = -1.2 x`, the benchmarks `rk4`, `rk4-scalar`, `rk4-odeint`, `euler`) carries the
//! state's adjoint `d` around the reverse loop through the transposed step: for RK4 four
//! stages of "scale by `h/k`, add, scale by `-1.2`", eight dependent floating-point
//! operations per step, as long as the primal's own chain. Both sweeps are latency-bound,
//! so the gradient took twice the primal's time whatever the instruction count (RK4 at
//! `-O3 -march=native`, bench/README "native11"). Every coefficient of that chain is
//! loop-invariant (the step size and its fractions), so `d_next = d * C` with
//! `C = chain(1)`, evaluated in the preheader with the same operations in the same order:
//! one multiply on the carried path instead of eight. The chain's other values (the
//! stage adjoints feeding the step size's adjoint) are still computed in each iteration,
//! now off the critical path; operations only the carried value used are deleted.
//!
//! Why the value may change by rounding only, and why that is the pass's choice and not
//! the user's: the derivative is the product of the steps' Jacobians applied to the seed;
//! in which grouping the partials are multiplied is how the AD tool evaluates the chain
//! rule (forward and reverse mode, or preaccumulating a statement's local Jacobian as
//! source-transformation tools do, differ exactly so), not an expression of the user's
//! program. The primal's arithmetic is never touched: only operations the reverse sweep
//! built for adjoints carry the mark (`ferrozyme_llvm::builder::ADJOINT_MD`, set while
//! `reverse::adjoint` emits), and primal values never depend on adjoints.
//!
//! Taken only when all of this holds (anything else is left as it is):
//! * the phi is a floating-point scalar in the header of a single-entry loop, with one
//!   incoming value from outside the loop (the preheader) and one from inside (the latch,
//!   dominated by the header);
//! * the latch value is built from the phi by `fmul`, `fadd`, `fsub`, `fneg`,
//!   `llvm.fmuladd`/`llvm.fma` only, each linear in the phi (a product with exactly one
//!   factor depending on it, sums of two values depending on it), every other operand
//!   defined outside the loop or a constant (no tape values, no other carried value);
//! * an operation of the chain that reads the phi carries the adjoint mark (it was
//!   built while the reverse sweep was emitted). Primal values never depend on
//!   adjoints, and the primal's recurrences (in the primal and in the forward sweep,
//!   which copies it) carry no mark, nor does LLVM keep unknown metadata when it merges
//!   duplicates, so a primal recurrence is never rewritten. Other operations of the
//!   chain may be unmarked: LLVM's passes replace marked ones by new ones (`instcombine`
//!   turning `d + d * -c` into `d - d * c`);
//! * the chain is at least two operations deep (else nothing is gained).
//!
//! `C` goes in the preheader; one that also branches elsewhere (the forward sweep's
//! latch, which leaves into the reverse loop) first gets a block of its own on the edge.
//! Uses of the old latch value after the loop (the final adjoint) take the new one when
//! only the latch leaves the loop: it is computed on every path to them.

use ferrozyme_analysis::hash::{HashMap, HashSet};

use ferrozyme_llvm::builder::ADJOINT_MD;
use ferrozyme_llvm::{Block, Builder, Module, Opcode, Value};

/// Longest chain (operations between the phi and its latch value) considered.
const MAX_CHAIN: usize = 64;

/// Rewrites the recurrences described in the module doc (when `rewrite`), then removes
/// the adjoint mark from every instruction. Returns how many recurrences were rewritten.
pub fn preaccumulate(module: Module, rewrite: bool) -> usize {
    let mut done = 0;
    let mut kind = None;
    for f in module.functions() {
        let blocks = f.blocks();
        if blocks.is_empty() {
            continue;
        }
        let k = *kind.get_or_insert_with(|| f.ty().context().md_kind(ADJOINT_MD));
        if rewrite {
            // Adjacent loops of generated code that count alike become one
            // (`adjoint_fusion.rs`); the user's own functions are left as they are.
            if crate::generated::is_generated(f) {
                crate::adjoint_fusion::fuse_function(&blocks);
            }
            let blocks = f.blocks();
            done += rewrite_function(&blocks, k);
            // Carried adjoint sums of short reverse loops in two partial sums
            // (`adjoint_split.rs`); it needs the mark too.
            crate::adjoint_split::split_function(&f.blocks(), k);
            // Vectorized recurrences of order 2 and more read as one shuffle of vectors
            // the loop carries (`splice_chains.rs`).
            crate::splice_chains::fold_function(&f.blocks());
            // Adjoint products with a common factor that the pipeline's instcombine
            // paired (`adjoint_factor.rs`; code generation merges the equal differences
            // of a block).
            crate::adjoint_factor::factor_function(f);
        }
        crate::generated::unmark_shadow_params(f);
        for b in f.blocks() {
            for i in b.instructions() {
                if i.metadata(k).is_some() {
                    i.set_metadata(k, None);
                }
            }
        }
    }
    done
}

fn rewrite_function(blocks: &[Block], kind: u32) -> usize {
    let mut preds: HashMap<Block, Vec<Block>> = HashMap::default();
    for &b in blocks {
        for s in b.successors() {
            preds.entry(s).or_default().push(b);
        }
    }
    let mut done = 0;
    for &h in blocks {
        if !h.phis().iter().any(|p| p.ty().is_fp_scalar()) {
            continue;
        }
        let hp = preds.get(&h).cloned().unwrap_or_default();
        if hp.len() != 2 || hp[0] == hp[1] {
            continue;
        }
        let Some((pre, latch, body)) = natural_loop(blocks[0], h, &hp, &preds) else {
            continue;
        };
        // A preheader that branches elsewhere too (the forward sweep's loop latch, which
        // leaves into the reverse loop) gets a block of its own on the edge, so that the
        // coefficients are computed once per entry into the loop.
        let mut pre = pre;
        let mut retry = true;
        while retry {
            retry = false;
            for p in h.phis().into_iter().filter(|p| p.ty().is_fp_scalar()) {
                match rewrite_phi(p, pre, latch, &body, kind) {
                    Outcome::Kept => {}
                    Outcome::Done => done += 1,
                    Outcome::NeedsPreheader => {
                        pre = split_edge(pre, h);
                        retry = true;
                        break;
                    }
                }
            }
        }
    }
    done
}

/// The loop with header `h` and predecessors `hp`: (preheader, latch, body) when one
/// predecessor is inside the loop (dominated by `h`), the other outside, and no block
/// but `h` is entered from outside.
fn natural_loop(
    entry: Block,
    h: Block,
    hp: &[Block],
    preds: &HashMap<Block, Vec<Block>>,
) -> Option<(Block, Block, HashSet<Block>)> {
    for (li, pi) in [(0, 1), (1, 0)] {
        let (latch, pre) = (hp[li], hp[pi]);
        let mut body: HashSet<Block> = HashSet::from_iter([h]);
        let mut work = vec![latch];
        while let Some(b) = work.pop() {
            if body.insert(b) {
                work.extend(preds.get(&b).into_iter().flatten().copied());
            }
        }
        // A latch reached from the function's entry without passing `h` is no latch:
        // `h` must dominate it.
        if body.contains(&pre) || body.contains(&entry) {
            continue;
        }
        let single_entry = body.iter().all(|&b| {
            b == h
                || preds
                    .get(&b)
                    .is_none_or(|ps| ps.iter().all(|p| body.contains(p)))
        });
        return single_entry.then_some((pre, latch, body));
    }
    None
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Defined outside the loop (or a constant): a coefficient.
    Inv,
    /// `phi * c` for a loop-invariant `c`; the number is the chain depth.
    Lin(usize),
    Bad,
}

struct Chain<'a> {
    phi: Value,
    body: &'a HashSet<Block>,
    kind: u32,
    memo: HashMap<Value, Kind>,
    /// Does an operation of the chain that reads the phi carry the adjoint mark?
    marked_reader: bool,
}

impl Chain<'_> {
    fn classify(&mut self, v: Value) -> Kind {
        if v == self.phi {
            return Kind::Lin(0);
        }
        if v.is_constant() || v.is_argument() {
            return Kind::Inv;
        }
        if !v.is_instruction() {
            return Kind::Bad;
        }
        if !self.body.contains(&v.parent_block()) {
            return Kind::Inv;
        }
        if let Some(&k) = self.memo.get(&v) {
            return k;
        }
        if self.memo.len() > MAX_CHAIN {
            return Kind::Bad;
        }
        // Provisional entry: a cycle through a non-phi cannot happen in SSA, but the
        // guard keeps the recursion finite on anything unexpected.
        self.memo.insert(v, Kind::Bad);
        let k = self.classify_op(v);
        self.memo.insert(v, k);
        k
    }

    fn classify_op(&mut self, v: Value) -> Kind {
        // One operation that reads the phi must be the reverse sweep's (marked); LLVM's
        // passes replace marked operations by new, unmarked ones (`instcombine` turning
        // `d + d * -c` into `d - d * c`), so not every one is.
        if v.metadata(self.kind).is_some() && v.operands().contains(&self.phi) {
            self.marked_reader = true;
        }
        let deeper = |d: usize| Kind::Lin(d + 1);
        match v.opcode() {
            Some(Opcode::LLVMFMul) => {
                match (self.classify(v.operand(0)), self.classify(v.operand(1))) {
                    (Kind::Lin(d), Kind::Inv) | (Kind::Inv, Kind::Lin(d)) => deeper(d),
                    _ => Kind::Bad,
                }
            }
            Some(Opcode::LLVMFAdd | Opcode::LLVMFSub) => {
                match (self.classify(v.operand(0)), self.classify(v.operand(1))) {
                    (Kind::Lin(a), Kind::Lin(b)) => deeper(a.max(b)),
                    _ => Kind::Bad,
                }
            }
            Some(Opcode::LLVMFNeg) => match self.classify(v.operand(0)) {
                Kind::Lin(d) => deeper(d),
                _ => Kind::Bad,
            },
            Some(Opcode::LLVMCall) if v.is_fma_call() => {
                let a = self.classify(v.operand(0));
                let b = self.classify(v.operand(1));
                let c = self.classify(v.operand(2));
                match (a, b, c) {
                    (Kind::Lin(x), Kind::Inv, Kind::Lin(y))
                    | (Kind::Inv, Kind::Lin(x), Kind::Lin(y)) => deeper(x.max(y)),
                    _ => Kind::Bad,
                }
            }
            _ => Kind::Bad,
        }
    }
}

/// Builds, at `b`'s position, the coefficient `c` of a `Lin` value `v = phi * c`: the
/// chain evaluated at `phi = 1` with the same operations (a product by one is the other
/// factor, exactly).
fn coefficient(
    v: Value,
    ch: &Chain<'_>,
    b: &Builder,
    one: Value,
    memo: &mut HashMap<Value, Value>,
) -> Value {
    if v == ch.phi {
        return one;
    }
    if let Some(&c) = memo.get(&v) {
        return c;
    }
    let lin = |x: Value| x == ch.phi || matches!(ch.memo.get(&x), Some(Kind::Lin(_)));
    // (value, built here): a product by one returns the other factor, an operand of
    // the chain whose flags are not ours to set.
    let (c, built) = match v.opcode() {
        Some(Opcode::LLVMFMul) => {
            let (l, k) = if lin(v.operand(0)) {
                (v.operand(0), v.operand(1))
            } else {
                (v.operand(1), v.operand(0))
            };
            let cl = coefficient(l, ch, b, one, memo);
            if cl == one {
                (k, false)
            } else {
                (b.fmul(cl, k), true)
            }
        }
        Some(Opcode::LLVMFAdd) => {
            let x = coefficient(v.operand(0), ch, b, one, memo);
            let y = coefficient(v.operand(1), ch, b, one, memo);
            (b.fadd(x, y), true)
        }
        Some(Opcode::LLVMFSub) => {
            let x = coefficient(v.operand(0), ch, b, one, memo);
            let y = coefficient(v.operand(1), ch, b, one, memo);
            (b.fsub(x, y), true)
        }
        Some(Opcode::LLVMFNeg) => {
            let x = coefficient(v.operand(0), ch, b, one, memo);
            (b.fneg(x), true)
        }
        _ => {
            // llvm.fmuladd / llvm.fma: (Lin, Inv, Lin) or (Inv, Lin, Lin).
            let (l, k) = if lin(v.operand(0)) {
                (v.operand(0), v.operand(1))
            } else {
                (v.operand(1), v.operand(0))
            };
            let cl = coefficient(l, ch, b, one, memo);
            let cc = coefficient(v.operand(2), ch, b, one, memo);
            if cl == one {
                // 1 * k + cc rounded once is k + cc.
                (b.fadd(k, cc), true)
            } else {
                let args = [cl, k, cc];
                (
                    b.call(v.called_function_type(), v.called_value(), &args),
                    true,
                )
            }
        }
    };
    if built {
        c.set_fast_math_flags(v.fast_math_flags());
    }
    memo.insert(v, c);
    c
}

enum Outcome {
    Kept,
    Done,
    /// Rewritable, but the preheader has other successors ([`split_edge`] first).
    NeedsPreheader,
}

/// Splits the edge `pre -> h` with a new block, which becomes `h`'s preheader; `h`'s
/// phis are rebuilt with the new block as their incoming block (the C API cannot change
/// a phi's incoming block in place).
fn split_edge(pre: Block, h: Block) -> Block {
    let ctx = h.parent().ty().context();
    let n = h.insert_before(ctx, "fz.chain.pre");
    let b = Builder::new(ctx);
    b.position_at_end(n);
    b.br(h);
    let t = pre.terminator().expect("a predecessor has a terminator");
    for i in 0..t.num_successors() {
        if t.successor(i) == h {
            t.set_successor(i, n);
        }
    }
    for p in h.phis() {
        b.position_before(h.first_instruction().expect("h has its phis"));
        let np = b.phi(p.ty(), &p.name());
        for (v, from) in p.incoming() {
            np.add_incoming(v, if from == pre { n } else { from });
        }
        np.set_fast_math_flags(p.fast_math_flags());
        p.replace_all_uses_with(np);
        p.erase();
    }
    n
}

fn rewrite_phi(p: Value, pre: Block, latch: Block, body: &HashSet<Block>, kind: u32) -> Outcome {
    let incoming = p.incoming();
    let Some(idx) = incoming.iter().position(|(_, b)| *b == latch) else {
        return Outcome::Kept;
    };
    let v = incoming[idx].0;
    let mut ch = Chain {
        phi: p,
        body,
        kind,
        memo: HashMap::default(),
        marked_reader: false,
    };
    match ch.classify(v) {
        Kind::Lin(d) if d >= 2 && ch.marked_reader => {}
        _ => return Outcome::Kept,
    }
    let (Some(pre_term), Some(latch_term)) = (pre.terminator(), latch.terminator()) else {
        return Outcome::Kept;
    };
    if pre_term.num_successors() != 1 {
        // Only plain branches and switches have edges that a block can be put on
        // (never `invoke`'s unwind edge or `callbr`'s).
        return match pre_term.opcode() {
            Some(Opcode::LLVMBr | Opcode::LLVMSwitch) => Outcome::NeedsPreheader,
            _ => Outcome::Kept,
        };
    }
    let ctx = p.ty().context();
    let b = Builder::new(ctx);
    b.position_before(pre_term);
    let one = p.ty().const_float(1.0);
    let mut memo = HashMap::default();
    let c = coefficient(v, &ch, &b, one, &mut memo);
    b.position_before(latch_term);
    let next = b.fmul(p, c);
    next.set_fast_math_flags(v.fast_math_flags());
    p.set_operand(idx as u32, next);
    // Uses after the loop (the final adjoint) see the carried value of the last trip:
    // when only the latch leaves the loop, the new value is computed on every path to
    // them, so they take it and the old chain can go.
    let only_latch_exits = body
        .iter()
        .all(|&b| b == latch || b.successors().iter().all(|s| body.contains(s)));
    if only_latch_exits {
        for u in v.users() {
            if u == next || body.contains(&u.parent_block()) {
                continue;
            }
            for k in 0..u.num_operands() {
                if u.operand(k) == v {
                    u.set_operand(k, next);
                }
            }
        }
    }
    delete_dead(v, &ch);
    Outcome::Done
}

/// Erases the chain's operations left without users (those only the carried value used).
fn delete_dead(v: Value, ch: &Chain<'_>) {
    let mut work = vec![v];
    let mut gone = HashSet::default();
    while let Some(i) = work.pop() {
        if gone.contains(&i) || !ch.memo.contains_key(&i) || !i.users().is_empty() {
            continue;
        }
        let ops = i.operands();
        i.erase();
        gone.insert(i);
        work.extend(
            ops.into_iter()
                .filter(|o| o.is_instruction() && *o != ch.phi),
        );
    }
}
