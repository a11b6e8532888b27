//! A positioned IR builder.
//!
//! Thin wrapper over `LLVMBuilderRef`: every method emits one instruction at the current
//! insertion point and returns its handle. The builder owns its LLVM builder and disposes
//! it on drop. Names are optional and only help people reading generated IR.

use std::cell::Cell;

use llvm_sys::core::*;
use llvm_sys::prelude::*;

use crate::ir::{cstr, Block, Context, IntPredicate, Opcode, RealPredicate, Type, Value};

pub struct Builder {
    raw: LLVMBuilderRef,
    ctx: Context,
    /// Fast-math flags given to every floating-point operation built (see
    /// [`Builder::set_fast_math`]).
    fmf: Cell<u32>,
    /// While set, floating-point operations built also get the [`ADJOINT_MD`] mark
    /// (see [`Builder::set_adjoint_mark`]).
    adjoint: Cell<bool>,
}

/// Metadata kind marking floating-point operations built while the reverse sweep is
/// emitted (its adjoint arithmetic; the forward sweep's copies of the primal are never
/// marked): the post-pipeline rewrite of adjoint recurrences
/// (`ferrozyme_transform::adjoint_chain`) only touches chains that go through such an
/// operation, and removes the mark afterwards.
pub const ADJOINT_MD: &str = "ferrozyme.adjoint";

impl Drop for Builder {
    fn drop(&mut self) {
        // SAFETY: we own the builder.
        unsafe { LLVMDisposeBuilder(self.raw) }
    }
}

macro_rules! binop {
    ($name:ident, $f:ident) => {
        pub fn $name(&self, a: Value, b: Value) -> Value {
            let n = cstr("");
            // SAFETY: builder positioned; operands live and of matching types (caller).
            self.fp(Value(unsafe { $f(self.raw, a.0, b.0, n.as_ptr()) }))
        }
    };
}
macro_rules! cast {
    ($name:ident, $f:ident) => {
        pub fn $name(&self, v: Value, ty: Type) -> Value {
            let n = cstr("");
            // SAFETY: builder positioned; cast legality is the caller's.
            Value(unsafe { $f(self.raw, v.0, ty.0, n.as_ptr()) })
        }
    };
}

impl Builder {
    pub fn new(ctx: Context) -> Builder {
        // SAFETY: context alive.
        Builder {
            raw: unsafe { LLVMCreateBuilderInContext(ctx.0) },
            ctx,
            fmf: Cell::new(0),
            adjoint: Cell::new(false),
        }
    }
    /// From now on, floating-point operations (arithmetic, comparisons, selects, phis,
    /// intrinsic calls) get `flags` (`LLVMFastMath*` bits); returns the previous flags.
    pub fn set_fast_math(&self, flags: u32) -> u32 {
        self.fmf.replace(flags)
    }
    /// From now on (`on`), floating-point operations built get the [`ADJOINT_MD`] mark;
    /// returns the previous setting.
    pub fn set_adjoint_mark(&self, on: bool) -> bool {
        self.adjoint.replace(on)
    }
    fn fp(&self, v: Value) -> Value {
        let f = self.fmf.get();
        if f != 0 {
            v.set_fast_math_flags(f);
        }
        if self.adjoint.get() && v.can_use_fast_math_flags() {
            let kind = self.ctx.md_kind(ADJOINT_MD);
            v.set_metadata(kind, Some(self.ctx.md_node(&[])));
        }
        v
    }
    pub fn context(&self) -> Context {
        self.ctx
    }
    pub fn position_at_end(&self, b: Block) {
        // SAFETY: live block.
        unsafe { LLVMPositionBuilderAtEnd(self.raw, b.0) }
    }
    pub fn position_before(&self, inst: Value) {
        // SAFETY: live instruction.
        unsafe { LLVMPositionBuilderBeforeInstrAndDbgRecords(self.raw, inst.0) }
    }
    /// Positions after `inst` (before the next instruction, or at the block's end).
    pub fn position_after(&self, inst: Value) {
        match inst.next_instruction() {
            Some(n) => self.position_before(n),
            None => self.position_at_end(inst.parent_block()),
        }
    }
    pub fn insert_block(&self) -> Block {
        // SAFETY: builder positioned.
        Block(unsafe { LLVMGetInsertBlock(self.raw) })
    }
    /// Inserts an unattached instruction (e.g. from `clone_instruction`) here.
    pub fn insert(&self, inst: Value) {
        let n = cstr("");
        // SAFETY: the instruction is not in any block yet.
        unsafe { LLVMInsertIntoBuilderWithName(self.raw, inst.0, n.as_ptr()) }
    }
    pub fn append_block(&self, f: Value, name: &str) -> Block {
        let n = cstr(name);
        // SAFETY: live function.
        Block(unsafe { LLVMAppendBasicBlockInContext(self.ctx.0, f.0, n.as_ptr()) })
    }

    binop!(fadd, LLVMBuildFAdd);
    /// `a + b` accumulating adjoints: the current flags plus `nsz`. The sign of a zero
    /// adjoint carries no derivative information, and without `nsz` LLVM may not fold
    /// `x + 0.0` (it is `+0.0` for `x = -0.0`), which left a fifth of a reverse sweep's
    /// instructions as additions of a zero-initialised adjoint slot (issue 18).
    pub fn fadd_adjoint(&self, a: Value, b: Value) -> Value {
        let v = self.fadd(a, b);
        v.set_fast_math_flags(self.fmf.get() | crate::fastmath::NSZ);
        v
    }
    binop!(fsub, LLVMBuildFSub);
    binop!(fmul, LLVMBuildFMul);
    binop!(fdiv, LLVMBuildFDiv);
    binop!(add, LLVMBuildAdd);
    binop!(sub, LLVMBuildSub);
    binop!(mul, LLVMBuildMul);
    binop!(and, LLVMBuildAnd);
    binop!(or, LLVMBuildOr);
    binop!(xor, LLVMBuildXor);
    binop!(udiv, LLVMBuildUDiv);
    cast!(fpext, LLVMBuildFPExt);
    cast!(fptrunc, LLVMBuildFPTrunc);
    cast!(bitcast, LLVMBuildBitCast);
    cast!(uitofp, LLVMBuildUIToFP);
    cast!(sitofp, LLVMBuildSIToFP);
    cast!(fptosi, LLVMBuildFPToSI);
    cast!(zext, LLVMBuildZExt);
    cast!(sext, LLVMBuildSExt);
    cast!(trunc, LLVMBuildTrunc);
    cast!(ptrtoint, LLVMBuildPtrToInt);
    cast!(inttoptr, LLVMBuildIntToPtr);

    /// Integer cast to `ty`, zero-extending or truncating as needed.
    pub fn int_cast(&self, v: Value, ty: Type) -> Value {
        let n = cstr("");
        // SAFETY: integer types (caller).
        Value(unsafe { LLVMBuildIntCast2(self.raw, v.0, ty.0, 0, n.as_ptr()) })
    }
    pub fn fneg(&self, v: Value) -> Value {
        let n = cstr("");
        // SAFETY: builder positioned.
        self.fp(Value(unsafe { LLVMBuildFNeg(self.raw, v.0, n.as_ptr()) }))
    }
    pub fn fcmp(&self, p: RealPredicate, a: Value, b: Value) -> Value {
        let n = cstr("");
        // SAFETY: builder positioned.
        self.fp(Value(unsafe {
            LLVMBuildFCmp(self.raw, p, a.0, b.0, n.as_ptr())
        }))
    }
    pub fn icmp(&self, p: IntPredicate, a: Value, b: Value) -> Value {
        let n = cstr("");
        // SAFETY: builder positioned.
        Value(unsafe { LLVMBuildICmp(self.raw, p, a.0, b.0, n.as_ptr()) })
    }
    pub fn select(&self, c: Value, a: Value, b: Value) -> Value {
        let n = cstr("");
        // SAFETY: builder positioned.
        self.fp(Value(unsafe {
            LLVMBuildSelect(self.raw, c.0, a.0, b.0, n.as_ptr())
        }))
    }
    pub fn alloca(&self, ty: Type, name: &str) -> Value {
        let n = cstr(name);
        // SAFETY: builder positioned.
        Value(unsafe { LLVMBuildAlloca(self.raw, ty.0, n.as_ptr()) })
    }
    pub fn array_alloca(&self, ty: Type, count: Value, name: &str) -> Value {
        let n = cstr(name);
        // SAFETY: builder positioned.
        Value(unsafe { LLVMBuildArrayAlloca(self.raw, ty.0, count.0, n.as_ptr()) })
    }
    pub fn load(&self, ty: Type, ptr: Value, name: &str) -> Value {
        let n = cstr(name);
        // SAFETY: builder positioned.
        Value(unsafe { LLVMBuildLoad2(self.raw, ty.0, ptr.0, n.as_ptr()) })
    }
    pub fn store(&self, v: Value, ptr: Value) -> Value {
        // SAFETY: builder positioned.
        Value(unsafe { LLVMBuildStore(self.raw, v.0, ptr.0) })
    }
    pub fn gep(&self, elem_ty: Type, ptr: Value, idx: &[Value]) -> Value {
        let mut ix: Vec<LLVMValueRef> = idx.iter().map(|v| v.0).collect();
        let n = cstr("");
        // SAFETY: builder positioned; index array outlives the call.
        Value(unsafe {
            LLVMBuildGEP2(
                self.raw,
                elem_ty.0,
                ptr.0,
                ix.as_mut_ptr(),
                ix.len() as u32,
                n.as_ptr(),
            )
        })
    }
    pub fn inbounds_gep(&self, elem_ty: Type, ptr: Value, idx: &[Value]) -> Value {
        let mut ix: Vec<LLVMValueRef> = idx.iter().map(|v| v.0).collect();
        let n = cstr("");
        // SAFETY: as `gep`.
        Value(unsafe {
            LLVMBuildInBoundsGEP2(
                self.raw,
                elem_ty.0,
                ptr.0,
                ix.as_mut_ptr(),
                ix.len() as u32,
                n.as_ptr(),
            )
        })
    }
    /// `ptr + offset` bytes: `ptr` itself when the offset is the constant 0 (the tape's
    /// first slots and records' first fields: about 6% of the generated instructions
    /// were such `getelementptr`s, which the post-AD pipeline only deletes, issue 18).
    pub fn byte_gep(&self, ptr: Value, offset: Value) -> Value {
        if offset.const_int_value() == Some(0) {
            return ptr;
        }
        self.gep(self.ctx.i8(), ptr, &[offset])
    }
    pub fn struct_gep(&self, sty: Type, ptr: Value, i: u32) -> Value {
        let n = cstr("");
        // SAFETY: builder positioned; sty is a struct type.
        Value(unsafe { LLVMBuildStructGEP2(self.raw, sty.0, ptr.0, i, n.as_ptr()) })
    }
    pub fn call(&self, fn_ty: Type, callee: Value, args: &[Value]) -> Value {
        let mut a: Vec<LLVMValueRef> = args.iter().map(|v| v.0).collect();
        let n = cstr("");
        // SAFETY: builder positioned; argument array outlives the call.
        let c = Value(unsafe {
            LLVMBuildCall2(
                self.raw,
                fn_ty.0,
                callee.0,
                a.as_mut_ptr(),
                a.len() as u32,
                n.as_ptr(),
            )
        });
        // SAFETY: live callee; only intrinsics (math functions) take the flags.
        if unsafe { LLVMIsAFunction(callee.0).is_null() || LLVMGetIntrinsicID(callee.0) == 0 } {
            c
        } else {
            self.fp(c)
        }
    }
    /// Calls a function value with its own type.
    pub fn call_fn(&self, f: Value, args: &[Value]) -> Value {
        self.call(f.function_type(), f, args)
    }
    pub fn br(&self, b: Block) -> Value {
        // SAFETY: builder positioned.
        Value(unsafe { LLVMBuildBr(self.raw, b.0) })
    }
    pub fn cond_br(&self, c: Value, t: Block, e: Block) -> Value {
        // SAFETY: builder positioned.
        Value(unsafe { LLVMBuildCondBr(self.raw, c.0, t.0, e.0) })
    }
    pub fn switch(&self, v: Value, default: Block, cases: &[(Value, Block)]) -> Value {
        // SAFETY: builder positioned.
        unsafe {
            let s = LLVMBuildSwitch(self.raw, v.0, default.0, cases.len() as u32);
            for (c, b) in cases {
                LLVMAddCase(s, c.0, b.0);
            }
            Value(s)
        }
    }
    pub fn phi(&self, ty: Type, name: &str) -> Value {
        let n = cstr(name);
        // SAFETY: builder positioned.
        self.fp(Value(unsafe { LLVMBuildPhi(self.raw, ty.0, n.as_ptr()) }))
    }
    pub fn ret(&self, v: Value) -> Value {
        // SAFETY: builder positioned.
        Value(unsafe { LLVMBuildRet(self.raw, v.0) })
    }
    pub fn ret_void(&self) -> Value {
        // SAFETY: builder positioned.
        Value(unsafe { LLVMBuildRetVoid(self.raw) })
    }
    pub fn unreachable(&self) -> Value {
        // SAFETY: builder positioned.
        Value(unsafe { LLVMBuildUnreachable(self.raw) })
    }
    pub fn extract_element(&self, v: Value, i: Value) -> Value {
        let n = cstr("");
        // SAFETY: builder positioned.
        Value(unsafe { LLVMBuildExtractElement(self.raw, v.0, i.0, n.as_ptr()) })
    }
    pub fn insert_element(&self, v: Value, e: Value, i: Value) -> Value {
        let n = cstr("");
        // SAFETY: builder positioned.
        Value(unsafe { LLVMBuildInsertElement(self.raw, v.0, e.0, i.0, n.as_ptr()) })
    }
    pub fn shuffle_vector(&self, a: Value, b: Value, mask: Value) -> Value {
        let n = cstr("");
        // SAFETY: builder positioned; mask is a constant vector of i32.
        Value(unsafe { LLVMBuildShuffleVector(self.raw, a.0, b.0, mask.0, n.as_ptr()) })
    }
    pub fn extract_value(&self, v: Value, i: u32) -> Value {
        let n = cstr("");
        // SAFETY: builder positioned.
        Value(unsafe { LLVMBuildExtractValue(self.raw, v.0, i, n.as_ptr()) })
    }
    pub fn insert_value(&self, agg: Value, e: Value, i: u32) -> Value {
        let n = cstr("");
        // SAFETY: builder positioned.
        Value(unsafe { LLVMBuildInsertValue(self.raw, agg.0, e.0, i, n.as_ptr()) })
    }
    pub fn memset(&self, ptr: Value, byte: Value, len: Value, align: u32) -> Value {
        // SAFETY: builder positioned.
        Value(unsafe { LLVMBuildMemSet(self.raw, ptr.0, byte.0, len.0, align) })
    }
    pub fn memcpy(&self, dst: Value, src: Value, len: Value, align: u32) -> Value {
        // SAFETY: builder positioned.
        Value(unsafe { LLVMBuildMemCpy(self.raw, dst.0, align, src.0, align, len.0) })
    }
    pub fn memmove(&self, dst: Value, src: Value, len: Value, align: u32) -> Value {
        // SAFETY: builder positioned.
        Value(unsafe { LLVMBuildMemMove(self.raw, dst.0, align, src.0, align, len.0) })
    }
    /// `atomicrmw fadd ptr %p, %v monotonic`: an adjoint (or tangent) accumulation that
    /// other threads may perform on the same location at the same time.
    pub fn atomic_fadd(&self, p: Value, v: Value) -> Value {
        self.atomic_float(p, v, false)
    }
    /// `atomicrmw fadd` (or `fsub` when `sub`) `ptr %p, %v monotonic`.
    pub fn atomic_float(&self, p: Value, v: Value, sub: bool) -> Value {
        use llvm_sys::{LLVMAtomicOrdering, LLVMAtomicRMWBinOp};
        let op = if sub {
            LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpFSub
        } else {
            LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpFAdd
        };
        // SAFETY: builder positioned; `p` is a pointer and `v` a floating scalar (caller).
        Value(unsafe {
            LLVMBuildAtomicRMW(
                self.raw,
                op,
                p.0,
                v.0,
                LLVMAtomicOrdering::LLVMAtomicOrderingMonotonic,
                0,
            )
        })
    }
    /// `freeze v`: the same value where `v` is not poison.
    pub fn freeze(&self, v: Value) -> Value {
        let n = cstr("");
        // SAFETY: builder positioned; operand live.
        Value(unsafe { LLVMBuildFreeze(self.raw, v.0, n.as_ptr()) })
    }
    /// Generic binary op by opcode (used when re-emitting primal instructions).
    pub fn binop(&self, op: Opcode, a: Value, b: Value) -> Value {
        let n = cstr("");
        // SAFETY: builder positioned; opcode is a binary operator (caller).
        self.fp(Value(unsafe {
            LLVMBuildBinOp(self.raw, op, a.0, b.0, n.as_ptr())
        }))
    }
}

/// Constant helper: `i64` constant in a context.
pub fn i64_const(ctx: Context, x: i64) -> Value {
    ctx.i64().const_i64(x)
}
/// Constant helper: `i32` constant in a context.
pub fn i32_const(ctx: Context, x: i64) -> Value {
    ctx.i32().const_i64(x)
}
