//! The link step: which inputs bring IR into the differentiated module, and what still
//! goes to the system linker.
//!
//! `ferrozyme cc a.o b.o libm.a -lfoo -o prog` differentiates across everything that
//! carries LLVM IR, the way a linker with LTO would:
//!
//! 1. every object on the command line that carries IR (see `objects`) joins the module
//!    and leaves the link line (the merged module's code replaces its machine code);
//! 2. static libraries (`x.a`, or `-lfoo` found as `libfoo.a` in a `-L` directory, where
//!    a `libfoo.so` next to it wins unless `-static`) contribute the members a linker
//!    would pull: a member joins when it defines a symbol the module, or a machine-code
//!    object on the line, needs, repeated until nothing changes (`Plan::pull`);
//! 3. libraries stay on the link line for their machine-code members, except those made
//!    only of IR, which no linker without an LTO plugin could read.
//!
//! Machine-code-only inputs are remembered by the symbols they define, so that a
//! `missing-derivative` error for such a symbol can say where it lives and how to rebuild
//! it with IR.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::error::CliError;
use crate::objects::{self, Archive, Content};

/// IR from one input: a named bitcode buffer.
#[derive(Clone, Debug)]
pub struct IrUnit {
    /// The file (or `lib.a(member.o)`) it came from.
    pub name: String,
    pub bitcode: Vec<u8>,
}

/// What symbols a bitcode buffer defines (the caller parses it).
pub type DefinedSymbols<'a> = dyn FnMut(&[u8]) -> Result<Vec<String>, CliError> + 'a;

/// The link inputs, sorted.
#[derive(Debug, Default)]
pub struct Plan {
    /// IR of the objects on the command line.
    pub objects: Vec<IrUnit>,
    /// Static libraries with IR members, in command-line order.
    pub archives: Vec<Archive>,
    /// What goes to the system linker, in order.
    pub link_args: Vec<String>,
    /// Symbols machine-code inputs need.
    pub native_undefined: HashSet<String>,
    /// Symbol -> the machine-code-only input defining it (`libfoo.a(x.o)`, `libbar.so`).
    pub native_defined: HashMap<String, String>,
    /// Archive members already pulled, as (archive index, member index).
    pulled: HashSet<(usize, usize)>,
}

impl Plan {
    /// Is there any IR to differentiate besides the sources?
    pub fn has_ir(&self) -> bool {
        !self.objects.is_empty() || self.archives.iter().any(Archive::has_ir)
    }

    /// The IR members of the libraries that define one of `undefined` (symbols the
    /// module needs) or a symbol machine-code inputs need, not pulled before. `defines`
    /// says which symbols a member's IR defines (the caller parses the bitcode).
    pub fn pull(
        &mut self,
        undefined: &HashSet<String>,
        defines: &mut DefinedSymbols<'_>,
    ) -> Result<Vec<IrUnit>, CliError> {
        let mut out = Vec::new();
        for (ai, a) in self.archives.iter().enumerate() {
            for (mi, m) in a.members.iter().enumerate() {
                let objects::Content::Ir { bitcode, .. } = &m.content else {
                    continue;
                };
                if self.pulled.contains(&(ai, mi)) {
                    continue;
                }
                let syms = defines(bitcode)?;
                if syms
                    .iter()
                    .any(|s| undefined.contains(s) || self.native_undefined.contains(s))
                {
                    self.pulled.insert((ai, mi));
                    out.push(IrUnit {
                        name: m.display.clone(),
                        bitcode: bitcode.clone(),
                    });
                }
            }
        }
        Ok(out)
    }

    /// Where a symbol without IR is defined, if a machine-code input defines it.
    pub fn native_home(&self, symbol: &str) -> Option<&str> {
        self.native_defined.get(symbol).map(String::as_str)
    }

    fn note_native(&mut self, what: &str, content: &Content) {
        if let Content::Native { defined, undefined } = content {
            for s in defined {
                self.native_defined
                    .entry(s.clone())
                    .or_insert_with(|| what.to_string());
            }
            self.native_undefined.extend(undefined.iter().cloned());
        }
    }
}

/// A `missing-derivative` error about a symbol that a machine-code-only input defines gets
/// the name of that input and the remedies.
pub fn explain_missing(e: CliError, plan: &Plan) -> CliError {
    let CliError::Diagnostics(mut diags) = e else {
        return e;
    };
    for d in &mut diags {
        if d.kind != ferrozyme_llvm::DiagKind::MissingDerivative {
            continue;
        }
        let Some(symbol) = first_quoted(&d.message) else {
            continue;
        };
        let Some(home) = plan.native_home(&symbol) else {
            continue;
        };
        d.message.push_str(&format!(
            " (`{symbol}` is defined in {home}, which has no LLVM IR)"
        ));
        d.help = format!(
            "rebuild {home} with its IR: compile its sources with `ferrozyme cc -c` (objects that carry their IR) or `-flto`, or with clang's -flto or -fembed-bitcode, and link that library; or register a derivative for `{symbol}` (__enzyme_register_gradient_*); or keep the values it uses constant (enzyme_const)"
        );
    }
    CliError::Diagnostics(diags)
}

/// The first `name` in backquotes in a message.
fn first_quoted(msg: &str) -> Option<String> {
    let start = msg.find('`')? + 1;
    let len = msg[start..].find('`')?;
    Some(msg[start..start + len].to_string())
}

/// Flags followed by a separate value word on the link line.
const WITH_VALUE: &[&str] = &[
    "-L",
    "-l",
    "-Xlinker",
    "-u",
    "-target",
    "-arch",
    "--sysroot",
];

/// Sorts the link arguments.
pub fn plan(link_args: &[String]) -> Result<Plan, CliError> {
    let mut p = Plan::default();
    let static_only = link_args
        .iter()
        .any(|a| a == "-static" || a == "-Wl,-Bstatic" || a == "-Wl,-static");
    // -L applies to every -l, wherever it appears.
    let mut dirs = Vec::new();
    let mut it = link_args.iter().peekable();
    while let Some(a) = it.next() {
        if a == "-L" {
            if let Some(d) = it.next() {
                dirs.push(PathBuf::from(d));
            }
        } else if let Some(d) = a.strip_prefix("-L") {
            dirs.push(PathBuf::from(d));
        }
    }
    let mut i = 0;
    while i < link_args.len() {
        let a = &link_args[i];
        if WITH_VALUE.contains(&a.as_str()) {
            let value = link_args.get(i + 1);
            if a == "-l" {
                if let Some(name) = value {
                    if keep_library(&mut p, &dirs, name, static_only)? {
                        p.link_args.push(a.clone());
                        p.link_args.push(name.clone());
                    }
                    i += 2;
                    continue;
                }
            }
            p.link_args.push(a.clone());
            p.link_args.extend(value.cloned());
            i += 2;
            continue;
        }
        i += 1;
        if let Some(name) = a.strip_prefix("-l").filter(|n| !n.is_empty()) {
            if keep_library(&mut p, &dirs, name, static_only)? {
                p.link_args.push(a.clone());
            }
            continue;
        }
        if a.starts_with('-') {
            p.link_args.push(a.clone());
            continue;
        }
        let path = Path::new(a);
        if !path.is_file() {
            // Let the linker report it.
            p.link_args.push(a.clone());
            continue;
        }
        if objects::is_archive(path) {
            if keep_archive(&mut p, path)? {
                p.link_args.push(a.clone());
            }
            continue;
        }
        match objects::read_object(path)? {
            Content::Ir { bitcode, .. } => p.objects.push(IrUnit {
                name: a.clone(),
                bitcode,
            }),
            other => {
                p.note_native(a, &other);
                p.link_args.push(a.clone());
            }
        }
    }
    Ok(p)
}

/// Reads a static library into the plan; false when it holds only IR (and so must not
/// reach the linker).
fn keep_archive(p: &mut Plan, path: &Path) -> Result<bool, CliError> {
    let archive = objects::read_archive(path)?;
    for m in &archive.members {
        p.note_native(&m.display, &m.content);
    }
    let keep = !archive.only_ir();
    if archive.has_ir() {
        p.archives.push(archive);
    }
    Ok(keep)
}

/// `-l<name>`: the static library a linker would use, if it is in a `-L` directory.
/// System directories are not searched (their libraries carry no IR). Returns whether
/// the flag stays on the link line.
fn keep_library(
    p: &mut Plan,
    dirs: &[PathBuf],
    name: &str,
    static_only: bool,
) -> Result<bool, CliError> {
    for d in dirs {
        let shared = d.join(format!("lib{name}.so"));
        if !static_only && shared.is_file() {
            let what = shared
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            if let Ok(c) = objects::read_object(&shared) {
                p.note_native(&what, &c);
            }
            return Ok(true);
        }
        let archive = d.join(format!("lib{name}.a"));
        if archive.is_file() && objects::is_archive(&archive) {
            return keep_archive(p, &archive);
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn quoted_symbol() {
        assert_eq!(
            first_quoted("no derivative for `mystery`: it has no IR").as_deref(),
            Some("mystery")
        );
        assert_eq!(first_quoted("no quotes"), None);
    }

    #[test]
    fn flags_and_missing_files_pass_through() {
        let p = plan(&words(
            "-L /nonexistent -lm -Wl,--as-needed nothere.o -lpthread",
        ))
        .unwrap();
        assert_eq!(
            p.link_args,
            words("-L /nonexistent -lm -Wl,--as-needed nothere.o -lpthread")
        );
        assert!(!p.has_ir());
    }

    #[test]
    fn bitcode_objects_leave_the_link_line() {
        let dir = tempfile::tempdir().unwrap();
        let bc = dir.path().join("a.o");
        std::fs::write(&bc, b"BC\xC0\xDE\x35\x14").unwrap();
        let args = vec![bc.to_string_lossy().into_owned(), "-lm".to_string()];
        let p = plan(&args).unwrap();
        assert_eq!(p.objects.len(), 1);
        assert_eq!(p.link_args, words("-lm"));
        assert!(p.has_ir());
    }
}
