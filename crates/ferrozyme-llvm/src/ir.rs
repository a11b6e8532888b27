//! Id newtypes over LLVM's C API: values, blocks, types, modules. This file holds the
//! handles and everything about values but calls; `callsite.rs` has calls and invokes
//! (callee, arguments, call-site attributes), `inst_flags.rs` instructions' flags (fast-math,
//! atomics, wrap flags, volatility, alignment), `types.rs` types and constants, `module.rs`
//! blocks, modules and pass pipelines.
//!
//! Every handle is a `Copy` wrapper around an LLVM pointer; equality and hashing are by
//! pointer identity, which is what analyses keyed by values need. Handles do not own
//! anything: the module (and its context) must outlive them. This is the invariant every
//! `// SAFETY:` comment in these files relies on: a handle is only ever created from a live
//! LLVM object of the right kind, and the caller keeps the module alive while using it.

use std::ffi::{CStr, CString};
use std::fmt;

use llvm_sys::core::*;
use llvm_sys::prelude::*;

use crate::diag::SourceLoc;
pub use crate::function::{attr_kind, MemoryEffects};

pub use llvm_sys::LLVMIntPredicate as IntPredicate;
pub use llvm_sys::LLVMOpcode as Opcode;
pub use llvm_sys::LLVMRealPredicate as RealPredicate;

/// The operations of `atomicrmw` the transform tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicRmwOp {
    FAdd,
    FSub,
    Xchg,
    /// Integer and min/max operations.
    Other,
}

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

pub(crate) fn own_message(p: *mut std::os::raw::c_char) -> String {
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

pub(crate) fn opt_value(v: LLVMValueRef) -> Option<Value> {
    if v.is_null() {
        None
    } else {
        Some(Value(v))
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
    /// A constant of the aggregate type `ty` (an array, or a named or literal struct)
    /// with the given elements, of `ty`'s element or field types.
    pub fn const_aggregate(ty: Type, elems: &[Value]) -> Value {
        let mut v: Vec<LLVMValueRef> = elems.iter().map(|x| x.0).collect();
        // SAFETY: array outlives the call; the element types are the caller's invariant.
        Value(unsafe {
            if ty.kind() == crate::TypeKind::Array {
                LLVMConstArray2(ty.element_type().0, v.as_mut_ptr(), v.len() as u64)
            } else {
                LLVMConstNamedStruct(ty.0, v.as_mut_ptr(), v.len() as u32)
            }
        })
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
            crate::strings::owned_lossy(std::slice::from_raw_parts(p as *const u8, len))
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
    /// The value a global alias stands for (`@g = alias ..., ptr @f` gives `@f`).
    pub fn aliasee(self) -> Option<Value> {
        if !self.is_global_alias() {
            return None;
        }
        // SAFETY: it is an alias.
        opt_value(unsafe { LLVMAliasGetAliasee(self.0) })
    }
    /// The resolver of a global ifunc (`@g = ifunc ..., ptr @g.resolver`: clang's
    /// `target_clones` and `__attribute__((ifunc))`), the function that returns the
    /// implementation a call of `@g` runs; `None` for any other value.
    pub fn ifunc_resolver(self) -> Option<Value> {
        // SAFETY: handle invariant; the resolver is only asked of an ifunc.
        unsafe {
            if LLVMIsAGlobalIFunc(self.0).is_null() {
                return None;
            }
            opt_value(LLVMGetGlobalIFuncResolver(self.0))
        }
    }
    pub fn is_undef(self) -> bool {
        // SAFETY: handle invariant.
        unsafe { LLVMIsUndef(self.0) != 0 || !LLVMIsAPoisonValue(self.0).is_null() }
    }
    /// Does this instruction produce, allocate or take a scalable vector
    /// (`<vscale x N x T>`), whose size is not a constant?
    pub fn involves_scalable(self) -> bool {
        self.ty().has_scalable()
            || (self.opcode() == Some(Opcode::LLVMAlloca) && self.allocated_type().has_scalable())
            || self.operands().iter().any(|o| o.ty().has_scalable())
    }
    /// Is this the null constant of its type (`null`, `zeroinitializer`, `0`)?
    pub fn is_null(self) -> bool {
        // SAFETY: handle invariant.
        unsafe { LLVMIsConstant(self.0) != 0 && LLVMIsNull(self.0) != 0 }
    }
    pub fn is_constant_expr(self) -> bool {
        // SAFETY: handle invariant.
        unsafe { !LLVMIsAConstantExpr(self.0).is_null() }
    }
    pub fn is_inline_asm(self) -> bool {
        // SAFETY: handle invariant.
        unsafe { !LLVMIsAInlineAsm(self.0).is_null() }
    }
    /// The template of an inline assembly value (`asm "<template>", "<constraints>"`).
    pub fn inline_asm_template(self) -> Option<String> {
        self.inline_asm_text(llvm_sys::core::LLVMGetInlineAsmAsmString)
    }
    /// The constraint string of an inline assembly value (`"=x,x,0,~{dirflag}"`).
    pub fn inline_asm_constraints(self) -> Option<String> {
        self.inline_asm_text(llvm_sys::core::LLVMGetInlineAsmConstraintString)
    }
    fn inline_asm_text(
        self,
        get: unsafe extern "C" fn(LLVMValueRef, *mut usize) -> *const std::ffi::c_char,
    ) -> Option<String> {
        if !self.is_inline_asm() {
            return None;
        }
        // SAFETY: only on InlineAsm values; LLVM returns a pointer+len into its own storage.
        unsafe {
            let mut len = 0usize;
            let p = get(self.0, &mut len);
            if p.is_null() {
                return Some(String::new());
            }
            Some(
                String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len))
                    .into_owned(),
            )
        }
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
    /// A constant vector or struct with some `undef`/`poison` elements, rebuilt with zeros
    /// there (a valid refinement); `None` when there is nothing to replace.
    pub fn defined_constant(self) -> Option<Value> {
        if self.is_undef() {
            return Some(self.ty().zero());
        }
        // SAFETY: element queries on a live constant vector.
        unsafe {
            if LLVMIsAConstantVector(self.0).is_null() {
                return None;
            }
            let n = LLVMGetVectorSize(LLVMTypeOf(self.0));
            let elems: Vec<Value> = (0..n)
                .map(|k| Value(LLVMGetAggregateElement(self.0, k)))
                .collect();
            if !elems.iter().any(|e| e.is_undef()) {
                return None;
            }
            let fixed: Vec<Value> = elems
                .into_iter()
                .map(|e| if e.is_undef() { e.ty().zero() } else { e })
                .collect();
            Some(Value::const_vector(&fixed))
        }
    }
    /// Element `k` of a constant aggregate (struct, array or vector), if it is one.
    pub fn const_element(self, k: u32) -> Option<Value> {
        // SAFETY: only constants are asked; LLVM answers null for other kinds or indices.
        unsafe {
            if LLVMIsAConstant(self.0).is_null() {
                return None;
            }
            opt_value(LLVMGetAggregateElement(self.0, k))
        }
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
    /// The user of this value's only use, or `None` when it has no use or several (in
    /// constant time, where `users().len() == 1` walks the whole use list).
    pub fn sole_user(self) -> Option<Value> {
        // SAFETY: walking LLVM's use list of a live value.
        unsafe {
            let u = LLVMGetFirstUse(self.0);
            (!u.is_null() && LLVMGetNextUse(u).is_null()).then(|| Value(LLVMGetUser(u)))
        }
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
    /// Whether this is a conditional `br` (condition, false and true destinations).
    pub fn is_conditional_branch(self) -> bool {
        self.opcode() == Some(Opcode::LLVMBr) && self.num_operands() == 3
    }
    /// The `icmp` a conditional `br` tests, if its condition is one.
    pub fn branch_icmp(self) -> Option<Value> {
        if !self.is_conditional_branch() {
            return None;
        }
        let cond = self.operand(0);
        (cond.opcode() == Some(Opcode::LLVMICmp)).then_some(cond)
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
    /// The value under constant `bitcast` / `addrspacecast` expressions (a function or
    /// global seen through the casts old IR and other address spaces put around it).
    pub fn strip_const_casts(self) -> Value {
        let mut v = self;
        while matches!(
            v.const_opcode(),
            Some(Opcode::LLVMBitCast) | Some(Opcode::LLVMAddrSpaceCast)
        ) {
            v = v.operand(0);
        }
        v
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
    /// The module a global value (function, global variable) belongs to.
    pub fn parent_module(self) -> crate::Module {
        debug_assert!(
            self.is_function() || self.is_global_variable(),
            "parent_module on a value that is not a global: {self}"
        );
        // SAFETY: a global value; its parent module outlives the handle (module handles are
        // owned elsewhere, see `Module`).
        unsafe { crate::Module::from_raw(LLVMGetGlobalParent(self.0)) }
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
    /// The cases of a `switch`: (case value, destination), default excluded.
    pub fn switch_cases(self) -> Vec<(Value, Block)> {
        (1..self.num_successors())
            .map(|k| {
                // SAFETY: a switch (caller); successor k > 0 has a case value.
                let v = Value(unsafe { LLVMGetSwitchCaseValue(self.0, k) });
                (v, self.successor(k))
            })
            .collect()
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
        (0..self.num_successors())
            .map(|i| self.successor(i))
            .collect()
    }
    pub fn fcmp_predicate(self) -> RealPredicate {
        debug_assert!(
            self.opcode() == Some(Opcode::LLVMFCmp),
            "fcmp_predicate on a value that is not an fcmp: {self}"
        );
        // SAFETY: only on fcmp.
        unsafe { LLVMGetFCmpPredicate(self.0) }
    }
    pub fn icmp_predicate(self) -> IntPredicate {
        debug_assert!(
            self.opcode() == Some(Opcode::LLVMICmp),
            "icmp_predicate on a value that is not an icmp: {self}"
        );
        // SAFETY: only on icmp.
        unsafe { LLVMGetICmpPredicate(self.0) }
    }
    pub fn allocated_type(self) -> Type {
        debug_assert!(
            self.opcode() == Some(Opcode::LLVMAlloca),
            "allocated_type on a value that is not an alloca: {self}"
        );
        // SAFETY: only on alloca.
        Type(unsafe { LLVMGetAllocatedType(self.0) })
    }
    pub fn gep_source_type(self) -> Type {
        debug_assert!(
            self.opcode().or_else(|| self.const_opcode()) == Some(Opcode::LLVMGetElementPtr),
            "gep_source_type on a value that is not a GEP: {self}"
        );
        // SAFETY: only on GEP instructions / constant expressions.
        Type(unsafe { LLVMGetGEPSourceElementType(self.0) })
    }
    /// Constant indices of extractvalue/insertvalue.
    pub fn aggregate_indices(self) -> Vec<u32> {
        debug_assert!(
            matches!(
                self.opcode(),
                Some(Opcode::LLVMExtractValue | Opcode::LLVMInsertValue)
            ),
            "aggregate_indices on a value that is not an extractvalue/insertvalue: {self}"
        );
        // SAFETY: only on extractvalue/insertvalue; LLVM owns the index array.
        unsafe {
            let n = LLVMGetNumIndices(self.0) as usize;
            let p = LLVMGetIndices(self.0);
            std::slice::from_raw_parts(p, n).to_vec()
        }
    }
    pub fn shuffle_mask(self) -> Vec<Option<u32>> {
        debug_assert!(
            self.opcode() == Some(Opcode::LLVMShuffleVector),
            "shuffle_mask on a value that is not a shufflevector: {self}"
        );
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
    // --- phi

    pub fn incoming(self) -> Vec<(Value, Block)> {
        debug_assert!(
            self.opcode() == Some(Opcode::LLVMPHI),
            "incoming on a value that is not a phi: {self}"
        );
        // SAFETY: only on phi nodes.
        unsafe {
            let n = LLVMCountIncoming(self.0);
            (0..n)
                .map(|i| {
                    (
                        Value(LLVMGetIncomingValue(self.0, i)),
                        Block(LLVMGetIncomingBlock(self.0, i)),
                    )
                })
                .collect()
        }
    }
    pub fn add_incoming(self, v: Value, b: Block) {
        debug_assert!(
            self.opcode() == Some(Opcode::LLVMPHI),
            "add_incoming on a value that is not a phi: {self}"
        );
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
                String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len as usize))
                    .into_owned()
            };
            Some(SourceLoc {
                file,
                line,
                col: LLVMGetDebugLocColumn(self.0),
                function: crate::scope::scope_function(self),
            })
        }
    }
    /// The calls the inliner expanded to bring this instruction here, innermost first
    /// (its debug location's `inlinedAt` chain); empty when it was not inlined.
    pub fn inlined_chain(self) -> Vec<SourceLoc> {
        if !self.is_instruction() {
            return Vec::new();
        }
        crate::scope::inlined_chain(self)
    }
    /// Drop the `!dbg` attachment (used on code copied into generated functions).
    /// Removes the instruction's debug location and its `!DIAssignID` (assignment
    /// tracking links a store or alloca to `#dbg_assign` records of its own function, so a
    /// copy in another function must not keep it).
    pub fn clear_debug_loc(self) {
        // SAFETY: instruction; a null location removes it.
        unsafe { llvm_sys::debuginfo::LLVMInstructionSetDebugLoc(self.0, std::ptr::null_mut()) }
        let kind = self.ty().context().md_kind("DIAssignID");
        if self.metadata(kind).is_some() {
            self.set_metadata(kind, None);
        }
    }
    /// Gives this instruction `from`'s debug location (none when `from` has none).
    pub fn copy_debug_loc(self, from: Value) {
        // SAFETY: both are instructions; the location is metadata of the same context.
        unsafe {
            let loc = llvm_sys::debuginfo::LLVMInstructionGetDebugLoc(from.0);
            llvm_sys::debuginfo::LLVMInstructionSetDebugLoc(self.0, loc)
        }
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
                Some(
                    String::from_utf8_lossy(std::slice::from_raw_parts(
                        p as *const u8,
                        len as usize,
                    ))
                    .into_owned(),
                )
            }
        }
    }
}
