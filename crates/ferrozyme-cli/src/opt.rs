//! `ferrozyme opt IN.{ll,bc} -o OUT.{ll,bc}`: the pass on one module, like `opt`.
//!
//! Load (text or bitcode, by content) → AD pass → verify → optionally `default<O<n>>` →
//! write bitcode when the output ends in `.bc`, text IR otherwise (`-o -` is stdout).
//! `--time-passes` prints the time of each phase (`timing.rs`'s table) on stderr.

use ferrozyme_transform::{Options, Span, Stamp};
use inkwell::context::Context;

use crate::args::{OptArgs, OptLevel};
use crate::error::CliError;
use crate::pipeline::{self, Emit};
use crate::timing::{self, Timer};

/// What `main` prints to stdout: the analysis printouts, then the module for `-o -`.
pub struct OptOutput {
    pub printout: String,
    pub module_text: Option<String>,
}

pub fn run(args: &OptArgs) -> Result<OptOutput, CliError> {
    let mut timer = Timer::default();
    let result = run_timed(args, &mut timer);
    if args.time_passes {
        eprint!("{}", timer.report());
    }
    result
}

fn run_timed(args: &OptArgs, timer: &mut Timer) -> Result<OptOutput, CliError> {
    let ctx = Context::create();
    let start = Stamp::now();
    let module = pipeline::load(&ctx, &args.input)?;
    timer.add_since(timing::LOAD_LINK, start);
    let opts = Options {
        print_activity: args.print_activity,
        print_type_analysis: args.print_type_analysis,
        check_gradients: false,
        enzyme: args.enzyme.clone(),
        remarks: false,
        vectorized_loops: args
            .opt
            .is_some_and(|l| pipeline::LoopOptions::from_flags(l, &[]).vectorize),
        check_source_attributes: false,
        loops_unpeeled: args.before_loop_unroll.then(|| match args.opt {
            Some(crate::args::OptLevel::O1) => 1,
            Some(crate::args::OptLevel::O3) => 3,
            _ => 2,
        }),
    };
    let start = Stamp::now();
    // The analyses' printouts before an error go where they go on success: stdout.
    let report = pipeline::differentiate(&module, &opts, &mut |text| print!("{text}"))?;
    timer.add_ad(Span::since(start), &report.times);
    // The pass verified the module after differentiating (`Report::verified`): one
    // verification, not two, as in `ferrozyme cc`.
    if !report.verified {
        let start = Stamp::now();
        pipeline::verify_after_ad(&module)?;
        timer.add_since(timing::VERIFY, start);
    }
    let start = Stamp::now();
    if let Some(level) = args.opt {
        let tm = pipeline::target_machine(&module, level)?;
        // As `ferrozyme cc` does before re-optimizing (`entry_inline.rs`).
        if level != OptLevel::O0 {
            ferrozyme_transform::entry_inline::inline_few_site_entries(
                ferrozyme_transform::Module::from_inkwell(&module),
                ferrozyme_transform::entry_inline::DEFAULT_CAP,
            );
        }
        // As `ferrozyme cc`: guarded packed indices unswitched by -O3's pipeline or after it.
        ferrozyme_transform::settle_guarded_indices(
            ferrozyme_transform::Module::from_inkwell(&module),
            pipeline::guarded_indices(level),
        );
        pipeline::optimize(
            &module,
            &tm,
            level,
            pipeline::LoopOptions {
                preheader_checks: report.carried_streams > 0,
                ordered_reductions: report.exact_streams > 0,
                ..pipeline::LoopOptions::from_flags(level, &[])
            },
        )?;
    }
    // After the pipeline (`adjoint_chain.rs`); without one only the adjoint mark goes.
    ferrozyme_transform::adjoint_chain::preaccumulate(
        ferrozyme_transform::Module::from_inkwell(&module),
        args.opt.is_some_and(|l| l != crate::args::OptLevel::O0),
    );
    timer.add_since(timing::OPTIMIZE, start);
    let mut out = OptOutput {
        printout: report.printout,
        module_text: None,
    };
    if args.output.as_os_str() == "-" {
        out.module_text = Some(module.print_to_string().to_string());
    } else {
        let kind = if args.output.extension().is_some_and(|e| e == "bc") {
            Emit::Bitcode
        } else {
            Emit::TextIr
        };
        // Writing IR needs no target machine; `emit` only uses it for machine code.
        match kind {
            Emit::Bitcode => {
                if !module.write_bitcode_to_path(&args.output) {
                    return Err(CliError::Failed(format!(
                        "cannot write '{}'",
                        args.output.display()
                    )));
                }
            }
            _ => pipeline::save_ir(&module, &args.output)?,
        }
    }
    Ok(out)
}
