//! `bsearch` and `lfind` on the differentiated path: registered-derivative rules in IR text
//! (linked by `builtin.rs` when the module declares them), in the library convention
//! (`blas.rs`: the activity mask first, every pointer followed by its shadow, a null
//! shadow for constant memory).
//!
//! A search reads the key and the table through the comparator, whose `int` result carries
//! no derivative, writes nothing, and returns a pointer to the element found or null.
//! The result is an address inside the table, so its shadow is the same address inside
//! the table's shadow: `dbase + (result - base)`, null when nothing was found or when the
//! table is constant memory (a null shadow: nothing may be read or written through it).
//! Nothing flows back: the reverse rule does nothing, and the forward rule returns the
//! result with that shadow. Vector lanes run the search once per lane, which is harmless
//! (it has no effect).
//!
//! Before these rules, a search of a table of the program's doubles (at `-O0` and under
//! `--ad-before-opt`: from `-O1` on glibc's inline `bsearch` is code, differentiated as
//! such) stopped the compile with missing-derivative (tests/c/1517). A search of a `const`
//! global table stays inactive, as before (`ferrozyme_analysis::calls`): it is classified
//! before the rule.

/// The table searches with built-in rules: (name, the `declare` line the module's
/// declaration must match). The table is argument 1 of each (`ferrozyme_abi::TABLE_SEARCHES`).
pub(crate) const SEARCHES: &[(&str, &str)] = &[
    // void *bsearch(const void *key, const void *base, size_t n, size_t size, cmp)
    ("bsearch", "declare ptr @bsearch(ptr, ptr, i64, i64, ptr)\n"),
    // void *lfind(const void *key, const void *base, size_t *n, size_t size, cmp)
    ("lfind", "declare ptr @lfind(ptr, ptr, ptr, i64, ptr)\n"),
];

/// The shadow helper shared by every search's rules (linked once).
pub(crate) const HELPERS_IR: &str = r#"
; The shadow of `%r`, a pointer into the table `%base` or null: the same offset into the
; table's shadow `%dbase`; null when `%r` or `%dbase` is null.
define internal ptr @__fz_search_shadow(ptr %r, ptr %base, ptr %dbase) {
entry:
  %miss = icmp eq ptr %r, null
  %const = icmp eq ptr %dbase, null
  %none = or i1 %miss, %const
  br i1 %none, label %null, label %found
found:
  %ri = ptrtoint ptr %r to i64
  %bi = ptrtoint ptr %base to i64
  %off = sub i64 %ri, %bi
  %s = getelementptr i8, ptr %dbase, i64 %off
  ret ptr %s
null:
  ret ptr null
}
"#;

/// The rule functions `__fz_aug.<name>`, `__fz_rev.<name>` and `__fz_fwd.<name>` of the
/// search `name` (one of [`SEARCHES`]; needs [`HELPERS_IR`]).
pub(crate) fn rules_ir(name: &str) -> String {
    // Parameters as the library convention passes them, and the call of the search.
    let (params, call) = match name {
        "bsearch" => (
            "i64 %m, ptr %key, ptr %dkey, ptr %base, ptr %dbase, i64 %n, i64 %size, ptr %cmp, ptr %dcmp",
            "call ptr @bsearch(ptr %key, ptr %base, i64 %n, i64 %size, ptr %cmp)",
        ),
        _ => (
            "i64 %m, ptr %key, ptr %dkey, ptr %base, ptr %dbase, ptr %n, ptr %dn, i64 %size, ptr %cmp, ptr %dcmp",
            "call ptr @lfind(ptr %key, ptr %base, ptr %n, i64 %size, ptr %cmp)",
        ),
    };
    format!(
        r#"
define {{ ptr, ptr, ptr }} @__fz_aug.{name}({params}) {{
  %r = {call}
  %s = call ptr @__fz_search_shadow(ptr %r, ptr %base, ptr %dbase)
  %t0 = insertvalue {{ ptr, ptr, ptr }} poison, ptr null, 0
  %t1 = insertvalue {{ ptr, ptr, ptr }} %t0, ptr %r, 1
  %t2 = insertvalue {{ ptr, ptr, ptr }} %t1, ptr %s, 2
  ret {{ ptr, ptr, ptr }} %t2
}}

define void @__fz_rev.{name}({params}, ptr %tape) {{
  ret void
}}

define {{ ptr, ptr }} @__fz_fwd.{name}({params}) {{
  %r = {call}
  %s = call ptr @__fz_search_shadow(ptr %r, ptr %base, ptr %dbase)
  %t0 = insertvalue {{ ptr, ptr }} poison, ptr %r, 0
  %t1 = insertvalue {{ ptr, ptr }} %t0, ptr %s, 1
  ret {{ ptr, ptr }} %t1
}}
"#
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_search_has_three_rules_calling_it() {
        for (name, decl) in SEARCHES {
            let ir = rules_ir(name);
            for f in ["aug", "rev", "fwd"] {
                assert!(ir.contains(&format!("@__fz_{f}.{name}(")), "{name}: {f}");
            }
            assert!(ir.contains(&format!("call ptr @{name}(")), "{name}");
            assert!(decl.contains(&format!("@{name}(")), "{name}");
            assert!(ferrozyme_abi::table_search(name) == Some(1), "{name}");
        }
    }
}
