//! The parameters a call passes in a way its function type does not show: `sret` (the
//! caller's result slot) and `byval` (a copy the caller makes on the stack). Frontends put
//! these attributes on a function's definition and, alike, on every call through a
//! pointer of its type (rustc and clang lower a function-pointer type once), so a function
//! whose marks differ from a call's is never that call's callee: calling it there would
//! break the ABI.
//!
//! front45: a call through a pointer may reach every function of its type whose address is
//! taken (`calls::indirect_candidates`). With opaque pointers the drop glue of a
//! `Box<dyn Fn>` built inside a differentiated Rust function (`void (ptr)`, through the
//! vtable) took in every test of the harness (`fn() -> Result<(), String>`, lowered to
//! `void (ptr sret)`), so the AD pass differentiated the tests themselves, their
//! assertions' formatting included, and refused the program. Matching these marks leaves
//! them out. A pointer that is none of the candidates still stops the program at run time
//! (`transform::common::dispatch::check_target`), so leaving a function out is never a
//! silently wrong derivative.

use ferrozyme_llvm::Value;

/// Bit `i` of `sret` / `byval`: parameter `i` carries that attribute (the first 64).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AbiMarks {
    sret: u64,
    byval: u64,
}

impl AbiMarks {
    /// The marks call `call` gives its arguments.
    pub fn of_call(call: Value) -> AbiMarks {
        Self::collect(call.num_call_args(), |i| {
            (
                call.call_sret_type(i).is_some(),
                call.call_byval_type(i).is_some(),
            )
        })
    }

    /// The marks function `f`'s parameters carry.
    pub fn of_function(f: Value) -> AbiMarks {
        Self::collect(f.params().len() as u32, |i| {
            (
                f.param_sret_type(i).is_some(),
                f.param_byval_type(i).is_some(),
            )
        })
    }

    fn collect(n: u32, mark: impl Fn(u32) -> (bool, bool)) -> AbiMarks {
        let mut m = AbiMarks::default();
        for i in 0..n.min(64) {
            let (sret, byval) = mark(i);
            m.sret |= u64::from(sret) << i;
            m.byval |= u64::from(byval) << i;
        }
        m
    }
}
