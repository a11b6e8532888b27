//! How each parameter travels from the derivative to the function the pass differentiates.
//!
//! The pass sees one function per derivative, the *primal shim*: a closure whose
//! parameters are raw pointers (plus `usize` lengths), which rebuilds the user's arguments
//! and calls the user's function. Pointers are the one kind of argument whose shadow the
//! Enzyme ABI expresses without knowing how rustc lowers a Rust type to LLVM parameters
//! (a `&[f64]` is two IR values, a small struct may be one `i64`, a large one a pointer):
//!
//! | parameter type | shim parameters | shadow handed to the pass |
//! |---|---|---|
//! | `&T`, `&mut T` (`T: Sized`) | `*const T` / `*mut T` (the reference itself) | the shadow reference |
//! | `&[E]`, `&mut [E]` | data pointer + `usize` length | the shadow slice's data pointer (lengths must match) |
//! | `*const T`, `*mut T` | the pointer | the shadow pointer |
//! | `*const [E]`, `*mut [E]` | data pointer + length | the shadow's data pointer |
//! | anything else (by value) | `*const T` to a copy the derivative owns | a `T` in memory: the tangent, or the adjoint accumulator |
//!
//! So a by-value float marked `Active` is `enzyme_dup` of its address with a zeroed
//! accumulator as shadow, and its adjoint is read back from the accumulator; the result
//! travels the same way through an out-pointer whose shadow holds the seed (reverse) or
//! receives the tangent (forward). Slice lengths are `enzyme_const` integers, so the pass
//! never has to guess the type of the length word of a fat pointer in memory.

use quote::{quote, ToTokens};
use syn::{FnArg, Ident, Pat, Type};

/// The way a parameter is passed to the shim.
#[derive(Clone)]
pub enum Shape {
    ThinRef { mutable: bool, inner: Type },
    SliceRef { mutable: bool, elem: Type },
    RawPtr { inner: Type },
    RawSlice { mutable: bool, elem: Type },
    Value(Type),
}

/// One parameter of the primal function.
#[derive(Clone)]
pub struct Param {
    /// The binding the derivative uses to refer to it (`self` for receivers).
    pub name: Ident,
    /// The parameter exactly as written (re-emitted in the derivative's signature).
    pub arg: FnArg,
    /// Its type (`&Self`, `&mut Self` or `Self` for receivers).
    pub ty: Type,
    pub shape: Shape,
    pub receiver: bool,
}

impl Shape {
    /// Reads the shape off the type as written. Type aliases of slices are not seen
    /// through; they are passed as references to sized types, which the generated code
    /// checks (`ferrozyme::__rt::thin` requires `Sized`), so they fail to compile rather
    /// than lose their length.
    pub fn of(ty: &Type) -> Shape {
        match strip_groups(ty) {
            Type::Reference(r) => {
                let mutable = r.mutability.is_some();
                match strip_groups(&r.elem) {
                    // `&str`, `&dyn Trait`: unsized and not slices of floats; the
                    // reference itself (a fat pointer, `Copy`) is passed by value, so
                    // they can be `Const` (configuration, callbacks).
                    elem if is_unsized_non_slice(elem) => Shape::Value(ty.clone()),
                    Type::Slice(s) => Shape::SliceRef {
                        mutable,
                        elem: (*s.elem).clone(),
                    },
                    inner => Shape::ThinRef {
                        mutable,
                        inner: inner.clone(),
                    },
                }
            }
            Type::Ptr(p) => {
                let mutable = p.mutability.is_some();
                match strip_groups(&p.elem) {
                    Type::Slice(s) => Shape::RawSlice {
                        mutable,
                        elem: (*s.elem).clone(),
                    },
                    inner => Shape::RawPtr {
                        inner: inner.clone(),
                    },
                }
            }
            other => Shape::Value(other.clone()),
        }
    }

    /// Is the parameter passed by reference or pointer (so `Duplicated` applies)?
    pub fn is_indirect(&self) -> bool {
        !matches!(self, Shape::Value(_))
    }
}

/// `str` or `dyn Trait` (what a reference cannot be thin to, other than a slice).
fn is_unsized_non_slice(ty: &Type) -> bool {
    match ty {
        Type::TraitObject(_) => true,
        Type::Path(p) => p.qself.is_none() && p.path.is_ident("str"),
        _ => false,
    }
}

/// Is `ty` a reference to `str` or to a trait object (passed by value, `Const` only)?
pub fn is_unsized_ref(ty: &Type) -> bool {
    matches!(strip_groups(ty), Type::Reference(r) if is_unsized_non_slice(strip_groups(&r.elem)))
}

fn strip_groups(ty: &Type) -> &Type {
    match ty {
        Type::Group(g) => strip_groups(&g.elem),
        Type::Paren(p) => strip_groups(&p.elem),
        t => t,
    }
}

/// Does the type mention `impl Trait` (which the shim cannot name)?
pub fn mentions_impl_trait(ty: &Type) -> bool {
    ty.to_token_stream()
        .into_iter()
        .any(|t| matches!(&t, proc_macro2::TokenTree::Ident(i) if i == "impl"))
}

impl Param {
    pub fn from_arg(arg: &FnArg) -> syn::Result<Param> {
        match arg {
            FnArg::Receiver(r) => {
                let ty: Type = (*r.ty).clone();
                let name = Ident::new("self", r.self_token.span);
                Ok(Param {
                    name,
                    arg: arg.clone(),
                    shape: Shape::of(&ty),
                    ty,
                    receiver: true,
                })
            }
            FnArg::Typed(pt) => {
                let name = match &*pt.pat {
                    Pat::Ident(pi) if pi.subpat.is_none() => pi.ident.clone(),
                    other => {
                        return Err(syn::Error::new_spanned(
                            other,
                            "parameters of a differentiated function must be plain names (`x: T` or `mut x: T`), as in std::autodiff",
                        ))
                    }
                };
                let ty = (*pt.ty).clone();
                if mentions_impl_trait(&ty) {
                    return Err(syn::Error::new_spanned(
                        &pt.ty,
                        "`impl Trait` parameters cannot be differentiated through: use a named generic parameter (`fn f<F: Fn(f64) -> f64>(g: F)`)",
                    ));
                }
                Ok(Param {
                    name,
                    arg: arg.clone(),
                    shape: Shape::of(&ty),
                    ty,
                    receiver: false,
                })
            }
        }
    }
}

/// `&T` → `&mut T`, `*const T` → `*mut T` (the shadow of a reverse-mode argument, which
/// receives `+=`); other types are returned unchanged (callers reject them first).
pub fn mut_ref(ty: &Type) -> Type {
    match strip_groups(ty) {
        Type::Reference(r) => {
            let mut r = r.clone();
            r.mutability = Some(Default::default());
            Type::Reference(r)
        }
        Type::Ptr(p) => {
            let mut p = p.clone();
            p.const_token = None;
            p.mutability = Some(Default::default());
            Type::Ptr(p)
        }
        t => t.clone(),
    }
}

/// The tokens of a type, for messages.
/// The type as a user writes it, for messages (`Vec<f64>`, `&mut [f64]`: `quote`'s
/// token spacing, `Vec < f64 >`, tidied).
pub fn show(ty: &Type) -> String {
    let mut t = quote!(#ty).to_string();
    for (from, to) in [
        (" <", "<"),
        ("< ", "<"),
        (" >", ">"),
        (" ,", ","),
        (" ::", "::"),
        (":: ", "::"),
        ("& ", "&"),
        ("* ", "*"),
    ] {
        t = t.replace(from, to);
    }
    t
}

/// An owned container whose data lives on the heap (`Vec`, `Box`, `String`, maps, `Rc`):
/// it has no derivative of its own by value; its contents are reached through a reference.
pub fn is_owned_container(ty: &Type) -> bool {
    const OWNED: [&str; 10] = [
        "Vec", "VecDeque", "Box", "String", "Rc", "Arc", "HashMap", "BTreeMap", "HashSet",
        "BTreeSet",
    ];
    match ty {
        Type::Path(tp) => tp
            .path
            .segments
            .last()
            .is_some_and(|s| OWNED.contains(&s.ident.to_string().as_str())),
        Type::Paren(p) => is_owned_container(&p.elem),
        Type::Group(g) => is_owned_container(&g.elem),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(s: &str) -> Shape {
        Shape::of(&syn::parse_str::<Type>(s).unwrap())
    }

    #[test]
    fn shapes_of_common_types() {
        assert!(matches!(
            shape("&[f64]"),
            Shape::SliceRef { mutable: false, .. }
        ));
        assert!(matches!(
            shape("&'a mut [f32]"),
            Shape::SliceRef { mutable: true, .. }
        ));
        assert!(matches!(
            shape("&Vec<f64>"),
            Shape::ThinRef { mutable: false, .. }
        ));
        assert!(matches!(
            shape("&mut [f64; 3]"),
            Shape::ThinRef { mutable: true, .. }
        ));
        assert!(matches!(shape("*const f64"), Shape::RawPtr { .. }));
        assert!(matches!(
            shape("*mut [f64]"),
            Shape::RawSlice { mutable: true, .. }
        ));
        assert!(matches!(shape("f64"), Shape::Value(_)));
        assert!(matches!(shape("(f64, f64)"), Shape::Value(_)));
        assert!(matches!(shape("Box<[f64]>"), Shape::Value(_)));
        assert!(matches!(shape("&str"), Shape::Value(_)));
        assert!(matches!(shape("&'a dyn Fn(f64) -> f64"), Shape::Value(_)));
        let t: Type = syn::parse_str("&dyn Model").unwrap();
        assert!(is_unsized_ref(&t));
        let t: Type = syn::parse_str("&[f64]").unwrap();
        assert!(!is_unsized_ref(&t));
    }

    #[test]
    fn shadows_are_mutable() {
        let t: Type = syn::parse_str("&'a [f64]").unwrap();
        assert_eq!(show(&mut_ref(&t)), "&'a mut [f64]");
        let p: Type = syn::parse_str("*const f64").unwrap();
        assert_eq!(show(&mut_ref(&p)), "*mut f64");
        let v: Type = syn::parse_str("Vec<Vec<f64>>").unwrap();
        assert_eq!(show(&v), "Vec<Vec<f64>>");
        assert!(is_owned_container(&v));
        let m: Type = syn::parse_str("std::collections::HashMap<usize, f64>").unwrap();
        assert_eq!(show(&m), "std::collections::HashMap<usize, f64>");
        assert!(is_owned_container(&m));
        assert!(!is_owned_container(
            &syn::parse_str::<Type>("[f64; 3]").unwrap()
        ));
    }

    #[test]
    fn impl_trait_is_seen() {
        let t: Type = syn::parse_str("impl Fn(f64) -> f64").unwrap();
        assert!(mentions_impl_trait(&t));
        let t: Type = syn::parse_str("&[f64]").unwrap();
        assert!(!mentions_impl_trait(&t));
    }
}
