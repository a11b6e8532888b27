//! `--target <host>`: only the program's own crates go through bitcode and the AD link.
//!
//! Without `--target`, cargo passes `RUSTFLAGS` to every rustc it runs, build scripts,
//! proc macros and their dependencies included. With `-C linker-plugin-lto` there, the
//! proc-macro crates (`ferrozyme-macros` with `syn`, `quote`, `proc-macro2`) are
//! compiled to bitcode, and their link becomes a link-time compilation of all of `syn`
//! in one thread: on a cold build of `examples/rust-gmm` that link took 3-5 s, the
//! plain build's whole compile of `syn` about 3.7 s on two cores, and the build as a
//! whole was 2.0 times the plain one (1.2-1.3 times with this module).
//!
//! With an explicit `--target`, cargo gives `RUSTFLAGS` only to the crates built for the
//! target; what runs on the host at build time is compiled as by plain cargo (native
//! code, cargo's default linker). So `cargo ferrozyme` passes `--target <host triple>`
//! to the commands that build, unless the user chose a target (`--target`,
//! `CARGO_BUILD_TARGET`). Side effects, documented in the crate docs: the build's
//! artifacts are in `target/<host triple>/<profile>/` (`cargo ferrozyme run`, `test`,
//! `bench` find them as before), and plain and AD builds no longer overwrite each other:
//! the build scripts and proc macros are shared, the program's crates are kept apart.
//! A `build.target` in `.cargo/config.toml` is overridden by the explicit host target;
//! set `CARGO_BUILD_TARGET` instead.

/// Cargo commands that compile crates (and accept `--target`).
const BUILD_COMMANDS: &[&str] = &[
    "build", "b", "run", "r", "test", "t", "bench", "check", "c", "rustc", "doc", "d", "rustdoc",
    "install",
];

/// `args` with `--target <host>` after the command, when the command builds and no
/// target is chosen; `None` leaves the arguments as they are.
pub fn with_host_target(
    args: &[String],
    host: Option<&str>,
    env_target: bool,
) -> Option<Vec<String>> {
    let host = host?;
    let cmd = args.first()?;
    if env_target || !BUILD_COMMANDS.contains(&cmd.as_str()) {
        return None;
    }
    let before_dashes = args.iter().take_while(|a| *a != "--");
    if before_dashes
        .clone()
        .any(|a| a == "--target" || a.starts_with("--target="))
    {
        return None;
    }
    let mut out = Vec::with_capacity(args.len() + 2);
    out.push(cmd.clone());
    out.push("--target".to_string());
    out.push(host.to_string());
    out.extend(args[1..].iter().cloned());
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    const HOST: Option<&str> = Some("x86_64-unknown-linux-gnu");

    #[test]
    fn building_commands_get_the_host_target() {
        assert_eq!(
            with_host_target(&s(&["run", "--release", "--", "--target"]), HOST, false),
            Some(s(&[
                "run",
                "--target",
                "x86_64-unknown-linux-gnu",
                "--release",
                "--",
                "--target"
            ]))
        );
        assert!(with_host_target(&s(&["test"]), HOST, false).is_some());
    }

    #[test]
    fn a_chosen_target_or_another_command_is_left_alone() {
        assert_eq!(
            with_host_target(&s(&["build", "--target", "x"]), HOST, false),
            None
        );
        assert_eq!(
            with_host_target(&s(&["build", "--target=x"]), HOST, false),
            None
        );
        assert_eq!(with_host_target(&s(&["build"]), HOST, true), None);
        assert_eq!(with_host_target(&s(&["clean"]), HOST, false), None);
        assert_eq!(with_host_target(&s(&["build"]), None, false), None);
    }
}
