//! Blocks, modules, the verifier and pass pipelines (part of the id-based view; see `ir.rs`).

use std::ffi::CStr;
use std::fmt;

use ferrozyme_rules::Op;
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::LLVMOpcode;

use crate::ir::{cstr, opt_value, own_message, Block, Context, Opcode, Type, Value};
use crate::Module;

// ---------------------------------------------------------------------------------------
// Blocks

impl fmt::Debug for Block {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Block({})", self.name())
    }
}

impl Block {
    pub fn raw(self) -> LLVMBasicBlockRef {
        self.0
    }
    pub fn name(self) -> String {
        // SAFETY: borrowed C string.
        unsafe {
            let p = LLVMGetBasicBlockName(self.0);
            if p.is_null() {
                String::new()
            } else {
                CStr::from_ptr(p).to_string_lossy().into_owned()
            }
        }
    }
    pub fn as_value(self) -> Value {
        // SAFETY: block.
        Value(unsafe { LLVMBasicBlockAsValue(self.0) })
    }
    pub fn parent(self) -> Value {
        // SAFETY: block inside a function.
        Value(unsafe { LLVMGetBasicBlockParent(self.0) })
    }
    pub fn instructions(self) -> Vec<Value> {
        let mut out = Vec::new();
        // SAFETY: walking the instruction list of a live block.
        unsafe {
            let mut i = LLVMGetFirstInstruction(self.0);
            while !i.is_null() {
                out.push(Value(i));
                i = LLVMGetNextInstruction(i);
            }
        }
        out
    }
    /// How many instructions the block holds (phis and terminator included), counted
    /// without collecting them.
    pub fn instruction_count(self) -> usize {
        let mut n = 0;
        // SAFETY: walking the instruction list of a live block.
        unsafe {
            let mut i = LLVMGetFirstInstruction(self.0);
            while !i.is_null() {
                n += 1;
                i = LLVMGetNextInstruction(i);
            }
        }
        n
    }
    pub fn first_instruction(self) -> Option<Value> {
        // SAFETY: block.
        opt_value(unsafe { LLVMGetFirstInstruction(self.0) })
    }
    pub fn terminator(self) -> Option<Value> {
        // SAFETY: block.
        opt_value(unsafe { LLVMGetBasicBlockTerminator(self.0) })
    }
    pub fn successors(self) -> Vec<Block> {
        self.terminator()
            .map(|t| t.successors())
            .unwrap_or_default()
    }
    /// The first instruction that is not a phi node.
    pub fn first_non_phi(self) -> Option<Value> {
        self.instructions()
            .into_iter()
            .find(|i| i.opcode() != Some(Opcode::LLVMPHI))
    }
    pub fn phis(self) -> Vec<Value> {
        self.instructions()
            .into_iter()
            .take_while(|i| i.opcode() == Some(Opcode::LLVMPHI))
            .collect()
    }
    pub fn delete(self) {
        // SAFETY: the block has no remaining uses (caller).
        unsafe { LLVMDeleteBasicBlock(self.0) }
    }
    /// A new empty block placed just before this one in its function.
    pub fn insert_before(self, ctx: Context, name: &str) -> Block {
        let n = cstr(name);
        // SAFETY: live block and context.
        Block(unsafe { LLVMInsertBasicBlockInContext(ctx.0, self.0, n.as_ptr()) })
    }
}

// ---------------------------------------------------------------------------------------
// Modules

/// Removes a local value's name (a no-op for an unnamed one).
///
/// # Safety
/// `v` must be a live local value (argument, block or instruction).
unsafe fn clear_name(v: LLVMValueRef) {
    let mut len = 0usize;
    // SAFETY: the caller's; LLVM returns a pointer into its own storage.
    unsafe {
        LLVMGetValueName2(v, &mut len);
        if len > 0 {
            LLVMSetValueName2(v, c"".as_ptr(), 0);
        }
    }
}

/// What `Module::strip_const_geps_through` looks through besides getelementptr
/// instructions with constant indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Through {
    /// Those GEPs only.
    Geps,
    /// Also `bitcast` and `addrspacecast` instructions.
    GepsAndCasts,
    /// Also constant-expression GEPs and casts (a field of a global).
    GepsCastsAndConstants,
}

impl Module {
    pub fn context(self) -> Context {
        // SAFETY: module alive.
        Context(unsafe { LLVMGetModuleContext(self.0) })
    }
    pub fn functions(self) -> Vec<Value> {
        let mut out = Vec::new();
        // SAFETY: walking the function list of a live module.
        unsafe {
            let mut f = LLVMGetFirstFunction(self.0);
            while !f.is_null() {
                out.push(Value(f));
                f = LLVMGetNextFunction(f);
            }
        }
        out
    }
    /// The functions with a body, in module order (`functions()` less the
    /// declarations; each is asked when the walk reaches it).
    pub fn definitions(self) -> impl Iterator<Item = Value> {
        self.functions().into_iter().filter(|f| !f.is_declaration())
    }
    /// Drops the names of every function's local values (arguments, blocks,
    /// instructions) and makes the context drop the names of local values made from now
    /// on; functions and globals keep theirs. This is clang's `-discard-value-names` (its
    /// default): no object file or assembly listing shows these names, but every pass
    /// copies, uniques and frees them (inlining and SROA alone make names like
    /// `%fz.tape34.i298.sroa.12.0..sroa_idx` in generated code). Parsing textual IR
    /// needs names kept; `link_ir_text` switches the discarding off while it parses.
    pub fn discard_value_names(self) {
        // SAFETY: the module and its context are alive; only local values are renamed
        // (to no name), which no instruction's meaning depends on.
        unsafe {
            LLVMContextSetDiscardValueNames(self.context().0, 1);
            let mut f = LLVMGetFirstFunction(self.0);
            while !f.is_null() {
                for i in 0..LLVMCountParams(f) {
                    clear_name(LLVMGetParam(f, i));
                }
                let mut b = LLVMGetFirstBasicBlock(f);
                while !b.is_null() {
                    clear_name(LLVMBasicBlockAsValue(b));
                    let mut i = LLVMGetFirstInstruction(b);
                    while !i.is_null() {
                        clear_name(i);
                        i = LLVMGetNextInstruction(i);
                    }
                    b = LLVMGetNextBasicBlock(b);
                }
                f = LLVMGetNextFunction(f);
            }
        }
    }
    pub fn globals(self) -> Vec<Value> {
        let mut out = Vec::new();
        // SAFETY: walking the global list of a live module.
        unsafe {
            let mut g = LLVMGetFirstGlobal(self.0);
            while !g.is_null() {
                out.push(Value(g));
                g = LLVMGetNextGlobal(g);
            }
        }
        out
    }
    pub fn function(self, name: &str) -> Option<Value> {
        let c = cstr(name);
        // SAFETY: module alive; C string outlives the call.
        opt_value(unsafe { LLVMGetNamedFunction(self.0, c.as_ptr()) })
    }
    /// The module's `source_filename` (the path clang was given), lossily as UTF-8.
    pub fn source_file_name(self) -> String {
        let mut len = 0usize;
        // SAFETY: module alive; LLVM returns a pointer to `len` bytes it owns.
        let p = unsafe { LLVMGetSourceFileName(self.0, &mut len) };
        if p.is_null() {
            return String::new();
        }
        // SAFETY: `p` points to `len` bytes owned by the module.
        let bytes = unsafe { std::slice::from_raw_parts(p as *const u8, len) };
        String::from_utf8_lossy(bytes).into_owned()
    }
    pub fn global(self, name: &str) -> Option<Value> {
        let c = cstr(name);
        // SAFETY: module alive.
        opt_value(unsafe { LLVMGetNamedGlobal(self.0, c.as_ptr()) })
    }
    /// Adds a function definition shell (no blocks) or declaration.
    pub fn add_function(self, name: &str, fn_ty: Type) -> Value {
        let c = cstr(name);
        // SAFETY: module alive.
        Value(unsafe { LLVMAddFunction(self.0, c.as_ptr(), fn_ty.0) })
    }
    /// Gets or declares a function of this name and type.
    pub fn get_or_declare(self, name: &str, fn_ty: Type) -> Value {
        match self.function(name) {
            Some(f) => f,
            None => self.add_function(name, fn_ty),
        }
    }
    pub fn add_global(self, name: &str, ty: Type) -> Value {
        let c = cstr(name);
        // SAFETY: module alive.
        Value(unsafe { LLVMAddGlobal(self.0, ty.0, c.as_ptr()) })
    }
    /// A private constant NUL-terminated string; returns the global (a pointer to it).
    pub fn add_string(self, name: &str, text: &str) -> Value {
        let ctx = self.context();
        // SAFETY: context alive; pointer+len; the global takes the constant as initializer.
        unsafe {
            let init = LLVMConstStringInContext2(ctx.0, text.as_ptr() as *const _, text.len(), 0);
            let g = self.add_global(name, Type(LLVMTypeOf(init)));
            LLVMSetInitializer(g.0, init);
            LLVMSetGlobalConstant(g.0, 1);
            LLVMSetLinkage(g.0, llvm_sys::LLVMLinkage::LLVMPrivateLinkage);
            g
        }
    }
    /// The declaration of an overloaded LLVM intrinsic (e.g. `llvm.cos` at `double`).
    pub fn intrinsic(self, name: &str, overloads: &[Type]) -> Option<Value> {
        // SAFETY: pointer+len; overload array outlives the call.
        unsafe {
            let id = LLVMLookupIntrinsicID(name.as_ptr() as *const _, name.len());
            if id == 0 {
                return None;
            }
            let mut tys: Vec<LLVMTypeRef> = overloads.iter().map(|t| t.0).collect();
            opt_value(LLVMGetIntrinsicDeclaration(
                self.0,
                id,
                tys.as_mut_ptr(),
                tys.len(),
            ))
        }
    }
    /// Store size of a type in bytes, per the module's data layout.
    pub fn store_size(self, ty: Type) -> u64 {
        // SAFETY: module alive; the data layout is owned by the module.
        unsafe {
            llvm_sys::target::LLVMStoreSizeOfType(
                llvm_sys::target::LLVMGetModuleDataLayout(self.0),
                ty.0,
            )
        }
    }
    /// ABI allocation size of a type in bytes (what arrays of it use per element).
    pub fn alloc_size(self, ty: Type) -> u64 {
        // SAFETY: module alive.
        unsafe {
            llvm_sys::target::LLVMABISizeOfType(
                llvm_sys::target::LLVMGetModuleDataLayout(self.0),
                ty.0,
            )
        }
    }
    /// Byte offset of field `i` of a struct type.
    pub fn field_offset(self, sty: Type, i: u32) -> u64 {
        // SAFETY: module alive; sty is a struct type.
        unsafe {
            llvm_sys::target::LLVMOffsetOfElement(
                llvm_sys::target::LLVMGetModuleDataLayout(self.0),
                sty.0,
                i,
            )
        }
    }
    /// The byte offset of a getelementptr instruction whose indices are all constant.
    pub fn const_gep_offset(self, gep: Value) -> Option<i64> {
        if gep.opcode() != Some(Opcode::LLVMGetElementPtr) {
            return None;
        }
        self.gep_offset(gep)
    }
    /// The byte offset of `gep`, a getelementptr instruction or constant expression, when
    /// all its indices are constant (and index structs, arrays or vectors).
    fn gep_offset(self, gep: Value) -> Option<i64> {
        let mut ty = gep.gep_source_type();
        let mut off: i64 = 0;
        for k in 1..gep.num_operands() {
            let c = gep.operand(k).const_int_value()?;
            if k == 1 {
                off = off.checked_add(c.checked_mul(self.alloc_size(ty) as i64)?)?;
                continue;
            }
            match ty.kind() {
                crate::TypeKind::Struct => {
                    let field = *ty.struct_fields().get(usize::try_from(c).ok()?)?;
                    off = off.checked_add(self.field_offset(ty, c as u32) as i64)?;
                    ty = field;
                }
                crate::TypeKind::Array | crate::TypeKind::Vector => {
                    ty = ty.element_type();
                    off = off.checked_add(c.checked_mul(self.alloc_size(ty) as i64)?)?;
                }
                _ => return None,
            }
        }
        Some(off)
    }
    /// Deletes the defined functions whose name starts with `prefix` and that nothing
    /// uses, again until none is left (a deleted function may have been the last user of
    /// another): runtime and rule functions the generated code did not call.
    pub fn prune_unused_functions(self, prefix: &str) {
        loop {
            let dead: Vec<Value> = self
                .functions()
                .into_iter()
                .filter(|f| {
                    f.name().starts_with(prefix) && !f.is_declaration() && f.users().is_empty()
                })
                .collect();
            if dead.is_empty() {
                return;
            }
            for f in dead {
                f.delete_function();
            }
        }
    }
    /// `(base, offset)`: `p` is `base` plus a constant byte offset through getelementptr
    /// instructions with constant indices (at most 16 of them). The first GEP with a
    /// variable index, or any other value, is the base.
    pub fn strip_const_geps(self, p: Value) -> (Value, i64) {
        let (base, off) = self.strip_const_geps_through(p, Through::Geps);
        (base, off.unwrap_or(i64::MAX))
    }
    /// `strip_const_geps` that also looks through what `through` names. The offset is
    /// `None` when it overflows; the base is the first value the walk does not look
    /// through (a GEP with a variable index among them) or the value reached after 32 steps.
    pub fn strip_const_geps_through(self, p: Value, through: Through) -> (Value, Option<i64>) {
        let mut v = p;
        let mut off = Some(0i64);
        let steps = if through == Through::Geps { 16 } else { 32 };
        for _ in 0..steps {
            let gep = match (v.opcode(), through) {
                (Some(Opcode::LLVMGetElementPtr), _) => self.gep_offset(v),
                (Some(Opcode::LLVMBitCast | Opcode::LLVMAddrSpaceCast), t)
                    if t != Through::Geps =>
                {
                    v = v.operand(0);
                    continue;
                }
                (None, Through::GepsCastsAndConstants) => match v.const_opcode() {
                    Some(Opcode::LLVMGetElementPtr) => self.gep_offset(v),
                    Some(Opcode::LLVMBitCast | Opcode::LLVMAddrSpaceCast) => {
                        v = v.operand(0);
                        continue;
                    }
                    _ => None,
                },
                _ => None,
            };
            match gep {
                Some(d) => {
                    off = off.and_then(|o| o.checked_add(d));
                    v = v.operand(0);
                }
                None => break,
            }
        }
        (v, off)
    }
    /// The module's data layout string.
    pub fn data_layout(self) -> String {
        // SAFETY: module alive; borrowed C string.
        unsafe {
            CStr::from_ptr(LLVMGetDataLayoutStr(self.0))
                .to_string_lossy()
                .into_owned()
        }
    }
    /// The module's target triple.
    pub fn target_triple(self) -> String {
        // SAFETY: module alive; borrowed C string.
        unsafe {
            CStr::from_ptr(LLVMGetTarget(self.0))
                .to_string_lossy()
                .into_owned()
        }
    }
    /// The module printed as textual IR.
    pub fn to_ir_string(self) -> String {
        // SAFETY: module alive; owned message.
        own_message(unsafe { LLVMPrintModuleToString(self.0) })
    }
    /// Runs LLVM's verifier; `Err` carries its message.
    pub fn verify(self) -> Result<(), String> {
        let mut msg = std::ptr::null_mut();
        // SAFETY: module alive; message owned.
        let bad = unsafe {
            llvm_sys::analysis::LLVMVerifyModule(
                self.0,
                llvm_sys::analysis::LLVMVerifierFailureAction::LLVMReturnStatusAction,
                &mut msg,
            )
        };
        let text = own_message(msg);
        if bad != 0 {
            Err(text)
        } else {
            Ok(())
        }
    }
}

/// Verifies one function; `false` when broken.
pub fn verify_function(f: Value) -> bool {
    // SAFETY: live function; print nothing.
    unsafe {
        llvm_sys::analysis::LLVMVerifyFunction(
            f.0,
            llvm_sys::analysis::LLVMVerifierFailureAction::LLVMReturnStatusAction,
        ) == 0
    }
}

/// Runs a new-pass-manager pipeline string (e.g. `"sroa,mem2reg"`) on one function.
pub fn run_function_passes(f: Value, pipeline: &str) -> Result<(), String> {
    // SAFETY: live function; `p` and `opts` are live for the call.
    run_pipeline(pipeline, |p, opts| unsafe {
        llvm_sys::transforms::pass_builder::LLVMRunPassesOnFunction(
            f.0,
            p,
            std::ptr::null_mut(),
            opts,
        )
    })
}

/// Runs a pipeline string (e.g. `"default<O2>"`) on a whole module.
pub fn run_module_passes(m: Module, pipeline: &str) -> Result<(), String> {
    // SAFETY: live module; `p` and `opts` are live for the call.
    run_pipeline(pipeline, |p, opts| unsafe {
        llvm_sys::transforms::pass_builder::LLVMRunPasses(m.0, p, std::ptr::null_mut(), opts)
    })
}

/// Calls `run` with the pipeline text and fresh pass-builder options (disposed after),
/// turning the error it returns into its message.
fn run_pipeline(
    pipeline: &str,
    run: impl FnOnce(
        *const std::ffi::c_char,
        llvm_sys::transforms::pass_builder::LLVMPassBuilderOptionsRef,
    ) -> llvm_sys::error::LLVMErrorRef,
) -> Result<(), String> {
    let p = cstr(pipeline);
    // SAFETY: options created and disposed here; the error message is owned.
    unsafe {
        let opts = llvm_sys::transforms::pass_builder::LLVMCreatePassBuilderOptions();
        let err = run(p.as_ptr(), opts);
        llvm_sys::transforms::pass_builder::LLVMDisposePassBuilderOptions(opts);
        if err.is_null() {
            Ok(())
        } else {
            Err(own_message(llvm_sys::error::LLVMGetErrorMessage(err)))
        }
    }
}

/// Is this an exception-handling instruction (`invoke`, `landingpad`, funclet pads and
/// returns, `resume`)? The derivative sweeps never replay these.
pub fn is_exception_handling(op: Opcode) -> bool {
    use LLVMOpcode::*;
    matches!(
        op,
        LLVMInvoke
            | LLVMLandingPad
            | LLVMResume
            | LLVMCleanupPad
            | LLVMCatchPad
            | LLVMCatchSwitch
            | LLVMCatchRet
            | LLVMCleanupRet
    )
}

/// The ID of the intrinsic named `base` (`"llvm.sin"`, without type suffixes), 0 when LLVM
/// has none of that name.
pub fn intrinsic_id_of(base: &str) -> u32 {
    // SAFETY: pointer + length of a string that outlives the call.
    unsafe { LLVMLookupIntrinsicID(base.as_ptr() as *const _, base.len()) }
}

/// The rules' opcode for an LLVM opcode: an exhaustive mapping, so an opcode a new LLVM
/// adds cannot be classified by accident (`None` for the pass-internal `UserOp1/2`).
pub fn rules_op(op: Opcode) -> Option<Op> {
    use LLVMOpcode::*;
    Some(match op {
        LLVMRet => Op::Ret,
        LLVMBr => Op::Br,
        LLVMSwitch => Op::Switch,
        LLVMIndirectBr => Op::IndirectBr,
        LLVMInvoke => Op::Invoke,
        LLVMUnreachable => Op::Unreachable,
        LLVMCallBr => Op::CallBr,
        LLVMFNeg => Op::FNeg,
        LLVMAdd => Op::Add,
        LLVMFAdd => Op::FAdd,
        LLVMSub => Op::Sub,
        LLVMFSub => Op::FSub,
        LLVMMul => Op::Mul,
        LLVMFMul => Op::FMul,
        LLVMUDiv => Op::UDiv,
        LLVMSDiv => Op::SDiv,
        LLVMFDiv => Op::FDiv,
        LLVMURem => Op::URem,
        LLVMSRem => Op::SRem,
        LLVMFRem => Op::FRem,
        LLVMShl => Op::Shl,
        LLVMLShr => Op::LShr,
        LLVMAShr => Op::AShr,
        LLVMAnd => Op::And,
        LLVMOr => Op::Or,
        LLVMXor => Op::Xor,
        LLVMAlloca => Op::Alloca,
        LLVMLoad => Op::Load,
        LLVMStore => Op::Store,
        LLVMGetElementPtr => Op::GetElementPtr,
        LLVMTrunc => Op::Trunc,
        LLVMZExt => Op::ZExt,
        LLVMSExt => Op::SExt,
        LLVMFPToUI => Op::FpToUi,
        LLVMFPToSI => Op::FpToSi,
        LLVMUIToFP => Op::UiToFp,
        LLVMSIToFP => Op::SiToFp,
        LLVMFPTrunc => Op::FpTrunc,
        LLVMFPExt => Op::FpExt,
        LLVMPtrToInt => Op::PtrToInt,
        LLVMIntToPtr => Op::IntToPtr,
        LLVMBitCast => Op::BitCast,
        LLVMAddrSpaceCast => Op::AddrSpaceCast,
        LLVMICmp => Op::ICmp,
        LLVMFCmp => Op::FCmp,
        LLVMPHI => Op::Phi,
        LLVMCall => Op::Call,
        LLVMSelect => Op::Select,
        LLVMVAArg => Op::VaArg,
        LLVMExtractElement => Op::ExtractElement,
        LLVMInsertElement => Op::InsertElement,
        LLVMShuffleVector => Op::ShuffleVector,
        LLVMExtractValue => Op::ExtractValue,
        LLVMInsertValue => Op::InsertValue,
        LLVMFreeze => Op::Freeze,
        LLVMFence => Op::Fence,
        LLVMAtomicCmpXchg => Op::CmpXchg,
        LLVMAtomicRMW => Op::AtomicRmw,
        LLVMResume => Op::Resume,
        LLVMLandingPad => Op::LandingPad,
        LLVMCleanupRet => Op::CleanupRet,
        LLVMCatchRet => Op::CatchRet,
        LLVMCatchPad => Op::CatchPad,
        LLVMCleanupPad => Op::CleanupPad,
        LLVMCatchSwitch => Op::CatchSwitch,
        LLVMPtrToAddr => Op::PtrToAddr,
        LLVMUserOp1 | LLVMUserOp2 => return None,
    })
}

/// The opcode as spelled in textual IR (`"fadd"`); `"userop"` for the pass-internal ones.
pub fn opcode_name(op: Opcode) -> &'static str {
    rules_op(op).map_or("userop", Op::name)
}

/// Sets LLVM's process-wide command-line options (e.g. `-vectorize-loops=false`), the
/// switches `opt` and `clang -mllvm` reach. LLVM accepts each option once per process,
/// so only the first call has an effect; later calls are ignored.
pub fn set_llvm_options(opts: &[&str]) {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let args: Vec<std::ffi::CString> = std::iter::once("ferrozyme")
            .chain(opts.iter().copied())
            .map(cstr)
            .collect();
        let ptrs: Vec<*const std::os::raw::c_char> = args.iter().map(|a| a.as_ptr()).collect();
        let overview = cstr("");
        // SAFETY: argv of NUL-terminated strings that outlive the call.
        unsafe {
            llvm_sys::support::LLVMParseCommandLineOptions(
                ptrs.len() as i32,
                ptrs.as_ptr(),
                overview.as_ptr(),
            )
        }
    });
}
