//! The command line rustc gives its linker (the `gcc` flavour: `cc`-style arguments with
//! linker options behind `-Wl,`), and the one we hand on.
//!
//! rustc may pass arguments through a response file (`@path`) when the command line is
//! long; those are expanded here (GNU quoting: whitespace separates, backslash escapes,
//! single and double quotes group), and written back the same way when the new command
//! line is long too.

use std::path::{Path, PathBuf};

use crate::error::{failed, Error};

/// Expands `@file` arguments (recursively, a few levels deep).
pub fn expand_response_files(args: &[String]) -> Result<Vec<String>, Error> {
    expand(args, 0)
}

fn expand(args: &[String], depth: u32) -> Result<Vec<String>, Error> {
    let mut out = Vec::with_capacity(args.len());
    for a in args {
        match a.strip_prefix('@') {
            Some(p) if depth < 4 && Path::new(p).is_file() => {
                let text = std::fs::read_to_string(p)
                    .map_err(|e| failed(format!("cannot read response file '{p}': {e}")))?;
                out.extend(expand(&split_gnu(&text), depth + 1)?);
            }
            _ => out.push(a.clone()),
        }
    }
    Ok(out)
}

/// Splits a response file the way GCC reads it.
pub fn split_gnu(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (c, quote) {
            ('\\', _) => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
                in_word = true;
            }
            (q, None) if q == '"' || q == '\'' => {
                quote = Some(q);
                in_word = true;
            }
            (q, Some(open)) if q == open => quote = None,
            (w, None) if w.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (c, _) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        out.push(cur);
    }
    out
}

/// Quotes one argument for a GNU response file.
pub fn quote_gnu(a: &str) -> String {
    let mut s = String::with_capacity(a.len() + 2);
    for c in a.chars() {
        if c.is_whitespace() || matches!(c, '\\' | '"' | '\'') {
            s.push('\\');
        }
        s.push(c);
    }
    s
}

/// What rustc asked of the link, as far as the AD build cares.
#[derive(Debug, Default)]
pub struct LinkRequest {
    /// `-plugin-opt=O<n>`: the optimization level of the crates (0–3).
    pub opt: Option<u8>,
    /// `-plugin-opt=mcpu=<cpu>`.
    pub cpu: Option<String>,
    /// `-o <path>`.
    pub output: Option<PathBuf>,
}

/// The linker options inside one `-Wl,a,b,c` argument.
fn wl_items(arg: &str) -> Option<Vec<&str>> {
    arg.strip_prefix("-Wl,").map(|r| r.split(',').collect())
}

pub fn read_request(args: &[String]) -> LinkRequest {
    let mut r = LinkRequest::default();
    let mut it = args.iter().peekable();
    while let Some(a) = it.next() {
        if a == "-o" {
            r.output = it.peek().map(PathBuf::from);
        }
        let items: Vec<&str> = wl_items(a).unwrap_or_default();
        for item in items.into_iter().chain(std::iter::once(a.as_str())) {
            if let Some(o) = item.strip_prefix("-plugin-opt=") {
                if let Some(l) = o.strip_prefix('O').and_then(|l| l.parse::<u8>().ok()) {
                    r.opt = Some(l.min(3));
                } else if let Some(c) = o.strip_prefix("mcpu=") {
                    r.cpu = Some(c.to_string());
                }
            }
        }
    }
    r
}

/// Removes `-plugin-opt=…` from `-Wl,` arguments (no bitcode is left for a plugin);
/// `None` when nothing remains of the argument.
pub fn without_plugin_opts(arg: &str) -> Option<String> {
    match wl_items(arg) {
        Some(items) => {
            let kept: Vec<&str> = items
                .into_iter()
                .filter(|i| !i.starts_with("-plugin-opt="))
                .collect();
            (!kept.is_empty()).then(|| format!("-Wl,{}", kept.join(",")))
        }
        None if arg.starts_with("-plugin-opt=") => None,
        None => Some(arg.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gnu_response_files_round_trip() {
        let args = ["a b", "c\\d", "e\"f", "plain", "-Wl,-O1"];
        let text: Vec<String> = args.iter().map(|a| quote_gnu(a)).collect();
        assert_eq!(split_gnu(&text.join("\n")), args);
        assert_eq!(split_gnu("'x y' \"z w\"\n v"), ["x y", "z w", "v"]);
    }

    #[test]
    fn request_from_rustc_arguments() {
        let args: Vec<String> = [
            "-m64",
            "a.o",
            "-Wl,-plugin-opt=O3,-plugin-opt=mcpu=x86-64",
            "-o",
            "/t/out",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let r = read_request(&args);
        assert_eq!(r.opt, Some(3));
        assert_eq!(r.cpu.as_deref(), Some("x86-64"));
        assert_eq!(r.output, Some(PathBuf::from("/t/out")));
        assert_eq!(
            without_plugin_opts("-Wl,-plugin-opt=O3,-plugin-opt=mcpu=x86-64"),
            None
        );
        assert_eq!(
            without_plugin_opts("-Wl,-z,-plugin-opt=O0").as_deref(),
            Some("-Wl,-z")
        );
        assert_eq!(without_plugin_opts("-pie").as_deref(), Some("-pie"));
    }
}
