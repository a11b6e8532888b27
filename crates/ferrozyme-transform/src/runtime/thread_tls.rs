//! The per-thread state of the tape runtime read through a `thread_local` cache, where
//! the module becomes machine code.
//!
//! `thread.ll` reaches the state through a POSIX key because every execution engine
//! supports keys and LLVM's MCJIT does not support TLS. Its lookup (`__fz_state_peek`:
//! an acquire load, `pthread_getspecific`) runs on every split-mode tape block, every
//! slab buffer and every pooled stack buffer: for the recursive FFT 2.5 lookups per
//! recursive call, 1.31M per gradient at N = 32768, 8% of the gradient's instructions.
//! A driver that compiles the module to an object itself (`ferrozyme cc`) calls
//! [`cache_thread_state_in_tls`] after the pass: the bodies of `__fz_state_peek` and of
//! the key's destructor `__fz_state_release` are dropped and `ir/thread_tls.ll`'s are
//! linked in their place. The key stays the owner of the state (created, registered and
//! released as before); the `thread_local` pointer only caches the key's value for its
//! own thread and is cleared by the destructor before the block is freed, so a later
//! lookup on an exiting thread takes the key's path as before. Drivers whose output may
//! be run by a JIT (`ferrozyme opt`, `-emit-llvm`) or that do not own code generation
//! (the plugin) do not call it.

use ferrozyme_llvm::{LinkError, Module};

use super::link_runtime_ir;

const THREAD_TLS_IR: &str = include_str!("ir/thread_tls.ll");

/// The functions whose bodies `ir/thread_tls.ll` replaces.
const REPLACED: [&str; 2] = ["__fz_state_peek", "__fz_state_release"];

/// Replaces the key lookup of the linked `thread` piece by the cached one; returns
/// whether the module had the piece (nothing is done otherwise).
pub fn cache_thread_state_in_tls(module: Module) -> Result<bool, LinkError> {
    let linked: Vec<_> = REPLACED
        .iter()
        .filter_map(|n| module.function(n))
        .filter(|f| !f.is_declaration())
        .collect();
    if linked.len() != REPLACED.len() {
        return Ok(false);
    }
    for f in linked {
        f.delete_body();
    }
    link_runtime_ir(module, THREAD_TLS_IR, "thread_tls").map(|()| true)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The replacement defines exactly the functions it replaces, with thread.ll's
    /// signatures, and the cache is the only thread-local global.
    #[test]
    fn replaces_what_thread_ll_defines() {
        let thread = include_str!("ir/thread.ll");
        for name in REPLACED {
            let sig = |text: &str| {
                text.lines()
                    .find(|l| l.starts_with("define") && l.contains(&format!("@{name}(")))
                    .map(|l| l.to_string())
            };
            assert!(sig(thread).is_some(), "{name} not in thread.ll");
            assert_eq!(sig(thread), sig(THREAD_TLS_IR), "{name}");
        }
        let tls: Vec<_> = THREAD_TLS_IR
            .lines()
            .filter(|l| !l.starts_with(';') && l.contains("thread_local"))
            .collect();
        assert_eq!(tls.len(), 1, "{tls:?}");
        assert!(tls[0].starts_with("@__fz_state_tls = internal"));
    }
}
