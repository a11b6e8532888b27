//! Reciprocals the primal code already computed, reused by the partials that divide.
//!
//! Several rules divide a constant by an operand or by the result: `fdiv`'s partials are
//! `1/y` and `-r*(1/y)`, `sqrt`'s is `0.5/r`. Code that divides often computes the
//! reciprocal itself (`theta_inverse = 1.0 / theta` next to `theta = sqrt(...)`,
//! `r = 1/y`), and a division is the slowest basic float operation (latency ~15-20
//! cycles, on the reverse sweep's dependency chains). When the primal computes
//! `u = c' / w` with `c'` a power of two, `c / w` is `(c / c') * u`: scaling by a power
//! of two is exact in binary floating point, so the only difference from dividing is
//! the rounding of one product (none when `c == c'`: `1/y` of `r = 1/y` is `r` itself,
//! and `-r*(1/y)` becomes `-r*r`).
//!
//! A numerator that is not a power of two (`3 / y`) is not used: `(c/3) * u` would
//! round twice. The reciprocal must be the same dynamic instance as the value the
//! partial needs: `u` is in the block of the instruction being replayed, or `u`, that
//! block and `w`'s definition all run at most once per call (no CFG cycle), with `u`'s
//! block dominating the instruction's.

use ferrozyme_llvm::{Opcode, Value};
use ferrozyme_rules::{Partial, Rule, Var};

use super::Gen;

/// Is `c` plus or minus a power of two (a normal number with an all-zero mantissa)?
fn is_power_of_two(c: f64) -> bool {
    c.is_normal() && c.to_bits() & ((1u64 << 52) - 1) == 0
}

impl Gen<'_> {
    /// For each variable that the partials of `i`'s active operands divide a constant
    /// by, a primal reciprocal of it: (variable, numerator `c'`, primal `c' / w`).
    pub(super) fn known_reciprocals(
        &self,
        i: Value,
        rule: &Rule,
        active: &[usize],
        args: &[Value],
    ) -> Vec<(Var, f64, Value)> {
        let mut out: Vec<(Var, f64, Value)> = Vec::new();
        for &k in active {
            let Partial::Expr(e) = &rule.partials[k] else {
                continue;
            };
            for (want, v) in e.reciprocal_vars() {
                if out.iter().any(|(w, _, _)| *w == v) {
                    continue;
                }
                let w = match v {
                    Var::Arg(j) => match args.get(j) {
                        Some(a) => *a,
                        None => continue,
                    },
                    Var::Result => i,
                };
                if let Some((c, u)) = self.primal_reciprocal_of(w, i, want) {
                    out.push((v, c, u));
                }
            }
        }
        out
    }

    /// A primal `c' / w` (`c'` a scalar power of two) holding the same instance of `w`
    /// as the replay of `at` sees (see the module essay); one with `c' == want` (no
    /// scaling needed) when there is one.
    fn primal_reciprocal_of(&self, w: Value, at: Value, want: f64) -> Option<(f64, Value)> {
        if !(w.is_instruction() || w.is_argument()) || w.ty() != at.ty() {
            return None;
        }
        let cfg = &self.fx.cfg;
        let here = at.parent_block();
        let once = |v: Value| !v.is_instruction() || !cfg.is_cyclic(v.parent_block());
        let found: Vec<(f64, Value)> = w
            .users()
            .into_iter()
            .filter_map(|u| {
                if u.opcode() != Some(Opcode::LLVMFDiv) || u.operand(1) != w || u.ty() != at.ty() {
                    return None;
                }
                let c = u.operand(0).const_fp_value()?;
                if !is_power_of_two(c) {
                    return None;
                }
                let ub = u.parent_block();
                let same_instance =
                    ub == here || (once(u) && once(at) && once(w) && cfg.dominates(ub, here));
                same_instance.then_some((c, u))
            })
            .collect();
        found
            .iter()
            .find(|(c, _)| *c == want)
            .or(found.first())
            .copied()
    }
}

#[cfg(test)]
mod tests {
    use super::is_power_of_two;

    #[test]
    fn powers_of_two() {
        for c in [1.0, 2.0, 0.5, -1.0, -4.0, 0.25, 1024.0] {
            assert!(is_power_of_two(c), "{c}");
        }
        for c in [
            0.0,
            3.0,
            1.5,
            -0.75,
            f64::INFINITY,
            f64::NAN,
            f64::MIN_POSITIVE / 2.0,
        ] {
            assert!(!is_power_of_two(c), "{c}");
        }
    }
}
