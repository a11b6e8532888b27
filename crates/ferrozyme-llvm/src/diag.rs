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
        self.add_reached_from(steps);
        self
    }
    /// Appends the `reached from` steps not yet listed (nor the diagnostic's own location).
    pub fn add_reached_from(&mut self, steps: impl IntoIterator<Item = SourceLoc>) {
        for l in steps {
            if self.loc.as_ref() != Some(&l) && !self.reached_from.contains(&l) {
                self.reached_from.push(l);
            }
        }
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

/// Each distinct diagnostic once, in the order first reported, with the `note: reached
/// from` steps of every copy. One problem in a function is met once per derivative
/// requested of it (reverse, forward, vector forward, split: difftest C++ seed 9446 got
/// four copies of each error), each time in another clone, whose numbered values differ:
/// copies are the same when they agree on everything but the numbers of unnamed values
/// in the instruction (`%91 = call … (i64 %81 …)` and `%99 = call … (i64 %89 …)`).
pub fn distinct(diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = Vec::with_capacity(diags.len());
    for d in diags {
        match out.iter_mut().find(|o| same_problem(o, &d)) {
            Some(o) => o.add_reached_from(d.reached_from),
            None => out.push(d),
        }
    }
    out
}

fn same_problem(a: &Diagnostic, b: &Diagnostic) -> bool {
    a.kind == b.kind
        && a.function == b.function
        && a.loc == b.loc
        && a.message == b.message
        && a.help == b.help
        && a.instruction.as_deref().map(without_value_numbers)
            == b.instruction.as_deref().map(without_value_numbers)
}

/// `text` (IR) with the numbers of unnamed local values (`%91`), of metadata (`!dbg
/// !4228`: each clone's locations are its own nodes) and of attribute groups (`#9`) left
/// out.
fn without_value_numbers(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut numbered = false;
    for c in text.chars() {
        if numbered && c.is_ascii_digit() {
            continue;
        }
        numbered = matches!(c, '%' | '!' | '#');
        out.push(c);
    }
    out
}

/// Rendered diagnostics joined one per paragraph, each `help:` line shown once: a help
/// equal to one printed above is left out (ten calls refused for one reason get one
/// piece of advice, `cargo ferrozyme` included, whose help lines are rewritten for Rust).
pub fn join_rendered(blocks: impl IntoIterator<Item = String>) -> String {
    const HELP: &str = "\n  help: ";
    let mut seen: Vec<String> = Vec::new();
    let mut out: Vec<String> = Vec::new();
    for b in blocks {
        match b.find(HELP) {
            Some(k) if seen.iter().any(|h| *h == b[k..]) => out.push(b[..k].to_string()),
            Some(k) => {
                seen.push(b[k..].to_string());
                out.push(b);
            }
            None => out.push(b),
        }
    }
    out.join("\n")
}

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
    fn copies_from_several_requests_are_shown_once() {
        let at = |line| SourceLoc {
            file: "f.cpp".into(),
            line,
            col: 3,
            function: Some("main".into()),
        };
        let d = |inst: &str, from: u32| {
            let mut d = Diagnostic::new(DiagKind::UnsupportedInstruction, "a struct by value")
                .in_function("f")
                .at_instruction(inst)
                .with_help("pass it by pointer");
            d.reached_from = vec![at(from)];
            d
        };
        let other = Diagnostic::new(DiagKind::CannotDeduceType, "a copy").in_function("f");
        let all = distinct(vec![
            d(
                "%91 = call { i64, i64 } @h(i64 %81, float %90) #1, !dbg !4",
                10,
            ),
            other.clone(),
            d(
                "%99 = call { i64, i64 } @h(i64 %89, float %98) #3, !dbg !7",
                12,
            ),
            d(
                "%91 = call { i64, i64 } @h(i64 %81, float %90) #1, !dbg !4",
                10,
            ),
            d("%7 = call double @g(double %a1)", 10),
        ]);
        assert_eq!(all.len(), 3, "{all:?}");
        assert_eq!(all[0].reached_from, vec![at(10), at(12)]);
        assert_eq!(all[1], other);
        assert_eq!(
            all[2].instruction.as_deref(),
            Some("%7 = call double @g(double %a1)")
        );
        // The help is printed with the first diagnostic that has it.
        let text = join_rendered(all.iter().map(|d| d.to_string()));
        assert_eq!(
            text.matches("help: pass it by pointer").count(),
            1,
            "{text}"
        );
        assert_eq!(text.matches("error[").count(), 3, "{text}");
        assert!(
            text.ends_with("@g(double %a1)\n  note: reached from `main` at f.cpp:10:3"),
            "{text}"
        );
    }

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
