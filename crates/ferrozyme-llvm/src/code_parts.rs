//! What splitting one module into parts for parallel code generation does to each part's
//! globals (the CLI's `split_codegen`): definitions of other parts turned into
//! declarations, local symbols another part refers to made hidden and external, the
//! module-level arrays (`llvm.used`, `llvm.global_ctors`) and inline assembly kept where
//! exactly one part emits them.
//!
//! Invariant: every part keeps every global's name and type, so the parts' objects,
//! linked with `ld -r`, resolve each reference to the one definition the whole module had.

use llvm_sys::core::*;

use crate::ir::{opt_value, Value};
use crate::Module;

/// Which module-level array an appending global is (`llvm.used` and the others).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AppendingArray {
    /// `llvm.used` / `llvm.compiler.used`: keep-alive lists, per definition.
    Used,
    /// `llvm.global_ctors` / `llvm.global_dtors` and any other appending global: ordered
    /// lists the program runs, kept whole in one part.
    Ordered,
}

impl Module {
    /// Global aliases and ifuncs (splitting does not handle them: it is not tried).
    pub fn has_aliases_or_ifuncs(self) -> bool {
        // SAFETY: live module.
        unsafe {
            !LLVMGetFirstGlobalAlias(self.0).is_null() || !LLVMGetFirstGlobalIFunc(self.0).is_null()
        }
    }
    /// Drops the module-level inline assembly (it goes to one part only).
    pub fn clear_inline_asm(self) {
        // SAFETY: live module; an empty string.
        unsafe { LLVMSetModuleInlineAsm2(self.0, c"".as_ptr(), 0) }
    }
}

impl Value {
    /// The comdat of a global object as an opaque key (members share it), if any.
    pub fn comdat_key(self) -> Option<usize> {
        // SAFETY: live global value.
        let c = unsafe { llvm_sys::comdat::LLVMGetComdat(self.0) };
        (!c.is_null()).then_some(c as usize)
    }
    /// `appending` linkage (the `llvm.*` arrays), told apart by what they hold.
    pub fn appending_array(self) -> Option<AppendingArray> {
        // SAFETY: live global value.
        let l = unsafe { LLVMGetLinkage(self.0) };
        if l != llvm_sys::LLVMLinkage::LLVMAppendingLinkage {
            return None;
        }
        Some(match self.name().as_str() {
            "llvm.used" | "llvm.compiler.used" => AppendingArray::Used,
            _ => AppendingArray::Ordered,
        })
    }
    /// `available_externally`: a body for inlining only, never emitted.
    pub fn is_available_externally(self) -> bool {
        // SAFETY: live global value.
        unsafe { LLVMGetLinkage(self.0) == llvm_sys::LLVMLinkage::LLVMAvailableExternallyLinkage }
    }
    /// A local symbol another part refers to: external linkage, hidden visibility (so
    /// still `dso_local`, called and addressed as directly as before).
    pub fn promote_to_hidden(self) {
        // SAFETY: live global value; external + hidden is valid for definitions and
        // declarations alike.
        unsafe {
            LLVMSetLinkage(self.0, llvm_sys::LLVMLinkage::LLVMExternalLinkage);
            LLVMSetVisibility(self.0, llvm_sys::LLVMVisibility::LLVMHiddenVisibility);
        }
    }
    /// Turns a function or global variable definition into a declaration of the same
    /// symbol (another part defines it): no body or initializer, no comdat, personality
    /// or attachments; visibility, `dso_local` and `thread_local` stay, so references
    /// compile as they did.
    pub fn make_declaration(self) {
        if self.is_function() {
            self.delete_body();
            // SAFETY: a function without blocks; null clears the personality.
            unsafe { LLVMSetPersonalityFn(self.0, std::ptr::null_mut()) };
        } else {
            // SAFETY: a global variable; a null initializer makes it a declaration.
            unsafe {
                LLVMSetInitializer(self.0, std::ptr::null_mut());
                LLVMSetLinkage(self.0, llvm_sys::LLVMLinkage::LLVMExternalLinkage);
                LLVMGlobalClearMetadata(self.0);
            }
        }
        // SAFETY: live global object; null removes it from its comdat.
        unsafe { llvm_sys::comdat::LLVMSetComdat(self.0, std::ptr::null_mut()) };
    }
    /// Deletes a global variable that nothing uses (an `llvm.*` array another part keeps).
    pub fn delete_unused_global(self) {
        debug_assert!(self.users().is_empty(), "deleting a used global: {self}");
        // SAFETY: a global variable without uses.
        unsafe { LLVMDeleteGlobal(self.0) }
    }
    /// The global values an `llvm.used`-style array lists (casts looked through).
    pub fn listed_globals(self) -> Vec<Value> {
        // SAFETY: a global variable.
        let Some(init) = opt_value(unsafe { LLVMGetInitializer(self.0) }) else {
            return Vec::new();
        };
        init.operands()
            .into_iter()
            .map(|e| e.strip_casts())
            .collect()
    }
    /// Rebuilds an `llvm.used`-style array with only the elements `keep` accepts (the
    /// array is deleted when none is left).
    pub fn retain_listed(self, keep: impl Fn(Value) -> bool) {
        // SAFETY: a global variable.
        let Some(init) = opt_value(unsafe { LLVMGetInitializer(self.0) }) else {
            return;
        };
        let elems = init.operands();
        let kept: Vec<Value> = elems
            .iter()
            .copied()
            .filter(|e| keep(e.strip_casts()))
            .collect();
        if kept.len() == elems.len() {
            return;
        }
        let name = self.name();
        if kept.is_empty() {
            self.delete_unused_global();
            return;
        }
        let elem_ty = kept[0].ty();
        let mut raw: Vec<_> = kept.iter().map(|v| v.0).collect();
        // SAFETY: live module and values; the new array has the old one's element type,
        // linkage and section, and takes its name once the old one is gone.
        unsafe {
            let arr = LLVMConstArray2(elem_ty.0, raw.as_mut_ptr(), raw.len() as u64);
            let m = LLVMGetGlobalParent(self.0);
            let g = LLVMAddGlobal(m, LLVMTypeOf(arr), c"".as_ptr());
            LLVMSetInitializer(g, arr);
            LLVMSetLinkage(g, llvm_sys::LLVMLinkage::LLVMAppendingLinkage);
            LLVMSetSection(g, LLVMGetSection(self.0));
            LLVMDeleteGlobal(self.0);
            Value(g).set_name(&name);
        }
    }
    /// Constant casts looked through (an array element's global).
    fn strip_casts(self) -> Value {
        let mut v = self;
        while v.is_constant_expr() && v.num_operands() > 0 {
            v = v.operand(0);
        }
        v
    }
}
