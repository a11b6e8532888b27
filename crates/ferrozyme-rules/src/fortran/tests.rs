use super::*;

#[test]
fn inactive_results_are_inactive_routines() {
    let families = INACTIVE_RESULT_FAMILIES
        .iter()
        .flat_map(|f| ["Real8", "Integer4", "Dim", "Character"].map(|k| format!("{f}{k}")));
    for name in INACTIVE_RESULTS
        .iter()
        .map(|n| n.to_string())
        .chain(families)
    {
        let full = format!("{PREFIX}{name}");
        assert!(fills_inactive_result(&full), "{full}");
        assert!(
            matches!(fortran_rule(&full), Some(FortranRule::Inactive { .. })),
            "{full} must be inactive to be listed"
        );
    }
    // Scalar versions return their result; real results are implemented instead.
    for full in [
        "_FortranALenTrim1",
        "_FortranAIndex1",
        "_FortranACount",
        "_FortranAAll",
        "_FortranAMaxvalDim",
        "_FortranAReshape",
        "Trim",
    ] {
        assert!(!fills_inactive_result(full), "{full}");
    }
}

#[test]
fn exact_rows_win_over_families() {
    assert_eq!(
        fortran_rule("_FortranASumReal8"),
        Some(FortranRule::Implemented {
            by: "__fz_f18_sum_r8"
        })
    );
    // `Sum` of real(16) is not implemented: the default, not a family.
    assert_eq!(
        fortran_rule("_FortranASumReal16"),
        Some(DEFAULT_UNSUPPORTED)
    );
    // Integer reductions have integer results (f43: `product(shape(a))`).
    for name in [
        "_FortranASumInteger4",
        "_FortranAProductInteger8",
        "_FortranAMaxvalInteger4",
        "_FortranAMinvalInteger16",
    ] {
        assert!(
            matches!(fortran_rule(name), Some(FortranRule::Inactive { .. })),
            "{name}"
        );
    }
    assert!(matches!(
        fortran_rule("_FortranAMaxlocDim"),
        Some(FortranRule::Inactive { .. })
    ));
    assert!(matches!(
        fortran_rule("_FortranADestroy"),
        Some(FortranRule::Deallocation { .. })
    ));
    assert!(matches!(
        fortran_rule("_FortranADestroyWithoutFinalization"),
        Some(FortranRule::Deallocation { .. })
    ));
    assert!(matches!(
        fortran_rule("__fz_f18_ctor_push_inactive"),
        Some(FortranRule::Inactive { .. })
    ));
}

#[test]
fn families_match_at_word_boundaries() {
    // `All` does not match `AllocatableDeallocatePolymorphic`.
    assert_eq!(
        fortran_rule("_FortranAAllocatableDeallocatePolymorphic"),
        Some(DEFAULT_UNSUPPORTED)
    );
    assert!(matches!(
        fortran_rule("_FortranAAllDim"),
        Some(FortranRule::Inactive { .. })
    ));
    assert!(matches!(
        fortran_rule("_FortranAFloor8_4"),
        Some(FortranRule::Inactive { .. })
    ));
    assert!(matches!(
        fortran_rule("_FortranAfeclearexcept"),
        Some(FortranRule::Inactive { .. })
    ));
}

#[test]
fn io_output_is_inactive_and_input_is_not() {
    assert!(matches!(
        fortran_rule("_FortranAioOutputReal64"),
        Some(FortranRule::Inactive { .. })
    ));
    assert!(matches!(
        fortran_rule("_FortranAioBeginExternalListOutput"),
        Some(FortranRule::Inactive { .. })
    ));
    assert!(matches!(
        fortran_rule("_FortranAioInputReal64"),
        Some(FortranRule::Unsupported { .. })
    ));
}

#[test]
fn unknown_runtime_names_are_unsupported_and_others_are_not_fortran() {
    assert_eq!(fortran_rule("_FortranABesselJn"), Some(DEFAULT_UNSUPPORTED));
    assert_eq!(
        fortran_rule("_FortranARandomNumber").map(|r| matches!(r, FortranRule::Unsupported { .. })),
        Some(true)
    );
    assert_eq!(fortran_rule("printf"), None);
    assert_eq!(fortran_rule("sum_"), None);
    assert!(matches!(
        fortran_rule(ASSIGN_INACTIVE),
        Some(FortranRule::Inactive { .. })
    ));
    assert!(matches!(
        fortran_rule(ASSIGN_DERIVED),
        Some(FortranRule::Unsupported { why }) if why.contains("derived type")
    ));
    assert_eq!(unsupported_help(ASSIGN_DERIVED), ASSIGN_DERIVED_HELP);
    for t in ["_FortranATransfer", "_FortranATransferSize"] {
        assert!(
            matches!(fortran_rule(t), Some(FortranRule::Unsupported { why }) if why.contains("TRANSFER")),
            "{t}"
        );
        assert_eq!(unsupported_help(t), TRANSFER_HELP);
    }
}

#[test]
fn implementations_are_named_for_the_transform_runtime() {
    for (name, by) in implemented() {
        assert!(by.starts_with("__fz_f18_"), "{name} -> {by}");
    }
}

#[test]
fn kind_versions_belong_to_implemented_routines() {
    for (name, v) in KIND_VERSIONS {
        let full = format!("{PREFIX}{name}");
        let Some(FortranRule::Implemented { by }) = fortran_rule(&full) else {
            panic!("{full} must be implemented to have one-kind versions");
        };
        assert_eq!(kind_versions(&full), Some(*v));
        assert_eq!(v.real8, format!("{by}_r8"), "{full}");
        assert_eq!(v.real4, format!("{by}_r4"), "{full}");
        assert!(v.source > 0, "{full}: argument 0 is the result");
    }
    assert_eq!(kind_versions("_FortranAReshape"), None);
}
