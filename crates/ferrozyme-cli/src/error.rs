//! What can go wrong in a `ferrozyme` command, and the exit code each failure maps to.
//!
//! Library-style modules return a [`CliError`]; only `main` prints it. The exit codes are
//! part of the interface: 2 for a command-line mistake, 1 for everything else (diagnostics
//! from the pass, malformed IR, a failing tool such as clang).

use std::fmt;

use ferrozyme_llvm::{DiagKind, Diagnostic};

use crate::args::UsageError;

#[derive(Debug)]
pub enum CliError {
    /// A command-line mistake.
    Usage(String),
    /// Diagnostics in the pass's format (`error[<kind>]: …`): from the transform itself,
    /// or malformed input / an internal verifier failure reported the same way.
    Diagnostics(Vec<Diagnostic>),
    /// A tool we ran (clang) failed; it has already printed its own messages.
    Tool { what: String, status: Option<i32> },
    /// Anything else (I/O, LLVM refusing a pipeline …), as a sentence.
    Failed(String),
}

impl CliError {
    pub fn malformed_ir(msg: impl Into<String>) -> CliError {
        CliError::Diagnostics(vec![Diagnostic::new(DiagKind::MalformedIr, msg).with_help(
            "the input must be LLVM 22 IR (text .ll or bitcode .bc); check that it came from clang-22 or LLVM 22 tools",
        )])
    }

    pub fn internal(msg: impl Into<String>) -> CliError {
        CliError::Diagnostics(vec![Diagnostic::new(DiagKind::Internal, msg).with_help(
            "this is a bug in Ferrozyme; please report it with the module named above",
        )])
    }

    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Usage(_) => 2,
            _ => 1,
        }
    }
}

impl From<UsageError> for CliError {
    fn from(e: UsageError) -> Self {
        CliError::Usage(e.0)
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(msg) => write!(
                f,
                "ferrozyme: error: {msg}\n(run 'ferrozyme --help' for usage)"
            ),
            CliError::Diagnostics(diags) => write!(
                f,
                "{}",
                ferrozyme_llvm::diag::join_rendered(diags.iter().map(|d| d.to_string()))
            ),
            CliError::Tool {
                what,
                status: Some(code),
            } => write!(f, "ferrozyme: error: {what} failed (exit status {code})"),
            CliError::Tool { what, status: None } => {
                write!(f, "ferrozyme: error: {what} was killed by a signal")
            }
            CliError::Failed(msg) => write!(f, "ferrozyme: error: {msg}"),
        }
    }
}
