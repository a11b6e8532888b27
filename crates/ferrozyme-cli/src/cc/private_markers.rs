//! Which sources may define their markers with internal linkage.
//!
//! At -O1 and above clang folds the loads of a marker that is `static` (or in an
//! anonymous namespace) to its initializer and deletes it before the AD pass can see it
//! (`ferrozyme_transform::keep_private_markers`). The optimized bitcode keeps no trace of
//! such a marker, so the driver reads the source text: a file that may define one is
//! compiled a second time unoptimized, its markers given a linkage the optimizer cannot
//! fold, and then optimized (`Job::keep_registered_calls`). The test errs towards yes
//! (a second compile costs time, never correctness); markers in an included header are
//! not seen.

use std::path::Path;

/// Might `path` define an `enzyme_*` (or legacy `diffe_*`) marker with internal linkage:
/// a `static` declaration naming one on one line, or an anonymous namespace in a file
/// that declares an `int enzyme_*`?
pub(super) fn declares_private_markers(path: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(path) else {
        return false;
    };
    let marker = |l: &str| l.contains("enzyme_") || l.contains("diffe_");
    let static_marker = text.lines().any(|l| {
        let l = l.trim_start();
        (l.starts_with("static ") || l.contains(" static ")) && marker(l) && !l.contains('(')
    });
    let anonymous_namespace = text.contains("int enzyme_")
        && text
            .split("namespace")
            .skip(1)
            .any(|rest| rest.trim_start().starts_with('{'));
    static_marker || anonymous_namespace
}
