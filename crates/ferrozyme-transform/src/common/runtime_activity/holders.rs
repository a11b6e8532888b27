//! Which memory may hold a constant pointer that runtime activity made its own shadow.
//!
//! Once a constant pointer (an `enzyme_const` weights array) is stored into shadowed
//! memory, pointers read back from shadowed memory may be primals (`tainted`), and a call
//! that reads pointers where no check can follow (an indirect callee, a function without
//! IR) was refused whenever it was given shadowed memory holding pointers. Most of that
//! memory never holds the constant: difftest's `constw` struct `{const R *w; R s; R *out;
//! int n;}` on the stack receives it, while the objects a virtual call is given (their
//! vtable pointer, a float member) and the table of pointers to them do not (C++ seeds
//! 3060 at -O2 and 8062 at -O0; tests/c/1434).
//!
//! [`Holders`] is the set of stack objects the constant may be stored into, built while
//! the analysis finds the stores (the taken-over store itself, stores and copies of
//! maybe-primal pointers and records), or [`Holders::Anywhere`] when that cannot be
//! bounded. It stays a set only while every object in it is an `alloca` whose address
//! goes nowhere a pointer could be read back from: its address is only loaded from,
//! stored through, copied to or from by a memory intrinsic, compared, and given to
//! callees with IR that store no pointer outside their own stack and return none
//! ([`stores_no_pointers`]). Then no other memory can hold the constant or the address
//! of an object holding it, so a pointer into any other object reads no constant back.
//! A pointer such a callee *does* return, given the object's address, is an alias of the
//! object ([`local_aliases`]): libstdc++'s -O0 `_Rb_tree_const_iterator::operator->`,
//! given the iterator's slot, returns the node pointer read out of it, which the walk
//! cannot tell from the slot's address. The alias counts as a holder too and its uses are
//! followed like the address's; a store *through* it may reach any object
//! ([`Holders::Anywhere`]).
//! A function whose caller said its loads may be primals, a callee that may keep the
//! constant elsewhere, a parallel region: [`Holders::Anywhere`], as before.

use ferrozyme_analysis::calls::{classify, CallKind};
use ferrozyme_analysis::hash::HashSet;
use ferrozyme_llvm::{Opcode, Value};

use crate::common::base_object;

/// How many calls deep [`stores_no_pointers`] looks: libstdc++'s -O0 accessors nest four
/// deep (`_Rb_tree_const_iterator::operator->` -> `_M_valptr` -> `_M_ptr` -> `_M_addr`).
pub(super) const CALLEE_DEPTH: u32 = 6;

/// The memory that may hold a constant pointer taken over by runtime activity.
#[derive(Debug, Clone, Default)]
pub(super) enum Holders {
    /// Any shadowed memory.
    #[default]
    Anywhere,
    /// Only these stack objects (`alloca`s whose address does not escape) and the
    /// pointers calls given their addresses return ([`local_aliases`]).
    Objects(HashSet<Value>),
}

impl Holders {
    /// No memory yet, or any memory when the caller's loads may already be primals.
    pub(super) fn new(anywhere: bool) -> Self {
        if anywhere {
            Holders::Anywhere
        } else {
            Holders::Objects(HashSet::default())
        }
    }

    /// May a pointer read through `p` be a constant pointer taken over (`p` addresses an
    /// object that may hold one)?
    pub(super) fn may_hold(&self, p: Value) -> bool {
        let b = base_object(p);
        match self {
            _ if is_tape_header(b) => false,
            Holders::Anywhere => true,
            Holders::Objects(s) => s.contains(&b),
        }
    }

    /// The memory `p` points into may receive such a pointer.
    pub(super) fn add(&mut self, p: Value) {
        let Holders::Objects(s) = self else {
            return;
        };
        let b = base_object(p);
        let slot = b.opcode() == Some(Opcode::LLVMAlloca);
        if slot && s.contains(&b) {
            return;
        }
        // Through an alias (a pointer a call returned) the constant may go into whatever
        // object it points to.
        match slot.then(|| local_aliases(b)).flatten() {
            Some(aliases) => {
                s.insert(b);
                s.extend(aliases);
            }
            None => *self = Holders::Anywhere,
        }
    }

    /// The constant may end up anywhere.
    pub(super) fn everywhere(&mut self) {
        *self = Holders::Anywhere;
    }

    /// How many objects (`usize::MAX` for anywhere): the fixed point's progress.
    pub(super) fn size(&self) -> usize {
        match self {
            Holders::Anywhere => usize::MAX,
            Holders::Objects(s) => s.len(),
        }
    }
}

/// Is `b` the header of a tape stack of generated code being differentiated again (an
/// `alloca` the tape runtime is given: its buffer pointer, size and capacity)? No
/// constant is ever stored there; the records its buffer holds may hold one, and they
/// are reached through the buffer pointer loaded from it, whose base is that load. A
/// forward-over-reverse derivative with a constant kept in shadowed memory made the
/// buffer pointer maybe-primal and refused `__fz_grow_plain`'s `realloc` of it
/// (tests/cxx/486 at -O0, tests/c/1479).
fn is_tape_header(b: Value) -> bool {
    let takes = |u: Value, p: Value| {
        matches!(u.opcode(), Some(Opcode::LLVMCall))
            && u.call_args().first() == Some(&p)
            && u.called_function()
                .is_some_and(|g| crate::runtime::takes_stack_header(&g.name()))
    };
    b.opcode() == Some(Opcode::LLVMAlloca)
        && b.users().into_iter().any(|u| {
            takes(u, b)
                || (u.opcode() == Some(Opcode::LLVMGetElementPtr)
                    && u.users().into_iter().any(|w| takes(w, u)))
        })
}

/// The pointers calls return given the address of stack object `slot` (or an address
/// inside it, or such a pointer), where each call is to a function with IR storing no
/// pointer outside its own stack: the result may be the address itself, an address inside
/// the object, or a pointer read out of it, so the analysis follows it like the address.
/// `None` when the address (or an alias) can be read back from memory or reaches code
/// that may keep it, so that a pointer into another object could reach what `slot` holds.
/// (C++ seed 7020, tests/cxx/448 at -O0: `it->second` of an `enzyme_const`
/// `std::map`'s `find`, kept in the iterator's slot, made every object a holder, and the
/// pointers reloaded from the parameters' -O0 homes were refused at `cblas_daxpy`.)
fn local_aliases(slot: Value) -> Option<Vec<Value>> {
    let mut work = vec![slot];
    let mut seen: HashSet<Value> = HashSet::default();
    let mut aliases = Vec::new();
    while let Some(p) = work.pop() {
        if !seen.insert(p) {
            continue;
        }
        for u in p.users() {
            let ok = match u.opcode() {
                Some(
                    Opcode::LLVMGetElementPtr | Opcode::LLVMBitCast | Opcode::LLVMAddrSpaceCast,
                ) if u.operand(0) == p => {
                    work.push(u);
                    true
                }
                Some(Opcode::LLVMLoad | Opcode::LLVMICmp) => true,
                Some(Opcode::LLVMStore) => u.operand(0) != p,
                Some(Opcode::LLVMCall | Opcode::LLVMInvoke) if returns_alias(u, p) => {
                    aliases.push(u);
                    work.push(u);
                    true
                }
                Some(Opcode::LLVMCall | Opcode::LLVMInvoke) => call_keeps_address_local(u, p),
                _ => false,
            };
            if !ok {
                return None;
            }
        }
    }
    Some(aliases)
}

/// Does call `u`, given address `p` (not as the callee), return a plain pointer from a
/// function with IR that stores no pointer outside its own stack ([`local_aliases`])?
fn returns_alias(u: Value, p: Value) -> bool {
    u.called_value() != p
        && u.ty().is_pointer()
        && matches!(classify(u), CallKind::Defined(g) if stores_no_pointers(g, CALLEE_DEPTH))
}

/// Does call `u`, given address `p`, neither keep it nor hand it back: a lifetime or debug
/// marker, a memory intrinsic (it copies bytes, the addresses it is given stay its
/// operands), or a function with IR that returns no pointer and stores none outside its
/// own stack?
fn call_keeps_address_local(u: Value, p: Value) -> bool {
    if u.is_lifetime_marker() {
        return true;
    }
    if u.called_value() == p {
        return false;
    }
    match classify(u) {
        CallKind::Memcpy | CallKind::Memmove | CallKind::Memset => u
            .call_args()
            .iter()
            .position(|a| *a == p)
            .is_some_and(|k| k < 2),
        CallKind::Defined(g) => !u.ty().contains_pointer() && stores_no_pointers(g, CALLEE_DEPTH),
        _ => u.called_function().is_some_and(|g| {
            g.name().starts_with("llvm.dbg") || g.name().starts_with("llvm.assume")
        }),
    }
}

/// Does `g` (and what it calls, `depth` levels deep) store no pointer into memory other
/// than its own stack slots, so that it can neither keep a pointer it is given or reads
/// nor move one from one object to another? (clang -O0 homes every parameter in a slot:
/// those stores stay inside the call.) Calls of math functions are fine; anything else
/// without IR, indirect calls and memory copies into other memory are not.
pub(super) fn stores_no_pointers(g: Value, depth: u32) -> bool {
    let own_slot = |p: Value| base_object(p).opcode() == Some(Opcode::LLVMAlloca);
    // Each function is walked once per question, at the depth it was first reached.
    let mut seen: HashSet<Value> = HashSet::default();
    let mut work = vec![(g, depth)];
    while let Some((g, depth)) = work.pop() {
        if g.is_declaration() || depth == 0 {
            return false;
        }
        if !seen.insert(g) {
            continue;
        }
        for i in g.blocks().into_iter().flat_map(|b| b.instructions()) {
            let ok = match i.opcode() {
                Some(Opcode::LLVMStore) => {
                    !i.operand(0).ty().contains_pointer() || own_slot(i.operand(1))
                }
                Some(Opcode::LLVMAtomicRMW | Opcode::LLVMAtomicCmpXchg) => false,
                Some(Opcode::LLVMCall | Opcode::LLVMInvoke) if i.is_lifetime_marker() => true,
                Some(Opcode::LLVMCall | Opcode::LLVMInvoke) => match classify(i) {
                    CallKind::Math(_) | CallKind::NoDerivative | CallKind::TypeHint => true,
                    CallKind::Memcpy | CallKind::Memmove => own_slot(i.call_args()[0]),
                    CallKind::Memset => true,
                    CallKind::Defined(h) => {
                        work.push((h, depth - 1));
                        true
                    }
                    _ => i
                        .called_function()
                        .is_some_and(|h| h.name().starts_with("llvm.dbg")),
                },
                _ => true,
            };
            if !ok {
                return false;
            }
        }
    }
    true
}
