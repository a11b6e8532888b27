//! Diagnostics: what went wrong, where, and what the user can do about it.
//!
//! Every error the pass reports to a user is a [`Diagnostic`]. It names the kind of
//! problem, the function and instruction involved, the source location when the module
//! carries debug info (`-g`), and a help line. Library code never prints: callers decide
//! how to show diagnostics (the CLI prints them to stderr and exits non-zero).

use std::fmt;

/// A position in the user's source, taken from LLVM debug locations.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SourceLoc {
    pub file: String,
    pub line: u32,
    pub col: u32,
    /// The function the source line belongs to (the linkage name of its debug-info
    /// subprogram), which differs from the function the code is in once inlined.
    pub function: Option<String>,
}

impl fmt::Display for SourceLoc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.col > 0 {
            write!(f, "{}:{}:{}", self.file, self.line, self.col)
        } else {
            write!(f, "{}:{}", self.file, self.line)
        }
    }
}

/// The kinds of problems Ferrozyme reports. Each has a stable short code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DiagKind {
    /// A called function has no IR in the module and no derivative rule.
    MissingDerivative,
    /// An instruction (or intrinsic) the pass cannot differentiate.
    UnsupportedInstruction,
    /// Type analysis could not tell whether memory holds floats, integers or pointers.
    CannotDeduceType,
    /// The input is not valid LLVM IR / bitcode.
    MalformedIr,
    /// A call to `__enzyme_autodiff` (or a sibling) whose arguments do not fit the function.
    BadAutodiffCall,
    /// A bug in Ferrozyme itself: an internal invariant failed.
    Internal,
}

impl DiagKind {
    pub fn code(self) -> &'static str {
        match self {
            DiagKind::MissingDerivative => "missing-derivative",
            DiagKind::UnsupportedInstruction => "unsupported-instruction",
            DiagKind::CannotDeduceType => "cannot-deduce-type",
            DiagKind::MalformedIr => "malformed-ir",
            DiagKind::BadAutodiffCall => "bad-autodiff-call",
            DiagKind::Internal => "internal-error",
        }
    }
}

/// One user-facing error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub kind: DiagKind,
    /// The function being differentiated or analysed (source name when known).
    pub function: Option<String>,
    /// The offending instruction, printed as LLVM IR.
    pub instruction: Option<String>,
    pub loc: Option<SourceLoc>,
    pub message: String,
    pub help: String,
    /// How the user's code reached the problem, innermost first: the call an inliner
    /// expanded to bring the instruction into its function, then the calls from the
    /// function being differentiated down to the one in error (`loc.function` names the
    /// caller). Shown as `note:` lines.
    pub reached_from: Vec<SourceLoc>,
}

impl Diagnostic {
    pub fn new(kind: DiagKind, message: impl Into<String>) -> Self {
        Diagnostic {
            kind,
            function: None,
            instruction: None,
            loc: None,
            message: message.into(),
            help: String::new(),
            reached_from: Vec::new(),
        }
    }
    pub fn in_function(mut self, name: impl Into<String>) -> Self {
        self.function = Some(name.into());
        self
    }
    pub fn at_instruction(mut self, text: impl Into<String>) -> Self {
        self.instruction = Some(text.into());
        self
    }
    /// The function and source line of the instruction `inst` (nothing for a value that
    /// is no instruction, such as a constant expression using a global).
    pub fn at_value(self, inst: crate::Value) -> Self {
        if !inst.is_instruction() {
            return self;
        }
        self.in_function(inst.parent_function().source_name())
            .at_loc(inst.source_loc())
            .reached_through(inst.inlined_chain())
    }
    /// Adds steps of how the user's code reached the problem (see `reached_from`), after
    /// the ones already there (those already there are not repeated).
    pub fn reached_through(mut self, steps: impl IntoIterator<Item = SourceLoc>) -> Self {
        for l in steps {
            if self.loc.as_ref() != Some(&l) && !self.reached_from.contains(&l) {
                self.reached_from.push(l);
            }
        }
        self
    }
    pub fn at_loc(mut self, loc: Option<SourceLoc>) -> Self {
        if loc.is_some() {
            self.loc = loc;
        }
        self
    }
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = help.into();
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error[{}]: ", self.kind.code())?;
        if let Some(loc) = &self.loc {
            write!(f, "{loc}: ")?;
        }
        if let Some(func) = &self.function {
            // C++ names as the user wrote them, the symbol after (for `nm` and the IR).
            match shown_name(func) {
                Some(d) => write!(f, "in function `{d}` (`{func}`): ")?,
                None => write!(f, "in function `{func}`: ")?,
            }
        }
        write!(f, "{}", demangle_quoted(&self.message))?;
        if let Some(inst) = &self.instruction {
            write!(f, "\n  instruction: {}", inst.trim())?;
        }
        for l in &self.reached_from {
            match l.function.as_deref() {
                Some(func) => {
                    let shown = shown_name(func).unwrap_or_else(|| func.to_string());
                    write!(f, "\n  note: reached from `{shown}` at {l}")?
                }
                None => write!(f, "\n  note: reached from {l}")?,
            }
        }
        if !self.help.is_empty() {
            write!(f, "\n  help: {}", self.help)?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}

/// An Itanium C++ symbol (`_ZN4phys7mysteryEd`) demangled (`phys::mystery(double)`);
/// `None` for other names.
pub fn demangle_cxx(mangled: &str) -> Option<String> {
    if !mangled.starts_with("_Z") {
        return None;
    }
    cpp_demangle::Symbol::new(mangled).ok()?.demangle().ok()
}

/// How a diagnostic shows a C++ symbol: demangled, except Rust's legacy symbols
/// (`_ZN…17h<hash>E`, which `cargo ferrozyme` demangles the Rust way).
fn shown_name(name: &str) -> Option<String> {
    if is_rust_legacy(name) {
        return None;
    }
    demangle_cxx(name)
}

/// Rust's legacy mangling: the path ends in a `h` + 16 hex digits hash element.
fn is_rust_legacy(name: &str) -> bool {
    name.strip_suffix('E')
        .and_then(|s| s.len().checked_sub(19).map(|k| &s[k..]))
        .is_some_and(|tail| {
            tail.starts_with("17h") && tail[3..].bytes().all(|b| b.is_ascii_hexdigit())
        })
}

/// `text` with every C++ symbol quoted in backticks demangled.
fn demangle_quoted(text: &str) -> String {
    text.split('`')
        .enumerate()
        .map(|(i, part)| match shown_name(part) {
            Some(d) if i % 2 == 1 => d,
            _ => part.to_string(),
        })
        .collect::<Vec<_>>()
        .join("`")
}

/// What an optimization remark reports: a decision of the reverse sweep about a value it
/// needs, as Enzyme's `-Rpass=enzyme` remarks do (shown by `clang -Rpass=enzyme` through the
/// plugin, `opt -pass-remarks=enzyme`, `ferrozyme cc -Rpass=enzyme`, `-enzyme-print-perf`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RemarkKind {
    /// Stored on the tape in the forward sweep, read back in the reverse sweep.
    CachedValue,
    /// Computed again in the reverse sweep from values it already has.
    RecomputedValue,
    /// A load executed again in the reverse sweep: nothing the function runs writes that
    /// memory, so it still holds the value.
    RereadLoad,
    /// Automatic checkpointing of a loop by budget: whether a loop is a candidate and
    /// what its state is, or why it stays fully taped.
    Checkpoint,
}

impl RemarkKind {
    /// The remark's name (LLVM's `RemarkName`, as in YAML remark files).
    pub fn name(self) -> &'static str {
        match self {
            RemarkKind::CachedValue => "CachedValue",
            RemarkKind::RecomputedValue => "RecomputedValue",
            RemarkKind::RereadLoad => "RereadLoad",
            RemarkKind::Checkpoint => "AutoCheckpoint",
        }
    }
}

/// The pass name remarks are reported under (`-Rpass=enzyme`, `-pass-remarks=enzyme`).
pub const REMARK_PASS: &str = "enzyme";

/// One optimization remark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Remark {
    pub kind: RemarkKind,
    /// The LLVM function the remark is about (the function being differentiated).
    pub function: String,
    pub loc: Option<SourceLoc>,
    pub message: String,
}

impl fmt::Display for Remark {
    /// As clang prints remarks: `file:line:col: remark: message [-Rpass=enzyme]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(loc) = &self.loc {
            write!(f, "{loc}: ")?;
        }
        write!(
            f,
            "remark: in function `{}`: {} [-Rpass={REMARK_PASS}]",
            self.function, self.message
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cxx_names_are_shown_demangled() {
        let d = Diagnostic::new(
            DiagKind::MissingDerivative,
            "no derivative for `_ZN4phys7mysteryEd`: it has no IR",
        )
        .in_function("_ZN4phys6energyIdEET_S1_")
        .at_instruction("%2 = call double @_ZN4phys7mysteryEd(double %0)");
        let text = d.to_string();
        assert!(
            text.contains(
                "in function `double phys::energy<double>(double)` (`_ZN4phys6energyIdEET_S1_`)"
            ),
            "{text}"
        );
        assert!(
            text.contains("no derivative for `phys::mystery(double)`"),
            "{text}"
        );
        // The instruction stays IR.
        assert!(text.contains("@_ZN4phys7mysteryEd(double %0)"), "{text}");
        // C names and Rust's legacy symbols are left as they are.
        let rust = "_ZN2rx7d_rosen4shim17h0a518071a4d7fd15E";
        let d = Diagnostic::new(DiagKind::Internal, format!("`{rust}` and `sumsq`"));
        assert_eq!(
            d.to_string(),
            format!("error[internal-error]: `{rust}` and `sumsq`")
        );
    }
}
