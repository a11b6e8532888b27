//! The source function a debug location belongs to: the `DISubprogram` above the
//! location's scope, even when the code was inlined into another function.
//!
//! Diagnostics about inlined code (Rust code is inlined heavily before it is
//! differentiated) then name the function the user wrote, by its linkage name (which
//! front ends demangle), not the function it ended up in. The C API has no accessor for a
//! scope's parent or a subprogram's name, so the metadata nodes' operands are read
//! directly: for `DILexicalBlock(File)` operand 1 is the parent scope; for
//! `DISubprogram` operand 2 is the name and operand 3 the linkage name (LLVM 22's
//! layout; `scope_function` returns `None` when the layout does not fit).
//!
//! `inlined_chain` reads the calls an inlined location went through (its `inlinedAt`
//! chain), among which is where the user's own code reached a library's (front39: a
//! `BTreeMap::insert` inlined into the differentiated function).

use llvm_sys::core::*;
use llvm_sys::debuginfo::*;
use llvm_sys::prelude::*;

use crate::ir::Value;

/// The linkage name (else the name) of the subprogram enclosing `inst`'s location.
pub(crate) fn scope_function(inst: Value) -> Option<String> {
    // SAFETY: `inst` is an instruction; the location's scope is read by `subprogram_name`.
    unsafe {
        let loc = LLVMInstructionGetDebugLoc(inst.0);
        if loc.is_null() {
            return None;
        }
        let ctx = LLVMGetTypeContext(LLVMTypeOf(inst.0));
        subprogram_name(ctx, LLVMDILocationGetScope(loc))
    }
}

/// The linkage name (else the name) of the subprogram enclosing the debug scope `scope`.
unsafe fn subprogram_name(ctx: LLVMContextRef, mut scope: LLVMMetadataRef) -> Option<String> {
    // SAFETY: every metadata node is checked for its kind and operand count before
    // operands are read; strings are borrowed with their lengths.
    unsafe {
        for _ in 0..64 {
            if scope.is_null() {
                return None;
            }
            let node = LLVMMetadataAsValue(ctx, scope);
            let ops = operands(node);
            match LLVMGetMetadataKind(scope) {
                LLVMMetadataKind::LLVMDISubprogramMetadataKind => {
                    return string_operand(&ops, 3).or_else(|| string_operand(&ops, 2));
                }
                LLVMMetadataKind::LLVMDILexicalBlockMetadataKind
                | LLVMMetadataKind::LLVMDILexicalBlockFileMetadataKind => {
                    let parent = *ops.get(1)?;
                    if parent.is_null() {
                        return None;
                    }
                    scope = LLVMValueAsMetadata(parent);
                }
                _ => return None,
            }
        }
        None
    }
}

/// The calls the inliner expanded to bring the code of `inst` into the function it is in
/// now, innermost first: each location of its `inlinedAt` chain, with the function that
/// location is in (the last one is in the function `inst` is in now). Empty for code that
/// was not inlined, or without debug info.
pub(crate) fn inlined_chain(inst: Value) -> Vec<crate::SourceLoc> {
    let mut out = Vec::new();
    // SAFETY: `inst` is an instruction; `LLVMDILocationGetInlinedAt` returns null at the
    // chain's end; every node read below is a `DILocation` (an `inlinedAt` operand is one
    // by the verifier's rules); scopes and files are checked for null.
    unsafe {
        let loc = LLVMInstructionGetDebugLoc(inst.0);
        if loc.is_null() {
            return out;
        }
        let ctx = LLVMGetTypeContext(LLVMTypeOf(inst.0));
        let mut at = LLVMDILocationGetInlinedAt(loc);
        while !at.is_null() && out.len() < 256 {
            let scope = LLVMDILocationGetScope(at);
            out.push(crate::SourceLoc {
                file: scope_file(scope),
                line: LLVMDILocationGetLine(at),
                col: LLVMDILocationGetColumn(at),
                function: subprogram_name(ctx, scope),
            });
            at = LLVMDILocationGetInlinedAt(at);
        }
    }
    out
}

/// The file name of a debug scope (`<unknown>` without one).
unsafe fn scope_file(scope: LLVMMetadataRef) -> String {
    // SAFETY: `scope` is a scope or null; the file name is borrowed with its length.
    unsafe {
        let file = if scope.is_null() {
            std::ptr::null_mut()
        } else {
            LLVMDIScopeGetFile(scope)
        };
        if file.is_null() {
            return String::from("<unknown>");
        }
        let mut len = 0u32;
        let p = LLVMDIFileGetFilename(file, &mut len);
        if p.is_null() {
            return String::from("<unknown>");
        }
        String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len as usize))
            .into_owned()
    }
}

unsafe fn operands(node: LLVMValueRef) -> Vec<LLVMValueRef> {
    // SAFETY: `node` is metadata wrapped as a value (caller); the buffer has room for
    // every operand.
    unsafe {
        let n = LLVMGetMDNodeNumOperands(node) as usize;
        let mut v = vec![std::ptr::null_mut(); n];
        if n > 0 {
            LLVMGetMDNodeOperands(node, v.as_mut_ptr());
        }
        v
    }
}

unsafe fn string_operand(ops: &[LLVMValueRef], k: usize) -> Option<String> {
    let v = *ops.get(k)?;
    if v.is_null() {
        return None;
    }
    let mut len = 0u32;
    // SAFETY: `v` is a metadata operand; LLVMGetMDString returns null for non-strings.
    let p = unsafe { LLVMGetMDString(v, &mut len) };
    if p.is_null() || len == 0 {
        return None;
    }
    // SAFETY: LLVM's string of `len` bytes, alive while the context is.
    let bytes = unsafe { std::slice::from_raw_parts(p as *const u8, len as usize) };
    Some(String::from_utf8_lossy(bytes).into_owned())
}
