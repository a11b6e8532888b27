//! Functions, their attributes and globals: the part of `Value`'s API that applies to a
//! function or global variable (parameters, blocks, linkage, attributes, memory effects,
//! initializers). Split from `ir.rs`, which holds the handles and instruction-level
//! accessors; the handle invariant stated there is what every `// SAFETY:` here relies on.

use llvm_sys::core::*;

use crate::ir::{opt_value, Block, Type, Value};

impl Value {
    pub fn params(self) -> Vec<Value> {
        debug_assert!(
            self.is_function(),
            "params on a value that is not a function: {self}"
        );
        // SAFETY: only on functions.
        unsafe {
            (0..LLVMCountParams(self.0))
                .map(|i| Value(LLVMGetParam(self.0, i)))
                .collect()
        }
    }
    pub fn blocks(self) -> Vec<Block> {
        debug_assert!(
            self.is_function(),
            "blocks on a value that is not a function: {self}"
        );
        let mut out = Vec::new();
        // SAFETY: walking the block list of a live function.
        unsafe {
            let mut b = LLVMGetFirstBasicBlock(self.0);
            while !b.is_null() {
                out.push(Block(b));
                b = LLVMGetNextBasicBlock(b);
            }
        }
        out
    }
    /// The function's instructions, block by block in layout order: the blocks are
    /// listed when the walk starts, and each block's instructions when the walk reaches
    /// that block (what `blocks().into_iter().flat_map(|b| b.instructions())` did at each
    /// use). An edit during the walk therefore shows only in blocks not reached yet; a
    /// pass that erases or moves instructions collects them first.
    pub fn instructions(self) -> impl Iterator<Item = Value> {
        self.blocks().into_iter().flat_map(|b| b.instructions())
    }
    /// The function's `call` instructions (not invokes or callbrs), in
    /// [`Value::instructions`] order.
    pub fn calls(self) -> impl Iterator<Item = Value> {
        self.instructions().filter(|i| i.is_call())
    }
    /// The function's `call` and `invoke` instructions (a C++ destructor at -O0 invokes
    /// what -O2 calls), in [`Value::instructions`] order.
    pub fn calls_and_invokes(self) -> impl Iterator<Item = Value> {
        self.instructions().filter(|i| {
            matches!(
                i.opcode(),
                Some(crate::Opcode::LLVMCall | crate::Opcode::LLVMInvoke)
            )
        })
    }
    /// The size of a function's body in instructions, the measure the inlining and
    /// merging caps of ferrozyme-transform are stated in.
    pub fn instruction_count(self) -> usize {
        self.blocks().iter().map(|b| b.instruction_count()).sum()
    }
    pub fn entry_block(self) -> Option<Block> {
        debug_assert!(
            self.is_function(),
            "entry_block on a value that is not a function: {self}"
        );
        // SAFETY: function.
        unsafe {
            if LLVMCountBasicBlocks(self.0) == 0 {
                None
            } else {
                Some(Block(LLVMGetEntryBasicBlock(self.0)))
            }
        }
    }
    pub fn is_declaration(self) -> bool {
        // SAFETY: global value.
        unsafe { LLVMIsDeclaration(self.0) != 0 }
    }
    /// The function's own type (not the pointer type).
    pub fn function_type(self) -> Type {
        debug_assert!(
            self.is_function(),
            "function_type on a value that is not a function: {self}"
        );
        // SAFETY: function.
        Type(unsafe { LLVMGlobalGetValueType(self.0) })
    }
    pub fn global_value_type(self) -> Type {
        // SAFETY: global value.
        Type(unsafe { LLVMGlobalGetValueType(self.0) })
    }
    pub fn intrinsic_id(self) -> u32 {
        // SAFETY: function.
        unsafe { LLVMGetIntrinsicID(self.0) }
    }
    /// Is this function the intrinsic `base` (`"llvm.memcpy"`, any overload)? Compared by
    /// intrinsic ID, not by name: `llvm.memcpy.inline` is not `llvm.memcpy`.
    pub fn is_intrinsic(self, base: &str) -> bool {
        let id = self.intrinsic_id();
        id != 0 && id == crate::module::intrinsic_id_of(base)
    }
    pub fn delete_function(self) {
        // SAFETY: function without remaining uses (caller).
        unsafe { LLVMDeleteFunction(self.0) }
    }
    /// Deletes a global variable that has no remaining uses.
    pub fn delete_global(self) {
        // SAFETY: global variable without remaining uses (caller).
        unsafe { LLVMDeleteGlobal(self.0) }
    }
    pub fn set_linkage_internal(self) {
        // SAFETY: global value.
        unsafe { LLVMSetLinkage(self.0, llvm_sys::LLVMLinkage::LLVMInternalLinkage) }
    }
    /// Weak linkage: a definition that yields to a strong one elsewhere at link time.
    pub fn set_linkage_weak(self) {
        // SAFETY: live global value.
        unsafe { LLVMSetLinkage(self.0, llvm_sys::LLVMLinkage::LLVMWeakAnyLinkage) }
    }
    /// External linkage (the default of a definition).
    pub fn set_linkage_external(self) {
        // SAFETY: live global value.
        unsafe { LLVMSetLinkage(self.0, llvm_sys::LLVMLinkage::LLVMExternalLinkage) }
    }
    pub fn set_linkage_private(self) {
        // SAFETY: global value.
        unsafe { LLVMSetLinkage(self.0, llvm_sys::LLVMLinkage::LLVMPrivateLinkage) }
    }
    pub fn has_fn_attr(self, name: &str) -> bool {
        let k = attr_kind(name);
        // SAFETY: function attribute query.
        unsafe {
            !LLVMGetEnumAttributeAtIndex(self.0, llvm_sys::LLVMAttributeFunctionIndex, k).is_null()
        }
    }
    pub fn remove_fn_attr(self, name: &str) {
        let k = attr_kind(name);
        // SAFETY: function attribute removal.
        unsafe { LLVMRemoveEnumAttributeAtIndex(self.0, llvm_sys::LLVMAttributeFunctionIndex, k) }
    }
    pub fn add_fn_attr(self, name: &str) {
        let k = attr_kind(name);
        // SAFETY: creating an enum attribute in the function's context.
        unsafe {
            let ctx = LLVMGetTypeContext(LLVMTypeOf(self.0));
            let a = LLVMCreateEnumAttribute(ctx, k, 0);
            LLVMAddAttributeAtIndex(self.0, llvm_sys::LLVMAttributeFunctionIndex, a);
        }
    }
    /// Adds the enum attribute `name` (e.g. "noalias") to parameter `i`.
    pub fn add_param_attr(self, i: u32, name: &str) {
        let k = attr_kind(name);
        // SAFETY: creating an enum attribute in the function's context; parameter indices
        // start at 1.
        unsafe {
            let ctx = LLVMGetTypeContext(LLVMTypeOf(self.0));
            let a = LLVMCreateEnumAttribute(ctx, k, 0);
            LLVMAddAttributeAtIndex(self.0, i + 1, a);
        }
    }
    /// Adds the integer enum attribute `name(value)` (e.g. `dereferenceable(8)`) to
    /// parameter `i`.
    pub fn add_param_int_attr(self, i: u32, name: &str, value: u64) {
        let k = attr_kind(name);
        // SAFETY: as `add_param_attr`.
        unsafe {
            let ctx = LLVMGetTypeContext(LLVMTypeOf(self.0));
            let a = LLVMCreateEnumAttribute(ctx, k, value);
            LLVMAddAttributeAtIndex(self.0, i + 1, a);
        }
    }
    /// The type of function parameter `i`'s `sret(T)` attribute, if present.
    pub fn param_sret_type(self, i: u32) -> Option<Type> {
        self.param_type_attr(i, "sret")
    }
    /// The type of function parameter `i`'s `byval(T)` attribute, if present.
    pub fn param_byval_type(self, i: u32) -> Option<Type> {
        self.param_type_attr(i, "byval")
    }
    /// The type of function parameter `i`'s type attribute `name` (`sret`, `byval`).
    fn param_type_attr(self, i: u32, name: &str) -> Option<Type> {
        debug_assert!(
            self.is_function(),
            "param_type_attr on a non-function: {self}"
        );
        let kind = attr_kind(name);
        // SAFETY: attribute query on a function; parameter indices start at 1.
        unsafe {
            let a = LLVMGetEnumAttributeAtIndex(self.0, i + 1, kind);
            if a.is_null() {
                None
            } else {
                Some(Type(llvm_sys::core::LLVMGetTypeAttributeValue(a)))
            }
        }
    }
    /// The `dereferenceable(N)` bytes of function parameter `i` (`Some(i)`) or of the
    /// return value (`None`), if the attribute is present. Clang puts it on C++
    /// references and `this` (`sizeof` the referenced type), Rust on `&T`.
    pub fn dereferenceable_bytes(self, param: Option<u32>) -> Option<u64> {
        let k = attr_kind("dereferenceable");
        let index = param.map_or(llvm_sys::LLVMAttributeReturnIndex, |i| i + 1);
        // SAFETY: attribute query on a function; parameter indices start at 1, the
        // return is index 0.
        unsafe {
            let a = LLVMGetEnumAttributeAtIndex(self.0, index, k);
            if a.is_null() {
                None
            } else {
                Some(LLVMGetEnumAttributeValue(a))
            }
        }
    }
    /// The integer value of parameter `i`'s enum attribute `name` (e.g.
    /// "dereferenceable"), if present.
    pub fn param_int_attr(self, i: u32, name: &str) -> Option<u64> {
        let k = attr_kind(name);
        // SAFETY: attribute query; parameter indices start at 1.
        unsafe {
            let a = LLVMGetEnumAttributeAtIndex(self.0, i + 1, k);
            if a.is_null() {
                None
            } else {
                Some(LLVMGetEnumAttributeValue(a))
            }
        }
    }
    /// Does parameter `i` carry the enum attribute `name` (e.g. "noalias", "readonly")?
    pub fn has_param_attr(self, i: u32, name: &str) -> bool {
        let k = attr_kind(name);
        // SAFETY: attribute query; parameter indices start at 1.
        unsafe { !LLVMGetEnumAttributeAtIndex(self.0, i + 1, k).is_null() }
    }
    /// The function's `memory(...)` attribute, decoded; `None` when absent (then the
    /// function may read and write anything).
    pub fn memory_effects(self) -> Option<MemoryEffects> {
        let k = attr_kind("memory");
        // SAFETY: attribute query.
        unsafe {
            let a = LLVMGetEnumAttributeAtIndex(self.0, llvm_sys::LLVMAttributeFunctionIndex, k);
            if a.is_null() {
                None
            } else {
                Some(MemoryEffects(LLVMGetEnumAttributeValue(a)))
            }
        }
    }
    /// The function's personality (`personality ptr @__gxx_personality_v0`), if any.
    pub fn personality(self) -> Option<Value> {
        // SAFETY: function; the personality is only read when present.
        unsafe {
            if LLVMHasPersonalityFn(self.0) == 0 {
                None
            } else {
                opt_value(LLVMGetPersonalityFn(self.0))
            }
        }
    }
    pub fn set_personality(self, p: Value) {
        // SAFETY: function and a constant (the personality routine).
        unsafe { LLVMSetPersonalityFn(self.0, p.0) }
    }
    /// Does the function carry the string attribute `key` (`"key"="..."` in IR)?
    pub fn has_string_fn_attr(self, key: &str) -> bool {
        self.has_string_attr_at(llvm_sys::LLVMAttributeFunctionIndex, key)
    }
    /// Adds the string attribute `"key"="value"` to the function.
    pub fn add_string_fn_attr(self, key: &str, value: &str) {
        self.add_string_attr_at(llvm_sys::LLVMAttributeFunctionIndex, key, value)
    }
    /// Adds the string attribute `"key"="value"` to parameter `i`.
    pub fn add_param_string_attr(self, i: u32, key: &str, value: &str) {
        // Parameter indices start at 1.
        self.add_string_attr_at(i + 1, key, value)
    }
    /// Does parameter `i` carry the string attribute `key`?
    pub fn has_param_string_attr(self, i: u32, key: &str) -> bool {
        self.has_string_attr_at(i + 1, key)
    }
    /// Removes the string attribute `key` from parameter `i` (nothing when absent).
    pub fn remove_param_string_attr(self, i: u32, key: &str) {
        // Parameter indices start at 1.
        self.remove_string_attr_at(i + 1, key)
    }
    /// Removes the function's string attribute `key` (nothing when absent).
    pub fn remove_string_fn_attr(self, key: &str) {
        self.remove_string_attr_at(llvm_sys::LLVMAttributeFunctionIndex, key)
    }
    fn remove_string_attr_at(self, idx: u32, key: &str) {
        // SAFETY: attribute removal by key (pointer + length).
        unsafe {
            LLVMRemoveStringAttributeAtIndex(
                self.0,
                idx,
                key.as_ptr() as *const _,
                key.len() as u32,
            )
        }
    }
    fn has_string_attr_at(self, idx: u32, key: &str) -> bool {
        // SAFETY: attribute query by key (pointer + length) at an attribute index of this
        // function.
        unsafe {
            !LLVMGetStringAttributeAtIndex(self.0, idx, key.as_ptr() as *const _, key.len() as u32)
                .is_null()
        }
    }
    fn add_string_attr_at(self, idx: u32, key: &str, value: &str) {
        // SAFETY: creating a string attribute in the function's context (LLVM copies the
        // key and value) at an attribute index of this function.
        unsafe {
            let ctx = LLVMGetTypeContext(LLVMTypeOf(self.0));
            let a = LLVMCreateStringAttribute(
                ctx,
                key.as_ptr() as *const _,
                key.len() as u32,
                value.as_ptr() as *const _,
                value.len() as u32,
            );
            LLVMAddAttributeAtIndex(self.0, idx, a);
        }
    }
    pub fn set_subprogram_none(self) {
        // SAFETY: function; null clears the attachment.
        unsafe { llvm_sys::debuginfo::LLVMSetSubprogram(self.0, std::ptr::null_mut()) }
    }

    // --- globals

    pub fn is_global_constant(self) -> bool {
        // SAFETY: global variable.
        unsafe { LLVMIsGlobalConstant(self.0) != 0 }
    }
    pub fn initializer(self) -> Option<Value> {
        // SAFETY: global variable.
        opt_value(unsafe { LLVMGetInitializer(self.0) })
    }
    /// Is this global variable thread-local (`_Thread_local`, `thread_local`)?
    pub fn is_thread_local(self) -> bool {
        // SAFETY: global variable.
        unsafe { LLVMIsThreadLocal(self.0) != 0 }
    }
    /// Gives this global variable `other`'s thread-local mode (none, general dynamic,
    /// local dynamic, initial exec, local exec).
    pub fn copy_thread_local_mode(self, other: Value) {
        // SAFETY: both global variables.
        unsafe { LLVMSetThreadLocalMode(self.0, LLVMGetThreadLocalMode(other.0)) }
    }
    pub fn set_global_constant(self) {
        // SAFETY: global variable.
        unsafe { LLVMSetGlobalConstant(self.0, 1) }
    }
    pub fn set_initializer(self, v: Value) {
        // SAFETY: global variable; types must match (caller).
        unsafe { LLVMSetInitializer(self.0, v.0) }
    }
}

/// A function's `memory(...)` attribute as LLVM 22 encodes it: two bits per location
/// kind (argument memory, inaccessible memory, other memory, and the target-specific
/// kinds after them), bit 0 of a pair meaning "may read" and bit 1 "may write".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryEffects(u64);

impl MemoryEffects {
    /// Reads or writes no memory at all (`memory(none)`).
    pub fn is_none(self) -> bool {
        self.0 == 0
    }
    /// Writes no memory of any kind (`memory(read)`, `memory(argmem: read)`, ...).
    pub fn only_reads(self) -> bool {
        self.0 & 0xAAAA_AAAA_AAAA_AAAA == 0
    }
    /// The raw encoding (for printing).
    pub fn bits(self) -> u64 {
        self.0
    }
}

pub fn attr_kind(name: &str) -> u32 {
    // SAFETY: pointer+len.
    unsafe { LLVMGetEnumAttributeKindForName(name.as_ptr() as *const _, name.len()) }
}

#[cfg(test)]
mod tests {
    use crate::{Module, Value};
    use inkwell::context::Context;
    use inkwell::memory_buffer::MemoryBuffer;

    const IR: &str = r#"
declare void @g()
declare i32 @__gxx_personality_v0(...)
define void @f(i1 %c) personality ptr @__gxx_personality_v0 {
entry:
  call void @g()
  br i1 %c, label %left, label %right
left:
  invoke void @g() to label %right unwind label %pad
right:
  %x = add i32 1, 2
  call void @g()
  ret void
pad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}
"#;

    fn names(it: impl Iterator<Item = Value>) -> Vec<String> {
        it.map(|i| format!("{:?}", i.opcode().expect("an instruction")))
            .collect()
    }

    #[test]
    fn definitions_instructions_and_calls_walk_in_order() {
        let ctx = Context::create();
        let buf = MemoryBuffer::create_from_memory_range_copy(IR.as_bytes(), "t.ll");
        let m = ctx.create_module_from_ir(buf).expect("the test IR parses");
        let module = Module::from_inkwell(&m);
        let f = module.function("f").expect("the test IR defines @f");
        assert!(module.definitions().eq([f]));
        let flat: Vec<Value> = f
            .blocks()
            .into_iter()
            .flat_map(|b| b.instructions())
            .collect();
        assert!(f.instructions().eq(flat));
        assert_eq!(
            names(f.instructions()),
            [
                "LLVMCall",
                "LLVMBr",
                "LLVMInvoke",
                "LLVMAdd",
                "LLVMCall",
                "LLVMRet",
                "LLVMLandingPad",
                "LLVMResume"
            ]
        );
        assert_eq!(names(f.calls()), ["LLVMCall", "LLVMCall"]);
        assert_eq!(
            names(f.calls_and_invokes()),
            ["LLVMCall", "LLVMInvoke", "LLVMCall"]
        );
    }
}
