//! Assumed-shape dummies of a routine handed to a hook through Fortran's implicit
//! interface.
//!
//! `use ferrozyme` declares the hooks `external` (they take any arguments), so a
//! Fortran call `call __enzyme_autodiff(loss, enzyme_dup, x, dx)` passes every array by
//! its address. A routine whose dummy is assumed-shape (`real(8) :: x(:)`) expects a
//! descriptor there (base address, extents, strides): called with a bare address, the
//! derivative read the array's values as base address and extents and segfaulted
//! (tests/fortran/34). The address carries no extent, so no descriptor can be built
//! for it: the call is rejected, naming the argument and the explicit-shape wrapper to
//! write instead.
//!
//! A parameter is read as a descriptor when the routine addresses it through a
//! descriptor-shaped struct (`{ptr, i64, i32, i8, i8, i8, i8, ...}`: flang's -O0 GEPs)
//! or loads/stores its fields with flang's `"descriptor member"` TBAA type (-O1 and up).
//! Only actual arguments that are variables holding plain data (no pointers: not a
//! descriptor a C caller built, not a derived type with allocatable components, whose
//! dummy reads its components' descriptors the same way) are reported; others are left
//! as they were.

use ferrozyme_llvm::{Opcode, Type, TypeKind, Value};

/// flang's TBAA type name for the fields of a descriptor.
const DESCRIPTOR_TBAA: &str = "descriptor member";

/// How many uses of a parameter the check visits before it answers no.
const BUDGET: usize = 256;

/// Does `t` look like a flang descriptor: `{ptr, i64, i32, i8, i8, i8, i8, ...}`?
fn is_descriptor_type(t: Type) -> bool {
    if t.kind() != TypeKind::Struct {
        return false;
    }
    let f = t.struct_fields();
    f.len() >= 7
        && f[0].is_pointer()
        && f[1].int_width() == Some(64)
        && f[2].int_width() == Some(32)
        && f[3..7].iter().all(|b| b.int_width() == Some(8))
}

/// Is the access `i` (a load or store) tagged with flang's descriptor TBAA type?
fn descriptor_tbaa(i: Value) -> bool {
    let kind = i.ty().context().md_kind("tbaa");
    let Some(tag) = i.metadata(kind) else {
        return false;
    };
    let ops = tag.md_node_operands();
    // A struct-path tag: (base type, access type, offset); a type node's first operand
    // is its name.
    ops.get(1)
        .copied()
        .flatten()
        .and_then(|node| node.md_node_operands().first().copied().flatten())
        .and_then(|name| name.md_string())
        .is_some_and(|n| n == DESCRIPTOR_TBAA)
}

/// Does `func` read its parameter `p` as a descriptor?
pub(crate) fn reads_descriptor(p: Value) -> bool {
    let mut work = vec![p];
    let mut seen = 0;
    while let Some(v) = work.pop() {
        for u in v.users() {
            seen += 1;
            if seen > BUDGET {
                return false;
            }
            match u.opcode() {
                Some(Opcode::LLVMGetElementPtr) if u.operand(0) == v => {
                    if is_descriptor_type(u.gep_source_type()) {
                        return true;
                    }
                    work.push(u);
                }
                Some(Opcode::LLVMLoad) if descriptor_tbaa(u) => return true,
                Some(Opcode::LLVMStore) if u.operand(1) == v && descriptor_tbaa(u) => return true,
                // Captured for an OpenMP region (flang's struct of captures): the region
                // reads it through the field it loads (tests/errors/hpc39_*).
                Some(Opcode::LLVMStore) if u.operand(0) == v => {
                    work.extend(captured_in_region(u.operand(1)));
                }
                _ => {}
            }
        }
    }
    false
}

/// What parallel regions load back of the address stored at `field` when it is a field
/// of a struct of captures handed to them (`openmp::captured_field_loads`); nothing
/// otherwise.
fn captured_in_region(field: Value) -> Vec<Value> {
    use crate::parallel::openmp;
    match openmp::constant_offset(field) {
        Some((slot, off)) if slot.opcode() == Some(Opcode::LLVMAlloca) => {
            openmp::captured_field_loads(slot, off).unwrap_or_default()
        }
        _ => Vec::new(),
    }
}

/// Is the actual argument `a` (after GEPs) a variable holding only data, no pointers (a
/// Fortran array or scalar passed by address)? Such an object can be neither a
/// descriptor nor a derived type with allocatable components, whose scalar dummies
/// read their components' descriptors exactly as an assumed-shape dummy reads its own
/// (tests/fortran/31's `type(slot) :: pots(n)`): those are left alone.
pub(crate) fn is_plain_data_object(a: Value) -> bool {
    let mut a = a;
    while a.opcode() == Some(Opcode::LLVMGetElementPtr) {
        a = a.operand(0);
    }
    let t = if a.opcode() == Some(Opcode::LLVMAlloca) {
        a.allocated_type()
    } else if a.is_global_variable() {
        a.global_value_type()
    } else {
        return false;
    };
    !t.contains_pointer()
}

/// A flang procedure name for messages: `_QMshape34Ploss` is `loss` (module `shape34`),
/// `_QPloss` is `loss`; other names stay as they are.
pub(crate) fn fortran_name(symbol: &str) -> String {
    if let Some(rest) = symbol.strip_prefix("_QM") {
        if let Some((module, proc)) = rest.split_once('P') {
            return format!("`{proc}` (module `{module}`)");
        }
    }
    match symbol.strip_prefix("_QP") {
        Some(proc) => format!("`{proc}`"),
        None => format!("`{symbol}`"),
    }
}

#[cfg(test)]
mod tests {
    use super::fortran_name;

    #[test]
    fn flang_names_read_as_fortran() {
        assert_eq!(fortran_name("_QMshape34Ploss"), "`loss` (module `shape34`)");
        assert_eq!(fortran_name("_QPloss"), "`loss`");
        assert_eq!(fortran_name("loss_"), "`loss_`");
    }
}
