//! Unit-test support: LLVM IR text parsed into a module of a test's own context.

/// Parses `ir` (LLVM IR text) in `ctx`; a test whose IR does not parse fails here.
pub(crate) fn parse<'c>(
    ctx: &'c inkwell::context::Context,
    ir: &str,
) -> inkwell::module::Module<'c> {
    let buf =
        inkwell::memory_buffer::MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "t");
    ctx.create_module_from_ir(buf).expect("the test IR parses")
}
