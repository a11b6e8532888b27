//! What the C++ half reports through the LLVM context, as flat records.
//!
//! Remarks become `OptimizationRemark`s under Enzyme's pass name (so `clang -Rpass=enzyme`
//! and `opt -pass-remarks=enzyme` show them at their source lines), and the errors of a
//! failed run one located `DiagnosticInfoUnsupported` (so clang prints them at the source
//! line of the first, and `clang -Xclang -verify` tests can expect them there).
//!
//! Format: records separated by `\x1e`, each six fields separated by `\x1f`: kind (`R`
//! remark, `E` error), remark name, LLVM function name (empty when none is known), line
//! and column (0 when unknown), message. The C++ side splits them (`src/plugin.cpp`).

use ferrozyme_llvm::{Diagnostic, Remark};
use ferrozyme_transform::Module;

const RECORD: char = '\x1e';
const FIELD: char = '\x1f';

fn record(
    out: &mut String,
    kind: char,
    name: &str,
    function: &str,
    line: u32,
    col: u32,
    msg: &str,
) {
    if !out.is_empty() {
        out.push(RECORD);
    }
    let clean = |s: &str| s.replace([RECORD, FIELD], " ");
    out.push_str(&format!(
        "{kind}{FIELD}{}{FIELD}{}{FIELD}{line}{FIELD}{col}{FIELD}{}",
        clean(name),
        clean(function),
        clean(msg)
    ));
}

/// The records of a successful run's remarks.
pub fn remarks(list: &[Remark]) -> String {
    let mut out = String::new();
    for r in list {
        let (line, col) = r.loc.as_ref().map_or((0, 0), |l| (l.line, l.col));
        record(
            &mut out,
            'R',
            r.kind.name(),
            &r.function,
            line,
            col,
            &r.message,
        );
    }
    out
}

/// One error record for a failed run: every diagnostic's text, located at the first
/// diagnostic that names a function of the module.
pub fn error(module: Module, diags: &[Diagnostic]) -> String {
    let text = ferrozyme_llvm::diag::join_rendered(diags.iter().map(|d| d.to_string()));
    let located = diags.iter().find_map(|d| {
        let names = [
            d.loc.as_ref().and_then(|l| l.function.clone()),
            d.function.clone(),
        ];
        let f = names
            .into_iter()
            .flatten()
            .find(|n| module.function(n).is_some())?;
        Some((f, d.loc.as_ref().map_or((0, 0), |l| (l.line, l.col))))
    });
    let (function, (line, col)) = located.unwrap_or_default();
    let mut out = String::new();
    record(&mut out, 'E', "", &function, line, col, &text);
    out
}
