//! Errors of both modes, each with the exit status it maps to.

use std::fmt;

#[derive(Debug)]
pub enum Error {
    /// A command-line mistake (exit 2).
    Usage(String),
    /// Something failed: a file, a tool, the pipeline (exit 1).
    Failed(String),
    /// The AD pass reported diagnostics (already rendered, demangled) (exit 1).
    Diagnostics(String),
}

impl Error {
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Usage(_) => 2,
            Error::Failed(_) | Error::Diagnostics(_) => 1,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage(m) => write!(f, "cargo-ferrozyme: error: {m}"),
            Error::Failed(m) => write!(f, "cargo-ferrozyme: error: {m}"),
            Error::Diagnostics(m) => f.write_str(m),
        }
    }
}

pub fn failed(msg: impl Into<String>) -> Error {
    Error::Failed(msg.into())
}
