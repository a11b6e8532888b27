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

#[cfg(all(test, target_os = "linux"))]
mod tests {
    /// After the call the kernel reports huge pages off for the process
    /// (`THP_enabled: 0` in `/proc/self/status`, Linux 6.x; older kernels lack the line).
    #[test]
    fn the_kernel_reports_them_off() {
        assert!(super::disable_transparent_huge_pages());
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        if let Some(line) = status.lines().find(|l| l.starts_with("THP_enabled:")) {
            assert_eq!(line.split_whitespace().nth(1), Some("0"), "{line}");
        }
    }
}
