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
    if !d.help.is_empty() {
        let function = function.as_deref().map(demangle_name);
        let help =
            crate::rust_help::for_rust(function.as_deref(), &message, &demangle_text(&d.help));
        s.push_str(&format!("\n  help: {help}"));
    }
    s
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
}
