//! Subcommand mode: `cargo ferrozyme <command> [args…]` runs `cargo <command> [args…]`
//! with the settings that make every link of the build go through the AD pass.
//!
//! What it sets, and why (all stable rustc/cargo):
//! * `RUSTFLAGS` (and `RUSTDOCFLAGS`, for doctests) gain `-C linker-plugin-lto` (object
//!   files and rlibs of the crates being built carry LLVM bitcode instead of machine
//!   code) and `-C linker=<this program>` (which then runs in linker mode, see
//!   `crate::linker`). An existing `RUSTFLAGS`/`CARGO_ENCODED_RUSTFLAGS` is kept.
//! * The linker cargo would have used (`target.<triple>.linker`,
//!   `CARGO_TARGET_<TRIPLE>_LINKER`) becomes `FERROZYME_REAL_LINKER`; default `cc`.
//! * Release-like profiles (`release`, `bench`, or `--profile P`) get line tables
//!   (`debug = "line-tables-only"`, `strip = "debuginfo"` so the binary is as small as
//!   before) unless the manifest or environment sets `debug`: the pass's errors then name
//!   the Rust source line.
//! * `FERROZYME_PASS_BUILD` names this program's build (version, size, modification
//!   time); the `ferrozyme` crate reads it with `option_env!`, so a new `cargo-ferrozyme`
//!   rebuilds that crate and relinks its dependents through the new pass.
//! * `FERROZYME_DIAGNOSTICS` names a file where linker mode also writes the pass's
//!   errors; they are printed again, cleanly, after cargo's own output.
//! * `--target <host>` for the commands that build (`crate::target`): build scripts and
//!   proc macros are then compiled as by plain cargo, without the flags above.
//!
//! * The configuration's `build.rustflags`/`target.<triple>.rustflags` (which the
//!   `RUSTFLAGS` set here would hide) are read and kept (`crate::config_flags`, rust30).
//!
//! Limits: the program's artifacts are in `target/<host triple>/<profile>/`; `rustflags`
//! in `[target.'cfg(…)']` tables and `--config` arguments are not applied (a warning says
//! so; put them in `RUSTFLAGS`).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::error::{failed, Error};
use crate::linker;

pub const USAGE: &str = "\
cargo ferrozyme — build, run and test Rust code that uses the `ferrozyme` crate
(#[autodiff_reverse] / #[autodiff_forward]) with Ferrozyme's AD pass, on stable Rust

USAGE:
    cargo ferrozyme <cargo command> [cargo arguments…]
    e.g. cargo ferrozyme run --release
         cargo ferrozyme test
         cargo ferrozyme build --release --example gmm
         cargo ferrozyme bench

Every cargo command that links works (build, run, test, bench, rustc, install
--path …); the arguments are cargo's own. The AD pass runs when a binary, test or
example is linked; its errors name the Rust function and source line.

ENVIRONMENT:
    FERROZYME_SAVE_TEMPS=<dir>    keep the IR before and after AD of every AD link
    FERROZYME_TIMINGS=<file>      append per-link timings (bitcode link, AD, optimize,
                                  codegen, native link) to <file>
    FERROZYME_REAL_LINKER=<cmd>   the linker to run after AD (default: cargo's, else cc)
";

/// Runs cargo. Returns cargo's exit status.
pub fn run(args: &[String]) -> Result<u8, Error> {
    let Some(first) = args.first() else {
        eprint!("{USAGE}");
        return Err(Error::Usage("missing cargo command".into()));
    };
    if matches!(first.as_str(), "-h" | "--help" | "help") {
        print!("{USAGE}");
        return Ok(0);
    }
    if matches!(first.as_str(), "-V" | "--version") {
        println!("cargo-ferrozyme {} (LLVM 22)", env!("CARGO_PKG_VERSION"));
        return Ok(0);
    }
    let me = std::env::current_exe()
        .map_err(|e| failed(format!("cannot find this program's own path: {e}")))?;
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(&cargo);
    // Build scripts and proc macros stay native (`crate::target`).
    let env_target = std::env::var_os("CARGO_BUILD_TARGET").is_some_and(|t| !t.is_empty());
    match crate::target::with_host_target(args, host_triple().as_deref(), env_target) {
        Some(with_target) => cmd.args(with_target),
        None => cmd.args(args),
    };

    let flags = [
        "-Clinker-plugin-lto".to_string(),
        format!("-Clinker={}", me.display()),
    ];
    if let Ok(enc) = std::env::var("CARGO_ENCODED_RUSTFLAGS") {
        let mut v: Vec<String> = enc
            .split('\x1f')
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
        v.extend(flags.iter().cloned());
        cmd.env("CARGO_ENCODED_RUSTFLAGS", v.join("\x1f"));
    } else {
        // The configuration's `rustflags` (which our `RUSTFLAGS` would hide) come first.
        let configured = crate::config_flags::configured(build_target(args).as_deref());
        for w in &configured.warnings {
            eprintln!("cargo-ferrozyme: warning: {w}");
        }
        let existing = std::env::var("RUSTFLAGS")
            .ok()
            .or_else(|| (!configured.flags.is_empty()).then(|| configured.flags.join(" ")));
        cmd.env("RUSTFLAGS", join_flags(existing, &flags));
    }
    cmd.env(
        "RUSTDOCFLAGS",
        join_flags(std::env::var("RUSTDOCFLAGS").ok(), &flags),
    );
    cmd.env(linker::ENV_MODE, "1");
    cmd.env(ENV_PASS_BUILD, pass_build(&me));
    if std::env::var_os(linker::ENV_REAL_LINKER).is_none() {
        if let Some(l) = configured_linker() {
            cmd.env(linker::ENV_REAL_LINKER, l);
        }
    }
    for (k, v) in profile_env(args, manifest_profiles().as_ref()) {
        cmd.env(k, v);
    }
    let diag = tempfile::Builder::new()
        .prefix("cargo-ferrozyme-diag-")
        .tempfile()
        .map_err(|e| failed(format!("cannot create a temporary file: {e}")))?;
    cmd.env(linker::ENV_DIAGNOSTICS, diag.path());

    let status = cmd.status().map_err(|e| {
        failed(format!(
            "cannot run cargo ({}): {e}",
            cargo.to_string_lossy()
        ))
    })?;
    let code = status.code().map_or(1, |c| c.clamp(0, 255) as u8);
    if code != 0 {
        let text = std::fs::read_to_string(diag.path()).unwrap_or_default();
        if !text.trim().is_empty() {
            eprintln!(
                "\ncargo-ferrozyme: the AD pass reported:\n{}",
                text.trim_end()
            );
        }
    }
    Ok(code)
}

/// Names this `cargo-ferrozyme` build for the `ferrozyme` crate
/// (`ferrozyme::__rt::PASS_BUILD`): cargo relinks nothing when only the linker program
/// changed, so a new pass would otherwise leave programs linked by the old one in place.
const ENV_PASS_BUILD: &str = "FERROZYME_PASS_BUILD";

/// The version, size and modification time of this program.
fn pass_build(me: &Path) -> String {
    let meta = std::fs::metadata(me).ok();
    let size = meta.as_ref().map_or(0, |m| m.len());
    let mtime = meta
        .and_then(|m| m.modified().ok())
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    format!("{}-{size}-{mtime}", env!("CARGO_PKG_VERSION"))
}

fn join_flags(existing: Option<String>, ours: &[String]) -> String {
    let mut v: Vec<String> = existing
        .map(|s| s.split_whitespace().map(String::from).collect())
        .unwrap_or_default();
    v.extend(ours.iter().cloned());
    v.join(" ")
}

/// The linker cargo is configured to use for the host target, from the environment
/// (`CARGO_TARGET_<TRIPLE>_LINKER`). Configuration files are not read: set
/// `FERROZYME_REAL_LINKER` when a `.cargo/config.toml` names a linker.
fn configured_linker() -> Option<String> {
    let triple = host_triple()?;
    let var = format!(
        "CARGO_TARGET_{}_LINKER",
        triple.to_uppercase().replace(['-', '.'], "_")
    );
    std::env::var(var).ok().filter(|l| !l.is_empty())
}

/// The target the command builds for: `--target`, `CARGO_BUILD_TARGET`, else the host.
fn build_target(args: &[String]) -> Option<String> {
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--target" {
            return it.next().cloned();
        }
        if let Some(t) = a.strip_prefix("--target=") {
            return Some(t.to_string());
        }
    }
    std::env::var("CARGO_BUILD_TARGET")
        .ok()
        .filter(|t| !t.is_empty())
        .or_else(host_triple)
}

fn host_triple() -> Option<String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(rustc).arg("-vV").output().ok()?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(|h| h.trim().to_string()))
}

/// The `[profile.*]` tables of the workspace root manifest: as cargo finds it, the first
/// `Cargo.toml` declaring a `[workspace]` on the way up from the current directory (a
/// crate with its own `[workspace]` inside another workspace's tree is its own root),
/// else the nearest manifest.
fn manifest_profiles() -> Option<toml::Table> {
    profiles_from(&std::env::current_dir().ok()?)
}

fn profiles_from(dir: &Path) -> Option<toml::Table> {
    let manifests: Vec<PathBuf> = dir
        .ancestors()
        .map(|d| d.join("Cargo.toml"))
        .filter(|m| m.is_file())
        .collect();
    let root = manifests
        .iter()
        .find(|m| read_table(m).is_some_and(|t| t.contains_key("workspace")))
        .or(manifests.first())?;
    let t = read_table(root)?;
    t.get("profile").and_then(|p| p.as_table()).cloned()
}

fn read_table(p: &Path) -> Option<toml::Table> {
    std::fs::read_to_string(p).ok()?.parse::<toml::Table>().ok()
}

/// `CARGO_PROFILE_<P>_DEBUG=line-tables-only` (and `_STRIP=debuginfo`) for the profile the
/// command builds with, when it is release-like and nothing sets `debug` for it.
fn profile_env(args: &[String], profiles: Option<&toml::Table>) -> Vec<(String, String)> {
    let mut profile: Option<String> = None;
    let cmd = args.first().map(String::as_str).unwrap_or("");
    if cmd == "bench" {
        profile = Some("bench".into());
    }
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--release" || a == "-r" {
            profile = Some(if cmd == "bench" { "bench" } else { "release" }.into());
        } else if a == "--profile" {
            profile = it.next().cloned();
        } else if let Some(p) = a.strip_prefix("--profile=") {
            profile = Some(p.to_string());
        }
    }
    let Some(p) = profile.filter(|p| p != "dev" && p != "test") else {
        return Vec::new();
    };
    let key = p.to_uppercase().replace('-', "_");
    let set_in = |field: &str| {
        std::env::var_os(format!("CARGO_PROFILE_{key}_{}", field.to_uppercase())).is_some()
            || profiles
                .and_then(|t| t.get(&p))
                .and_then(|t| t.as_table())
                .is_some_and(|t| t.contains_key(field))
    };
    let mut env = Vec::new();
    if !set_in("debug") {
        env.push((
            format!("CARGO_PROFILE_{key}_DEBUG"),
            "line-tables-only".to_string(),
        ));
        if !set_in("strip") {
            env.push((
                format!("CARGO_PROFILE_{key}_STRIP"),
                "debuginfo".to_string(),
            ));
        }
    }
    env
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn release_profiles_get_line_tables() {
        let env = profile_env(&s(&["build", "--release"]), None);
        assert!(env.contains(&(
            "CARGO_PROFILE_RELEASE_DEBUG".to_string(),
            "line-tables-only".to_string()
        )));
        assert!(profile_env(&s(&["build"]), None).is_empty());
        let env = profile_env(&s(&["bench"]), None);
        assert_eq!(env[0].0, "CARGO_PROFILE_BENCH_DEBUG");
        let env = profile_env(&s(&["run", "--profile", "fast-x"]), None);
        assert_eq!(env[0].0, "CARGO_PROFILE_FAST_X_DEBUG");
    }

    #[test]
    fn a_manifest_debug_setting_is_kept() {
        let t: toml::Table = "[release]\ndebug = true\n".parse().unwrap();
        assert!(profile_env(&s(&["build", "--release"]), Some(&t)).is_empty());
    }

    #[test]
    fn the_nearest_workspace_root_has_the_profiles() {
        let t = tempfile::tempdir().unwrap();
        let outer = t.path().join("outer");
        let inner = outer.join("tests").join("inner");
        std::fs::create_dir_all(inner.join("src")).unwrap();
        std::fs::write(
            outer.join("Cargo.toml"),
            "[workspace]\n[profile.release]\ndebug = false\n",
        )
        .unwrap();
        std::fs::write(
            inner.join("Cargo.toml"),
            "[workspace]\n[package]\nname = \"x\"\n",
        )
        .unwrap();
        // A crate with its own `[workspace]` is its own root: the outer profiles do not
        // apply to it.
        assert!(profiles_from(&inner.join("src")).is_none());
        // Without it, the outer workspace's profiles are the ones cargo uses.
        std::fs::write(inner.join("Cargo.toml"), "[package]\nname = \"x\"\n").unwrap();
        let p = profiles_from(&inner.join("src")).unwrap();
        assert!(p["release"].as_table().unwrap().contains_key("debug"));
    }

    #[test]
    fn flags_are_appended() {
        assert_eq!(
            join_flags(Some("-Copt-level=2  -g".into()), &s(&["-Cx"])),
            "-Copt-level=2 -g -Cx"
        );
        assert_eq!(join_flags(None, &s(&["-Cx"])), "-Cx");
    }
}
