//! Swaps of untyped bytes: `a = load p; b = load q; store b, p; store a, q`, the two
//! values moved as integers and used for nothing else (hashbrown's `swap_chunk` when
//! a `HashMap` rehashes in place: its entries, keys beside values, swapped in 8-byte
//! chunks that type analysis cannot tell floats from integers or pointers in).
//!
//! A swap is a permutation of memory, so its derivative needs no types: the same swap of
//! the shadow bytes is right for every kind of byte (a float's tangent or adjoint
//! accumulator moves with the float, a pointer's shadow pointer with the pointer, an
//! integer's shadow bytes mean nothing), and in reverse mode the inverse permutation
//! (the same swap again) brings each adjoint back to where its value came from. The
//! forward sweeps swap the shadows through the loads' shadows (activity marks the loads
//! `shadowed`, as for pointers moved as integers); the reverse sweep swaps the adjoints
//! back at the swap's last store. A value moved and also read (compared, added, passed)
//! is no swap: its bytes are used as a number, and the type question stays open.

use ferrozyme_llvm::{Opcode, Value};

use crate::types::TypeAnalysis;

/// The four instructions of a swap, in program order of their kind: `loads[k]` reads
/// `addrs[k]`, `stores[k]` writes `loads[k]`'s value to the other address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UntypedSwap {
    pub loads: [Value; 2],
    pub stores: [Value; 2],
}

impl UntypedSwap {
    /// The two swapped addresses.
    pub fn addrs(&self) -> [Value; 2] {
        [self.loads[0].operand(0), self.loads[1].operand(0)]
    }

    /// The store that comes last in the block: the reverse sweep meets it first.
    pub fn last_store(&self) -> Value {
        let later = |a: Value, b: Value| {
            let mut c = a.next_instruction();
            while let Some(x) = c {
                if x == b {
                    return true;
                }
                c = x.next_instruction();
            }
            false
        };
        if later(self.stores[0], self.stores[1]) {
            self.stores[1]
        } else {
            self.stores[0]
        }
    }
}

/// The swap `i` (one of its loads or stores) belongs to, if it is one: integer loads of
/// equal type whose only use is one store each, each value stored at the other load's
/// address, all four in one block, both loads before both stores, and nothing between
/// the first and the last of them that may write memory.
pub fn untyped_swap(i: Value) -> Option<UntypedSwap> {
    let load = match i.opcode()? {
        Opcode::LLVMLoad => i,
        Opcode::LLVMStore => i.operand(0),
        _ => return None,
    };
    let a = load;
    let sa = only_store_of(a)?;
    // `b` is the load of the address `a`'s value is stored at.
    let b = sa.operand(1).users().into_iter().find(|&u| {
        u != a
            && u.opcode() == Some(Opcode::LLVMLoad)
            && u.operand(0) == sa.operand(1)
            && u.parent_block() == a.parent_block()
    })?;
    let sb = only_store_of(b)?;
    if sb.operand(1) != a.operand(0)
        || a.ty() != b.ty()
        || !crate::activity::is_int_carrier_type(a.ty())
    {
        return None;
    }
    let swap = UntypedSwap {
        loads: [a, b],
        stores: [sa, sb],
    };
    let members = [a, b, sa, sb];
    if members
        .iter()
        .any(|m| m.parent_block() != a.parent_block() || m.is_volatile() || m.is_atomic_access())
    {
        return None;
    }
    // Walk the block from its first member to its last: both loads must come before
    // either store, and nothing else between may write memory.
    let mut seen_loads = 0;
    let mut seen_stores = 0;
    let mut c = a.parent_block().first_instruction();
    while let Some(x) = c {
        if members.contains(&x) {
            if x.opcode() == Some(Opcode::LLVMLoad) {
                if seen_stores > 0 {
                    return None;
                }
                seen_loads += 1;
            } else {
                seen_stores += 1;
                if seen_stores == 2 {
                    break;
                }
            }
        } else if seen_loads > 0 && may_write_memory(x) {
            return None;
        }
        c = x.next_instruction();
    }
    (seen_loads == 2 && seen_stores == 2).then_some(swap)
}

/// Is `i` a load of a swap whose bytes type analysis cannot type (memory `Unknown` or
/// `Anything` at an address, the value not known to carry a float), between two
/// shadowed addresses? Activity marks such loads `shadowed`: the forward sweeps move
/// their shadow bytes. Swaps of typed bytes keep their usual treatment (floats active,
/// pointers moved by `moves_pointer_bits`, integers without a shadow).
pub fn swaps_untyped_bits(i: Value, ta: &TypeAnalysis, shadowed: impl Fn(Value) -> bool) -> bool {
    use crate::types::BaseType::{Anything, Unknown};
    let Some(s) = untyped_swap(i) else {
        return false;
    };
    s.addrs().iter().all(|&p| shadowed(p))
        && s.loads
            .iter()
            .all(|&l| ta.int_carries_fp(l).is_none() && !ta.value_tree(l).get(0).is_float())
        && s.addrs()
            .iter()
            .any(|&p| matches!(ta.pointee_tree(p).get(0), Unknown | Anything))
}

/// The swap `i` belongs to when activity moves its shadow bytes (`swaps_untyped_bits`).
pub fn shadowed_swap(act: &crate::activity::Activity, i: Value) -> Option<UntypedSwap> {
    untyped_swap(i).filter(|s| s.loads.iter().all(|l| act.shadowed.contains(l)))
}

/// The one store `v` has as its only user, storing `v` (not to `v`).
fn only_store_of(v: Value) -> Option<Value> {
    let users = v.users();
    match users.as_slice() {
        [s] if s.opcode() == Some(Opcode::LLVMStore) && s.operand(0) == v && s.operand(1) != v => {
            Some(*s)
        }
        _ => None,
    }
}

/// May `x` write memory? Stores, atomics, fences and calls, except the intrinsics that
/// only tell the optimizer something (`llvm.experimental.noalias.scope.decl`,
/// `llvm.assume`, lifetime markers, debug records).
fn may_write_memory(x: Value) -> bool {
    match x.opcode() {
        Some(
            Opcode::LLVMStore
            | Opcode::LLVMAtomicRMW
            | Opcode::LLVMAtomicCmpXchg
            | Opcode::LLVMFence
            | Opcode::LLVMVAArg
            | Opcode::LLVMInvoke,
        ) => true,
        Some(Opcode::LLVMCall) => !x.called_function().is_some_and(|f| {
            let n = f.name();
            [
                "llvm.experimental.noalias.scope.decl",
                "llvm.assume",
                "llvm.lifetime.",
                "llvm.dbg.",
            ]
            .iter()
            .any(|p| n.starts_with(p))
        }),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferrozyme_llvm::Module;

    /// The instruction named `%name` in function `f` of `ir`, checked by `check`.
    fn with(ir: &str, f: &str, check: impl Fn(&dyn Fn(&str) -> Value)) {
        let ctx = inkwell::context::Context::create();
        let m = crate::test_ir::parse(&ctx, ir);
        let m = Module::from_inkwell(&m);
        let g = m.function(f).expect("defined");
        let find = |name: &str| {
            g.instructions()
                .find(|i| i.name() == name)
                .unwrap_or_else(|| panic!("no %{name}"))
        };
        check(&find);
    }

    #[test]
    fn swap_found_from_each_member() {
        let ir = "define void @f(ptr %p, ptr %q) {\n\
             %a = load i64, ptr %p\n\
             %b = load i64, ptr %q\n\
             call void @llvm.assume(i1 true)\n\
             store i64 %b, ptr %p\n\
             store i64 %a, ptr %q\n\
             ret void\n}\n\
             declare void @llvm.assume(i1)\n";
        with(ir, "f", |find| {
            let (a, b) = (find("a"), find("b"));
            let s = untyped_swap(a).expect("a swap");
            assert_eq!(s.loads, [a, b]);
            assert_eq!(s.addrs(), [a.operand(0), b.operand(0)]);
            let t = untyped_swap(b).expect("the same swap from its other load");
            assert_eq!(t.loads, [b, a]);
            assert_eq!(untyped_swap(s.stores[0]).map(|x| x.loads), Some([a, b]));
            // `store %a, %q` comes last in the block: it stores `a`'s value.
            assert_eq!(s.last_store(), s.stores[0]);
            assert_eq!(t.last_store(), s.stores[0]);
        });
    }

    #[test]
    fn moved_and_read_or_interleaved_is_no_swap() {
        // The value is also added: its bytes are a number, not only moved.
        let read = "define i64 @f(ptr %p, ptr %q) {\n\
             %a = load i64, ptr %p\n\
             %b = load i64, ptr %q\n\
             store i64 %b, ptr %p\n\
             store i64 %a, ptr %q\n\
             %s = add i64 %a, 1\n\
             ret i64 %s\n}\n";
        with(read, "f", |find| {
            assert!(untyped_swap(find("a")).is_none());
            assert!(untyped_swap(find("b")).is_none());
        });
        // A store between the loads: `b` may read what it wrote.
        let between = "define void @g(ptr %p, ptr %q, ptr %r) {\n\
             %a = load i64, ptr %p\n\
             store i64 0, ptr %r\n\
             %b = load i64, ptr %q\n\
             store i64 %b, ptr %p\n\
             store i64 %a, ptr %q\n\
             ret void\n}\n";
        with(between, "g", |find| {
            assert!(untyped_swap(find("a")).is_none())
        });
        // A plain move (no load back): not a permutation.
        let moved = "define void @h(ptr %p, ptr %q) {\n\
             %a = load i64, ptr %p\n\
             store i64 %a, ptr %q\n\
             ret void\n}\n";
        with(
            moved,
            "h",
            |find| assert!(untyped_swap(find("a")).is_none()),
        );
    }
}
