//! Automatic differentiation of Rust functions on **stable** Rust.
//!
//! The attributes have the shape of the nightly `std::autodiff` ones: code moves between
//! the two by changing the `use` line. Derivatives are made by Ferrozyme's AD pass (an
//! LLVM pass in the manner of Enzyme) when the program is linked by `cargo ferrozyme`.
//!
//! ```rust,no_run
//! use ferrozyme::autodiff_reverse;
//!
//! #[autodiff_reverse(d_rosenbrock, Duplicated, Active)]
//! fn rosenbrock(x: &[f64]) -> f64 {
//!     x.windows(2).map(|w| 100.0 * (w[1] - w[0] * w[0]).powi(2) + (1.0 - w[0]).powi(2)).sum()
//! }
//!
//! fn main() {
//!     let x = vec![1.5, -0.5, 2.0];
//!     let mut dx = vec![0.0; 3];
//!     let y = d_rosenbrock(&x, &mut dx, 1.0); // dx += 1.0 * ∇rosenbrock(x)
//!     println!("{y} {dx:?}");
//! }
//! ```
//!
//! ```sh
//! cargo build --release                   # in Ferrozyme's repository: target/release/cargo-ferrozyme
//! export PATH=/path/to/ferrozyme/target/release:$PATH
//! cargo ferrozyme run --release           # also build, test, bench, run --example, debug builds
//! ```
//!
//! A plain `cargo build` of the same program builds and links; calling a derivative then
//! panics with a message saying to build with `cargo ferrozyme` — never a number.
//!
//! # Attributes and activities
//!
//! `#[autodiff_reverse(NAME, [WIDTH,] ACTIVITY…)]` and `#[autodiff_forward(NAME, [WIDTH,]
//! ACTIVITY…)]` generate the function `NAME` next to the annotated one: one activity per
//! parameter, then one for the result (left out for `()`). Free functions, inherent
//! methods (`&self`, `&mut self`), trait methods (annotated where the trait declares them:
//! on a method of an `impl Trait for T` block the attribute is rustc's E0407, the
//! derivative being no member of the trait) and generic functions can be annotated;
//! `impl Trait` parameters (`pot: &impl Potential`) become named generic parameters of
//! the function and its derivative. `&str` and `&dyn Trait` parameters (a mode name, a
//! `&dyn Fn(f64) -> f64` callback) can be `Const` only.
//!
//! | activity | mode | on a parameter `x: T` | on the result |
//! |---|---|---|---|
//! | `Const` | both | passed as is, no derivative | primal result, no seed or tangent |
//! | `Active` | reverse | a float (or struct/tuple/array of floats) by value: its adjoint is returned | seed `dret: T` appended to the parameters |
//! | `ActiveOnly` | reverse | — (would drop an adjoint: rejected) | as `Active`, the primal result is not returned |
//! | `Duplicated` | reverse | a reference or raw pointer, followed by its shadow `dx_0: &mut T` into which the adjoint is **added** | — |
//! | `DuplicatedOnly` | reverse | as `Duplicated`, the primal memory need not be kept up to date (the derivative is an `unsafe fn`) | — |
//! | `Dual` | forward | followed by its tangent `bx_0: T` | `(primal, tangent)` |
//! | `DualOnly` | forward | as `Dual` (the derivative is an `unsafe fn`) | the tangent only |
//!
//! Reverse mode returns the primal result (unless it is `()` or `ActiveOnly`) followed by
//! the adjoints of the `Active` parameters, as a tuple when there are several. With
//! `WIDTH` = N, every shadow and tangent comes N times (`dx_0 … dx_{N-1}`); an `Active`
//! result still takes one seed `dret`, used for every lane (so the lanes differ by the
//! seeds of `Duplicated` outputs, not by it; `Active` parameters are refused with a width);
//! a `Dual` result is `[T; N + 1]` (primal first), a `DualOnly` one `[T; N]`.
//!
//! # What can be differentiated
//!
//! `f32` and `f64` code: slices, arrays, `Vec`, `Box`, structs and tuples of floats,
//! generic functions (each instance), closures and iterator chains, loops, `match`,
//! methods, static and dynamic (`dyn Trait`) dispatch, calls into other crates of the
//! build, Rust's allocator (`Vec` growth, `vec![0.0; n]`), the float methods of `core`/
//! `std` (`sqrt`, `exp`, `powi`, `powf`, `sin`, `ln`, `tanh`, `mul_add`, `hypot`,
//! `atan2` …; the list is `ferrozyme rules`), panicking paths (bounds and overflow
//! checks, `unwrap`), which never affect a derivative, and `std::hint::black_box`
//! (an empty assembly statement: the identity). What the pass cannot differentiate —
//! inline assembly that computes a value, a foreign function without IR, code it does not
//! understand — is a link-time error naming the Rust function and source line, never a
//! silently wrong derivative.
//!
//! # How `cargo ferrozyme` works
//!
//! `cargo ferrozyme <command> …` runs `cargo <command> …` with two stable `rustc` flags
//! in `RUSTFLAGS`: `-C linker-plugin-lto` (the crates' objects and rlibs carry LLVM
//! bitcode instead of machine code) and `-C linker=cargo-ferrozyme`, so that every link
//! — binary, test harness, example, benchmark — runs `cargo-ferrozyme` in its linker role.
//! A link whose bitcode calls a derivative hook then:
//!
//! 1. links the bitcode of all crates into one module (the stable rustc's LLVM is 22, the
//!    pass's) and removes what the program cannot reach (a library's derivatives an
//!    example never calls are not differentiated);
//! 2. imports, from the bitcode the standard library's rlibs embed, the bodies of the
//!    generic instances the differentiated code calls there (`RawVec` growth in debug
//!    builds and test harnesses), as `available_externally` copies;
//! 3. copies the functions each derivative differentiates (and what they call) and
//!    optimizes only the copies at `O2` or above — in debug builds too, where every
//!    iterator step is a call; the program's own functions keep the code rustc made;
//! 4. runs the AD pass, LLVM's verifier, an optimization of what the pass generated, and
//!    code generation of the whole module into one object;
//! 5. runs the real linker (cargo's configured one, else `cc`) with that object in place
//!    of the bitcode.
//!
//! Build scripts and proc macros are not part of this: `cargo ferrozyme` passes `--target
//! <host triple>` to cargo (unless a target is chosen), and cargo then gives the flags
//! only to the crates built for the target, so what runs at build time is compiled and
//! linked as by plain cargo. The program's artifacts are therefore in
//! `target/<host triple>/<profile>/` (`cargo ferrozyme run`/`test`/`bench` find them).
//! Links without derivative calls (programs that use none) go to the real linker
//! unchanged. Release-like profiles get line tables (`debug =
//! "line-tables-only"`, stripped from the binary) unless the manifest sets `debug`, so the
//! pass's errors name the source line. `FERROZYME_TIMINGS=<file>` appends the time of
//! each phase of each link; `FERROZYME_SAVE_TEMPS=<dir>` keeps the IR.
//!
//! Why this mechanism: `--emit=llvm-bc` gives one module per crate and no link step to
//! hook (test harnesses and examples would need their own driver); `RUSTC_WRAPPER` sees
//! one crate at a time; a linker wrapper sees the whole program, generics instantiated
//! in any crate included, exactly when cargo links it, with nothing but stable flags.
//!
//! Limits: the program's artifacts are in `target/<host triple>/<profile>/`, not
//! `target/<profile>/` (plain and AD builds of a crate then live side by side); a
//! `build.target` in `.cargo/config.toml` must be given as `CARGO_BUILD_TARGET` or
//! `--target`; `build.rustflags` and `target.<triple>.rustflags` are kept, but `rustflags`
//! in `[target.'cfg(…)']` tables are not (a warning says so: add them to `RUSTFLAGS`); a linker set in
//! `.cargo/config.toml` must be given as `FERROZYME_REAL_LINKER`; the whole program is
//! compiled as one LTO unit at link time, so links take longer than plain incremental
//! builds.
#![deny(unsafe_op_in_unsafe_fn)]

pub use ferrozyme_macros::{autodiff_forward, autodiff_reverse};

#[doc(hidden)]
pub mod __rt;
