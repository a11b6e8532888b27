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

use llvm_sys::core::*;
use llvm_sys::debuginfo::*;
use llvm_sys::prelude::*;

use crate::ir::Value;

/// The linkage name (else the name) of the subprogram enclosing `inst`'s location.
pub(crate) fn scope_function(inst: Value) -> Option<String> {
    // SAFETY: `inst` is an instruction; every metadata node is checked for its kind and
    // operand count before operands are read; strings are borrowed with their lengths.
    unsafe {
        let loc = LLVMInstructionGetDebugLoc(inst.0);
        if loc.is_null() {
            return None;
        }
        let ctx = LLVMGetTypeContext(LLVMTypeOf(inst.0));
        let mut scope = LLVMDILocationGetScope(loc);
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
