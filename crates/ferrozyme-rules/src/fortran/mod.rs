//! flang's runtime library (`_FortranA*`) as the AD pass sees it: one row per routine or
//! family of routines.
//!
//! flang-22 calls its runtime (`libflang_rt.runtime.a`, 1600+ entry points, no IR) for
//! I/O, program control, inquiry functions and the array intrinsics and assignments it
//! does not expand inline — at `-O0` nearly all of them (`SUM`, `DOT_PRODUCT`, `MAXVAL`,
//! `MATMUL`, `RESHAPE`, whole-array assignment through descriptors). Every such call inside
//! differentiated code falls in one of three cases:
//!
//! * [`FortranRule::Inactive`]: it cannot touch differentiable data (it prints, stops,
//!   answers an inquiry with an integer, works on characters): copied as is.
//! * [`FortranRule::Implemented`]: it computes on reals. Inside the functions being
//!   differentiated the call is redirected to a C implementation with the same
//!   arguments (`crates/ferrozyme-transform/runtime/fortran.c`), whose IR the pass
//!   differentiates like the user's own code.
//! * [`FortranRule::Deallocation`]: it only frees memory (`Destroy`, the finalization of a
//!   derived-type variable with allocatable components): the reverse sweep still reads
//!   that memory, so the call moves after the reverse sweep and is repeated on the
//!   shadow (forward mode: repeated on the shadow at once).
//! * [`FortranRule::Unsupported`]: anything else; a clear `missing-derivative` error
//!   naming the routine and what to do.
//!
//! Lookup is by exact name first, then by the longest family prefix that ends at a word
//! boundary of the name (`All` matches `AllDim`, not `AllocatableDeallocate`); a
//! `_FortranA` name in neither is unsupported (never silently inactive).

/// What the pass does with one flang runtime routine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FortranRule {
    /// No derivative flows through it; the call is copied.
    Inactive { why: &'static str },
    /// Redirected to the differentiable implementation `by` inside differentiated code.
    Implemented { by: &'static str },
    /// Frees memory only: moved after the reverse sweep, repeated on the shadow.
    Deallocation { why: &'static str },
    /// Rejected with a `missing-derivative` error.
    Unsupported { why: &'static str },
}

/// The prefix of every flang runtime entry point (after `RTNAME`).
pub const PREFIX: &str = "_FortranA";

/// flang's `_FortranAAssign` for data without derivatives, as the implementation of
/// `Assign` calls it; the pass renames it back to `_FortranAAssign` after differentiating.
pub const ASSIGN_INACTIVE: &str = "__fz_f18_assign_inactive";

/// flang's `_FortranAAssignTemporary` (the same assignment into a compiler temporary:
/// flang-22 -O0 copies an array section into the temporary it passes to a defined
/// assignment, tests/fortran/100) for data without derivatives; renamed back after
/// differentiating, like [`ASSIGN_INACTIVE`].
pub const ASSIGN_TEMPORARY_INACTIVE: &str = "__fz_f18_assign_temporary_inactive";

/// flang's `_FortranAAssign` of derived-type data (whole-object assignment `w2 = w` of a
/// type with allocatable components: a deep copy driven by flang's type description), as
/// the pass renames such calls in differentiated code: it has no derivative, so an active
/// one is a clear error; an inactive one is renamed back after differentiating.
pub const ASSIGN_DERIVED: &str = "__fz_f18_assign_derived";

/// Why [`ASSIGN_DERIVED`] is not differentiated.
const ASSIGN_DERIVED_WHY: &str = "whole-object assignment of a derived type with allocatable components (`w2 = w`: flang's `_FortranAAssign` deep-copies the components through the type's description) is not differentiated";

/// The help line of [`ASSIGN_DERIVED`].
const ASSIGN_DERIVED_HELP: &str = "assign the components one by one (`allocate (w2%u, source = w%u)`, or `w2%u = w%u` for each allocatable component and `w2%s = w%s` for the others), or pass the variable as an intent(in) argument instead of copying it";

/// flang's routines the implementations call for data without derivatives (integer,
/// logical, character array constructors and assignments), by the inactive alias they
/// call: the pass renames each alias back to flang's routine after differentiating.
pub const INACTIVE_ALIASES: &[(&str, &str)] = &[
    (ASSIGN_INACTIVE, "_FortranAAssign"),
    (ASSIGN_TEMPORARY_INACTIVE, "_FortranAAssignTemporary"),
    (
        "__fz_f18_ctor_init_inactive",
        "_FortranAInitArrayConstructorVector",
    ),
    (
        "__fz_f18_ctor_push_inactive",
        "_FortranAPushArrayConstructorValue",
    ),
    (
        "__fz_f18_ctor_push_scalar_inactive",
        "_FortranAPushArrayConstructorSimpleScalar",
    ),
    ("__fz_f18_sum_dim_inactive", "_FortranASumDim"),
    ("__fz_f18_maxval_dim_inactive", "_FortranAMaxvalDim"),
    ("__fz_f18_minval_dim_inactive", "_FortranAMinvalDim"),
    ("__fz_f18_product_dim_inactive", "_FortranAProductDim"),
    ("__fz_f18_cshift_inactive", "_FortranACshift"),
    ("__fz_f18_cshift_vector_inactive", "_FortranACshiftVector"),
    ("__fz_f18_spread_inactive", "_FortranASpread"),
    ("__fz_f18_pack_inactive", "_FortranAPack"),
    ("__fz_f18_unpack_inactive", "_FortranAUnpack"),
    (
        "__fz_f18_copy_and_update_descriptor_inactive",
        "_FortranACopyAndUpdateDescriptor",
    ),
    ("__fz_f18_eoshift_inactive", "_FortranAEoshift"),
    ("__fz_f18_eoshift_vector_inactive", "_FortranAEoshiftVector"),
    ("__fz_f18_initialize_inactive", "_FortranAInitialize"),
];

const IO: &str = "formatted or list-directed output: values are only read to be printed";
const CONTROL: &str = "program start, stop and error termination";
const INQUIRY: &str = "an inquiry: integer, logical or descriptor results about shape and type";
const INTEGER_RESULT: &str =
    "integer or logical results (locations, counts, tests), which carry no derivative";
const CHARACTERS: &str = "character data carry no derivative";
const CLOCKS: &str = "clocks and timers";
const ENVIRONMENT: &str = "the environment, files and signals, not program data";

/// Routines with a differentiable implementation, by exact name (without [`PREFIX`]).
const IMPLEMENTED: &[(&str, &str)] = &[
    ("SumReal8", "__fz_f18_sum_r8"),
    ("SumReal4", "__fz_f18_sum_r4"),
    ("DotProductReal8", "__fz_f18_dot_r8"),
    ("DotProductReal4", "__fz_f18_dot_r4"),
    ("MaxvalReal8", "__fz_f18_maxval_r8"),
    ("MaxvalReal4", "__fz_f18_maxval_r4"),
    ("MinvalReal8", "__fz_f18_minval_r8"),
    ("MinvalReal4", "__fz_f18_minval_r4"),
    ("MatmulReal8Real8", "__fz_f18_matmul_r8"),
    ("MatmulReal4Real4", "__fz_f18_matmul_r4"),
    ("Assign", "__fz_f18_assign"),
    // Into a temporary: for reals the same assignment (a temporary needs no finalization;
    // derived-type data stop at run time in the implementation, as for `Assign`).
    ("AssignTemporary", "__fz_f18_assign"),
    ("ProductReal8", "__fz_f18_product_r8"),
    ("ProductReal4", "__fz_f18_product_r4"),
    ("Norm2_8", "__fz_f18_norm2_8"),
    ("Norm2_4", "__fz_f18_norm2_4"),
    ("Transpose", "__fz_f18_transpose"),
    ("Reshape", "__fz_f18_reshape"),
    ("InitArrayConstructorVector", "__fz_f18_ctor_init"),
    ("PushArrayConstructorValue", "__fz_f18_ctor_push"),
    (
        "PushArrayConstructorSimpleScalar",
        "__fz_f18_ctor_push_scalar",
    ),
    ("SumDim", "__fz_f18_sum_dim"),
    ("MaxvalDim", "__fz_f18_maxval_dim"),
    ("MinvalDim", "__fz_f18_minval_dim"),
    ("ProductDim", "__fz_f18_product_dim"),
    ("Norm2Dim", "__fz_f18_norm2_dim"),
    ("Cshift", "__fz_f18_cshift"),
    ("CshiftVector", "__fz_f18_cshift_vector"),
    ("Spread", "__fz_f18_spread"),
    ("Pack", "__fz_f18_pack"),
    ("Unpack", "__fz_f18_unpack"),
    (
        "CopyAndUpdateDescriptor",
        "__fz_f18_copy_and_update_descriptor",
    ),
    ("Eoshift", "__fz_f18_eoshift"),
    ("EoshiftVector", "__fz_f18_eoshift_vector"),
    ("AllocatableApplyMold", "__fz_f18_apply_mold"),
    ("AllocatableSetBounds", "__fz_f18_set_bounds"),
    ("AllocatableAllocate", "__fz_f18_allocatable_allocate"),
    (
        "AllocatableAllocateSource",
        "__fz_f18_allocatable_allocate_source",
    ),
    ("AllocatableDeallocate", "__fz_f18_allocatable_deallocate"),
    // ALLOCATE/DEALLOCATE of POINTER arrays (hpc40, tests/fortran/98).
    ("PointerSetBounds", "__fz_f18_set_bounds"),
    ("PointerAllocate", "__fz_f18_pointer_allocate"),
    ("PointerAllocateSource", "__fz_f18_pointer_allocate_source"),
    ("PointerDeallocate", "__fz_f18_pointer_deallocate"),
    ("Initialize", "__fz_f18_initialize"),
    ("MoveAlloc", "__fz_f18_move_alloc"),
    // FORALL's saved left-hand-side addresses (hpc40, tests/fortran/97).
    ("CreateDescriptorStack", "__fz_f18_create_descriptor_stack"),
    ("PushDescriptor", "__fz_f18_push_descriptor"),
    ("DescriptorAt", "__fz_f18_descriptor_at"),
    (
        "DestroyDescriptorStack",
        "__fz_f18_destroy_descriptor_stack",
    ),
    // Copy-in/copy-out of a non-contiguous actual argument.
    ("CopyInAssign", "__fz_f18_copy_in_assign"),
    ("CopyOutAssign", "__fz_f18_copy_out_assign"),
    // Elemental intrinsics flang leaves to its runtime even at -O2.
    ("Scale8", "__fz_f18_scale8"),
    ("Scale4", "__fz_f18_scale4"),
    ("Fraction8", "__fz_f18_fraction8"),
    ("Fraction4", "__fz_f18_fraction4"),
    ("ErfcScaled8", "__fz_f18_erfc_scaled8"),
    ("ErfcScaled4", "__fz_f18_erfc_scaled4"),
    // MOD and MODULO of reals (a call even at -O2).
    ("ModReal8", "__fz_f18_mod8"),
    ("ModReal4", "__fz_f18_mod4"),
    ("ModuloReal8", "__fz_f18_modulo8"),
    ("ModuloReal4", "__fz_f18_modulo4"),
    // complex(8) ** integer (`z**2` at -O0), as two doubles in and out.
    ("zpowi", "__fz_f18_zpowi"),
    ("zpowk", "__fz_f18_zpowk"),
    // complex(8) arrays (`runtime/fortran.c`, "complex(8) arrays").
    ("CppSumComplex8", "__fz_f18_sum_c8"),
    ("CppProductComplex8", "__fz_f18_product_c8"),
    ("CppDotProductComplex8", "__fz_f18_dot_c8"),
    ("MatmulComplex8Complex8", "__fz_f18_matmul_c8"),
    // complex(4): `z**k` (a `<2 x float>` by value, as clang passes `_Complex float`) and
    // the same array routines.
    ("cpowi", "__fz_f18_cpowi"),
    ("cpowk", "__fz_f18_cpowk"),
    ("CppSumComplex4", "__fz_f18_sum_c4"),
    ("CppProductComplex4", "__fz_f18_product_c4"),
    ("CppDotProductComplex4", "__fz_f18_dot_c4"),
    ("MatmulComplex4Complex4", "__fz_f18_matmul_c4"),
];

/// The implementations of one routine for a single real kind of its source array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KindVersions {
    /// The argument holding the source array's descriptor.
    pub source: usize,
    /// The implementation that reads the source as real(8) only.
    pub real8: &'static str,
    /// The implementation that reads the source as real(4) only.
    pub real4: &'static str,
}

/// Routines (without [`PREFIX`]) whose implementation has versions for one real kind,
/// which the pass calls where the IR fixes the source descriptor's type code. The
/// generic implementation reads the source as floats and as doubles by the run-time
/// type code; type analysis sees both, so an array that flang also copies with `memcpy`
/// has bytes of unknown type (tests/fortran/108 at -O2). `Assign` and copy-in/copy-out
/// have their own choice (more cases than the two kinds: `ferrozyme_transform::fortran`).
const KIND_VERSIONS: &[(&str, KindVersions)] = &[
    (
        "Spread",
        KindVersions {
            source: 1,
            real8: "__fz_f18_spread_r8",
            real4: "__fz_f18_spread_r4",
        },
    ),
    (
        "Pack",
        KindVersions {
            source: 1,
            real8: "__fz_f18_pack_r8",
            real4: "__fz_f18_pack_r4",
        },
    ),
];

/// The one-kind versions of flang routine `name`'s implementation ([`KIND_VERSIONS`]).
pub fn kind_versions(name: &str) -> Option<KindVersions> {
    let rest = name.strip_prefix(PREFIX)?;
    KIND_VERSIONS
        .iter()
        .find(|(n, _)| *n == rest)
        .map(|(_, v)| *v)
}

/// Families, by name prefix (without [`PREFIX`]); the longest matching prefix wins.
const FAMILIES: &[(&str, FortranRule)] = &[
    // Input overwrites program variables with values read from outside: their derivative
    // must become zero, which an inactive copy would not do.
    (
        "ioInput",
        FortranRule::Unsupported {
            why: "input statements overwrite variables inside differentiated code",
        },
    ),
    ("io", FortranRule::Inactive { why: IO }),
    // Finalization of a derived-type variable with allocatable components (a local going
    // out of scope, an `intent(out)` dummy on entry): flang's own routine frees the
    // components after the reverse sweep, of the variable and of its shadow (whose
    // descriptors the shadow's stores built alike). FINAL procedures run then too.
    (
        "Destroy",
        FortranRule::Deallocation {
            why: "it deallocates the allocatable components of a derived-type variable (a local at the end of its scope, or an intent(out) argument on entry), which the reverse sweep still reads",
        },
    ),
    ("ProgramStart", FortranRule::Inactive { why: CONTROL }),
    (
        "ProgramEndStatement",
        FortranRule::Inactive { why: CONTROL },
    ),
    ("StopStatement", FortranRule::Inactive { why: CONTROL }),
    ("PauseStatement", FortranRule::Inactive { why: CONTROL }),
    ("FailImageStatement", FortranRule::Inactive { why: CONTROL }),
    ("Exit", FortranRule::Inactive { why: CONTROL }),
    ("Abort", FortranRule::Inactive { why: CONTROL }),
    (
        "ReportFatalUserError",
        FortranRule::Inactive { why: CONTROL },
    ),
    ("CpuTime", FortranRule::Inactive { why: CLOCKS }),
    ("SystemClock", FortranRule::Inactive { why: CLOCKS }),
    ("DateAndTime", FortranRule::Inactive { why: CLOCKS }),
    ("Etime", FortranRule::Inactive { why: CLOCKS }),
    ("Secnds", FortranRule::Inactive { why: CLOCKS }),
    ("Dsecnds", FortranRule::Inactive { why: CLOCKS }),
    ("time", FortranRule::Inactive { why: CLOCKS }),
    ("Size", FortranRule::Inactive { why: INQUIRY }),
    ("Lbound", FortranRule::Inactive { why: INQUIRY }),
    ("Ubound", FortranRule::Inactive { why: INQUIRY }),
    ("Shape", FortranRule::Inactive { why: INQUIRY }),
    ("IsContiguous", FortranRule::Inactive { why: INQUIRY }),
    ("IsAssumedSize", FortranRule::Inactive { why: INQUIRY }),
    (
        "PointerIsAssociated",
        FortranRule::Inactive { why: INQUIRY },
    ),
    ("ArgumentCount", FortranRule::Inactive { why: INQUIRY }),
    ("Selected", FortranRule::Inactive { why: INQUIRY }),
    ("ExtendsTypeOf", FortranRule::Inactive { why: INQUIRY }),
    ("SameTypeAs", FortranRule::Inactive { why: INQUIRY }),
    ("ClassIs", FortranRule::Inactive { why: INQUIRY }),
    ("SupportHalting", FortranRule::Inactive { why: INQUIRY }),
    ("ByteswapOption", FortranRule::Inactive { why: INQUIRY }),
    ("GetModesTypeSize", FortranRule::Inactive { why: INQUIRY }),
    ("GetStatusTypeSize", FortranRule::Inactive { why: INQUIRY }),
    ("ShowDescriptor", FortranRule::Inactive { why: INQUIRY }),
    (
        "Count",
        FortranRule::Inactive {
            why: INTEGER_RESULT,
        },
    ),
    (
        "All",
        FortranRule::Inactive {
            why: INTEGER_RESULT,
        },
    ),
    (
        "Any",
        FortranRule::Inactive {
            why: INTEGER_RESULT,
        },
    ),
    (
        "Parity",
        FortranRule::Inactive {
            why: INTEGER_RESULT,
        },
    ),
    (
        "IAll",
        FortranRule::Inactive {
            why: INTEGER_RESULT,
        },
    ),
    (
        "IAny",
        FortranRule::Inactive {
            why: INTEGER_RESULT,
        },
    ),
    (
        "IParity",
        FortranRule::Inactive {
            why: INTEGER_RESULT,
        },
    ),
    // SUM, PRODUCT, MAXVAL and MINVAL of integer arrays (`product(shape(a))`): integer
    // results (the DIM= versions are implemented: their real data are differentiated).
    (
        "SumInteger",
        FortranRule::Inactive {
            why: INTEGER_RESULT,
        },
    ),
    (
        "ProductInteger",
        FortranRule::Inactive {
            why: INTEGER_RESULT,
        },
    ),
    (
        "MaxvalInteger",
        FortranRule::Inactive {
            why: INTEGER_RESULT,
        },
    ),
    (
        "MinvalInteger",
        FortranRule::Inactive {
            why: INTEGER_RESULT,
        },
    ),
    (
        "Findloc",
        FortranRule::Inactive {
            why: INTEGER_RESULT,
        },
    ),
    (
        "Maxloc",
        FortranRule::Inactive {
            why: INTEGER_RESULT,
        },
    ),
    (
        "Minloc",
        FortranRule::Inactive {
            why: INTEGER_RESULT,
        },
    ),
    (
        "IsNaN",
        FortranRule::Inactive {
            why: INTEGER_RESULT,
        },
    ),
    (
        "IsFinite",
        FortranRule::Inactive {
            why: INTEGER_RESULT,
        },
    ),
    (
        "Exponent",
        FortranRule::Inactive {
            why: INTEGER_RESULT,
        },
    ),
    (
        "Nint",
        FortranRule::Inactive {
            why: INTEGER_RESULT,
        },
    ),
    (
        "Ceiling",
        FortranRule::Inactive {
            why: INTEGER_RESULT,
        },
    ),
    (
        "Floor",
        FortranRule::Inactive {
            why: INTEGER_RESULT,
        },
    ),
    ("Character", FortranRule::Inactive { why: CHARACTERS }),
    ("Trim", FortranRule::Inactive { why: CHARACTERS }),
    ("Adjustl", FortranRule::Inactive { why: CHARACTERS }),
    ("Adjustr", FortranRule::Inactive { why: CHARACTERS }),
    ("Repeat", FortranRule::Inactive { why: CHARACTERS }),
    ("Index", FortranRule::Inactive { why: CHARACTERS }),
    ("Scan", FortranRule::Inactive { why: CHARACTERS }),
    ("Verify", FortranRule::Inactive { why: CHARACTERS }),
    ("LenTrim", FortranRule::Inactive { why: CHARACTERS }),
    // TRANSFER (and the size-giving TransferSize) allocates a result of another type
    // holding the source's bytes.
    (
        "Transfer",
        FortranRule::Unsupported {
            why: "TRANSFER reinterprets the bytes of its source as another type: the derivative of a real does not follow its bits into integers or characters and back",
        },
    ),
    ("RandomInit", FortranRule::Inactive { why: ENVIRONMENT }),
    ("RandomSeed", FortranRule::Inactive { why: ENVIRONMENT }),
    (
        "RandomNumber",
        FortranRule::Unsupported {
            why: "RANDOM_NUMBER overwrites real variables inside differentiated code",
        },
    ),
    ("Rand", FortranRule::Inactive { why: ENVIRONMENT }),
    ("Irand", FortranRule::Inactive { why: ENVIRONMENT }),
    ("feclearexcept", FortranRule::Inactive { why: ENVIRONMENT }),
    (
        "fedisableexcept",
        FortranRule::Inactive { why: ENVIRONMENT },
    ),
    ("feenableexcept", FortranRule::Inactive { why: ENVIRONMENT }),
    ("fegetexcept", FortranRule::Inactive { why: ENVIRONMENT }),
    ("feraiseexcept", FortranRule::Inactive { why: ENVIRONMENT }),
    ("fetestexcept", FortranRule::Inactive { why: ENVIRONMENT }),
    (
        "SetUnderflowMode",
        FortranRule::Inactive { why: ENVIRONMENT },
    ),
    (
        "GetUnderflowMode",
        FortranRule::Inactive { why: ENVIRONMENT },
    ),
    ("MapException", FortranRule::Inactive { why: ENVIRONMENT }),
    ("GetCommand", FortranRule::Inactive { why: ENVIRONMENT }),
    ("GetEnvVariable", FortranRule::Inactive { why: ENVIRONMENT }),
    ("GetCwd", FortranRule::Inactive { why: ENVIRONMENT }),
    ("GetPID", FortranRule::Inactive { why: ENVIRONMENT }),
    ("GetGID", FortranRule::Inactive { why: ENVIRONMENT }),
    ("GetUID", FortranRule::Inactive { why: ENVIRONMENT }),
    ("Hostnm", FortranRule::Inactive { why: ENVIRONMENT }),
    ("Chdir", FortranRule::Inactive { why: ENVIRONMENT }),
    ("Rename", FortranRule::Inactive { why: ENVIRONMENT }),
    ("Unlink", FortranRule::Inactive { why: ENVIRONMENT }),
    ("PutEnv", FortranRule::Inactive { why: ENVIRONMENT }),
    ("Signal", FortranRule::Inactive { why: ENVIRONMENT }),
    ("Perror", FortranRule::Inactive { why: ENVIRONMENT }),
    ("Sleep", FortranRule::Inactive { why: ENVIRONMENT }),
    ("Flush", FortranRule::Inactive { why: ENVIRONMENT }),
    ("Fseek", FortranRule::Inactive { why: ENVIRONMENT }),
    ("Ftell", FortranRule::Inactive { why: ENVIRONMENT }),
    (
        "ExecuteCommandLine",
        FortranRule::Inactive { why: ENVIRONMENT },
    ),
    (
        "RegisterConfigureEnv",
        FortranRule::Inactive { why: ENVIRONMENT },
    ),
];

/// What the rest of the flang runtime is: not differentiated (yet).
const DEFAULT_UNSUPPORTED: FortranRule = FortranRule::Unsupported {
    why: "this routine of flang's runtime library has no derivative in Ferrozyme",
};

/// The rule for a called function's name, when it is part of flang's runtime (or the
/// inactive alias of `Assign` the implementations use).
pub fn fortran_rule(name: &str) -> Option<FortranRule> {
    if INACTIVE_ALIASES.iter().any(|(alias, _)| *alias == name) {
        return Some(FortranRule::Inactive {
            why: "assignment or array constructor of integer, logical or character data",
        });
    }
    if name == ASSIGN_DERIVED {
        return Some(FortranRule::Unsupported {
            why: ASSIGN_DERIVED_WHY,
        });
    }
    let rest = name.strip_prefix(PREFIX)?;
    if let Some((_, by)) = IMPLEMENTED.iter().find(|(n, _)| *n == rest) {
        return Some(FortranRule::Implemented { by });
    }
    // The prefix must end the name or be followed by a new word (an upper-case letter,
    // a digit or `_`): `Rand` is not a prefix of `RandomNumber`.
    let at_boundary = |p: &str| {
        rest.strip_prefix(p)
            .is_some_and(|tail| tail.chars().next().is_none_or(|c| !c.is_ascii_lowercase()))
    };
    let family = FAMILIES
        .iter()
        .filter(|(p, _)| at_boundary(p))
        .max_by_key(|(p, _)| p.len())
        .map(|(_, r)| *r);
    Some(family.unwrap_or(DEFAULT_UNSUPPORTED))
}

/// Inactive routines (names without [`PREFIX`]) whose first argument is the descriptor of
/// a result they allocate, or of an accumulator they reallocate, and fill with characters,
/// integers or logicals (never reals): they write the base address of fresh memory into
/// that descriptor. Exact names here; [`INACTIVE_RESULT_FAMILIES`] adds every kind of
/// `MAXLOC`/`MINLOC`. The library has no IR and writes only the primal descriptor, so
/// both analyses read this list: type analysis learns that the base address (offset 0)
/// leads to integers (else a copy of the result, flang's `memcpy` of `'loss = ' //
/// trim(buf)` into a temporary, is memory nothing is known about: tests/fortran/93 at
/// -O2), and activity gives an address loaded from such a descriptor no shadow (the
/// shadow descriptor's slot is never written: a copy from and a `free` of it crashed the
/// derivative of tests/fortran/89 at -O0; tests/fortran/106, 107). The scalar versions
/// (`Index1`, `LenTrim1`, `Count`, `All`...) return their result and are not listed.
const INACTIVE_RESULTS: &[&str] = &[
    // Character results: TRIM, ADJUSTL, ADJUSTR, REPEAT; `//` into an allocatable
    // accumulator, MAX/MIN of characters.
    "Trim",
    "Adjustl",
    "Adjustr",
    "Repeat",
    "CharacterConcatenate",
    "CharacterConcatenateScalar1",
    "CharacterMax",
    "CharacterMin",
    // Integer and logical results of elemental character functions on arrays.
    "CharacterCompare",
    "LenTrim",
    "Index",
    "Scan",
    "Verify",
    // Locations and reductions of logicals/integers along a dimension.
    "Findloc",
    "FindlocDim",
    "CountDim",
    "AllDim",
    "AnyDim",
    "ParityDim",
    "IAllDim",
    "IAnyDim",
    "IParityDim",
];

/// Families of [`INACTIVE_RESULTS`], by name prefix: `MaxlocReal8`, `MaxlocDim`,
/// `MinlocInteger4`, `MaxlocCharacter`... all take the result descriptor first.
const INACTIVE_RESULT_FAMILIES: &[&str] = &["Maxloc", "Minloc"];

/// Is `name` one of the inactive assignments ([`ASSIGN_INACTIVE`],
/// [`ASSIGN_TEMPORARY_INACTIVE`]): the pass chose it because the source's type code is an
/// integer, logical or character one, so both descriptors' data are such data.
pub fn assigns_inactive_data(name: &str) -> bool {
    name == ASSIGN_INACTIVE || name == ASSIGN_TEMPORARY_INACTIVE
}

/// Does `name` allocate the data of its first argument's descriptor (a result or an
/// accumulator) and write its address there, data without derivatives
/// ([`INACTIVE_RESULTS`])? [`ASSIGN_INACTIVE`] does too: flang's `Assign` of integer,
/// logical or character data (re)allocates an allocatable left-hand side (`tag = tag //
/// 'p'` of a deferred-length character: tests/fortran/107).
pub fn fills_inactive_result(name: &str) -> bool {
    assigns_inactive_data(name)
        || name.strip_prefix(PREFIX).is_some_and(|rest| {
            INACTIVE_RESULTS.contains(&rest)
                || INACTIVE_RESULT_FAMILIES.iter().any(|f| rest.starts_with(f))
        })
}

/// The help line of a [`FortranRule::Deallocation`] that cannot be moved after the
/// reverse sweep (in a loop, or in a function differentiated in split mode).
pub const DEALLOCATION_HELP: &str = "create derived-type variables with allocatable components outside loops of the differentiated routine, or outside it and pass them as intent(in) or intent(inout) arguments (enzyme_dup with a shadow allocated alike), or pass the arrays themselves";

/// The help line of an unsupported routine.
pub const UNSUPPORTED_HELP: &str = "compile the Fortran code with -O2 or higher (flang then expands SUM, DOT_PRODUCT, MAXVAL and array assignments inline), or write the operation as a loop over the elements; `ferrozyme rules` lists the flang routines that are differentiated";

/// The help line of TRANSFER (the general one says to compile with -O2, which keeps it).
const TRANSFER_HELP: &str = "keep real data in real variables inside the differentiated code and TRANSFER only integer, logical or character data; to copy reals, assign them to a real array of the same kind";

/// The help line of an unsupported routine `name` (its own for [`ASSIGN_DERIVED`] and
/// TRANSFER).
pub fn unsupported_help(name: &str) -> &'static str {
    if name == ASSIGN_DERIVED {
        ASSIGN_DERIVED_HELP
    } else if name
        .strip_prefix(PREFIX)
        .is_some_and(|r| r.starts_with("Transfer"))
    {
        TRANSFER_HELP
    } else {
        UNSUPPORTED_HELP
    }
}

/// Every routine with an implementation: (flang name, implementation).
pub fn implemented() -> impl Iterator<Item = (String, &'static str)> {
    IMPLEMENTED
        .iter()
        .map(|(n, by)| (format!("{PREFIX}{n}"), *by))
}

/// Every family row: (name prefix, rule), for the coverage document.
pub fn families() -> impl Iterator<Item = (String, FortranRule)> {
    FAMILIES.iter().map(|(p, r)| (format!("{PREFIX}{p}*"), *r))
}

#[cfg(test)]
mod tests;
