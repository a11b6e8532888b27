//! Optimization remarks: the reverse sweep's decisions about the primal values it needs.
//!
//! Every value the reverse sweep uses either is still available (straight-line code that
//! runs once), is computed again there from values it already has, is re-read from memory
//! nothing overwrites, or is cached on the tape by the forward sweep. The last three are
//! what a user tuning memory and time wants to see, the way Enzyme reports them under
//! `-Rpass=enzyme`. The synthesizers report each decision once per value to this sink,
//! which keeps nothing unless the caller asked for remarks (`Options::remarks` or Enzyme's
//! `-enzyme-print-perf`), so the default run pays one branch per decision.

use ferrozyme_analysis::hash::HashSet;

use ferrozyme_llvm::{Remark, RemarkKind, Value};

/// The remarks of one run, in the order the decisions were made.
#[derive(Default)]
pub(crate) struct Remarks {
    enabled: bool,
    seen: HashSet<(RemarkKind, Value)>,
    list: Vec<Remark>,
}

impl Remarks {
    pub fn new(enabled: bool) -> Remarks {
        Remarks {
            enabled,
            ..Remarks::default()
        }
    }

    /// Reports decision `kind` about instruction `v` (of the clone being differentiated)
    /// of the user's function `func`, `why` completing the sentence; once per (kind, value).
    pub fn note(&mut self, kind: RemarkKind, func: Value, v: Value, why: impl FnOnce() -> String) {
        if !self.enabled || !v.is_instruction() || !self.seen.insert((kind, v)) {
            return;
        }
        let what = match kind {
            RemarkKind::CachedValue => "caching",
            RemarkKind::RecomputedValue => "recomputing",
            RemarkKind::RereadLoad => "re-reading",
            RemarkKind::Checkpoint => "checkpointing",
        };
        self.list.push(Remark {
            kind,
            function: func.name(),
            loc: v.source_loc(),
            message: format!("{what} `{}` for the reverse sweep: {}", short_ir(v), why()),
        });
    }

    pub fn take(&mut self) -> Vec<Remark> {
        std::mem::take(&mut self.list)
    }
}

/// An instruction as IR without its metadata and attribute groups, at most 100 characters.
fn short_ir(v: Value) -> String {
    let text = v.to_string();
    let text = text.split(", !").next().unwrap_or_default();
    let words: Vec<&str> = text
        .split(' ')
        .filter(|w| !(w.starts_with('#') && w[1..].chars().all(|c| c.is_ascii_digit())))
        .collect();
    let text = words.join(" ");
    match text.char_indices().nth(100) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text,
    }
}
