//! The pass's diagnostics, shown the way a Rust user reads them: every mangled symbol
//! (`_ZN…E`, `_R…`) demangled without its hash (`mycrate::model::loss`), the source line
//! first.
//!
//! rustc mangles user crates with the legacy scheme and the standard library with v0
//! (`_RNv…`); both are demangled by `rustc-demangle`. Names of functions the pass
//! generated (`fz_…_ZN…`) keep their prefix and get their Rust part demangled.

use ferrozyme_transform::Diagnostic;

/// Renders one diagnostic (same layout as the `ferrozyme` CLI, names demangled).
pub fn render(d: &Diagnostic) -> String {
    let mut s = format!("error[{}]: ", d.kind.code());
    if let Some(loc) = &d.loc {
        s.push_str(&format!("{loc}: "));
    }
    // The function the offending source line belongs to (inlined code names the user's
    // function, not the generated shim it ended up in), else the differentiated one.
    let function = d
        .loc
        .as_ref()
        .and_then(|l| l.function.clone())
        .or_else(|| d.function.clone());
    if let Some(f) = &function {
        s.push_str(&format!("in function `{}`: ", demangle_name(f)));
    }
    // Code inlined from elsewhere (the standard library) is located in its own source:
    // also name the function being differentiated, the user's.
    // (Not for the pass's internal copies of standard-library functions: no help there.)
    let mut message = demangle_text(&d.message);
    if let (Some(f), Some(g)) = (&function, &d.function) {
        let g = demangle_name(g.trim_start_matches("__fz_pre."));
        let internal = ["core::", "alloc::", "std::", "<"]
            .iter()
            .any(|p| g.starts_with(p));
        if *f != g && demangle_name(f) != g && !internal {
            message.push_str(&format!(" (differentiating `{g}`)"));
        }
    }
    s.push_str(&message);
    if let Some(i) = &d.instruction {
        s.push_str(&format!("\n  instruction: {}", demangle_text(i.trim())));
    }
    // Where the user's code reached it: the lines in the user's functions that the
    // standard library's code was inlined at or called from (its own frames left out).
    let mut notes: Vec<String> = Vec::new();
    for l in &d.reached_from {
        let Some(f) = l.function.as_deref().map(demangle_name) else {
            continue;
        };
        let note = format!("\n  note: reached from `{f}` at {l}");
        if !is_library(&f) && !notes.contains(&note) {
            notes.push(note);
        }
    }
    notes.iter().for_each(|n| s.push_str(n));
    if !d.help.is_empty() {
        let function = function.as_deref().map(demangle_name);
        // The functions the code was inlined through (a `BTreeMap`'s node code inlined
        // into `core::ptr::read`'s caller) tell the help what the problem is about.
        let through: Vec<String> = d
            .reached_from
            .iter()
            .filter_map(|l| l.function.as_deref().map(demangle_name))
            .collect();
        let about = format!("{message} {}", through.join(" "));
        let help = crate::rust_help::for_rust(function.as_deref(), &about, &demangle_text(&d.help));
        s.push_str(&format!("\n  help: {help}"));
    }
    s
}

/// A function of the standard library or of the crates it is built from (`hashbrown`),
/// by its demangled name: not where a user's code is. In `<A as B>::f` the type `A`
/// decides, unless it is a generic parameter or a primitive (no path: then the trait `B`
/// does); in `<A>::f` a primitive's methods are the standard library's.
fn is_library(name: &str) -> bool {
    let in_library = |path: &str| {
        ["core::", "alloc::", "std::", "hashbrown::"]
            .iter()
            .any(|p| path.starts_with(p))
    };
    let Some(qualified) = name.strip_prefix('<') else {
        return in_library(name);
    };
    match qualified.split_once(" as ") {
        Some((ty, _)) if ty.contains("::") => in_library(ty),
        Some((_, tr)) => in_library(tr),
        None => {
            let ty = qualified.split('>').next().unwrap_or("");
            !ty.contains("::") || in_library(ty)
        }
    }
}

/// A symbol name, demangled if it is a Rust symbol (or contains one).
pub fn demangle_name(name: &str) -> String {
    if let Ok(d) = rustc_demangle::try_demangle(name) {
        return format!("{d:#}");
    }
    for start in ["_ZN", "_R"] {
        if let Some(k) = name.find(start) {
            if k > 0 {
                if let Ok(d) = rustc_demangle::try_demangle(&name[k..]) {
                    return format!("{}{d:#}", &name[..k]);
                }
            }
        }
    }
    name.to_string()
}

/// Every symbol-like word of `text` demangled.
pub fn demangle_text(text: &str) -> String {
    let is_sym = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '.';
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    for c in text.chars() {
        if is_sym(c) {
            word.push(c);
        } else {
            flush(&mut out, &mut word);
            out.push(c);
        }
    }
    flush(&mut out, &mut word);
    out
}

fn flush(out: &mut String, word: &mut String) {
    if word.contains("_ZN") || word.starts_with("_R") {
        // A trailing `.` is punctuation, not part of the symbol.
        let trimmed = word.trim_end_matches('.');
        out.push_str(&demangle_name(trimmed));
        out.push_str(&word[trimmed.len()..]);
    } else {
        out.push_str(word);
    }
    word.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legacy_and_v0_symbols() {
        assert_eq!(
            demangle_name("_ZN2rx7d_rosen4shim17h0a518071a4d7fd15E"),
            "rx::d_rosen::shim"
        );
        assert_eq!(
            demangle_name("_RNvNtCsgEmfK2I1SDS_4core9panicking18panic_bounds_check"),
            "core::panicking::panic_bounds_check"
        );
        assert_eq!(
            demangle_name("fz_rev__ZN5model4loss17h0a518071a4d7fd15E"),
            "fz_rev_model::loss"
        );
        assert_eq!(demangle_name("sumsq"), "sumsq");
    }

    #[test]
    fn words_in_text() {
        let t = "no derivative for '_ZN5model4loss17h0a518071a4d7fd15E': it has no IR.";
        assert_eq!(
            demangle_text(t),
            "no derivative for 'model::loss': it has no IR."
        );
        let ir = "%3 = call double @\"_ZN5model4loss17h0a518071a4d7fd15E\"(ptr %0)";
        assert_eq!(
            demangle_text(ir),
            "%3 = call double @\"model::loss\"(ptr %0)"
        );
    }

    /// front39: the lines in the user's code a library's inlined code came from are shown,
    /// the standard library's frames are not, and the frames choose the help (a
    /// `BTreeMap`'s node code inlined into `core::ptr::read`).
    #[test]
    fn notes_show_the_users_lines_and_choose_the_help() {
        use ferrozyme_llvm::{DiagKind, SourceLoc};
        let at = |file: &str, line, f: &str| SourceLoc {
            file: file.into(),
            line,
            col: 5,
            function: Some(f.into()),
        };
        let mut d = Diagnostic::new(
            DiagKind::CannotDeduceType,
            "an integer access to differentiable memory whose type is ambiguous",
        )
        .in_function("_ZN4user2bt17h0a518071a4d7fd15E")
        .at_loc(Some(at(
            "library/core/src/ptr/mod.rs",
            1717,
            "core::ptr::read",
        )))
        .with_help("avoid type punning through integer pointers (memcpy is the portable way)");
        d.reached_from = vec![
            at(
                "library/alloc/src/collections/btree/node.rs",
                9,
                "alloc::collections::btree::node::insert",
            ),
            at("src/main.rs", 8, "_ZN4user2bt17h0a518071a4d7fd15E"),
            at(
                "library/core/src/ops/function.rs",
                250,
                "core::ops::function::FnOnce::call_once",
            ),
        ];
        let r = render(&d);
        assert!(
            r.contains("\n  note: reached from `user::bt` at src/main.rs:8:5"),
            "{r}"
        );
        assert!(
            !r.contains("btree/node.rs") && !r.contains("function.rs"),
            "{r}"
        );
        assert!(
            r.contains("help: a `BTreeMap`/`BTreeSet` built inside"),
            "{r}"
        );
    }

    #[test]
    fn library_frames() {
        for lib in [
            "core::ptr::read",
            "<alloc::vec::Vec<T,A> as core::ops::drop::Drop>::drop",
            "<T as alloc::slice::<impl [T]>::to_vec_in::ConvertVec>::to_vec",
            "<[T]>::to_vec",
            "hashbrown::raw::RawTable<T,A>::reserve_rehash",
        ] {
            assert!(is_library(lib), "{lib}");
        }
        for user in [
            "mycrate::model::loss",
            "<mycrate::V2 as core::ops::arith::Add>::add",
            "<T as mycrate::Shape>::cost",
            "<mycrate::Grid>::step",
        ] {
            assert!(!is_library(user), "{user}");
        }
    }
}
