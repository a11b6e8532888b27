//! Pointers returned by calls through function pointers that nothing follows.
//!
//! ```c
//! struct { void *(*allocfn)(size_t); } tup = {malloc};
//! void *metamalloc(size_t n) { return tup.allocfn(n); }
//! double f(double x) { double *m = metamalloc(8); *m = x; ... }
//! ```
//!
//! The call `tup.allocfn(n)` takes no differentiable argument, so it is not an active
//! call and is copied as it is; yet the memory it returns receives active values, so its
//! result needs a shadow. Nothing creates one (the callee is unknown until run time), and
//! the shadow used was null: the derivative wrote through address 0 (Enzyme's
//! `metamalloc.c`: a segmentation fault at every optimization level). Such a call is
//! rejected here, with the ways to make the memory's shadow known.

use ferrozyme_analysis::activity::Activity;
use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_llvm::{DiagKind, Opcode, Value};

use super::body::Finding;

/// Reports `i` when it is a call through a pointer whose pointer result needs a shadow
/// although no argument of the call is differentiable (so the call is copied, and its
/// result gets no shadow).
pub(crate) fn unshadowed_indirect_result(i: Value, act: &Activity, out: &mut Vec<Finding>) {
    if i.opcode() != Some(Opcode::LLVMCall)
        || !matches!(classify(i), CallKind::Indirect)
        || !i.ty().is_pointer_like()
        || !act.is_shadowed(i)
        || act.is_active(i)
    {
        return;
    }
    let differentiable_arg = i
        .call_args()
        .into_iter()
        .any(|a| act.is_active(a) || (a.ty().is_pointer_like() && act.is_shadowed(a)));
    if differentiable_arg {
        return;
    }
    out.push(Finding {
        kind: DiagKind::MissingDerivative,
        at: i,
        msg: "this call through a function pointer returns memory that later holds differentiable values, but the call takes no differentiable argument, so nothing creates a shadow for that memory (the derivative would write through a null shadow)".to_string(),
        help: "call the allocator directly (malloc, calloc, aligned_alloc, new ...), or register the function the pointer holds with __enzyme_allocation_like and call it directly",
    });
}
