//! Type-analysis rules for calls: through to callees' parameters and returns, and the
//! known library functions and intrinsics (memcpy, allocation, libm out-parameters, the
//! `__enzyme_double`-style hints).

use ferrozyme_llvm::Value;

use super::super::{layout, BaseType, TypeTree};
use super::Engine;

impl Engine {
    pub(super) fn call(&mut self, i: Value) {
        if i.is_inline_asm_call() {
            return;
        }
        let Some(callee) = i.called_function() else {
            return;
        };
        let name = callee.name();
        let args = i.call_args();
        if name.starts_with(ferrozyme_abi::ENZYME_FUNCTION_PREFIX)
            && ferrozyme_abi::type_hint(&name).is_none()
        {
            // The differentiated function is in scope; its markers and shadows are not data.
            return;
        }
        self.mpi_buffers(&name, &args);
        self.mpi_handles(&name, &args);
        if self.allocation_call(i, &args) || self.library_call(i, &name, &args) {
            return;
        }
        if callee.is_declaration() || self.erased_access(i, callee, &args) {
            return;
        }
        for (k, (a, p)) in args.iter().zip(callee.params()).enumerate() {
            if self.address_only.param(callee, k) {
                // The callee only measures it: linking would merge its callers' objects.
                continue;
            }
            let limit = callee
                .dereferenceable_bytes(Some(k as u32))
                .or_else(|| self.access_windows.param(self.m, callee, k));
            self.link_call_edge(*a, p, limit);
        }
        let rets = self.returns.get(&callee).cloned().unwrap_or_default();
        let limit = callee.dereferenceable_bytes(None);
        for r in rets {
            self.link_call_edge(i, r, limit);
        }
    }

    /// Calls of the allocation table's functions (`ferrozyme_abi::ALLOC_FNS`: C's, C++'s
    /// and Rust's, whose entry points have IR in a Rust program): sizes, counts and
    /// alignments are integers (nothrow tags are pointers: skipped), a realloc returns
    /// what its pointer held. They are never analysed through: Rust's `__rust_realloc`
    /// is called by every `Vec` of the program, and linking its parameters would merge
    /// what all of them hold. Returns whether `i` was one.
    fn allocation_call(&mut self, i: Value, args: &[Value]) -> bool {
        let Some(a) = crate::calls::alloc_fn(i) else {
            return false;
        };
        args.iter()
            .filter(|a| a.ty().is_integer())
            .for_each(|a| self.integer(*a));
        if a.kind == ferrozyme_abi::AllocKind::Realloc {
            if let Some(p) = a.ptr.and_then(|k| args.get(k)) {
                self.link(i, *p);
            }
        }
        true
    }

    /// The buffers of an MPI call that the rules differentiate (`MpiRule::buffers`) hold
    /// reals at every offset when their datatype is a predefined real one (`MPI_DOUBLE`,
    /// `MPI_FLOAT`, ...), as Enzyme reads them: a root-only buffer filled by `memcpy` and
    /// handed to `MPI_Scatter` had no other type (tests/mpi/83).
    fn mpi_buffers(&mut self, name: &str, args: &[Value]) {
        let Some(rule) = ferrozyme_rules::mpi::mpi_rule(name) else {
            return;
        };
        for &(buf, ty) in rule.buffers() {
            let (Some(b), Some(t)) = (args.get(buf), args.get(ty)) else {
                continue;
            };
            if !b.ty().is_pointer() || !t.is_global_variable() {
                continue;
            }
            let base = match ferrozyme_rules::mpi::datatype(&t.name()) {
                Some(Some(8)) => BaseType::Double,
                Some(Some(4)) => BaseType::Float,
                _ => continue,
            };
            self.learn_ptr(*b, &TypeTree::single(-1, base));
        }
    }

    /// The handle arguments of an MPI call (communicators, datatypes, reduction
    /// operations: `ferrozyme_rules::mpi::handle_args`) are Open MPI's pointers to opaque
    /// objects that no program reads through: bytes without a derivative at every offset.
    /// A communicator kept in a stack slot whose address a C++ `[&]` lambda captures
    /// beside differentiated data (at -O0, tests/mpi/96) was otherwise a pointer of
    /// unknown pointee stored into memory with a shadow: a mismatched-activity error.
    fn mpi_handles(&mut self, name: &str, args: &[Value]) {
        for &k in ferrozyme_rules::mpi::handle_args(name) {
            if let Some(h) = args.get(k).filter(|h| h.ty().is_pointer() && !h.is_null()) {
                self.learn_ptr(*h, &TypeTree::single(-1, BaseType::Integer));
            }
        }
    }

    /// Rules for intrinsics and C library functions. Returns whether `name` was one.
    fn library_call(&mut self, i: Value, name: &str, args: &[Value]) -> bool {
        let arg = |k: usize| args.get(k).copied();
        let base = name
            .strip_prefix("llvm.")
            .map(|n| n.split('.').next().unwrap_or(n))
            .unwrap_or(name);
        match base {
            "memcpy" | "memmove" | "memcpy_inline" | "__memcpy_chk" | "__memmove_chk" => {
                let (Some(dst), Some(src), Some(len)) = (arg(0), arg(1), arg(2)) else {
                    return true;
                };
                self.integer(len);
                // A run-time length is still bounded by the objects copied from and into.
                let n = [dst, src]
                    .into_iter()
                    .filter_map(|p| crate::calls::object_bytes_left(self.m, p))
                    .fold(
                        len.const_int_value().unwrap_or(super::super::MAX_OFFSET),
                        i64::min,
                    );
                let (pd, ps) = (
                    self.pointee(dst).window(0, n),
                    self.pointee(src).window(0, n),
                );
                self.learn_ptr(dst, &ps);
                self.learn_ptr(src, &pd);
                let kind = self.m.context().md_kind("tbaa.struct");
                if let Some(md) = i.metadata(kind) {
                    let mut t = TypeTree::new();
                    for (off, _size, b) in layout::tbaa_struct_entries(md) {
                        t.insert(off, b);
                    }
                    self.learn_ptr(dst, &t);
                    self.learn_ptr(src, &t);
                }
                true
            }
            "memset" | "memset_inline" | "__memset_chk" => {
                if let Some(len) = arg(2) {
                    self.integer(len);
                }
                true
            }
            "posix_memalign" => {
                if let (Some(p), Some(al), Some(n)) = (arg(0), arg(1), arg(2)) {
                    self.integer(al);
                    self.integer(n);
                    // `*p` receives a pointer.
                    self.learn_ptr(p, &TypeTree::single(0, BaseType::Pointer));
                }
                true
            }
            // Enzyme-style type hints written by users: the memory at the pointer holds
            // values of this type (at every offset).
            hint if ferrozyme_abi::type_hint(hint).is_some() => {
                let b = match ferrozyme_abi::type_hint(hint) {
                    Some(ferrozyme_abi::TypeHint::Double) => BaseType::Double,
                    Some(ferrozyme_abi::TypeHint::Float) => BaseType::Float,
                    Some(ferrozyme_abi::TypeHint::Integer) => BaseType::Integer,
                    _ => BaseType::Pointer,
                };
                if let Some(p) = arg(0) {
                    if p.ty().is_pointer() {
                        self.learn_ptr(p, &TypeTree::single(-1, b));
                    }
                }
                true
            }
            "lifetime" | "assume" | "dbg" | "experimental" | "prefetch" | "invariant" => true,
            "frexp" | "frexpf" | "remquo" | "remquof" | "lgamma_r" | "lgammaf_r" => {
                if let Some(p) = args.last() {
                    self.learn_ptr(*p, &TypeTree::single(0, BaseType::Integer));
                }
                true
            }
            "modf" | "sincos" => {
                for p in args.iter().skip(1) {
                    self.learn_ptr(*p, &TypeTree::single(0, BaseType::Double));
                }
                true
            }
            "modff" | "sincosf" => {
                for p in args.iter().skip(1) {
                    self.learn_ptr(*p, &TypeTree::single(0, BaseType::Float));
                }
                true
            }
            // Integer-only intrinsics (flang bounds its loops with `llvm.smax`).
            "smax" | "smin" | "umax" | "umin" | "abs" if name.starts_with("llvm.") => {
                if i.ty().is_integer() {
                    self.integer(i);
                    args.iter().for_each(|a| self.integer(*a));
                }
                true
            }
            // Rotates (`u64::rotate_left`: SipHash, the default hasher of Rust's `HashMap`,
            // whose keys are otherwise only xor-ed and added) and bit counts (hashbrown's
            // probe of a control group: `trailing_zeros` of a match mask). A count is an
            // integer whatever it counts; a rotate's operands too. `bswap` is left out:
            // `f64::from_be_bytes` swaps a float's bytes.
            "fshl" | "fshr" if name.starts_with("llvm.") => {
                if i.ty().int_width().is_some() {
                    self.integer(i);
                    args.iter().for_each(|a| self.integer(*a));
                }
                true
            }
            "ctpop" | "ctlz" | "cttz" if name.starts_with("llvm.") => {
                self.integer(i);
                true
            }
            "powi" | "ldexp" | "ldexpf" | "scalbn" | "scalbnf" => {
                if let Some(n) = arg(1) {
                    self.integer(n);
                }
                true
            }
            // OpenMP threadprivate data: the thread's copy of the variable holds what the
            // variable holds (`ferrozyme_transform::custom::threadprivate`).
            "__kmpc_threadprivate_cached" => {
                if let (Some(var), Some(size)) = (arg(2), arg(3)) {
                    self.link(i, var);
                    self.integer(size);
                }
                true
            }
            // The same under clang's default (thread-local storage) lowering, in a module
            // with parallel regions (`ferrozyme_transform::thread_locals`).
            "__fz_omp_tls_copy" => {
                if let (Some(var), Some(size)) = (arg(0), arg(1)) {
                    self.link(i, var);
                    self.integer(size);
                }
                true
            }
            // The integer results of OpenMP's and MPI's inactive queries (thread numbers,
            // team sizes, error codes): flang's microtasks reach shared variables through
            // one aggregate of pointers, so `nt = omp_get_num_threads()` in a `single`
            // stores to memory whose type the microtask cannot see otherwise.
            // flang's TRIM/ADJUSTL/..., MAXLOC, COUNT with DIM=...: the result
            // descriptor's base address (offset 0) leads to characters, integers or
            // logicals.
            // flang's inactive assignment of such data: its source too (at -O2 a MAXLOC
            // expanded inline fills a temporary with constant locations, and the
            // assignment is the only other use of the temporary: tests/fortran/106).
            // The runtime's own implementations (`runtime/fortran.c`) call the inactive
            // assignment too, behind a test of the run-time type code, with descriptors
            // they received that may describe reals (typing those merged the reals of
            // tests/fortran/92 with integers): only the pass's choice, for a stack or
            // global descriptor of the user's code, fixes the data.
            _ if ferrozyme_rules::fortran::fills_inactive_result(name) => {
                let mut t = TypeTree::single(0, BaseType::Pointer);
                t.insert_inner(0, &TypeTree::single(-1, BaseType::Integer));
                let assign = ferrozyme_rules::fortran::assigns_inactive_data(name);
                let owned = |d: &Value| {
                    !assign
                        || d.opcode() == Some(ferrozyme_llvm::Opcode::LLVMAlloca)
                        || d.is_global_variable()
                };
                let descriptors = [arg(0), arg(1).filter(|_| assign)];
                for d in descriptors.into_iter().flatten().filter(owned) {
                    self.learn_ptr(d, &t);
                }
                true
            }
            // Rounding to an integer (flang's NINT is `llvm.lround`): the result is one.
            "lround" | "llround" | "lrint" | "llrint" | "lroundf" | "llroundf" | "lrintf"
            | "llrintf" => {
                if i.ty().is_integer() {
                    self.integer(i);
                }
                true
            }
            // A table search without IR (`bsearch`, `lfind`: `ferrozyme_abi::TABLE_SEARCHES`)
            // returns null or a pointer to an element of the table: from there on, memory
            // holds what the table holds from its start (its elements are alike), so the
            // two are linked, as a `realloc` is to its pointer (tests/c/738 at -O0: a
            // record found by `bsearch` copied by `memcpy`).
            _ if i.ty().is_pointer()
                && i.called_function().is_some_and(|f| f.is_declaration())
                && ferrozyme_abi::table_search(name).is_some() =>
            {
                if let Some(table) = ferrozyme_abi::table_search(name).and_then(arg) {
                    self.link(i, table);
                }
                true
            }
            _ if i.ty().is_integer() && inactive_runtime_query(name) => {
                self.integer(i);
                true
            }
            _ => false,
        }
    }
}

/// Whether `name` is an OpenMP or MPI routine the rules call inactive (a query, a clock,
/// setup): none of its results is a real number.
fn inactive_runtime_query(name: &str) -> bool {
    matches!(
        ferrozyme_rules::openmp::openmp_rule(name),
        Some(ferrozyme_rules::openmp::OmpRule::Inactive { .. })
    ) || matches!(
        ferrozyme_rules::mpi::mpi_rule(name),
        Some(ferrozyme_rules::mpi::MpiRule::Inactive { .. })
    )
}
