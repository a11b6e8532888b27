//! Fortran in the driver: which sources are Fortran, which flags flang-22 gets, and the
//! `ferrozyme` module that declares Enzyme's hooks and markers for Fortran code.
//!
//! A command line may mix C, C++ and Fortran (`ferrozyme cc -O2 kernel.f90 main.c`):
//! each source goes to its own front end (`flang-22 -O<n> -emit-llvm -c` for Fortran),
//! all bitcode is linked into one module, and the AD pass differentiates across the
//! languages (Fortran procedures are ordinary LLVM functions taking their arguments by
//! reference). Flags are sorted by who understands them: flang rejects C-only flags
//! (`-std=c11`, `-Xclang`, `-fno-strict-aliasing`), clang rejects Fortran-only ones
//! (`-ffree-form`, `-J dir`, `-fdefault-real-8`); each compile gets what it accepts.
//!
//! The `ferrozyme` module (`ferrozyme.f90`, embedded in the binary) is compiled with
//! `flang-22 -fsyntax-only -module-dir <tmp>` at every build that has Fortran sources, so
//! `use ferrozyme` finds a `.mod` written by the installed flang (`.mod` files are
//! compiler-version specific), and `-I <tmp>` is added to each Fortran compile.
//!
//! The executable is linked by the flang driver whenever Fortran was compiled: it knows
//! its runtime (`-lflang_rt.runtime` in LLVM 22, its directory) and links LLVM's OpenMP
//! runtime for `-fopenmp`.

use std::path::Path;

use crate::args::Source;

/// The module source, written next to the temporary files of each build.
pub const MODULE_SOURCE: &str = include_str!("ferrozyme.f90");
/// Its file name there.
pub const MODULE_FILE: &str = "ferrozyme.f90";

/// File extensions flang compiles as Fortran (fixed or free form, with or without the
/// preprocessor, as flang itself decides from the name).
pub const FORTRAN_EXTS: &[&str] = &[
    "f", "for", "ftn", "f77", "f90", "f95", "f03", "f08", "F", "FOR", "FTN", "F77", "F90", "F95",
    "F03", "F08",
];

/// `-x` languages that mean Fortran.
const FORTRAN_LANGS: &[&str] = &["f95", "f95-cpp-input", "f77", "f77-cpp-input", "fortran"];

/// Is this path a Fortran source by its extension?
pub fn has_fortran_ext(path: &str) -> bool {
    Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| FORTRAN_EXTS.contains(&e))
}

/// Is this source compiled by flang (its `-x` language, else its extension)?
pub fn is_fortran(src: &Source) -> bool {
    match src.lang.as_deref() {
        Some(l) => FORTRAN_LANGS.contains(&l),
        None => has_fortran_ext(&src.path.to_string_lossy()),
    }
}

/// Fortran-only flags that take the next word as their value (`-J dir`).
pub const SEPARATE_FORTRAN: &[&str] = &["-J", "-module-dir"];

/// Flags only flang understands (they never reach clang).
pub fn is_fortran_only(flag: &str) -> bool {
    const EXACT: &[&str] = &[
        "-cpp",
        "-nocpp",
        "-ffree-form",
        "-ffixed-form",
        "-fdefault-real-8",
        "-fdefault-integer-8",
        "-fdefault-double-8",
        "-fimplicit-none",
        "-fno-implicit-none",
        "-fbackslash",
        "-fno-backslash",
        "-flogical-abbreviations",
        "-fxor-operator",
        "-fopenacc",
        "-fno-automatic",
    ];
    EXACT.contains(&flag)
        || flag.starts_with("-ffixed-line-length")
        || flag.starts_with("-ffree-line-length")
        || flag.starts_with("-std=f")
        || (flag.starts_with("-J") && flag.len() > 2)
        || flag.starts_with("-module-dir=")
        || flag.starts_with("-fconvert=")
}

/// Does flang accept this compile flag (one the command line gave for all sources)?
/// C-only flags are dropped for Fortran sources; the value of a separate flag travels
/// with it (the caller passes pairs through [`filter_for_flang`]).
fn flang_accepts(flag: &str) -> bool {
    const C_ONLY_EXACT: &[&str] = &[
        "-fno-strict-aliasing",
        "-fstrict-aliasing",
        "-pthread",
        "-fno-exceptions",
        "-fexceptions",
        "-fno-rtti",
        "-frtti",
        "-ansi",
    ];
    !(C_ONLY_EXACT.contains(&flag)
        || (flag.starts_with("-std=") && !flag.starts_with("-std=f"))
        || flag.starts_with("-fsanitize")
        || flag.starts_with("-fno-sanitize")
        // Warnings: flang knows -Werror and -w, and ignores (or rejects) clang's others.
        || (flag.starts_with("-W") && flag != "-Werror" && !flag.starts_with("-Wl,"))
        || flag.starts_with("-fcolor-diagnostics")
        || flag.starts_with("-fdiagnostics"))
}

/// The compile flags (clang's spelling, in order) that flang gets: C-only flags are
/// dropped, together with the value of a separate one (`-Xclang X`, `-include h`).
pub fn filter_for_flang(flags: &[String]) -> Vec<String> {
    const C_ONLY_SEPARATE: &[&str] = &["-Xclang", "-include", "-imacros", "-iquote"];
    let mut out = Vec::new();
    let mut it = flags.iter();
    while let Some(f) = it.next() {
        if C_ONLY_SEPARATE.contains(&f.as_str()) {
            it.next();
            continue;
        }
        if flang_accepts(f) {
            out.push(f.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn src(p: &str, lang: Option<&str>) -> Source {
        Source {
            path: PathBuf::from(p),
            lang: lang.map(str::to_string),
        }
    }

    #[test]
    fn fortran_sources_by_extension_and_language() {
        assert!(is_fortran(&src("k.f90", None)));
        assert!(is_fortran(&src("k.F90", None)));
        assert!(is_fortran(&src("old.f", None)));
        assert!(!is_fortran(&src("main.c", None)));
        assert!(is_fortran(&src("k.txt", Some("f95"))));
        assert!(!is_fortran(&src("k.f90", Some("c"))));
    }

    #[test]
    fn flang_gets_what_it_accepts() {
        let f = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            filter_for_flang(&f(&[
                "-g",
                "-std=c11",
                "-Wall",
                "-Werror",
                "-Xclang",
                "-foo",
                "-DX=1",
                "-I",
                "inc",
                "-fopenmp",
                "-ffast-math",
                "-fno-strict-aliasing",
                "-march=native"
            ])),
            f(&[
                "-g",
                "-Werror",
                "-DX=1",
                "-I",
                "inc",
                "-fopenmp",
                "-ffast-math",
                "-march=native"
            ])
        );
        assert!(is_fortran_only("-ffree-form"));
        assert!(is_fortran_only("-Jmods"));
        assert!(is_fortran_only("-std=f2018"));
        assert!(!is_fortran_only("-fopenmp"));
        assert!(!is_fortran_only("-std=c11"));
    }
}
