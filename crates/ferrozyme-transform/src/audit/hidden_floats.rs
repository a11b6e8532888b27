//! Floating-point values the pass would not see as such (the audit's first, fourth and
//! fifth checks, see `body.rs`): float types it does not differentiate meeting active data,
//! floats crossing a call inside integers or reinterpreted as integers, and pointers
//! rebuilt from integers.

use ferrozyme_analysis::hash::HashSet;

use ferrozyme_analysis::activity::Activity;
use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_llvm::{DiagKind, Opcode, Value};

use crate::common::base_object;

use super::body::Finding;

/// A call of a function with a body that passes an active integer (one activity found to
/// carry a float's bits) or gets back integers that hold floats.
pub(super) fn floats_in_integers_across_call(i: Value, act: &Activity, out: &mut Vec<Finding>) {
    if !matches!(i.opcode(), Some(Opcode::LLVMCall | Opcode::LLVMInvoke)) {
        return;
    }
    let CallKind::Defined(g) = classify(i) else {
        return;
    };
    let not_fp = |t: ferrozyme_llvm::Type| !t.contains_fp() && !t.contains_pointer();
    let arg = i
        .call_args()
        .into_iter()
        .position(|a| act.is_active(a) && not_fp(a.ty()) && !a.ty().is_void());
    let result = (i.ty().is_integer()
        || (i.ty().kind() == ferrozyme_llvm::TypeKind::Struct && not_fp(i.ty())))
        && !i.users().is_empty()
        && returns_float_bits(g);
    if arg.is_none() && !result {
        return;
    }
    let what = match arg {
        Some(k) => format!("argument {} of `{}`", k + 1, g.name()),
        None => format!("the result of `{}`", g.name()),
    };
    // A float's bits handed over as an integer (`unsigned long long` from a `double`,
    // through a union or memcpy), rather than a struct coerced to integer registers.
    let bits = arg.is_some_and(|k| {
        let a = i.call_args()[k];
        a.opcode() == Some(Opcode::LLVMBitCast) && a.operand(0).ty().is_fp()
    });
    let (how, help) = if bits {
        (
            "a floating-point value's bits passed as an integer",
            "pass the value with its floating-point type (convert the bits back before the call), or let the helper be inlined (static inline)",
        )
    } else {
        (
            "a struct passed or returned by value in integer registers",
            "pass the struct by pointer (const struct S *), let the helper be inlined (static inline), or compile with -O1 or higher",
        )
    };
    out.push(Finding {
        kind: DiagKind::UnsupportedInstruction,
        at: i,
        msg: format!(
            "floating-point data crosses this call inside integers ({what}: {how}); the callee's derivative would treat it as a constant"
        ),
        help,
    });
}

/// Does `g` return integers that hold floating-point bits: built from a `bitcast` of a
/// float, or loaded from stack memory of a type with floats (clang's -O0 code returning a
/// struct coerced to integers)?
fn returns_float_bits(g: Value) -> bool {
    let mut work: Vec<Value> = g
        .blocks()
        .into_iter()
        .filter_map(|b| b.terminator())
        .filter(|t| t.opcode() == Some(Opcode::LLVMRet) && t.num_operands() == 1)
        .map(|t| t.operand(0))
        .collect();
    let mut seen = HashSet::default();
    while let Some(v) = work.pop() {
        if !seen.insert(v) || seen.len() > 64 {
            continue;
        }
        use Opcode::*;
        match v.opcode() {
            Some(LLVMBitCast) if v.operand(0).ty().contains_fp() => return true,
            Some(LLVMLoad) => {
                let b = base_object(v.operand(0));
                if b.opcode() == Some(LLVMAlloca) && b.allocated_type().contains_fp() {
                    return true;
                }
            }
            Some(
                LLVMInsertValue | LLVMOr | LLVMShl | LLVMZExt | LLVMTrunc | LLVMAnd | LLVMLShr
                | LLVMSelect | LLVMFreeze,
            ) => work.extend(v.operands().into_iter().filter(|o| o.is_instruction())),
            Some(LLVMPHI) => work.extend(v.incoming().into_iter().map(|(x, _)| x)),
            _ => {}
        }
    }
    false
}

/// Does `i` touch derivative data: is it active, or does it take an active value or a
/// pointer with a shadow?
fn touches(i: Value, act: &Activity) -> bool {
    act.is_active(i)
        || i.operands()
            .iter()
            .any(|&o| act.is_active(o) || (o.ty().is_pointer_like() && act.is_shadowed(o)))
}

/// Is `i` a load from memory with a shadow whose value reaches active data? Activity
/// analysis finds no derivative in memory typed `__bf16` or `__float128` (a GEP into
/// such an `enzyme_dup` array counts as inactive), so `(float)b[i] * w` read through a
/// shadowed pointer would silently give `b` a zero derivative. Followed forward through
/// at most [`REACH_LIMIT`] users: conversions and arithmetic on the undifferentiated
/// type, up to the first active value or a store into memory with a shadow. A value
/// that only meets constants (a `__float128` tolerance read from an `enzyme_dup`
/// struct) stays allowed.
fn loaded_from_shadow_into_active(i: Value, act: &Activity) -> bool {
    if i.opcode() != Some(Opcode::LLVMLoad) || !act.is_shadowed(base_object(i.operand(0))) {
        return false;
    }
    let mut work = vec![i];
    let mut seen = HashSet::default();
    while let Some(v) = work.pop() {
        if !seen.insert(v) || seen.len() > REACH_LIMIT {
            continue;
        }
        for u in v.users() {
            let into_shadow = u.opcode() == Some(Opcode::LLVMStore)
                && u.operand(0) == v
                && act.is_shadowed(base_object(u.operand(1)));
            if act.is_active(u) || into_shadow {
                return true;
            }
            if u.ty().contains_fp() || u.ty().undifferentiated_fp().is_some() {
                work.push(u);
            }
        }
    }
    false
}

/// How many values [`loaded_from_shadow_into_active`] follows from one load.
const REACH_LIMIT: usize = 64;

pub(super) fn undifferentiated_float(i: Value, act: &Activity, out: &mut Vec<Finding>) {
    let Some(t) = i.ty().undifferentiated_fp() else {
        return;
    };
    let how = if touches(i, act) {
        "depends on differentiable data"
    } else if loaded_from_shadow_into_active(i, act) {
        "is read from memory with a shadow (its derivative was asked for) and flows into the result"
    } else {
        return;
    };
    out.push(Finding {
        kind: DiagKind::UnsupportedInstruction,
        at: i,
        msg: format!(
            "`{t}` values ({}) are not differentiated, and this one {how}",
            super::boundary::describe(t)
        ),
        help: "compute in double (or float) in the differentiated function",
    });
}

/// The scalar type of a type or of its vector elements.
fn scalar_of(t: ferrozyme_llvm::Type) -> ferrozyme_llvm::Type {
    if t.kind() == ferrozyme_llvm::TypeKind::Vector {
        t.element_type()
    } else {
        t
    }
}

/// A `bitcast` from one floating-point type to another with a different element type
/// (`double` to `<2 x float>` or `<4 x half>`): the x86-64 ABI passes an 8-byte vector
/// of floats or halves as one `double`, and type punning does the same. The bits are
/// moved, but a derivative with respect to "the double" means nothing, and adjoints added
/// as doubles would mix the lanes' bits.
pub(super) fn reinterpreted_float(i: Value, act: &Activity, out: &mut Vec<Finding>) {
    if i.opcode() != Some(Opcode::LLVMBitCast) {
        return;
    }
    let (from, to) = (i.operand(0).ty(), i.ty());
    if !from.is_fp() || !to.is_fp() || scalar_of(from) == scalar_of(to) {
        return;
    }
    if !act.is_active(i) && !act.is_active(i.operand(0)) {
        return;
    }
    out.push(Finding {
        kind: DiagKind::UnsupportedInstruction,
        at: i,
        msg: format!(
            "the bits of a `{from}` value are reinterpreted as `{to}`: a small vector of floats passed as a double (the x86-64 calling convention does this for 8-byte vectors), or type punning; derivatives do not survive the reinterpretation"
        ),
        help: "pass such vectors through memory (a pointer with enzyme_dup) or as separate float arguments, and copy floats as floats",
    });
}

/// `inttoptr` of an integer computed from `ptrtoint` of a pointer with a shadow, or of an
/// integer type analysis cannot prove a plain number (read from memory: SROA merges
/// pointers into integers, as in Rust's enums) that is then used to reach memory.
pub(super) fn rebuilt_pointer(
    i: Value,
    act: &Activity,
    types: &ferrozyme_analysis::types::TypeAnalysis,
    out: &mut Vec<Finding>,
) {
    if i.opcode() != Some(Opcode::LLVMIntToPtr) || i.users().is_empty() {
        return;
    }
    match integer_origin(i, act) {
        Origin::ShadowedPointer => out.push(Finding {
            kind: DiagKind::UnsupportedInstruction,
            at: i,
            msg: "a pointer rebuilt from an integer (`inttoptr`) that came from a pointer into differentiable memory (`ptrtoint`): the rebuilt pointer has no shadow, so derivatives through it would be lost".to_string(),
            help: "do the address arithmetic on pointers ((char *)p + k, or p + k) instead of through uintptr_t",
        }),
        Origin::Unknown if ferrozyme_analysis::activity::is_smuggled_pointer(i, types) => {
            out.push(Finding {
                kind: DiagKind::UnsupportedInstruction,
                at: i,
                msg: "a pointer rebuilt from an integer (`inttoptr`) may point into differentiable memory; shadows are not followed through integers".to_string(),
                help: "keep the pointer a pointer (no casts to and from integers) in the differentiated code",
            })
        }
        _ => {}
    }
}

/// A call of a function the pass differentiates that passes `ptrtoint` of a pointer with
/// a shadow as an integer argument the callee turns back into a pointer. Clang does this
/// with a by-value struct holding one pointer (an iterator) once the six integer
/// argument registers are taken: unoptimized `std::ranges::transform(t, y, out, op)`
/// passes `out` as `i64` (tests/cxx/204 at -O0). The callee's `inttoptr` of its
/// parameter has no shadow, and the reverse sweep crashed adding adjoints through the null
/// shadow iterator. The callee alone cannot see it (its clone has no call sites; integer
/// parameters are plain numbers there), so the caller is where it is refused, unless the
/// callee only compares through the rebuilt pointer (`compared_through`).
pub(super) fn pointer_passed_as_integer(i: Value, act: &Activity, out: &mut Vec<Finding>) {
    if !matches!(i.opcode(), Some(Opcode::LLVMCall | Opcode::LLVMInvoke)) {
        return;
    }
    let ferrozyme_analysis::calls::CallKind::Defined(f) = ferrozyme_analysis::calls::classify(i)
    else {
        return;
    };
    let params = f.params();
    let passed = i.call_args().into_iter().enumerate().any(|(k, a)| {
        a.opcode() == Some(Opcode::LLVMPtrToInt)
            && act.is_shadowed(a.operand(0))
            && params.get(k).is_some_and(|p| {
                p.users()
                    .iter()
                    .any(|u| u.opcode() == Some(Opcode::LLVMIntToPtr))
                    && !compared_through(*p)
            })
    });
    if passed {
        out.push(Finding {
            kind: DiagKind::UnsupportedInstruction,
            at: i,
            msg: format!(
                "a pointer passed as an integer argument to `{}`, which rebuilds it with `inttoptr`: clang passes a by-value struct holding one pointer, such as an iterator, as `i64` once the argument registers are taken (`std::ranges::transform` over two ranges at -O0); the rebuilt pointer has no shadow, so derivatives through it would be lost",
                f.name()
            ),
            help: "compile with -O1 or higher (the call is inlined), or pass the iterator's pointer or the container by reference",
        });
    }
}

/// Does no derivative go through the pointer the integer parameter `param` holds? The
/// integer is only rebuilt with `inttoptr` or passed on to parameters of defined functions
/// (checked alike), and what the rebuilt pointers reach is only read: pointers read
/// through them are followed the same way, floats read are only compared
/// (`checkpoint::inert::only_compared`), integers only compared with `icmp`. The shape is
/// `std::stable_sort` with a comparator capturing by reference (tests/cxx/366 at -O1..-O3):
/// `__merge_adaptive` gets the comparator, a struct holding `&x`, as `i64` and compares
/// `|x[a]| < |x[b]|` through it. The rebuilt pointer has no shadow, but no adjoint would go
/// through it, nor is anything stored through it. Unoptimized code (the comparator copied
/// through stack objects and returned by value from helpers) stays refused.
fn compared_through(param: Value) -> bool {
    use crate::checkpoint::inert::{derived_uses, only_compared};
    let mut ints = vec![param];
    let mut pointers = Vec::new();
    let mut seen = HashSet::default();
    while let Some(v) = ints.pop() {
        if !seen.insert(v) {
            continue;
        }
        for u in v.users() {
            match u.opcode() {
                Some(Opcode::LLVMIntToPtr) => pointers.push(u),
                Some(Opcode::LLVMCall | Opcode::LLVMInvoke) => {
                    let CallKind::Defined(g) = classify(u) else {
                        return false;
                    };
                    let params = g.params();
                    for (k, a) in u.call_args().into_iter().enumerate() {
                        match params.get(k) {
                            Some(p) if a == v => ints.push(*p),
                            None if a == v => return false,
                            _ => {}
                        }
                    }
                }
                _ => return false,
            }
        }
    }
    while let Some(p) = pointers.pop() {
        if !seen.insert(p) {
            continue;
        }
        if seen.len() > 4096 {
            return false;
        }
        let Some(uses) = derived_uses(p) else {
            return false;
        };
        for (u, _) in uses {
            let t = u.ty();
            let read_for_comparisons = match u.opcode() {
                Some(Opcode::LLVMICmp) => true,
                Some(Opcode::LLVMLoad) if t.is_pointer() => {
                    pointers.push(u);
                    true
                }
                Some(Opcode::LLVMLoad) if t.is_fp() => only_compared(u),
                Some(Opcode::LLVMLoad) if t.is_integer() => u
                    .users()
                    .iter()
                    .all(|c| c.opcode() == Some(Opcode::LLVMICmp)),
                _ => false,
            };
            if !read_for_comparisons {
                return false;
            }
        }
    }
    true
}

/// Where the integer an `inttoptr` rebuilds comes from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Origin {
    /// `ptrtoint` of a pointer with a shadow (somewhere among the integer's operands).
    ShadowedPointer,
    /// Some operand is read from memory or returned by a call: it could be anything.
    Unknown,
    /// Only `ptrtoint` of pointers without a shadow, constants and integer arguments.
    Clean,
}

/// The origin of the integer `inttoptr` `i` rebuilds, through integer arithmetic,
/// selects and phis.
fn integer_origin(i: Value, act: &Activity) -> Origin {
    let mut work = vec![(i.operand(0), 0u32)];
    let mut seen = ferrozyme_analysis::hash::HashSet::default();
    let mut origin = Origin::Clean;
    while let Some((v, depth)) = work.pop() {
        if !seen.insert(v) {
            continue;
        }
        if depth > 16 {
            origin = Origin::Unknown;
            continue;
        }
        let op = v.opcode().or_else(|| v.const_opcode());
        use Opcode::*;
        match op {
            Some(LLVMPtrToInt) if act.is_shadowed(v.operand(0)) => return Origin::ShadowedPointer,
            Some(LLVMPtrToInt) => {}
            Some(
                LLVMAdd | LLVMSub | LLVMAnd | LLVMOr | LLVMXor | LLVMMul | LLVMShl | LLVMLShr
                | LLVMAShr | LLVMUDiv | LLVMSDiv | LLVMURem | LLVMSRem | LLVMZExt | LLVMSExt
                | LLVMTrunc | LLVMFreeze,
            ) => {
                for o in v.operands() {
                    work.push((o, depth + 1));
                }
            }
            Some(LLVMSelect) => {
                work.push((v.operand(1), depth + 1));
                work.push((v.operand(2), depth + 1));
            }
            Some(LLVMPHI) => {
                for (x, _) in v.incoming() {
                    work.push((x, depth + 1));
                }
            }
            _ if v.is_constant() || v.is_argument() => {}
            _ => origin = Origin::Unknown,
        }
    }
    origin
}
