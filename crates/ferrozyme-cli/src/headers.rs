//! Ferrozyme's own headers, found by `ferrozyme cc`/`c++` without flags.
//!
//! `<enzyme/enzyme>` (Enzyme's C++ interface), `<enzyme/tuple>`, `<enzyme/checkpoint.h>`
//! (checkpointed time loops, with `<enzyme/checkpoint_schedule.h>`), `<enzyme/fixed_point.h>` (fixed-point loops) and `<ferrozyme.h>` (the C
//! ABI's declarations) live in the repository's `include/` and are embedded in the binary
//! here, so they are found the same way from the build tree, after `cargo install`, or
//! from a copied binary: each compile writes them into its temporary directory and adds
//! it with `-isystem` *after* the user's own flags, so a user's `-I` (an Enzyme
//! installation's headers, say) still wins.

use std::path::{Path, PathBuf};

use crate::error::CliError;

/// The headers, by their path under the include directory.
pub const HEADERS: &[(&str, &str)] = &[
    (
        "enzyme/enzyme",
        include_str!("../../../include/enzyme/enzyme"),
    ),
    (
        "enzyme/checkpoint.h",
        include_str!("../../../include/enzyme/checkpoint.h"),
    ),
    (
        "enzyme/checkpoint_schedule.h",
        include_str!("../../../include/enzyme/checkpoint_schedule.h"),
    ),
    (
        "enzyme/fixed_point.h",
        include_str!("../../../include/enzyme/fixed_point.h"),
    ),
    (
        "enzyme/tuple",
        include_str!("../../../include/enzyme/tuple"),
    ),
    (
        "enzyme/utils",
        include_str!("../../../include/enzyme/utils"),
    ),
    ("ferrozyme.h", include_str!("../../../include/ferrozyme.h")),
];

/// Writes the headers under `<dir>/include` and returns that include directory.
pub fn install(dir: &Path) -> Result<PathBuf, CliError> {
    let root = dir.join("include");
    for (name, text) in HEADERS {
        let path = root.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| {
                CliError::Failed(format!("cannot create '{}': {e}", parent.display()))
            })?;
        }
        std::fs::write(&path, text)
            .map_err(|e| CliError::Failed(format!("cannot write '{}': {e}", path.display())))?;
    }
    Ok(root)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_every_header() {
        let dir = tempfile::tempdir().unwrap();
        let inc = install(dir.path()).unwrap();
        for (name, text) in HEADERS {
            assert_eq!(std::fs::read_to_string(inc.join(name)).unwrap(), *text);
        }
        assert!(inc.join("enzyme").join("enzyme").is_file());
    }

    /// Every file of the repository's `include/` is embedded (a header one of them
    /// includes but `cc` did not write made `<enzyme/checkpoint.h>` fail to compile).
    #[test]
    fn embeds_every_file_of_include() {
        fn walk(dir: &Path, base: &Path, out: &mut Vec<String>) {
            for e in std::fs::read_dir(dir).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    walk(&p, base, out);
                } else {
                    out.push(p.strip_prefix(base).unwrap().to_string_lossy().into_owned());
                }
            }
        }
        let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../include");
        let mut files = Vec::new();
        walk(&base, &base, &mut files);
        for f in files {
            assert!(
                HEADERS.iter().any(|(n, _)| *n == f),
                "include/{f} is not in HEADERS"
            );
        }
    }
}
