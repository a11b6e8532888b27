//! libFuzzer target: arbitrary bytes as LLVM IR text (or bitcode) through the whole pass.
//! Any outcome is fine except a crash: a panic, an abort, or an `internal-error`
//! diagnostic (the pass produced IR that LLVM's verifier rejects).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(diags) = ferrozyme_transform::run_on_ir_text(data, &Default::default()) {
        for d in &diags {
            assert!(
                d.kind.code() != "internal-error",
                "internal error on fuzz input: {d}"
            );
        }
    }
});
