//! Enzyme's function attributes written in the source: `__attribute__((enzyme_inactive))`,
//! `enzyme_inactive_noblock` and `enzyme_function_like("log1p")`.
//!
//! Enzyme registers `enzyme_inactive` (and friends) as clang attributes through its own
//! clang plugin; plain clang drops an unknown attribute with a warning, and the user's
//! "this function carries no derivative" would silently be lost. `ferrozyme cc` compiles
//! with `-Denzyme_inactive=annotate("enzyme_inactive")`, which turns the attribute into
//! clang's `annotate`, kept in the module's `llvm.global.annotations`; here each annotated
//! function gets the string function attribute the pass reads (the one
//! `__enzyme_inactivefn` sets), and its calls are kept from being inlined before the pass
//! like those of any registered function (`barriers.rs`). `enzyme_inactive_noblock` maps
//! to the same annotation. `enzyme_function_like("name")` is defined as the function-like
//! macro `annotate("enzyme_function_like:" name)`; the pass reads the name after the colon
//! and treats the function as `__enzyme_function_like` registers it (`read_function_like`).

use ferrozyme_abi::INACTIVE_ATTR;
use ferrozyme_llvm::{Module, Value};

/// The annotation text `ferrozyme cc` maps Enzyme's `enzyme_inactive` attribute to.
pub const INACTIVE_ANNOTATION: &str = "enzyme_inactive";

/// The annotation prefix `ferrozyme cc` maps `enzyme_function_like("name")` to.
pub const FUNCTION_LIKE_ANNOTATION: &str = "enzyme_function_like:";

/// The functions and global variables annotated `annotate(what)` in `module`.
pub fn annotated(module: Module, what: &str) -> Vec<Value> {
    annotations(module)
        .into_iter()
        .filter(|(_, text)| text == what)
        .map(|(f, _)| f)
        .collect()
}

/// The functions annotated `annotate("enzyme_function_like:name")`, with `name`.
pub fn function_like(module: Module) -> Vec<(Value, String)> {
    annotations(module)
        .into_iter()
        .filter(|(f, _)| f.is_function())
        .filter_map(|(f, text)| {
            let like = text.strip_prefix(FUNCTION_LIKE_ANNOTATION)?;
            Some((f, like.to_string()))
        })
        .collect()
}

/// Every (function or global variable, annotation text) pair of `llvm.global.annotations`.
fn annotations(module: Module) -> Vec<(Value, String)> {
    let Some(table) = module
        .global("llvm.global.annotations")
        .and_then(|g| g.initializer())
    else {
        return Vec::new();
    };
    (0..table.num_operands())
        .map(|k| table.operand(k))
        .filter(|e| e.num_operands() >= 2)
        .filter_map(|e| Some((e.operand(0), e.operand(1).c_string()?)))
        .collect()
}

/// Marks the functions annotated `enzyme_inactive` inactive and returns their names; global
/// variables annotated so are declared inactive (no shadow, whatever they hold).
pub fn mark_inactive(module: Module) -> Vec<String> {
    let mut functions = Vec::new();
    for v in annotated(module, INACTIVE_ANNOTATION) {
        if v.is_function() {
            v.add_string_fn_attr(INACTIVE_ATTR, "");
            functions.push(v.name());
        } else if v.is_global_variable() {
            ferrozyme_analysis::global_uses::declare_inactive(v);
        }
    }
    functions
}

/// Enzyme's source attributes, as the words clang drops when nothing defines them.
const SOURCE_ATTRIBUTES: &[&str] = &[
    "enzyme_inactive_noblock",
    "enzyme_inactive",
    "enzyme_function_like",
    "enzyme::inactive_noblock",
    "enzyme::inactive",
    "enzyme::function_like",
];

/// Through `clang -fpass-plugin` without `ferrozyme cc`'s defines, clang drops
/// `__attribute__((enzyme_inactive))` with a warning and the pass never learns that the
/// function carries no derivative: a silently different gradient. When the module's
/// source file (its `source_filename`, read if it exists) names one of Enzyme's
/// attributes outside comments and the module holds no annotation of that kind, this is
/// the error to report. Headers are not read.
pub fn dropped_in_source(module: Module) -> Option<ferrozyme_llvm::Diagnostic> {
    let path = module.source_file_name();
    let text = std::fs::read_to_string(&path).ok()?;
    let code = strip_c_comments(&text);
    let word = SOURCE_ATTRIBUTES.iter().find(|w| contains_word(&code, w))?;
    let kept = annotations(module)
        .iter()
        .any(|(_, t)| t == INACTIVE_ANNOTATION || t.starts_with(FUNCTION_LIKE_ANNOTATION));
    if kept {
        return None;
    }
    Some(
        ferrozyme_llvm::Diagnostic::new(
            ferrozyme_llvm::DiagKind::BadAutodiffCall,
            format!(
                "`{path}` uses Enzyme's attribute `{word}`, which clang drops (Enzyme registers it with its own clang plugin): the functions it marks would silently get derivatives"
            ),
        )
        .with_help(format!(
            "compile with ferrozyme cc/c++, or load Ferrozyme's clang plugin with -fplugin=libferrozyme_clang.so (every spelling), or add {} to the clang command line (`__attribute__((...))` only)",
            crate::ENZYME_ATTRIBUTE_DEFINES
                .iter()
                .map(|d| format!("'{d}'"))
                .collect::<Vec<_>>()
                .join(" ")
        )),
    )
}

/// `text` with `//` and `/* */` comments blanked (string literals are not special).
fn strip_c_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('/') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if tail.starts_with("//") {
            rest = tail.find('\n').map_or("", |e| &tail[e..]);
        } else if tail.starts_with("/*") {
            rest = tail[2..].find("*/").map_or("", |e| &tail[e + 4..]);
            out.push(' ');
        } else {
            out.push('/');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

/// Does `text` contain `word` as a whole identifier?
fn contains_word(text: &str, word: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_attribute_words() {
        let code = strip_c_comments(
            "// enzyme_inactive in a comment\nvoid *__enzyme_inactive_global[] = {0};\n/* enzyme_function_like */ int x;",
        );
        assert!(!SOURCE_ATTRIBUTES.iter().any(|w| contains_word(&code, w)));
        let code = strip_c_comments("__attribute__((enzyme_inactive)) void f(void);");
        assert!(contains_word(&code, "enzyme_inactive"));
        assert!(!contains_word(&code, "enzyme_inactive_noblock"));
    }
}
