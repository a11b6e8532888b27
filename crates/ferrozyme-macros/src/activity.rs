//! Activities: what each argument (and the result) of a differentiated function is, and
//! which activity may appear where — the rules of `std::autodiff`, kept as data.
//!
//! `std::autodiff` accepts, per mode:
//!
//! | activity | mode | on an input | on the result |
//! |---|---|---|---|
//! | `Const` | both | no derivative | primal returned, no seed / no tangent |
//! | `Active` | reverse | float scalar by value: its adjoint is returned | seed `dret` appended |
//! | `ActiveOnly` | reverse | — | as `Active`, the primal result is dropped |
//! | `Duplicated` | reverse | reference or raw pointer: shadow `d<x>_<i>` (made `mut`) follows | — |
//! | `DuplicatedOnly` | reverse | as `Duplicated`, the primal need not be updated (`unsafe fn`) | — |
//! | `Dual` | forward | any type: tangent `b<x>_<i>` of the same type follows | `(primal, tangent)` / `[T; 1 + width]` |
//! | `DualOnly` | forward | as `Dual`, the primal need not be updated (`unsafe fn`) | tangent only / `[T; width]` |
//!
//! `ActiveOnly` on an *input* is rejected here: `std::autodiff` accepts it but drops the
//! adjoint, which would be a derivative silently thrown away.

use std::fmt;

/// One activity keyword of the attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activity {
    Const,
    Active,
    ActiveOnly,
    Duplicated,
    DuplicatedOnly,
    Dual,
    DualOnly,
}

/// The two attribute macros.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Reverse,
    Forward,
}

/// Activity keywords, by spelling.
pub const ACTIVITIES: &[(&str, Activity)] = &[
    ("Const", Activity::Const),
    ("Active", Activity::Active),
    ("ActiveOnly", Activity::ActiveOnly),
    ("Duplicated", Activity::Duplicated),
    ("DuplicatedOnly", Activity::DuplicatedOnly),
    ("Dual", Activity::Dual),
    ("DualOnly", Activity::DualOnly),
];

/// Where an activity may appear: (activity, mode, allowed on inputs, allowed on the result).
const PLACES: &[(Activity, Mode, bool, bool)] = &[
    (Activity::Const, Mode::Reverse, true, true),
    (Activity::Const, Mode::Forward, true, true),
    (Activity::Active, Mode::Reverse, true, true),
    (Activity::ActiveOnly, Mode::Reverse, false, true),
    (Activity::Duplicated, Mode::Reverse, true, false),
    (Activity::DuplicatedOnly, Mode::Reverse, true, false),
    (Activity::Dual, Mode::Forward, true, true),
    (Activity::DualOnly, Mode::Forward, true, true),
];

impl Activity {
    pub fn parse(s: &str) -> Option<Activity> {
        ACTIVITIES.iter().find(|(n, _)| *n == s).map(|(_, a)| *a)
    }

    pub fn name(self) -> &'static str {
        ACTIVITIES
            .iter()
            .find(|(_, a)| *a == self)
            .map(|(n, _)| *n)
            .expect("every activity has a spelling")
    }

    /// May this activity annotate an input (`input`) or the result in `mode`?
    pub fn allowed(self, mode: Mode, input: bool) -> bool {
        PLACES
            .iter()
            .any(|&(a, m, i, r)| a == self && m == mode && if input { i } else { r })
    }

    /// Activities that give the argument shadow arguments in the derivative's signature.
    pub fn has_shadow(self) -> bool {
        matches!(
            self,
            Activity::Duplicated | Activity::DuplicatedOnly | Activity::Dual | Activity::DualOnly
        )
    }

    /// Activities whose primal need not be kept up to date (`enzyme_dupnoneed`); they make
    /// the derivative an `unsafe fn` on inputs, as in `std::autodiff`.
    pub fn no_need(self) -> bool {
        matches!(
            self,
            Activity::DuplicatedOnly | Activity::DualOnly | Activity::ActiveOnly
        )
    }

    /// The activities allowed in `mode`, for error messages.
    pub fn listing(mode: Mode, input: bool) -> String {
        let names: Vec<&str> = ACTIVITIES
            .iter()
            .filter(|(_, a)| a.allowed(mode, input))
            .map(|(n, _)| *n)
            .collect();
        names.join(", ")
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mode::Reverse => "autodiff_reverse",
            Mode::Forward => "autodiff_forward",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_round_trip() {
        for (n, a) in ACTIVITIES {
            assert_eq!(Activity::parse(n), Some(*a));
            assert_eq!(a.name(), *n);
        }
        assert_eq!(Activity::parse("Duplicate"), None);
    }

    #[test]
    fn places_follow_std_autodiff() {
        use Activity::*;
        assert!(Active.allowed(Mode::Reverse, true));
        assert!(!Active.allowed(Mode::Forward, true));
        assert!(Duplicated.allowed(Mode::Reverse, true));
        assert!(!Duplicated.allowed(Mode::Reverse, false));
        assert!(Dual.allowed(Mode::Forward, false));
        assert!(!Dual.allowed(Mode::Reverse, true));
        assert!(ActiveOnly.allowed(Mode::Reverse, false));
        assert!(!ActiveOnly.allowed(Mode::Reverse, true));
        assert_eq!(
            Activity::listing(Mode::Forward, true),
            "Const, Dual, DualOnly"
        );
    }
}
