//! A thin, id-based view over LLVM 22 for Ferrozyme — the only crate with `unsafe`.
//!
//! LLVM objects are referred to by small `Copy` newtypes (`Value`, `Block`, `Type`,
//! `Function`, `Module`) that hash by pointer identity, so analyses can keep their
//! results in ordinary Rust maps keyed by LLVM values. Ownership of the LLVM context and
//! module stays with the caller (inkwell in the CLI, LLVM itself in the plugin).

pub mod diag;

pub use diag::{demangle_cxx, DiagKind, Diagnostic, Remark, RemarkKind, SourceLoc};

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

pub mod atomics;
pub mod builder;
mod callsite;
pub mod clock;
mod code_parts;
pub mod fastmath;
pub mod function;
pub mod huge_pages;
mod inst_flags;
pub mod ir;
mod linkage;
pub mod module;
mod named_md;
mod scope;
mod strings;
pub mod types;

pub use builder::Builder;
pub use code_parts::AppendingArray;
pub use ir::{
    AtomicRmwOp, Block, Context, IntPredicate, MemoryEffects, Opcode, RealPredicate, Type, Value,
};
pub use module::{
    intrinsic_id_of, is_exception_handling, opcode_name, rules_op, run_function_passes,
    run_module_passes, set_llvm_options, verify_function, Through,
};
pub use types::TypeKind;

/// Why textual IR could not be linked into a module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkError {
    /// LLVM's parser rejected the text (its message).
    Parse(String),
    /// The linker refused the parsed module (conflicting definitions).
    Link { name: String },
}

impl std::fmt::Display for LinkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LinkError::Parse(msg) => write!(f, "{msg}"),
            LinkError::Link { name } => write!(f, "linking {name} failed"),
        }
    }
}

/// Links textual IR written without a target into `module`, under the module's own data
/// layout and triple (the runtimes and rule libraries carried as IR text).
pub fn link_ir_for_target(module: Module, body: &str, name: &str) -> Result<(), LinkError> {
    let text = format!(
        "target datalayout = \"{}\"\ntarget triple = \"{}\"\n{body}",
        module.data_layout(),
        module.target_triple()
    );
    link_ir_text(module, &text, name)
}

/// Parses textual IR in the module's context and links it into `module`.
pub fn link_ir_text(module: Module, text: &str, name: &str) -> Result<(), LinkError> {
    use llvm_sys::core::*;
    let ctx = module.context();
    let cname = ir::cstr(name);
    // SAFETY: the buffer copies `text` and is ours to dispose (ParseIRInContext2 does not
    // take it); on success the parsed module is consumed by the
    // linker (LLVMLinkModules2 destroys the source module); on failure nothing leaks but
    // the message, which we own.
    unsafe {
        let buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
            text.as_ptr() as *const _,
            text.len(),
            cname.as_ptr(),
        );
        let mut src = std::ptr::null_mut();
        let mut msg = std::ptr::null_mut();
        // clang's context discards value names, and the textual IR reader refuses such a
        // context; keep names while parsing.
        let discard = LLVMContextShouldDiscardValueNames(ctx.raw());
        LLVMContextSetDiscardValueNames(ctx.raw(), 0);
        let bad =
            llvm_sys::ir_reader::LLVMParseIRInContext2(ctx.raw(), buf, &mut src, &mut msg) != 0;
        LLVMContextSetDiscardValueNames(ctx.raw(), discard);
        LLVMDisposeMemoryBuffer(buf);
        if bad {
            let s = std::ffi::CStr::from_ptr(msg).to_string_lossy().into_owned();
            LLVMDisposeMessage(msg);
            return Err(LinkError::Parse(s));
        }
        if llvm_sys::linker::LLVMLinkModules2(module.raw(), src) != 0 {
            return Err(LinkError::Link {
                name: name.to_string(),
            });
        }
    }
    Ok(())
}
