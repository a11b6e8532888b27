//! The result of type analysis: facts about the values of the analysed function(s), and
//! the questions the transform asks of them.

use crate::hash::HashMap;
use std::fmt::Write as _;
use std::rc::Rc;

use ferrozyme_llvm::{Module, TypeKind, Value};

use super::engine::scope::scope;
use super::engine::{type_seed, Engine};
use super::{BaseType, FpType, TypeTree};

/// The result of type analysis over one function and the functions connected to it.
pub struct TypeAnalysis {
    module: Module,
    vals: HashMap<Value, TypeTree>,
    ptrs: HashMap<Value, Rc<TypeTree>>,
    /// Rounds over the scope until the fixed point (or the bound); for tests and
    /// diagnostics.
    rounds: usize,
}

impl TypeAnalysis {
    /// Analyse `f` (and, interprocedurally, what it calls and what calls it) in `module`.
    pub fn run(module: Module, f: Value) -> TypeAnalysis {
        Self::run_for_clone(module, f, None)
    }

    /// Analyse `clone`, a copy of `original` made for differentiation: the clone has no
    /// callers of its own, so the original (with its callers) joins the scope and each
    /// parameter of the clone shares its tree with the original's parameter.
    ///
    /// This analyses the whole call-graph component; to analyse many clones of one
    /// component, a [`super::TypeSession`] shares that work.
    pub fn run_for_clone(module: Module, f: Value, original: Option<Value>) -> TypeAnalysis {
        let mut eng = Engine::new(module);
        let mut funcs = scope(f, &|_| false);
        if let Some(o) = original {
            funcs.extend(scope(o, &|_| false));
        }
        eng.add_functions(&funcs);
        if let Some(o) = original {
            let links: Vec<(Value, Value)> = f.params().into_iter().zip(o.params()).collect();
            eng.add_links(&links);
        }
        eng.solve();
        let rounds = eng.rounds();
        let (vals, ptrs) = eng.into_facts();
        TypeAnalysis {
            module,
            vals,
            ptrs,
            rounds,
        }
    }

    /// An analysis holding the given facts (see `session.rs`).
    pub(super) fn from_facts(
        module: Module,
        vals: HashMap<Value, TypeTree>,
        ptrs: HashMap<Value, Rc<TypeTree>>,
        rounds: usize,
    ) -> TypeAnalysis {
        TypeAnalysis {
            module,
            vals,
            ptrs,
            rounds,
        }
    }

    /// Number of interprocedural rounds the analysis ran.
    pub fn rounds(&self) -> usize {
        self.rounds
    }

    /// Tree of a value (for pointers: offset 0 is Pointer).
    pub fn value_tree(&self, v: Value) -> TypeTree {
        let mut t = type_seed(self.module, v);
        if let Some(s) = self.vals.get(&v) {
            t.merge(s);
        }
        t
    }

    /// What the pointed-to memory holds.
    pub fn pointee_tree(&self, ptr: Value) -> TypeTree {
        self.ptrs
            .get(&ptr)
            .map(|t| TypeTree::clone(t))
            .unwrap_or_default()
    }

    /// The one floating type found anywhere in the pointee: `None` when there is no float,
    /// when two floating types occur, or when some offset is `Anything` (conflict).
    pub fn memory_fp_type(&self, ptr: Value) -> Option<FpType> {
        let t = self.pointee_tree(ptr);
        if t.contains(BaseType::Anything) {
            return None;
        }
        let mut found = FpType::ALL
            .into_iter()
            .filter(|f| t.contains(f.base_type()));
        match (found.next(), found.next()) {
            (Some(f), None) => Some(f),
            _ => None,
        }
    }

    /// True when the pointee may hold pointers at some offset: a `Pointer`,
    /// `IntOrPointer` or `Anything` entry, or nothing known at all (conservative).
    pub fn memory_may_hold_pointers(&self, ptr: Value) -> bool {
        let t = self.pointee_tree(ptr);
        t.is_empty() || t.iter().any(|(_, b)| b.may_be_pointer())
    }

    /// Does a copy between `dst` and `src` move no entry of the kind `holds` picks, as far
    /// as type analysis knows the two sides together (at least one of them known, neither
    /// with such an entry)? What run-time activity needs of a copy out of memory whose
    /// shadow may be the primal (`reverse::calls::fwd_memcpy`, `tangent::calls`): a pair
    /// `{int, double}` copied out of a constant `std::map`'s node, whose layout the
    /// node's tree lacks (no pointers: nothing to copy as its own shadow, tests/cxx/422),
    /// or a pair of its iterators (no floats: the bytes are their own shadows, cxx/434).
    /// With a constant length `len` only the entries before it count: the bytes the copy
    /// moves (Eigen's `CwiseBinaryOp` constructor copies its 16-byte `Product` operand,
    /// two pointers, into an object whose scalar operand follows at offset 24: difftest
    /// C++ seeds 7112, 8096, tests/cxx/454).
    pub fn copy_moves_none(
        &self,
        dst: Value,
        src: Value,
        len: Option<i64>,
        holds: fn(BaseType) -> bool,
    ) -> bool {
        let moved = |p: Value| -> Vec<BaseType> {
            self.pointee_tree(p)
                .iter()
                .filter(|(o, _)| len.is_none_or(|n| *o < n))
                .map(|(_, b)| b)
                .collect()
        };
        let (d, s) = (moved(dst), moved(src));
        let known = d.len() + s.len() > 0;
        known && !d.iter().chain(s.iter()).any(|b| holds(*b))
    }

    /// For an integer-typed value: the float type it carries, if type analysis proves it is
    /// float data of the same width (`i32` ↔ `float`, `i64` ↔ `double`; integer vectors by
    /// their element).
    pub fn int_carries_fp(&self, v: Value) -> Option<FpType> {
        let ty = v.ty();
        let elem = if ty.kind() == TypeKind::Vector {
            ty.element_type()
        } else {
            ty
        };
        let width = elem.int_width()?;
        let fp = self.value_tree(v).get(0).fp_type()?;
        (fp.size() * 8 == width as u64).then_some(fp)
    }

    /// The type of the struct member a load or store `inst` moves, when its `!tbaa` is a
    /// struct-path tag naming a member of the access's exact width (`i64` for `long`,
    /// `i32` for `int`): `Integer`, `Pointer`, `Float` or `Double`. Under strict aliasing
    /// (without which clang emits no `!tbaa`) the bytes are that member in every execution
    /// reaching the access, whatever other objects context-insensitive facts merged into
    /// the memory (libstdc++'s `std::list` header, whose `_M_size` shares offset 16 with a
    /// `_List_node<double>`'s value). A scalar tag (`long *` punning of a `double` array)
    /// says nothing here: see `layout::tbaa_struct_member`. Without `!tbaa` (-O0), an
    /// integer access through a GEP of clang's named struct types selecting an integer
    /// member of its width is `Integer` (`layout::struct_gep_int_member`).
    pub fn access_member_type(&self, inst: Value) -> Option<BaseType> {
        let moved = match inst.opcode()? {
            ferrozyme_llvm::Opcode::LLVMLoad => inst,
            ferrozyme_llvm::Opcode::LLVMStore => inst.operand(0),
            _ => return None,
        };
        let size = super::layout::size_of(self.module, moved.ty())?;
        let Some(tag) = inst.metadata(self.module.context().md_kind("tbaa")) else {
            // Unoptimized IR: the member the address's struct GEP selects.
            let addr = inst.operand(if moved == inst { 0 } else { 1 });
            let width = super::layout::struct_gep_int_member(addr)?;
            return (moved.ty().int_width() == Some(width)).then_some(BaseType::Integer);
        };
        let (base, bytes) = super::layout::tbaa_struct_member(tag)?;
        (size == bytes).then_some(base)
    }

    /// The layout a `memcpy`'s `!tbaa.struct` gives, when its entries cover the `len` bytes
    /// of the copy, but for padding, with known scalar types: `(offset, base type)` per entry. A struct copy
    /// of storage that holds other types at other times (`std::function`'s `_Any_data`
    /// copying a lambda's captured doubles) is typed by the copy itself, as an access is
    /// by its `!tbaa` (strict aliasing; clang emits neither without it).
    ///
    /// Without `!tbaa.struct` (-O0), a copy into or out of a local variable of clang's
    /// named struct type, of exactly its size, moves that struct: its IR type's members
    /// (`layout::struct_type_tags`; `vec3 v = *vp` is `memcpy(%v, %vp, 24)` with `%v =
    /// alloca %struct.vec3`).
    pub fn copy_tags(&self, call: Value, len: i64) -> Option<Vec<(i64, BaseType)>> {
        let Some(md) = call.metadata(self.module.context().md_kind("tbaa.struct")) else {
            let args = call.call_args();
            return args.iter().take(2).find_map(|p| {
                if p.opcode() != Some(ferrozyme_llvm::Opcode::LLVMAlloca) {
                    return None;
                }
                let ty = p.allocated_type();
                let size = super::layout::size_of(self.module, ty)?;
                (size == len as u64)
                    .then(|| super::layout::struct_type_tags(self.module, ty))
                    .flatten()
            });
        };
        let mut entries = super::layout::tbaa_struct_entries(md);
        entries.sort_by_key(|e| e.0);
        // Bytes no entry names are padding (clang lists every scalar member, a union or
        // bitfield as one `char` entry): entries must not overlap or pass the end.
        let mut next = 0;
        for &(off, size, b) in &entries {
            if off < next || size <= 0 || b == BaseType::Unknown || b == BaseType::Anything {
                return None;
            }
            next = off + size;
        }
        (next <= len && !entries.is_empty())
            .then(|| entries.into_iter().map(|(o, _, b)| (o, b)).collect())
    }

    /// Human-readable per-instruction printout (`--print-type-analysis`).
    pub fn print(&self, f: Value) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "type analysis for @{}", f.name());
        let args = f.params();
        let insts = f.instructions();
        for v in args.into_iter().chain(insts) {
            let text = v.to_string();
            let text = text.lines().next().unwrap_or("").trim();
            let tree = if v.ty().is_pointer() {
                format!("ptr {}", self.pointee_tree(v))
            } else if v.ty().is_void() {
                String::from("{}")
            } else {
                self.value_tree(v).to_string()
            };
            let _ = writeln!(out, "  {text} : {tree}");
        }
        out
    }
}
