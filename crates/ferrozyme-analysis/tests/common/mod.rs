//! Helpers shared by the analysis tests: parse a `.ll` file under `tests/data/<dir>/`.
#![allow(dead_code)]

use ferrozyme_llvm::{Module, Value};
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;

/// Parses `tests/data/<dir>/<file>` and hands the module to `body` (the inkwell context
/// and module live for the duration of the call).
pub fn with_data_module(dir: &str, file: &str, body: impl FnOnce(Module)) {
    let path = format!("{}/tests/data/{dir}/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    let ctx = Context::create();
    let buf = MemoryBuffer::create_from_memory_range_copy(text.as_bytes(), file);
    let m = ctx
        .create_module_from_ir(buf)
        .unwrap_or_else(|e| panic!("parsing {file}: {e}"));
    body(Module::from_inkwell(&m));
}

/// The function `@name`.
pub fn func(m: Module, name: &str) -> Value {
    m.function(name)
        .unwrap_or_else(|| panic!("no function @{name}"))
}

/// The argument or instruction called `%name` in `f`.
pub fn val(f: Value, name: &str) -> Value {
    f.params()
        .into_iter()
        .chain(f.instructions())
        .find(|v| v.name() == name)
        .unwrap_or_else(|| panic!("no %{name} in @{}", f.name()))
}
