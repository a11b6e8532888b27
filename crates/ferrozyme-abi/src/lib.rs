//! The `__enzyme_*` entry points and `enzyme_*` argument markers: one table, no dependencies.
//!
//! Ferrozyme speaks Enzyme's C ABI so existing user code works unchanged. A call to any
//! declared function whose *name contains* an entry-point name is that entry point (users
//! declare typed prototypes such as `__enzyme_autodiff_f32` or `__enzyme_autodiff4`, and
//! C++ templates produce mangled names). Markers are `extern int` globals whose *values*
//! are passed; we recognise them by the global the value is loaded from. An `enzyme_*`
//! global that is not in [`MARKERS`] is an error, never silently ignored.
#![forbid(unsafe_code)]

/// Differentiation modes reachable from C.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EntryPoint {
    /// `__enzyme_autodiff`: reverse mode, combined forward + reverse sweep.
    Autodiff,
    /// `__enzyme_fwddiff`: forward mode (tangents).
    Fwddiff,
    /// `__enzyme_augmentfwd`: split mode, forward half; returns the tape.
    AugmentFwd,
    /// `__enzyme_reverse`: split mode, reverse half; takes and frees the tape.
    Reverse,
    /// `__enzyme_augmentsize`: the size in bytes of the tape of `AugmentFwd`.
    AugmentSize,
}

/// Entry-point names, most specific first (matching is by substring).
pub const ENTRY_POINTS: &[(&str, EntryPoint)] = &[
    ("__enzyme_autodiff", EntryPoint::Autodiff),
    ("__enzyme_fwddiff", EntryPoint::Fwddiff),
    ("__enzyme_augmentfwd", EntryPoint::AugmentFwd),
    ("__enzyme_reverse", EntryPoint::Reverse),
    ("__enzyme_augmentsize", EntryPoint::AugmentSize),
];

/// Which entry point a declared function name denotes, if any.
pub fn entry_point(name: &str) -> Option<EntryPoint> {
    ENTRY_POINTS
        .iter()
        .find(|(n, _)| name.contains(n))
        .map(|(_, e)| *e)
}

/// Hooks a program may *define*, with a body that is only a fallback: the `ferrozyme`
/// Rust crate defines these two (panicking "build with `cargo ferrozyme`") so programs
/// built without the pass still link. A defined function with exactly one of these names
/// is treated as a hook like a declared one; its body is never differentiated or run
/// once the pass has replaced the calls. Other defined functions are never hooks.
pub const FALLBACK_HOOKS: &[&str] = &["__enzyme_autodiff", "__enzyme_fwddiff"];

/// Is `name` a hook even when the module defines it (see [`FALLBACK_HOOKS`])?
pub fn is_fallback_hook(name: &str) -> bool {
    FALLBACK_HOOKS.contains(&name)
}

/// How an argument of the differentiated function takes part in differentiation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Marker {
    /// Pointer followed by its shadow; derivatives accumulate into the shadow.
    Dup,
    /// As `Dup`, and the primal result is not needed.
    DupNoNeed,
    /// No derivative.
    Const,
    /// Active scalar: its derivative is returned.
    Out,
    /// `enzyme_width, N`: vector (batched) mode with N lanes.
    Width,
    /// `enzyme_dupv, stride, x, base`: lane k's shadow at `base + k*stride` bytes.
    DupV,
}

/// Marker globals, by name.
pub const MARKERS: &[(&str, Marker)] = &[
    ("enzyme_dup", Marker::Dup),
    ("enzyme_dupnoneed", Marker::DupNoNeed),
    ("enzyme_const", Marker::Const),
    ("enzyme_out", Marker::Out),
    ("enzyme_width", Marker::Width),
    ("enzyme_dupv", Marker::DupV),
];

/// Prefix shared by every marker global; a global with this prefix that is not a known
/// marker is reported as an unknown marker.
pub const MARKER_PREFIX: &str = "enzyme_";

/// Looks up a marker global by exact name.
pub fn marker(name: &str) -> Option<Marker> {
    MARKERS.iter().find(|(n, _)| *n == name).map(|(_, m)| *m)
}

/// External functions that never affect derivatives even when given active values
/// (they only read their arguments to print them).
pub const INACTIVE_EXTERNALS: &[&str] = &[
    "printf",
    "fprintf",
    "puts",
    "putchar",
    "fputs",
    "fputc",
    "fflush",
    "fwrite",
    "perror",
    "write",
    "__printf_chk",
    "__fprintf_chk",
    "abort",
    "exit",
    "clock",
    "clock_gettime",
    "time",
    "gettimeofday",
    "srand",
    "rand",
    "srand48",
    "drand48",
    "random",
    "srandom",
    "getenv",
    "assert",
    "__assert_fail",
    // Integer results of floats: no derivative flows through them, and they write nothing.
    "lround",
    "lroundf",
    "llround",
    "llroundf",
    "lrint",
    "lrintf",
    "llrint",
    "llrintf",
    "ilogb",
    "ilogbf",
];

/// Allocation functions whose result gets a zero-initialised shadow allocation.
pub const ALLOCATORS: &[&str] = &["malloc", "calloc", "_Znwm", "_Znam", "aligned_alloc"];
/// Deallocation functions (the shadow is freed at the end of the reverse sweep instead).
pub const DEALLOCATORS: &[&str] = &["free", "_ZdlPv", "_ZdaPv", "_ZdlPvm", "_ZdaPvm"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hook_names_match_by_substring() {
        assert_eq!(entry_point("__enzyme_autodiff"), Some(EntryPoint::Autodiff));
        assert_eq!(
            entry_point("__enzyme_autodiff_f32"),
            Some(EntryPoint::Autodiff)
        );
        assert_eq!(
            entry_point("_Z17__enzyme_autodiffIdJPFddEdEET_DpT0_"),
            Some(EntryPoint::Autodiff)
        );
        assert_eq!(entry_point("__enzyme_fwddiff4"), Some(EntryPoint::Fwddiff));
        assert_eq!(entry_point("enzyme_dup"), None);
    }

    #[test]
    fn fallback_hooks_are_exact_names() {
        assert!(is_fallback_hook("__enzyme_autodiff"));
        assert!(is_fallback_hook("__enzyme_fwddiff"));
        assert!(!is_fallback_hook("__enzyme_autodiff_f32"));
        assert!(!is_fallback_hook("my__enzyme_autodiff"));
    }

    #[test]
    fn markers_are_exact() {
        assert_eq!(marker("enzyme_dup"), Some(Marker::Dup));
        assert_eq!(marker("enzyme_dupnoneed"), Some(Marker::DupNoNeed));
        assert_eq!(marker("enzyme_bogus"), None);
        assert!("enzyme_bogus".starts_with(MARKER_PREFIX));
    }
}
