//! Whether the post-AD pipeline should inline the merged derivatives before anything else
//! runs (compile time, issue 18).
//!
//! `merge.rs` marks derivatives called from one place `alwaysinline`; LLVM's `default<O2>`
//! inlines them only after its early function passes (SimplifyCFG, SROA, EarlyCSE) and the
//! module passes before the inliner (IPSCCP, GlobalOpt, then InstCombine on every
//! function) have run over each piece on its own. For a huge straight-line derivative
//! whose tape is a fixed buffer of its caller (`frame_buffers.rs`: the augmented forward
//! stores every taped value into it, the reverse loads each back), those early passes
//! work through a thousand tape stores and loads per piece that SROA turns into SSA values
//! as soon as both pieces sit in one function. Inlined first, the early passes meet the
//! merged function and SROA removes the tape traffic at its first run.
//!
//! Measured on `bench/compile_scaling`'s `big` (`opt-22 -passes='default<O2>'` against
//! `-passes='always-inline,default<O2>'` on the module the pipeline gets, callgrind, the
//! `opt-22` process): n = 320 498M -> 415M instructions, n = 640 1,053M -> 866M; the code
//! is the same up to the order of a few reverse instructions (object text 71,504 -> 71,510
//! bytes at n = 320, 135,102 -> 135,141 at n = 640).
//!
//! [`wanted`] asks for it only where such a merge exists (the condition of
//! `slp_limit::merged_candidate`: a generated straight-line `alwaysinline` function with a
//! block of more than `slp_limit::MIN_BLOCK` instructions, merged into a generated
//! host), so every other module goes through the pipeline exactly as before.

use ferrozyme_llvm::Module;

use crate::slp_limit::merged_host;

/// Whether the module holds a huge straight-line derivative that `merge.rs` merges into
/// its caller: then `always-inline` should run before the post-AD pipeline.
pub fn wanted(module: Module) -> bool {
    module
        .functions()
        .into_iter()
        .any(|f| merged_host(f).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A generated host calling a generated `alwaysinline` piece of `len` chained `fadd`s
    /// in one block (a branch around them when `looped`, back to the top).
    fn module_text(len: usize, looped: bool, generated_host: bool) -> String {
        let mut body = String::new();
        let mut prev = "%x".to_string();
        for i in 0..len {
            body += &format!("  %v{i} = fadd double {prev}, 1.0\n");
            prev = format!("%v{i}");
        }
        let (head, tail) = if looped {
            (
                "  br label %top\ntop:\n".to_string(),
                format!("  %c = fcmp olt double {prev}, 0.0\n  br i1 %c, label %top, label %out\nout:\n"),
            )
        } else {
            (String::new(), String::new())
        };
        let host_attr = if generated_host { "#1" } else { "#2" };
        format!(
            "define internal double @piece(double %x) #0 {{\n{head}{body}{tail}  ret double {prev}\n}}\n\
             define internal double @host(double %x) {host_attr} {{\n  %r = call double @piece(double %x)\n  ret double %r\n}}\n\
             attributes #0 = {{ alwaysinline \"ferrozyme-generated\" }}\n\
             attributes #1 = {{ noinline \"ferrozyme-generated\" }}\n\
             attributes #2 = {{ noinline }}\n"
        )
    }

    fn wanted_for(text: &str) -> bool {
        let ctx = inkwell::context::Context::create();
        let m = crate::test_ir::parse(&ctx, text);
        wanted(Module::from_inkwell(&m))
    }

    #[test]
    fn only_a_huge_straight_line_piece_merged_into_generated_code_asks_for_it() {
        let big = crate::slp_limit::MIN_BLOCK + 10;
        assert!(wanted_for(&module_text(big, false, true)));
        // Small pieces, pieces with a loop, and pieces merged into user code go through
        // the pipeline as before.
        assert!(!wanted_for(&module_text(50, false, true)));
        assert!(!wanted_for(&module_text(big, true, true)));
        assert!(!wanted_for(&module_text(big, false, false)));
    }
}
