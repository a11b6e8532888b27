//! Placeholder primal pointers of `enzyme_dupnoneed` arguments.
//!
//! Enzyme's users pass no primal buffer for an output they do not need: `enzyme_dupnoneed,
//! nullptr, d_out` (Enzyme's own Brusselator harness) or `(double *)0x1` (its sparse
//! Hessian examples). Only the shadow is real. Such a call is well defined when the
//! derivative never touches the primal memory: every store through the argument is left
//! out (no object lives at the address, so no other pointer can read what would have
//! been stored there), and anything else done with the pointer — a load, passing it to a
//! call, storing it — would dereference or leak an address that is not memory, so it is
//! a compile-time error naming the instruction rather than a crash at run time. The one
//! exception is handing the pointer on, as it is, to a function with IR whose derivative
//! replaces the call: that derivative is requested with the placeholder too (sweep19;
//! -O0 keeps a method or wrapper that forwards the output buffer as a call).
//!
//! `request.rs` marks such arguments ([`is_placeholder_address`]); the reverse sweep
//! (`reverse/mod.rs`) and forward mode (`tangent/mod.rs`) leave out the stores
//! [`placeholder_stores`] finds, and still write their adjoints or tangents to the
//! shadow.

use ferrozyme_analysis::hash::HashSet;

use ferrozyme_llvm::{Opcode, Value};

use crate::common::{Diags, Problem};

/// Addresses below this are never mapped (the first page): `(double *)0x1`-style
/// placeholders.
const UNMAPPED_PAGE: i64 = 4096;

/// Is `v` (casts stripped) an address no object can live at: `null`, `undef`/`poison`, or
/// a small integer constant turned into a pointer?
pub(crate) fn is_placeholder_address(v: Value) -> bool {
    let v = crate::request::strip_casts(v);
    if !v.ty().is_pointer() || !v.is_constant() {
        return false;
    }
    if v.is_null() || v.is_undef() {
        return true;
    }
    v.is_constant_expr()
        && v.const_opcode() == Some(Opcode::LLVMIntToPtr)
        && v.operand(0)
            .const_int_value()
            .is_some_and(|a| (0..UNMAPPED_PAGE).contains(&a))
}

/// The stores of `f` through parameters whose primal is a placeholder
/// (`placeholder[k]`), to be left out of the generated code. Every other use of such a
/// pointer (or of a pointer derived from it by GEPs, casts, or phis and selects of such
/// pointers only) is reported into `diags`.
pub(crate) fn placeholder_stores(
    f: Value,
    placeholder: &[bool],
    diags: &mut Diags,
) -> HashSet<Value> {
    let mut out = HashSet::default();
    for (k, a) in f.params().into_iter().enumerate() {
        if !placeholder.get(k).copied().unwrap_or(false) || !a.ty().is_pointer() {
            continue;
        }
        let derived = derived_pointers(a);
        for &d in &derived {
            for u in d.users() {
                if derived.contains(&u) || is_comparison(u) {
                    continue;
                }
                if u.opcode() == Some(Opcode::LLVMStore) && u.operand(1) == d && u.operand(0) != d {
                    out.insert(u);
                    continue;
                }
                // Handed on as it is to a function with IR: its derivative gets the
                // placeholder too (`passed_placeholders`; at -O0 a method or wrapper
                // that forwards the output buffer is not inlined).
                if d == a && passes_on(u, a) {
                    continue;
                }
                diags.report(
                    Some(u),
                    Problem::PlaceholderPrimal {
                        arg: k + 1,
                        name: a.name(),
                    },
                );
            }
        }
    }
    out
}

/// Is `u` a direct call of a function with IR that gets `a` as an argument (not as the
/// callee)?
fn passes_on(u: Value, a: Value) -> bool {
    u.opcode() == Some(Opcode::LLVMCall)
        && u.called_value() != a
        && matches!(
            ferrozyme_analysis::calls::classify(u),
            ferrozyme_analysis::calls::CallKind::Defined(_)
        )
}

/// Per argument of `call` (in `f`, differentiated with `placeholder` per parameter):
/// whether it is a placeholder parameter of `f` handed on as it is. Empty when none is,
/// as requests without placeholders have it.
pub(crate) fn passed_placeholders(f: Value, placeholder: &[bool], call: Value) -> Vec<bool> {
    if !placeholder.contains(&true) {
        return Vec::new();
    }
    let params = f.params();
    let out: Vec<bool> = call
        .call_args()
        .into_iter()
        .map(|a| {
            params
                .iter()
                .position(|p| *p == a)
                .is_some_and(|k| placeholder.get(k).copied().unwrap_or(false))
        })
        .collect();
    if out.contains(&true) {
        out
    } else {
        Vec::new()
    }
}

/// The first placeholder parameter `call` hands on, as `Problem::PlaceholderPrimal` for a
/// call the derivative does not replace by the callee's derivative (it would run the
/// primal callee on the placeholder).
pub(crate) fn unreplaced_call_problem(
    f: Value,
    placeholder: &[bool],
    call: Value,
) -> Option<Problem<'static>> {
    let k = passed_placeholders(f, placeholder, call)
        .iter()
        .position(|b| *b)?;
    let a = call.call_args()[k];
    let j = f.params().iter().position(|p| *p == a)?;
    Some(Problem::PlaceholderPrimal {
        arg: j + 1,
        name: a.name(),
    })
}

/// `a` and the pointers computed from it alone: GEPs with `a` as their base, casts, and
/// phis and selects whose pointer operands are all such pointers (loops that step a
/// pointer: the greatest such set, found by pruning the forward closure).
fn derived_pointers(a: Value) -> HashSet<Value> {
    let mut set = HashSet::from_iter([a]);
    let mut work = vec![a];
    while let Some(d) = work.pop() {
        for u in d.users() {
            let follows = match u.opcode() {
                Some(Opcode::LLVMGetElementPtr) => {
                    u.operand(0) == d && (1..u.num_operands()).all(|j| u.operand(j) != d)
                }
                Some(Opcode::LLVMBitCast)
                | Some(Opcode::LLVMAddrSpaceCast)
                | Some(Opcode::LLVMPHI) => true,
                Some(Opcode::LLVMSelect) => u.operand(0) != d,
                _ => false,
            };
            if follows && set.insert(u) {
                work.push(u);
            }
        }
    }
    // A phi or select with an operand from elsewhere may be a real pointer: drop it, and
    // what was derived through it, until nothing changes.
    loop {
        let mixed: Vec<Value> = set
            .iter()
            .copied()
            .filter(|&v| {
                let ops: Vec<Value> = match v.opcode() {
                    Some(Opcode::LLVMPHI) => v.operands(),
                    Some(Opcode::LLVMSelect) => vec![v.operand(1), v.operand(2)],
                    Some(Opcode::LLVMGetElementPtr)
                    | Some(Opcode::LLVMBitCast)
                    | Some(Opcode::LLVMAddrSpaceCast) => vec![v.operand(0)],
                    _ => return false,
                };
                ops.iter().any(|o| !set.contains(o) && !o.is_undef())
            })
            .collect();
        if mixed.is_empty() {
            return set;
        }
        for v in mixed {
            set.remove(&v);
        }
    }
}

fn is_comparison(u: Value) -> bool {
    u.opcode() == Some(Opcode::LLVMICmp)
}
