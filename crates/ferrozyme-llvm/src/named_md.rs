//! A module's named metadata lists (`!name = !{!0, !1}`): how the pass records facts about
//! globals that outlive one analysis (globals the user declared inactive), where a global
//! variable has no attribute list to carry them.

use llvm_sys::core::*;
use llvm_sys::prelude::*;

use crate::ir::{cstr, Value};
use crate::Module;

impl Module {
    /// The operands (metadata nodes, as values) of the named metadata `name`; empty if the
    /// module has none of that name.
    pub fn named_metadata(self, name: &str) -> Vec<Value> {
        let c = cstr(name);
        // SAFETY: module alive; the C string outlives both calls; the buffer has exactly the
        // number of operands LLVM reports.
        unsafe {
            let n = LLVMGetNamedMetadataNumOperands(self.raw(), c.as_ptr()) as usize;
            let mut v: Vec<LLVMValueRef> = vec![std::ptr::null_mut(); n];
            if n > 0 {
                LLVMGetNamedMetadataOperands(self.raw(), c.as_ptr(), v.as_mut_ptr());
            }
            v.into_iter().map(Value).collect()
        }
    }
    /// Appends `node` (a metadata node made by `Context::md_node`) to the named metadata
    /// `name`, creating it if needed.
    pub fn add_named_metadata(self, name: &str, node: Value) {
        let c = cstr(name);
        // SAFETY: module alive; `node` is metadata wrapped as a value; the C string outlives
        // the call.
        unsafe { LLVMAddNamedMetadataOperand(self.raw(), c.as_ptr(), node.raw()) }
    }
}
