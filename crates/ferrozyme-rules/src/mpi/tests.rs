use super::*;

#[test]
fn rows_and_families() {
    assert_eq!(mpi_rule("MPI_Send"), Some(MpiRule::Send));
    assert_eq!(mpi_rule("PMPI_Allreduce"), Some(MpiRule::Allreduce));
    assert!(matches!(
        mpi_rule("MPI_Comm_rank"),
        Some(MpiRule::Inactive { .. })
    ));
    assert_eq!(mpi_rule("MPI_Alltoallw"), Some(UNSUPPORTED));
    assert!(matches!(
        mpi_rule("MPI_Iprobe"),
        Some(MpiRule::Inactive { .. })
    ));
    assert_eq!(mpi_rule("MPI_Mprobe"), Some(UNSUPPORTED));
    assert_eq!(
        mpi_rule("MPI_Exscan"),
        Some(MpiRule::Composed {
            by: "__fz_mpic_exscan"
        })
    );
    assert_eq!(mpi_rule("MPI_Ssend"), Some(MpiRule::Send));
    assert_eq!(mpi_rule("MPI_Rsend"), Some(MpiRule::Send));
    assert_eq!(mpi_rule("MPI_Irsend"), Some(MpiRule::Isend));
    assert_eq!(mpi_rule("MPI_Issend"), Some(MpiRule::Issend));
    assert_eq!(mpi_rule("MPI_Ibsend"), Some(MpiRule::Ibsend));
    assert_eq!(mpi_rule("MPI_Bsend"), Some(MpiRule::Bsend));
    assert_eq!(mpi_rule("MPI_Ibarrier"), Some(MpiRule::Ibarrier));
    assert!(matches!(
        mpi_rule("MPI_Buffer_detach"),
        Some(MpiRule::Inactive { .. })
    ));
    assert_eq!(mpi_rule("MPI_Ssend_init"), Some(MpiRule::SendInit));
    assert_eq!(mpi_rule("MPI_Startall"), Some(MpiRule::Startall));
    assert!(matches!(
        mpi_rule("MPI_Bsend_init"),
        Some(MpiRule::Unsupported { .. })
    ));
    assert_eq!(mpi_rule("MPI_Sendrecv"), Some(MpiRule::Sendrecv));
    assert!(matches!(
        mpi_rule("MPI_Comm_split"),
        Some(MpiRule::Inactive { .. })
    ));
    assert!(matches!(
        mpi_rule("MPI_Comm_free"),
        Some(MpiRule::HandleFree { .. })
    ));
    assert!(matches!(
        mpi_rule("mpi_type_free_"),
        Some(MpiRule::HandleFree { .. })
    ));
    assert!(matches!(
        mpi_rule("mpi_comm_split_"),
        Some(MpiRule::Inactive { .. })
    ));
    assert_eq!(
        mpi_rule("mpi_send_"),
        Some(MpiRule::Fortran {
            by: "__fz_mpif_send"
        })
    );
    assert!(matches!(
        mpi_rule("mpi_wtime_"),
        Some(MpiRule::Inactive { .. })
    ));
    assert_eq!(
        mpi_rule("mpi_test_"),
        Some(MpiRule::Fortran {
            by: "__fz_mpif_test"
        })
    );
    assert_eq!(mpi_rule("mpi_testany_"), Some(FORTRAN_UNSUPPORTED));
    assert_eq!(
        mpi_rule("mpi_startall_"),
        Some(MpiRule::Fortran {
            by: "__fz_mpif_startall"
        })
    );
    assert_eq!(mpi_rule("mpi_bsend_init_"), Some(FORTRAN_UNSUPPORTED));
    assert_eq!(
        mpi_rule("MPI_Waitany"),
        Some(MpiRule::Composed {
            by: "__fz_mpic_waitany"
        })
    );
    assert_eq!(mpi_rule("mpi_send"), None);
    assert_eq!(mpi_rule("mpi__"), None);
    assert_eq!(mpi_rule("PMPIX"), None);
}

#[test]
fn buffers_and_datatypes() {
    assert_eq!(MpiRule::Allreduce.buffers(), &[(0, 3), (1, 3)]);
    assert_eq!(MpiRule::Recv.buffers(), &[(0, 2)]);
    assert_eq!(MpiRule::Sendrecv.buffers(), &[(0, 2), (5, 7)]);
    assert_eq!(MpiRule::Gather.buffers(), &[(0, 2), (3, 5)]);
    assert!(MpiRule::Wait.buffers().is_empty());
    assert_eq!(datatype("ompi_mpi_double"), Some(Some(8)));
    assert_eq!(datatype("ompi_mpi_float"), Some(Some(4)));
    assert_eq!(datatype("ompi_mpi_int"), Some(None));
    assert_eq!(datatype("x"), None);
    let int = || Some("ompi_mpi_int".to_string());
    assert!(inactive_by_datatypes("MPI_Exscan", &[int()]));
    assert!(!inactive_by_datatypes(
        "MPI_Exscan",
        &[Some("ompi_mpi_double".into())]
    ));
    assert!(!inactive_by_datatypes("MPI_Alltoall", &[int(), None]));
    assert!(!inactive_by_datatypes("MPI_Allreduce", &[int()]));
    assert_eq!(composed_of_fortran("mpi_exscan_"), Some("MPI_Exscan"));
    assert!(is_window_operation_impl("__fz_mpic_put"));
    assert!(runtime_function_with_rule("__fz_mpic_rma_put"));
    assert!(runtime_function_with_rule("__fz_mpic_rma_sync"));
    assert!(!runtime_function_with_rule("__fz_mpic_put"));
    assert_eq!(mpi_rule("__fz_mpic_rma_get"), Some(MpiRule::RmaGet));
    assert!(!is_window_operation_impl("__fz_mpic_win_create"));
    assert!(!is_window_operation_impl("MPI_Put"));
    let acc = onesided_op("__fz_mpic_accumulate").unwrap();
    assert_eq!((acc.datatype, acc.op), (2, 7));
    assert!(acc.differentiated.contains(&"ompi_mpi_op_replace"));
    let fop = onesided_op("__fz_mpic_fetch_and_op").unwrap();
    assert_eq!(fop.routine, "MPI_Fetch_and_op");
    assert_eq!(fop.differentiated, &["ompi_mpi_op_no_op"]);
    assert!(onesided_op("MPI_Put").is_none());
    let red = reduction_op("__fz_mpic_iallreduce").unwrap();
    assert_eq!(
        (red.routine, red.datatype, red.op),
        ("MPI_Iallreduce", 3, 4)
    );
    assert!(!red.differentiated.contains(&"ompi_mpi_op_prod"));
    assert!(reduction_op("MPI_Allreduce")
        .unwrap()
        .differentiated
        .contains(&"ompi_mpi_op_maxloc"));
    assert!(reduction_op("MPI_Scan").is_none());
    assert!(matches!(
        mpi_rule("MPI_Compare_and_swap"),
        Some(MpiRule::Unsupported { why }) if why.contains("not differentiable")
    ));
    assert!(fortran_datatype_without_reals(7)); // MPI_INTEGER
    assert!(!fortran_datatype_without_reals(17)); // MPI_DOUBLE_PRECISION
    assert!(!fortran_datatype_without_reals(13)); // MPI_REAL
}

/// hpc43: the nonblocking scans and reduce-scatters are composed like the other
/// nonblocking collectives (C and Fortran), keep the blocking forms' operations, and
/// packing into MPI_PACKED buffers is refused with its reason.
#[test]
fn nonblocking_scans_and_packing() {
    for (c, by) in [
        ("MPI_Iscan", "__fz_mpic_iscan"),
        ("MPI_Iexscan", "__fz_mpic_iexscan"),
        (
            "MPI_Ireduce_scatter_block",
            "__fz_mpic_ireduce_scatter_block",
        ),
        ("MPI_Ireduce_scatter", "__fz_mpic_ireduce_scatter"),
    ] {
        assert_eq!(mpi_rule(c), Some(MpiRule::Composed { by }));
        assert_eq!(handle_args(c), &[3, 4, 5]);
        assert_eq!(composed_datatype_args(c), &[3]);
    }
    assert_eq!(
        mpi_rule("mpi_iexscan_"),
        Some(MpiRule::Fortran {
            by: "__fz_mpif_iexscan"
        })
    );
    let rs = reduction_op("__fz_mpic_ireduce_scatter_block").unwrap();
    assert_eq!(rs.routine, "MPI_Ireduce_scatter_block");
    assert!(!rs.differentiated.contains(&"ompi_mpi_op_prod"));
    assert!(reduction_op("MPI_Iscan").is_none());
    assert!(matches!(
        mpi_rule("MPI_Unpack"),
        Some(MpiRule::Unsupported { why }) if why.contains("MPI_PACKED")
    ));
    assert!(matches!(
        mpi_rule("MPI_Pack_size"),
        Some(MpiRule::Inactive { .. })
    ));
}
