//! The source name of a C++ variable from its mangled name, for markers declared in C++
//! with internal linkage or inside a namespace.
//!
//! Markers are recognised by the name of the global their value is loaded from
//! (`enzyme_dup`). C gives every file-scope variable its own name, `static` or not, and
//! so does C++ for one with external linkage at global scope (`int enzyme_dup;`). C++
//! mangles the others (Itanium ABI): `static int enzyme_dup;` is `_ZL10enzyme_dup`, one
//! in `namespace ad` is `_ZN2ad10enzyme_dupE`, one in an anonymous namespace
//! `_ZN12_GLOBAL__N_110enzyme_dupE` (and `L` before the last component when it is also
//! `static` there). A program that keeps its markers private to its file (so that two
//! files may each define them) is still an Enzyme program; its markers are the last
//! component of those names. Only these plain forms are read: a template argument, a
//! substitution or any other mangling is not a marker declaration and gives `None`.

/// The unqualified name of the namespace-scope variable `name` mangles, when `name` is
/// an Itanium-mangled variable name of the plain forms above; `None` otherwise.
pub fn variable_source_name(name: &str) -> Option<&str> {
    if let Some(rest) = name.strip_prefix("_ZL") {
        let (id, tail) = source_name(rest)?;
        return tail.is_empty().then_some(id);
    }
    let mut rest = name.strip_prefix("_ZN")?;
    loop {
        rest = rest.strip_prefix('L').unwrap_or(rest);
        let (id, tail) = source_name(rest)?;
        if tail == "E" {
            return Some(id);
        }
        rest = tail;
    }
}

/// `<length><identifier>` at the start of `s`: the identifier and what follows it.
fn source_name(s: &str) -> Option<(&str, &str)> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    let len: usize = s[..digits].parse().ok()?;
    let body = &s[digits..];
    if len == 0 || body.len() < len || !body.is_char_boundary(len) {
        return None;
    }
    Some(body.split_at(len))
}

#[cfg(test)]
mod tests {
    use super::variable_source_name as v;

    #[test]
    fn plain_forms() {
        assert_eq!(v("_ZL10enzyme_dup"), Some("enzyme_dup"));
        assert_eq!(v("_ZN2ad10enzyme_dupE"), Some("enzyme_dup"));
        assert_eq!(v("_ZN12_GLOBAL__N_110enzyme_dupE"), Some("enzyme_dup"));
        assert_eq!(v("_ZN2adL12enzyme_constE"), Some("enzyme_const"));
        assert_eq!(v("_ZN1a1bL9diffe_dupE"), Some("diffe_dup"));
    }

    #[test]
    fn other_names() {
        assert_eq!(v("enzyme_dup"), None);
        assert_eq!(v("_ZL10enzyme_du"), None);
        assert_eq!(v("_ZL10enzyme_dupX"), None);
        assert_eq!(v("_ZN2ad10enzyme_dup"), None);
        assert_eq!(v("_ZNE"), None);
        assert_eq!(v("_Z1fv"), None);
        assert_eq!(v("_ZNSt6vectorIdE4sizeEv"), None);
        assert_eq!(v("_ZL0"), None);
        assert_eq!(v("_ZL99x"), None);
    }
}
