//! CPU time for `--time-passes` (the one system call the timing needs, kept with the
//! crate's other `unsafe` code).
//!
//! `cpu_time` is the CPU time of the process (all its threads: code generation may run
//! on several, `split_codegen`) plus that of the finished child processes it waited for (`ferrozyme cc`'s clang runs): the work a phase did,
//! which other programs on a busy machine do not inflate the way they inflate wall time.

use std::time::Duration;

fn duration(sec: i64, nsec: i64) -> Duration {
    Duration::new(sec.max(0) as u64, nsec.clamp(0, 999_999_999) as u32)
}

/// CPU time of this process (every thread) and of its waited-for children; zero where
/// the system does not say.
pub fn cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the call only writes it.
    let process = if unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) } == 0 {
        duration(ts.tv_sec as i64, ts.tv_nsec as i64)
    } else {
        Duration::ZERO
    };
    // SAFETY: `rusage` is plain old data; getrusage only writes the struct we pass.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    let children = if unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut ru) } == 0 {
        duration(ru.ru_utime.tv_sec as i64, ru.ru_utime.tv_usec as i64 * 1000)
            + duration(ru.ru_stime.tv_sec as i64, ru.ru_stime.tv_usec as i64 * 1000)
    } else {
        Duration::ZERO
    };
    process + children
}
