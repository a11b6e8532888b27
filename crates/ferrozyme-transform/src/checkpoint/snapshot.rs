//! The state of a loop outlined into a step function (`auto.rs`, `marked.rs`): what a
//! snapshot holds (`snapshot`), and the `__enzyme_checkpoint_for` call that replaces the
//! loop (`checkpoint_call`).

use ferrozyme_analysis::hash::HashMap;

use ferrozyme_llvm::{Block, Builder, IntPredicate, Module, Value};

use super::auto::live_name;
use super::counted::Counted;
use super::ranges::{Iv, Sym, Walk};
use super::writes;
use crate::common::ir_text::quote;

/// The step's state, with the sizes computed before the preheader's branch.
pub(super) struct Snapshot {
    written: writes::Written,
    /// The number of iterations (i64).
    pub trips: Value,
    pub facts: super::ranges::Facts,
}

/// Identifies the step's state: what it writes, bounded by values known before the loop
/// (`ranges.rs`), or by `hint(j)`, the bytes the program says its live-in pointer `j`
/// reaches (`__enzyme_ptr_size_hint`). The sizes go before the preheader's branch.
/// `time_loop`: the loop must carry state from one iteration to the next (automatic
/// checkpointing only takes such loops).
#[allow(clippy::too_many_arguments)]
pub(super) fn snapshot(
    module: Module,
    f: Value,
    pre: Block,
    c: &Counted,
    step: Value,
    live: &[Value],
    hint: &dyn Fn(usize) -> Option<Value>,
    time_loop: bool,
) -> Result<Snapshot, String> {
    let w = writes::written(step).map_err(|u| {
        format!(
            "what it changes cannot be identified: it writes memory through {} (`{}`)",
            u.why,
            quote(u.inst)
        )
    })?;
    if w.params.is_empty() && w.globals.is_empty() {
        return Err("it writes no memory outside its own locals: no state to checkpoint".into());
    }
    for g in &w.globals {
        if g.is_declaration() {
            return Err(format!(
                "it writes the global `{}`, defined in another file (its size is unknown here)",
                g.name()
            ));
        }
    }
    let ctx = module.context();
    let b = Builder::new(ctx);
    let tmp = b.append_block(f, "fz.auto.sizes");
    b.position_at_end(tmp);
    let built = (|| -> Result<_, String> {
        let walk_b = &b;
        let mut walk = Walk::new(module, walk_b);
        let bound = walk.to_i64(c.bound, c.unsigned);
        let one = ctx.i64().const_i64(1);
        let last = walk_b.add(bound, ctx.i64().const_i64(c.extra));
        let start = ctx.i64().const_i64(c.start);
        let n = walk_b.add(walk_b.sub(last, start), one);
        let least = ctx.i64().const_i64(i64::from(c.post));
        let big = walk_b.icmp(IntPredicate::LLVMIntSGT, n, least);
        let trips = walk_b.select(big, n, least);
        let mut env = HashMap::default();
        let tl = walk_b.sub(walk_b.add(start, trips), one);
        let tl = walk_b.select(walk_b.icmp(IntPredicate::LLVMIntSGT, tl, start), tl, start);
        env.insert(
            step.params()[0],
            Sym::Int(Iv {
                lo: start,
                hi: tl,
                min: Some(c.start),
            }),
        );
        for (j, (v, p)) in live.iter().zip(&step.params()[1..]).enumerate() {
            if v.ty().is_pointer() {
                env.insert(
                    *p,
                    Sym::Ptr {
                        root: j,
                        off: walk.point(ctx.i64().const_i64(0)),
                    },
                );
            } else if v.ty().is_integer() {
                env.insert(*p, Sym::Int(walk.point(*v)));
            }
        }
        let bounded = walk.walk(step, &env, 0);
        let (tape, hinted_only) = match bounded {
            Ok(t) => (t, false),
            // Without a bound of its own, every written pointer must have a hint.
            Err(why) if !w.params.iter().all(|j| hint(*j).is_some()) => return Err(why),
            Err(_) => (ctx.i64().const_i64(0), true),
        };
        let mut facts = if hinted_only {
            super::ranges::Facts {
                regions: Vec::new(),
                tape,
                carried: true,
            }
        } else {
            walk.facts(tape)
        };
        if time_loop && !facts.carried && w.globals.is_empty() {
            return Err("it reads none of the memory it writes: no state goes from one iteration to the next (not a time loop)".into());
        }
        for j in &w.params {
            if let Some(bytes) = hint(*j) {
                // The program's word for the extent wins over the analysis's bound.
                facts.regions.retain(|(r, _)| r != j);
                facts.regions.push((*j, bytes));
            } else if !facts.regions.iter().any(|(r, _)| r == j) {
                return Err(format!(
                    "the bytes it writes through `{}` cannot be bounded",
                    quote(live[*j])
                ));
            }
        }
        facts.regions.sort_by_key(|(j, _)| *j);
        Ok((trips, facts))
    })();
    let (trips, facts) = match built {
        Ok(x) => x,
        Err(why) => {
            tmp.delete();
            return Err(why);
        }
    };
    // The sizes go before the preheader's branch.
    let term = pre.terminator().ok_or("a preheader without a terminator")?;
    for i in tmp.instructions() {
        i.remove_from_parent();
        b.position_before(term);
        b.insert(i);
    }
    tmp.delete();
    Ok(Snapshot {
        written: w,
        trips,
        facts,
    })
}

/// Fills `ck` (a new block) with `__enzyme_checkpoint_for(step, start, trips, [enzyme_scheme,
/// null, spec,] regions..., live-ins...)` and a branch to the loop's exit (whose phis get
/// the exiting block's values, or what `exit_slots` holds for them). `spec`: a marked
/// loop's `{schedule, budget}` (driver.c).
#[allow(clippy::too_many_arguments)]
pub(super) fn checkpoint_call(
    module: Module,
    ck: Block,
    c: &Counted,
    step: Value,
    live: &[Value],
    s: &Snapshot,
    spec: Option<Value>,
    exit_slots: &HashMap<Value, Value>,
) {
    let ctx = module.context();
    let b = Builder::new(ctx);
    b.position_at_end(ck);
    let entry = module.get_or_declare(
        "__enzyme_checkpoint_for",
        ctx.function_type(ctx.void(), &[ctx.ptr()], true),
    );
    let marker = |name: &str| {
        module
            .global(name)
            .unwrap_or_else(|| module.add_global(name, ctx.i32()))
    };
    let mut args = vec![step, ctx.i64().const_i64(c.start), s.trips];
    if let Some(spec) = spec {
        args.push(b.load(ctx.i32(), marker("enzyme_scheme"), ""));
        args.push(ctx.ptr().zero());
        args.push(spec);
    }
    let region = marker("enzyme_checkpoint_region");
    for (j, bytes) in &s.facts.regions {
        args.push(b.load(ctx.i32(), region, ""));
        args.push(live[*j]);
        args.push(*bytes);
    }
    args.extend_from_slice(live);
    b.call(entry.global_value_type(), entry, &args);
    let mut incoming = Vec::new();
    for phi in c.exit.phis() {
        if let Some((v, _)) = phi
            .incoming()
            .into_iter()
            .find(|(_, blk)| *blk == c.exiting)
        {
            let v = match exit_slots.get(&v) {
                Some(slot) => b.load(v.ty(), *slot, "fz.marked.exit"),
                None => v,
            };
            incoming.push((phi, v));
        }
    }
    b.br(c.exit);
    for (phi, v) in incoming {
        phi.add_incoming(v, ck);
    }
}

/// "its state is ...": the regions and globals a snapshot holds.
pub(super) fn describe(live: &[Value], s: &Snapshot) -> String {
    let mut what: Vec<String> = s
        .facts
        .regions
        .iter()
        .map(|(j, _)| format!("the memory it writes through {}", live_name(live[*j])))
        .collect();
    what.extend(
        s.written
            .globals
            .iter()
            .map(|g| format!("the global `{}`", g.name())),
    );
    format!("its state is {}", what.join(", "))
}
