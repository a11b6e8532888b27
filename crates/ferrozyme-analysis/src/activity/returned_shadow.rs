//! Does a call's pointer result need a shadow? Asked of the callee itself.
//!
//! Without more knowledge, a pointer returned by a function given a pointer with a
//! shadow is taken to have one too. At -O0 that made the iterator `std::lower_bound`
//! returns into an `enzyme_const` vector "shadowed" because the *query* (an active
//! `double`, passed by reference) has a shadow: the caller's iterator slot then got a
//! shadow, the constant pointer stored into it became its own shadow (runtime activity),
//! and the result was refused as "constant or differentiable depending on the run"
//! (tests/cxx/250 and 195 at -O0).
//!
//! The callee's own activity answers better: run the analysis on it with each argument's
//! activity at this call (a pointer with a shadow is `Dup`, an active float `Active`,
//! anything else `Const`) and look at what its `ret`s return. The nested analysis
//! over-approximates like the outer one (allocations, loads from shadowed memory and
//! calls of its own are shadowed the usual way), so a result it calls constant points to
//! no memory with a shadow. The nesting is depth-limited; at the limit (and for
//! recursion) the answer is the old one, "shadowed".
//!
//! Every result is asked about, and what is asked is stricter than "unshadowed": each
//! pointer argument not provably constant (`constant_pointers`) is passed as `Dup`, and
//! every pointer the callee returns must be provably constant. cxx26 asked only calls
//! whose arguments with a shadow were stack slots of floats (the query `double` of a
//! search): asking every call, with a merely unshadowed result taken as constant, gave
//! `std::map<std::string, double>::operator[]`'s reference no shadow at -O0
//! (tests/cxx/205: zero derivatives), very likely the unsoundness c/508 showed (a pointer
//! the analysis sees no shadow for, yet not constant, kept in an -O0 slot). With the
//! stricter question cxx/205 passes at every level and the restriction is gone, which
//! also lets the query reference passed down to `std::__lower_bound` be asked about
//! (cxx/195 and 250 at -O0).

use crate::hash::HashSet;

use ferrozyme_llvm::{Opcode, Value};

use super::constant_pointers::provably_constant;
use super::{Activity, ActivityInput, ArgActivity};
use crate::calls::{classify, CallKind};

/// The question asked at a call site, remembered per callee and argument activities.
impl Activity {
    /// May the pointer (or aggregate) `call` returns have a shadow? Asked of a defined
    /// callee's own activity (`returned_shadow`) while levels are left, else yes.
    pub(super) fn callee_may_return_shadow(
        &mut self,
        kind: CallKind,
        call: Value,
        input: &ActivityInput<'_>,
    ) -> bool {
        let CallKind::Defined(f) = kind else {
            return true;
        };
        if self.callee_depth == 0 || f == input.func {
            return true;
        }
        let args = super::constant_pointers::call_arg_activities(self, call, input);
        self.ask_callee_as_its_derivative(f, args, input)
    }

    /// [`Activity::ask_callee`], asked again at the callee's own depth by the top level
    /// where the first answer was "shadowed" (`ask_callee_at_its_depth`).
    pub(super) fn ask_callee_as_its_derivative(
        &mut self,
        f: Value,
        args: Vec<ArgActivity>,
        input: &ActivityInput<'_>,
    ) -> bool {
        let shallow = self.ask_callee(f, args.clone(), input);
        if !shallow || !self.top_level {
            return shallow;
        }
        self.ask_callee_at_its_depth(f, args, input)
    }

    /// The analysis a derivative is synthesized from (the top level) asks again where the
    /// question one level shallower said "shadowed": with the depth the callee's own
    /// derivative is analysed with, so that the caller agrees with what that derivative
    /// returns (a null shadow where it proves the pointer constant: tests/cxx/518's
    /// SIGSEGV, crash45). Deeper callers can still disagree with their callees;
    /// `ferrozyme-transform`'s `reverse/unshadowed_result.rs` stops at run time there.
    fn ask_callee_at_its_depth(
        &mut self,
        f: Value,
        args: Vec<ArgActivity>,
        input: &ActivityInput<'_>,
    ) -> bool {
        self.ask_remembered(f, args, input, Depth::Callee)
    }

    /// Does `f`, called with `args`, return a pointer that may have a shadow
    /// (`returns_shadow_at`, remembered)? Needs `callee_depth > 0`.
    fn ask_callee(&mut self, f: Value, args: Vec<ArgActivity>, input: &ActivityInput<'_>) -> bool {
        self.ask_remembered(f, args, input, Depth::Shallower)
    }

    /// [`returns_shadow_at`] at `depth`, remembered per depth.
    fn ask_remembered(
        &mut self,
        f: Value,
        args: Vec<ArgActivity>,
        input: &ActivityInput<'_>,
        depth: Depth,
    ) -> bool {
        let (levels, memo) = match depth {
            Depth::Shallower => (self.callee_depth - 1, &self.callee_returns),
            Depth::Callee => (self.callee_depth, &self.callee_returns_deep),
        };
        let key = (f, args);
        if let Some(&known) = memo.get(&key) {
            return known;
        }
        let answer = returns_shadow_at(
            f,
            &key.1,
            input.global_touchers,
            self.through_aggregates,
            (levels, false),
        );
        match depth {
            Depth::Shallower => self.callee_returns.insert(key, answer),
            Depth::Callee => self.callee_returns_deep.insert(key, answer),
        };
        answer
    }
}

/// The depth a callee is asked at: one level less than the asking analysis has left, or
/// the callee's own derivative's (`ask_callee_at_its_depth`).
#[derive(Clone, Copy)]
enum Depth {
    Shallower,
    Callee,
}

/// Does `f`'s own analysis, at the depth its derivative is synthesized with (a request
/// with argument activities `args`), prove every pointer it returns constant? Its
/// augmented forward then returns null shadows, whatever a caller that asked the same
/// question one level shallower (and got "shadowed" at the limit) expects
/// (`ferrozyme-transform`'s `reverse/unshadowed_result.rs`).
pub fn callee_proves_result_constant(
    f: Value,
    args: &[ArgActivity],
    global_touchers: &HashSet<Value>,
) -> bool {
    let top = (RETURNED_SHADOW_DEPTH, true);
    !returns_shadow_at(f, args, global_touchers, true, top)
}

/// How many callee levels the question is asked through.
pub const RETURNED_SHADOW_DEPTH: u32 = 2;

/// Does `f`, called with `args`, return a pointer with a shadow? `(depth, top_level)`:
/// `depth` is what is left of [`RETURNED_SHADOW_DEPTH`] for the callee's own calls; with
/// `top_level` the callee is analysed as its own derivative is (asking again at its
/// callees' depth where the answer was "shadowed"), which nests no further than that
/// since nested runs do not ask again.
fn returns_shadow_at(
    f: Value,
    args: &[ArgActivity],
    global_touchers: &HashSet<Value>,
    through_aggregates: bool,
    (depth, top_level): (u32, bool),
) -> bool {
    if f.is_declaration() || f.params().len() != args.len() {
        return true;
    }
    // Without type analysis the nested run does not follow pointers carried in
    // integers; and a pointer a function without IR (or an indirect or custom callee)
    // returns is not followed at all: such callees keep the old answer.
    let opaque = f.instructions().any(|i| {
        i.opcode() == Some(Opcode::LLVMIntToPtr)
            || (matches!(
                i.opcode(),
                Some(Opcode::LLVMCall) | Some(Opcode::LLVMInvoke)
            ) && i.ty().contains_pointer()
                && !matches!(
                    classify(i),
                    CallKind::Defined(_) | CallKind::Malloc | CallKind::Calloc | CallKind::Realloc
                ))
    });
    if opaque {
        return true;
    }
    let input = ActivityInput {
        func: f,
        args,
        global_touchers,
    };
    let mut nested = Activity::run_nested(&input, through_aggregates, depth, top_level);
    // Not merely unshadowed: provably constant (a pointer into a mutable global, c/508's
    // pool, may lack the shadow it needs).
    f.blocks()
        .into_iter()
        .filter_map(|b| b.terminator())
        .filter(|t| t.opcode() == Some(Opcode::LLVMRet) && t.num_operands() > 0)
        .any(|t| !provably_constant(&mut nested, t.operand(0), &input))
}
