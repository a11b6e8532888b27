//! The attribute macros of the [`ferrozyme`](https://docs.rs/ferrozyme) crate:
//! `#[autodiff_reverse]` and `#[autodiff_forward]`, shaped exactly like `std::autodiff`'s.
//!
//! Use them through the `ferrozyme` crate (`use ferrozyme::autodiff_reverse;`), which
//! also holds the runtime pieces the expansion refers to (`ferrozyme::__rt`) and the
//! documentation of the whole mechanism. This crate only rewrites syntax:
//!
//! * `activity` — the activity keywords and where each may appear (a table);
//! * `parse` — the attribute's arguments and the annotated function;
//! * `shape` — how each parameter is passed to the function the pass differentiates;
//! * `expand` — the derivative's signature and body.
#![forbid(unsafe_code)]

mod activity;
mod expand;
mod parse;
mod shape;

use proc_macro::TokenStream;

use activity::Mode;

/// Generates a reverse-mode derivative: `#[autodiff_reverse(NAME, [WIDTH,] ACTIVITIES…)]`.
/// See the `ferrozyme` crate for the generated signatures.
#[proc_macro_attribute]
pub fn autodiff_reverse(attr: TokenStream, item: TokenStream) -> TokenStream {
    run(Mode::Reverse, attr, item)
}

/// Generates a forward-mode derivative: `#[autodiff_forward(NAME, [WIDTH,] ACTIVITIES…)]`.
/// See the `ferrozyme` crate for the generated signatures.
#[proc_macro_attribute]
pub fn autodiff_forward(attr: TokenStream, item: TokenStream) -> TokenStream {
    run(Mode::Forward, attr, item)
}

fn run(mode: Mode, attr: TokenStream, item: TokenStream) -> TokenStream {
    let item2: proc_macro2::TokenStream = item.into();
    let out = parse::Config::parse(attr.into(), mode).and_then(|cfg| {
        let primal = parse::Primal::parse(item2.clone())?;
        expand::expand(mode, cfg, primal)
    });
    match out {
        Ok(ts) => ts.into(),
        // Keep the function itself so one mistake in the attribute does not cascade
        // into "cannot find function" errors at every call site.
        Err(e) => {
            let e = e.to_compile_error();
            quote::quote!(#e #item2).into()
        }
    }
}
