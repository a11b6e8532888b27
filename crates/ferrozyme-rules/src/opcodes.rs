//! How each LLVM instruction opcode participates in differentiation.
//!
//! [`opcode_kind`] is one explicit `match` with an arm per opcode of LLVM 22
//! ([`Op`], listed in [`Op::ALL`]); there is no default, so a newly listed
//! opcode cannot go unclassified. Only [`opcode_kind_by_name`] has a fallback,
//! for names that are not opcodes.
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

/// An LLVM 22 instruction opcode (the 66 of `llvm/IR/Instruction.def` that have a
/// textual form, including `ptrtoaddr`, new in LLVM 22).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Ret,
    Br,
    Switch,
    IndirectBr,
    Invoke,
    Resume,
    Unreachable,
    CleanupRet,
    CatchRet,
    CatchSwitch,
    CallBr,
    FNeg,
    Add,
    FAdd,
    Sub,
    FSub,
    Mul,
    FMul,
    UDiv,
    SDiv,
    FDiv,
    URem,
    SRem,
    FRem,
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
    ExtractElement,
    InsertElement,
    ShuffleVector,
    ExtractValue,
    InsertValue,
    Alloca,
    Load,
    Store,
    Fence,
    CmpXchg,
    AtomicRmw,
    GetElementPtr,
    Trunc,
    ZExt,
    SExt,
    FpTrunc,
    FpExt,
    FpToUi,
    FpToSi,
    UiToFp,
    SiToFp,
    PtrToInt,
    PtrToAddr,
    IntToPtr,
    BitCast,
    AddrSpaceCast,
    ICmp,
    FCmp,
    Phi,
    Select,
    Call,
    VaArg,
    LandingPad,
    CatchPad,
    CleanupPad,
    Freeze,
}

impl Op {
    /// Every opcode, in `Instruction.def` groups.
    pub const ALL: [Op; 66] = [
        Op::Ret,
        Op::Br,
        Op::Switch,
        Op::IndirectBr,
        Op::Invoke,
        Op::Resume,
        Op::Unreachable,
        Op::CleanupRet,
        Op::CatchRet,
        Op::CatchSwitch,
        Op::CallBr,
        Op::FNeg,
        Op::Add,
        Op::FAdd,
        Op::Sub,
        Op::FSub,
        Op::Mul,
        Op::FMul,
        Op::UDiv,
        Op::SDiv,
        Op::FDiv,
        Op::URem,
        Op::SRem,
        Op::FRem,
        Op::Shl,
        Op::LShr,
        Op::AShr,
        Op::And,
        Op::Or,
        Op::Xor,
        Op::ExtractElement,
        Op::InsertElement,
        Op::ShuffleVector,
        Op::ExtractValue,
        Op::InsertValue,
        Op::Alloca,
        Op::Load,
        Op::Store,
        Op::Fence,
        Op::CmpXchg,
        Op::AtomicRmw,
        Op::GetElementPtr,
        Op::Trunc,
        Op::ZExt,
        Op::SExt,
        Op::FpTrunc,
        Op::FpExt,
        Op::FpToUi,
        Op::FpToSi,
        Op::UiToFp,
        Op::SiToFp,
        Op::PtrToInt,
        Op::PtrToAddr,
        Op::IntToPtr,
        Op::BitCast,
        Op::AddrSpaceCast,
        Op::ICmp,
        Op::FCmp,
        Op::Phi,
        Op::Select,
        Op::Call,
        Op::VaArg,
        Op::LandingPad,
        Op::CatchPad,
        Op::CleanupPad,
        Op::Freeze,
    ];

    /// The opcode as spelled in textual IR (`"fadd"`).
    pub fn name(self) -> &'static str {
        match self {
            Op::Ret => "ret",
            Op::Br => "br",
            Op::Switch => "switch",
            Op::IndirectBr => "indirectbr",
            Op::Invoke => "invoke",
            Op::Resume => "resume",
            Op::Unreachable => "unreachable",
            Op::CleanupRet => "cleanupret",
            Op::CatchRet => "catchret",
            Op::CatchSwitch => "catchswitch",
            Op::CallBr => "callbr",
            Op::FNeg => "fneg",
            Op::Add => "add",
            Op::FAdd => "fadd",
            Op::Sub => "sub",
            Op::FSub => "fsub",
            Op::Mul => "mul",
            Op::FMul => "fmul",
            Op::UDiv => "udiv",
            Op::SDiv => "sdiv",
            Op::FDiv => "fdiv",
            Op::URem => "urem",
            Op::SRem => "srem",
            Op::FRem => "frem",
            Op::Shl => "shl",
            Op::LShr => "lshr",
            Op::AShr => "ashr",
            Op::And => "and",
            Op::Or => "or",
            Op::Xor => "xor",
            Op::ExtractElement => "extractelement",
            Op::InsertElement => "insertelement",
            Op::ShuffleVector => "shufflevector",
            Op::ExtractValue => "extractvalue",
            Op::InsertValue => "insertvalue",
            Op::Alloca => "alloca",
            Op::Load => "load",
            Op::Store => "store",
            Op::Fence => "fence",
            Op::CmpXchg => "cmpxchg",
            Op::AtomicRmw => "atomicrmw",
            Op::GetElementPtr => "getelementptr",
            Op::Trunc => "trunc",
            Op::ZExt => "zext",
            Op::SExt => "sext",
            Op::FpTrunc => "fptrunc",
            Op::FpExt => "fpext",
            Op::FpToUi => "fptoui",
            Op::FpToSi => "fptosi",
            Op::UiToFp => "uitofp",
            Op::SiToFp => "sitofp",
            Op::PtrToInt => "ptrtoint",
            Op::PtrToAddr => "ptrtoaddr",
            Op::IntToPtr => "inttoptr",
            Op::BitCast => "bitcast",
            Op::AddrSpaceCast => "addrspacecast",
            Op::ICmp => "icmp",
            Op::FCmp => "fcmp",
            Op::Phi => "phi",
            Op::Select => "select",
            Op::Call => "call",
            Op::VaArg => "va_arg",
            Op::LandingPad => "landingpad",
            Op::CatchPad => "catchpad",
            Op::CleanupPad => "cleanuppad",
            Op::Freeze => "freeze",
        }
    }

    /// The opcode spelled `name` in textual IR.
    pub fn from_name(name: &str) -> Option<Op> {
        Op::ALL.into_iter().find(|o| o.name() == name)
    }
}

/// The `why` of the fallback for names that are not LLVM opcodes.
pub const UNKNOWN_OPCODE: &str = "unknown opcode";

fn elementwise(op: Op) -> OpKind {
    match find_rule(op.name(), Family::Opcode) {
        Some(rule) => OpKind::Elementwise(rule),
        None => unreachable!("opcode `{}` has no row in the rules table", op.name()),
    }
}

const INT_ARITH: &str = "integer arithmetic never carries a derivative";
const INT_BITS: &str = "integer bit operation never carries a derivative";
const INT_CAST: &str = "integer cast never carries a derivative";
const EXCEPTIONS: &str = "C++ exception handling on the differentiated path is not supported yet; \
     mark the function nounwind / compile with -fno-exceptions, or keep the throwing code out of the \
     differentiated region";
const ATOMICS: &str =
    "atomic operations are not supported yet; differentiate a non-atomic version \
     of the code (e.g. the serial kernel) instead";

/// How instruction opcode `op` is differentiated: one arm per opcode, no default.
pub fn opcode_kind(op: Op) -> OpKind {
    use OpKind::*;
    match op {
        // Float arithmetic: rules-table rows.
        Op::FAdd | Op::FSub | Op::FMul | Op::FDiv | Op::FRem | Op::FNeg => elementwise(op),

        // Float <-> float casts.
        Op::FpExt | Op::FpTrunc => LinearCast,

        // Float operands, but no derivative flows.
        Op::FpToUi | Op::FpToSi => StructuralZero {
            why: "float-to-integer conversion: integer result is piecewise constant",
        },
        Op::UiToFp | Op::SiToFp => StructuralZero {
            why: "integer-to-float conversion: the integer input carries no derivative",
        },
        Op::FCmp => StructuralZero {
            why: "float comparison: boolean result is piecewise constant",
        },

        // Integer / pointer arithmetic.
        Op::Add | Op::Sub | Op::Mul | Op::UDiv | Op::SDiv | Op::URem | Op::SRem => {
            Inactive { why: INT_ARITH }
        }
        Op::Shl | Op::LShr | Op::AShr | Op::And | Op::Or | Op::Xor => Inactive { why: INT_BITS },
        Op::Trunc | Op::ZExt | Op::SExt => Inactive { why: INT_CAST },
        Op::ICmp => Inactive {
            why: "integer comparison never carries a derivative",
        },
        Op::PtrToInt => Inactive {
            why: "pointer-to-integer cast: addresses carry no derivative",
        },
        Op::PtrToAddr => Inactive {
            why: "pointer-to-address cast: addresses carry no derivative",
        },
        Op::IntToPtr => Inactive {
            why: "integer-to-pointer cast: addresses carry no derivative",
        },

        // Control flow handled by the transform.
        Op::Ret => Structural {
            why: "return: seeds the adjoint of the returned value",
        },
        Op::Br => Structural {
            why: "branch: control flow is mirrored in reverse",
        },
        Op::Switch => Structural {
            why: "switch: control flow is mirrored in reverse",
        },
        Op::Unreachable => Structural {
            why: "unreachable: nothing to differentiate",
        },
        Op::Phi => Structural {
            why: "phi: adjoint routed back along the incoming edge",
        },
        Op::Select => Structural {
            why: "select: adjoint routed to the chosen operand",
        },
        Op::Call => Structural {
            why: "call: looked up as intrinsic/libm rule or differentiated recursively",
        },
        Op::Freeze => Structural {
            why: "freeze: identity for derivative purposes",
        },

        // Memory.
        Op::Load => Structural {
            why: "load: adjoint accumulated into the shadow memory",
        },
        Op::Store => Structural {
            why: "store: shadow memory updated, adjoint moved to the stored value",
        },
        Op::Alloca => Structural {
            why: "alloca: a shadow allocation is created",
        },
        Op::GetElementPtr => Structural {
            why: "getelementptr: mirrored on the shadow pointer",
        },
        Op::BitCast => Structural {
            why: "bitcast: reinterpretation mirrored on the shadow",
        },
        Op::AddrSpaceCast => Structural {
            why: "addrspacecast: mirrored on the shadow pointer",
        },

        // Vectors and aggregates.
        Op::ExtractElement => Structural {
            why: "extractelement: adjoint added into the source lane",
        },
        Op::InsertElement => Structural {
            why: "insertelement: adjoint split between vector and element",
        },
        Op::ShuffleVector => Structural {
            why: "shufflevector: adjoint lanes shuffled back",
        },
        Op::ExtractValue => Structural {
            why: "extractvalue: adjoint added into the source field",
        },
        Op::InsertValue => Structural {
            why: "insertvalue: adjoint split between aggregate and field",
        },

        // Not supported (yet).
        Op::AtomicRmw | Op::CmpXchg | Op::Fence => Unsupported { why: ATOMICS },
        Op::Invoke
        | Op::LandingPad
        | Op::Resume
        | Op::CleanupPad
        | Op::CatchPad
        | Op::CatchSwitch
        | Op::CatchRet
        | Op::CleanupRet => Unsupported { why: EXCEPTIONS },
        Op::IndirectBr => Unsupported {
            why: "indirectbr (computed goto) is not supported; rewrite it as a switch",
        },
        Op::CallBr => Unsupported {
            why:
                "callbr (asm goto) is not supported; keep inline asm out of the differentiated code",
        },
        Op::VaArg => Unsupported {
            why: "va_arg (C varargs) is not supported; pass the arguments explicitly",
        },
    }
}

/// [`opcode_kind`] by textual name; names that are not opcodes are unsupported.
pub fn opcode_kind_by_name(name: &str) -> OpKind {
    match Op::from_name(name) {
        Some(op) => opcode_kind(op),
        None => OpKind::Unsupported {
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
        let ops = Op::ALL;
        assert_eq!(
            ops.iter().map(|o| o.name()).collect::<HashSet<_>>().len(),
            ops.len(),
            "duplicate names"
        );
        for op in ops {
            assert_eq!(Op::from_name(op.name()), Some(op));
            let kind = opcode_kind(op);
            assert_ne!(
                kind,
                OpKind::Unsupported {
                    why: UNKNOWN_OPCODE
                },
                "{op:?} hits the fallback"
            );
            match kind {
                OpKind::Elementwise(rule) => {
                    assert_eq!(rule.name, op.name());
                    assert_eq!(rule.family, Family::Opcode);
                }
                OpKind::LinearCast => {}
                OpKind::StructuralZero { why }
                | OpKind::Inactive { why }
                | OpKind::Structural { why }
                | OpKind::Unsupported { why } => assert!(!why.is_empty(), "{op:?}"),
            }
        }
        // And every Opcode-family row is reachable from an opcode.
        for rule in crate::all_rules()
            .iter()
            .filter(|r| r.family == Family::Opcode)
        {
            assert!(Op::from_name(rule.name).is_some(), "{}", rule.name);
        }
    }

    #[test]
    fn classification_spot_checks() {
        assert!(matches!(opcode_kind(Op::FMul), OpKind::Elementwise(r) if r.arity == 2));
        assert!(matches!(opcode_kind(Op::FNeg), OpKind::Elementwise(r) if r.arity == 1));
        assert_eq!(opcode_kind(Op::FpExt), OpKind::LinearCast);
        assert!(matches!(
            opcode_kind(Op::FpToSi),
            OpKind::StructuralZero { .. }
        ));
        assert!(matches!(
            opcode_kind(Op::SiToFp),
            OpKind::StructuralZero { .. }
        ));
        assert!(matches!(
            opcode_kind(Op::FCmp),
            OpKind::StructuralZero { .. }
        ));
        assert!(matches!(opcode_kind(Op::Xor), OpKind::Inactive { .. }));
        assert!(matches!(opcode_kind(Op::Load), OpKind::Structural { .. }));
        assert!(
            matches!(opcode_kind(Op::AtomicRmw), OpKind::Unsupported { why } if why.contains("non-atomic"))
        );
        assert!(
            matches!(opcode_kind(Op::LandingPad), OpKind::Unsupported { why } if why.contains("exception"))
        );
        assert_eq!(
            opcode_kind_by_name("frobnicate"),
            OpKind::Unsupported {
                why: UNKNOWN_OPCODE
            }
        );
        assert_eq!(
            opcode_kind_by_name("FADD"),
            OpKind::Unsupported {
                why: UNKNOWN_OPCODE
            }
        );
    }
}
