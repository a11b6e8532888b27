//! The derivative function: its signature (exactly `std::autodiff`'s) and its body (one
//! call of Enzyme's ABI, which the AD pass replaces at link time).
//!
//! Phases:
//! 1. check the activities against the parameters (count, mode, type);
//! 2. the signature: each parameter, followed by its shadows (`d<x>_<i>` in reverse mode,
//!    made `&mut`; `b<x>_<i>` in forward mode, same type); `dret` after the parameters when
//!    the result is `Active`/`ActiveOnly`; the return type from the result's activity and
//!    the `Active` inputs (see `crate::activity`);
//! 3. the body: the *primal shim* (a closure coerced to a `fn` pointer, taking the result
//!    pointer and one pointer per parameter — `crate::shape`), then
//!    `__enzyme_autodiff(shim, [enzyme_width, N,] marker, ptr, shadows…, …)` (or
//!    `__enzyme_fwddiff`), then the primal result, adjoints or tangents read back.
//!
//! The hook is declared in the user's crate as a C-variadic function; the `ferrozyme`
//! crate defines it with a body that panics ("build with `cargo ferrozyme`"), so a plain
//! `cargo build` links and never computes a wrong number. `cargo ferrozyme` runs the pass,
//! which replaces every call of it before the program is linked.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::{GenericParam, Ident, ReturnType, Type};

use crate::activity::{Activity, Mode};
use crate::parse::{Config, Place, Primal};
use crate::shape::{is_owned_container, mut_ref, show, Param, Shape};

/// The whole expansion: the primal unchanged, then the derivative.
pub fn expand(mode: Mode, cfg: Config, primal: Primal) -> syn::Result<TokenStream> {
    let d = Derivative::new(mode, &cfg, &primal)?;
    let derivative = d.item()?;
    let original = &primal.tokens;
    Ok(quote! {
        #original
        #derivative
    })
}

struct Derivative<'a> {
    mode: Mode,
    cfg: &'a Config,
    primal: &'a Primal,
    params: Vec<(Param, Activity)>,
    /// The result type and its activity (`None` for `()`).
    ret: Option<(Type, Activity)>,
}

fn err(span: Span, msg: impl std::fmt::Display) -> syn::Error {
    syn::Error::new(span, msg)
}

impl<'a> Derivative<'a> {
    fn new(mode: Mode, cfg: &'a Config, primal: &'a Primal) -> syn::Result<Self> {
        let sig = &primal.sig;
        if sig.asyncness.is_some() {
            return Err(err(
                sig.fn_token.span,
                "async functions cannot be differentiated",
            ));
        }
        if sig.variadic.is_some() {
            return Err(err(
                sig.fn_token.span,
                "C-variadic functions cannot be differentiated",
            ));
        }
        let ret_ty = match &sig.output {
            ReturnType::Type(_, t) if !is_unit(t) => Some((**t).clone()),
            _ => None,
        };
        let n_in = sig.inputs.len();
        let want = n_in + usize::from(ret_ty.is_some());
        if cfg.activities.len() != want {
            return Err(err(
                cfg.name.span(),
                format!(
                    "`{}` takes {n_in} parameter(s){}, so the attribute needs {want} activities (one per parameter{}), found {}",
                    sig.ident,
                    if ret_ty.is_some() { " and returns a value" } else { "" },
                    if ret_ty.is_some() { ", then one for the result" } else { "" },
                    cfg.activities.len()
                ),
            ));
        }
        let mut params = Vec::new();
        for (arg, &(act, span)) in sig.inputs.iter().zip(&cfg.activities) {
            let p = Param::from_arg(arg)?;
            if !act.allowed(mode, true) {
                let why = if act == Activity::ActiveOnly {
                    " (ActiveOnly applies to the result; use Active for an input)".to_string()
                } else {
                    String::new()
                };
                return Err(err(
                    span,
                    format!(
                        "`{}` cannot annotate an input of #[{mode}]{why}; allowed: {}",
                        act.name(),
                        Activity::listing(mode, true)
                    ),
                ));
            }
            if act != Activity::Const && crate::shape::is_unsized_ref(&p.ty) {
                return Err(err(
                    span,
                    format!(
                        "`{}` is `{}` (a string or trait object reference), which has no derivative: mark it `Const`",
                        p.name,
                        show(&p.ty)
                    ),
                ));
            }
            if matches!(act, Activity::Duplicated | Activity::DuplicatedOnly)
                && !p.shape.is_indirect()
            {
                let fix = if is_owned_container(&p.ty) {
                    format!(
                        "pass it by reference (`&{0}`, or a slice) and mark that Duplicated",
                        show(&p.ty)
                    )
                } else {
                    "use Active for a float passed by value".to_string()
                };
                return Err(err(
                    span,
                    format!(
                        "`{}` needs a reference or raw pointer (its shadow receives the gradient), but `{}` is `{}`; {fix}",
                        act.name(),
                        p.name,
                        show(&p.ty)
                    ),
                ));
            }
            if act == Activity::Active && p.shape.is_indirect() {
                return Err(err(
                    span,
                    format!(
                        "`Active` is for floats passed by value, but `{}` is `{}`; use Duplicated for references and pointers",
                        p.name,
                        show(&p.ty)
                    ),
                ));
            }
            if act == Activity::Active && cfg.width > 1 {
                return Err(err(
                    span,
                    "`Active` inputs with a batch width are not supported (as in std::autodiff): pass the input by reference and mark it Duplicated",
                ));
            }
            if p.receiver && matches!(p.shape, Shape::Value(_)) && act != Activity::Const {
                if let Type::Path(tp) = &p.ty {
                    if !tp.path.is_ident("Self") {
                        return Err(err(
                            span,
                            "only `self`, `&self` and `&mut self` receivers are supported",
                        ));
                    }
                }
            }
            params.push((p, act));
        }
        let ret = match ret_ty {
            Some(t) => {
                let (act, span) = *cfg.activities.last().expect("counted above");
                if !act.allowed(mode, false) {
                    return Err(err(
                        span,
                        format!(
                            "`{}` cannot annotate the result of #[{mode}]; allowed: {}",
                            act.name(),
                            Activity::listing(mode, false)
                        ),
                    ));
                }
                if matches!(act, Activity::Active | Activity::ActiveOnly)
                    && (is_owned_container(&t) || Shape::of(&t).is_indirect())
                {
                    // The seed `dret: T` would be another heap block (or reference) the
                    // pass cannot tie to the result's (front40: a link-time
                    // cannot-deduce-type in `copy_nonoverlapping` for `-> Vec<f64>`).
                    return Err(err(
                        span,
                        format!(
                            "`{}` on the result is for floats returned by value (a float, or a struct, tuple or array of floats), but `{}` returns `{}`; write the result into a `&mut [f64]` parameter marked Duplicated (its shadow is the seed)",
                            act.name(),
                            sig.ident,
                            show(&t)
                        ),
                    ));
                }
                Some((t, act))
            }
            None => None,
        };
        Ok(Derivative {
            mode,
            cfg,
            primal,
            params,
            ret,
        })
    }

    fn width(&self) -> u32 {
        self.cfg.width
    }

    /// Shadow parameter names, `std::autodiff`'s: `d<x>_<lane>` (reverse), `b<x>_<lane>`.
    fn shadow_name(&self, p: &Param, lane: u32) -> Ident {
        let prefix = if self.mode == Mode::Reverse { "d" } else { "b" };
        format_ident!("{}{}_{}", prefix, p.name, lane, span = Span::call_site())
    }

    fn shadow_type(&self, p: &Param) -> Type {
        if self.mode == Mode::Reverse {
            mut_ref(&p.ty)
        } else {
            p.ty.clone()
        }
    }

    /// Types of the `Active` inputs, whose adjoints are returned.
    fn active_inputs(&self) -> Vec<(usize, &Param)> {
        self.params
            .iter()
            .enumerate()
            .filter(|(_, (_, a))| *a == Activity::Active)
            .map(|(i, (p, _))| (i, p))
            .collect()
    }

    /// The derivative's return type.
    fn return_type(&self) -> Type {
        let w = self.width() as usize;
        match self.mode {
            Mode::Forward => match &self.ret {
                None => syn::parse_quote!(()),
                Some((t, Activity::Dual)) if w == 1 => syn::parse_quote!((#t, #t)),
                Some((t, Activity::Dual)) => {
                    let n = w + 1;
                    syn::parse_quote!([#t; #n])
                }
                Some((t, Activity::DualOnly)) if w > 1 => syn::parse_quote!([#t; #w]),
                Some((t, _)) => t.clone(),
            },
            Mode::Reverse => {
                let base = match &self.ret {
                    Some((t, a)) if *a != Activity::ActiveOnly => Some(t.clone()),
                    _ => None,
                };
                let adj: Vec<Type> = self
                    .active_inputs()
                    .iter()
                    .map(|(_, p)| p.ty.clone())
                    .collect();
                match (base, adj.len()) {
                    (None, 0) => syn::parse_quote!(()),
                    (Some(b), 0) => b,
                    (None, 1) => adj[0].clone(),
                    (b, _) => {
                        let all: Vec<Type> = b.into_iter().chain(adj).collect();
                        syn::parse_quote!((#(#all),*))
                    }
                }
            }
        }
    }

    /// The derivative item.
    fn item(&self) -> syn::Result<TokenStream> {
        let sig = &self.primal.sig;
        let name = &self.cfg.name;
        let vis = &self.primal.vis;
        let generics = &sig.generics;
        let mut where_clause = generics.where_clause.clone();
        if self.primal.place == Place::TraitDecl && self.params.iter().any(|(p, _)| p.receiver) {
            // The shim passes `self` as a thin pointer.
            let wc = where_clause.get_or_insert_with(|| syn::parse_quote!(where));
            wc.predicates
                .push(syn::parse_quote!(Self: ::core::marker::Sized));
        }
        let mut inputs = Vec::new();
        for (p, act) in &self.params {
            let arg = &p.arg;
            inputs.push(quote!(#arg));
            if act.has_shadow() {
                for lane in 0..self.width() {
                    let n = self.shadow_name(p, lane);
                    let t = if p.receiver {
                        self.receiver_shadow_type(p)
                    } else {
                        self.shadow_type(p)
                    };
                    inputs.push(quote!(#n: #t));
                }
            }
        }
        if self.mode == Mode::Reverse {
            if let Some((t, Activity::Active | Activity::ActiveOnly)) = &self.ret {
                inputs.push(quote!(dret: #t));
            }
        }
        let unsafety = if sig.unsafety.is_some() || self.params.iter().any(|(_, a)| a.no_need()) {
            quote!(unsafe)
        } else {
            quote!()
        };
        let ret = self.return_type();
        let body = self.body()?;
        // `#[cfg]`s follow the primal (the derivative refers to it); other attributes (doc
        // comments, inline hints, further autodiff attributes) stay on the primal.
        let cfgs = self
            .primal
            .attrs
            .iter()
            .filter(|a| a.path().is_ident("cfg"));
        let doc = format!(
            " Derivative of [`{}`] generated by `#[{}]` (built by `cargo ferrozyme`).",
            sig.ident, self.mode
        );
        let params = &generics.params;
        let lt = if params.is_empty() {
            quote!()
        } else {
            quote!(<#params>)
        };
        Ok(quote! {
            #(#cfgs)*
            #[doc = #doc]
            #[allow(clippy::too_many_arguments, clippy::type_complexity, non_snake_case, unused_mut, unused_unsafe)]
            #vis #unsafety fn #name #lt (#(#inputs),*) -> #ret #where_clause #body
        })
    }

    fn receiver_shadow_type(&self, p: &Param) -> Type {
        match (&p.shape, self.mode) {
            (Shape::ThinRef { .. }, Mode::Reverse) => syn::parse_quote!(&mut Self),
            (Shape::ThinRef { mutable: true, .. }, Mode::Forward) => syn::parse_quote!(&mut Self),
            (Shape::ThinRef { .. }, Mode::Forward) => syn::parse_quote!(&Self),
            _ => p.ty.clone(),
        }
    }

    /// How the shim calls the primal: `f::<T>(…)` for free and associated functions
    /// without a receiver, `Self::f(…)` for methods (the derivative sits next to them).
    fn primal_path(&self) -> TokenStream {
        let sig = &self.primal.sig;
        let f = &sig.ident;
        let generic_args: Vec<TokenStream> = sig
            .generics
            .params
            .iter()
            .filter_map(|g| match g {
                GenericParam::Type(t) => {
                    let i = &t.ident;
                    Some(quote!(#i))
                }
                GenericParam::Const(c) => {
                    let i = &c.ident;
                    Some(quote!(#i))
                }
                GenericParam::Lifetime(_) => None,
            })
            .collect();
        let turbofish = if generic_args.is_empty() {
            quote!()
        } else {
            quote!(::<#(#generic_args),*>)
        };
        let method =
            self.primal.place == Place::TraitDecl || self.params.iter().any(|(p, _)| p.receiver);
        if method {
            quote!(Self::#f #turbofish)
        } else {
            quote!(#f #turbofish)
        }
    }
}

fn is_unit(t: &Type) -> bool {
    matches!(t, Type::Tuple(tt) if tt.elems.is_empty())
}

mod body;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::Config;

    /// The error `expand` gives for an attribute and a function (front40's new users).
    fn refusal(mode: Mode, attr: &str, item: &str) -> String {
        let cfg = Config::parse(attr.parse().unwrap(), mode).unwrap();
        let primal = Primal::parse(item.parse().unwrap()).unwrap();
        match expand(mode, cfg, primal) {
            Ok(_) => panic!("`{item}` expanded"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn owned_containers_get_a_fix_in_rust_terms() {
        let e = refusal(
            Mode::Reverse,
            "d_g, Duplicated, Active",
            "fn g(x: &[f64]) -> Vec<f64> { x.to_vec() }",
        );
        assert!(e.contains("but `g` returns `Vec<f64>`; write the result into a `&mut [f64]` parameter marked Duplicated"), "{e}");
        let e = refusal(
            Mode::Reverse,
            "d_d, Duplicated, Active",
            "fn d(v: Vec<f64>) -> f64 { v[0] }",
        );
        assert!(
            e.contains("but `v` is `Vec<f64>`; pass it by reference (`&Vec<f64>`, or a slice)"),
            "{e}"
        );
        let e = refusal(
            Mode::Reverse,
            "d_b, Active, Active",
            "fn b(x: &mut Vec<f64>) -> f64 { x[0] }",
        );
        assert!(
            e.contains("but `x` is `&mut Vec<f64>`; use Duplicated"),
            "{e}"
        );
    }
}
