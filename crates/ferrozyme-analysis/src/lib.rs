//! Analyses over LLVM IR used by the transform: type trees, activity, control flow.
#![forbid(unsafe_code)]

pub mod abi_marks;
pub mod activity;
pub mod caller_graph;
pub mod calls;
pub mod captures;
pub mod cfg;
pub mod global_uses;
pub mod hash;
pub mod input_calls;
pub mod int_range;
pub mod library_types;
pub mod loops;
pub mod predecessors;
pub mod scc;
pub mod slots;
pub mod types;

#[cfg(test)]
mod test_ir;
