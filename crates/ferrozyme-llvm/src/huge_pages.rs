//! Transparent huge pages off for the whole process (the one OS setting `ferrozyme`
//! changes about itself; here because it is the crate that may call the C library).

/// Asks the kernel for no transparent huge pages in this process from now on
/// (`prctl(PR_SET_THP_DISABLE)`). The kernel checks the flag at each page fault, so it
/// also covers memory mapped before the call, and it is inherited by the processes the
/// caller starts. Returns whether the kernel accepted it (it does not exist before
/// Linux 3.15, nor outside Linux).
pub fn disable_transparent_huge_pages() -> bool {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: `prctl` with `PR_SET_THP_DISABLE` reads its integer arguments only and
        // touches no memory of the process.
        unsafe { libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0) == 0 }
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}
