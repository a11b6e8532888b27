//! Values the x86-64 ABI splits into two operands: a `double _Complex`, a
//! `std::complex<double>` or a `struct { double x, y; }` passed by value is two `double`
//! registers, so `__enzyme_fwddiff(f, z, dz)` reaches the pass as `z.re, z.im, dz.re,
//! dz.im`, and read one operand at a time that is `re, dre, im, dim`: a wrong tangent.
//!
//! The IR alone cannot tell `z, dz` from `re, dre, im, dim`; the source can. The clang
//! plugin (`ferrozyme-clang`, loaded by `ferrozyme cc` and by `clang -fplugin=`) names a
//! hook call whose arguments include such a value `<hook>.fzargs.<digits>`: one digit per
//! source argument after the function, `2` for a value of 9 to 16 bytes that the ABI may
//! pass as two operands, `1` for everything else. Here:
//!
//! 1. [`layout`] reads the digits from the hook's name and [`pair_starts`] marks the
//!    operands that start a two-operand value (a `2` passed `byval`, in memory because
//!    the registers ran out, is one operand), checking that the digits account for every
//!    operand: a mismatch is an error, never a guess.
//! 2. The reader ([`Reader::pair_argument`]) reads such a value as two consecutive
//!    parameters of the function with one marker: the value's halves are their primals
//!    and each tangent (one per lane with `enzyme_width`) must be a value of the same
//!    kind, whose halves are their tangents (one the ABI passes in memory, once the eight
//!    SSE registers of a call run out, is loaded before the call). `enzyme_const`,
//!    `enzyme_out` and the default activity apply to both halves, so reverse mode returns
//!    both parts' adjoints.
//!
//! Without the plugin (`clang -fpass-plugin=`, `opt`) hook names carry no digits and the
//! operands are read one at a time, as Enzyme reads them.

use ferrozyme_analysis::activity::ArgActivity;
use ferrozyme_analysis::hash::HashMap;
use ferrozyme_llvm::{Builder, Diagnostic, Type, Value};

use super::super::{marker_of, CallArg, ErrFn, Mode, Shadow};
use super::{types_compatible, Marked, Reader};

use ferrozyme_abi::{Marker, ARG_LAYOUT_TAG as LAYOUT_TAG};

/// The digits the plugin wrote into hook name `hook`, if any.
pub(in crate::request) fn layout(hook: &str) -> Option<&str> {
    let at = hook.rfind(LAYOUT_TAG)?;
    let digits = &hook[at + LAYOUT_TAG.len()..];
    // LLVM may add `.N` to a name that is already taken.
    Some(digits.split('.').next().unwrap_or(digits))
}

/// Which of `ops` (the operands after the function) start a two-operand value, from the
/// plugin's `digits`; `in_memory`: operands passed `byval`.
pub(in crate::request) fn pair_starts(
    ops: &[Value],
    digits: &str,
    in_memory: &HashMap<Value, Type>,
    err: &ErrFn<'_>,
) -> Result<Vec<bool>, Diagnostic> {
    let mut starts = vec![false; ops.len()];
    let mut i = 0;
    for d in digits.chars() {
        if i >= ops.len() {
            break;
        }
        match d {
            '2' if !in_memory.contains_key(&ops[i]) && i + 1 < ops.len() => {
                starts[i] = true;
                i += 2;
            }
            '1' | '2' => i += 1,
            _ => {
                i = usize::MAX;
                break;
            }
        }
    }
    if i != ops.len() {
        return Err(err(
            format!(
                "the clang plugin's description of this call's arguments (`{LAYOUT_TAG}{digits}`) does not match its {} operands",
                ops.len()
            ),
            "please report this with the source; meanwhile pass a double _Complex argument's parts (creal(z), creal(dz), cimag(z), cimag(dz)) or a pointer to it",
        ));
    }
    Ok(starts)
}

/// The operands of a hook call after the function and the call-level markers, with the
/// places where a two-operand value starts.
pub(in crate::request) struct Operands {
    vals: Vec<Value>,
    pair_start: Vec<bool>,
    pos: usize,
}

impl Operands {
    pub(in crate::request) fn new(vals: Vec<Value>, pair_start: Vec<bool>) -> Self {
        debug_assert_eq!(vals.len(), pair_start.len());
        Operands {
            vals,
            pair_start,
            pos: 0,
        }
    }
    pub(super) fn peek(&self) -> Option<&Value> {
        self.vals.get(self.pos)
    }
    /// How many operands `next` has still to return.
    pub(super) fn left(&self) -> usize {
        self.vals.len() - self.pos
    }
    /// Does the operand last returned by `next` start a two-operand value?
    pub(super) fn last_starts_pair(&self) -> bool {
        self.pos > 0 && self.pair_start[self.pos - 1]
    }
    /// The operands from position `at` on, taken out (`enzyme_interleave`'s shadows).
    pub(super) fn split_off(&mut self, at: usize) -> Operands {
        let at = at.min(self.vals.len());
        Operands::new(self.vals.split_off(at), self.pair_start.split_off(at))
    }
}

impl Iterator for Operands {
    type Item = Value;
    fn next(&mut self) -> Option<Value> {
        let v = self.vals.get(self.pos).copied();
        if v.is_some() {
            self.pos += 1;
        }
        v
    }
}

/// A value passed as two operands is "a double _Complex or a struct of two doubles" in
/// messages (the kinds users pass).
const WHAT: &str = "a value passed as two registers (double _Complex, std::complex<double>, struct { double x, y; })";

impl Reader<'_> {
    /// Argument `k` (of type `pty`) whose value `m.primal` starts a two-operand value:
    /// reads the second half and the tangents, returns argument `k` and keeps argument
    /// `k + 1` for the next call of `argument`.
    pub(super) fn pair_argument(
        &mut self,
        k: usize,
        pty: Type,
        width: u32,
        m: Marked,
    ) -> Result<CallArg, Diagnostic> {
        let fname = self.fname.clone();
        let hi = self
            .rest
            .next()
            .expect("invariant: pair_starts marks a pair only when its second operand exists");
        if m.byref.is_some() || m.stride.is_some() || self.shadows.is_some() {
            return Err((self.err)(
                format!(
                    "argument {} of `{fname}` is {WHAT}; enzyme_byref, enzyme_dupv and enzyme_interleave are not supported with one",
                    k + 1
                ),
                "pass the value and its tangent as they are (enzyme_dup, z, dz), or a pointer to it (enzyme_dup, &z, &dz)",
            ));
        }
        let params = self.func.params();
        let Some(pty1) = params.get(k + 1).map(|p| p.ty()) else {
            return Err((self.err)(
                format!(
                    "argument {} of `{fname}` is {WHAT}, whose second half has no parameter: `{fname}` takes {} arguments",
                    k + 1,
                    params.len()
                ),
                "check the argument order and markers",
            ));
        };
        // `enzyme_dup` or `enzyme_out` before a struct of a double and an integer: the
        // integer half has no derivative.
        let half_marker = |t: Type| match m.marker {
            Some(Marker::Dup | Marker::DupNoNeed | Marker::Out)
                if !t.is_fp() && !t.is_pointer() =>
            {
                Some(Marker::Const)
            }
            mk => mk,
        };
        let lo_act = self.activity(k, half_marker(pty), pty, m.primal)?;
        let hi_act = self.activity(k + 1, half_marker(pty1), pty1, hi)?;
        let dup_pointer = |t: Type, a: ArgActivity| t.is_pointer() && a == ArgActivity::Dup;
        if dup_pointer(pty, lo_act) || dup_pointer(pty1, hi_act) {
            // `struct view { double *p; long n; }` with `enzyme_dup, v, dv`.
            return Err((self.err)(
                format!(
                    "argument {} of `{fname}` is a struct holding a pointer, marked enzyme_dup (or unmarked): a struct passed by value that the ABI split into registers (a pointer and more fields) cannot be enzyme_dup by value",
                    k + 1
                ),
                "pass a pointer to the struct instead (double f(struct view *v), then enzyme_dup, &v, &dv), or mark it enzyme_const",
            ));
        }
        for (j, v, t) in [(k, m.primal, pty), (k + 1, hi, pty1)] {
            if !types_compatible(v, t) {
                return Err((self.err)(
                    format!(
                        "argument {} of `{fname}` has type {t} but the call passes {} (half of {WHAT})",
                        j + 1,
                        v.ty()
                    ),
                    "pass a value of the parameter's type",
                ));
            }
        }
        let forward = self.mode == Mode::Forward;
        let wants = |a: ArgActivity| a == ArgActivity::Dup || (a == ArgActivity::Active && forward);
        let (mut lo_lanes, mut hi_lanes) = (Vec::new(), Vec::new());
        if wants(lo_act) || wants(hi_act) {
            for lane in 0..width {
                let s0 = self.rest.next();
                let paired = self.rest.last_starts_pair();
                match s0 {
                    Some(s0) if paired && marker_of(s0).is_none() => {
                        let s1 = self
                            .rest
                            .next()
                            .expect("invariant: a pair has two operands");
                        if !(types_compatible(s0, pty) && types_compatible(s1, pty1)) {
                            return Err(self.tangent_error(k, lane, width));
                        }
                        lo_lanes.push(s0);
                        hi_lanes.push(s1);
                    }
                    // A tangent the ABI passes in memory (`byval({ double, double })`, the
                    // SSE registers ran out): its halves are loaded before the call.
                    Some(s0) if !paired && marker_of(s0).is_none() => {
                        let halves = self.in_memory.get(&s0).and_then(|&t| {
                            let b = Builder::new(self.func.ty().context());
                            b.position_before(self.call);
                            crate::marshal::load_two_leaves(&b, t, s0)
                        });
                        match halves {
                            Some([s0, s1])
                                if types_compatible(s0, pty) && types_compatible(s1, pty1) =>
                            {
                                lo_lanes.push(s0);
                                hi_lanes.push(s1);
                            }
                            _ => return Err(self.tangent_error(k, lane, width)),
                        }
                    }
                    _ => return Err(self.tangent_error(k, lane, width)),
                }
            }
        }
        let arg = |act: ArgActivity, primal: Value, lanes: Vec<Value>| CallArg {
            activity: act,
            noneed: false,
            placeholder: false,
            primal,
            shadow: if wants(act) {
                Shadow::Lanes(lanes)
            } else {
                Shadow::None
            },
            marker: m.marker,
            sret_scratch: None,
        };
        self.second_half = Some((k + 1, arg(hi_act, hi, hi_lanes)));
        Ok(arg(lo_act, m.primal, lo_lanes))
    }

    fn tangent_error(&self, k: usize, lane: u32, width: u32) -> Diagnostic {
        (self.err)(
            format!(
                "argument {} of `{}` is {WHAT}; its tangent{} must be a value of the same type",
                k + 1,
                self.fname,
                if width > 1 {
                    format!(" for lane {}", lane + 1)
                } else {
                    String::new()
                },
            ),
            "write __enzyme_fwddiff((void*)f, z, dz) with dz of z's type (one per lane with enzyme_width), or pass pointers: enzyme_dup, &z, &dz",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::layout;

    #[test]
    fn digits_from_the_hook_name() {
        assert_eq!(layout("__enzyme_fwddiff.fzargs.122"), Some("122"));
        // LLVM renames a second declaration of a taken name with `.N`.
        assert_eq!(layout("__enzyme_autodiff.fzargs.2.1"), Some("2"));
        assert_eq!(layout("_Z17__enzyme_autodiffPvz"), None);
        assert_eq!(layout("__enzyme_fwddiff"), None);
    }
}
