//! A thin, id-based view over LLVM 22 for Ferrozyme — the only crate with `unsafe`.
//!
//! LLVM objects are referred to by small `Copy` newtypes (`Value`, `Block`, `Type`,
//! `Function`, `Module`) that hash by pointer identity, so analyses can keep their
//! results in ordinary Rust maps keyed by LLVM values. Ownership of the LLVM context and
//! module stays with the caller (inkwell in the CLI, LLVM itself in the plugin).

pub mod diag;

pub use diag::{DiagKind, Diagnostic, SourceLoc};

use llvm_sys::prelude::LLVMModuleRef;

/// A module owned elsewhere (by inkwell in the CLI, by LLVM's pass manager in the plugin).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Module(LLVMModuleRef);

impl Module {
    /// # Safety
    /// `raw` must be a valid module that outlives every use of the returned handle.
    pub unsafe fn from_raw(raw: LLVMModuleRef) -> Self {
        Module(raw)
    }
    pub fn from_inkwell(m: &inkwell::module::Module<'_>) -> Self {
        Module(m.as_mut_ptr())
    }
    pub fn raw(self) -> LLVMModuleRef {
        self.0
    }
}
