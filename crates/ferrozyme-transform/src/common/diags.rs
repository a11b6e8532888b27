//! Problems found while synthesizing a derivative, as diagnostics.
//!
//! Each [`Problem`] is one thing Ferrozyme cannot (yet) differentiate, with its kind, a
//! message and a help line written once for both modes. [`Diags`] collects them for one
//! function, with the source location of the instruction they are about.

use ferrozyme_llvm::{DiagKind, Diagnostic, Value};

/// Something that stops a derivative from being generated.
#[derive(Clone, Debug)]
pub(crate) enum Problem<'a> {
    /// A called function has neither IR nor a rule.
    NoDerivative {
        callee: &'a str,
    },
    /// An intrinsic without a rule.
    UnknownIntrinsic {
        callee: &'a str,
    },
    /// A call through a function pointer of a type no function whose address is taken has.
    NoIndirectTargets,
    InlineAsm,
    /// `<vscale x N x T>` anywhere in the function.
    ScalableVector,
    /// A finding of the silent-zero audit (`audit::body`): undifferentiated float
    /// types on the active path, active values lost in memory without a shadow, pointers
    /// rebuilt from integers, constant pointers in shadowed memory, floats crossing calls
    /// inside integers. The audit words each finding itself.
    Audit {
        kind: DiagKind,
        msg: String,
        help: &'static str,
    },
    /// An opcode the rules table classifies as unsupported (`why` says why).
    UnsupportedOpcode {
        opcode: &'static str,
        why: &'static str,
    },
    /// A pointer chosen at run time between constant and duplicated memory, used where
    /// no run-time guard can follow it.
    MixedActivity {
        detail: String,
    },
    /// Integer arithmetic on a float's bits beyond lane moves and sign tricks.
    BitArithmetic,
    /// A float pair packed in an `i64` mixed with integer vectors.
    PackedIntoIntVector,
    /// An integer access whose float-ness type analysis cannot decide.
    AmbiguousIntAccess {
        value: String,
        memory: String,
    },
    /// Forward mode reached a value with no tangent rule.
    NoTangentRule {
        opcode: &'static str,
    },
    /// An instruction forward mode cannot differentiate (`why` says why).
    UnsupportedInForward {
        opcode: &'static str,
        why: &'static str,
    },
    /// A differentiable value stored into memory returned by a function without IR or rule.
    UntrackedMemory {
        callee: String,
    },
    /// A memory copy whose element type type analysis cannot tell.
    UntypedCopy {
        what: &'static str,
        pointer: String,
        /// The copy moves `std::function`'s in-place storage (`std::_Any_data`).
        std_function: bool,
    },
    /// A routine of a library family (flang's runtime, OpenMP, MPI) that is not
    /// differentiated; its table says why and what to do.
    LibraryRoutine {
        callee: &'a str,
        family: &'static str,
        why: &'static str,
        help: &'static str,
    },
    /// An OpenMP reduction whose combination the rewrite does not recognise.
    OpenMpReduction,
    /// An active value captured by value by an OpenMP region (`firstprivate`).
    CapturedByValue,
    /// An atomic operation on differentiated data other than a float add/sub.
    UnsupportedAtomic,
    /// The old value an atomic float update returns is used.
    AtomicOldValue,
    /// Vector mode (`enzyme_width`) through OpenMP regions or MPI calls.
    ParallelVectorMode,
    /// A nonblocking MPI call whose `MPI_Request` has no shadow to carry its record.
    RequestWithoutShadow,
    /// The same inside Ferrozyme's one-sided operations: the window was not created by
    /// the differentiated code.
    WindowWithoutShadow,
    /// A one-sided `routine` (`MPI_Accumulate`, `MPI_Fetch_and_op`, `MPI_Get_accumulate`)
    /// whose operation (a predefined constant) is not differentiated with it: `MPI_PROD`,
    /// `MPI_MAX`, ...; the fetching ones with `MPI_SUM`, `MPI_REPLACE`.
    OnesidedOperation {
        routine: &'static str,
        op: String,
    },
    /// A reduction `routine` (`MPI_Reduce`, `MPI_Allreduce`, ...) whose operation (a
    /// predefined constant) is not differentiated: `MPI_PROD`, logical and bitwise ones.
    ReductionOperation {
        routine: &'static str,
        op: String,
    },
    /// The primal pointer of an `enzyme_dupnoneed` argument is a placeholder (`nullptr`,
    /// `(T *)0x1`) and the function does more with it than store to it.
    PlaceholderPrimal {
        arg: usize,
        name: String,
    },
    /// A rule failed to lower (a bug).
    RuleLowering {
        rule: &'static str,
        msg: String,
    },
    /// Anything else that is our fault.
    Internal {
        msg: String,
    },
}

impl Problem<'_> {
    pub fn kind(&self) -> DiagKind {
        match self {
            Problem::NoDerivative { .. }
            | Problem::LibraryRoutine { .. }
            | Problem::UntrackedMemory { .. } => DiagKind::MissingDerivative,
            Problem::PlaceholderPrimal { .. } => DiagKind::BadAutodiffCall,
            Problem::AmbiguousIntAccess { .. } | Problem::UntypedCopy { .. } => {
                DiagKind::CannotDeduceType
            }
            Problem::RuleLowering { .. } | Problem::Internal { .. } => DiagKind::Internal,
            Problem::Audit { kind, .. } => *kind,
            _ => DiagKind::UnsupportedInstruction,
        }
    }

    pub fn message(&self) -> String {
        match self {
            Problem::NoDerivative { callee } if is_libatomic_generic(callee) => format!(
                "no derivative for `{callee}`: an atomic access through libatomic's generic routines (an OpenMP `atomic` update or `reduction` of a `long double`, or a C11/C++ atomic wider than 8 bytes) is a compare-and-swap loop on memory, which is not differentiated"
            ),
            Problem::NoDerivative { callee } => format!(
                "no derivative for `{callee}`: it has no IR in this module and no derivative rule"
            ),
            Problem::UnknownIntrinsic { callee } if is_varargs_intrinsic(callee) => format!(
                "cannot differentiate a variadic function (`{callee}`): values read with va_arg do not carry their derivatives"
            ),
            Problem::UnknownIntrinsic { callee } if is_thread_local_intrinsic(callee) => format!(
                "thread-local data (`#pragma omp threadprivate`, `_Thread_local`, `thread_local`; `{callee}`) is not differentiated: the platform's thread-local storage gives each thread a copy that has no shadow"
            ),
            Problem::UnknownIntrinsic { callee } if is_trampoline_intrinsic(callee) => format!(
                "a procedure that reads its host's variables is reached through a trampoline (`{callee}`: a Fortran internal procedure assigned to a procedure pointer, or passed as an actual argument to a procedure that stores it or that the pass cannot inline; a nested function in GNU C): the executable stub that adds the host's variables to each call hides the procedure, so calls through it cannot be differentiated"
            ),
            Problem::UnknownIntrinsic { callee } => {
                format!("no derivative rule for the intrinsic `{callee}`")
            }
            Problem::NoIndirectTargets => "cannot differentiate this call through a function pointer: no function of its type has its address taken in this module, so none can be its target".to_string(),
            Problem::InlineAsm => "cannot differentiate inline assembly".to_string(),
            Problem::ScalableVector => {
                "scalable vectors (`<vscale x N x T>`) are not differentiated".to_string()
            }
            Problem::Audit { msg, .. } => msg.clone(),
            Problem::UnsupportedOpcode { opcode, why } => {
                format!("cannot differentiate `{opcode}` instructions: {why}")
            }
            Problem::MixedActivity { detail } => format!("mismatched activity: {detail}"),
            Problem::BitArithmetic => {
                "integer arithmetic on the bits of a floating-point value cannot be differentiated"
                    .to_string()
            }
            Problem::PackedIntoIntVector => "a float pair packed in an `i64` moves into or out of an integer vector; floats packed into integer vectors are not differentiated yet".to_string(),
            Problem::AmbiguousIntAccess { value, memory } => format!(
                "an integer access to differentiable memory whose type is ambiguous (the value looks like {value}, the memory like {memory})"
            ),
            Problem::NoTangentRule { opcode } => {
                format!("forward mode has no tangent rule for this `{opcode}` instruction")
            }
            Problem::UnsupportedInForward { opcode, why } => {
                format!("cannot differentiate `{opcode}` in forward mode: {why}")
            }
            Problem::UntrackedMemory { callee } => format!(
                "a differentiable value is stored into memory returned by `{callee}`, which has no IR and no rule: Ferrozyme cannot give that memory a shadow, so the derivative would be lost"
            ),
            Problem::UntypedCopy { what, pointer, std_function: true } => format!(
                "cannot deduce the type of the memory copied here ({what} `{pointer}`): it is a `std::function`'s in-place storage (`std::_Any_data`), so its derivative cannot be moved"
            ),
            Problem::UntypedCopy { what, pointer, .. } => format!(
                "cannot deduce the type of the memory copied here ({what} `{pointer}`), so its derivative cannot be moved"
            ),
            Problem::LibraryRoutine { callee, family, why, .. } => {
                format!("no derivative for `{callee}` ({family}): {why}")
            }
            Problem::OpenMpReduction => "this OpenMP reduction's combination code has a shape Ferrozyme does not recognise; reduction(+, -, *, max, min) of scalars and reduction(+) of arrays, as clang and flang emit them, are differentiated".to_string(),
            Problem::CapturedByValue => "a differentiated value is passed into this OpenMP region by value (firstprivate, or a captured scalar); only shared variables (passed by reference) are differentiated".to_string(),
            Problem::UnsupportedAtomic => "only atomic additions and subtractions of floats (`#pragma omp atomic` x += v, reduction(+:x)) are differentiated".to_string(),
            Problem::AtomicOldValue => "the old value returned by an atomic float update is used; it is not differentiated".to_string(),
            Problem::ParallelVectorMode => "vector mode (enzyme_width) through OpenMP regions and MPI calls is not supported".to_string(),
            Problem::RequestWithoutShadow => "the MPI_Request of a differentiated nonblocking call must live in memory the differentiated code owns (a local variable or array, or memory passed with enzyme_dup)".to_string(),
            Problem::OnesidedOperation { routine, op } => format!("{routine} with the operation `{op}` is not differentiated: MPI_Accumulate is with MPI_SUM and MPI_REPLACE (linear in the origin and the target values), MPI_Fetch_and_op and MPI_Get_accumulate with MPI_NO_OP (an atomic read; with MPI_SUM or MPI_REPLACE the fetched values depend on the order of the ranks' operations, which the reverse sweep does not replay)"),
            Problem::ReductionOperation { routine, op } => format!("{routine} with the operation `{op}` is not differentiated: reductions are with MPI_SUM, MPI_MAX, MPI_MIN (and MPI_MAXLOC, MPI_MINLOC on value-index pairs); the adjoint of MPI_PROD needs the product of the other ranks' values, which is not the result divided by this rank's value when one of them is zero"),
            Problem::WindowWithoutShadow => "the MPI window of a differentiated one-sided operation (MPI_Put, MPI_Get, MPI_Accumulate, MPI_Win_fence) was not created by the differentiated code (it was made outside and passed in as a constant): the derivative runs one-sided operations on windows it creates, which carry the window memory's derivative".to_string(),
            Problem::PlaceholderPrimal { arg, name } => format!(
                "argument {arg}{} is passed with enzyme_dupnoneed and a placeholder primal pointer (nullptr or a small constant address), but the function uses that pointer here for more than storing through it; only stores into a placeholder can be left out",
                if name.is_empty() { String::new() } else { format!(" (`{name}`)") }
            ),
            Problem::RuleLowering { rule, msg } => format!("lowering the rule for `{rule}`: {msg}"),
            Problem::Internal { msg } => msg.clone(),
        }
    }

    pub fn help(&self) -> &'static str {
        match self {
            Problem::NoDerivative { callee } if is_libatomic_generic(callee) => "accumulate in double or float, whose atomic updates and reductions are differentiated; or keep per-thread `long double` partial sums and combine them in a `critical` section (tests/openmp/98)",
            Problem::NoDerivative { .. } => "compile its source together with this file (ferrozyme cc a.c b.c) so its IR is in the module, keep the values it uses constant (enzyme_const), or register a derivative for it (__enzyme_register_gradient_*)",
            Problem::UnknownIntrinsic { callee } if is_varargs_intrinsic(callee) => "pass the values in an array or a struct instead of `...`; a variadic function that only prints them can be registered inactive (__enzyme_inactivefn) or called with constant copies",
            Problem::UnknownIntrinsic { callee } if is_thread_local_intrinsic(callee) => "for `#pragma omp threadprivate` compile with -fnoopenmp-use-tls (clang then reaches the copies through libomp's __kmpc_threadprivate_cached, which is differentiated, as flang's `!$omp threadprivate` is); otherwise keep per-thread values in variables private to the parallel region, or in a shared array indexed by omp_get_thread_num()",
            Problem::UnknownIntrinsic { callee } if is_trampoline_intrinsic(callee) => "make the procedure a module procedure and pass the host's values to it through module variables or arguments, or pass the internal procedure directly as an actual argument to the procedure that calls it (the pass then calls it directly: tests/fortran/96), or compile with -O2, where flang inlines the callee and the trampoline goes away when it can",
            Problem::UnknownIntrinsic { .. } => "please report this intrinsic; as a workaround compile with different flags so LLVM does not emit it",
            Problem::NoIndirectTargets => "compile the source of the functions the pointer can point to together with this file (ferrozyme cc a.c b.c)",
            Problem::InlineAsm => "move the assembly out of the differentiated code",
            Problem::ScalableVector => "use fixed-width vectors in the differentiated function",
            Problem::Audit { help, .. } => help,
            Problem::UnsupportedOpcode { .. } => "rewrite this part without the construct, or move it out of the differentiated function",
            Problem::MixedActivity { .. } => "pass both buffers as enzyme_dup (a zero shadow for the constant one), or both as enzyme_const",
            Problem::BitArithmetic => "operate on the value as a float (fabs, copysign, -x) instead of on its bit pattern",
            Problem::PackedIntoIntVector => "copy the floats as floats (or as one i64 at a time), or compile this function at -O1",
            Problem::AmbiguousIntAccess { .. } => "avoid type punning through integer pointers (it breaks C's strict aliasing; memcpy is the portable way), compile with -fno-strict-aliasing, or add a hint such as __enzyme_double(ptr)",
            Problem::UntrackedMemory { .. } => "allocate the memory with malloc/calloc/aligned_alloc/posix_memalign/new (whose shadows Ferrozyme creates), compile the allocator's source with the program, or register it with __enzyme_allocation_like",
            Problem::UntypedCopy { std_function: true, .. } => "std::function keeps a small lambda's captures in place, in 16 bytes that hold pointers for other lambdas and for std::function's manager, and nothing types them where the storage is moved whole (std::function's move constructor and swap at -O0; std::swap, moves and std::vector growth of std::function objects holding a captured double at every level): capture values by reference (`[&phase, p]` rather than `[phase, p]`) or through a pointer, so that every lambda stored there holds pointers only (tests/cxx/521)",
            Problem::UntypedCopy { .. } => "tell Ferrozyme what the buffer holds with a hint before the copy, e.g. __enzyme_double(ptr) or __enzyme_float(ptr) (declare: extern void __enzyme_double(void*);)",
            Problem::NoTangentRule { .. } => "please report this; as a workaround keep the values involved constant (enzyme_const)",
            Problem::UnsupportedInForward { .. } => "keep the values involved constant (enzyme_const), or move this code out of the differentiated function",
            Problem::LibraryRoutine { help, .. } => help,
            Problem::OpenMpReduction => "accumulate the other reductions with an explicit critical section or atomic update, or differentiate a serial version",
            Problem::CapturedByValue => "make the variable shared (drop firstprivate), or compute it inside the region",
            Problem::UnsupportedAtomic => "use an atomic += (or a reduction(+:...)), or a critical section",
            Problem::AtomicOldValue => "use `#pragma omp atomic update` without capturing the old value",
            Problem::ParallelVectorMode => "differentiate one direction at a time",
            Problem::RequestWithoutShadow => "declare the MPI_Request (array) inside the differentiated function",
            Problem::OnesidedOperation { .. } => "accumulate with MPI_SUM or MPI_REPLACE, or fetch the target's values (MPI_Get, or MPI_Fetch_and_op/MPI_Get_accumulate with MPI_NO_OP), combine them on the origin and MPI_Put the result in a later epoch",
            Problem::ReductionOperation { .. } => "reduce the logarithms of the magnitudes with MPI_SUM (and the signs, or the count of zeros, as integers) and exponentiate, or gather the values (MPI_Allgather) and multiply them on each rank",
            Problem::WindowWithoutShadow => "create the window (MPI_Win_create or MPI_Win_allocate) and free it inside the differentiated function",
            Problem::PlaceholderPrimal { .. } => "pass a real buffer as the primal (scratch memory of the same size will do; its contents are not needed afterwards)",
            Problem::RuleLowering { .. } | Problem::Internal { .. } => {
                "this is a bug in Ferrozyme; please report it with the input file"
            }
        }
    }
}

/// `llvm.va_start` / `va_end` / `va_copy` (any overload): a variadic function's body,
/// whose `va_arg` values come from the register-save and overflow areas the ABI fills,
/// memory without shadows.
/// `llvm.threadlocal.address.*`: the address of a thread-local global.
fn is_thread_local_intrinsic(callee: &str) -> bool {
    callee.starts_with("llvm.threadlocal.address")
}

/// libatomic's generic and sized routines (`__atomic_load`, `__atomic_compare_exchange`,
/// `__atomic_load_16`, ...): clang calls them for atomics it cannot inline, as the
/// compare-and-swap loop of a `long double` OpenMP atomic or reduction.
fn is_libatomic_generic(callee: &str) -> bool {
    callee.starts_with("__atomic_")
}

fn is_trampoline_intrinsic(callee: &str) -> bool {
    matches!(callee, "llvm.init.trampoline" | "llvm.adjust.trampoline")
}

fn is_varargs_intrinsic(callee: &str) -> bool {
    ["llvm.va_start", "llvm.va_end", "llvm.va_copy"]
        .iter()
        .any(|p| callee == *p || callee.strip_prefix(p).is_some_and(|r| r.starts_with('.')))
}

/// The diagnostics of one function being differentiated.
pub(crate) struct Diags {
    /// The user-facing name of the function (clones are named after their original).
    fname: String,
    list: Vec<Diagnostic>,
}

impl Diags {
    pub fn new(fname: String) -> Diags {
        Diags {
            fname,
            list: Vec::new(),
        }
    }

    /// The user-facing name of the function.
    pub fn function_name(&self) -> &str {
        &self.fname
    }

    /// Reports `p` at instruction `at` (its source line when debug info exists).
    pub fn report(&mut self, at: Option<Value>, p: Problem<'_>) {
        let mut d = Diagnostic::new(p.kind(), p.message())
            .in_function(self.fname.clone())
            .with_help(p.help().to_string());
        if let Some(i) = at {
            d = d
                .at_instruction(i.to_string())
                .at_loc(i.source_loc())
                .reached_through(i.inlined_chain());
        }
        self.list.push(d);
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// `Ok` when nothing was reported.
    pub fn into_result(self) -> Result<(), Vec<Diagnostic>> {
        if self.list.is_empty() {
            Ok(())
        } else {
            Err(self.list)
        }
    }
}
