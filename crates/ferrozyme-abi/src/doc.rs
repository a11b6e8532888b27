//! The Enzyme ABI as a Markdown table: every entry point, registration, marker and
//! `-enzyme-*` option Ferrozyme knows, with what it does, rendered from the tables of this
//! crate (so the documentation cannot drift from what the pass accepts). `ferrozyme rules`
//! prints it after the derivative rules; the output is committed as `docs/coverage.md`.

use std::fmt::Write as _;

use crate::options::{Handling, ENZYME_OPTIONS};
use crate::{
    EntryPoint, Registration, CALL_MARKERS, CHECKPOINT_ENTRY_POINTS, CHECKPOINT_MARKERS,
    ENTRY_POINTS, MARKERS, REGISTRATIONS, UNSUPPORTED_ENTRY_POINTS, UNSUPPORTED_HOOK_FUNCTIONS,
    UNSUPPORTED_MARKERS, VALUE_ENTRY_POINTS,
};

fn entry_point_status(ep: EntryPoint) -> &'static str {
    match ep {
        EntryPoint::Autodiff => "works: reverse mode (scalar and vector, `enzyme_width`)",
        EntryPoint::Fwddiff => "works: forward mode (scalar and vector)",
        EntryPoint::AugmentFwd => "works: split mode, augmented forward (returns the tape)",
        EntryPoint::Reverse => "works: split mode, reverse (consumes the tape)",
        EntryPoint::AugmentSize => "works: the tape's size in bytes",
        EntryPoint::VirtualReverse => {
            "works: the shadow of a function pointer is the function itself (indirect calls find their derivatives from the primal pointer)"
        }
        EntryPoint::Batch => "works: one call per lane (`enzyme_scalar`, `enzyme_vector`, `enzyme_buffer`)",
        EntryPoint::TruncateOpFunc | EntryPoint::TruncateMemFunc => {
            "works: a copy of the function computing in the target format through an MPFR runtime"
        }
        EntryPoint::TruncateMemValue | EntryPoint::ExpandMemValue => "works",
        EntryPoint::ErrorEstimate => "supported: forward propagation of absolute floating-point error (Enzyme's model: |partial| times operand error, plus machine epsilon times the result per operation)",
    }
}

fn registration_status(r: Registration) -> &'static str {
    match r {
        Registration::Gradient => "works: registered reverse-mode derivative (augmented forward + reverse)",
        Registration::Derivative => "works: registered forward-mode derivative",
        Registration::SplitDerivative => "error `bad-autodiff-call`: not supported yet (register a gradient or a forward derivative)",
        Registration::InactiveFn => "works: calls carry no derivative (also `__enzyme_inactivenoblockfn`)",
        Registration::ShouldRecompute => "works: accepted as a hint (`__enzyme_shouldrecompute`: Ferrozyme chooses what to recompute or cache itself)",
        Registration::InactiveGlobal => "works: the globals have no shadow, whatever they hold (also `__attribute__((enzyme_inactive))` on a variable through `ferrozyme cc`)",
        Registration::FunctionLike => "works: the function is treated as the named known function",
        Registration::AllocationLike => "works: allocator with its size argument and its deallocator",
    }
}

/// The Markdown text.
pub fn abi_markdown() -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\n## Enzyme's ABI: entry points\n\nA hook is any called function whose name contains the entry point's name.\n\n| entry point | status |\n|---|---|"
    );
    for (name, ep) in ENTRY_POINTS {
        let _ = writeln!(s, "| `{name}` | {} |", entry_point_status(*ep));
    }
    for (name, status) in CHECKPOINT_ENTRY_POINTS.iter().chain(VALUE_ENTRY_POINTS) {
        let _ = writeln!(s, "| `{name}` | {status} |");
    }
    for (name, why) in UNSUPPORTED_ENTRY_POINTS {
        let _ = writeln!(s, "| `{name}` | error `bad-autodiff-call`: {why} |");
    }
    for (name, why) in UNSUPPORTED_HOOK_FUNCTIONS {
        let _ = writeln!(
            s,
            "| `{name}` (defined by the program) | error `bad-autodiff-call`: {why} |"
        );
    }
    let _ = writeln!(
        s,
        "\n## Enzyme's ABI: registrations (globals)\n\n| global | status |\n|---|---|"
    );
    for (name, r) in REGISTRATIONS {
        let _ = writeln!(s, "| `{name}_*` | {} |", registration_status(*r));
    }
    let _ = writeln!(
        s,
        "\n## Enzyme's ABI: markers\n\n| marker | kind | status |\n|---|---|---|"
    );
    for (name, m) in MARKERS {
        let _ = writeln!(s, "| `{name}` | argument marker ({m:?}) | works |");
    }
    for (name, m) in CALL_MARKERS {
        if MARKERS.iter().any(|(n, _)| n == name) {
            continue;
        }
        let _ = writeln!(s, "| `{name}` | call-level marker ({m:?}) | works |");
    }
    for (name, status) in CHECKPOINT_MARKERS {
        let _ = writeln!(s, "| `{name}` | checkpointed-loop marker | {status} |");
    }
    for (name, why) in UNSUPPORTED_MARKERS {
        let _ = writeln!(s, "| `{name}` | | error `bad-autodiff-call`: {why} |");
    }
    let _ = writeln!(
        s,
        "\n## Enzyme's options (`-mllvm -enzyme-…`, plugin options)\n\n| option | Enzyme's default | in Ferrozyme |\n|---|---|---|"
    );
    for o in ENZYME_OPTIONS {
        let what = match o.handling {
            Handling::Honoured(w) => format!("honoured: {w}"),
            Handling::NoOp(w) => format!("accepted, no effect: {w}"),
            Handling::RejectNonDefault(w) => {
                format!("the default is accepted, other values are refused: {w}")
            }
        };
        let default = if o.default.is_empty() {
            "(empty)"
        } else {
            o.default
        };
        let _ = writeln!(s, "| `-{}` | {default} | {what} |", o.name);
    }
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_table_row_is_rendered() {
        let s = super::abi_markdown();
        let checkpoint = crate::CHECKPOINT_ENTRY_POINTS
            .iter()
            .chain(crate::VALUE_ENTRY_POINTS)
            .map(|(n, _)| *n);
        for n in crate::ENTRY_POINTS
            .iter()
            .map(|(n, _)| *n)
            .chain(checkpoint)
        {
            assert!(s.contains(&format!("`{n}`")), "{n}");
        }
        for o in crate::options::ENZYME_OPTIONS {
            assert!(s.contains(&format!("`-{}`", o.name)), "{}", o.name);
        }
    }
}
