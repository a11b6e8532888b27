//! The `help:` line of the pass's diagnostics, said in Rust terms.
//!
//! The pass words its advice for C callers of `__enzyme_autodiff` (`enzyme_dup`, `ferrozyme
//! cc a.c b.c`, `-fno-strict-aliasing`, `__enzyme_double(ptr)`), none of which a Rust user
//! of `#[autodiff_reverse]` can act on. Here the advice is chosen from what the diagnostic
//! is about (its original help text, its message, the function it is in) and names what
//! the Rust program can change. Unknown help is kept, with the C activity names replaced
//! by the attribute's.

/// The help line for a Rust program. `function` is the (demangled) function the problem
/// is in, `message` the (demangled) message, `help` the pass's help.
pub fn for_rust(function: Option<&str>, message: &str, help: &str) -> String {
    let about = format!("{} {message}", function.unwrap_or(""));
    if is_io(&about) {
        return "printing and formatting (`println!`, `format!`, `write!`, `dbg!`), I/O, locks and \
                system calls are not differentiated: move them out of the differentiated function \
                (print in the caller, before or after calling the derivative)"
            .to_string();
    }
    if about.contains("drop_in_place<alloc::boxed::Box<dyn ")
        && message.contains("through a function pointer")
    {
        return "a `Box<dyn Trait>` is dropped inside the differentiated function, and its \
                destructor is called through the trait object's vtable, which the pass cannot \
                resolve: create the boxed objects outside and pass them in (`&[Box<dyn Trait>]` \
                as `Const`), or use an `enum` or generics instead of a trait object there"
            .to_string();
    }
    if help.contains("instead of through uintptr_t") {
        return "a `Vec` or `Box` was moved as plain integers and its pointer rebuilt with \
                `inttoptr`, most often by `std::mem::swap` of two `Vec`s (LLVM swaps them word \
                by word): move it with `std::mem::take` (`cur = std::mem::take(&mut next)`) or \
                assignment instead, or index two buffers"
            .to_string();
    }
    if help.starts_with("compile its source together with this file") && is_std_callee(message) {
        return "a standard library function whose IR this build did not find (debug builds \
                call the standard library's own instances of generic code, such as `Vec`'s \
                deallocation): build with `--release`; if the release build reports it too, the \
                module (`FERROZYME_SAVE_TEMPS=dir`) is a bug report"
            .to_string();
    }
    if help.starts_with("compile its source together with this file") {
        return "the called function has no Rust source in this build (an `extern` function, or a \
                precompiled library): compute its value outside the differentiated function and \
                pass it in as a `Const` argument, or write that function in Rust"
            .to_string();
    }
    if (help.contains("type punning") || help.contains("what the buffer holds"))
        && about.contains("`hashbrown::")
    {
        // front36: past the control-byte probe, growing the table rehashes its entries
        // as untyped bytes (`reserve_rehash`'s `swap_chunk`, the entry size a run-time value).
        return "a `HashMap`/`HashSet` built or filled inside the differentiated function: \
                growing its table moves the entries as untyped bytes the pass cannot tell \
                floats from integers in; accumulate into a `Vec<f64>` indexed by the key \
                instead (map keys to `0..n` outside) or into a `Vec<(K, f64)>` of pairs (find \
                the key with `iter().position`), or build the map outside and pass it in as \
                `Const` (reading values from it is differentiated)"
            .to_string();
    }
    if (help.contains("type punning") || help.contains("what the buffer holds"))
        && about.contains("collections::btree")
    {
        return "a `BTreeMap`/`BTreeSet` built inside the differentiated function: its nodes \
                hold keys and values in untyped storage the pass cannot tell floats from \
                integers in; build the map outside and pass it in as `Const` (lookups in it \
                are differentiated), or use a `Vec` indexed by the key or a `Vec<(K, f64)>` of \
                pairs sorted by key (`binary_search_by_key`)"
            .to_string();
    }
    if (help.contains("type punning") || help.contains("what the buffer holds"))
        && (about.contains("core::slice::sort") || about.contains("total_cmp"))
    {
        return "sorting floats with a comparison that reads their bits (`f64::total_cmp`, \
                `sort_by(f64::total_cmp)`) makes the sort move them as integers: compare with \
                `partial_cmp` instead (`v.sort_by(|a, b| a.partial_cmp(b).unwrap())`); \
                `max_by`/`min_by` with `total_cmp` are differentiated"
            .to_string();
    }
    if help.contains("type punning") || help.contains("what the buffer holds") {
        return "the pass cannot tell whether this memory holds floats or integers: avoid \
                reinterpreting floats (`to_bits`/`from_bits`, `transmute`), `enum`s whose \
                variants keep floats where others keep a `Vec`, a `Box` or an integer, and \
                maps built inside the differentiated function (a `BTreeMap`: build it outside \
                and pass it in as `Const`); debug builds move data such as slice references \
                (`Vec<&[f64]>`) as plain integers more often than optimized ones, so build with \
                `--release`, or index the data instead of collecting references to it"
            .to_string();
    }
    if message.contains("mismatched activity")
        && (about.contains("sse2::_mm_load_si128") || about.contains("hashbrown"))
    {
        // hashbrown probes its control bytes 16 at a time; an empty map's table is a shared
        // constant, a grown one heap memory (front35).
        return "a `HashMap`/`HashSet` built or filled inside the differentiated function: its \
                table is a shared constant while the map is empty and heap memory once it grows, \
                chosen at run time; accumulate into a `Vec<f64>` indexed by the key instead (map \
                keys to `0..n` outside), or build the map outside and pass it in as `Const` \
                (reading values from it is differentiated)"
            .to_string();
    }
    if help.contains("enzyme_dup")
        && (help.contains("zero") || message.contains("mismatched activity"))
    {
        return "a pointer here points to differentiated or to constant data depending on the run \
                (a `HashMap`/`HashSet`'s table, or a choice between a `Duplicated` argument and a \
                constant one): pass the constant data as `Duplicated` too (with a zeroed shadow), \
                or keep such containers out of the differentiated function"
            .to_string();
    }
    help.replace("enzyme_dupnoneed", "`DuplicatedOnly`")
        .replace("enzyme_dup", "`Duplicated`")
        .replace("enzyme_const", "`Const`")
        .replace("enzyme_out", "`Active`")
        .replace(" (ferrozyme cc a.c b.c)", "")
}

/// "no derivative for `F`" where `F` is in `alloc`, `core` or `std` (rust30: debug builds:
/// `<alloc::raw_vec::RawVecInner>::deallocate`).
fn is_std_callee(message: &str) -> bool {
    [
        "`alloc::",
        "`<alloc::",
        "`core::",
        "`<core::",
        "`std::",
        "`<std::",
    ]
    .iter()
    .any(|p| message.contains(&format!("no derivative for {p}")))
}

/// Formatting, standard I/O, locks and system calls: what `println!` and friends reach.
fn is_io(about: &str) -> bool {
    [
        "core::fmt::",
        "std::io::",
        "write_str",
        "write_fmt",
        "`syscall`",
        "'syscall'",
        "futex",
        "std::sync::",
        "pthread_",
        "Stdout",
        "Stderr",
    ]
    .iter()
    .any(|p| about.contains(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_dyn_dropped_in_a_differentiated_function() {
        let h = for_rust(
            Some("core::ptr::drop_in_place<alloc::boxed::Box<dyn nc::Term>>"),
            "cannot differentiate this call through a function pointer: no function of its type has its address taken in this module, so none can be its target",
            "compile the source of the functions the pointer can point to together with this file (ferrozyme cc a.c b.c)",
        );
        assert!(h.contains("`Box<dyn Trait>` is dropped"), "{h}");
        assert!(h.contains("pass them in"), "{h}");
    }

    #[test]
    fn float_sort_by_total_cmp_and_btree_map() {
        let punning = "avoid type punning through integer pointers (it breaks C's strict aliasing; memcpy is the portable way), compile with -fno-strict-aliasing, or add a hint such as __enzyme_double(ptr)";
        let msg = "an integer access to differentiable memory whose type is ambiguous (the value looks like Integer, the memory like Anything)";
        let h = for_rust(
            Some("core::slice::sort::shared::smallsort::insert_tail"),
            msg,
            punning,
        );
        assert!(h.contains("partial_cmp") && h.contains("total_cmp"), "{h}");
        let h = for_rust(
            Some("alloc::collections::btree::search::<impl alloc::collections::btree::node::NodeRef<BorrowType,K,V,Type>>::find_key_index"),
            msg,
            punning,
        );
        assert!(h.contains("BTreeMap") && h.contains("outside"), "{h}");
        assert!(h.contains("as `Const`"), "{h}");
        let h = for_rust(Some("core::ptr::read"), msg, punning);
        assert!(h.contains("to_bits"), "{h}");
        assert!(h.contains("`enum`s whose variants"), "{h}");
    }

    #[test]
    fn vec_moved_as_integers() {
        let h = for_rust(
            Some("alloc::raw_vec::RawVecInner<A>::non_null"),
            "a pointer rebuilt from an integer (`inttoptr`) that came from a pointer into differentiable memory (`ptrtoint`): the rebuilt pointer has no shadow, so derivatives through it would be lost",
            "do the address arithmetic on pointers ((char *)p + k, or p + k) instead of through uintptr_t",
        );
        assert!(h.contains("std::mem::swap"), "{h}");
        assert!(h.contains("std::mem::take"), "{h}");
    }

    #[test]
    fn println_in_a_differentiated_function() {
        let h = for_rust(
            Some("core::fmt::write"),
            "no derivative for `<std::io::default_write_fmt::Adapter<std::io::stdio::StdoutLock> as core::fmt::Write>::write_str`: it has no IR in this module and no derivative rule",
            "compile its source together with this file (ferrozyme cc a.c b.c) so its IR is in the module, keep the values it uses constant (enzyme_const), or register a derivative for it (__enzyme_register_gradient_*)",
        );
        assert!(h.contains("println!"), "{h}");
        let h = for_rust(
            Some("std::sys::pal::unix::futex::futex_wake"),
            "no derivative for `syscall`: it has no IR in this module and no derivative rule",
            "compile its source together with this file (ferrozyme cc a.c b.c) so its IR …",
        );
        assert!(h.contains("println!"), "{h}");
    }

    #[test]
    fn standard_library_function_without_ir() {
        let h = for_rust(
            Some("<alloc::raw_vec::RawVec<T,A> as core::ops::drop::Drop>::drop"),
            "no derivative for `<alloc::raw_vec::RawVecInner>::deallocate`: it has no IR in this module and no derivative rule",
            "compile its source together with this file (ferrozyme cc a.c b.c) so its IR is in the module, keep the values it uses constant (enzyme_const), or register a derivative for it (__enzyme_register_gradient_*)",
        );
        assert!(h.contains("--release") && !h.contains("`extern`"), "{h}");
    }

    #[test]
    fn foreign_function() {
        let h = for_rust(
            Some("app::model"),
            "no derivative for `mystery`: it has no IR in this module and no derivative rule",
            "compile its source together with this file (ferrozyme cc a.c b.c) so its IR is in the module, keep the values it uses constant (enzyme_const), or register a derivative for it (__enzyme_register_gradient_*)",
        );
        assert!(
            h.contains("`Const` argument") && !h.contains("ferrozyme cc"),
            "{h}"
        );
    }

    #[test]
    fn punning_and_mixed_activity() {
        let h = for_rust(None, "an integer access to differentiable memory whose type is ambiguous", "avoid type punning through integer pointers (it breaks C's strict aliasing; memcpy is the portable way), compile with -fno-strict-aliasing, or add a hint such as __enzyme_double(ptr)");
        assert!(
            h.contains("--release") && !h.contains("strict-aliasing"),
            "{h}"
        );
        let h = for_rust(
            Some("core::core_arch::x86::sse2::_mm_load_si128"),
            "mismatched activity: a pointer that is constant or differentiable depending on the run is used by `load`",
            "pass the constant argument with enzyme_dup and a zero-initialised shadow buffer, or let the callee be inlined (static inline, or compile with -O2)",
        );
        assert!(
            h.contains("HashMap") && h.contains("Vec<f64>") && !h.contains("static inline"),
            "{h}"
        );
        let h = for_rust(
            Some("core::ptr::swap_chunk"),
            "an integer access to differentiable memory whose type is ambiguous (the value looks like Unknown, the memory like Anything) (differentiating `hashbrown::raw::RawTable<T,A>::reserve_rehash`)",
            "avoid type punning through integer pointers (it breaks C's strict aliasing; memcpy is the portable way), compile with -fno-strict-aliasing, or add a hint such as __enzyme_double(ptr)",
        );
        assert!(
            h.contains("HashMap") && h.contains("Vec<f64>") && !h.contains("BTreeMap"),
            "{h}"
        );
    }

    #[test]
    fn other_help_gets_rust_activity_names() {
        assert_eq!(
            for_rust(
                None,
                "x",
                "keep the values involved constant (enzyme_const), or move this code out"
            ),
            "keep the values involved constant (`Const`), or move this code out"
        );
        assert_eq!(
            for_rust(
                None,
                "x",
                "move the assembly out of the differentiated code"
            ),
            "move the assembly out of the differentiated code"
        );
    }
}
