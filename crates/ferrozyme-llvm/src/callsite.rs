//! Function attributes on call sites (`call void @f() #0` with `alwaysinline`,
//! `noinline` ...): what a pass sets on one call without changing the callee.

use llvm_sys::core::{
    LLVMAddCallSiteAttribute, LLVMCreateEnumAttribute, LLVMGetCallSiteEnumAttribute,
    LLVMGetTypeContext, LLVMRemoveCallSiteEnumAttribute, LLVMTypeOf,
};

use crate::ir::{attr_kind, Value};

impl Value {
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
