//! How the user's code reached a function whose derivative failed: the chain of calls from
//! the function the user differentiates down to it, for the `note: reached from …` lines
//! of its diagnostics (front39).
//!
//! A derivative of a callee is requested while its caller's derivative is synthesized. The
//! driver says which function it is synthesizing (`enter`/`leave`); each new request made
//! meanwhile records that function as the callee's requester (the first one only: one
//! path is enough to show where the user's code is). A request made outside synthesis
//! (a hook call of the user's) records nothing: its function is the chain's root.
//!
//! Each step is the call in the requester that reaches the callee, located where the
//! requester's own source has it: the outermost `inlinedAt` of the call (Rust inlines the
//! standard library's code into the user's function, so the call to
//! `RawTable::reserve_rehash` sits at `HashMap::insert`'s line in the library, inlined at
//! the user's line), else the call's own line. Requesters without such a call (the call was rewritten before
//! synthesis) are skipped, their own requesters still shown.

use std::collections::{HashMap, HashSet};

use ferrozyme_llvm::{Diagnostic, SourceLoc, Value};

/// The most requesters followed: deeper chains are cut (recursion is cut by `seen`).
const MAX_STEPS: usize = 8;

#[derive(Default)]
pub(crate) struct Requesters {
    /// The primal function whose derivative is being synthesized now.
    current: Option<Value>,
    /// Callee → the function whose synthesis first requested its derivative.
    by: HashMap<Value, Value>,
}

impl Requesters {
    pub fn enter(&mut self, func: Value) {
        self.current = Some(func);
    }

    pub fn leave(&mut self) {
        self.current = None;
    }

    /// A derivative of `callee` was requested (by the function being synthesized, if any).
    pub fn note(&mut self, callee: Value) {
        if let Some(caller) = self.current {
            if caller != callee {
                self.by.entry(callee).or_insert(caller);
            }
        }
    }

    /// The calls from the root requester down to `func`, innermost first.
    fn chain(&self, func: Value) -> Vec<SourceLoc> {
        let mut out = Vec::new();
        let mut seen = HashSet::from([func]);
        let mut f = func;
        for _ in 0..MAX_STEPS {
            let Some(&caller) = self.by.get(&f) else {
                break;
            };
            if !seen.insert(caller) {
                break;
            }
            out.extend(call_site(caller, f));
            f = caller;
        }
        out
    }

    /// `diags` (about the derivative of `func`) with the chain of calls that reached it.
    pub fn attach(&self, func: Value, diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
        let chain = self.chain(func);
        diags
            .into_iter()
            .map(|d| d.reached_through(chain.iter().cloned()))
            .collect()
    }
}

/// Where `caller` calls `callee`: the call's line, then the lines it was inlined at (the
/// last one in `caller`'s own source).
fn call_site(caller: Value, callee: Value) -> Vec<SourceLoc> {
    let Some(call) = caller
        .instructions()
        .find(|i| i.called_function() == Some(callee))
    else {
        return Vec::new();
    };
    let mut steps: Vec<SourceLoc> = call.source_loc().into_iter().collect();
    steps.extend(call.inlined_chain());
    if let Some(last) = steps.last_mut() {
        last.function.get_or_insert_with(|| caller.source_name());
    }
    steps
}
