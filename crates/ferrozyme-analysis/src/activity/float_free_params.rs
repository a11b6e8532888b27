//! Pointer parameters of C++ functions that, by their declared type, address only
//! float-free data.
//!
//! `std::map<std::string, double>::operator[](std::string &&)` takes its key as a
//! `std::string &&`. The Itanium-mangled name spells that type, and a `std::string`
//! holds characters, a length and a pointer to more characters: nothing reachable from
//! it is floating point (`library_types::float_free`). Run-time activity uses this when
//! such a parameter is `enzyme_const` and is stored into memory that has a shadow (the
//! key moved into a new tree node): whatever pointer is, at run time, its own shadow then
//! addresses float-free memory, so a returned pointer that every caller uses as a
//! `double &` ([`result_used_only_as_fp`]) never is one (`common::runtime_activity` in
//! the transform). The callers' accesses are the evidence because type analysis merges a
//! tree node's fields with its header's (the `double` at offset 64 reads as anything).
//!
//! The demangled parameters are aligned with the IR's from the end (a hidden `this` or
//! result slot comes first), and only when every parameter's kind fits the x86-64 ABI
//! (`library_types::param_fits`); anything else (classes by value, variadic functions,
//! C functions) answers no for every parameter.

use ferrozyme_llvm::Value;

use crate::library_types::{demangle, float_free, param_fits, parse_signature};

/// For each IR parameter of `f` (named `name`: the original of a clone), whether it is a
/// pointer or reference the mangled signature declares to float-free data.
pub fn float_free_pointer_params(f: Value, name: &str) -> Vec<bool> {
    let ir = f.params();
    let none = vec![false; ir.len()];
    let Some(sig) = demangle(name).and_then(|d| parse_signature(&d)) else {
        return none;
    };
    let n = sig.params.len();
    if ir.len() < n || ir.len() - n > 2 || sig.params.iter().any(|p| p.contains("...")) {
        return none;
    }
    let hidden = ir.len() - n;
    if !ir[..hidden].iter().all(|p| p.ty().is_pointer()) {
        return none;
    }
    let fits = sig.params.iter().zip(&ir[hidden..]).all(|(t, p)| {
        let ty = p.ty();
        param_fits(t, ty.is_pointer(), ty.is_fp_scalar(), ty.is_integer())
    });
    if !fits {
        return none;
    }
    let mut out = none;
    for (k, t) in sig.params.iter().enumerate() {
        let t = t.trim();
        let indirect = t.ends_with('*') || t.ends_with('&');
        out[hidden + k] = indirect && ir[hidden + k].ty().is_pointer() && float_free(t);
    }
    out
}

/// Is `f` called (directly) at least once, and is every call's result used only as the
/// address of floating-point loads and stores (`p["k"] = x`, `p.at("k") * y`)? The
/// language's aliasing rules then say the returned pointer addresses floating-point data.
pub fn result_used_only_as_fp(f: Value) -> bool {
    use ferrozyme_llvm::Opcode::{LLVMCall, LLVMInvoke, LLVMLoad, LLVMStore};
    let calls: Vec<Value> = f
        .users()
        .into_iter()
        .filter(|u| matches!(u.opcode(), Some(LLVMCall | LLVMInvoke)) && u.called_value() == f)
        .collect();
    if calls.is_empty() || calls.len() != f.users().len() || !f.ty().is_pointer() {
        return false;
    }
    calls.iter().all(|c| {
        c.users().into_iter().all(|u| match u.opcode() {
            Some(LLVMLoad) => u.ty().is_fp(),
            Some(LLVMStore) => {
                u.operand(1) == *c && u.operand(0) != *c && u.operand(0).ty().is_fp()
            }
            _ => false,
        })
    })
}

#[cfg(test)]
mod tests {
    use crate::library_types::{demangle, float_free, parse_signature};

    /// The key parameter of `std::map<std::string, double>::operator[](std::string &&)`
    /// is float-free; the `double &` of `std::lower_bound`'s value is not.
    #[test]
    fn string_keys_are_float_free_doubles_are_not() {
        let d = demangle("_ZNSt3mapINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEdSt4lessIS5_ESaISt4pairIKS5_dEEEixEOS5_").unwrap();
        let sig = parse_signature(&d).unwrap();
        assert_eq!(sig.params.len(), 1);
        assert!(float_free(sig.params[0].trim()), "{}", sig.params[0]);
        let d = demangle("_ZSt11lower_boundIPKddET_S2_S2_RKT0_").unwrap();
        let sig = parse_signature(&d).unwrap();
        assert_eq!(sig.params.len(), 3);
        assert!(sig.params.iter().all(|p| !float_free(p.trim())));
        assert!(!float_free("void*"));
    }
}
