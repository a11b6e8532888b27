//! Derivatives of possible targets that cannot be made: a run-time stop, not a refusal.
//!
//! A call through a pointer may reach every function of its type whose address the
//! program takes (`Support::call_candidates`), and each candidate gets a derivative with
//! the call's activity. Most are never the target: a boxed closure owning a `Vec` makes
//! its `FnOnce::call_once` shim (which drops the closure) a candidate of every other
//! boxed closure's call `f(x)`, and its `drop_in_place` a candidate of every other box's
//! drop (the vtable's drop slot, called only where it is not null, `calls::null_guarded`).
//! Differentiated with another closure's environment active, its drop glue met
//! cannot-deduce-type (`drop_in_place<RawVec<f64>>`), and in debug builds a missing
//! `RawVecInner::deallocate`: the whole build failed for a path the program never takes
//! (front46).
//!
//! So a derivative first requested as a candidate of a call with several candidates, or
//! of a null-guarded one ([`speculative_call`]), is *speculative*, and so
//! is every derivative first requested by a speculative one's synthesis ([`Speculation`]:
//! by generated function, since one function's derivatives with the activity of the
//! call it really gets may be made where another activity's cannot). When synthesis of a
//! speculative derivative fails, its generated functions get a body that stops the
//! program with the diagnostic's text and the function's name, and the build goes on;
//! were the path taken, the program stops there, never running a missing derivative.
//! Failures elsewhere are refused as before. A derivative first made speculatively and
//! later asked for by a direct call keeps its mark: that call stops at run time too.

use ferrozyme_analysis::hash::HashSet;
use ferrozyme_llvm::{Builder, Diagnostic, Value};

use crate::services::Support;

/// Are the candidates `cands` of call `i` through a pointer speculative: several (the
/// pointer picks one at run time), or the call runs only where its pointer is not null
/// (a drop slot, null for types without drop glue)? A single candidate of an unguarded
/// call is the target whenever the call runs: its failure stays a refusal.
pub(crate) fn speculative_call(i: Value, cands: &[crate::services::Candidate]) -> bool {
    cands.len() > 1 || ferrozyme_analysis::calls::null_guarded(i)
}

/// The run-time message of a stop in a derivative of `func` that could not be made.
fn message(func: Value, diags: &[Diagnostic]) -> String {
    let why = diags
        .first()
        .map(|d| format!("{}: {}", d.kind.code(), d.message))
        .unwrap_or_else(|| "unknown".to_string());
    format!(
        "ferrozyme: the derivative of `{}` was reached: it is a possible target of a call through a function pointer (one of several functions of its type whose address the program takes, or the target of a call made only where the pointer is not null, such as a `Box<dyn ..>`'s drop), and its derivative could not be made ({why}); in Rust build with `--release`, or keep the boxed value out of the differentiated function\n",
        func.source_name()
    )
}

/// Replaces the bodies of `outputs` (the generated functions of `func`'s failed job) by
/// a stop with the diagnostics' first message.
pub(crate) fn fill(sup: &mut Support, outputs: &[Value], func: Value, diags: &[Diagnostic]) {
    let msg = message(func, diags);
    let ctx = sup.module.context();
    let b = Builder::new(ctx);
    for &g in outputs {
        if !g.blocks().is_empty() {
            g.delete_body();
            g.set_linkage_internal();
        }
        let entry = b.append_block(g, "stop");
        b.position_at_end(entry);
        let yes = ctx.i1().const_int(1);
        sup.stop_if(&b, yes, &msg);
        b.unreachable();
    }
}

/// Which generated functions are speculative.
#[derive(Default)]
pub(crate) struct Speculation {
    /// Speculative generated functions (shells).
    shells: HashSet<Value>,
    /// Primal functions the job being synthesized asks for as candidates of a null-guarded
    /// call through a pointer.
    pending: HashSet<Value>,
    /// Is the job being synthesized speculative itself?
    inherited: bool,
}

impl Speculation {
    /// A job filling `outputs` starts.
    pub fn begin(&mut self, outputs: &[Value]) {
        self.pending.clear();
        self.inherited = self.failure_is_a_stop(outputs);
    }

    /// The current job asks for `func`'s derivative as a candidate of a null-guarded call.
    pub fn candidate(&mut self, func: Value) {
        self.pending.insert(func);
    }

    /// A shell `shell` for a derivative of `primal` was just made.
    pub fn made(&mut self, primal: Value, shell: Value) {
        if self.inherited || self.pending.contains(&primal) {
            self.shells.insert(shell);
        }
    }

    /// Should the failure of the job filling `outputs` become a run-time stop?
    pub fn failure_is_a_stop(&self, outputs: &[Value]) -> bool {
        outputs.iter().any(|g| self.shells.contains(g))
    }
}
