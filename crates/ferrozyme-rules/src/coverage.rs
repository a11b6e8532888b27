//! A human-readable answer to "is X supported?", printed by `ferrozyme rules`.
//!
//! Everything here is rendered from the tables themselves, so the documentation cannot
//! drift from what the transform does.

use std::fmt::Write;

use crate::{all_rules, opcode_kind, Family, Op, OpKind, Partial};

/// The rule table, the opcode classification and the zero-derivative intrinsics, as
/// Markdown.
pub fn coverage_markdown() -> String {
    let mut s = String::new();
    for (family, title) in [
        (Family::Opcode, "Instructions with derivative rules"),
        (Family::Intrinsic, "LLVM intrinsics"),
        (
            Family::Libm,
            "C math library (each also as its `f` variant: `sinf` ...)",
        ),
    ] {
        let _ = writeln!(s, "## {title}\n\n| name | partial derivatives (x, y, z = arguments, r = result) |\n|---|---|");
        for r in all_rules().iter().filter(|r| r.family == family) {
            let parts: Vec<String> = r
                .partials
                .iter()
                .map(|p| match p {
                    Partial::Zero => "0 (structural)".to_string(),
                    Partial::Expr(e) => format!("`{e}`"),
                })
                .collect();
            let _ = writeln!(s, "| `{}` | {} |", r.name, parts.join(", "));
        }
        s.push('\n');
    }
    let _ = writeln!(
        s,
        "## Every LLVM instruction\n\n| opcode | handling |\n|---|---|"
    );
    for op in Op::ALL {
        let how = match opcode_kind(op) {
            OpKind::Elementwise(_) => "derivative rule (above)".to_string(),
            OpKind::LinearCast => {
                "linear cast: adjoint converted back to the operand type".to_string()
            }
            OpKind::StructuralZero { why } => format!("no derivative flows: {why}"),
            OpKind::Inactive { why } => format!("inactive: {why}"),
            OpKind::Structural { why } => format!("handled by the transform: {why}"),
            OpKind::Unsupported { why } => format!("**unsupported**: {why}"),
        };
        let _ = writeln!(s, "| `{}` | {how} |", op.name());
    }
    let _ = writeln!(
        s,
        "\n## Handled structurally by the transform\n\n\
         * memory: `llvm.memcpy`, `llvm.memmove` (element type from type analysis), `llvm.memset`;\n\
         * vector reductions: `llvm.vector.reduce.fadd`, `.fmul`, `.fmax`, `.fmin`, `.fmaximum`, `.fminimum`;\n\
         * two-result math: `llvm.sincos` and `llvm.modf` (scalar and vector), `sincos`/`sincosf` and `modf`/`modff` (writing through pointers): split into `llvm.sin`, `llvm.cos`, `llvm.trunc` and an exact subtraction before differentiation;\n\
         * allocation: `malloc`, `calloc`, `realloc`, `free`, `aligned_alloc`, C++ `new`/`delete` (shadow allocations, freed when the reverse sweep reaches the allocation);\n\
         * inactive library calls: `printf` family, `puts`, `clock`, `rand`, ... (see `ferrozyme-abi`);\n\
         * calls to functions with IR: augmented forward + reverse function, or one combined function for callees that touch no memory;\n\
         * type hints: `__enzyme_double`, `__enzyme_float`, `__enzyme_integer`, `__enzyme_pointer`."
    );
    let _ = writeln!(
        s,
        "\n## Intrinsics with a zero derivative\n\n| intrinsic | why |\n|---|---|"
    );
    for (name, why) in crate::lookup::zero_derivative_table() {
        let _ = writeln!(s, "| `{name}` | {why} |");
    }
    library_families(&mut s);
    let _ = writeln!(
        s,
        "\n## BLAS and LAPACK (rules that call the library again)\n\n| function | computes | reverse rule |\n|---|---|---|"
    );
    for r in crate::blas::BLAS_FUNCTIONS {
        let _ = writeln!(s, "| `{}` | {} | {} |", r.name, r.computes, r.adjoint);
    }
    s
}

/// flang's runtime, OpenMP and MPI (`fortran.rs`, `openmp.rs`, `mpi.rs`).
fn library_families(s: &mut String) {
    use crate::fortran::FortranRule;
    use crate::mpi::MpiRule;
    use crate::openmp::OmpRule;
    let _ = writeln!(
        s,
        "\n## flang's runtime library (`_FortranA*`)\n\n| routine | handling |\n|---|---|"
    );
    for (name, by) in crate::fortran::implemented() {
        let _ = writeln!(
            s,
            "| `{name}` | differentiable implementation `{by}` (runtime/fortran.c) |"
        );
    }
    for (name, rule) in crate::fortran::families() {
        let how = match rule {
            FortranRule::Inactive { why } => format!("inactive: {why}"),
            FortranRule::Implemented { by } => format!("implemented by `{by}`"),
            FortranRule::Deallocation { why } => {
                format!("moved after the reverse sweep and repeated on the shadow: {why}")
            }
            FortranRule::Unsupported { why } => format!("**unsupported**: {why}"),
        };
        let _ = writeln!(s, "| `{name}` | {how} |");
    }
    let _ = writeln!(
        s,
        "| any other `_FortranA*` | **unsupported**: a `missing-derivative` error naming it |"
    );
    let _ = writeln!(
        s,
        "\n## OpenMP runtime (libomp)\n\n| routine | handling |\n|---|---|"
    );
    for (name, rule) in crate::openmp::table() {
        let how = match rule {
            OmpRule::Fork => {
                "parallel region: the microtask's derivative is forked (per-thread tapes)"
                    .to_string()
            }
            OmpRule::Barrier => "mirrored in the reverse sweep".to_string(),
            OmpRule::SerializedBegin | OmpRule::SerializedEnd => {
                "a team of one (false `if` clause): copied; the reverse of the region runs in a team of one too (the pair mirrored)".to_string()
            }
            OmpRule::CriticalBegin | OmpRule::CriticalEnd => {
                "critical section, mirrored (begin and end swap)".to_string()
            }
            OmpRule::DoacrossWait | OmpRule::DoacrossPost => {
                "doacross dependence (`ordered depend(sink)` / `depend(source)`): copied; the reverse runs each iteration's waited-for part in the exact reverse order the posts were made (tickets)".to_string()
            }
            OmpRule::Reduce => {
                "reduction: rewritten to `atomicrmw fadd` for `+` on reals".to_string()
            }
            OmpRule::Inactive { why } => format!("inactive: {why}"),
            OmpRule::Unsupported { why } => format!("**unsupported**: {why}"),
        };
        let _ = writeln!(s, "| `{name}` | {how} |");
    }
    for (name, rule) in crate::openmp::task_table() {
        use crate::openmp::TaskCall;
        let how = match rule {
            TaskCall::Alloc => "task: a `calloc` in the derivative (run in place)",
            TaskCall::Run { .. } => "task: its entry called directly, at once",
            TaskCall::Loop => "taskloop: its entry called once over the whole range",
            TaskCall::Nothing { .. } => "nothing to wait for (tasks ran in place)",
            TaskCall::CompleteIf0 => "an `if(0)` task ran: freed",
            TaskCall::ReductionInit => "task reduction: no private copies (null)",
            TaskCall::ReductionItem => "task reduction: the item itself",
        };
        let _ = writeln!(s, "| `{name}` | {how} |");
    }
    let _ = writeln!(
        s,
        "| any other `__kmpc_*`, `omp_*`, `__tgt_*` | **unsupported**: an error naming it |"
    );
    let _ = writeln!(
        s,
        "\n## MPI (Open MPI)\n\n| routine | handling |\n|---|---|"
    );
    for (name, rule) in crate::mpi::table() {
        let how = match rule {
            MpiRule::Fortran { by } => format!(
                "Fortran binding: redirected to the C wrapper `{by}` (runtime/mpi_fortran.c), differentiated by the C routine's rule"
            ),
            MpiRule::Composed { by } => format!(
                "redirected to `{by}` (runtime/mpi_composed.c), written with differentiated routines"
            ),
            MpiRule::Inactive { why } => format!("inactive: {why}"),
            MpiRule::Unsupported { why } => format!("**unsupported**: {why}"),
            MpiRule::HandleFree { .. } => "freed after the reverse sweep (forward mode: in place); an error in a loop, or under a branch in split mode".to_string(),
            r => format!("differentiated (`{r:?}`, see `ferrozyme-rules/src/mpi.rs`)"),
        };
        let _ = writeln!(s, "| `{name}` | {how} |");
    }
    let _ = writeln!(
        s,
        "| any other `MPI_*` | **unsupported**: an error naming it |"
    );
}

#[cfg(test)]
mod tests {
    #[test]
    fn coverage_lists_every_rule_and_opcode() {
        let s = super::coverage_markdown();
        for r in crate::all_rules() {
            assert!(s.contains(&format!("`{}`", r.name)), "{} missing", r.name);
        }
        for op in crate::Op::ALL {
            let name = op.name();
            assert!(s.contains(&format!("| `{name}` |")), "{name} missing");
        }
        for r in crate::blas::BLAS_FUNCTIONS {
            assert!(
                s.contains(&format!("| `{}` |", r.name)),
                "{} missing",
                r.name
            );
        }
    }
}
