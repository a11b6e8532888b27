//! The allocation and deallocation functions whose shadows the pass mirrors (the C
//! library's, C++'s `operator new`/`delete`, Rust's global allocator): one table,
//! [`ALLOC_FNS`], looked up by symbol ([`alloc_fn`]).
//!
//! Each row names its *family*: the memory one family's allocators return is released
//! by that family's deallocators only (`operator new` by `operator delete`, `new[]` by
//! `delete[]`, `malloc` by `free`, `__rust_alloc` by `__rust_dealloc`). A shadow belongs
//! to its primal's family, because it may reach the program's own deallocator (a shadow
//! `std::vector` buffer released by a destructor, a shadow `Vec` dropped) and because a
//! user-replaced `operator new`/`delete` or a Rust `#[global_allocator]` (a counting or
//! pool allocator, one that checks its own headers) must see its own blocks: the shadow
//! of `new` or `__rust_alloc` is made by the same call as the primal and zeroed, and
//! released by the family's deallocator with the arguments it needs besides the pointer
//! (the alignment, Rust's size and alignment: [`AllocFn::shadow_deallocator`]), as
//! Enzyme does. The C library's plain allocators keep the cheaper `calloc` for their
//! shadows (the same family).

/// What an allocation function does, as far as shadow memory is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllocKind {
    /// Returns fresh memory (its shadow: a zeroed allocation of the same size).
    Malloc,
    /// Returns fresh zeroed memory.
    Calloc,
    /// Moves `ptr`'s contents to fresh memory of a new size and frees `ptr`.
    Realloc,
    /// Frees `ptr` (the shadow is freed when the derivative no longer needs it).
    Free,
}

/// Which deallocator releases an allocation function's memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// The C library's: `free`.
    C,
    /// `operator new`: `operator delete` (`_ZdlPv`, with the alignment when aligned).
    New,
    /// `operator new[]`: `operator delete[]` (`_ZdaPv`, with the alignment when aligned).
    NewArray,
    /// Rust's global allocator: `__rust_dealloc(ptr, size, align)`.
    Rust,
    /// OpenMP's memory allocators (`omp_alloc(size, allocator)`, clang's `__kmpc_alloc`
    /// for the `allocate` clause): `omp_free(ptr, allocator)`, with the allocator the
    /// allocation or the free was given ([`AllocFn::allocator`]).
    Omp,
}

/// The deallocator that releases a shadow: `name(shadow, args[extra[0]], args[extra[1]])`,
/// as many of the two as are given, where `args` are the arguments of the call the shadow
/// belongs to (the allocation, or the free of its primal): `operator delete(shadow,
/// align)`, `__rust_dealloc(shadow, size, align)`. The pointer is the first argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShadowDealloc {
    pub name: &'static str,
    pub extra: [Option<usize>; 2],
}

impl ShadowDealloc {
    /// The positions, among the call's arguments, of the deallocator's arguments after
    /// the pointer.
    pub fn extra_args(&self) -> impl Iterator<Item = usize> + '_ {
        self.extra.iter().flatten().copied()
    }
}

/// One allocation function: its kind and where its arguments are. The bytes allocated
/// are `args[size]`, times `args[count]` when there is a count (`calloc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AllocFn {
    pub name: &'static str,
    pub kind: AllocKind,
    pub size: Option<usize>,
    pub count: Option<usize>,
    /// The pointer a `Realloc`/`Free` takes.
    pub ptr: Option<usize>,
    /// Rust's global allocator entry points: rustc defines them in the allocator shim
    /// (as calls of `__rdl_*` or of a `#[global_allocator]`) and, since 1.8x, mangles them
    /// as `__rustc::__rust_alloc` in the v0 scheme. They are allocators even though the
    /// module has their IR.
    pub rust: bool,
    pub family: Family,
    /// The alignment argument (`aligned_alloc(align, n)`, `operator new(n, align_val_t)`,
    /// `operator delete(p, align_val_t)`).
    pub align: Option<usize>,
    /// The old block's size a `Realloc` is told (`__rust_realloc(p, old, align, new)`);
    /// `realloc` is not.
    pub old_size: Option<usize>,
    /// The OpenMP allocator handle (`omp_alloc(n, allocator)`, `omp_free(p, allocator)`).
    pub allocator: Option<usize>,
}

const fn row(
    name: &'static str,
    kind: AllocKind,
    size: Option<usize>,
    count: Option<usize>,
    ptr: Option<usize>,
) -> AllocFn {
    AllocFn {
        name,
        kind,
        size,
        count,
        ptr,
        rust: false,
        family: Family::C,
        align: None,
        old_size: None,
        allocator: None,
    }
}

/// Returns fresh memory of `args[size]` bytes.
const fn fresh(name: &'static str, size: usize) -> AllocFn {
    row(name, AllocKind::Malloc, Some(size), None, None)
}

/// Returns fresh zeroed memory of `args[size]` (times `args[count]`) bytes.
const fn zeroed(name: &'static str, size: usize, count: Option<usize>) -> AllocFn {
    row(name, AllocKind::Calloc, Some(size), count, None)
}

/// Moves `args[ptr]`'s contents to fresh memory of `args[size]` bytes.
const fn moved(name: &'static str, ptr: usize, size: usize) -> AllocFn {
    row(name, AllocKind::Realloc, Some(size), None, Some(ptr))
}

/// Frees `args[ptr]`.
const fn freed(name: &'static str, ptr: usize) -> AllocFn {
    row(name, AllocKind::Free, None, None, Some(ptr))
}

impl AllocFn {
    /// The same entry as one of Rust's global allocator (see [`AllocFn::rust`]).
    const fn rust(self) -> AllocFn {
        AllocFn {
            rust: true,
            family: Family::Rust,
            ..self
        }
    }

    /// The same entry in family `family`.
    const fn of(self, family: Family) -> AllocFn {
        AllocFn { family, ..self }
    }

    /// The same entry as one of OpenMP's allocators, with the allocator handle at `args[k]`.
    const fn omp(self, k: usize) -> AllocFn {
        AllocFn {
            family: Family::Omp,
            allocator: Some(k),
            ..self
        }
    }

    /// The same entry with its alignment at `args[k]`.
    const fn aligned(self, k: usize) -> AllocFn {
        AllocFn {
            align: Some(k),
            ..self
        }
    }

    /// Is the shadow of this allocation made by the same call as the primal (then
    /// zeroed unless the call zeroes), rather than by `calloc`? For C++'s `operator new`
    /// and Rust's global allocator (their own families) and for the aligned allocators (a
    /// `calloc`'d shadow is only 16-byte aligned, where the code may use aligned vector
    /// moves). For OpenMP's allocators, whose blocks only `omp_free` may release (and
    /// whose allocator may place them in a memory space of its own).
    pub fn shadow_from_same_call(&self) -> bool {
        match self.family {
            Family::Omp => matches!(self.kind, AllocKind::Malloc | AllocKind::Calloc),
            Family::New | Family::NewArray => self.kind == AllocKind::Malloc,
            Family::Rust => matches!(self.kind, AllocKind::Malloc | AllocKind::Calloc),
            Family::C => self.kind == AllocKind::Malloc && self.align.is_some(),
        }
    }

    /// The deallocator that releases the shadow of memory this function allocates or
    /// frees; `None`: `free`.
    pub fn shadow_deallocator(&self) -> Option<ShadowDealloc> {
        let (name, extra) = match (self.family, self.align) {
            (Family::C, _) => return None,
            (Family::Omp, _) => ("omp_free", [self.allocator, None]),
            (Family::New, None) => ("_ZdlPv", [None, None]),
            (Family::New, Some(k)) => ("_ZdlPvSt11align_val_t", [Some(k), None]),
            (Family::NewArray, None) => ("_ZdaPv", [None, None]),
            (Family::NewArray, Some(k)) => ("_ZdaPvSt11align_val_t", [Some(k), None]),
            // `__rust_dealloc(ptr, size, align)`: the size a free passes (argument 1), or
            // the size an allocation asked for (`__rust_realloc`'s new size).
            (Family::Rust, align) => {
                let size = match self.kind {
                    AllocKind::Free => Some(1),
                    _ => self.size,
                };
                ("__rust_dealloc", [size, align])
            }
        };
        Some(ShadowDealloc { name, extra })
    }
}

/// Allocation and deallocation functions: the C library's, C++'s `operator new/delete`,
/// and Rust's global allocator (`__rust_alloc(size, align)`,
/// `__rust_alloc_zeroed(size, align)`, `__rust_realloc(ptr, old_size, align, new_size)`,
/// `__rust_dealloc(ptr, size, align)`).
pub const ALLOC_FNS: &[AllocFn] = &[
    fresh("malloc", 0),
    fresh("valloc", 0),
    fresh("pvalloc", 0),
    fresh("memalign", 1).aligned(0),
    fresh("_mm_malloc", 0).aligned(1),
    // C++ operator new and new[]: plain, aligned, nothrow.
    fresh("_Znwm", 0).of(Family::New),
    fresh("_Znam", 0).of(Family::NewArray),
    fresh("_ZnwmSt11align_val_t", 0).of(Family::New).aligned(1),
    fresh("_ZnamSt11align_val_t", 0)
        .of(Family::NewArray)
        .aligned(1),
    fresh("_ZnwmRKSt9nothrow_t", 0).of(Family::New),
    fresh("_ZnamRKSt9nothrow_t", 0).of(Family::NewArray),
    fresh("_ZnwmSt11align_val_tRKSt9nothrow_t", 0)
        .of(Family::New)
        .aligned(1),
    fresh("_ZnamSt11align_val_tRKSt9nothrow_t", 0)
        .of(Family::NewArray)
        .aligned(1),
    fresh("aligned_alloc", 1).aligned(0),
    zeroed("calloc", 1, Some(0)),
    moved("realloc", 0, 1),
    freed("free", 0),
    freed("_ZdlPv", 0).of(Family::New),
    freed("_ZdaPv", 0).of(Family::NewArray),
    freed("_ZdlPvm", 0).of(Family::New),
    freed("_ZdaPvm", 0).of(Family::NewArray),
    freed("_mm_free", 0),
    freed("_ZdlPvSt11align_val_t", 0).of(Family::New).aligned(1),
    freed("_ZdaPvSt11align_val_t", 0)
        .of(Family::NewArray)
        .aligned(1),
    freed("_ZdlPvmSt11align_val_t", 0)
        .of(Family::New)
        .aligned(2),
    freed("_ZdaPvmSt11align_val_t", 0)
        .of(Family::NewArray)
        .aligned(2),
    freed("_ZdlPvRKSt9nothrow_t", 0).of(Family::New),
    freed("_ZdaPvRKSt9nothrow_t", 0).of(Family::NewArray),
    fresh("__rust_alloc", 0).rust().aligned(1),
    zeroed("__rust_alloc_zeroed", 0, None).rust().aligned(1),
    AllocFn {
        old_size: Some(1),
        ..moved("__rust_realloc", 0, 3).rust().aligned(2)
    },
    freed("__rust_dealloc", 0).rust().aligned(2),
    // OpenMP 5's allocator API and clang's lowering of the `allocate` clause (whose
    // first argument is the thread's global id). `omp_realloc` is not here: its old and
    // new allocators may differ.
    fresh("omp_alloc", 0).omp(1),
    fresh("omp_aligned_alloc", 1).aligned(0).omp(2),
    zeroed("omp_calloc", 1, Some(0)).omp(2),
    zeroed("omp_aligned_calloc", 2, Some(1)).aligned(0).omp(3),
    freed("omp_free", 0).omp(1),
    fresh("__kmpc_alloc", 1).omp(2),
    fresh("__kmpc_aligned_alloc", 2).aligned(1).omp(3),
    zeroed("__kmpc_calloc", 2, Some(1)).omp(3),
    freed("__kmpc_free", 1).omp(2),
];

/// The allocation function a symbol names. `defined`: the module has its IR, which only
/// Rust's allocator entry points and C++'s replaceable global `operator new`/`delete` may
/// (a program replacing them, a counting or pool allocator, still has allocation
/// functions, by the language's rules; a C program defining its own `malloc` is
/// differentiated through). Rust's entry points are also recognised in their v0-mangled
/// form, whose last identifier is the name (`_RNvCs…_7___rustc12___rust_alloc`).
pub fn alloc_fn(symbol: &str, defined: bool) -> Option<&'static AllocFn> {
    ALLOC_FNS.iter().find(|a| {
        (!defined || a.rust || matches!(a.family, Family::New | Family::NewArray))
            && (symbol == a.name
                || (a.rust && symbol.starts_with("_R") && ends_with_v0_ident(symbol, a.name)))
    })
}

/// The symbol of Rust's allocator entry point `name` (`__rust_dealloc`,
/// `__rust_alloc_zeroed`) spelled as `like`, another entry point's symbol, spells its own:
/// the v0 form shares the crate path (`_RNvCs…_7___rustc14___rust_dealloc`).
pub fn rust_entry_symbol(like: &str, name: &str) -> String {
    let Some(a) = ALLOC_FNS
        .iter()
        .find(|a| a.rust && like.starts_with("_R") && ends_with_v0_ident(like, a.name))
    else {
        return name.to_string();
    };
    let head = &like[..like.len() - a.name.len()];
    let head = head.strip_suffix('_').unwrap_or(head);
    let head = head.strip_suffix(&a.name.len().to_string()).unwrap_or(head);
    format!("{head}{}_{name}", name.len())
}

/// Does a v0 symbol end with the identifier `ident` (`<len>[_]<ident>`; the `_`
/// separates a length from an identifier that starts with `_` or a digit)?
fn ends_with_v0_ident(symbol: &str, ident: &str) -> bool {
    let Some(head) = symbol.strip_suffix(ident) else {
        return false;
    };
    let head = if ident.starts_with(['_', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9']) {
        match head.strip_suffix('_') {
            Some(h) => h,
            None => return false,
        }
    } else {
        head
    };
    head.ends_with(&ident.len().to_string())
        && !head[..head.len() - ident.len().to_string().len()]
            .ends_with(|c: char| c.is_ascii_digit())
}

/// The size argument of `name` when it is a declared allocator returning fresh memory
/// (`AllocKind::Malloc`: `malloc`, `aligned_alloc`, `operator new` ...).
pub fn allocator_size_arg(name: &str) -> Option<usize> {
    alloc_fn(name, false)
        .filter(|a| a.kind == AllocKind::Malloc)
        .and_then(|a| a.size)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocators_c_and_rust() {
        assert_eq!(alloc_fn("malloc", false).unwrap().kind, AllocKind::Malloc);
        assert!(alloc_fn("malloc", true).is_none());
        // A program's replacement of the global operator new/delete is still one.
        assert_eq!(alloc_fn("_Znwm", true).unwrap().kind, AllocKind::Malloc);
        assert_eq!(alloc_fn("_ZdaPvm", true).unwrap().kind, AllocKind::Free);
        let r = alloc_fn("_RNvCsfLfy6EI15iL_7___rustc14___rust_realloc", true).unwrap();
        assert_eq!(
            (r.kind, r.size, r.ptr),
            (AllocKind::Realloc, Some(3), Some(0))
        );
        assert_eq!(
            alloc_fn("_RNvCsfLfy6EI15iL_7___rustc12___rust_alloc", true)
                .unwrap()
                .name,
            "__rust_alloc"
        );
        assert_eq!(
            alloc_fn("_RNvCsfLfy6EI15iL_7___rustc19___rust_alloc_zeroed", true)
                .unwrap()
                .name,
            "__rust_alloc_zeroed"
        );
        assert_eq!(
            alloc_fn("__rust_dealloc", true).unwrap().kind,
            AllocKind::Free
        );
        // Not the allocator: a longer identifier ending the same way, or a wrong length.
        assert!(alloc_fn("_RNvCs1_4core112___rust_alloc", true).is_none());
        assert!(alloc_fn("_RNvCs1_4core13___rust_alloc", true).is_none());
        assert!(alloc_fn("_ZN3foo12__rust_alloc17h0123456789abcdefE", true).is_none());
    }

    #[test]
    fn shadow_deallocators_pair_with_their_family() {
        let dealloc = |n: &str| alloc_fn(n, false).unwrap().shadow_deallocator();
        let named = |name, extra| Some(ShadowDealloc { name, extra });
        // OpenMP's allocators: `omp_free(shadow, allocator)`, the allocator from the call;
        // their shadows come from the same call (the allocator's memory space).
        assert_eq!(dealloc("omp_alloc"), named("omp_free", [Some(1), None]));
        assert_eq!(
            dealloc("omp_aligned_calloc"),
            named("omp_free", [Some(3), None])
        );
        assert_eq!(dealloc("__kmpc_free"), named("omp_free", [Some(2), None]));
        assert!(alloc_fn("__kmpc_alloc", false)
            .unwrap()
            .shadow_from_same_call());
        assert!(alloc_fn("omp_calloc", false)
            .unwrap()
            .shadow_from_same_call());
        assert_eq!(alloc_fn("__kmpc_free", false).unwrap().ptr, Some(1));
        assert_eq!(dealloc("malloc"), None);
        assert_eq!(dealloc("aligned_alloc"), None);
        assert_eq!(dealloc("_Znwm"), named("_ZdlPv", [None, None]));
        assert_eq!(
            dealloc("_ZnwmRKSt9nothrow_t"),
            named("_ZdlPv", [None, None])
        );
        assert_eq!(dealloc("_Znam"), named("_ZdaPv", [None, None]));
        assert_eq!(
            dealloc("_ZnwmSt11align_val_t"),
            named("_ZdlPvSt11align_val_t", [Some(1), None])
        );
        assert_eq!(dealloc("_ZdlPvm"), named("_ZdlPv", [None, None]));
        assert_eq!(
            dealloc("_ZdaPvmSt11align_val_t"),
            named("_ZdaPvSt11align_val_t", [Some(2), None])
        );
        // `__rust_dealloc(ptr, size, align)`, the size and alignment from each call.
        assert_eq!(
            dealloc("__rust_alloc"),
            named("__rust_dealloc", [Some(0), Some(1)])
        );
        assert_eq!(
            dealloc("__rust_alloc_zeroed"),
            named("__rust_dealloc", [Some(0), Some(1)])
        );
        assert_eq!(
            dealloc("__rust_realloc"),
            named("__rust_dealloc", [Some(3), Some(2)])
        );
        assert_eq!(
            dealloc("__rust_dealloc"),
            named("__rust_dealloc", [Some(1), Some(2)])
        );
        // Every allocator's shadow deallocator is a deallocator of the table, of the same
        // family, and the allocator's own deallocators name the same one.
        for a in ALLOC_FNS {
            if let Some(d) = a.shadow_deallocator() {
                let f = alloc_fn(d.name, false).unwrap();
                assert_eq!(
                    (f.kind, f.family),
                    (AllocKind::Free, a.family),
                    "{}",
                    a.name
                );
                assert_eq!(
                    f.shadow_deallocator().map(|g| g.name),
                    Some(d.name),
                    "{}",
                    a.name
                );
                // As many arguments after the pointer as the deallocator's own calls pass.
                assert_eq!(
                    f.shadow_deallocator().unwrap().extra_args().count(),
                    d.extra_args().count(),
                    "{}",
                    a.name
                );
            }
            if let Some(k) = a.align {
                assert!(k != a.size.unwrap_or(usize::MAX) && k != a.ptr.unwrap_or(usize::MAX));
            }
        }
        assert!(alloc_fn("_Znwm", false).unwrap().shadow_from_same_call());
        assert!(alloc_fn("aligned_alloc", false)
            .unwrap()
            .shadow_from_same_call());
        assert!(!alloc_fn("malloc", false).unwrap().shadow_from_same_call());
        assert!(alloc_fn("__rust_alloc", false)
            .unwrap()
            .shadow_from_same_call());
        assert!(!alloc_fn("__rust_realloc", false)
            .unwrap()
            .shadow_from_same_call());
    }

    #[test]
    fn rust_entry_symbols_share_the_crate_path() {
        assert_eq!(
            rust_entry_symbol(
                "_RNvCsfLfy6EI15iL_7___rustc14___rust_realloc",
                "__rust_alloc_zeroed"
            ),
            "_RNvCsfLfy6EI15iL_7___rustc19___rust_alloc_zeroed"
        );
        let d = rust_entry_symbol(
            "_RNvCsfLfy6EI15iL_7___rustc12___rust_alloc",
            "__rust_dealloc",
        );
        assert_eq!(d, "_RNvCsfLfy6EI15iL_7___rustc14___rust_dealloc");
        assert_eq!(alloc_fn(&d, true).unwrap().name, "__rust_dealloc");
        assert_eq!(
            rust_entry_symbol("__rust_realloc", "__rust_dealloc"),
            "__rust_dealloc"
        );
    }
}
