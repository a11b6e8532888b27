//! Analyses over LLVM IR used by the transform: type trees, activity, control flow.
#![forbid(unsafe_code)]
