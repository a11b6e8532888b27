//! # ferrozyme-rules: derivative math as data
//!
//! **Derivative math lives only in the rules table.**  This crate is one
//! declarative table saying, for every differentiable LLVM instruction,
//! intrinsic and libm function, what the partial derivative of the result
//! with respect to each argument is.  Nothing else in Ferrozyme knows that
//! `d sin(x) = cos(x) dx`; the transform only knows how to *lower* the
//! table's expressions to LLVM IR and how to combine them:
//!
//! * reverse mode: `adj_arg_i += adj_result * partial_i` for each argument;
//! * forward mode: `tangent_result = sum_i partial_i * tangent_i`.
//!
//! The crate has no dependencies, and in particular none on LLVM, so every
//! rule is unit-tested numerically on `f64` against a finite difference of a
//! reference implementation, without building any IR.
//!
//! ## The pieces
//!
//! * [`expr`] — the expression DSL in which partials are written: `+ - * /`,
//!   unary minus, numbers, the variables `x y z` (arguments 0, 1, 2) and `r`
//!   (the operation's primal result), the constants `pi ln2 ln10`, the
//!   functions `sin cos tan exp exp2 log sqrt abs sinh cosh floor trunc pow
//!   copysign digamma j0 j1 y0 y1 jn yn` (the last seven in [`special`]; `jn(n, x)`
//!   and `yn(n, x)` take an integer-valued order), the
//!   comparisons `lt le gt ge eq ne` (1.0/0.0) and the value
//!   select `sel(c, a, b)`.  Parsed to [`Expr`], evaluable with [`Expr::eval`],
//!   printed back by `Display`.
//! * [`table`] — the rows: [`Rule`] = name, [`Family`], arity, one [`Partial`]
//!   per argument, a reference primal and a sampling domain.  A partial is
//!   either an expression or [`Partial::Zero`], a *structural* zero (the
//!   argument never receives a derivative).  [`all_rules`] returns the table.
//! * [`lookup`] — from IR names to rows: [`intrinsic_rule`] strips type
//!   mangling (`llvm.powi.f64.i32` -> `llvm.powi`), [`libm_rule`] maps `sinf`
//!   to `sin`, and [`zero_derivative_intrinsic`] recognises intrinsics that
//!   never carry a derivative (second, smaller table, each with its reason).
//! * [`opcodes`] — [`opcode_kind`] classifies every LLVM 22 opcode
//!   ([`Op`]) into an [`OpKind`], by an exhaustive match.
//!
//! ## Invariants
//!
//! * The table is parsed once, lazily; a row that fails to parse panics with
//!   its name — and a unit test parses every row, so that never ships.
//! * `rule.partials.len() == rule.arity`; partial expressions mention only
//!   arguments below the arity, plus possibly `r` (see [`Rule::uses_result`]).
//! * Every non-zero partial agrees with a central finite difference of the
//!   reference primal inside the rule's domain; every structural zero has a
//!   vanishing finite difference.
//! * Rule names are unique; intrinsic rows are named without type suffixes
//!   and start with `llvm.`; libm rows use the C `double` names.
//! * Expressions are total over IEEE floats: a rule that must avoid inf/NaN
//!   at a special point does it with `sel`, whose both arms are always
//!   evaluated (e.g. `sqrt` has derivative 0 at 0 by convention, see
//!   [`table`]).
#![forbid(unsafe_code)]

pub mod blas;
pub mod coverage;
pub mod expr;
pub mod fortran;
mod index;
pub mod lookup;
pub mod mpi;
pub mod opcodes;
pub mod openmp;
mod parse;
pub mod special;
pub mod table;

pub use expr::{BinOp, Cmp, Expr, Fun1, Fun2, Var};
pub use lookup::{
    intrinsic_base, intrinsic_rule, libm_rule, zero_derivative_intrinsic, zero_derivative_reason,
};
pub use opcodes::{opcode_kind, opcode_kind_by_name, Op, OpKind, UNKNOWN_OPCODE};
pub use parse::ParseError;
pub use table::{all_rules, find_rule, Family, Partial, Rule};
