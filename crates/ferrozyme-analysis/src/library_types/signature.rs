//! The demangled C++ signature, taken apart just enough for `library_types`: the
//! function's qualified name, its parameter list, its `const` qualifier, and the return
//! type where templates spell it (`ferrozyme_llvm::demangle_cxx` demangles, with the
//! `cpp_demangle` crate). Operators whose names hold brackets (`operator<<`) are masked
//! while the text is split at top-level commas and spaces.

/// A demangled function name, taken apart.
#[derive(Debug, PartialEq, Eq)]
pub struct Signature {
    /// The qualified name (`std::ostream::operator<<`).
    pub name: String,
    /// The return type, when the mangling spells it (function templates).
    pub ret: Option<String>,
    pub params: Vec<String>,
    /// A `const` member function.
    pub is_const: bool,
}

/// Demangles an Itanium C++ name.
pub fn demangle(mangled: &str) -> Option<String> {
    ferrozyme_llvm::demangle_cxx(mangled)
}

/// `operator<<` and friends contain brackets that are not template brackets: they are
/// masked (with characters of the same width) while the text is split.
fn mask_operators(s: &str) -> String {
    let mut out = s.to_string();
    for op in [
        "operator<<=",
        "operator>>=",
        "operator<=>",
        "operator<<",
        "operator>>",
        "operator<=",
        "operator>=",
        "operator->*",
        "operator->",
        "operator<",
        "operator>",
        "operator()",
    ] {
        let masked = format!("operator{}", "@".repeat(op.len() - "operator".len()));
        out = out.replace(op, &masked);
    }
    out
}

/// Depth of brackets (`<>`, `()`, `[]`) before each byte of the masked text.
pub(super) fn split_top(s: &str, sep: char) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            _ => {}
        }
        if c == sep && depth == 0 {
            parts.push(cur.trim().to_string());
            cur.clear();
        } else {
            cur.push(c);
        }
    }
    if !cur.trim().is_empty() {
        parts.push(cur.trim().to_string());
    }
    parts
}

/// Takes a demangled function apart; `None` for anything else (variables, special names).
pub fn parse_signature(demangled: &str) -> Option<Signature> {
    let masked = mask_operators(demangled);
    let mut body = masked.trim_end();
    let mut is_const = false;
    // Trailing qualifiers of a member function.
    loop {
        if let Some(b) = body.strip_suffix(" const") {
            is_const = true;
            body = b.trim_end();
        } else if let Some(b) = body.strip_suffix(" volatile") {
            body = b.trim_end();
        } else if let Some(b) = body.strip_suffix(" &&").or_else(|| body.strip_suffix(" &")) {
            body = b.trim_end();
        } else {
            break;
        }
    }
    if !body.ends_with(')') {
        return None;
    }
    // The parameter list: the last top-level parenthesized group.
    let mut depth = 0i32;
    let mut open = None;
    for (i, c) in body.char_indices().rev() {
        match c {
            ')' | '>' | ']' => depth += 1,
            '(' | '<' | '[' => {
                depth -= 1;
                if depth == 0 && c == '(' {
                    open = Some(i);
                    break;
                }
            }
            _ => {}
        }
    }
    let open = open?;
    let params_text = &body[open + 1..body.len() - 1];
    let head = body[..open].trim_end();
    // `ret name` (templates) or `name`: the name is the last top-level word.
    let words = split_top(head, ' ');
    let (ret, name) = match words.len() {
        0 => return None,
        1 => (None, words[0].clone()),
        _ => {
            // A template's return type may contain spaces at top level (`unsigned long`):
            // the name is the last word that is not a template argument list.
            let mut name_at = words.len() - 1;
            while name_at > 0 && words[name_at].starts_with('<') {
                name_at -= 1;
            }
            let name = words[name_at..].join(" ");
            let ret = words[..name_at].join(" ");
            ((!ret.is_empty()).then_some(ret), name)
        }
    };
    let unmask = |s: &str| {
        // Restore the masked operator spellings from the original text by position is
        // not needed: callers only look at types and the qualified prefix.
        s.replace('@', "?")
    };
    let params: Vec<String> = if params_text.trim().is_empty() || params_text.trim() == "void" {
        Vec::new()
    } else {
        split_top(params_text, ',')
            .iter()
            .map(|p| unmask(p))
            .collect()
    };
    Some(Signature {
        name: unmask(&name),
        ret: ret.map(|r| unmask(&r)),
        params,
        is_const,
    })
}

/// The class a member function belongs to (everything before the last top-level `::` of
/// its name), or `None` for a function directly in a namespace.
pub fn owner_class(name: &str) -> Option<String> {
    let parts = split_top(name, ':');
    // `split_top` on ':' yields empty strings between the two colons; drop them.
    let parts: Vec<&String> = parts.iter().filter(|p| !p.is_empty()).collect();
    if parts.len() < 2 {
        return None;
    }
    let owner = parts[..parts.len() - 1]
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join("::");
    let namespaces = [
        "std",
        "std::__cxx11",
        "std::__detail",
        "__gnu_cxx",
        "std::chrono",
    ];
    (!namespaces.contains(&owner.as_str())).then_some(owner)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig(s: &str) -> Signature {
        parse_signature(s).unwrap_or_else(|| panic!("cannot parse {s}"))
    }

    #[test]
    fn signatures() {
        let s = sig("std::ostream::operator<<(double)");
        assert_eq!(s.params, ["double"]);
        assert_eq!(owner_class(&s.name).as_deref(), Some("std::ostream"));
        let s = sig("std::basic_ostream<char, std::char_traits<char> >& std::operator<< <std::char_traits<char> >(std::basic_ostream<char, std::char_traits<char> >&, char const*)");
        assert_eq!(s.params.len(), 2);
        assert_eq!(
            s.ret.as_deref(),
            Some("std::basic_ostream<char, std::char_traits<char> >&")
        );
        assert_eq!(owner_class(&s.name), None);
        let s = sig("std::__cxx11::basic_stringstream<char, std::char_traits<char>, std::allocator<char> >::str() const");
        assert!(s.is_const && s.params.is_empty());
        let s = sig("std::ios_base::ios_base()");
        assert_eq!(owner_class(&s.name).as_deref(), Some("std::ios_base"));
        assert!(parse_signature("typeinfo for std::ostream").is_none());
    }
}
