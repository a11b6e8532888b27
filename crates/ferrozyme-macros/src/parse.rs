//! Reading the attribute (`d_f, [width,] activities…`) and the function it is applied to.
//!
//! The function may be a free function (also one nested in a block), a method in an `impl`
//! block, or a method declaration in a trait (with or without a default body): the three
//! shapes `std::autodiff` accepts. Errors are `syn::Error`s at the offending token, so the
//! user sees them where they typed the attribute.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{Attribute, Ident, LitInt, Signature, Token, Visibility};

use crate::activity::{Activity, Mode};

/// The parsed attribute arguments.
pub struct Config {
    pub name: Ident,
    pub width: u32,
    /// One per input parameter (receiver included), then one for the result if the
    /// function returns something.
    pub activities: Vec<(Activity, Span)>,
}

/// Largest batch width; the pass handles up to 64 lanes in forward mode.
pub const MAX_WIDTH: u32 = 64;

enum Arg {
    Ident(Ident),
    Int(LitInt),
}

impl Parse for Arg {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.peek(LitInt) {
            Ok(Arg::Int(input.parse()?))
        } else {
            Ok(Arg::Ident(input.parse()?))
        }
    }
}

impl Config {
    pub fn parse(attr: TokenStream, mode: Mode) -> syn::Result<Config> {
        let usage = format!(
            "expected `#[{mode}(NAME, [WIDTH,] ACTIVITY, …)]`: the name of the derivative to generate, an optional batch width, then one activity per input and one for the result"
        );
        let args = Punctuated::<Arg, Token![,]>::parse_terminated
            .parse2(attr)
            .map_err(|e| syn::Error::new(e.span(), format!("{usage} ({e})")))?;
        let mut it = args.into_iter().peekable();
        let name = match it.next() {
            Some(Arg::Ident(i)) => i,
            Some(Arg::Int(l)) => return Err(syn::Error::new(l.span(), usage)),
            None => return Err(syn::Error::new(Span::call_site(), usage)),
        };
        let mut width = 1;
        if let Some(Arg::Int(_)) = it.peek() {
            let Some(Arg::Int(l)) = it.next() else {
                unreachable!("peeked an integer")
            };
            width = l.base10_parse::<u32>()?;
            if width == 0 || width > MAX_WIDTH {
                return Err(syn::Error::new(
                    l.span(),
                    format!("the batch width must be between 1 and {MAX_WIDTH}"),
                ));
            }
        }
        let mut activities = Vec::new();
        for a in it {
            match a {
                Arg::Ident(i) => {
                    let act = Activity::parse(&i.to_string()).ok_or_else(|| {
                        syn::Error::new(
                            i.span(),
                            format!(
                                "unknown activity `{i}`: {mode} takes {} on inputs and {} on the result",
                                Activity::listing(mode, true),
                                Activity::listing(mode, false)
                            ),
                        )
                    })?;
                    activities.push((act, i.span()));
                }
                Arg::Int(l) => {
                    return Err(syn::Error::new(
                        l.span(),
                        "the batch width goes right after the name",
                    ))
                }
            }
        }
        Ok(Config {
            name,
            width,
            activities,
        })
    }
}

/// Where the function lives, which decides how the derivative refers to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A free (or nested) function, or an associated function in an `impl` block.
    Item,
    /// A method declaration in a trait: the derivative becomes a provided method.
    TraitDecl,
}

/// The function the attribute is applied to.
pub struct Primal {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    pub sig: Signature,
    pub place: Place,
    /// The item exactly as written, re-emitted unchanged.
    pub tokens: TokenStream,
}

impl Primal {
    pub fn parse(item: TokenStream) -> syn::Result<Primal> {
        // `impl` methods and free functions parse as items; trait methods (`fn f(&self);`
        // or with a default body but no visibility) as trait items.
        if let Ok(mut f) = syn::parse2::<syn::ItemFn>(item.clone()) {
            let tokens = if name_impl_traits(&mut f.sig) {
                f.to_token_stream()
            } else {
                item
            };
            return Ok(Primal {
                attrs: f.attrs,
                vis: f.vis,
                sig: f.sig,
                place: Place::Item,
                tokens,
            });
        }
        if let Ok(mut f) = syn::parse2::<syn::ImplItemFn>(item.clone()) {
            let tokens = if name_impl_traits(&mut f.sig) {
                f.to_token_stream()
            } else {
                item
            };
            return Ok(Primal {
                attrs: f.attrs,
                vis: f.vis,
                sig: f.sig,
                place: Place::Item,
                tokens,
            });
        }
        match syn::parse2::<syn::TraitItemFn>(item.clone()) {
            Ok(f) => Ok(Primal {
                attrs: f.attrs,
                vis: Visibility::Inherited,
                sig: f.sig,
                place: Place::TraitDecl,
                tokens: item,
            }),
            Err(_) => Err(syn::Error::new(
                Span::call_site(),
                "#[autodiff_reverse] and #[autodiff_forward] apply to functions and methods",
            )),
        }
    }
}

/// Rewrites `impl Trait` in the parameter types into named generic parameters
/// (`pot: &impl Pair` → `pot: &__FzImpl0` with `__FzImpl0: Pair`); returns whether it
/// did. For callers it is the same function (one with `impl Trait` parameters takes no
/// turbofish either), and the derivative's shim can then name the instance it calls.
fn name_impl_traits(sig: &mut Signature) -> bool {
    let mut named = Vec::new();
    for arg in sig.inputs.iter_mut() {
        if let syn::FnArg::Typed(pt) = arg {
            name_impl_traits_in(&mut pt.ty, &mut named);
        }
    }
    for (ident, bounds) in &named {
        sig.generics.params.push(syn::parse_quote!(#ident: #bounds));
    }
    !named.is_empty()
}

type Bounds = Punctuated<syn::TypeParamBound, Token![+]>;

fn name_impl_traits_in(ty: &mut syn::Type, named: &mut Vec<(Ident, Bounds)>) {
    use syn::Type;
    match ty {
        Type::ImplTrait(it) => {
            let ident = quote::format_ident!("__FzImpl{}", named.len());
            named.push((ident.clone(), it.bounds.clone()));
            *ty = syn::parse_quote!(#ident);
        }
        Type::Reference(r) => name_impl_traits_in(&mut r.elem, named),
        Type::Ptr(p) => name_impl_traits_in(&mut p.elem, named),
        Type::Paren(p) => name_impl_traits_in(&mut p.elem, named),
        Type::Group(g) => name_impl_traits_in(&mut g.elem, named),
        Type::Slice(sl) => name_impl_traits_in(&mut sl.elem, named),
        Type::Array(a) => name_impl_traits_in(&mut a.elem, named),
        Type::Tuple(t) => t
            .elems
            .iter_mut()
            .for_each(|e| name_impl_traits_in(e, named)),
        Type::Path(p) => {
            for seg in p.path.segments.iter_mut() {
                if let syn::PathArguments::AngleBracketed(ab) = &mut seg.arguments {
                    for a in ab.args.iter_mut() {
                        if let syn::GenericArgument::Type(t) = a {
                            name_impl_traits_in(t, named);
                        }
                    }
                }
            }
        }
        _ => {}
    }
}
