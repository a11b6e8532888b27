//! A while loop as a step function `int step(i, live-ins..., [slot])`: one iteration of
//! the loop's body, returning 1 where the body goes round again (its back edges) and 0
//! where it leaves (its exits), so that `i = 0; while (step(i++, ...));` runs the loop
//! as written. `fixed_loop.rs` checks the loop and builds what the step is called with.
//!
//! The step is a copy; the loop itself is left for the caller to cut off. The loop's
//! counter, when it has one (`phi [0, entry], [counter + 1, latch]`), is the step number;
//! each value the loop gives to the code after it is stored into a slot parameter (the
//! last ones) right after it is computed; a stack slot only the body uses becomes the step's.

use ferrozyme_analysis::hash::{HashMap, HashSet};

use crate::common::ir_text::quote;
use ferrozyme_analysis::loops::Loop;
use ferrozyme_llvm::{Block, Builder, Module, Opcode, Value};

/// What the step is made of.
pub(super) struct WhileLoop<'a> {
    pub l: &'a Loop,
    /// The loop's blocks in function order.
    pub blocks: Vec<Block>,
    /// The header phi counting the iterations from 0 by 1, if any.
    pub counter: Option<Value>,
    /// Values from before the loop the body uses, in parameter order.
    pub live: Vec<Value>,
    /// Stack slots of the function only the body uses (a local array of the body at
    /// -O0): each step gets its own.
    pub locals: Vec<Value>,
    /// Address computations from before the loop, made again in the step from its
    /// parameters (at -O2 the element pointers of a state, hoisted out of the loop).
    pub rebuilt: Vec<Value>,
    /// The values the code after the loop uses (each stored into its slot parameter).
    pub outs: Vec<Value>,
}

/// The step function `name` (internal, not inlined).
pub(super) fn outline(module: Module, f: Value, w: &WhileLoop, name: &str) -> Value {
    let ctx = module.context();
    let index = w.counter.map_or(ctx.i64(), |c| c.ty());
    let mut params = vec![index];
    params.extend(w.live.iter().map(|v| v.ty()));
    params.extend(w.outs.iter().map(|_| ctx.ptr()));
    let fty = ctx.function_type(ctx.i32(), &params, false);
    let step = module.add_function(name, fty);
    step.set_linkage_internal();
    step.add_fn_attr("noinline");
    step.mark_origin(f);
    if let Some(p) = f.personality() {
        step.set_personality(p);
    }
    let ps = step.params();
    let slots: HashMap<Value, Value> = w
        .outs
        .iter()
        .zip(&ps[ps.len() - w.outs.len()..])
        .map(|(v, p)| (*v, *p))
        .collect();
    let mut map: HashMap<Value, Value> = HashMap::default();
    if let Some(c) = w.counter {
        map.insert(c, ps[0]);
    }
    for (v, p) in w.live.iter().zip(&ps[1..]) {
        map.insert(*v, *p);
    }
    let b = Builder::new(ctx);
    let entry = b.append_block(step, "entry");
    let bmap: HashMap<Block, Block> = w
        .blocks
        .iter()
        .map(|blk| (*blk, b.append_block(step, &blk.name())))
        .collect();
    let again = b.append_block(step, "step.again");
    b.position_at_end(again);
    b.ret(ctx.i32().const_i64(1));
    let done = b.append_block(step, "step.done");
    b.position_at_end(done);
    b.ret(ctx.i32().const_i64(0));
    b.position_at_end(entry);
    for a in &w.locals {
        let n = a.clone_instruction();
        b.insert(n);
        n.set_name(&a.name());
        map.insert(*a, n);
    }
    for g in &w.rebuilt {
        let n = g.clone_instruction();
        b.insert(n);
        n.set_name(&g.name());
        for j in 0..n.num_operands() {
            if let Some(&m) = map.get(&n.operand(j)) {
                n.set_operand(j, m);
            }
        }
        map.insert(*g, n);
    }
    if let Some(s) = w.counter.and_then(|c| slots.get(&c)) {
        b.store(ps[0], *s);
    }
    b.br(bmap[&w.l.header]);
    let mut phis = Vec::new();
    let mut clones = Vec::new();
    let mut out_defs = Vec::new();
    for blk in &w.blocks {
        b.position_at_end(bmap[blk]);
        for i in blk.instructions() {
            if Some(i) == w.counter || i.is_lifetime_or_debug_marker() {
                continue;
            }
            let n = if i.opcode() == Some(Opcode::LLVMPHI) {
                let p = b.phi(i.ty(), &i.name());
                phis.push((i, p));
                p
            } else {
                let n = i.clone_instruction();
                b.insert(n);
                n.set_name(&i.name());
                clones.push((i, n));
                n
            };
            map.insert(i, n);
            if let Some(s) = slots.get(&i) {
                out_defs.push((n, bmap[blk], *s));
            }
        }
    }
    for (old, n) in &clones {
        for j in 0..n.num_operands() {
            if let Some(&m) = map.get(&n.operand(j)) {
                n.set_operand(j, m);
            }
        }
        if old.is_terminator() {
            for s in 0..old.num_successors() {
                let t = old.successor(s);
                let to = if t == w.l.header {
                    again
                } else if !w.l.blocks.contains(&t) {
                    done
                } else {
                    bmap[&t]
                };
                n.set_successor(s, to);
            }
        }
    }
    for (n, cb, s) in out_defs {
        let at = if n.opcode() == Some(Opcode::LLVMPHI) {
            cb.first_non_phi()
        } else {
            n.next_instruction()
        };
        if let Some(at) = at {
            b.position_before(at);
            b.store(n, s);
        }
    }
    for (old, p) in phis {
        for (v, blk) in old.incoming() {
            p.add_incoming(map.get(&v).copied().unwrap_or(v), bmap[&blk]);
        }
    }
    step
}

/// What a step takes from before the loop (see [`WhileLoop`]).
pub(super) struct Inputs {
    pub live: Vec<Value>,
    pub locals: Vec<Value>,
    pub rebuilt: Vec<Value>,
    seen: HashSet<Value>,
}

/// The values from before `l` that its body uses, sorted into parameters, the body's own
/// stack slots and address computations the step makes again.
pub(super) fn inputs(l: &Loop, blocks: &[Block], counter: Option<Value>) -> Result<Inputs, String> {
    let mut ins = Inputs {
        live: Vec::new(),
        locals: Vec::new(),
        rebuilt: Vec::new(),
        seen: HashSet::default(),
    };
    for blk in blocks {
        for i in blk.instructions() {
            if Some(i) == counter || i.is_lifetime_or_debug_marker() {
                continue;
            }
            for op in i.operands() {
                ins.add(l, op)?;
            }
        }
    }
    Ok(ins)
}

impl Inputs {
    fn add(&mut self, l: &Loop, op: Value) -> Result<(), String> {
        let before =
            (op.is_instruction() && !l.blocks.contains(&op.parent_block())) || op.is_argument();
        if !before || !self.seen.insert(op) {
            return Ok(());
        }
        let in_body = |v: Value| {
            v.users()
                .iter()
                .all(|u| u.is_instruction() && l.blocks.contains(&u.parent_block()))
        };
        match op.opcode() {
            Some(Opcode::LLVMAlloca) if in_body(op) => {
                self.locals.push(op);
                return Ok(());
            }
            Some(Opcode::LLVMGetElementPtr) => {
                for j in 0..op.num_operands() {
                    self.add(l, op.operand(j))?;
                }
                self.rebuilt.push(op);
                return Ok(());
            }
            _ => {}
        }
        let t = op.ty();
        if !(t.is_pointer() || t.is_integer() || t.is_fp_scalar()) {
            return Err(format!("the body uses `{}`, of type {t}, from before the loop (a step takes pointers, integers and float scalars)", quote(op)));
        }
        self.live.push(op);
        Ok(())
    }
}
