//! Active values printed into a character buffer and parsed back as numbers: the
//! derivative is silently zero.
//!
//! Formatting (`snprintf`) and parsing (`strtod`, `atof`, `sscanf`) carry no derivative,
//! rightly so each on its own: text a program prints is output, a number it reads from
//! text is data (`ferrozyme_abi::library`, `ferrozyme_abi::input`). Together, on one
//! buffer, they make a round trip (`snprintf(buf, n, "%.17g", x); y = strtod(buf, 0);`,
//! the way some code rounds a value to a number of digits) whose result *is* the
//! differentiable value, yet both halves are constants to the derivative, so it came out
//! as zero without a word (a c29 probe). The check: a formatting call given an active
//! float (its value, promoted to `double` through `...`) writes a buffer, and a parsing
//! call in the same function reads from the same object. Only then is it refused: printing
//! an active value for a log, or parsing a configuration string, stays allowed.

use ferrozyme_analysis::hash::HashMap;

use ferrozyme_analysis::activity::Activity;
use ferrozyme_llvm::{DiagKind, Opcode, Value};

use super::body::{describe_object, Finding};
use crate::common::base_object;

/// Functions that parse a floating-point number from the string passed first.
const PARSE_FROM_STRING: &[&str] = &[
    "strtod",
    "strtof",
    "strtold",
    "atof",
    "sscanf",
    "__isoc99_sscanf",
    "__isoc23_sscanf",
];

/// The buffer argument of a function that formats characters into one.
fn formats_into(name: &str) -> Option<usize> {
    match ferrozyme_abi::inactive_library(name)?.writes {
        ferrozyme_abi::Writes::CharsTo(n) => Some(n),
        _ => None,
    }
}

fn callee_name(call: Value) -> Option<String> {
    call.called_function().map(|f| f.name())
}

/// Buffers written with active floats printed into them, then parsed in `insts`.
pub(super) fn text_round_trip(
    insts: &[Value],
    act: &Activity,
    active_params: &ferrozyme_analysis::hash::HashSet<Value>,
    out: &mut Vec<Finding>,
) {
    let is_call = |i: Value| matches!(i.opcode(), Some(Opcode::LLVMCall | Opcode::LLVMInvoke));
    // Buffer object -> the call that printed an active float into it.
    let mut printed: HashMap<Value, Value> = HashMap::default();
    for &i in insts.iter().filter(|i| is_call(**i)) {
        // The functions that format their arguments into a buffer: the library table's
        // rows writing characters (`sprintf`, `snprintf` and their forms).
        let Some(at) = callee_name(i).and_then(|n| formats_into(&n)) else {
            continue;
        };
        let args = i.call_args();
        let active_float = args
            .iter()
            .skip(at + 1)
            .any(|a| a.ty().is_fp_scalar() && (act.is_active(*a) || active_params.contains(a)));
        if let (true, Some(buf)) = (active_float, args.get(at)) {
            printed.entry(base_object(*buf)).or_insert(i);
        }
    }
    if printed.is_empty() {
        return;
    }
    for &i in insts.iter().filter(|i| is_call(**i)) {
        let Some(name) = callee_name(i) else { continue };
        if !PARSE_FROM_STRING.contains(&name.as_str()) {
            continue;
        }
        let Some(src) = i.call_args().first().copied() else {
            continue;
        };
        let obj = base_object(src);
        let Some(print) = printed.get(&obj) else {
            continue;
        };
        let by = callee_name(*print).unwrap_or_default();
        let at = print
            .source_loc()
            .map(|l| format!(" ({l})"))
            .unwrap_or_default();
        out.push(Finding {
            kind: DiagKind::UnsupportedInstruction,
            at: i,
            msg: format!(
                "`{name}` parses a number from the text `{by}`{at} printed a value that depends on differentiable inputs into ({}): text carries no derivative, so the derivative through this round trip would silently be zero",
                describe_object(obj)
            ),
            help: "compute with the value itself (to round it, use round(x * 1e3) / 1e3, or mark the result with __enzyme_ignore_derivatives if a zero derivative is meant)",
        });
    }
}
