//! Changing what a module defines: function bodies turned into declarations, linkages
//! (including internalizing the program's dead code before the pass).
//!
//! `cargo ferrozyme` links the standard library's embedded bitcode for the few functions
//! differentiated code calls there (kept `available_externally`, every other body
//! dropped) and replaces the `ferrozyme` crate's fallback hook bodies by declarations.

use llvm_sys::core::*;

use crate::ir::Value;

impl Value {
    /// Turns a function definition into a declaration (external linkage): every value
    /// of the body loses its uses, every instruction goes (so no branch still names a
    /// block, which LLVM's release build would leave dangling), then every block.
    pub fn delete_body(self) {
        let blocks = self.blocks();
        for b in &blocks {
            for i in b.instructions() {
                if !i.ty().is_void() {
                    i.replace_all_uses_with(i.ty().undef());
                }
            }
        }
        for b in &blocks {
            for i in b.instructions().into_iter().rev() {
                i.erase();
            }
        }
        for b in blocks {
            b.delete();
        }
        // SAFETY: a function (now without blocks) gets the linkage of a declaration and
        // loses its attachments (a declaration may not keep its `!dbg` subprogram).
        unsafe {
            LLVMSetLinkage(self.0, llvm_sys::LLVMLinkage::LLVMExternalLinkage);
            LLVMGlobalClearMetadata(self.0);
        }
    }
    /// `available_externally`: a body (or initializer) for analysis and inlining only;
    /// never emitted, the symbol is defined elsewhere.
    pub fn set_linkage_available_externally(self) {
        // SAFETY: live global value.
        unsafe {
            LLVMSetLinkage(
                self.0,
                llvm_sys::LLVMLinkage::LLVMAvailableExternallyLinkage,
            )
        }
    }
    /// Internal or private linkage (the symbol is local to the module).
    pub fn is_local_linkage(self) -> bool {
        // SAFETY: live global value.
        let l = unsafe { LLVMGetLinkage(self.0) };
        matches!(
            l,
            llvm_sys::LLVMLinkage::LLVMInternalLinkage | llvm_sys::LLVMLinkage::LLVMPrivateLinkage
        )
    }
    /// Is this global's initializer the value every reader sees: a definition with
    /// external, internal or private linkage (not weak, common, `linkonce` or
    /// `available_externally`, whose bytes another definition may replace)?
    pub fn has_definitive_initializer(self) -> bool {
        use llvm_sys::LLVMLinkage::*;
        // SAFETY: live global value.
        let l = unsafe { LLVMGetLinkage(self.0) };
        !self.is_declaration()
            && matches!(
                l,
                LLVMExternalLinkage | LLVMInternalLinkage | LLVMPrivateLinkage
            )
    }
    /// Private linkage (local, and not even in the object's symbol table).
    /// `linkonce_odr` or `weak_odr`: every module's definition is the same (C++ inline
    /// functions and their local statics).
    pub fn is_odr_linkage(self) -> bool {
        // SAFETY: self.0 is a valid global value.
        let l = unsafe { LLVMGetLinkage(self.0) };
        matches!(
            l,
            llvm_sys::LLVMLinkage::LLVMLinkOnceODRLinkage
                | llvm_sys::LLVMLinkage::LLVMWeakODRLinkage
        )
    }

    pub fn is_private_linkage(self) -> bool {
        // SAFETY: live global value.
        let l = unsafe { LLVMGetLinkage(self.0) };
        l == llvm_sys::LLVMLinkage::LLVMPrivateLinkage
    }
    /// Makes a definition local to the module: internal linkage, default visibility (a
    /// local symbol may have no other), no DLL storage class.
    pub fn internalize(self) {
        // SAFETY: live global value.
        unsafe {
            LLVMSetLinkage(self.0, llvm_sys::LLVMLinkage::LLVMInternalLinkage);
            LLVMSetVisibility(self.0, llvm_sys::LLVMVisibility::LLVMDefaultVisibility);
            LLVMSetDLLStorageClass(
                self.0,
                llvm_sys::LLVMDLLStorageClass::LLVMDefaultStorageClass,
            );
        }
    }
    /// Is the global value in a comdat (whose members the linker keeps or drops together)?
    pub fn has_comdat(self) -> bool {
        // SAFETY: live global value.
        unsafe { !llvm_sys::comdat::LLVMGetComdat(self.0).is_null() }
    }
}
