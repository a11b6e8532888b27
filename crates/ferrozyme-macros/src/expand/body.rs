//! The derivative's body: the primal shim, the hook call, and what is read back.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};

use super::Derivative;
use crate::activity::{Activity, Mode};
use crate::shape::Shape;

/// Enzyme's argument markers, as the `extern` statics the generated code reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Marker {
    Dup,
    DupNoNeed,
    Const,
    Width,
}

impl Marker {
    fn ident(self) -> proc_macro2::Ident {
        let n = match self {
            Marker::Dup => "enzyme_dup",
            Marker::DupNoNeed => "enzyme_dupnoneed",
            Marker::Const => "enzyme_const",
            Marker::Width => "enzyme_width",
        };
        proc_macro2::Ident::new(n, Span::call_site())
    }

    /// The marker of an argument with activity `a`: pointers and by-value arguments alike
    /// travel as pointers, so every active one is `enzyme_dup` (or `enzyme_dupnoneed`).
    fn of(a: Activity) -> Marker {
        match a {
            Activity::Const => Marker::Const,
            Activity::DuplicatedOnly | Activity::DualOnly | Activity::ActiveOnly => {
                Marker::DupNoNeed
            }
            Activity::Active | Activity::Duplicated | Activity::Dual => Marker::Dup,
        }
    }
}

/// Pieces collected while walking the parameters.
#[derive(Default)]
struct Parts {
    /// Statements before the hook call (lengths, owned copies, accumulators).
    prelude: Vec<TokenStream>,
    /// The shim's parameters (`name: type`).
    shim_params: Vec<TokenStream>,
    shim_types: Vec<TokenStream>,
    /// The arguments of the primal call inside the shim.
    call_args: Vec<TokenStream>,
    /// The hook's arguments after the function (and the width).
    hook_args: Vec<TokenStream>,
    markers: Vec<Marker>,
}

impl Parts {
    fn marker(&mut self, m: Marker) {
        if !self.markers.contains(&m) {
            self.markers.push(m);
        }
        let i = m.ident();
        self.hook_args.push(quote!(#i));
    }
    fn shim_param(&mut self, name: &proc_macro2::Ident, ty: TokenStream) {
        self.shim_params.push(quote!(#name));
        self.shim_types.push(ty);
    }
}

impl Derivative<'_> {
    pub(super) fn body(&self) -> syn::Result<TokenStream> {
        let mut parts = Parts::default();
        let lanes: Vec<u32> = (0..self.width()).collect();
        // The result travels through an out-pointer.
        let ret_ptr = format_ident!("__fz_ret");
        let mut result_shadows = Vec::new();
        if let Some((t, act)) = &self.ret {
            parts
                .prelude
                .push(quote!(let mut #ret_ptr = ::core::mem::MaybeUninit::<#t>::uninit();));
            parts.shim_param(&ret_ptr, quote!(*mut #t));
            parts.marker(Marker::of(*act));
            parts.hook_args.push(quote!(#ret_ptr.as_mut_ptr()));
            if *act != Activity::Const {
                if self.mode == Mode::Reverse {
                    // The seed: every lane's shadow of the result starts as `dret`.
                    parts
                        .prelude
                        .push(quote!(let __fz_dret = ::core::mem::ManuallyDrop::new(dret);));
                }
                for &l in &lanes {
                    let s = format_ident!("__fz_rs{}", l);
                    let init = if self.mode == Mode::Reverse {
                        quote!(::ferrozyme::__rt::copy_of::<#t>(&__fz_dret))
                    } else {
                        quote!(::ferrozyme::__rt::zeroed::<#t>())
                    };
                    parts
                        .prelude
                        .push(quote!(let mut #s: #t = unsafe { #init };));
                    parts.hook_args.push(quote!(&mut #s as *mut #t));
                    result_shadows.push(s);
                }
            }
        }
        let mut adjoints = Vec::new();
        for (k, (p, act)) in self.params.iter().enumerate() {
            let x = &p.name;
            let sp = format_ident!("__fz_p{}", k);
            let sn = format_ident!("__fz_n{}", k);
            let shadows: Vec<proc_macro2::Ident> = if act.has_shadow() {
                lanes.iter().map(|&l| self.shadow_name(p, l)).collect()
            } else {
                Vec::new()
            };
            let marker = Marker::of(*act);
            match &p.shape {
                Shape::ThinRef { mutable, inner } => {
                    let (ptr_ty, conv, back) = if *mutable {
                        (quote!(*mut #inner), quote!(thin_mut), quote!(&mut *#sp))
                    } else {
                        (quote!(*const #inner), quote!(thin), quote!(&*#sp))
                    };
                    parts.shim_param(&sp, ptr_ty);
                    parts.call_args.push(back);
                    parts.marker(marker);
                    parts
                        .hook_args
                        .push(quote!(::ferrozyme::__rt::#conv::<#inner>(#x)));
                    for s in &shadows {
                        let conv = if self.mode == Mode::Reverse || *mutable {
                            quote!(thin_mut)
                        } else {
                            quote!(thin)
                        };
                        parts
                            .hook_args
                            .push(quote!(::ferrozyme::__rt::#conv::<#inner>(#s)));
                    }
                }
                Shape::SliceRef { mutable, elem } => {
                    let (ptr_ty, back, data) = if *mutable {
                        (
                            quote!(*mut #elem),
                            quote!(::core::slice::from_raw_parts_mut(#sp, #sn)),
                            quote!(#x.as_mut_ptr()),
                        )
                    } else {
                        (
                            quote!(*const #elem),
                            quote!(::core::slice::from_raw_parts(#sp, #sn)),
                            quote!(#x.as_ptr()),
                        )
                    };
                    parts.shim_param(&sp, ptr_ty);
                    parts.shim_param(&sn, quote!(usize));
                    parts.call_args.push(back);
                    parts.prelude.push(quote!(let #sn: usize = #x.len();));
                    parts.marker(marker);
                    parts.hook_args.push(data);
                    for s in &shadows {
                        let what = s.to_string();
                        parts
                            .prelude
                            .push(quote!(::ferrozyme::__rt::check_len(#what, #sn, #s.len());));
                        let d = if self.mode == Mode::Reverse || *mutable {
                            quote!(#s.as_mut_ptr())
                        } else {
                            quote!(#s.as_ptr())
                        };
                        parts.hook_args.push(d);
                    }
                    parts.marker(Marker::Const);
                    parts.hook_args.push(quote!(#sn));
                }
                Shape::RawPtr { inner, .. } => {
                    let ty = &p.ty;
                    parts.shim_param(&sp, quote!(#ty));
                    parts.call_args.push(quote!(#sp));
                    parts.marker(marker);
                    parts
                        .hook_args
                        .push(quote!(::ferrozyme::__rt::raw::<#inner>(#x)));
                    for s in &shadows {
                        parts
                            .hook_args
                            .push(quote!(::ferrozyme::__rt::raw::<#inner>(#s)));
                    }
                }
                Shape::RawSlice { mutable, elem } => {
                    let (ptr_ty, back) = if *mutable {
                        (
                            quote!(*mut #elem),
                            quote!(::core::ptr::slice_from_raw_parts_mut(#sp, #sn)),
                        )
                    } else {
                        (
                            quote!(*const #elem),
                            quote!(::core::ptr::slice_from_raw_parts(#sp, #sn)),
                        )
                    };
                    parts.shim_param(&sp, ptr_ty.clone());
                    parts.shim_param(&sn, quote!(usize));
                    parts.call_args.push(back);
                    parts.prelude.push(quote!(let #sn: usize = #x.len();));
                    parts.marker(marker);
                    parts.hook_args.push(quote!(#x as #ptr_ty));
                    for s in &shadows {
                        let what = s.to_string();
                        parts
                            .prelude
                            .push(quote!(::ferrozyme::__rt::check_len(#what, #sn, #s.len());));
                        parts.hook_args.push(quote!(#s as *const #elem));
                    }
                    parts.marker(Marker::Const);
                    parts.hook_args.push(quote!(#sn));
                }
                Shape::Value(t) => {
                    let owned = format_ident!("__fz_a{}", k);
                    parts
                        .prelude
                        .push(quote!(let #owned = ::core::mem::ManuallyDrop::new(#x);));
                    parts.shim_param(&sp, quote!(*const #t));
                    parts.call_args.push(quote!(::core::ptr::read(#sp)));
                    parts.marker(marker);
                    parts
                        .hook_args
                        .push(quote!(::ferrozyme::__rt::value_ptr::<#t>(&#owned)));
                    if *act == Activity::Active {
                        // The adjoint accumulates into a zeroed copy of the type.
                        let acc = format_ident!("__fz_adj{}", k);
                        parts.prelude.push(
                            quote!(let mut #acc: #t = unsafe { ::ferrozyme::__rt::zeroed::<#t>() };),
                        );
                        parts.hook_args.push(quote!(&mut #acc as *mut #t));
                        adjoints.push(acc);
                    }
                    for (l, s) in shadows.iter().enumerate() {
                        let tan = format_ident!("__fz_t{}_{}", k, l);
                        parts
                            .prelude
                            .push(quote!(let #tan = ::core::mem::ManuallyDrop::new(#s);));
                        parts
                            .hook_args
                            .push(quote!(::ferrozyme::__rt::value_ptr::<#t>(&#tan)));
                    }
                }
            }
        }

        let hook_name = match self.mode {
            Mode::Reverse => "__enzyme_autodiff",
            Mode::Forward => "__enzyme_fwddiff",
        };
        let width_args = if self.width() > 1 {
            let w = self.width() as i32;
            parts.markers.push(Marker::Width);
            let m = Marker::Width.ident();
            quote!(#m, #w as ::core::ffi::c_int,)
        } else {
            quote!()
        };
        let statics = parts.markers.iter().map(|m| {
            let i = m.ident();
            quote!(static #i: ::core::ffi::c_int;)
        });
        let f = self.primal_path();
        let call_args = &parts.call_args;
        let call = quote!(#f(#(#call_args),*));
        let shim_body = if self.ret.is_some() {
            quote!(::core::ptr::write(#ret_ptr, #call))
        } else {
            quote!({ #call; })
        };
        let shim_params = &parts.shim_params;
        let shim_types = &parts.shim_types;
        let prelude = &parts.prelude;
        let hook_args = &parts.hook_args;
        let result = self.result(&ret_ptr, &result_shadows, &adjoints);
        Ok(quote! {{
            #[allow(non_upper_case_globals, dead_code)]
            unsafe extern "C" {
                #(#statics)*
            }
            unsafe extern "C-unwind" {
                // Replaced by the AD pass at link time (`cargo ferrozyme`); the `ferrozyme`
                // crate's definition panics when the program was built without it.
                #[link_name = #hook_name]
                fn __fz_hook(f: *const (), ...);
            }
            // The function the pass differentiates: the user's function behind pointers.
            let __fz_shim: fn(#(#shim_types),*) = |#(#shim_params),*| unsafe { #shim_body };
            #(#prelude)*
            unsafe {
                __fz_hook(__fz_shim as *const (), #width_args #(#hook_args),*);
            }
            #result
        }})
    }

    /// The value the derivative returns, read back after the hook call.
    fn result(
        &self,
        ret_ptr: &proc_macro2::Ident,
        shadows: &[proc_macro2::Ident],
        adjoints: &[proc_macro2::Ident],
    ) -> TokenStream {
        let primal = quote!(unsafe { #ret_ptr.assume_init() });
        match self.mode {
            Mode::Forward => match &self.ret {
                None => quote!(()),
                Some((_, Activity::Dual)) if self.width() == 1 => {
                    let s = &shadows[0];
                    quote!((#primal, #s))
                }
                Some((_, Activity::Dual)) => quote!([#primal, #(#shadows),*]),
                Some((_, Activity::DualOnly)) if self.width() == 1 => {
                    let s = &shadows[0];
                    quote!(#s)
                }
                Some((_, Activity::DualOnly)) => quote!([#(#shadows),*]),
                Some(_) => primal,
            },
            Mode::Reverse => {
                let base = match &self.ret {
                    Some((_, a)) if *a != Activity::ActiveOnly => Some(primal),
                    _ => None,
                };
                match (base, adjoints.len()) {
                    (None, 0) => quote!(()),
                    (Some(b), 0) => b,
                    (None, 1) => {
                        let a = &adjoints[0];
                        quote!(#a)
                    }
                    (b, _) => {
                        let b = b.into_iter();
                        quote!((#(#b,)* #(#adjoints),*))
                    }
                }
            }
        }
    }
}
