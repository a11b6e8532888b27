//! Linker mode: rustc runs `cargo-ferrozyme` as its linker (`-C linker=…`, set by the
//! subcommand) for every binary, test harness, example, build script and proc macro of
//! the build.
//!
//! Phases:
//! 1. expand response files; find the inputs that carry bitcode (object files, and rlib
//!    members of the crates being built — the standard library ships native objects);
//! 2. if none of that bitcode calls `__enzyme_autodiff`/`__enzyme_fwddiff` (ignoring the
//!    `ferrozyme` crate itself, which defines their fallbacks), run the real linker on
//!    the unchanged command line: rustc's own `rust-lld` does ordinary LTO of the bitcode
//!    (build scripts and proc macros take this path);
//! 3. otherwise build one object from all of it with the AD pass (`crate::lto`; the
//!    symbols native inputs reference are collected on the way, the roots of
//!    `crate::gc`), and run
//!    the real linker with that object in place of the bitcode objects, the rlibs with
//!    bitcode removed (or rewritten with their native members only), and no
//!    `-plugin-opt` options.
//!
//! The real linker is `$FERROZYME_REAL_LINKER` (the subcommand sets it to the linker
//! cargo would otherwise use), else `cc`.

mod archive;
pub mod cmdline;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use crate::error::{failed, Error};
use crate::lto::{self, is_bitcode, Bitcode, Settings};

/// Environment variables shared with the subcommand.
pub const ENV_MODE: &str = "FERROZYME_LINKER_MODE";
pub const ENV_REAL_LINKER: &str = "FERROZYME_REAL_LINKER";
pub const ENV_DIAGNOSTICS: &str = "FERROZYME_DIAGNOSTICS";
pub const ENV_TIMINGS: &str = "FERROZYME_TIMINGS";
pub const ENV_SAVE_TEMPS: &str = "FERROZYME_SAVE_TEMPS";

/// The names of the hooks whose calls make a link an AD link.
const HOOK_NAMES: &[&[u8]] = &[b"__enzyme_autodiff", b"__enzyme_fwddiff"];

/// One input of the link line that holds bitcode.
enum Carrier {
    Object {
        arg: usize,
    },
    Archive {
        arg: usize,
        native: Vec<(String, Vec<u8>)>,
    },
}

pub fn run(argv: &[String]) -> Result<u8, Error> {
    let args = cmdline::expand_response_files(argv)?;
    let mut bitcode: Vec<Bitcode> = Vec::new();
    let mut carriers = Vec::new();
    let mut wants_ad = false;
    let mut upstream = Vec::new();
    // Symbols native code on the link line references (`crate::gc`).
    let mut native_refs = std::collections::HashSet::new();
    for (k, a) in args.iter().enumerate() {
        if a.starts_with('-') || k > 0 && args[k - 1] == "-o" {
            continue;
        }
        let p = Path::new(a);
        if !p.is_file() {
            continue;
        }
        if is_sysroot(p) {
            if crate::upstream::is_sysroot_archive(p) {
                upstream.push(p.to_path_buf());
            }
            if let Ok(bytes) = std::fs::read(p) {
                crate::gc::native_references(&bytes, &mut native_refs);
            }
            continue;
        }
        let Ok(bytes) = std::fs::read(p) else {
            continue;
        };
        let own = is_ferrozyme_rlib(p);
        if is_bitcode(&bytes) {
            wants_ad |= calls_hooks(&bytes);
            bitcode.push(Bitcode {
                name: a.clone(),
                bytes,
            });
            carriers.push(Carrier::Object { arg: k });
        } else if archive::is_archive(&bytes) {
            let s = archive::split(p, &bytes)?;
            for (_, m) in &s.native {
                crate::gc::native_references(m, &mut native_refs);
            }
            if s.bitcode.is_empty() {
                continue;
            }
            if !own {
                wants_ad |= s.bitcode.iter().any(|b| calls_hooks(&b.bytes));
            }
            bitcode.extend(s.bitcode);
            carriers.push(Carrier::Archive {
                arg: k,
                native: s.native,
            });
        } else {
            crate::gc::native_references(&bytes, &mut native_refs);
        }
    }
    let real = std::env::var(ENV_REAL_LINKER)
        .ok()
        .filter(|l| !l.is_empty())
        .unwrap_or_else(|| "cc".to_string());
    if !wants_ad {
        return link(&real, argv);
    }

    let req = cmdline::read_request(&args);
    let tmp = tempfile::Builder::new()
        .prefix("cargo-ferrozyme-")
        .tempdir()
        .map_err(|e| failed(format!("cannot create a temporary directory: {e}")))?;
    let stem = req
        .output
        .as_deref()
        .and_then(|o| o.file_name())
        .map_or_else(|| "out".to_string(), |s| s.to_string_lossy().into_owned());
    let settings = Settings {
        opt: req.opt.unwrap_or(0),
        cpu: req.cpu.clone().unwrap_or_else(|| "x86-64".to_string()),
        save_temps: std::env::var_os(ENV_SAVE_TEMPS).map(PathBuf::from),
        upstream,
        // Shared objects and exporting executables keep everything (`crate::gc`).
        gc_roots: (!crate::gc::exports_symbols(&args)).then_some(native_refs),
        stem: stem.clone(),
    };
    if let Some(dir) = &settings.save_temps {
        // The command line, one argument per line, to rerun this link by hand:
        // FERROZYME_LINKER_MODE=1 cargo-ferrozyme @<dir>/<stem>.link-args
        let _ = std::fs::create_dir_all(dir);
        let text: Vec<String> = argv.iter().map(|a| cmdline::quote_gnu(a)).collect();
        let _ = std::fs::write(dir.join(format!("{stem}.link-args")), text.join("\n"));
    }
    let obj = tmp.path().join(format!("{stem}.ferrozyme.o"));
    let timings = match lto::build_object(bitcode, &obj, &settings) {
        Ok(Some(t)) => t,
        Ok(None) => return link(&real, argv),
        Err(e) => {
            if let Error::Diagnostics(text) = &e {
                record(ENV_DIAGNOSTICS, &format!("{text}\n"));
            }
            return Err(e);
        }
    };

    // The new command line.
    let mut replace: Vec<Option<Option<String>>> = vec![None; args.len()];
    let mut placed = false;
    for (j, c) in carriers.into_iter().enumerate() {
        match c {
            Carrier::Object { arg } => {
                replace[arg] = Some((!placed).then(|| obj.display().to_string()));
                placed = true;
            }
            Carrier::Archive { arg, native } => {
                replace[arg] = Some(if native.is_empty() {
                    None
                } else {
                    let p = archive::write_native(tmp.path(), j, Path::new(&args[arg]), &native)?;
                    Some(p.display().to_string())
                });
            }
        }
    }
    let mut out: Vec<String> = Vec::with_capacity(args.len() + 1);
    if !placed {
        out.push(obj.display().to_string());
    }
    for (a, r) in args.iter().zip(replace) {
        match r {
            Some(Some(n)) => out.push(n),
            Some(None) => {}
            None => {
                if let Some(kept) = cmdline::without_plugin_opts(a) {
                    out.push(kept);
                }
            }
        }
    }
    let start = Instant::now();
    let status = link(&real, &out)?;
    let native = start.elapsed();
    record(
        ENV_TIMINGS,
        &format!(
            "{stem} link_bitcode={:.3} preopt={:.3} ad={:.3} optimize={:.3} codegen={:.3} native_link={:.3}\n",
            timings.link.as_secs_f64(),
            timings.preopt.as_secs_f64(),
            timings.ad.as_secs_f64(),
            timings.optimize.as_secs_f64(),
            timings.codegen.as_secs_f64(),
            native.as_secs_f64()
        ),
    );
    Ok(status)
}

/// Does this bitcode call (or declare) one of the hooks? The names are in the module's
/// string table, so a byte search finds them without parsing.
fn calls_hooks(bytes: &[u8]) -> bool {
    HOOK_NAMES
        .iter()
        .any(|h| bytes.windows(h.len()).any(|w| w == *h))
}

/// The standard library's rlibs (native code; never differentiated through).
fn is_sysroot(p: &Path) -> bool {
    p.components().any(|c| c.as_os_str() == "rustlib")
}

/// The `ferrozyme` crate's own rlib, which defines the hooks' fallbacks.
fn is_ferrozyme_rlib(p: &Path) -> bool {
    p.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("libferrozyme-") && n.ends_with(".rlib"))
}

/// Runs the real linker, through a response file when the command line is long.
fn link(real: &str, args: &[String]) -> Result<u8, Error> {
    let mut cmd = Command::new(real);
    let total: usize = args.iter().map(|a| a.len() + 1).sum();
    let _rsp;
    if total > 100_000 {
        let f = tempfile::Builder::new()
            .prefix("cargo-ferrozyme-link-")
            .tempfile()
            .map_err(|e| failed(format!("cannot create a response file: {e}")))?;
        let text: Vec<String> = args.iter().map(|a| cmdline::quote_gnu(a)).collect();
        std::fs::write(f.path(), text.join("\n"))
            .map_err(|e| failed(format!("cannot write a response file: {e}")))?;
        cmd.arg(format!("@{}", f.path().display()));
        _rsp = f;
    } else {
        cmd.args(args);
    }
    let status = cmd
        .status()
        .map_err(|e| failed(format!("cannot run the linker '{real}': {e}")))?;
    Ok(status.code().map_or(1, |c| c.clamp(0, 255) as u8))
}

/// Appends `text` to the file named by the environment variable `var`, if set.
fn record(var: &str, text: &str) {
    if let Some(p) = std::env::var_os(var) {
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(p)
        {
            let _ = f.write_all(text.as_bytes());
        }
    }
}
