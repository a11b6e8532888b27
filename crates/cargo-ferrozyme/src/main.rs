//! `cargo-ferrozyme`: `cargo ferrozyme build|run|test|bench …` for crates that use the
//! `ferrozyme` crate, on stable Rust.
//!
//! One program, two modes:
//! * **subcommand** (`cargo ferrozyme …`, `crate::cargo`): runs cargo with
//!   `-C linker-plugin-lto -C linker=<this program>`;
//! * **linker** (run by rustc, `crate::linker`): links the crates' bitcode into one
//!   module, runs the AD pass on it (`crate::lto`), and hands one native object to the
//!   real linker.
//!
//! The mode is told apart by the environment variable the subcommand sets for the build
//! (`FERROZYME_LINKER_MODE`) and by the first argument (`ferrozyme` when cargo runs a
//! subcommand). This file only dispatches and prints.
#![forbid(unsafe_code)]

mod cargo;
mod config_flags;
mod diag;
mod error;
mod gc;
mod linker;
mod lto;
mod preopt;
mod rust_help;
mod target;
mod unpun;
mod upstream;

use std::process::ExitCode;

use error::Error;

fn main() -> ExitCode {
    let argv: Result<Vec<String>, Error> = std::env::args_os()
        .skip(1)
        .map(|a| {
            a.into_string()
                .map_err(|a| Error::Usage(format!("argument {a:?} is not valid UTF-8")))
        })
        .collect();
    let result = argv.and_then(|argv| {
        let subcommand = argv.first().is_some_and(|a| a == "ferrozyme");
        if std::env::var_os(linker::ENV_MODE).is_some() && !subcommand {
            linker::run(&argv)
        } else {
            // `cargo ferrozyme x` runs `cargo-ferrozyme ferrozyme x`.
            let rest = if subcommand { &argv[1..] } else { &argv[..] };
            cargo::run(rest)
        }
    });
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(e.exit_code())
        }
    }
}
