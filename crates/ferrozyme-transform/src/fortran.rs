//! flang's runtime calls inside differentiated code.
//!
//! The table in `ferrozyme_rules::fortran` says what each `_FortranA*` routine is. The
//! routines that compute on reals (`SumReal8`, `DotProductReal8`, `MaxvalReal8`,
//! `MatmulReal8Real8`, `Assign`, ...) have C implementations with the same arguments
//! (`runtime/fortran.c`, compiled to IR by `build.rs`): when a function is cloned for
//! differentiation, [`redirect_runtime_calls`] links that IR into the module (once) and
//! points the clone's calls at the implementations. The pass then differentiates them
//! like any function with IR: the derivative of `SUM` is the derivative of a loop that
//! sums, in reverse and forward mode alike. The user's own functions keep calling flang's
//! library; only the derivative code runs the implementations.
//!
//! Open MPI's Fortran bindings (`mpi_allreduce_` ...) are redirected the same way, to
//! the C wrappers of `runtime/mpi_fortran.c` (the table: `ferrozyme_rules::mpi`), which
//! call the C routines the MPI rules differentiate.
//!
//! Invariant: the implementations never call a routine they replace. Their calls back
//! into flang (integer or character assignment and array constructors) go through the
//! aliases of [`ferrozyme_rules::fortran::INACTIVE_ALIASES`], which the table marks
//! inactive and which [`finish`] renames to flang's routines once differentiation is over.

use ferrozyme_llvm::{link_ir_text, Module, Opcode, Value};
use ferrozyme_rules::fortran::{fortran_rule, FortranRule, INACTIVE_ALIASES};
use ferrozyme_rules::mpi::{mpi_rule, MpiRule};

/// One IR file of implementations (see `build.rs`: IR text without target lines).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Runtime {
    /// flang's array routines (`runtime/fortran.c`).
    Flang,
    /// Open MPI's Fortran bindings (`runtime/mpi_fortran.c`).
    MpiFortran,
}

impl Runtime {
    /// The IR text, the prefix of every function it defines, and one of them (present
    /// once the IR is linked).
    fn ir(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Runtime::Flang => (
                include_str!(concat!(env!("OUT_DIR"), "/fortran.ll")),
                "__fz_f18_",
                "__fz_f18_assign",
            ),
            Runtime::MpiFortran => (
                include_str!(concat!(env!("OUT_DIR"), "/mpi_fortran.ll")),
                "__fz_mpif_",
                "__fz_mpif_send",
            ),
        }
    }
}

/// The implementation of a call of `name`, when it has one.
fn implementation(name: &str) -> Option<(Runtime, &'static str)> {
    if let Some(FortranRule::Implemented { by }) = fortran_rule(name) {
        return Some((Runtime::Flang, by));
    }
    match mpi_rule(name) {
        Some(MpiRule::Fortran { by }) => Some((Runtime::MpiFortran, by)),
        _ => None,
    }
}

/// Points the calls of `f` (a clone about to be differentiated) to flang routines with an
/// implementation at that implementation, linking the implementations in on first need.
pub fn redirect_runtime_calls(m: Module, f: Value) -> Result<(), String> {
    let mut sites: Vec<(Value, Runtime, &'static str)> = Vec::new();
    for b in f.blocks() {
        for i in b.instructions() {
            if i.opcode() != Some(Opcode::LLVMCall) {
                continue;
            }
            let Some(g) = i.called_function() else {
                continue;
            };
            if let Some((rt, by)) = implementation(&g.name()) {
                sites.push((i, rt, by));
            }
        }
    }
    for rt in [Runtime::Flang, Runtime::MpiFortran] {
        if sites.iter().any(|s| s.1 == rt) {
            link_implementations(m, rt)?;
        }
    }
    for (call, _, by) in sites {
        let imp = m
            .function(by)
            .ok_or_else(|| format!("the Fortran runtime IR does not define `{by}`"))?;
        if call.call_args().len() != imp.params().len() {
            return Err(format!(
                "`{}` is called with {} arguments, its implementation `{by}` takes {}",
                call.called_value().name(),
                call.call_args().len(),
                imp.params().len()
            ));
        }
        call.set_operand(call.num_operands() - 1, imp);
    }
    Ok(())
}

fn link_implementations(m: Module, rt: Runtime) -> Result<(), String> {
    let (ir, prefix, probe) = rt.ir();
    if m.function(probe).is_some_and(|g| !g.is_declaration()) {
        return Ok(());
    }
    let header = format!(
        "target datalayout = \"{}\"\ntarget triple = \"{}\"\n",
        m.data_layout(),
        m.target_triple()
    );
    link_ir_text(m, &(header + ir), "ferrozyme-fortran-runtime").map_err(|e| e.to_string())?;
    for g in m.functions() {
        if g.name().starts_with(prefix) && !g.is_declaration() {
            g.set_linkage_internal();
        }
    }
    Ok(())
}

/// After differentiation: the implementations' inactive assignments and array
/// constructors call flang's own.
pub fn finish(m: Module) {
    for (name, flang) in INACTIVE_ALIASES {
        let Some(alias) = m.function(name) else {
            continue;
        };
        let real = m.get_or_declare(flang, alias.function_type());
        alias.replace_all_uses_with(real);
        alias.delete_function();
    }
}
