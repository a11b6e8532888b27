//! Id newtypes over LLVM's C API: values, blocks, types, modules.
//!
//! Every handle is a `Copy` wrapper around an LLVM pointer; equality and hashing are by
//! pointer identity, which is what analyses keyed by values need. Handles do not own
//! anything: the module (and its context) must outlive them. This is the invariant every
//! `// SAFETY:` comment in this file relies on: a handle is only ever created from a live
//! LLVM object of the right kind, and the caller keeps the module alive while using it.

use std::ffi::{CStr, CString};
use std::fmt;

use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::{LLVMOpcode, LLVMTypeKind};

use crate::diag::SourceLoc;
use crate::Module;

pub use llvm_sys::LLVMIntPredicate as IntPredicate;
pub use llvm_sys::LLVMOpcode as Opcode;
pub use llvm_sys::LLVMRealPredicate as RealPredicate;

/// An LLVM value: instruction, argument, constant, global, function.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(pub(crate) LLVMValueRef);

/// A basic block.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Block(pub(crate) LLVMBasicBlockRef);

/// An LLVM type.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Type(pub(crate) LLVMTypeRef);

/// The LLVM context a module lives in.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Context(pub(crate) LLVMContextRef);

pub(crate) fn cstr(s: &str) -> CString {
    CString::new(s.replace('\0', "")).expect("interior NULs were removed")
}

fn own_message(p: *mut std::os::raw::c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: `p` is a NUL-terminated string allocated by LLVM that we now own.
    unsafe {
        let s = CStr::from_ptr(p).to_string_lossy().into_owned();
        LLVMDisposeMessage(p);
        s
    }
}

fn opt_value(v: LLVMValueRef) -> Option<Value> {
    if v.is_null() {
        None
    } else {
        Some(Value(v))
    }
}

// ---------------------------------------------------------------------------------------
// Types

/// The shape of a type, enough for the analyses and the transform.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeKind {
    Void,
    Half,
    Float,
    Double,
    /// x86_fp80, fp128 and other floats we do not differentiate.
    OtherFloat,
    Int(u32),
    Pointer,
    Vector,
    Array,
    Struct,
    Function,
    Label,
    Metadata,
    Other,
}

impl Type {
    pub fn raw(self) -> LLVMTypeRef {
        self.0
    }
    pub fn kind(self) -> TypeKind {
        // SAFETY: handle invariant (module alive).
        unsafe {
            match LLVMGetTypeKind(self.0) {
                LLVMTypeKind::LLVMVoidTypeKind => TypeKind::Void,
                LLVMTypeKind::LLVMHalfTypeKind => TypeKind::Half,
                LLVMTypeKind::LLVMFloatTypeKind => TypeKind::Float,
                LLVMTypeKind::LLVMDoubleTypeKind => TypeKind::Double,
                LLVMTypeKind::LLVMX86_FP80TypeKind
                | LLVMTypeKind::LLVMFP128TypeKind
                | LLVMTypeKind::LLVMPPC_FP128TypeKind
                | LLVMTypeKind::LLVMBFloatTypeKind => TypeKind::OtherFloat,
                LLVMTypeKind::LLVMIntegerTypeKind => TypeKind::Int(LLVMGetIntTypeWidth(self.0)),
                LLVMTypeKind::LLVMPointerTypeKind => TypeKind::Pointer,
                LLVMTypeKind::LLVMVectorTypeKind | LLVMTypeKind::LLVMScalableVectorTypeKind => {
                    TypeKind::Vector
                }
                LLVMTypeKind::LLVMArrayTypeKind => TypeKind::Array,
                LLVMTypeKind::LLVMStructTypeKind => TypeKind::Struct,
                LLVMTypeKind::LLVMFunctionTypeKind => TypeKind::Function,
                LLVMTypeKind::LLVMLabelTypeKind => TypeKind::Label,
                LLVMTypeKind::LLVMMetadataTypeKind => TypeKind::Metadata,
                _ => TypeKind::Other,
            }
        }
    }
    /// `float` or `double` (the floating-point types we differentiate), scalar only.
    pub fn is_fp_scalar(self) -> bool {
        matches!(self.kind(), TypeKind::Float | TypeKind::Double)
    }
    /// float/double or a vector of them.
    pub fn is_fp(self) -> bool {
        self.is_fp_scalar() || (self.kind() == TypeKind::Vector && self.element_type().is_fp_scalar())
    }
    pub fn is_pointer(self) -> bool {
        self.kind() == TypeKind::Pointer
    }
    /// A pointer or a vector of pointers (what vectorized gathers and scatters use).
    pub fn is_pointer_like(self) -> bool {
        self.is_pointer() || (self.kind() == TypeKind::Vector && self.element_type().is_pointer())
    }
    pub fn is_integer(self) -> bool {
        matches!(self.kind(), TypeKind::Int(_))
    }
    pub fn is_void(self) -> bool {
        self.kind() == TypeKind::Void
    }
    pub fn int_width(self) -> Option<u32> {
        match self.kind() {
            TypeKind::Int(w) => Some(w),
            _ => None,
        }
    }
    /// Element type of a vector or array.
    pub fn element_type(self) -> Type {
        // SAFETY: handle invariant; only called on sequential types.
        Type(unsafe { LLVMGetElementType(self.0) })
    }
    pub fn vector_len(self) -> u32 {
        // SAFETY: handle invariant.
        unsafe { LLVMGetVectorSize(self.0) }
    }
    pub fn array_len(self) -> u64 {
        // SAFETY: handle invariant.
        unsafe { LLVMGetArrayLength2(self.0) }
    }
    pub fn struct_fields(self) -> Vec<Type> {
        // SAFETY: handle invariant; buffer sized by LLVMCountStructElementTypes.
        unsafe {
            let n = LLVMCountStructElementTypes(self.0) as usize;
            let mut v = vec![std::ptr::null_mut(); n];
            LLVMGetStructElementTypes(self.0, v.as_mut_ptr());
            v.into_iter().map(Type).collect()
        }
    }
    pub fn struct_name(self) -> Option<String> {
        // SAFETY: handle invariant.
        unsafe {
            let p = LLVMGetStructName(self.0);
            if p.is_null() {
                None
            } else {
                Some(CStr::from_ptr(p).to_string_lossy().into_owned())
            }
        }
    }
    pub fn return_type(self) -> Type {
        // SAFETY: handle invariant; only on function types.
        Type(unsafe { LLVMGetReturnType(self.0) })
    }
    pub fn param_types(self) -> Vec<Type> {
        // SAFETY: buffer sized by LLVMCountParamTypes.
        unsafe {
            let n = LLVMCountParamTypes(self.0) as usize;
            let mut v = vec![std::ptr::null_mut(); n];
            LLVMGetParamTypes(self.0, v.as_mut_ptr());
            v.into_iter().map(Type).collect()
        }
    }
    pub fn is_vararg(self) -> bool {
        // SAFETY: handle invariant.
        unsafe { LLVMIsFunctionVarArg(self.0) != 0 }
    }
    /// Does any part of this type hold a float or double?
    pub fn contains_fp(self) -> bool {
        match self.kind() {
            TypeKind::Float | TypeKind::Double => true,
            TypeKind::Vector | TypeKind::Array => self.element_type().contains_fp(),
            TypeKind::Struct => self.struct_fields().into_iter().any(|t| t.contains_fp()),
            _ => false,
        }
    }
    /// Does any part of this type hold a pointer?
    pub fn contains_pointer(self) -> bool {
        match self.kind() {
            TypeKind::Pointer => true,
            TypeKind::Vector | TypeKind::Array => self.element_type().contains_pointer(),
            TypeKind::Struct => self.struct_fields().into_iter().any(|t| t.contains_pointer()),
            _ => false,
        }
    }
    pub fn context(self) -> Context {
        // SAFETY: handle invariant.
        Context(unsafe { LLVMGetTypeContext(self.0) })
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // SAFETY: handle invariant; the message is owned and disposed.
        let s = own_message(unsafe { LLVMPrintTypeToString(self.0) });
        f.write_str(&s)
    }
}
impl fmt::Debug for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Type({self})")
    }
}

impl Context {
    pub fn raw(self) -> LLVMContextRef {
        self.0
    }
    pub fn f64(self) -> Type {
        // SAFETY: context alive.
        Type(unsafe { LLVMDoubleTypeInContext(self.0) })
    }
    pub fn f32(self) -> Type {
        // SAFETY: context alive.
        Type(unsafe { LLVMFloatTypeInContext(self.0) })
    }
    pub fn int(self, bits: u32) -> Type {
        // SAFETY: context alive.
        Type(unsafe { LLVMIntTypeInContext(self.0, bits) })
    }
    pub fn i1(self) -> Type {
        self.int(1)
    }
    pub fn i8(self) -> Type {
        self.int(8)
    }
    pub fn i32(self) -> Type {
        self.int(32)
    }
    pub fn i64(self) -> Type {
        self.int(64)
    }
    pub fn ptr(self) -> Type {
        // SAFETY: context alive.
        Type(unsafe { LLVMPointerTypeInContext(self.0, 0) })
    }
    pub fn void(self) -> Type {
        // SAFETY: context alive.
        Type(unsafe { LLVMVoidTypeInContext(self.0) })
    }
    pub fn struct_type(self, fields: &[Type]) -> Type {
        let mut raw: Vec<LLVMTypeRef> = fields.iter().map(|t| t.0).collect();
        // SAFETY: context alive; the array outlives the call.
        Type(unsafe { LLVMStructTypeInContext(self.0, raw.as_mut_ptr(), raw.len() as u32, 0) })
    }
    pub fn array_type(self, elem: Type, n: u64) -> Type {
        let _ = self;
        // SAFETY: handle invariant.
        Type(unsafe { LLVMArrayType2(elem.0, n) })
    }
    pub fn vector_type(self, elem: Type, n: u32) -> Type {
        let _ = self;
        // SAFETY: handle invariant.
        Type(unsafe { LLVMVectorType(elem.0, n) })
    }
    pub fn function_type(self, ret: Type, params: &[Type], vararg: bool) -> Type {
        let mut raw: Vec<LLVMTypeRef> = params.iter().map(|t| t.0).collect();
        // SAFETY: the array outlives the call.
        Type(unsafe { LLVMFunctionType(ret.0, raw.as_mut_ptr(), raw.len() as u32, vararg as i32) })
    }
    pub fn md_kind(self, name: &str) -> u32 {
        // SAFETY: context alive; the name is passed with its length.
        unsafe { LLVMGetMDKindIDInContext(self.0, name.as_ptr() as *const _, name.len() as u32) }
    }
}

// ---------------------------------------------------------------------------------------
// Constants

impl Type {
    /// A floating constant of this (scalar or vector) type; vectors get a splat.
    pub fn const_float(self, x: f64) -> Value {
        if self.kind() == TypeKind::Vector {
            let e = self.element_type().const_float(x);
            return Value::const_splat(e, self.vector_len());
        }
        // SAFETY: handle invariant; only float types reach here.
        Value(unsafe { LLVMConstReal(self.0, x) })
    }
    pub fn const_int(self, x: u64) -> Value {
        if self.kind() == TypeKind::Vector {
            let e = self.element_type().const_int(x);
            return Value::const_splat(e, self.vector_len());
        }
        // SAFETY: handle invariant.
        Value(unsafe { LLVMConstInt(self.0, x, 0) })
    }
    pub fn const_i64(self, x: i64) -> Value {
        // SAFETY: handle invariant.
        Value(unsafe { LLVMConstInt(self.0, x as u64, 1) })
    }
    /// The all-zero value of any type (0.0, null, zeroinitializer).
    pub fn zero(self) -> Value {
        // SAFETY: handle invariant.
        Value(unsafe { LLVMConstNull(self.0) })
    }
    pub fn undef(self) -> Value {
        // SAFETY: handle invariant.
        Value(unsafe { LLVMGetUndef(self.0) })
    }
    pub fn poison(self) -> Value {
        // SAFETY: handle invariant.
        Value(unsafe { LLVMGetPoison(self.0) })
    }
}

// ---------------------------------------------------------------------------------------
// Values

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // SAFETY: handle invariant; the message is owned and disposed.
        let s = own_message(unsafe { LLVMPrintValueToString(self.0) });
        f.write_str(s.trim())
    }
}
impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Value({self})")
    }
}

impl Value {
    pub fn raw(self) -> LLVMValueRef {
        self.0
    }
    /// # Safety
    /// `raw` must be a live LLVM value.
    pub unsafe fn from_raw(raw: LLVMValueRef) -> Value {
        Value(raw)
    }
    /// A constant vector of the given elements.
    pub fn const_vector(elems: &[Value]) -> Value {
        let mut v: Vec<LLVMValueRef> = elems.iter().map(|x| x.0).collect();
        // SAFETY: array outlives the call.
        Value(unsafe { LLVMConstVector(v.as_mut_ptr(), v.len() as u32) })
    }
    pub fn const_splat(elem: Value, n: u32) -> Value {
        let mut v = vec![elem.0; n as usize];
        // SAFETY: array outlives the call.
        Value(unsafe { LLVMConstVector(v.as_mut_ptr(), n) })
    }
    pub fn const_struct(ctx: Context, fields: &[Value]) -> Value {
        let mut v: Vec<LLVMValueRef> = fields.iter().map(|x| x.0).collect();
        // SAFETY: array outlives the call.
        Value(unsafe { LLVMConstStructInContext(ctx.0, v.as_mut_ptr(), v.len() as u32, 0) })
    }
    pub fn ty(self) -> Type {
        // SAFETY: handle invariant.
        Type(unsafe { LLVMTypeOf(self.0) })
    }
    pub fn name(self) -> String {
        // SAFETY: handle invariant; LLVM returns a pointer+len into its own storage.
        unsafe {
            let mut len = 0usize;
            let p = LLVMGetValueName2(self.0, &mut len);
            if p.is_null() {
                return String::new();
            }
            String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned()
        }
    }
    pub fn set_name(self, name: &str) {
        // SAFETY: handle invariant; pointer+len.
        unsafe { LLVMSetValueName2(self.0, name.as_ptr() as *const _, name.len()) }
    }
    pub fn is_instruction(self) -> bool {
        // SAFETY: handle invariant.
        unsafe { !LLVMIsAInstruction(self.0).is_null() }
    }
    pub fn is_argument(self) -> bool {
        // SAFETY: handle invariant.
        unsafe { !LLVMIsAArgument(self.0).is_null() }
    }
    pub fn is_constant(self) -> bool {
        // SAFETY: handle invariant.
        unsafe { LLVMIsConstant(self.0) != 0 }
    }
    pub fn is_function(self) -> bool {
        // SAFETY: handle invariant.
        unsafe { !LLVMIsAFunction(self.0).is_null() }
    }
    pub fn is_global_variable(self) -> bool {
        // SAFETY: handle invariant.
        unsafe { !LLVMIsAGlobalVariable(self.0).is_null() }
    }
    pub fn is_global_alias(self) -> bool {
        // SAFETY: handle invariant.
        unsafe { !LLVMIsAGlobalAlias(self.0).is_null() }
    }
    pub fn is_undef(self) -> bool {
        // SAFETY: handle invariant.
        unsafe { LLVMIsUndef(self.0) != 0 || !LLVMIsAPoisonValue(self.0).is_null() }
    }
    pub fn is_constant_expr(self) -> bool {
        // SAFETY: handle invariant.
        unsafe { !LLVMIsAConstantExpr(self.0).is_null() }
    }
    pub fn is_inline_asm(self) -> bool {
        // SAFETY: handle invariant.
        unsafe { !LLVMIsAInlineAsm(self.0).is_null() }
    }
    pub fn is_basic_block(self) -> bool {
        // SAFETY: handle invariant.
        unsafe { LLVMValueIsBasicBlock(self.0) != 0 }
    }
    pub fn is_metadata(self) -> bool {
        // SAFETY: handle invariant.
        unsafe { LLVMGetValueKind(self.0) == llvm_sys::LLVMValueKind::LLVMMetadataAsValueValueKind }
    }
    pub fn as_block(self) -> Block {
        // SAFETY: caller checked `is_basic_block`.
        Block(unsafe { LLVMValueAsBasicBlock(self.0) })
    }
    /// The value of a constant integer (sign-extended), if it is one.
    pub fn const_int_value(self) -> Option<i64> {
        // SAFETY: handle invariant.
        unsafe {
            if LLVMIsAConstantInt(self.0).is_null() {
                None
            } else {
                Some(LLVMConstIntGetSExtValue(self.0))
            }
        }
    }
    /// The value of a floating constant, if it is one.
    pub fn const_fp_value(self) -> Option<f64> {
        // SAFETY: handle invariant.
        unsafe {
            if LLVMIsAConstantFP(self.0).is_null() {
                None
            } else {
                let mut lost = 0;
                Some(LLVMConstRealGetDouble(self.0, &mut lost))
            }
        }
    }

    // --- operands and uses

    pub fn num_operands(self) -> u32 {
        // SAFETY: handle invariant.
        unsafe { LLVMGetNumOperands(self.0) as u32 }
    }
    pub fn operand(self, i: u32) -> Value {
        // SAFETY: caller keeps i < num_operands.
        Value(unsafe { LLVMGetOperand(self.0, i) })
    }
    pub fn operands(self) -> Vec<Value> {
        (0..self.num_operands()).map(|i| self.operand(i)).collect()
    }
    pub fn set_operand(self, i: u32, v: Value) {
        // SAFETY: caller keeps i < num_operands and the types equal.
        unsafe { LLVMSetOperand(self.0, i, v.0) }
    }
    /// Instructions (and constants) that use this value.
    pub fn users(self) -> Vec<Value> {
        let mut out = Vec::new();
        // SAFETY: walking LLVM's use list of a live value.
        unsafe {
            let mut u = LLVMGetFirstUse(self.0);
            while !u.is_null() {
                out.push(Value(LLVMGetUser(u)));
                u = LLVMGetNextUse(u);
            }
        }
        out
    }
    pub fn replace_all_uses_with(self, new: Value) {
        // SAFETY: handle invariant; types must match (caller).
        unsafe { LLVMReplaceAllUsesWith(self.0, new.0) }
    }

    // --- instructions

    pub fn opcode(self) -> Option<Opcode> {
        if self.is_instruction() {
            // SAFETY: it is an instruction.
            Some(unsafe { LLVMGetInstructionOpcode(self.0) })
        } else {
            None
        }
    }
    /// Opcode of a constant expression (`getelementptr`, `bitcast` ...).
    pub fn const_opcode(self) -> Option<Opcode> {
        if self.is_constant_expr() {
            // SAFETY: it is a constant expression.
            Some(unsafe { LLVMGetConstOpcode(self.0) })
        } else {
            None
        }
    }
    pub fn parent_block(self) -> Block {
        // SAFETY: only called on instructions.
        Block(unsafe { LLVMGetInstructionParent(self.0) })
    }
    pub fn parent_function(self) -> Value {
        if self.is_argument() {
            // SAFETY: it is an argument.
            return Value(unsafe { LLVMGetParamParent(self.0) });
        }
        self.parent_block().parent()
    }
    pub fn next_instruction(self) -> Option<Value> {
        // SAFETY: handle invariant.
        opt_value(unsafe { LLVMGetNextInstruction(self.0) })
    }
    pub fn prev_instruction(self) -> Option<Value> {
        // SAFETY: handle invariant.
        opt_value(unsafe { LLVMGetPreviousInstruction(self.0) })
    }
    pub fn erase(self) {
        // SAFETY: the instruction has no remaining uses (caller); it is removed and freed.
        unsafe { LLVMInstructionEraseFromParent(self.0) }
    }
    /// Detaches the instruction from its block (to re-insert it elsewhere with a builder).
    pub fn remove_from_parent(self) {
        // SAFETY: live instruction; it stays alive unattached until re-inserted.
        unsafe { LLVMInstructionRemoveFromParent(self.0) }
    }
    /// A copy of this instruction (same operands), not inserted anywhere.
    pub fn clone_instruction(self) -> Value {
        // SAFETY: handle invariant.
        Value(unsafe { LLVMInstructionClone(self.0) })
    }
    pub fn is_terminator(self) -> bool {
        // SAFETY: handle invariant.
        unsafe { !LLVMIsATerminatorInst(self.0).is_null() }
    }
    pub fn num_successors(self) -> u32 {
        // SAFETY: only on terminators.
        unsafe { LLVMGetNumSuccessors(self.0) }
    }
    pub fn successor(self, i: u32) -> Block {
        // SAFETY: i < num_successors.
        Block(unsafe { LLVMGetSuccessor(self.0, i) })
    }
    pub fn set_successor(self, i: u32, b: Block) {
        // SAFETY: i < num_successors.
        unsafe { LLVMSetSuccessor(self.0, i, b.0) }
    }
    pub fn successors(self) -> Vec<Block> {
        (0..self.num_successors()).map(|i| self.successor(i)).collect()
    }
    pub fn fcmp_predicate(self) -> RealPredicate {
        // SAFETY: only on fcmp.
        unsafe { LLVMGetFCmpPredicate(self.0) }
    }
    pub fn icmp_predicate(self) -> IntPredicate {
        // SAFETY: only on icmp.
        unsafe { LLVMGetICmpPredicate(self.0) }
    }
    pub fn allocated_type(self) -> Type {
        // SAFETY: only on alloca.
        Type(unsafe { LLVMGetAllocatedType(self.0) })
    }
    pub fn gep_source_type(self) -> Type {
        // SAFETY: only on GEP instructions / constant expressions.
        Type(unsafe { LLVMGetGEPSourceElementType(self.0) })
    }
    /// Constant indices of extractvalue/insertvalue.
    pub fn aggregate_indices(self) -> Vec<u32> {
        // SAFETY: only on extractvalue/insertvalue; LLVM owns the index array.
        unsafe {
            let n = LLVMGetNumIndices(self.0) as usize;
            let p = LLVMGetIndices(self.0);
            std::slice::from_raw_parts(p, n).to_vec()
        }
    }
    pub fn shuffle_mask(self) -> Vec<Option<u32>> {
        // SAFETY: only on shufflevector.
        unsafe {
            let n = LLVMGetNumMaskElements(self.0);
            let undef = LLVMGetUndefMaskElem();
            (0..n)
                .map(|i| {
                    let m = LLVMGetMaskValue(self.0, i);
                    if m == undef || m < 0 {
                        None
                    } else {
                        Some(m as u32)
                    }
                })
                .collect()
        }
    }
    pub fn is_volatile(self) -> bool {
        // SAFETY: only on load/store.
        unsafe { LLVMGetVolatile(self.0) != 0 }
    }
    pub fn alignment(self) -> u32 {
        // SAFETY: only on load/store/alloca.
        unsafe { LLVMGetAlignment(self.0) }
    }
    pub fn set_alignment(self, a: u32) {
        // SAFETY: only on load/store/alloca.
        unsafe { LLVMSetAlignment(self.0, a) }
    }

    // --- calls

    pub fn is_call(self) -> bool {
        self.opcode() == Some(Opcode::LLVMCall)
    }
    pub fn called_value(self) -> Value {
        // SAFETY: only on calls/invokes.
        Value(unsafe { LLVMGetCalledValue(self.0) })
    }
    /// The callee when it is a known function (looking through aliases).
    pub fn called_function(self) -> Option<Value> {
        let mut c = self.called_value();
        for _ in 0..4 {
            if c.is_function() {
                return Some(c);
            }
            if c.is_global_alias() {
                // SAFETY: it is an alias.
                c = Value(unsafe { LLVMAliasGetAliasee(c.0) });
                continue;
            }
            break;
        }
        None
    }
    pub fn num_call_args(self) -> u32 {
        // SAFETY: only on calls.
        unsafe { LLVMGetNumArgOperands(self.0) }
    }
    pub fn call_args(self) -> Vec<Value> {
        (0..self.num_call_args()).map(|i| self.operand(i)).collect()
    }
    pub fn called_function_type(self) -> Type {
        // SAFETY: only on calls.
        Type(unsafe { LLVMGetCalledFunctionType(self.0) })
    }
    pub fn is_inline_asm_call(self) -> bool {
        self.called_value().is_inline_asm()
    }
    /// Type of a call-site `sret(T)` attribute on argument `i`, if present.
    pub fn call_sret_type(self, i: u32) -> Option<Type> {
        let kind = attr_kind("sret");
        // SAFETY: attribute query on a live call; argument indices start at 1.
        unsafe {
            let a = LLVMGetCallSiteEnumAttribute(self.0, i + 1, kind);
            if a.is_null() {
                None
            } else {
                Some(Type(llvm_sys::core::LLVMGetTypeAttributeValue(a)))
            }
        }
    }

    /// The normal and unwind destinations of an `invoke`.
    pub fn invoke_dests(self) -> (Block, Block) {
        // SAFETY: only on invokes.
        unsafe { (Block(LLVMGetNormalDest(self.0)), Block(LLVMGetUnwindDest(self.0))) }
    }

    /// Copies the call-site attributes (function, return, parameters) of call/invoke
    /// `self` to call `to`.
    pub fn copy_call_site_attributes(self, to: Value) {
        let n = self.num_call_args();
        let indices = [llvm_sys::LLVMAttributeFunctionIndex, llvm_sys::LLVMAttributeReturnIndex]
            .into_iter()
            .chain(1..=n);
        for idx in indices {
            // SAFETY: attribute queries on live call sites; buffer sized by the count.
            unsafe {
                let count = LLVMGetCallSiteAttributeCount(self.0, idx) as usize;
                let mut attrs = vec![std::ptr::null_mut(); count];
                if count > 0 {
                    LLVMGetCallSiteAttributes(self.0, idx, attrs.as_mut_ptr());
                }
                for a in attrs {
                    LLVMAddCallSiteAttribute(to.0, idx, a);
                }
            }
        }
    }

    // --- phi

    pub fn incoming(self) -> Vec<(Value, Block)> {
        // SAFETY: only on phi nodes.
        unsafe {
            let n = LLVMCountIncoming(self.0);
            (0..n).map(|i| (Value(LLVMGetIncomingValue(self.0, i)), Block(LLVMGetIncomingBlock(self.0, i)))).collect()
        }
    }
    pub fn add_incoming(self, v: Value, b: Block) {
        let mut vs = [v.0];
        let mut bs = [b.0];
        // SAFETY: phi node; arrays outlive the call.
        unsafe { LLVMAddIncoming(self.0, vs.as_mut_ptr(), bs.as_mut_ptr(), 1) }
    }

    // --- metadata and debug info

    /// The source location of an instruction, from its `!dbg` attachment.
    pub fn source_loc(self) -> Option<SourceLoc> {
        if !self.is_instruction() {
            return None;
        }
        // SAFETY: instruction; LLVM returns borrowed strings with lengths.
        unsafe {
            let line = LLVMGetDebugLocLine(self.0);
            if line == 0 {
                return None;
            }
            let mut len = 0u32;
            let p = LLVMGetDebugLocFilename(self.0, &mut len);
            let file = if p.is_null() {
                String::from("<unknown>")
            } else {
                String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len as usize)).into_owned()
            };
            Some(SourceLoc { file, line, col: LLVMGetDebugLocColumn(self.0) })
        }
    }
    /// Drop the `!dbg` attachment (used on code copied into generated functions).
    pub fn clear_debug_loc(self) {
        // SAFETY: instruction; a null location removes it.
        unsafe { llvm_sys::debuginfo::LLVMInstructionSetDebugLoc(self.0, std::ptr::null_mut()) }
    }
    pub fn metadata(self, kind: u32) -> Option<Value> {
        // SAFETY: instruction.
        opt_value(unsafe { LLVMGetMetadata(self.0, kind) })
    }
    pub fn set_metadata(self, kind: u32, md: Option<Value>) {
        // SAFETY: instruction; null removes.
        unsafe { LLVMSetMetadata(self.0, kind, md.map_or(std::ptr::null_mut(), |m| m.0)) }
    }
    /// Operands of an MDNode wrapped as a value (missing operands are `None`).
    pub fn md_node_operands(self) -> Vec<Option<Value>> {
        // SAFETY: caller passes metadata-as-value of an MDNode.
        unsafe {
            if LLVMIsAMDNode(self.0).is_null() {
                return Vec::new();
            }
            let n = LLVMGetMDNodeNumOperands(self.0) as usize;
            let mut v = vec![std::ptr::null_mut(); n];
            LLVMGetMDNodeOperands(self.0, v.as_mut_ptr());
            v.into_iter().map(opt_value).collect()
        }
    }
    pub fn md_string(self) -> Option<String> {
        // SAFETY: borrowed string with length.
        unsafe {
            let mut len = 0u32;
            let p = LLVMGetMDString(self.0, &mut len);
            if p.is_null() {
                None
            } else {
                Some(String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len as usize)).into_owned())
            }
        }
    }

    // --- functions

    pub fn params(self) -> Vec<Value> {
        // SAFETY: only on functions.
        unsafe { (0..LLVMCountParams(self.0)).map(|i| Value(LLVMGetParam(self.0, i))).collect() }
    }
    pub fn blocks(self) -> Vec<Block> {
        let mut out = Vec::new();
        // SAFETY: walking the block list of a live function.
        unsafe {
            let mut b = LLVMGetFirstBasicBlock(self.0);
            while !b.is_null() {
                out.push(Block(b));
                b = LLVMGetNextBasicBlock(b);
            }
        }
        out
    }
    pub fn entry_block(self) -> Option<Block> {
        // SAFETY: function.
        unsafe {
            if LLVMCountBasicBlocks(self.0) == 0 {
                None
            } else {
                Some(Block(LLVMGetEntryBasicBlock(self.0)))
            }
        }
    }
    pub fn is_declaration(self) -> bool {
        // SAFETY: global value.
        unsafe { LLVMIsDeclaration(self.0) != 0 }
    }
    /// The function's own type (not the pointer type).
    pub fn function_type(self) -> Type {
        // SAFETY: function.
        Type(unsafe { LLVMGlobalGetValueType(self.0) })
    }
    pub fn global_value_type(self) -> Type {
        // SAFETY: global value.
        Type(unsafe { LLVMGlobalGetValueType(self.0) })
    }
    pub fn intrinsic_id(self) -> u32 {
        // SAFETY: function.
        unsafe { LLVMGetIntrinsicID(self.0) }
    }
    pub fn delete_function(self) {
        // SAFETY: function without remaining uses (caller).
        unsafe { LLVMDeleteFunction(self.0) }
    }
    pub fn set_linkage_internal(self) {
        // SAFETY: global value.
        unsafe { LLVMSetLinkage(self.0, llvm_sys::LLVMLinkage::LLVMInternalLinkage) }
    }
    pub fn set_linkage_private(self) {
        // SAFETY: global value.
        unsafe { LLVMSetLinkage(self.0, llvm_sys::LLVMLinkage::LLVMPrivateLinkage) }
    }
    pub fn has_fn_attr(self, name: &str) -> bool {
        let k = attr_kind(name);
        // SAFETY: function attribute query.
        unsafe { !LLVMGetEnumAttributeAtIndex(self.0, llvm_sys::LLVMAttributeFunctionIndex, k).is_null() }
    }
    pub fn remove_fn_attr(self, name: &str) {
        let k = attr_kind(name);
        // SAFETY: function attribute removal.
        unsafe { LLVMRemoveEnumAttributeAtIndex(self.0, llvm_sys::LLVMAttributeFunctionIndex, k) }
    }
    pub fn add_fn_attr(self, name: &str) {
        let k = attr_kind(name);
        // SAFETY: creating an enum attribute in the function's context.
        unsafe {
            let ctx = LLVMGetTypeContext(LLVMTypeOf(self.0));
            let a = LLVMCreateEnumAttribute(ctx, k, 0);
            LLVMAddAttributeAtIndex(self.0, llvm_sys::LLVMAttributeFunctionIndex, a);
        }
    }
    /// Does parameter `i` carry the enum attribute `name` (e.g. "noalias", "readonly")?
    pub fn has_param_attr(self, i: u32, name: &str) -> bool {
        let k = attr_kind(name);
        // SAFETY: attribute query; parameter indices start at 1.
        unsafe { !LLVMGetEnumAttributeAtIndex(self.0, i + 1, k).is_null() }
    }
    /// The raw value of the function's `memory(...)` attribute, if present. LLVM encodes
    /// it as 2 bits per location (argmem, inaccessible, other): 0 = none, 1 = read,
    /// 2 = write, 3 = readwrite.
    pub fn memory_effects(self) -> Option<u64> {
        let k = attr_kind("memory");
        // SAFETY: attribute query.
        unsafe {
            let a = LLVMGetEnumAttributeAtIndex(self.0, llvm_sys::LLVMAttributeFunctionIndex, k);
            if a.is_null() {
                None
            } else {
                Some(LLVMGetEnumAttributeValue(a))
            }
        }
    }
    pub fn set_subprogram_none(self) {
        // SAFETY: function; null clears the attachment.
        unsafe { llvm_sys::debuginfo::LLVMSetSubprogram(self.0, std::ptr::null_mut()) }
    }

    // --- globals

    pub fn is_global_constant(self) -> bool {
        // SAFETY: global variable.
        unsafe { LLVMIsGlobalConstant(self.0) != 0 }
    }
    pub fn initializer(self) -> Option<Value> {
        // SAFETY: global variable.
        opt_value(unsafe { LLVMGetInitializer(self.0) })
    }
    pub fn set_initializer(self, v: Value) {
        // SAFETY: global variable; types must match (caller).
        unsafe { LLVMSetInitializer(self.0, v.0) }
    }
}


pub fn attr_kind(name: &str) -> u32 {
    // SAFETY: pointer+len.
    unsafe { LLVMGetEnumAttributeKindForName(name.as_ptr() as *const _, name.len()) }
}

// ---------------------------------------------------------------------------------------
// Blocks

impl fmt::Debug for Block {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Block({})", self.name())
    }
}

impl Block {
    pub fn raw(self) -> LLVMBasicBlockRef {
        self.0
    }
    pub fn name(self) -> String {
        // SAFETY: borrowed C string.
        unsafe {
            let p = LLVMGetBasicBlockName(self.0);
            if p.is_null() {
                String::new()
            } else {
                CStr::from_ptr(p).to_string_lossy().into_owned()
            }
        }
    }
    pub fn as_value(self) -> Value {
        // SAFETY: block.
        Value(unsafe { LLVMBasicBlockAsValue(self.0) })
    }
    pub fn parent(self) -> Value {
        // SAFETY: block inside a function.
        Value(unsafe { LLVMGetBasicBlockParent(self.0) })
    }
    pub fn instructions(self) -> Vec<Value> {
        let mut out = Vec::new();
        // SAFETY: walking the instruction list of a live block.
        unsafe {
            let mut i = LLVMGetFirstInstruction(self.0);
            while !i.is_null() {
                out.push(Value(i));
                i = LLVMGetNextInstruction(i);
            }
        }
        out
    }
    pub fn first_instruction(self) -> Option<Value> {
        // SAFETY: block.
        opt_value(unsafe { LLVMGetFirstInstruction(self.0) })
    }
    pub fn terminator(self) -> Option<Value> {
        // SAFETY: block.
        opt_value(unsafe { LLVMGetBasicBlockTerminator(self.0) })
    }
    pub fn successors(self) -> Vec<Block> {
        self.terminator().map(|t| t.successors()).unwrap_or_default()
    }
    /// The first instruction that is not a phi node.
    pub fn first_non_phi(self) -> Option<Value> {
        self.instructions().into_iter().find(|i| i.opcode() != Some(Opcode::LLVMPHI))
    }
    pub fn phis(self) -> Vec<Value> {
        self.instructions().into_iter().take_while(|i| i.opcode() == Some(Opcode::LLVMPHI)).collect()
    }
    pub fn delete(self) {
        // SAFETY: the block has no remaining uses (caller).
        unsafe { LLVMDeleteBasicBlock(self.0) }
    }
    /// A new empty block placed just before this one in its function.
    pub fn insert_before(self, ctx: Context, name: &str) -> Block {
        let n = cstr(name);
        // SAFETY: live block and context.
        Block(unsafe { LLVMInsertBasicBlockInContext(ctx.0, self.0, n.as_ptr()) })
    }
}

// ---------------------------------------------------------------------------------------
// Modules

impl Module {
    pub fn context(self) -> Context {
        // SAFETY: module alive.
        Context(unsafe { LLVMGetModuleContext(self.0) })
    }
    pub fn functions(self) -> Vec<Value> {
        let mut out = Vec::new();
        // SAFETY: walking the function list of a live module.
        unsafe {
            let mut f = LLVMGetFirstFunction(self.0);
            while !f.is_null() {
                out.push(Value(f));
                f = LLVMGetNextFunction(f);
            }
        }
        out
    }
    pub fn globals(self) -> Vec<Value> {
        let mut out = Vec::new();
        // SAFETY: walking the global list of a live module.
        unsafe {
            let mut g = LLVMGetFirstGlobal(self.0);
            while !g.is_null() {
                out.push(Value(g));
                g = LLVMGetNextGlobal(g);
            }
        }
        out
    }
    pub fn function(self, name: &str) -> Option<Value> {
        let c = cstr(name);
        // SAFETY: module alive; C string outlives the call.
        opt_value(unsafe { LLVMGetNamedFunction(self.0, c.as_ptr()) })
    }
    pub fn global(self, name: &str) -> Option<Value> {
        let c = cstr(name);
        // SAFETY: module alive.
        opt_value(unsafe { LLVMGetNamedGlobal(self.0, c.as_ptr()) })
    }
    /// Adds a function definition shell (no blocks) or declaration.
    pub fn add_function(self, name: &str, fn_ty: Type) -> Value {
        let c = cstr(name);
        // SAFETY: module alive.
        Value(unsafe { LLVMAddFunction(self.0, c.as_ptr(), fn_ty.0) })
    }
    /// Gets or declares a function of this name and type.
    pub fn get_or_declare(self, name: &str, fn_ty: Type) -> Value {
        match self.function(name) {
            Some(f) => f,
            None => self.add_function(name, fn_ty),
        }
    }
    pub fn add_global(self, name: &str, ty: Type) -> Value {
        let c = cstr(name);
        // SAFETY: module alive.
        Value(unsafe { LLVMAddGlobal(self.0, ty.0, c.as_ptr()) })
    }
    /// A private constant NUL-terminated string; returns the global (a pointer to it).
    pub fn add_string(self, name: &str, text: &str) -> Value {
        let ctx = self.context();
        // SAFETY: context alive; pointer+len; the global takes the constant as initializer.
        unsafe {
            let init = LLVMConstStringInContext2(ctx.0, text.as_ptr() as *const _, text.len(), 0);
            let g = self.add_global(name, Type(LLVMTypeOf(init)));
            LLVMSetInitializer(g.0, init);
            LLVMSetGlobalConstant(g.0, 1);
            LLVMSetLinkage(g.0, llvm_sys::LLVMLinkage::LLVMPrivateLinkage);
            g
        }
    }
    /// The declaration of an overloaded LLVM intrinsic (e.g. `llvm.cos` at `double`).
    pub fn intrinsic(self, name: &str, overloads: &[Type]) -> Option<Value> {
        // SAFETY: pointer+len; overload array outlives the call.
        unsafe {
            let id = LLVMLookupIntrinsicID(name.as_ptr() as *const _, name.len());
            if id == 0 {
                return None;
            }
            let mut tys: Vec<LLVMTypeRef> = overloads.iter().map(|t| t.0).collect();
            opt_value(LLVMGetIntrinsicDeclaration(self.0, id, tys.as_mut_ptr(), tys.len()))
        }
    }
    /// Store size of a type in bytes, per the module's data layout.
    pub fn store_size(self, ty: Type) -> u64 {
        // SAFETY: module alive; the data layout is owned by the module.
        unsafe { llvm_sys::target::LLVMStoreSizeOfType(llvm_sys::target::LLVMGetModuleDataLayout(self.0), ty.0) }
    }
    /// ABI allocation size of a type in bytes (what arrays of it use per element).
    pub fn alloc_size(self, ty: Type) -> u64 {
        // SAFETY: module alive.
        unsafe { llvm_sys::target::LLVMABISizeOfType(llvm_sys::target::LLVMGetModuleDataLayout(self.0), ty.0) }
    }
    /// Byte offset of field `i` of a struct type.
    pub fn field_offset(self, sty: Type, i: u32) -> u64 {
        // SAFETY: module alive; sty is a struct type.
        unsafe { llvm_sys::target::LLVMOffsetOfElement(llvm_sys::target::LLVMGetModuleDataLayout(self.0), sty.0, i) }
    }
    /// The module's data layout string.
    pub fn data_layout(self) -> String {
        // SAFETY: module alive; borrowed C string.
        unsafe { CStr::from_ptr(LLVMGetDataLayoutStr(self.0)).to_string_lossy().into_owned() }
    }
    /// The module's target triple.
    pub fn target_triple(self) -> String {
        // SAFETY: module alive; borrowed C string.
        unsafe { CStr::from_ptr(LLVMGetTarget(self.0)).to_string_lossy().into_owned() }
    }
    /// The module printed as textual IR.
    pub fn to_ir_string(self) -> String {
        // SAFETY: module alive; owned message.
        own_message(unsafe { LLVMPrintModuleToString(self.0) })
    }
    /// Runs LLVM's verifier; `Err` carries its message.
    pub fn verify(self) -> Result<(), String> {
        let mut msg = std::ptr::null_mut();
        // SAFETY: module alive; message owned.
        let bad = unsafe {
            llvm_sys::analysis::LLVMVerifyModule(
                self.0,
                llvm_sys::analysis::LLVMVerifierFailureAction::LLVMReturnStatusAction,
                &mut msg,
            )
        };
        let text = own_message(msg);
        if bad != 0 {
            Err(text)
        } else {
            Ok(())
        }
    }
}

/// Verifies one function; `false` when broken.
pub fn verify_function(f: Value) -> bool {
    // SAFETY: live function; print nothing.
    unsafe {
        llvm_sys::analysis::LLVMVerifyFunction(
            f.0,
            llvm_sys::analysis::LLVMVerifierFailureAction::LLVMReturnStatusAction,
        ) == 0
    }
}

/// Runs a new-pass-manager pipeline string (e.g. `"sroa,mem2reg"`) on one function.
pub fn run_function_passes(f: Value, pipeline: &str) -> Result<(), String> {
    let p = cstr(pipeline);
    // SAFETY: live function; options created and disposed here; error message owned.
    unsafe {
        let opts = llvm_sys::transforms::pass_builder::LLVMCreatePassBuilderOptions();
        let err = llvm_sys::transforms::pass_builder::LLVMRunPassesOnFunction(f.0, p.as_ptr(), std::ptr::null_mut(), opts);
        llvm_sys::transforms::pass_builder::LLVMDisposePassBuilderOptions(opts);
        if err.is_null() {
            Ok(())
        } else {
            Err(own_message(llvm_sys::error::LLVMGetErrorMessage(err)))
        }
    }
}

/// Runs a pipeline string (e.g. `"default<O2>"`) on a whole module.
pub fn run_module_passes(m: Module, pipeline: &str) -> Result<(), String> {
    let p = cstr(pipeline);
    // SAFETY: live module; options created and disposed here.
    unsafe {
        let opts = llvm_sys::transforms::pass_builder::LLVMCreatePassBuilderOptions();
        let err = llvm_sys::transforms::pass_builder::LLVMRunPasses(m.0, p.as_ptr(), std::ptr::null_mut(), opts);
        llvm_sys::transforms::pass_builder::LLVMDisposePassBuilderOptions(opts);
        if err.is_null() {
            Ok(())
        } else {
            Err(own_message(llvm_sys::error::LLVMGetErrorMessage(err)))
        }
    }
}

/// The textual opcode name as in LLVM IR (`fadd`, `getelementptr`, ...).
pub fn opcode_name(op: Opcode) -> &'static str {
    use LLVMOpcode::*;
    match op {
        LLVMRet => "ret",
        LLVMBr => "br",
        LLVMSwitch => "switch",
        LLVMIndirectBr => "indirectbr",
        LLVMInvoke => "invoke",
        LLVMUnreachable => "unreachable",
        LLVMCallBr => "callbr",
        LLVMFNeg => "fneg",
        LLVMAdd => "add",
        LLVMFAdd => "fadd",
        LLVMSub => "sub",
        LLVMFSub => "fsub",
        LLVMMul => "mul",
        LLVMFMul => "fmul",
        LLVMUDiv => "udiv",
        LLVMSDiv => "sdiv",
        LLVMFDiv => "fdiv",
        LLVMURem => "urem",
        LLVMSRem => "srem",
        LLVMFRem => "frem",
        LLVMShl => "shl",
        LLVMLShr => "lshr",
        LLVMAShr => "ashr",
        LLVMAnd => "and",
        LLVMOr => "or",
        LLVMXor => "xor",
        LLVMAlloca => "alloca",
        LLVMLoad => "load",
        LLVMStore => "store",
        LLVMGetElementPtr => "getelementptr",
        LLVMTrunc => "trunc",
        LLVMZExt => "zext",
        LLVMSExt => "sext",
        LLVMFPToUI => "fptoui",
        LLVMFPToSI => "fptosi",
        LLVMUIToFP => "uitofp",
        LLVMSIToFP => "sitofp",
        LLVMFPTrunc => "fptrunc",
        LLVMFPExt => "fpext",
        LLVMPtrToInt => "ptrtoint",
        LLVMIntToPtr => "inttoptr",
        LLVMBitCast => "bitcast",
        LLVMAddrSpaceCast => "addrspacecast",
        LLVMICmp => "icmp",
        LLVMFCmp => "fcmp",
        LLVMPHI => "phi",
        LLVMCall => "call",
        LLVMSelect => "select",
        LLVMUserOp1 | LLVMUserOp2 => "userop",
        LLVMVAArg => "va_arg",
        LLVMExtractElement => "extractelement",
        LLVMInsertElement => "insertelement",
        LLVMShuffleVector => "shufflevector",
        LLVMExtractValue => "extractvalue",
        LLVMInsertValue => "insertvalue",
        LLVMFreeze => "freeze",
        LLVMFence => "fence",
        LLVMAtomicCmpXchg => "cmpxchg",
        LLVMAtomicRMW => "atomicrmw",
        LLVMResume => "resume",
        LLVMLandingPad => "landingpad",
        LLVMCleanupRet => "cleanupret",
        LLVMCatchRet => "catchret",
        LLVMCatchPad => "catchpad",
        LLVMCleanupPad => "cleanuppad",
        LLVMCatchSwitch => "catchswitch",
        _ => "unknown",
    }
}
