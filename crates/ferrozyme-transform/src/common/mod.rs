//! What reverse and forward mode share: reporting problems, the shadows of constants,
//! how an instruction participates in differentiation, and the activity a callee's
//! arguments get at a call site.
//!
//! Both synthesizers walk the same primal code with the same analyses; what differs is
//! what they emit. Everything that does not depend on the direction lives here, so the
//! two modes classify instructions the same way and say the same thing about the same
//! problem.

pub mod diags;
pub mod dispatch;
pub mod ir_text;
pub mod mirrored_ints;
pub mod ops;
pub mod punned;
pub mod reductions;
pub mod runtime_activity;
pub mod shadows;

pub(crate) use diags::{Diags, Problem};

use ferrozyme_analysis::activity::{Activity, ArgActivity};
use ferrozyme_llvm::{Type, Value};

/// The activity of the callee's parameters at call `call`, by the call's function type: a
/// pointer argument with a shadow is `Dup`, an active argument whose type `active_type`
/// accepts is `Active` (reverse mode: floating types, whose adjoints come back; forward
/// mode: every non-pointer type, whose tangents go in), anything else `Const`.
pub(crate) fn call_activity(
    act: &Activity,
    call: Value,
    active_type: impl Fn(Type) -> bool,
) -> Vec<ArgActivity> {
    call.called_function_type()
        .param_types()
        .into_iter()
        .zip(call.call_args())
        .map(|(pty, a)| {
            if pty.is_pointer() && act.is_shadowed(a) {
                ArgActivity::Dup
            } else if active_type(pty) && act.is_active(a) {
                ArgActivity::Active
            } else {
                ArgActivity::Const
            }
        })
        .collect()
}

pub(crate) use ferrozyme_analysis::activity::base_object;

/// The first source location among the instructions reached breadth first from `start`
/// through `next` (at most 32 instructions): a diagnostic's line when its own instruction
/// has none (`clone.rs`: an `indirectbr` through the definition of its address;
/// `global_args.rs`: a load LICM hoisted through the uses of the loaded pointer).
pub(crate) fn first_located(
    start: Vec<Value>,
    next: impl Fn(Value) -> Vec<Value>,
) -> Option<ferrozyme_llvm::SourceLoc> {
    let mut queue = std::collections::VecDeque::from(start);
    let mut seen = ferrozyme_analysis::hash::HashSet::default();
    while let Some(v) = queue.pop_front() {
        if !v.is_instruction() || !seen.insert(v) || seen.len() > 32 {
            continue;
        }
        if let Some(l) = v.source_loc() {
            return Some(l);
        }
        queue.extend(next(v));
    }
    None
}
