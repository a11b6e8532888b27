//! Loops annotated for checkpointing in the source (Enzyme's `[[enzyme::checkpoint("revolve",
//! 3)]]`, `#pragma enzyme checkpoint`, `enzyme_checkpointing_enable`; `<enzyme/
//! checkpoint_schedule.h>`). The clang plugin puts `__enzyme_set_checkpointing(schedule,
//! budget)` at the top of the marked loop's body (crates/ferrozyme-clang).
//!
//! * In a function a reverse-mode hook differentiates (or one it calls), the loop holding
//!   the call is outlined into a step function, as `auto.rs` outlines time loops, and
//!   always runs as `__enzyme_checkpoint_for` with the annotation's schedule and budget
//!   (driver.c reads them: `data = {schedule, budget}`, no scheme). The snapshot holds
//!   what the step writes: globals, and memory behind live-in pointers bounded by values
//!   known before the loop, or by `__enzyme_ptr_size_hint(ptr, bytes, 0)` in the function
//!   (`hints`). A marked loop that cannot be outlined or whose state cannot be bounded is
//!   an error at the loop, saying why: the annotation is the user's request, never
//!   silently dropped.
//! * Elsewhere (plain code, forward mode only) the calls are removed: the loop stays plain.
//!
//! The function and what it calls are first put in SSA form (`sroa,mem2reg`; at -O0 without
//! `optnone` for that while): the counter of an unoptimized loop lives in memory, and a
//! counted loop is needed.

use ferrozyme_analysis::hash::{HashMap, HashSet};

use ferrozyme_analysis::cfg::Cfg;
use ferrozyme_analysis::loops::{Loop, Loops};
use ferrozyme_llvm::{
    run_function_passes, Builder, DiagKind, Diagnostic, Module, Opcode, Remark, RemarkKind, Value,
};

use super::auto;
use super::writes;
use crate::common::ir_text::quote;

/// The call the clang plugin inserts (matched by containment: C++ may mangle it).
pub(crate) const SET: &str = "__enzyme_set_checkpointing";

/// The schedule tags of `<enzyme/checkpoint_schedule.h>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Schedule {
    Periodic = 1,
    Revolve = 2,
    StoreAll = 3,
    Binomial = 4,
}

impl Schedule {
    fn of(tag: i64) -> Option<Schedule> {
        match tag {
            1 => Some(Schedule::Periodic),
            2 => Some(Schedule::Revolve),
            3 => Some(Schedule::StoreAll),
            4 => Some(Schedule::Binomial),
            _ => None,
        }
    }
    fn name(self) -> &'static str {
        match self {
            Schedule::Periodic => "periodic",
            Schedule::Revolve => "revolve",
            Schedule::StoreAll => "store_all",
            Schedule::Binomial => "binomial",
        }
    }
}

fn is_set_call(i: Value) -> bool {
    i.is_call() && i.called_function().is_some_and(|f| f.name().contains(SET))
}

fn error(at: Value, msg: String, help: &str) -> Diagnostic {
    Diagnostic::new(DiagKind::BadAutodiffCall, msg)
        .at_value(at)
        .with_help(help.to_string())
}

/// Outlines the marked loops of reverse-differentiated code (`reverse`: the functions
/// reverse-mode hook calls differentiate, with their arguments' shadows) and removes
/// every `__enzyme_set_checkpointing` call. Runs before `__enzyme_ptr_size_hint` calls
/// are removed (it reads them).
pub(crate) fn apply(
    module: Module,
    reverse: &[(Value, Vec<bool>)],
) -> Result<Vec<Remark>, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let mut calls: Vec<Value> = Vec::new();
    let decls: Vec<Value> = module
        .functions()
        .into_iter()
        .filter(|f| f.is_declaration() && f.name().contains(SET))
        .collect();
    for d in &decls {
        for u in d.users() {
            if u.is_instruction() && is_set_call(u) {
                calls.push(u);
            } else {
                diags.push(error(u, format!("`{}` must be called directly, as `void {SET}(int64_t schedule, int64_t budget)`", d.name()), "the clang plugin inserts the call for a loop annotated with [[enzyme::checkpoint(...)]]: annotate the loop instead"));
            }
        }
    }
    if calls.is_empty() {
        return if diags.is_empty() {
            Ok(Vec::new())
        } else {
            Err(diags)
        };
    }
    // The reverse-differentiated functions and their callees (whose activity is only
    // known when differentiating: every pointer is taken to have a shadow).
    let mut dups: HashMap<Value, Vec<bool>> = HashMap::default();
    let mut work: Vec<Value> = Vec::new();
    for (f, dup) in reverse {
        dups.insert(*f, dup.clone());
        work.push(*f);
    }
    while let Some(f) = work.pop() {
        for i in f.instructions() {
            if let Some(g) = i.is_call().then(|| i.called_function()).flatten() {
                if !g.is_declaration() && !dups.contains_key(&g) {
                    dups.insert(g, vec![true; g.params().len()]);
                    work.push(g);
                }
            }
        }
    }
    let mut by_fn: Vec<Value> = Vec::new();
    for c in &calls {
        let f = c.parent_function();
        if !by_fn.contains(&f) {
            by_fn.push(f);
        }
    }
    let mut remarks = Vec::new();
    let mut k = 0;
    while module.function(&format!("__fz_marked_step.{k}")).is_some() {
        k += 1;
    }
    for f in by_fn {
        let Some(dup) = dups.get(&f) else { continue };
        match mark_function(module, f, dup, &mut k) {
            Ok(r) => remarks.extend(r),
            Err(d) => diags.extend(d),
        }
    }
    // What is left: calls outside reverse-differentiated code, and those of loops that
    // were outlined (in the original loop, now gone) or refused (reported).
    for d in decls {
        for u in d.users() {
            if u.is_instruction() && is_set_call(u) {
                u.erase();
            }
        }
        if d.users().is_empty() {
            d.delete_function();
        }
    }
    if diags.is_empty() {
        Ok(remarks)
    } else {
        Err(diags)
    }
}

/// The set calls of `f`.
fn set_calls(f: Value) -> Vec<Value> {
    f.instructions().filter(|i| is_set_call(*i)).collect()
}

/// Outlines every marked loop of `f`.
fn mark_function(
    module: Module,
    f: Value,
    dup: &[bool],
    k: &mut usize,
) -> Result<Vec<Remark>, Vec<Diagnostic>> {
    // -O0: the counter and the pointers live in stack slots; `optnone` would make the
    // pass manager skip the function.
    // The functions the loop calls too: the analysis of what a step writes follows its
    // calls, and reads their pointers out of their own slots no better.
    let mut unoptimized = Vec::new();
    let mut work = vec![f];
    let mut seen = HashSet::default();
    while let Some(g) = work.pop() {
        if g.is_declaration() || !seen.insert(g) || seen.len() > 64 {
            continue;
        }
        if g.has_fn_attr("optnone") {
            unoptimized.push(g);
        }
        for i in g.instructions() {
            if let Some(h) = i.is_call().then(|| i.called_function()).flatten() {
                work.push(h);
            }
        }
    }
    for g in &unoptimized {
        g.remove_fn_attr("optnone");
        run_function_passes(*g, "sroa,mem2reg,instsimplify,simplifycfg").map_err(|e| {
            vec![error(
                *g,
                format!("preparing `{}` for checkpointing failed: {e}", g.name()),
                "",
            )]
        })?;
    }
    // Unoptimized code without `optnone` (`ferrozyme cc --ad-before-opt`, `-Xclang
    // -disable-llvm-passes`): the counter still lives in a stack slot.
    for g in seen.iter().filter(|g| !unoptimized.contains(g)) {
        let _ = run_function_passes(*g, "sroa,mem2reg");
    }
    let result = mark_loops(module, f, dup, k);
    if result.as_ref().is_ok_and(|r| !r.is_empty()) {
        // The marked loops are now unreachable (`br i1 true` to the checkpointed call).
        let _ = run_function_passes(f, "simplifycfg");
    }
    for g in unoptimized {
        g.add_fn_attr("optnone");
    }
    result
}

fn mark_loops(
    module: Module,
    f: Value,
    dup: &[bool],
    k: &mut usize,
) -> Result<Vec<Remark>, Vec<Diagnostic>> {
    let calls = set_calls(f);
    let cfg = Cfg::new(f);
    let loops = Loops::new(&cfg);
    // The innermost loop holding each call.
    let mut marked: Vec<(&Loop, Vec<Value>)> = Vec::new();
    let mut unrolled = Vec::new();
    for c in calls {
        let b = c.parent_block();
        let l = loops
            .loops
            .iter()
            .filter(|l| l.blocks.contains(&b))
            .min_by_key(|l| l.blocks.len());
        match l {
            Some(l) => match marked.iter_mut().find(|(m, _)| m.header == l.header) {
                Some((_, cs)) => cs.push(c),
                None => marked.push((l, vec![c])),
            },
            None => unrolled.push(c),
        }
    }
    let mut diags = Vec::new();
    let mut remarks = Vec::new();
    for c in unrolled {
        // The loop was unrolled away (a constant trip count at -O2): nothing to checkpoint.
        remarks.push(Remark {
            kind: RemarkKind::Checkpoint,
            function: f.name(),
            loc: c.source_loc(),
            message: "the loop annotated for checkpointing is no loop any more (fully unrolled): its iterations are taped".into(),
        });
        c.erase();
    }
    let headers: HashSet<_> = marked.iter().map(|(l, _)| l.header).collect();
    for (l, cs) in marked {
        let at = cs[0];
        let loc = at.source_loc();
        if loops.loops.iter().any(|o| {
            o.header != l.header && headers.contains(&o.header) && o.blocks.contains(&l.header)
        }) {
            diags.push(error(at, "a loop annotated for checkpointing inside another annotated loop: only the outer one can be checkpointed".into(), "remove the inner loop's annotation"));
            continue;
        }
        let (schedule, budget) = match spec(at) {
            Ok((Some(s), b)) => (s, b),
            // ENZYME_CKPT_SCHEDULE_NONE: the loop is taped as written.
            Ok((None, _)) => {
                for c in &cs {
                    c.erase();
                }
                continue;
            }
            Err(d) => {
                diags.push(d);
                continue;
            }
        };
        for c in &cs {
            c.erase();
        }
        match outline(module, f, dup, l, schedule, budget, *k) {
            Ok(what) => {
                *k += 1;
                remarks.push(Remark {
                    kind: RemarkKind::Checkpoint,
                    function: f.name(),
                    loc,
                    message: format!("the loop annotated for checkpointing runs checkpointed ({}, budget {budget}): {what}", schedule.name()),
                });
            }
            Err(why) => {
                let d = Diagnostic::new(
                    DiagKind::BadAutodiffCall,
                    format!("the loop annotated for checkpointing (`{}`) cannot be checkpointed: {why}", schedule.name()),
                )
                .with_help("write the loop as `for (i = start; i < n; i++)` over state in memory that the loop's function can bound (pass its extent with __enzyme_ptr_size_hint(ptr, bytes, 0) before the loop), or remove the annotation to tape the loop plainly".to_string());
                diags.push(d.in_function(f.source_name()).at_loc(loc));
            }
        }
    }
    if diags.is_empty() {
        Ok(remarks)
    } else {
        Err(diags)
    }
}

/// The annotation's schedule (`None`: ENZYME_CKPT_SCHEDULE_NONE) and budget (constants).
fn spec(call: Value) -> Result<(Option<Schedule>, i64), Diagnostic> {
    let ops = call.call_args();
    let tag = ops.first().and_then(|v| v.const_int_value());
    let budget = ops.get(1).and_then(|v| v.const_int_value());
    match (tag, budget) {
        (Some(0), Some(b)) => Ok((None, b)),
        (Some(t), Some(b)) if Schedule::of(t).is_some() => Ok((Schedule::of(t), b)),
        _ => Err(error(call, format!("`{SET}` needs a schedule tag (0 none, 1 periodic, 2 revolve, 3 store_all, 4 binomial) and a budget, both constants"), "annotate the loop with [[enzyme::checkpoint(\"revolve\", 3)]] and let the clang plugin insert the call")),
    }
}

/// Outlines `l` and replaces it by the checkpointed call; the description of its state.
fn outline(
    module: Module,
    f: Value,
    dup: &[bool],
    l: &Loop,
    schedule: Schedule,
    budget: i64,
    k: usize,
) -> Result<String, String> {
    if dup.is_empty() && !f.params().is_empty() {
        return Err("a derivative request differentiates the function in vector mode (enzyme_width), which checkpointed loops do not support".into());
    }
    let counter = super::counted::counted(l).ok_or(
        "its trip count is not known on entry (a counted loop `for (i = start; i < n; i++)` with one exit is needed)",
    )?;
    let exit_slots = super::demote::carried_to_memory(module, f, l, counter.phi)?;
    let auto::Prepared {
        c,
        pre,
        blocks,
        live,
    } = auto::prepare(module, f, l, &exit_slots, quote)?;
    let step = auto::outline(module, f, l, &c, &blocks, &live, k);
    step.set_name(&format!("__fz_marked_step.{k}"));
    let sizes = hints(f);
    let hint = |j: usize| -> Option<Value> {
        let v = live.get(j)?;
        sizes.get(&writes::resolve(*v)).copied()
    };
    let s = auto::shadows_known(f, dup, step, &live)
        .and_then(|()| super::snapshot::snapshot(module, f, pre, &c, step, &live, &hint, false));
    let s = match s {
        Ok(s) => s,
        Err(why) => {
            step.delete_function();
            return Err(why);
        }
    };
    let ctx = module.context();
    let b = Builder::new(ctx);
    let init = Value::const_struct(
        ctx,
        &[
            ctx.i64().const_i64(schedule as i64),
            ctx.i64().const_i64(budget),
        ],
    );
    let spec = module.add_global(&format!("__fz_marked_spec.{k}"), init.ty());
    spec.set_initializer(init);
    spec.set_global_constant();
    spec.set_linkage_internal();
    let term = pre.terminator().ok_or("a preheader without a terminator")?;
    let header = term.successor(0);
    let ck = b.append_block(f, "fz.marked.ckpt");
    term.erase();
    b.position_at_end(pre);
    // Always the checkpointed call; the loop is left unreachable for simplifycfg.
    b.cond_br(ctx.i1().const_int(1), ck, header);
    super::snapshot::checkpoint_call(module, ck, &c, step, &live, &s, Some(spec), &exit_slots);
    Ok(super::snapshot::describe(&live, &s))
}

/// `__enzyme_ptr_size_hint(ptr, bytes, _)` calls of `f`: the pointer (its stack slots
/// resolved) to the bytes, when these are known on entry (a constant or an argument).
fn hints(f: Value) -> HashMap<Value, Value> {
    let mut out = HashMap::default();
    for i in f.instructions() {
        let is_hint = matches!(i.opcode(), Some(Opcode::LLVMCall))
            && i.called_function()
                .is_some_and(|g| g.name().contains(crate::size_hint::SIZE_HINT));
        if !is_hint {
            continue;
        }
        let ops = i.call_args();
        let (Some(p), Some(n)) = (ops.first(), ops.get(1)) else {
            continue;
        };
        if n.const_int_value().is_some() || n.is_argument() {
            let n = if n.ty().int_width() == Some(64) {
                *n
            } else {
                continue;
            };
            out.insert(writes::resolve(*p), n);
        }
    }
    out
}
