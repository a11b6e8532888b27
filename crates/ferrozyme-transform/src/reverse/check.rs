//! Rejecting, before any code is emitted, what cannot be differentiated correctly:
//! unsupported instructions on the active path, calls without derivatives, integer
//! accesses whose float-ness type analysis cannot decide, and integer arithmetic on the
//! bits of floats beyond the lane moves and sign tricks `bits.rs` understands.

use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_llvm::{DiagKind, Opcode, Value};
use ferrozyme_rules::{opcode_kind, OpKind};

use super::Gen;

impl Gen<'_> {
    /// Rejects, before emitting anything, instructions on the active path that cannot be
    /// differentiated, and calls that have no derivative.
    pub(super) fn check_supported(&mut self) {
        for blk in self.cfg.blocks.clone() {
            if !self.cfg.is_reachable(blk) {
                continue;
            }
            for i in blk.instructions() {
                let Some(op) = i.opcode() else { continue };
                if self.check_scalable(i) {
                    continue;
                }
                let touches = self.act.is_active(i)
                    || i.operands().iter().any(|&o| {
                        self.act.is_active(o)
                            || (o.ty().is_pointer_like() && self.act.is_shadowed(o))
                    });
                if op == Opcode::LLVMCall {
                    self.check_call(i);
                    continue;
                }
                self.check_int_access(i, op);
                if ferrozyme_analysis::activity::is_smuggled_pointer(i, &self.types) {
                    self.diag(
                        DiagKind::UnsupportedInstruction,
                        Some(i),
                        "a pointer rebuilt from an integer (`inttoptr`) may point into differentiable memory; shadows are not followed through integers".to_string(),
                        "keep the pointer a pointer (no casts to and from integers) in the differentiated code",
                    );
                }
                self.check_packed_moves(i, op);
                self.check_mixed_pointers(i, op);
                self.check_bit_ops(i, op);
                if touches
                    && !self.act.is_active(i)
                    && i.ty().kind() == ferrozyme_llvm::TypeKind::OtherFloat
                {
                    self.diag(
                        DiagKind::UnsupportedInstruction,
                        Some(i),
                        format!(
                            "`{}` values (long double / __float128) are not differentiated",
                            i.ty()
                        ),
                        "use double for the differentiated computation",
                    );
                }
                if let OpKind::Unsupported { why } = opcode_kind(ferrozyme_llvm::opcode_name(op)) {
                    // Exception-handling control flow is never replayed by the sweeps, even
                    // when no active value goes through it (a copied `landingpad` would
                    // also sit in a function without a personality).
                    let eh = ferrozyme_llvm::is_exception_handling(op);
                    if touches || eh {
                        self.diag(
                            DiagKind::UnsupportedInstruction,
                            Some(i),
                            format!("cannot differentiate `{}` instructions: {why}", ferrozyme_llvm::opcode_name(op)),
                            "rewrite this part without the construct, or move it out of the differentiated function",
                        );
                    }
                }
            }
        }
    }

    /// Scalable vectors (`<vscale x N x T>`) anywhere in the function: their size is not
    /// a constant, so shadows and tape slots cannot be sized. True when reported.
    fn check_scalable(&mut self, i: Value) -> bool {
        let scalable = i.involves_scalable();
        if scalable {
            self.diag(
                DiagKind::UnsupportedInstruction,
                Some(i),
                "scalable vectors (`<vscale x N x T>`) are not differentiated".to_string(),
                "use fixed-width vectors in the differentiated function",
            );
        }
        scalable
    }

    /// A value move (`phi`, `select`, `freeze`, vector lane moves) between a float pair
    /// packed in an `i64` (adjoint `<2 x float>`) and an integer that is not such a pair
    /// (e.g. a lane of an `<8 x i64>`, adjoint `double`): the adjoints would not fit, and
    /// floats packed into integer vectors are not followed yet.
    fn check_packed_moves(&mut self, i: Value, op: Opcode) {
        use Opcode::*;
        if !matches!(
            op,
            LLVMPHI
                | LLVMSelect
                | LLVMFreeze
                | LLVMShuffleVector
                | LLVMExtractElement
                | LLVMInsertElement
        ) || !self.act.is_active(i)
        {
            return;
        }
        let ops = i.operands();
        let vals = if op == LLVMSelect {
            &ops[1..]
        } else {
            &ops[..]
        };
        let out_packed = self.act.packed.contains(&i);
        let mismatch = vals.iter().any(|&o| {
            self.act.is_active(o) && !o.ty().is_fp() && (self.act.packed.contains(&o) != out_packed)
        });
        if mismatch {
            self.diag(
                DiagKind::UnsupportedInstruction,
                Some(i),
                "a float pair packed in an `i64` moves into or out of an integer vector; floats packed into integer vectors are not differentiated yet".to_string(),
                "copy the floats as floats (or as one i64 at a time), or compile this function at -O1",
            );
        }
    }

    /// An integer load or store that moves bytes of differentiable memory whose type is
    /// unknown or conflicting (e.g. a `long *` access to a `double` array, which TBAA
    /// types as `long`): guessing could silently lose or corrupt the derivative.
    pub(super) fn check_int_access(&mut self, i: Value, op: Opcode) {
        use ferrozyme_analysis::types::BaseType;
        let (val, addr) = match op {
            Opcode::LLVMLoad => (i, i.operand(0)),
            Opcode::LLVMStore => (i.operand(0), i.operand(1)),
            _ => return,
        };
        if !ferrozyme_analysis::activity::is_int_carrier_type(val.ty())
            || !self.act.is_shadowed(addr)
            || self.act.is_active(val)
        {
            return;
        }
        if op == Opcode::LLVMStore && val.is_constant() {
            // A constant (folded bit pattern of a float, or an integer) overwrites the
            // memory: its adjoint is killed either way (see the reverse of stores).
            return;
        }
        // Every 4-byte piece of the accessed bytes counts: `{int, float}` copied as one
        // i64 is integer at offset 0 and float at offset 4.
        let size = self.m.store_size(val.ty()) as i64;
        let vtree = self.types.value_tree(val);
        let mtree = self.types.pointee_tree(addr);
        let mut pieces: Vec<(BaseType, BaseType)> = Vec::new();
        let mut o = 0;
        while o < size.max(4) {
            let (v, m) = (vtree.get(o), mtree.get(o));
            pieces.push((v, m));
            // A double covers the next 4 bytes too.
            o += if v == BaseType::Double || m == BaseType::Double {
                8
            } else {
                4
            };
        }
        // An integer scalar typed as an integer at offset 0 (type analysis saw it compared,
        // indexed with, multiplied, shifted: used as a whole) is an integer as a whole; its
        // other pieces are integer too unless the memory says float (a Rust `usize` length
        // has no TBAA to say so).
        if val.ty().is_integer() && vtree.get(0).is_not_float() {
            for p in pieces.iter_mut().skip(1) {
                if p.0 == BaseType::Unknown {
                    p.0 = BaseType::Integer;
                }
            }
        }
        let (vt, mt) = pieces
            .iter()
            .copied()
            .find(|(v, m)| {
                !v.is_not_float()
                    || matches!(m, BaseType::Anything | BaseType::Float | BaseType::Double)
            })
            .unwrap_or(pieces[0]);
        // Understood: integers/pointers over non-float memory, or values type analysis
        // knows are floats (an inactive float copied as an integer: the store kills the
        // destination's adjoint, as for any inactive float).
        let proven_not_fp = pieces.iter().all(|(v, m)| {
            (v.is_not_float()
                && !matches!(m, BaseType::Anything | BaseType::Float | BaseType::Double))
                || (matches!(v, BaseType::Float | BaseType::Double)
                    && !matches!(m, BaseType::Anything))
        }) && (op == Opcode::LLVMStore
            || pieces.iter().all(|(v, _)| !v.is_float()));
        // Unknown counts as possibly float: an integer moving bytes of differentiable
        // memory that nothing types could be moving floats.
        let maybe_fp = pieces.iter().any(|(v, m)| {
            matches!(v, BaseType::Anything | BaseType::Unknown)
                || matches!(m, BaseType::Anything | BaseType::Float | BaseType::Double)
        });
        if !proven_not_fp && maybe_fp {
            self.diag(
                DiagKind::CannotDeduceType,
                Some(i),
                format!(
                    "an integer access to differentiable memory whose type is ambiguous (the value looks like {vt}, the memory like {mt})"
                ),
                "avoid type punning through integer pointers (it breaks C's strict aliasing; memcpy is the portable way), compile with -fno-strict-aliasing, or add a hint such as __enzyme_double(ptr)",
            );
        }
    }

    /// Integer arithmetic on the bits of an active float that is not one of the lane
    /// moves or sign tricks `rev_lane_op` understands would silently drop the derivative.
    pub(super) fn check_bit_ops(&mut self, i: Value, op: Opcode) {
        use Opcode::*;
        let int_op = matches!(
            op,
            LLVMAdd
                | LLVMSub
                | LLVMMul
                | LLVMUDiv
                | LLVMSDiv
                | LLVMURem
                | LLVMSRem
                | LLVMShl
                | LLVMLShr
                | LLVMAShr
                | LLVMAnd
                | LLVMOr
                | LLVMXor
                | LLVMTrunc
                | LLVMZExt
                | LLVMSExt
        );
        if !int_op
            || !i
                .operands()
                .iter()
                .any(|&o| self.act.is_active(o) && o.ty().is_integer())
        {
            return;
        }
        let understood = if ferrozyme_analysis::activity::is_lane_op(i) {
            let packed = self.act.packed.contains(&i)
                || i.operands().iter().any(|o| self.act.packed.contains(o));
            let sign_trick = super::bits::sign_trick(i).is_some();
            packed || sign_trick
        } else {
            false
        };
        if !understood {
            self.diag(
                DiagKind::UnsupportedInstruction,
                Some(i),
                "integer arithmetic on the bits of a floating-point value cannot be differentiated".to_string(),
                "operate on the value as a float (fabs, copysign, -x) instead of on its bit pattern",
            );
        }
    }

    /// A `select` or `phi` choosing between a pointer into differentiable memory and one
    /// into constant memory (an `enzyme_const` argument, a constant table): the choice is
    /// only known at run time, and derivatives through the constant side have nowhere to
    /// go. Enzyme calls this mismatched activity; we refuse it rather than guess.
    pub(super) fn check_mixed_pointers(&mut self, i: Value, op: Opcode) {
        if !matches!(op, Opcode::LLVMSelect | Opcode::LLVMPHI)
            || !i.ty().is_pointer_like()
            || !self.act.is_shadowed(i)
        {
            return;
        }
        let choices: Vec<Value> = if op == Opcode::LLVMSelect {
            vec![i.operand(1), i.operand(2)]
        } else {
            i.incoming().into_iter().map(|(v, _)| v).collect()
        };
        let constant_side = choices
            .iter()
            .find(|&&v| super::mixed::lacks_shadow(self, v));
        if op == Opcode::LLVMSelect
            && super::mixed::mixed_select(self, i).is_some()
            && super::mixed::uses_are_guardable(i)
        {
            // Loads and stores through it are guarded at run time (reverse/mixed.rs).
            return;
        }
        if let Some(c) = constant_side {
            self.diag(
                DiagKind::UnsupportedInstruction,
                Some(i),
                format!(
                    "mismatched activity: this pointer is either differentiable memory or constant memory ({}), decided at run time",
                    c.to_string().split('=').next().unwrap_or("").trim()
                ),
                "pass both buffers as enzyme_dup (with shadows), or both as enzyme_const",
            );
        }
    }

    pub(super) fn check_call(&mut self, i: Value) {
        if !self.act.call_is_active(i, &self.d.touchers) {
            return;
        }
        let callee_name = i.called_function().map(|f| f.name()).unwrap_or_default();
        if let CallKind::Defined(_) = classify(i) {
            // Shadows travel in pointer arguments; one inside an aggregate argument would be
            // dropped (rustc passes pairs as two scalars, so this is rare C code).
            if let Some(a) = i.call_args().into_iter().find(|a| {
                !a.ty().is_pointer_like() && a.ty().contains_pointer() && self.act.is_shadowed(*a)
            }) {
                self.diag(
                    DiagKind::UnsupportedInstruction,
                    Some(i),
                    format!(
                        "an aggregate holding a pointer to differentiable memory is passed by value to `{callee_name}` ({})",
                        a.ty()
                    ),
                    "pass the pointer itself (or the aggregate by pointer)",
                );
            }
        }
        match classify(i) {
            CallKind::UnknownExternal => self.diag(
                DiagKind::MissingDerivative,
                Some(i),
                format!("no derivative for `{callee_name}`: it has no IR in this module and no derivative rule"),
                "compile its source together with this file (ferrozyme cc a.c b.c) so its IR is in the module, or keep the values it uses constant (enzyme_const); custom derivatives (__enzyme_register_gradient_*) are not supported yet",
            ),
            CallKind::UnknownIntrinsic => self.diag(
                DiagKind::UnsupportedInstruction,
                Some(i),
                format!("no derivative rule for the intrinsic `{callee_name}`"),
                "please report this intrinsic; as a workaround compile with different flags so LLVM does not emit it",
            ),
            CallKind::Indirect => self.diag(
                DiagKind::UnsupportedInstruction,
                Some(i),
                "cannot differentiate a call through a function pointer yet".to_string(),
                "call the function directly in the differentiated code",
            ),
            CallKind::InlineAsm => self.diag(
                DiagKind::UnsupportedInstruction,
                Some(i),
                "cannot differentiate inline assembly".to_string(),
                "move the assembly out of the differentiated code",
            ),
            _ => {}
        }
    }
}
