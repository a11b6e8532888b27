//! Ferrozyme as an LLVM pass plugin, for LLVM's own tools:
//!
//! ```text
//! clang-22 -fpass-plugin=target/release/libferrozyme_plugin.so -O2 prog.c -o prog
//! opt-22 -load-pass-plugin=target/release/libferrozyme_plugin.so -passes=ferrozyme in.ll -S
//! ```
//!
//! The pass also answers to `-passes=enzyme`, so scripts written for Enzyme run unchanged.
//! Registration with the PassBuilder is C++ (`src/plugin.cpp`, built by `build.rs`); this
//! file holds the C entry points: `llvmGetPassPluginInfo`, which LLVM looks up when it
//! loads the plugin, `ferrozyme_plugin_run`, which the C++ pass calls on each module, and
//! `ferrozyme_plugin_option_*`, from which the C++ side registers Enzyme's `-enzyme-*`
//! command-line options (`ferrozyme_abi::options`).
//!
//! Setting `FERROZYME_PLUGIN_TRACE=1` makes the plugin print `ferrozyme: pass ran on
//! <module id>` to stderr each time the pass runs (a plugin-only debugging aid: it shows
//! the pass really is in clang's pipeline).
//!
//! The plugin links the shared libLLVM (`llvm-sys` with `prefer-dynamic`), the same
//! library clang-22 and opt-22 use, so module handles can cross the boundary.
//!
//! `unsafe` here is the FFI boundary and nothing else: the two `extern "C"` entry points
//! (raw pointers in from the C++ shim, a module handle wrapped with `Module::from_raw`, a
//! `malloc`'d error string out), each block with its `// SAFETY:` reason. Every use of
//! LLVM's API, safe or not, stays in `ferrozyme-llvm`; panics never cross the boundary
//! (`catch_unwind` turns them into an error the shim reports through LLVM).

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::OnceLock;

mod records;

use ferrozyme_transform::enzyme_options::{EnzymeSettings, OptKind, ENZYME_OPTIONS};
use ferrozyme_transform::{Module, Options};
use llvm_sys::prelude::{LLVMModuleRef, LLVMValueRef};

/// Mirror of LLVM 22's `llvm::PassPluginLibraryInfo` (llvm/Plugins/PassPlugin.h); the
/// C++ side static_asserts that the layouts agree.
#[repr(C)]
pub struct PassPluginLibraryInfo {
    api_version: u32,
    plugin_name: *const c_char,
    plugin_version: *const c_char,
    register_pass_builder_callbacks: *const c_void,
    pre_codegen_callback: *const c_void,
}

extern "C" {
    fn ferrozyme_plugin_info(info: *mut PassPluginLibraryInfo);
}

/// The entry point LLVM's `PassPlugin::Load` looks for.
#[no_mangle]
pub extern "C" fn llvmGetPassPluginInfo() -> PassPluginLibraryInfo {
    let mut info = PassPluginLibraryInfo {
        api_version: 0,
        plugin_name: std::ptr::null(),
        plugin_version: std::ptr::null(),
        register_pass_builder_callbacks: std::ptr::null(),
        pre_codegen_callback: std::ptr::null(),
    };
    // SAFETY: src/plugin.cpp fills in every field of the struct it is given; the layout
    // is checked there with static_asserts.
    unsafe { ferrozyme_plugin_info(&mut info) };
    if let Some(lib) = foreign_llvm(&std::fs::read_to_string("/proc/self/maps").unwrap_or_default())
    {
        eprintln!(
            "ferrozyme: this plugin is built for LLVM 22 (clang-22, opt-22), but the program loading it uses {lib}: that program refuses the plugin (LLVM names no reason: \"Failed to load passes\" or \"Wrong API version\") or misbehaves\nhelp: load it into clang-22 (-fpass-plugin=...) or opt-22 (-load-pass-plugin=...), or compile with `ferrozyme cc`"
        );
    }
    info
}

/// A shared libLLVM of another major version than 22 among the libraries the process
/// has mapped (`/proc/self/maps`): the host that loads the plugin is another LLVM's tool
/// (Debian names them `libLLVM-14.so.1`, `libLLVM.so.22.1`). Hosts that link LLVM
/// statically are not recognised.
fn foreign_llvm(maps: &str) -> Option<String> {
    maps.lines()
        .filter_map(|l| l.split_whitespace().nth(5))
        .filter_map(|path| path.rsplit('/').next())
        .find(|name| {
            let Some(rest) = name.strip_prefix("libLLVM") else {
                return false;
            };
            let rest = rest
                .strip_prefix('-')
                .or_else(|| rest.strip_prefix(".so."))
                .unwrap_or("");
            let major: String = rest.chars().take_while(char::is_ascii_digit).collect();
            !major.is_empty() && major != "22"
        })
        .map(str::to_string)
}

/// Runs the AD pass on `m` with Enzyme's options `settings` (`n` words `name=value`, the
/// options given on the command line). Returns 0 on success (with `*changed_out` = 1
/// when derivative code was generated) and 1 on failure, with the diagnostics joined
/// into a `malloc`-allocated C string in `*err_out`; printouts the options ask for
/// (`-enzyme-print` ...) come back the same way in `*print_out` (null when none), and
/// the remarks (when `want_remarks` is non-zero) and the located error as records (see
/// `records.rs`) in `*records_out`. The caller frees all three with `free`.
/// `pipeline`: bit 0 when clang's pipeline vectorizes loops after the pass
/// (`Options::vectorized_loops`), bit 1 when its LoopUnroll runs after the pass
/// (`Options::loops_unpeeled`), bits 2-3 that LoopUnroll's optimization level (1-3). `*streams_out`: bit 0 when reverse stencil streams were
/// carried, bit 1 when some are exact (`Report::carried_streams`, `exact_streams`), for
/// the loop vectorizer's switches the C++ pass then sets as `ferrozyme cc` does.
///
/// # Safety
/// `m` must be a valid module for the duration of the call; `settings` must point to `n`
/// NUL-terminated strings (or be null with `n` = 0); `err_out`, `print_out`, `records_out` and
/// `changed_out`, `streams_out` must be valid for writes (or null, in which case that
/// output is dropped).
#[no_mangle]
pub unsafe extern "C" fn ferrozyme_plugin_run(
    m: LLVMModuleRef,
    settings: *const *const c_char,
    n: usize,
    want_remarks: c_int,
    pipeline: c_int,
    err_out: *mut *mut c_char,
    print_out: *mut *mut c_char,
    records_out: *mut *mut c_char,
    changed_out: *mut c_int,
    streams_out: *mut c_int,
) -> c_int {
    // SAFETY: the caller (the C++ pass) hands us the module it is running on; it stays
    // alive and unaliased by other passes until we return.
    let module = unsafe { Module::from_raw(m) };
    let words: Vec<String> = (0..n)
        .filter_map(|i| {
            // SAFETY: `settings` holds `n` valid C strings per this function's contract.
            let p = unsafe { *settings.add(i) };
            (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
        })
        .collect();
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let mut enzyme = EnzymeSettings::default();
        for w in &words {
            let (name, value) = w.split_once('=').unwrap_or((w.as_str(), ""));
            if let Err(e) = enzyme.apply(name, Some(value)) {
                return Err((
                    format!("error[bad-option]: {e}"),
                    String::new(),
                    String::new(),
                ));
            }
        }
        let opts = Options {
            enzyme,
            remarks: want_remarks != 0,
            check_source_attributes: true,
            vectorized_loops: pipeline & 1 != 0,
            loops_unpeeled: (pipeline & 2 != 0).then_some(((pipeline >> 2) & 3) as u8),
            ..Options::default()
        };
        // What the analyses printed before an error comes back with it.
        let report = ferrozyme_transform::run_keeping_printout(module, &opts).map_err(|f| {
            let text = f
                .diags
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join("\n");
            (text, records::error(module, &f.diags), f.printout)
        })?;
        // The pass does not see clang's level here: guarded packed indices keep the index
        // computed as before (`reverse/stepped_index.rs`; only -O3 would unswitch them).
        ferrozyme_transform::settle_guarded_indices(
            module,
            ferrozyme_transform::GuardedIndices::Folded,
        );
        Ok(report)
    }));
    let mut streams = 0;
    let (rc, changed, message, printout, records) = match outcome {
        Ok(Ok(report)) => (
            0,
            {
                streams = c_int::from(report.carried_streams > 0)
                    | (c_int::from(report.exact_streams > 0) << 1);
                !report.generated.is_empty()
            },
            None,
            report.printout,
            records::remarks(&report.remarks),
        ),
        Ok(Err((text, records, printout))) => (1, false, Some(text), printout, records),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            (
                1,
                false,
                Some(format!(
                    "error[internal-error]: the Ferrozyme pass panicked: {what}"
                )),
                String::new(),
                String::new(),
            )
        }
    };
    if !changed_out.is_null() {
        // SAFETY: non-null and valid for writes per this function's contract.
        unsafe { *changed_out = c_int::from(changed) };
    }
    if !streams_out.is_null() {
        // SAFETY: as for changed_out.
        unsafe { *streams_out = streams };
    }
    if let (Some(text), false) = (message, err_out.is_null()) {
        // SAFETY: err_out is non-null and valid for writes; the copy is NUL-terminated
        // and allocated with malloc, as the caller frees it with free.
        unsafe { *err_out = malloc_c_string(&text) };
    }
    if !printout.is_empty() && !print_out.is_null() {
        // SAFETY: as for err_out.
        unsafe { *print_out = malloc_c_string(&printout) };
    }
    if !records.is_empty() && !records_out.is_null() {
        // SAFETY: as for err_out.
        unsafe { *records_out = malloc_c_string(&records) };
    }
    rc
}

/// Enzyme's options as C strings for the C++ side: (name, description, default).
fn option_strings() -> &'static [(CString, CString, CString)] {
    static STRINGS: OnceLock<Vec<(CString, CString, CString)>> = OnceLock::new();
    STRINGS.get_or_init(|| {
        let c = |s: &str| CString::new(s.replace('\0', " ")).unwrap_or_default();
        ENZYME_OPTIONS
            .iter()
            .map(|o| (c(o.name), c(o.desc), c(o.default)))
            .collect()
    })
}

/// How many Enzyme options the plugin registers.
#[no_mangle]
pub extern "C" fn ferrozyme_plugin_option_count() -> usize {
    ENZYME_OPTIONS.len()
}

/// Option `i`: its name, kind (0 bool, 1 int, 2 string), description and default (static
/// C strings). Out-of-range `i` leaves the outputs alone.
///
/// # Safety
/// The four pointers must be valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ferrozyme_plugin_option(
    i: usize,
    name: *mut *const c_char,
    kind: *mut c_int,
    desc: *mut *const c_char,
    default: *mut *const c_char,
) {
    let (Some(o), Some(strings)) = (ENZYME_OPTIONS.get(i), option_strings().get(i)) else {
        return;
    };
    // SAFETY: valid for writes per this function's contract; the strings are static.
    unsafe {
        *name = strings.0.as_ptr();
        *desc = strings.1.as_ptr();
        *default = strings.2.as_ptr();
        *kind = match o.kind {
            OptKind::Bool => 0,
            OptKind::Int => 1,
            OptKind::Str => 2,
        };
    }
}

/// At the end of clang's optimization pipeline (after its loop vectorizer), in a module
/// the pass differentiated: vectorized recurrences of order 2+ read as one shuffle of
/// carried vectors (`ferrozyme_transform::fold_chained_splices`, as `ferrozyme cc` does
/// after its post-AD pipeline). Returns how many were folded.
///
/// # Safety
/// `m` must be a valid module for the duration of the call.
#[no_mangle]
pub unsafe extern "C" fn ferrozyme_plugin_fold_splices(m: LLVMModuleRef) -> usize {
    // SAFETY: the caller (the C++ pass) hands us the module it is running on; it stays
    // alive and unaliased by other passes until we return.
    let module = unsafe { Module::from_raw(m) };
    catch_unwind(AssertUnwindSafe(|| {
        ferrozyme_transform::fold_chained_splices(module)
    }))
    .unwrap_or(0)
}

/// Prepares `m` at the start of clang's optimization pipeline: functions with registered
/// derivatives get `noinline`, so the optimizer keeps their calls for the AD pass (see
/// `ferrozyme_transform::prepare_module`). Returns 1 when it changed the module.
///
/// # Safety
/// `m` must be a valid module for the duration of the call.
#[no_mangle]
pub unsafe extern "C" fn ferrozyme_plugin_prepare(m: LLVMModuleRef) -> c_int {
    // SAFETY: the caller (the C++ pass) hands us the module it is running on; it stays
    // alive and unaliased by other passes until we return.
    let module = unsafe { Module::from_raw(m) };
    let changed = catch_unwind(AssertUnwindSafe(|| {
        let names = ferrozyme_transform::registered_functions(module);
        ferrozyme_transform::prepare_module(module, &names);
        let kept = ferrozyme_transform::inline_barriers(module);
        ferrozyme_transform::keep_calls(module, &kept);
        let markers = ferrozyme_transform::keep_private_markers(module);
        !names.is_empty() || !kept.is_empty() || markers
    }));
    c_int::from(changed.unwrap_or(false))
}

/// The first hook call of `m` that differentiates a function whose body is in another
/// file, and that function (`ferrozyme_transform::call_into_other_module`): returns 1 and
/// fills both, or 0 when there is none.
///
/// # Safety
/// `m` must be a valid module for the duration of the call; `call_out` and `func_out`
/// valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ferrozyme_plugin_call_into_other_file(
    m: LLVMModuleRef,
    call_out: *mut LLVMValueRef,
    func_out: *mut LLVMValueRef,
) -> c_int {
    // SAFETY: as for `ferrozyme_plugin_prepare`; this only reads the module.
    let module = unsafe { Module::from_raw(m) };
    let found = catch_unwind(AssertUnwindSafe(|| {
        ferrozyme_transform::call_into_other_module(module)
    }));
    match found {
        Ok(Some((call, func))) => {
            // SAFETY: the caller passes pointers valid for writes.
            unsafe {
                *call_out = call.raw();
                *func_out = func.raw();
            }
            1
        }
        _ => 0,
    }
}

/// Copies `s` into a NUL-terminated `malloc` buffer (interior NULs become spaces).
unsafe fn malloc_c_string(s: &str) -> *mut c_char {
    let bytes: Vec<u8> = s.bytes().map(|b| if b == 0 { b' ' } else { b }).collect();
    // SAFETY: malloc with a non-zero size; on success we write len + 1 bytes into it.
    unsafe {
        let p = libc::malloc(bytes.len() + 1) as *mut u8;
        if p.is_null() {
            return std::ptr::null_mut();
        }
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), p, bytes.len());
        *p.add(bytes.len()) = 0;
        p as *mut c_char
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malloc_c_string_is_nul_terminated() {
        // SAFETY: the buffer comes from malloc_c_string and is freed once.
        unsafe {
            let p = malloc_c_string("a\0b");
            assert_eq!(std::ffi::CStr::from_ptr(p).to_str().unwrap(), "a b");
            libc::free(p as *mut c_void);
        }
    }

    #[test]
    fn foreign_llvm_is_another_major_version() {
        let line = |p: &str| format!("7f01c4800000-7f01c8b4c000 r-xp 00000000 08:01 123 {p}\n");
        let ours = line("/usr/lib/x86_64-linux-gnu/libLLVM.so.22.1");
        assert_eq!(foreign_llvm(&ours), None);
        let other = ours + &line("/usr/lib/x86_64-linux-gnu/libLLVM-14.so.1");
        assert_eq!(foreign_llvm(&other).as_deref(), Some("libLLVM-14.so.1"));
        assert_eq!(
            foreign_llvm(&line("/x/libLLVM.so.18.1")).as_deref(),
            Some("libLLVM.so.18.1")
        );
        assert_eq!(foreign_llvm(&line("/x/libLLVMSupport.so")), None);
    }

    #[test]
    fn plugin_info_names_the_plugin() {
        let info = llvmGetPassPluginInfo();
        assert_eq!(info.api_version, 2);
        // SAFETY: static C strings from plugin.cpp.
        let name = unsafe { std::ffi::CStr::from_ptr(info.plugin_name) };
        assert_eq!(name.to_str().unwrap(), "ferrozyme");
        assert!(!info.register_pass_builder_callbacks.is_null());
    }
}
