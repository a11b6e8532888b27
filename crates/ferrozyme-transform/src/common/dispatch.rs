//! Calls through function pointers: the derivative is found from the *primal* pointer.
//!
//! A call `call %fp(args)` in differentiated code may reach any function of its type
//! whose address the module takes (`Support::candidates`). Each candidate gets the
//! derivative the call needs (same request pattern, so all have the same signature); the
//! generated code compares `%fp` with each candidate and calls the matching derivative:
//!
//! ```text
//!   %d = select (icmp eq %fp, @g), @fz_aug_g, (select (icmp eq %fp, @h), @fz_aug_h, ...)
//!   call %d(...)
//! ```
//!
//! Before the first such call in the forward sweep a run-time check stops the program
//! with a message when `%fp` is none of the candidates (a function from another library,
//! say), rather than calling the wrong derivative. No shadow function pointers are
//! needed: objects passed as `enzyme_const` or `enzyme_dup`, with any vtable, callbacks in
//! constant tables — all work, and the user never writes a shadow vtable.

use ferrozyme_llvm::{Builder, IntPredicate, Value};

use crate::services::{Candidate, Support};

/// The derivative to call at `b`: the one of the candidate `fp` equals. `derivs[k]` is
/// the derivative of `cands[k]`.
pub(crate) fn select_derivative(
    b: &Builder,
    fp: Value,
    cands: &[Candidate],
    derivs: &[Value],
) -> Value {
    let (last, rest) = derivs
        .split_last()
        .expect("invariant: calls through pointers have at least one candidate");
    let mut pick = *last;
    for (c, d) in cands.iter().zip(rest).rev() {
        let eq = b.icmp(IntPredicate::LLVMIntEQ, fp, c.pointer);
        pick = b.select(eq, *d, pick);
    }
    pick
}

/// Stops the program when `fp` is none of `cands` (emitted before the call's primal
/// effects). `place` names the call for the message.
pub(crate) fn check_target(
    b: &Builder,
    sup: &mut Support,
    fp: Value,
    cands: &[Candidate],
    place: &str,
) {
    let ctx = sup.module.context();
    let mut found = ctx.i1().const_int(0);
    for c in cands {
        let eq = b.icmp(IntPredicate::LLVMIntEQ, fp, c.pointer);
        found = b.or(found, eq);
    }
    let missing = b.xor(found, ctx.i1().const_int(1));
    let names: Vec<String> = cands.iter().map(|c| c.pointer.name()).collect();
    let msg = format!(
        "ferrozyme: {place}: a call through a function pointer reached a function Ferrozyme has no derivative for (the possible targets of this call are the functions of its type whose address the program takes: {}); compile the function's source with the program, or register a derivative for it\n",
        names.join(", ")
    );
    sup.stop_if(b, missing, &msg);
}

/// `file:line: in `f`` (or `in `f``) for run-time messages about call `i` in function `f`.
pub(crate) fn call_place(i: Value, fname: &str) -> String {
    match i.source_loc() {
        Some(l) => format!("{l}: in `{fname}`"),
        None => format!("in `{fname}`"),
    }
}

/// Stops the program where a call through a pointer that no function can be the target
/// of is reached (emitted before the call's primal). Only for calls that run where their
/// pointer is not null (`calls::null_guarded`): the drop slot of a `Box<dyn Trait>`'s
/// vtable is null for types without drop glue, so the call never runs there; were it
/// reached, the program stops instead of skipping a derivative.
pub(crate) fn stop_unresolved(b: &Builder, sup: &mut Support, place: &str) {
    let msg = format!(
        "ferrozyme: {place}: a call through a function pointer was reached, but no function of its type has its address taken in the differentiated program, so Ferrozyme has no derivative for its target; compile the function's source with the program, or register a derivative for it\n"
    );
    let yes = sup.module.context().i1().const_int(1);
    sup.stop_if(b, yes, &msg);
}
