//! Calls of input functions (`ferrozyme_abi::input`: `sscanf`, `fscanf`, `std::istream >>`)
//! on the differentiated path: where each one writes, read from the call itself.
//!
//! The calls are classified [`crate::calls::CallKind::InactiveExternal`] (copied into
//! the derivative code as they are, no adjoint flows through them) when every target is
//! known; the transform then zeroes the derivative of the floats they wrote (forward
//! mode: the tangent; reverse mode: the adjoint, as the reverse sweep passes the call),
//! and analyses that track memory count every pointer argument as written. When the
//! targets are not known (a format string that is not a literal, `%p`, positional
//! arguments) the call stays a missing-derivative error.

use ferrozyme_abi::{Reads, ScanTarget};
use ferrozyme_llvm::Value;

/// One location an input call writes: the pointer argument, how many bytes, and whether
/// they hold a floating-point value.
#[derive(Clone, Copy, Debug)]
pub struct InputTarget {
    pub ptr: Value,
    pub bytes: u64,
    pub float: bool,
}

/// The symbol an input call calls (the function itself, not a `function_like` alias).
fn callee_name(call: Value) -> Option<String> {
    call.called_function().map(|f| f.name())
}

/// Is `call` a call of an input function (whether or not its targets are known)?
pub fn is_input_call(call: Value) -> bool {
    callee_name(call).is_some_and(|n| ferrozyme_abi::input_library(&n).is_some())
}

/// The locations `call` writes, when it is an input call whose targets are all known.
pub fn input_targets(call: Value) -> Option<Vec<InputTarget>> {
    let row = ferrozyme_abi::input_library(&callee_name(call)?)?;
    let args = call.call_args();
    match row.reads {
        Reads::Value { arg, bytes, float } => {
            let ptr = *args.get(arg)?;
            ptr.ty()
                .is_pointer()
                .then_some(vec![InputTarget { ptr, bytes, float }])
        }
        Reads::Scanf { format } => {
            let text = args.get(format)?.c_string()?;
            let targets = ferrozyme_abi::scanf_targets(&text)?;
            let rest = args.get(format + 1..)?;
            let rest = rest.get(..targets.len())?;
            if rest.iter().any(|a| !a.ty().is_pointer()) {
                return None;
            }
            Some(
                targets
                    .iter()
                    .zip(rest)
                    .map(|(t, &ptr)| match *t {
                        ScanTarget::Float(bytes) => InputTarget {
                            ptr,
                            bytes,
                            float: true,
                        },
                        ScanTarget::NoFloat => InputTarget {
                            ptr,
                            bytes: 0,
                            float: false,
                        },
                    })
                    .collect(),
            )
        }
    }
}
