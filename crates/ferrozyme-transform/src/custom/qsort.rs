//! `qsort` and glibc's `qsort_r` on the differentiated path: registered-derivative rules in
//! IR text (linked by `builtin.rs` when the module calls them).
//!
//! Sorting is a permutation `y = P x` of the elements, decided by the comparator (whose
//! result carries no derivative). The rule sorts an array of element indices with the
//! user's comparator (a stable merge sort: qsort's order of equal elements is unspecified,
//! so any order is a valid result), then moves the elements:
//!
//! * augmented forward: the elements *and their shadow* are permuted in place; the
//!   permutation is the tape;
//! * reverse: the shadow goes back to the original positions (`P^T`): the shadow's
//!   element `k` moves to position `perm[k]`; the tape is freed;
//! * forward: the elements and their tangents are permuted alike. With `enzyme_width` the
//!   rule cannot run once per lane (lanes after the first would find the elements sorted
//!   and keep their tangents in place: a silent wrong tangent, tests/c/1346): lane 0 runs
//!   the augmented rule, which returns the permutation, and each further lane's tangent
//!   is permuted by it (`__fz_fwd_lane.<name>`: the forward rule's arguments, then the
//!   permutation and whether it is the last lane, which frees it). Vector reverse mode
//!   (enz35) does the same in the augmented forward pass (the permutation kept as the
//!   tape), and in the reverse sweep each further lane's shadow goes back by it
//!   (`__fz_rev_lane.<name>`, the reverse rule's arguments, the tape kept) before lane
//!   0's reverse rule, which frees it.
//!
//! Elements move as bytes (`size` per element), so any element type works. The shadow
//! moves in the augmented forward pass too (it did not before c29, two silent wrong
//! gradients, tests/c/1178): an element that is a pointer has a shadow pointer, which the
//! code after the sort reads at the element's *sorted* position to reach the shadow of
//! what it points to; and the adjoints a float array's shadow already holds (gradients
//! accumulate with `+=`) must come back to their own positions after `P^T`, not to where
//! the sort sent the element first at their index. A shadow that is its primal (runtime
//! activity: constant memory) is left alone.

//!
//! `qsort_r(base, n, size, cmp, arg)` (glibc's order: the comparator takes `arg` third) is
//! the same permutation with `arg` handed to the comparator. Its rules use the library
//! convention (`blas.rs`): the activity mask first, every pointer followed by its shadow,
//! a null shadow for constant memory. `arg` is often the active array the keys come
//! from while `base` holds `int` indices (constant memory, nothing to move): the
//! comparator's result carries no derivative, so `arg`'s shadow is never touched, and a
//! null `base` shadow is left alone like one that is its primal.

use ferrozyme_llvm::{Module, Value};

/// A sort function with a built-in rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sort {
    /// `void qsort(void *, size_t, size_t, int (*)(const void *, const void *))`.
    Qsort,
    /// glibc's `void qsort_r(void *, size_t, size_t, int (*)(const void *, const void *,
    /// void *), void *)`.
    QsortR,
}

impl Sort {
    pub(crate) const ALL: [Sort; 2] = [Sort::Qsort, Sort::QsortR];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Sort::Qsort => "qsort",
            Sort::QsortR => "qsort_r",
        }
    }

    /// The `declare` line the module's declaration must match.
    pub(crate) fn declaration(self) -> &'static str {
        match self {
            Sort::Qsort => "declare void @qsort(ptr, i64, i64, ptr)\n",
            Sort::QsortR => "declare void @qsort_r(ptr, i64, i64, ptr, ptr)\n",
        }
    }

    /// Do the rule functions take the library convention's activity mask and null shadows?
    pub(crate) fn library(self) -> bool {
        self == Sort::QsortR
    }

    /// The sort whose built-in forward rule is `fwd`, if it is one.
    pub(crate) fn of_forward_rule(fwd: Value) -> Option<Sort> {
        let name = fwd.name();
        Sort::ALL
            .into_iter()
            .find(|s| name.strip_prefix("__fz_fwd.") == Some(s.name()))
    }

    /// For vector forward mode: the augmented rule (sorts, permutes lane 0's tangent,
    /// returns the permutation) and the lane rule (see the module's documentation).
    pub(crate) fn lane_rules(self, module: Module) -> Option<(Value, Value)> {
        Some((
            module.function(&format!("__fz_aug.{}", self.name()))?,
            module.function(&format!("__fz_fwd_lane.{}", self.name()))?,
        ))
    }

    /// The sort whose built-in reverse rule is `rev`, if it is one.
    pub(crate) fn of_reverse_rule(rev: Value) -> Option<Sort> {
        let name = rev.name();
        Sort::ALL
            .into_iter()
            .find(|s| name.strip_prefix("__fz_rev.") == Some(s.name()))
    }

    /// For vector reverse mode: the forward lane rule (a further lane's shadow permuted
    /// by lane 0's permutation, kept: `last` false) and the reverse lane rule (a further
    /// lane's shadow permuted back, the tape kept for lane 0's reverse rule, which runs
    /// last and frees it).
    pub(crate) fn reverse_lane_rules(self, module: Module) -> Option<(Value, Value)> {
        Some((
            module.function(&format!("__fz_fwd_lane.{}", self.name()))?,
            module.function(&format!("__fz_rev_lane.{}", self.name()))?,
        ))
    }

    /// The rule functions `__fz_aug.<name>`, `__fz_rev.<name>`, `__fz_fwd.<name>` and the
    /// permutation helper for this comparator signature (needs [`HELPERS_IR`]).
    pub(crate) fn rules_ir(self) -> String {
        match self {
            Sort::Qsort => format!("{}{}", perm_ir("", "", ""), QSORT_RULES),
            Sort::QsortR => format!(
                "{}{}",
                perm_ir("_r", ", ptr %arg", ", ptr %arg"),
                QSORT_R_RULES
            ),
        }
    }
}

/// The permutation helper `__fz_qsort<suffix>_perm(base, n, size, cmp<params>)`, calling
/// the comparator with `(a, b<args>)`.
fn perm_ir(suffix: &str, params: &str, args: &str) -> String {
    PERM_IR
        .replace("SUFFIX", suffix)
        .replace(", EXTRA_PARAMS", params)
        .replace(", EXTRA_ARGS", args)
}

/// Declarations and the element mover shared by every sort's rules (linked once).
pub(crate) const HELPERS_IR: &str = r#"
declare ptr @malloc(i64)
declare void @free(ptr)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

; to[k] = from[perm[k]] when %forward, to[perm[k]] = from[k] otherwise; then copied back
; into %buf (elements of %size bytes).
define internal void @__fz_qsort_apply(ptr %buf, i64 %n, i64 %size, ptr %perm, i1 %forward) {
entry:
  %total = mul i64 %n, %size
  %nz = icmp eq i64 %total, 0
  br i1 %nz, label %done, label %go
go:
  %tmp = call ptr @malloc(i64 %total)
  br label %loop
loop:
  %k = phi i64 [ 0, %go ], [ %k1, %body ]
  %end = icmp uge i64 %k, %n
  br i1 %end, label %back, label %body
body:
  %pp = getelementptr i64, ptr %perm, i64 %k
  %p = load i64, ptr %pp
  %from.i = select i1 %forward, i64 %p, i64 %k
  %to.i = select i1 %forward, i64 %k, i64 %p
  %fo = mul i64 %from.i, %size
  %to = mul i64 %to.i, %size
  %fptr = getelementptr i8, ptr %buf, i64 %fo
  %tptr = getelementptr i8, ptr %tmp, i64 %to
  call void @llvm.memcpy.p0.p0.i64(ptr %tptr, ptr %fptr, i64 %size, i1 false)
  %k1 = add i64 %k, 1
  br label %loop
back:
  call void @llvm.memcpy.p0.p0.i64(ptr %buf, ptr %tmp, i64 %total, i1 false)
  call void @free(ptr %tmp)
  br label %done
done:
  ret void
}

; The elements, then the shadow (unless it is the primal itself, runtime activity's
; constant memory, or null, the library convention's), moved to `perm`'s order.
define internal void @__fz_qsort_apply_both(ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %perm) {
entry:
  call void @__fz_qsort_apply(ptr %base, i64 %n, i64 %size, ptr %perm, i1 true)
  call void @__fz_qsort_apply_shadow(ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %perm)
  ret void
}

; The shadow alone (not when it is the primal or null).
define internal void @__fz_qsort_apply_shadow(ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %perm) {
entry:
  %own = icmp eq ptr %dbase, %base
  %none = icmp eq ptr %dbase, null
  %skip = or i1 %own, %none
  br i1 %skip, label %done, label %shadow
shadow:
  call void @__fz_qsort_apply(ptr %dbase, i64 %n, i64 %size, ptr %perm, i1 true)
  br label %done
done:
  ret void
}

; Vector forward mode: one more lane's tangent permuted by the permutation the augmented
; rule returned for lane 0 (the elements are sorted already); the last lane frees it.
define internal void @__fz_qsort_next_lane(ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %perm, i1 %last) {
entry:
  call void @__fz_qsort_apply_shadow(ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %perm)
  br i1 %last, label %free, label %done
free:
  call void @free(ptr %perm)
  br label %done
done:
  ret void
}

; The reverse sweep: the shadow back to the original positions (P^T), the tape freed.
define internal void @__fz_qsort_unapply(ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %tape) {
entry:
  call void @__fz_qsort_unapply_shadow(ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %tape)
  call void @free(ptr %tape)
  ret void
}

; The shadow back to the original positions, the tape kept (vector reverse mode: every
; lane but lane 0, whose reverse rule runs last and frees it).
define internal void @__fz_qsort_unapply_shadow(ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %tape) {
entry:
  %own = icmp eq ptr %dbase, %base
  %none = icmp eq ptr %dbase, null
  %skip = or i1 %own, %none
  br i1 %skip, label %done, label %shadow
shadow:
  call void @__fz_qsort_apply(ptr %dbase, i64 %n, i64 %size, ptr %tape, i1 false)
  br label %done
done:
  ret void
}
"#;

/// Stable merge sort of element indices: `perm[0..n)` such that `base[perm[k]]` are in
/// comparator order (placeholders filled by [`perm_ir`]).
const PERM_IR: &str = r#"
; perm[0..n) sorted so that base[perm[k]] are in comparator order (stable merge sort of
; the indices, bottom up, through a scratch array).
define internal ptr @__fz_qsortSUFFIX_perm(ptr %base, i64 %n, i64 %size, ptr %cmp, EXTRA_PARAMS) {
entry:
  %bytes = shl i64 %n, 3
  %nz = icmp eq i64 %bytes, 0
  %alloc = select i1 %nz, i64 8, i64 %bytes
  %perm = call ptr @malloc(i64 %alloc)
  %tmp = call ptr @malloc(i64 %alloc)
  br label %init
init:
  %i = phi i64 [ 0, %entry ], [ %i1, %init.body ]
  %idone = icmp uge i64 %i, %n
  br i1 %idone, label %width.head, label %init.body
init.body:
  %pi = getelementptr i64, ptr %perm, i64 %i
  store i64 %i, ptr %pi
  %i1 = add i64 %i, 1
  br label %init
width.head:
  %w = phi i64 [ 1, %init ], [ %w2, %width.next ]
  %src = phi ptr [ %perm, %init ], [ %dst, %width.next ]
  %dst = phi ptr [ %tmp, %init ], [ %src, %width.next ]
  %wdone = icmp uge i64 %w, %n
  br i1 %wdone, label %finish, label %run.head
run.head:
  %lo = phi i64 [ 0, %width.head ], [ %lo2, %merge.done ]
  %rdone = icmp uge i64 %lo, %n
  br i1 %rdone, label %width.next, label %run.body
run.body:
  %mid0 = add i64 %lo, %w
  %midc = icmp ult i64 %mid0, %n
  %mid = select i1 %midc, i64 %mid0, i64 %n
  %w2x = shl i64 %w, 1
  %hi0 = add i64 %lo, %w2x
  %hic = icmp ult i64 %hi0, %n
  %hi = select i1 %hic, i64 %hi0, i64 %n
  br label %merge
merge:
  %a = phi i64 [ %lo, %run.body ], [ %a2, %merge.step ]
  %b = phi i64 [ %mid, %run.body ], [ %b2, %merge.step ]
  %k = phi i64 [ %lo, %run.body ], [ %k1, %merge.step ]
  %kdone = icmp uge i64 %k, %hi
  br i1 %kdone, label %merge.done, label %merge.pick
merge.pick:
  %aok = icmp ult i64 %a, %mid
  %bok = icmp ult i64 %b, %hi
  br i1 %aok, label %merge.a, label %take.b
merge.a:
  br i1 %bok, label %merge.cmp, label %take.a
merge.cmp:
  %pa = getelementptr i64, ptr %src, i64 %a
  %ia = load i64, ptr %pa
  %pb = getelementptr i64, ptr %src, i64 %b
  %ib = load i64, ptr %pb
  %oa = mul i64 %ia, %size
  %ob = mul i64 %ib, %size
  %ea = getelementptr i8, ptr %base, i64 %oa
  %eb = getelementptr i8, ptr %base, i64 %ob
  %c = call i32 %cmp(ptr %ea, ptr %eb, EXTRA_ARGS)
  %bfirst = icmp sgt i32 %c, 0
  br i1 %bfirst, label %take.b, label %take.a
take.a:
  %pta = getelementptr i64, ptr %src, i64 %a
  %va = load i64, ptr %pta
  %da = getelementptr i64, ptr %dst, i64 %k
  store i64 %va, ptr %da
  %a1 = add i64 %a, 1
  br label %merge.step
take.b:
  %ptb = getelementptr i64, ptr %src, i64 %b
  %vb = load i64, ptr %ptb
  %db = getelementptr i64, ptr %dst, i64 %k
  store i64 %vb, ptr %db
  %b1 = add i64 %b, 1
  br label %merge.step
merge.step:
  %a2 = phi i64 [ %a1, %take.a ], [ %a, %take.b ]
  %b2 = phi i64 [ %b, %take.a ], [ %b1, %take.b ]
  %k1 = add i64 %k, 1
  br label %merge
merge.done:
  %lo2 = add i64 %lo, %w2x
  br label %run.head
width.next:
  %w2 = shl i64 %w, 1
  br label %width.head
finish:
  %same = icmp eq ptr %src, %perm
  br i1 %same, label %done, label %copy
copy:
  call void @llvm.memcpy.p0.p0.i64(ptr %perm, ptr %src, i64 %bytes, i1 false)
  br label %done
done:
  call void @free(ptr %tmp)
  ret ptr %perm
}
"#;

/// `qsort`'s rules (shadows only for the duplicated `base`).
const QSORT_RULES: &str = r#"
define ptr @__fz_aug.qsort(ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %cmp) {
  %perm = call ptr @__fz_qsort_perm(ptr %base, i64 %n, i64 %size, ptr %cmp)
  call void @__fz_qsort_apply_both(ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %perm)
  ret ptr %perm
}

define void @__fz_rev.qsort(ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %cmp, ptr %tape) {
  call void @__fz_qsort_unapply(ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %tape)
  ret void
}

define void @__fz_fwd.qsort(ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %cmp) {
  %perm = call ptr @__fz_qsort_perm(ptr %base, i64 %n, i64 %size, ptr %cmp)
  call void @__fz_qsort_apply_both(ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %perm)
  call void @free(ptr %perm)
  ret void
}

define void @__fz_fwd_lane.qsort(ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %cmp, ptr %perm, i1 %last) {
  call void @__fz_qsort_next_lane(ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %perm, i1 %last)
  ret void
}

define void @__fz_rev_lane.qsort(ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %cmp, ptr %tape) {
  call void @__fz_qsort_unapply_shadow(ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %tape)
  ret void
}
"#;

/// `qsort_r`'s rules in the library convention: `%m` the activity mask, a null shadow for
/// constant memory; `%cmp`'s and `%arg`'s shadows are unused.
const QSORT_R_RULES: &str = r#"
define ptr @__fz_aug.qsort_r(i64 %m, ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %cmp, ptr %dcmp, ptr %arg, ptr %darg) {
  %perm = call ptr @__fz_qsort_r_perm(ptr %base, i64 %n, i64 %size, ptr %cmp, ptr %arg)
  call void @__fz_qsort_apply_both(ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %perm)
  ret ptr %perm
}

define void @__fz_rev.qsort_r(i64 %m, ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %cmp, ptr %dcmp, ptr %arg, ptr %darg, ptr %tape) {
  call void @__fz_qsort_unapply(ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %tape)
  ret void
}

define void @__fz_fwd.qsort_r(i64 %m, ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %cmp, ptr %dcmp, ptr %arg, ptr %darg) {
  %perm = call ptr @__fz_qsort_r_perm(ptr %base, i64 %n, i64 %size, ptr %cmp, ptr %arg)
  call void @__fz_qsort_apply_both(ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %perm)
  call void @free(ptr %perm)
  ret void
}

define void @__fz_fwd_lane.qsort_r(i64 %m, ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %cmp, ptr %dcmp, ptr %arg, ptr %darg, ptr %perm, i1 %last) {
  call void @__fz_qsort_next_lane(ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %perm, i1 %last)
  ret void
}

define void @__fz_rev_lane.qsort_r(i64 %m, ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %cmp, ptr %dcmp, ptr %arg, ptr %darg, ptr %tape) {
  call void @__fz_qsort_unapply_shadow(ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %tape)
  ret void
}
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_placeholder_is_filled() {
        for s in Sort::ALL {
            let ir = s.rules_ir();
            for p in ["SUFFIX", "EXTRA_PARAMS", "EXTRA_ARGS"] {
                assert!(!ir.contains(p), "{} rules still hold {p}", s.name());
            }
            for f in ["aug", "rev", "fwd", "fwd_lane", "rev_lane"] {
                assert!(ir.contains(&format!("@__fz_{f}.{}(", s.name())));
            }
        }
        assert!(Sort::QsortR
            .rules_ir()
            .contains("call i32 %cmp(ptr %ea, ptr %eb, ptr %arg)"));
    }
}
