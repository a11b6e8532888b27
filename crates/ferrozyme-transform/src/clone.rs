//! Cloning a function and preparing the clone for differentiation.
//!
//! Like Enzyme, we never differentiate the user's function in place: we clone it, run a
//! few cheap canonicalising passes on the clone (SSA construction, so `-O0` code with its
//! stack slots looks like optimized code), differentiate the clone, then delete it. The
//! clone keeps its `!dbg` locations so diagnostics can name source lines; the generated
//! code drops them (see `reverse`).

use std::collections::HashMap;

use ferrozyme_llvm::{run_function_passes, Builder, Module, Opcode, Value};

/// Copies `src`'s body into a new internal function `name`.
pub fn clone_function(m: Module, src: Value, name: &str) -> Value {
    let dst = m.add_function(name, src.function_type());
    dst.set_linkage_internal();
    let b = Builder::new(m.context());
    let mut map: HashMap<Value, Value> = HashMap::new();
    for (k, (p, q)) in src.params().into_iter().zip(dst.params()).enumerate() {
        q.set_name(&p.name());
        map.insert(p, q);
        // Aliasing facts the analyses use (memory.rs: loads that can be re-read).
        if src.has_param_attr(k as u32, "noalias") {
            dst.add_param_attr(k as u32, "noalias");
        }
    }
    let blocks = src.blocks();
    for blk in &blocks {
        let nb = b.append_block(dst, &blk.name());
        map.insert(blk.as_value(), nb.as_value());
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
    dst
}

/// Makes a clone ready for differentiation: no `optnone`, SSA form.
pub fn preprocess(f: Value) -> Result<(), String> {
    for attr in ["optnone", "noinline", "alwaysinline"] {
        f.remove_fn_attr(attr);
    }
    run_function_passes(f, "sroa,mem2reg,instsimplify,simplifycfg")
}
