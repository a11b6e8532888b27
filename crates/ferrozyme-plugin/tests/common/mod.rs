//! What the plugin's integration tests share: where the plugin and LLVM's tools are, and
//! running commands.
#![allow(dead_code)] // each test binary uses its own subset

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The plugin built next to the test executable (or `FERROZYME_PLUGIN`).
pub fn plugin() -> PathBuf {
    if let Some(p) = std::env::var_os("FERROZYME_PLUGIN") {
        return PathBuf::from(p);
    }
    let exe = std::env::current_exe().expect("test executable path");
    let deps = exe.parent().expect("target/<profile>/deps");
    [
        deps.parent().map(|p| p.join("libferrozyme_plugin.so")),
        Some(deps.join("libferrozyme_plugin.so")),
    ]
    .into_iter()
    .flatten()
    .find(|p| p.is_file())
    .unwrap_or_else(|| panic!("libferrozyme_plugin.so not found near {}; build it with cargo build -p ferrozyme-plugin or set FERROZYME_PLUGIN", exe.display()))
}

/// LLVM 22's `name` (`clang-22`, `opt-22` ... on PATH, else /usr/lib/llvm-22/bin).
pub fn tool(name: &str) -> PathBuf {
    let versioned = format!("{name}-22");
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|d| d.join(&versioned))
        .find(|p| p.is_file())
        .unwrap_or_else(|| Path::new("/usr/lib/llvm-22/bin").join(name))
}

pub fn run(cmd: &mut Command) -> Output {
    cmd.output()
        .unwrap_or_else(|e| panic!("cannot run {:?}: {e}", cmd.get_program()))
}

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[track_caller]
pub fn assert_ok(o: &Output) {
    assert!(
        o.status.success(),
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        text(&o.stdout),
        text(&o.stderr)
    );
}
