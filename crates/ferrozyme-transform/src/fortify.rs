//! glibc's checked memory copies (`_FORTIFY_SOURCE`) in the clone being differentiated
//! (`clone::preprocess`), made the LLVM intrinsics they check around.
//!
//! Built with `-D_FORTIFY_SOURCE=2` (the default of many distributions' and build
//! systems' flags), glibc's headers turn `memcpy(d, s, n)` into
//! `__builtin___memcpy_chk(d, s, n, __builtin_object_size(d, 0))`; where `n` is not a
//! constant and the destination's size is known, clang leaves a call of the library's
//! `__memcpy_chk(d, s, n, size)`, which has no IR. Its meaning is fixed by the C library's
//! ABI: stop the program through `__chk_fail()` when `n > size`, else `memcpy(d, s, n)`,
//! returning `d`. Likewise `__memmove_chk` and `__memset_chk(d, c, n, size)`.
//!
//! In the clone each such call becomes the check and the intrinsic:
//!
//! ```text
//!   head: ... %bad = icmp ugt i64 %n, %size ; br %bad, fail, tail
//!   fail: call void @__chk_fail() ; unreachable
//!   tail: call void @llvm.memcpy(%d, %s, %n)     ; uses of the call's result take %d
//! ```
//!
//! so the derivative copies (moves, clears) the shadows as for a plain `memcpy`, and an
//! overflow still stops the program as the primal would. The user's primal keeps its
//! calls. A call whose type is not the library's (a program's own function of that name
//! with another signature) is left alone.

use ferrozyme_llvm::{Builder, IntPredicate, Module, Value};

/// The checked copies and what each one checks around.
#[derive(Clone, Copy)]
enum Checked {
    Memcpy,
    Memmove,
    Memset,
}

impl Checked {
    fn of(name: &str) -> Option<Checked> {
        match name {
            "__memcpy_chk" => Some(Checked::Memcpy),
            "__memmove_chk" => Some(Checked::Memmove),
            "__memset_chk" => Some(Checked::Memset),
            _ => None,
        }
    }
}

/// Is `call` (of a declaration with the library's name) of the library's type: `ptr (ptr,
/// ptr|i32, i64, i64)`?
fn library_type(call: Value, which: Checked) -> bool {
    let ty = call.called_function_type();
    let ps = ty.param_types();
    let second_ok = match which {
        Checked::Memset => ps.get(1).is_some_and(|t| t.is_integer()),
        Checked::Memcpy | Checked::Memmove => ps.get(1).is_some_and(|t| t.is_pointer()),
    };
    ps.len() == 4
        && ty.return_type().is_pointer()
        && ps[0].is_pointer()
        && second_ok
        && ps[2].is_integer()
        && ps[3] == ps[2]
}

pub fn rewrite(m: Module, f: Value) {
    let calls: Vec<(Value, Checked)> = f
        .calls()
        .filter_map(|i| {
            let g = i.called_function()?;
            let which = Checked::of(&g.name())?;
            (g.is_declaration() && library_type(i, which)).then_some((i, which))
        })
        .collect();
    if calls.is_empty() {
        return;
    }
    let ctx = m.context();
    let chk_fail = m.get_or_declare("__chk_fail", ctx.function_type(ctx.void(), &[], false));
    let b = Builder::new(ctx);
    for (call, which) in calls {
        let args = call.call_args();
        let (dst, src, len, size) = (args[0], args[1], args[2], args[3]);
        let tail = call.parent_block();
        let head = crate::unmerge::split_before(m, call, "fz.chk");
        let fail = tail.insert_before(ctx, "fz.chk.fail");
        b.position_at_end(head);
        let bad = b.icmp(IntPredicate::LLVMIntUGT, len, size);
        b.cond_br(bad, fail, tail);
        b.position_at_end(fail);
        b.call_fn(chk_fail, &[]);
        b.unreachable();
        b.position_before(call);
        match which {
            Checked::Memcpy => b.memcpy(dst, src, len, 1),
            Checked::Memmove => b.memmove(dst, src, len, 1),
            Checked::Memset => b.memset(dst, b.int_cast(src, ctx.i8()), len, 1),
        };
        call.replace_all_uses_with(dst);
        call.erase();
    }
}
