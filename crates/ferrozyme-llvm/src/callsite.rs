//! Calls and invokes: the callee, the arguments, an invoke's destinations, and
//! attributes on call sites (`call void @f() #0` with `alwaysinline`, `noinline`,
//! `sret(T)` on an argument ...): what a pass reads or sets on one call without changing
//! the callee.

use llvm_sys::core::{
    LLVMAddCallSiteAttribute, LLVMAliasGetAliasee, LLVMCreateEnumAttribute,
    LLVMGetCallSiteAttributeCount, LLVMGetCallSiteAttributes, LLVMGetCallSiteEnumAttribute,
    LLVMGetCalledFunctionType, LLVMGetCalledValue, LLVMGetNormalDest, LLVMGetNumArgOperands,
    LLVMGetTypeContext, LLVMGetUnwindDest, LLVMRemoveCallSiteEnumAttribute, LLVMTypeOf,
};

use crate::ir::{attr_kind, Block, Opcode, Type, Value};

impl Value {
    pub fn is_call(self) -> bool {
        self.opcode() == Some(Opcode::LLVMCall)
    }

    /// A call, an invoke or a callbr: an instruction with a callee and arguments.
    fn is_call_like(self) -> bool {
        matches!(
            self.opcode(),
            Some(Opcode::LLVMCall | Opcode::LLVMInvoke | Opcode::LLVMCallBr)
        )
    }

    pub fn called_value(self) -> Value {
        debug_assert!(
            self.is_call_like(),
            "called_value on a value that is not a call: {self}"
        );
        // SAFETY: only on calls/invokes.
        Value(unsafe { LLVMGetCalledValue(self.raw()) })
    }
    /// The callee when it is a known function (looking through aliases); `None` for a
    /// value that is not a call (asking any instruction is allowed: `LLVMGetCalledValue`
    /// on another instruction reads past its operands).
    pub fn called_function(self) -> Option<Value> {
        if !self.is_call_like() {
            return None;
        }
        let mut c = self.called_value();
        for _ in 0..4 {
            if c.is_function() {
                return Some(c);
            }
            if c.is_global_alias() {
                // SAFETY: it is an alias.
                c = Value(unsafe { LLVMAliasGetAliasee(c.raw()) });
                continue;
            }
            break;
        }
        None
    }
    /// Is this a call of the intrinsic `base` (any overload)?
    pub fn calls_intrinsic(self, base: &str) -> bool {
        self.is_call() && self.called_function().is_some_and(|f| f.is_intrinsic(base))
    }
    /// Is this a call of `llvm.lifetime.start`?
    pub fn is_lifetime_start(self) -> bool {
        self.called_function()
            .is_some_and(|f| f.is_intrinsic("llvm.lifetime.start"))
    }
    /// Is this a call of `llvm.lifetime.start` or `llvm.lifetime.end`?
    pub fn is_lifetime_marker(self) -> bool {
        self.called_function().is_some_and(|f| {
            f.is_intrinsic("llvm.lifetime.start") || f.is_intrinsic("llvm.lifetime.end")
        })
    }
    /// Is this a call of a lifetime marker or of a `llvm.dbg.*` intrinsic: calls that name
    /// objects and scopes and neither read nor write memory's contents?
    pub fn is_lifetime_or_debug_marker(self) -> bool {
        self.is_call()
            && self.called_function().is_some_and(|f| {
                let n = f.name();
                n.starts_with("llvm.lifetime.") || n.starts_with("llvm.dbg.")
            })
    }
    /// Is this a call of `llvm.fma` or `llvm.fmuladd` (any overload)?
    pub fn is_fma_call(self) -> bool {
        self.is_call()
            && self.called_function().is_some_and(|f| {
                let n = f.name();
                n.starts_with("llvm.fmuladd.") || n.starts_with("llvm.fma.")
            })
    }
    pub fn num_call_args(self) -> u32 {
        debug_assert!(
            self.is_call_like(),
            "num_call_args on a value that is not a call: {self}"
        );
        // SAFETY: only on calls.
        unsafe { LLVMGetNumArgOperands(self.raw()) }
    }
    pub fn call_args(self) -> Vec<Value> {
        (0..self.num_call_args()).map(|i| self.operand(i)).collect()
    }
    pub fn called_function_type(self) -> Type {
        debug_assert!(
            self.is_call_like(),
            "called_function_type on a value that is not a call: {self}"
        );
        // SAFETY: only on calls.
        Type(unsafe { LLVMGetCalledFunctionType(self.raw()) })
    }
    pub fn is_inline_asm_call(self) -> bool {
        self.called_value().is_inline_asm()
    }
    /// Type of a call-site `sret(T)` attribute on argument `i`, if present.
    pub fn call_sret_type(self, i: u32) -> Option<Type> {
        self.call_type_attribute(i, "sret")
    }

    /// Type of a call-site `byval(T)` attribute on argument `i`, if present: the value
    /// the ABI passes in memory (a `float _Complex` once the registers run out).
    pub fn call_byval_type(self, i: u32) -> Option<Type> {
        self.call_type_attribute(i, "byval")
    }

    /// Type of the call-site type attribute `name` on argument `i`, if present.
    fn call_type_attribute(self, i: u32, name: &str) -> Option<Type> {
        let kind = attr_kind(name);
        // SAFETY: attribute query on a live call; argument indices start at 1.
        unsafe {
            let a = LLVMGetCallSiteEnumAttribute(self.raw(), i + 1, kind);
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
        unsafe {
            (
                Block(LLVMGetNormalDest(self.raw())),
                Block(LLVMGetUnwindDest(self.raw())),
            )
        }
    }

    /// Adds `sret(ty)` to argument `i` of this call (what the callee's parameter says).
    pub fn add_call_sret(self, i: u32, ty: Type) {
        debug_assert!(
            self.is_call(),
            "add_call_sret on a value that is not a call: {self}"
        );
        let kind = attr_kind("sret");
        // SAFETY: creating a type attribute in the call's context; argument indices start
        // at 1.
        unsafe {
            let ctx = LLVMGetTypeContext(LLVMTypeOf(self.raw()));
            let a = llvm_sys::core::LLVMCreateTypeAttribute(ctx, kind, ty.raw());
            LLVMAddCallSiteAttribute(self.raw(), i + 1, a);
        }
    }
    /// Gives call `to` the calling convention of call/invoke `self` (`fastcc` on calls
    /// of an internal function the optimizer changed): a call whose convention differs
    /// from its callee's is undefined behaviour, which LLVM folds to `unreachable`.
    pub fn copy_calling_convention(self, to: Value) {
        debug_assert!(self.is_call_like() && to.is_call_like());
        // SAFETY: reading and setting the calling convention of live call sites.
        unsafe {
            let cc = llvm_sys::core::LLVMGetInstructionCallConv(self.raw());
            llvm_sys::core::LLVMSetInstructionCallConv(to.raw(), cc);
        }
    }

    /// Copies the call-site attributes (function, return, parameters) of call/invoke
    /// `self` to call `to`.
    pub fn copy_call_site_attributes(self, to: Value) {
        let n = self.num_call_args();
        let indices = [
            llvm_sys::LLVMAttributeFunctionIndex,
            llvm_sys::LLVMAttributeReturnIndex,
        ]
        .into_iter()
        .chain(1..=n);
        for idx in indices {
            // SAFETY: attribute queries on live call sites; buffer sized by the count.
            unsafe {
                let count = LLVMGetCallSiteAttributeCount(self.raw(), idx) as usize;
                let mut attrs = vec![std::ptr::null_mut(); count];
                if count > 0 {
                    LLVMGetCallSiteAttributes(self.raw(), idx, attrs.as_mut_ptr());
                }
                for a in attrs {
                    LLVMAddCallSiteAttribute(to.raw(), idx, a);
                }
            }
        }
    }

    /// Does the call site itself carry the enum function attribute `name`?
    pub fn has_call_site_fn_attr(self, name: &str) -> bool {
        debug_assert!(self.is_call(), "call-site attribute on a non-call: {self}");
        let k = attr_kind(name);
        // SAFETY: attribute query on a live call site.
        unsafe {
            !LLVMGetCallSiteEnumAttribute(self.raw(), llvm_sys::LLVMAttributeFunctionIndex, k)
                .is_null()
        }
    }

    /// Adds the enum function attribute `name` to the call site.
    pub fn add_call_site_fn_attr(self, name: &str) {
        debug_assert!(self.is_call(), "call-site attribute on a non-call: {self}");
        let k = attr_kind(name);
        // SAFETY: creating an enum attribute in the call's context and attaching it to a
        // live call site.
        unsafe {
            let ctx = LLVMGetTypeContext(LLVMTypeOf(self.raw()));
            let a = LLVMCreateEnumAttribute(ctx, k, 0);
            LLVMAddCallSiteAttribute(self.raw(), llvm_sys::LLVMAttributeFunctionIndex, a);
        }
    }

    /// Removes the enum function attribute `name` from the call site (if present).
    pub fn remove_call_site_fn_attr(self, name: &str) {
        debug_assert!(self.is_call(), "call-site attribute on a non-call: {self}");
        let k = attr_kind(name);
        // SAFETY: attribute removal on a live call site.
        unsafe {
            LLVMRemoveCallSiteEnumAttribute(self.raw(), llvm_sys::LLVMAttributeFunctionIndex, k)
        }
    }
}
