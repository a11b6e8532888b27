//! How each LLVM instruction opcode participates in differentiation.
//!
//! [`opcode_kind`] is one explicit `match` with an arm per opcode of LLVM 22
//! (the list is [`all_opcodes`]); there is no silent default.  A name that is
//! not an opcode falls through to `Unsupported { why: "unknown opcode" }`,
//! and a test asserts that no name in [`all_opcodes`] reaches that fallback,
//! so a newly listed opcode cannot go unclassified.
//!
//! The classification:
//!
//! * [`OpKind::Elementwise`] — float arithmetic with a row in the rules table
//!   (`fadd fsub fmul fdiv frem fneg`), applied lane-wise to vectors.
//! * [`OpKind::LinearCast`] — `fpext`/`fptrunc`: derivative 1, but the
//!   adjoint must be converted back to the operand's type.
//! * [`OpKind::StructuralZero`] — the operation has float operands or a
//!   float result, but no derivative flows through it (`fcmp`, `fptosi`,
//!   `sitofp`, ...).
//! * [`OpKind::Inactive`] — integer and pointer arithmetic; never active.
//! * [`OpKind::Structural`] — data movement and control flow that the
//!   transform handles itself (loads, stores, phis, calls, ...).
//! * [`OpKind::Unsupported`] — cannot be differentiated yet; `why` is written
//!   for the end user and says what to do instead.

use crate::table::{find_rule, Family, Rule};

/// How an instruction opcode is differentiated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OpKind {
    /// Arithmetic with partials from the rules table.
    Elementwise(&'static Rule),
    /// `fpext`/`fptrunc`: adjoint converted back to the operand type.
    LinearCast,
    /// Result is not differentiable (e.g. `fptosi`, `fcmp`): no derivative flows.
    StructuralZero { why: &'static str },
    /// Integer / pointer arithmetic: never carries a derivative.
    Inactive { why: &'static str },
    /// Data movement / control flow handled by the transform itself.
    Structural { why: &'static str },
    /// Cannot be differentiated (yet); the message says why and what to do.
    Unsupported { why: &'static str },
}

/// The `why` of the fallback for names that are not LLVM opcodes.
pub const UNKNOWN_OPCODE: &str = "unknown opcode";

const OPCODES: &[&str] = &[
    // terminators
    "ret",
    "br",
    "switch",
    "indirectbr",
    "invoke",
    "resume",
    "unreachable",
    "cleanupret",
    "catchret",
    "catchswitch",
    "callbr",
    // unary
    "fneg",
    // binary
    "add",
    "fadd",
    "sub",
    "fsub",
    "mul",
    "fmul",
    "udiv",
    "sdiv",
    "fdiv",
    "urem",
    "srem",
    "frem",
    // bitwise
    "shl",
    "lshr",
    "ashr",
    "and",
    "or",
    "xor",
    // vector / aggregate
    "extractelement",
    "insertelement",
    "shufflevector",
    "extractvalue",
    "insertvalue",
    // memory
    "alloca",
    "load",
    "store",
    "fence",
    "cmpxchg",
    "atomicrmw",
    "getelementptr",
    // casts
    "trunc",
    "zext",
    "sext",
    "fptrunc",
    "fpext",
    "fptoui",
    "fptosi",
    "uitofp",
    "sitofp",
    "ptrtoint",
    "ptrtoaddr",
    "inttoptr",
    "bitcast",
    "addrspacecast",
    // other
    "icmp",
    "fcmp",
    "phi",
    "select",
    "call",
    "va_arg",
    "landingpad",
    "catchpad",
    "cleanuppad",
    "freeze",
];

/// Every LLVM 22 instruction opcode name, as spelled in textual IR (the 66
/// of `llvm/IR/Instruction.def`, including `ptrtoaddr`, new in LLVM 22;
/// the pass-internal `UserOp1`/`UserOp2` have no textual form).
pub fn all_opcodes() -> &'static [&'static str] {
    OPCODES
}

fn elementwise(name: &str) -> OpKind {
    match find_rule(name, Family::Opcode) {
        Some(rule) => OpKind::Elementwise(rule),
        None => unreachable!("opcode `{name}` has no row in the rules table"),
    }
}

const INT_ARITH: &str = "integer arithmetic never carries a derivative";
const INT_BITS: &str = "integer bit operation never carries a derivative";
const INT_CAST: &str = "integer cast never carries a derivative";
const EXCEPTIONS: &str = "C++ exception handling on the differentiated path is not supported yet; \
     mark the function nounwind / compile with -fno-exceptions, or keep the throwing code out of the \
     differentiated region";
const ATOMICS: &str =
    "atomic compare-and-exchange and fences are not supported (atomic float additions are: \
     `#pragma omp atomic` x += v, reduction(+:x)); differentiate a non-atomic version \
     of the code (e.g. the serial kernel) instead";

/// Classify an instruction opcode (textual IR spelling, e.g. `"fadd"`).
pub fn opcode_kind(opcode: &str) -> OpKind {
    use OpKind::*;
    match opcode {
        // Float arithmetic: rules-table rows.
        "fadd" | "fsub" | "fmul" | "fdiv" | "frem" | "fneg" => elementwise(opcode),

        // Float <-> float casts.
        "fpext" | "fptrunc" => LinearCast,

        // Float operands, but no derivative flows.
        "fptoui" | "fptosi" => StructuralZero {
            why: "float-to-integer conversion: integer result is piecewise constant",
        },
        "uitofp" | "sitofp" => StructuralZero {
            why: "integer-to-float conversion: the integer input carries no derivative",
        },
        "fcmp" => StructuralZero {
            why: "float comparison: boolean result is piecewise constant",
        },

        // Integer / pointer arithmetic.
        "add" | "sub" | "mul" | "udiv" | "sdiv" | "urem" | "srem" => Inactive { why: INT_ARITH },
        "shl" | "lshr" | "ashr" | "and" | "or" | "xor" => Inactive { why: INT_BITS },
        "trunc" | "zext" | "sext" => Inactive { why: INT_CAST },
        "icmp" => Inactive {
            why: "integer comparison never carries a derivative",
        },
        "ptrtoint" => Inactive {
            why: "pointer-to-integer cast: addresses carry no derivative",
        },
        "ptrtoaddr" => Inactive {
            why: "pointer-to-address cast: addresses carry no derivative",
        },
        "inttoptr" => Inactive {
            why: "integer-to-pointer cast: addresses carry no derivative",
        },

        // Control flow handled by the transform.
        "ret" => Structural {
            why: "return: seeds the adjoint of the returned value",
        },
        "br" => Structural {
            why: "branch: control flow is mirrored in reverse",
        },
        "switch" => Structural {
            why: "switch: control flow is mirrored in reverse",
        },
        "unreachable" => Structural {
            why: "unreachable: nothing to differentiate",
        },
        "phi" => Structural {
            why: "phi: adjoint routed back along the incoming edge",
        },
        "select" => Structural {
            why: "select: adjoint routed to the chosen operand",
        },
        "call" => Structural {
            why: "call: looked up as intrinsic/libm rule or differentiated recursively",
        },
        "freeze" => Structural {
            why: "freeze: identity for derivative purposes",
        },

        // Memory.
        "load" => Structural {
            why: "load: adjoint accumulated into the shadow memory",
        },
        "store" => Structural {
            why: "store: shadow memory updated, adjoint moved to the stored value",
        },
        "alloca" => Structural {
            why: "alloca: a shadow allocation is created",
        },
        "getelementptr" => Structural {
            why: "getelementptr: mirrored on the shadow pointer",
        },
        "bitcast" => Structural {
            why: "bitcast: reinterpretation mirrored on the shadow",
        },
        "addrspacecast" => Structural {
            why: "addrspacecast: mirrored on the shadow pointer",
        },

        // Vectors and aggregates.
        "extractelement" => Structural {
            why: "extractelement: adjoint added into the source lane",
        },
        "insertelement" => Structural {
            why: "insertelement: adjoint split between vector and element",
        },
        "shufflevector" => Structural {
            why: "shufflevector: adjoint lanes shuffled back",
        },
        "extractvalue" => Structural {
            why: "extractvalue: adjoint added into the source field",
        },
        "insertvalue" => Structural {
            why: "insertvalue: adjoint split between aggregate and field",
        },

        "atomicrmw" => Structural {
            why: "atomicrmw fadd/fsub of floats (OpenMP atomics and reductions): the added \
                  value's adjoint is read from the location's shadow; other atomic \
                  operations on differentiated data are rejected",
        },

        // Not supported (yet).
        "cmpxchg" | "fence" => Unsupported { why: ATOMICS },
        "invoke" | "landingpad" | "resume" | "cleanuppad" | "catchpad" | "catchswitch"
        | "catchret" | "cleanupret" => Unsupported { why: EXCEPTIONS },
        "indirectbr" => Unsupported {
            why: "indirectbr (computed goto) is not supported; rewrite it as a switch",
        },
        "callbr" => Unsupported {
            why:
                "callbr (asm goto) is not supported; keep inline asm out of the differentiated code",
        },
        "va_arg" => Unsupported {
            why: "va_arg (C varargs) is not supported; pass the arguments explicitly",
        },

        _ => Unsupported {
            why: UNKNOWN_OPCODE,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_opcode_has_an_explicit_row() {
        let ops = all_opcodes();
        assert_eq!(ops.len(), 66);
        assert_eq!(
            ops.iter().collect::<HashSet<_>>().len(),
            ops.len(),
            "duplicates"
        );
        for op in ops {
            let kind = opcode_kind(op);
            assert_ne!(
                kind,
                OpKind::Unsupported {
                    why: UNKNOWN_OPCODE
                },
                "{op} hits the fallback"
            );
            match kind {
                OpKind::Elementwise(rule) => {
                    assert_eq!(rule.name, *op);
                    assert_eq!(rule.family, Family::Opcode);
                }
                OpKind::LinearCast => {}
                OpKind::StructuralZero { why }
                | OpKind::Inactive { why }
                | OpKind::Structural { why }
                | OpKind::Unsupported { why } => assert!(!why.is_empty(), "{op}"),
            }
        }
        // And every Opcode-family row is reachable from an opcode.
        for rule in crate::all_rules()
            .iter()
            .filter(|r| r.family == Family::Opcode)
        {
            assert!(ops.contains(&rule.name), "{}", rule.name);
        }
    }

    #[test]
    fn classification_spot_checks() {
        assert!(matches!(opcode_kind("fmul"), OpKind::Elementwise(r) if r.arity == 2));
        assert!(matches!(opcode_kind("fneg"), OpKind::Elementwise(r) if r.arity == 1));
        assert_eq!(opcode_kind("fpext"), OpKind::LinearCast);
        assert!(matches!(
            opcode_kind("fptosi"),
            OpKind::StructuralZero { .. }
        ));
        assert!(matches!(
            opcode_kind("sitofp"),
            OpKind::StructuralZero { .. }
        ));
        assert!(matches!(opcode_kind("fcmp"), OpKind::StructuralZero { .. }));
        assert!(matches!(opcode_kind("xor"), OpKind::Inactive { .. }));
        assert!(matches!(opcode_kind("load"), OpKind::Structural { .. }));
        assert!(
            matches!(opcode_kind("cmpxchg"), OpKind::Unsupported { why } if why.contains("non-atomic"))
        );
        assert!(
            matches!(opcode_kind("landingpad"), OpKind::Unsupported { why } if why.contains("exception"))
        );
        assert_eq!(
            opcode_kind("frobnicate"),
            OpKind::Unsupported {
                why: UNKNOWN_OPCODE
            }
        );
        assert_eq!(
            opcode_kind("FADD"),
            OpKind::Unsupported {
                why: UNKNOWN_OPCODE
            }
        );
    }
}
