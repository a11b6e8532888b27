//! `ferrozyme`: the command-line front end. This file only dispatches and prints; the
//! work is in `cc`, `opt` and `pipeline`, which never print.
#![forbid(unsafe_code)]

mod args;
mod cc;
mod deferred;
mod error;
mod fortran;
mod headers;
mod link;
mod o2_passes;
mod objects;
mod opt;
mod pipeline;
mod reduce;
mod split_codegen;
mod timing;
mod tools;

use std::io::Write;
use std::process::ExitCode;

use args::{CcArgs, Driver, OptArgs};
use error::CliError;

/// mimalloc serves every allocation of the process, LLVM's included: built with its
/// `override` feature it defines `malloc`/`free`, which the dynamic linker binds for
/// `libLLVM` too. The post-AD pipeline and code generation allocate and free millions of
/// small objects (glibc's `malloc`/`free` were about a tenth of `ferrozyme cc`'s CPU time
/// on `bench/compile_scaling`'s chain, `perf`); the generated code is the same (issue 18,
/// bench/README.md "cc15").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "\
ferrozyme — automatic differentiation of optimized LLVM IR (Enzyme-compatible)

USAGE:
    ferrozyme cc  [clang flags] sources... [-o out]   drop-in for clang-22 with AD in the pipeline
    ferrozyme c++ [clang flags] sources... [-o out]   drop-in for clang++-22
    ferrozyme fortran [flang flags] sources... [-o out]
                                                      drop-in for flang-22 (`use ferrozyme` works)
    ferrozyme opt IN.{ll,bc} -o OUT.{ll,bc} [-O<n>] [--print-activity] [--print-type-analysis]
                  [--time-passes] [--before-loop-unroll]
    ferrozyme reduce IN.{ll,bc} -o OUT.ll [--kind crash|verifier|diagnostic=<kind>|mismatch] [--timeout S]
                                                      shrink a failing module with llvm-reduce-22
    ferrozyme rules                                   what is differentiable: the rule table, as Markdown
    ferrozyme --help | --version

cc / c++ accept clang's flags (-O0..-O3 -Os -Oz, -g, -I, -D, -U, -std=, -f*, -m*, -W*,
-x, -c, -S, -emit-llvm, -o, -L, -l, objects and archives) and pass them to clang-22.
Fortran sources (.f90 .f .F90 ...) go to flang-22 in any of the three; with Fortran the
program is linked by flang (its runtime library).
Pipeline: clang -O<n> -emit-llvm -> link all bitcode -> AD -> verify -> default<O<n>>
-> codegen -> link. Ferrozyme's own flags:
    --ad-before-opt        differentiate unoptimized IR, then optimize (Enzyme paper baseline)
    --check-gradients      also compare every __enzyme_autodiff/__enzyme_fwddiff result with
                           finite differences at run time; a mismatch prints a warning naming
                           the call (FERROZYME_CHECK_GRADIENTS=0 disables, =verbose reports all)
    --save-temps=<dir>     keep <stem>.before-ad.ll, .after-ad.ll, .before-opt.ll (what the
                           post-AD pipeline gets), .after-opt.ll in <dir>
    --codegen-threads N    machine code of the object in N parts on N threads, joined with
                           `clang -r` (1: one part, as clang does); by default modules of
                           40,000 instructions and more use the cores (at most 4)
                           (FERROZYME_CODEGEN_THREADS=N when the flag is not given)
    -v                     show the clang commands run

Environment: FERROZYME_CLANG overrides the clang command (default clang-22),
FERROZYME_FLANG the flang command (default flang-22).
Exit status: 0 success, 1 error (diagnostics, malformed IR, a failing tool), 2 usage error.
";

/// No transparent huge pages for this process: mimalloc asks for them on its arenas
/// (`MADV_HUGEPAGE`), and each first touch of a 2 MiB range then zeroes all of it,
/// whether the allocator uses it or not. Without them `ferrozyme cc -O2 -c` of
/// `bench/compile_scaling`'s chain n = 320 and 640 peaks about a tenth lower, for the
/// same CPU time (issue 18, bench/compile_scaling/README.md "cg37"). The processes the
/// driver starts (clang, flang, the linker) inherit the setting and do not ask for them.
fn without_transparent_huge_pages() {
    ferrozyme_llvm::huge_pages::disable_transparent_huge_pages();
}

fn main() -> ExitCode {
    without_transparent_huge_pages();
    // std::env::args() would panic on a non-UTF-8 argument; report it instead.
    let argv: Result<Vec<String>, CliError> = std::env::args_os()
        .skip(1)
        .map(|a| {
            a.into_string()
                .map_err(|a| CliError::Usage(format!("argument {a:?} is not valid UTF-8")))
        })
        .collect();
    match argv.and_then(|argv| dispatch(&argv)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(e.exit_code() as u8)
        }
    }
}

fn dispatch(argv: &[String]) -> Result<(), CliError> {
    let Some((cmd, rest)) = argv.split_first() else {
        eprint!("{USAGE}");
        return Err(CliError::Usage("missing subcommand".into()));
    };
    match cmd.as_str() {
        "--help" | "-h" | "help" => {
            print!("{USAGE}");
            Ok(())
        }
        "--version" | "-V" => {
            println!("ferrozyme {} (LLVM 22)", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        "cc" | "c++" | "fortran" => {
            let driver = match cmd.as_str() {
                "cc" => Driver::C,
                "c++" => Driver::Cxx,
                _ => Driver::Fortran,
            };
            let args = CcArgs::parse(driver, rest)?;
            if args.help {
                print!("{USAGE}");
                return Ok(());
            }
            cc::run(&args, &mut |line| eprintln!("{line}"))
        }
        "rules" => {
            print!("{}", ferrozyme_rules::coverage::coverage_markdown());
            print!("{}", ferrozyme_abi::doc::abi_markdown());
            Ok(())
        }
        "opt" => {
            let args = OptArgs::parse(rest)?;
            if args.help {
                print!("{USAGE}");
                return Ok(());
            }
            let out = opt::run(&args)?;
            let mut stdout = std::io::stdout().lock();
            let written = stdout
                .write_all(out.printout.as_bytes())
                .and_then(|()| stdout.write_all(out.module_text.unwrap_or_default().as_bytes()))
                .and_then(|()| stdout.flush());
            written.map_err(|e| CliError::Failed(format!("cannot write to stdout: {e}")))
        }
        "reduce" => {
            let args = reduce::ReduceArgs::parse(rest)?;
            if args.help {
                print!("{USAGE}");
                return Ok(());
            }
            let summary = reduce::run(&args)?;
            eprintln!("{summary}");
            Ok(())
        }
        other => Err(CliError::Usage(format!(
            "unknown subcommand '{other}' (expected cc, c++, fortran, opt, reduce or rules)"
        ))),
    }
}
