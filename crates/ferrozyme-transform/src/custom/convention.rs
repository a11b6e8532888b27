//! Enzyme's calling convention for registered derivatives, checked against the
//! functions the user wrote.
//!
//! For `T f(A1 a1, ..., An an)`:
//!
//! * **augmented forward** `aug(a1, [da1], ..., an, [dan])`: every argument, followed by
//!   its shadow when it has one (see below); it runs the primal (its side effects happen
//!   here) and returns the tape and the primal result: `void *` (a `void` function),
//!   `T` (no tape), or `struct { void *tape; T result; }` (returned by value or through a
//!   hidden `sret` pointer), for pointer results also the result's shadow after it;
//! * **reverse** `rev(a1, [da1], ..., an, [dan], [T dret,] [void *tape])`: the same
//!   arguments, the adjoint of a floating-point result, the tape when `aug` returns one;
//!   it adds to the shadows and returns the adjoints of the floating-point scalar
//!   arguments: `void` (none), one float, or a struct of them, in order;
//! * **forward** `fwd(a1, da1, ..., an, dan)`: every argument followed by its tangent
//!   (floats) or shadow (pointers), none for integers; returns `struct { T primal; T
//!   tangent; }`, or only the tangent, or `void`.
//!
//! Which arguments have a shadow: every pointer argument (what Enzyme's examples and its
//! users write), or — when the registered function's parameter count says so — exactly
//! the pointers that are duplicated at this call. A pointer the rule wants a shadow for
//! that has none at the call (constant memory) is a compile-time error, never a null
//! pointer handed to the user's code.

use ferrozyme_analysis::activity::ArgActivity;
use ferrozyme_llvm::{Type, TypeKind, Value};

/// Which arguments of the original function are followed by a shadow (or tangent) in the
/// registered function's parameter list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    /// Per parameter of the original function.
    pub shadowed: Vec<bool>,
}

impl Layout {
    /// Number of parameters the argument part takes.
    pub fn len(&self) -> usize {
        self.shadowed.len() + self.shadowed.iter().filter(|s| **s).count()
    }
}

/// The argument layout of a registered reverse-mode function (`aug`, or the argument part
/// of `rev`) taking `n_params` parameters before its trailing ones, for `func` called with
/// activities `acts`; `None` when neither convention fits.
pub(crate) fn reverse_layout(func: Value, acts: &[ArgActivity], n_params: usize) -> Option<Layout> {
    let params = func.params();
    let every_pointer = Layout {
        shadowed: params.iter().map(|p| p.ty().is_pointer()).collect(),
    };
    let duplicated = Layout {
        shadowed: acts.iter().map(|a| *a == ArgActivity::Dup).collect(),
    };
    [every_pointer, duplicated]
        .into_iter()
        .find(|l| l.len() == n_params)
}

/// The argument layout of a registered forward function: floats and pointers followed by
/// their tangents (or only the arguments active at this call).
pub(crate) fn forward_layout(func: Value, acts: &[ArgActivity], n_params: usize) -> Option<Layout> {
    let params = func.params();
    let differentiable = Layout {
        shadowed: params
            .iter()
            .map(|p| p.ty().is_pointer() || p.ty().is_fp())
            .collect(),
    };
    let active = Layout {
        shadowed: acts.iter().map(|a| *a != ArgActivity::Const).collect(),
    };
    [differentiable, active]
        .into_iter()
        .find(|l| l.len() == n_params)
}

/// How a registered augmented function hands back its results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AugReturn {
    /// `void`: no tape, no result.
    Nothing,
    /// `void` for a function with a result: no tape; the primal result comes from calling
    /// the function itself (Enzyme accepts this shape: an augmented function that only
    /// runs side effects, its reverse recomputing what it needs).
    Recompute,
    /// `void *`: the tape of a `void` function.
    Tape,
    /// `T`: the primal result, no tape.
    Result,
    /// `{ void *tape, T result [, T shadow] }`, by value or through `sret` (`sret` true).
    TapeAndResult { sret: bool, shadow: bool },
}

/// Classifies `aug`'s return for a primal returning `ret`; `None` when it fits no shape.
/// `sret` is the type of `aug`'s hidden result parameter, if it has one.
pub(crate) fn aug_return(aug_ret: Type, sret: Option<Type>, ret: Type) -> Option<AugReturn> {
    let tape_struct = |t: Type| {
        t.kind() == TypeKind::Struct && {
            let f = t.struct_fields();
            (f.len() == 2 || (f.len() == 3 && ret.is_pointer()))
                && f[0].is_pointer()
                && same_shape(f[1], ret)
        }
    };
    if let Some(s) = sret {
        return tape_struct(s).then(|| AugReturn::TapeAndResult {
            sret: true,
            shadow: s.struct_fields().len() == 3,
        });
    }
    if aug_ret.is_void() {
        return Some(if ret.is_void() {
            AugReturn::Nothing
        } else {
            AugReturn::Recompute
        });
    }
    if ret.is_void() {
        return aug_ret.is_pointer().then_some(AugReturn::Tape);
    }
    if tape_struct(aug_ret) {
        return Some(AugReturn::TapeAndResult {
            sret: false,
            shadow: aug_ret.struct_fields().len() == 3,
        });
    }
    same_shape(aug_ret, ret).then_some(AugReturn::Result)
}

/// Do two types hold the same data (the C ABI may pass `{double, double}` as is and a
/// struct of two floats as `<2 x float>`)?
pub(crate) fn same_shape(a: Type, b: Type) -> bool {
    if a == b {
        return true;
    }
    let mut la = Vec::new();
    crate::marshal::fp_leaves(a, &mut Vec::new(), &mut la);
    let mut lb = Vec::new();
    crate::marshal::fp_leaves(b, &mut Vec::new(), &mut lb);
    !la.is_empty() && la.iter().map(|(_, t)| *t).eq(lb.iter().map(|(_, t)| *t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_counts_shadows() {
        let l = Layout {
            shadowed: vec![true, false, true],
        };
        assert_eq!(l.len(), 5);
    }
}
