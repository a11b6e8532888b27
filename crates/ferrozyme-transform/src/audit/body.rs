//! Checks on the body of a function about to be differentiated, shared by reverse and
//! forward mode: places where activity analysis is *right* that a value carries no
//! derivative, yet the user's derivative would silently be wrong because of it.
//!
//! * **Undifferentiated float types meeting active data**: a `__float128` or `__bf16`
//!   (and `_Float16`/`long double` when they are switched off) computed from an active
//!   value, or loaded from memory with a shadow. Such values never carry
//!   derivatives, so the chain would break there.
//! * **Active values stored into memory without a shadow and read back**: writing an
//!   active value through an `enzyme_const` pointer (or any pointer without a shadow)
//!   drops its derivative; if the function then reads that memory again, the read value
//!   is used as if constant. Enzyme calls this mismatched activity. Storing into such
//!   memory without reading it back (a constant output buffer) stays allowed.
//! * **Constant pointers stored into memory with a shadow**: an `enzyme_const` pointer
//!   argument written into a stack slot or struct that has a shadow (at -O0, a lambda
//!   capturing a parameter by reference keeps it in such a slot): pointers read back from
//!   there count as having shadows, whose value is null, so derivatives through them were
//!   written to address 0 + offset (a crash) or lost.
//! * **Floats crossing a call inside integers**: a struct of floats passed by value to
//!   (or returned from) a function that is not inlined travels in integer registers on
//!   x86-64 (`struct { int k; float v, w; int j; }` is two `i64`): the callee's
//!   derivative treats integers as constants, so the floats' derivatives were dropped
//!   (difftest C seed 73 at -O0).
//! * **Pointers rebuilt from integers**: `(double *)((uintptr_t)p + 8)` compiles to
//!   `ptrtoint`/`inttoptr`; the rebuilt pointer has no shadow, so loads through it read
//!   constants and stores through it are lost.
//!
//! * **Floats moved inside integers wider than 64 bits**: a pair of doubles loaded as
//!   one `i128` and split again (`wide_ints.rs`).
//! * **Doubles split into narrower integer lanes**: an SSE2 shuffle of 32-bit lanes that
//!   does not move whole doubles, read back as floats (`split_doubles.rs`).
//! * **Floats copied in integer pieces narrower than themselves**: a byte copy loop over
//!   doubles (`narrow_copies.rs`).
//! * **Active values printed into text and parsed back** (`snprintf` then `strtod` on one
//!   buffer: `text_round_trip.rs`).
//!
//! Each finding is reported at the instruction, with the fix the user can make.

use ferrozyme_analysis::hash::HashSet;

use ferrozyme_analysis::activity::{Activity, ArgActivity};
use ferrozyme_llvm::{Block, DiagKind, Value};

use super::const_pointers::{
    const_pointer_params, constant_pointer_stored, shadowed_global_in_copied_constant,
};
use super::hidden_floats::{
    floats_in_integers_across_call, pointer_passed_as_integer, rebuilt_pointer,
    reinterpreted_float, undifferentiated_float,
};
use super::lost_stores::lost_stores;
use crate::common::ir_text::quote;

/// One problem found in the body.
pub(crate) struct Finding {
    pub kind: DiagKind,
    pub at: Value,
    pub msg: String,
    pub help: &'static str,
}

impl Finding {
    /// As a problem for the synthesizers' diagnostics.
    pub(crate) fn problem(self) -> crate::common::Problem<'static> {
        crate::common::Problem::Audit {
            kind: self.kind,
            msg: self.msg,
            help: self.help,
        }
    }
}

/// Runs every check over the instructions of `blocks` (the reachable blocks of the
/// function being differentiated).
/// `args` is the activity of `f`'s parameters.
pub(crate) fn check_body(
    f: Value,
    blocks: &[Block],
    act: &Activity,
    types: &ferrozyme_analysis::types::TypeAnalysis,
    args: &[ArgActivity],
    rt: &crate::common::runtime_activity::RuntimeActivity,
) -> Vec<Finding> {
    let insts: Vec<Value> = blocks.iter().flat_map(|b| b.instructions()).collect();
    let mut out = Vec::new();
    for &i in &insts {
        undifferentiated_float(i, act, &mut out);
        rebuilt_pointer(i, act, types, &mut out);
        pointer_passed_as_integer(i, act, &mut out);
        reinterpreted_float(i, act, &mut out);
        super::indirect::unshadowed_indirect_result(i, act, &mut out);
        shadowed_global_in_copied_constant(i, act, &mut out);
        super::split_doubles::split_doubles(i, act, &mut out);
        super::narrow_copies::narrow_float_copy(i, act, types, &mut out);
    }
    let active_params: HashSet<Value> = f
        .params()
        .into_iter()
        .zip(args)
        .filter(|(_, a)| **a == ArgActivity::Active)
        .map(|(p, _)| p)
        .collect();
    lost_stores(&insts, act, &active_params, &mut out);
    super::call_writes::lost_through_calls(&insts, act, &active_params, &mut out);
    super::text_round_trip::text_round_trip(&insts, act, &active_params, &mut out);
    super::wide_ints::floats_in_wide_integers(&insts, act, &mut out);
    super::ctor_globals::constructed_globals(&insts, act, &mut out);
    let const_params = const_pointer_params(f, args);
    for &i in &insts {
        constant_pointer_stored(i, act, types, &const_params, rt.active(), &mut out);
        floats_in_integers_across_call(i, act, &mut out);
    }
    for (at, why) in &rt.unguardable {
        out.push(Finding {
            kind: DiagKind::UnsupportedInstruction,
            at: *at,
            msg: format!("mismatched activity: {why}"),
            help: if why.contains("written through") {
                "pass the constant argument with enzyme_dup and a zero-initialised shadow buffer (the derivative then has memory to live in)"
            } else {
                "pass the constant argument with enzyme_dup and a zero-initialised shadow buffer, or let the callee be inlined (static inline, or compile with -O2)"
            },
        });
    }
    out
}

/// Names the memory a pointer points into, for messages.
pub(super) fn describe_object(v: Value) -> String {
    if v.is_argument() {
        let f = v.parent_function();
        let k = f.params().iter().position(|p| *p == v).unwrap_or(0);
        return format!(
            "argument {} of the function, passed without a shadow (enzyme_const)",
            k + 1
        );
    }
    if v.is_global_variable() {
        return format!("global `{}`", v.name());
    }
    format!("memory from `{}`, which has no shadow", quote(v))
}
