//! The analyses one synthesis works from, computed on the preprocessed clone of the
//! function to differentiate: control flow, type analysis, activity.

use ferrozyme_analysis::activity::{Activity, ActivityInput, ArgActivity};
use ferrozyme_analysis::cfg::Cfg;
use ferrozyme_analysis::types::TypeAnalysis;
use ferrozyme_llvm::Value;

use crate::audit::const_pointers::ConstantSeeds;
use crate::common::runtime_activity::{self, RuntimeActivity};
use crate::options::Options;
use crate::services::Support;

/// The analyses synthesis works from, computed on the preprocessed clone.
pub(crate) struct Analyses {
    pub cfg: Cfg,
    pub act: Activity,
    pub types: TypeAnalysis,
    /// Where shadows may be primals at run time (`common::runtime_activity`).
    pub rt: RuntimeActivity,
}

impl Analyses {
    /// Activity of `clone` (a copy of the function being differentiated), from its type
    /// analysis `types` (see `Driver::types_for_clone`). Both modes follow shadow
    /// pointers through aggregates (the tape runtime's `{ptr, i64}` in higher-order
    /// code, a call returning a Rust slice or `Box<[f64]>` and the `extractvalue`s of it).
    pub fn run(
        support: &Support,
        clone: Value,
        types: TypeAnalysis,
        args: &[ArgActivity],
        runtime: &crate::signature::RuntimeIn,
        force_runtime: bool,
    ) -> Analyses {
        let mut act = Activity::run_full(
            &ActivityInput {
                func: clone,
                args,
                global_touchers: &support.touchers,
            },
            Some(&types),
            true,
        );
        act.restrict_to_useful_with(clone, Some(&types));
        let cfg = Cfg::new(clone);
        let reachable = cfg.reachable_blocks();
        let const_params = crate::audit::const_pointers::const_pointer_params(clone, args);
        let runtime_activity = |seeds| {
            runtime_activity::analyze(
                &reachable,
                &act,
                clone,
                runtime,
                |i| {
                    crate::audit::const_pointers::runtime_activity_store(
                        i,
                        &act,
                        &types,
                        &const_params,
                        runtime.loads,
                        seeds,
                    )
                },
                |v| crate::audit::const_pointers::kept_constant_pointer(v, &types, &const_params),
                |v| !crate::audit::const_pointers::points_to_integers_only(v, &types),
                |s| !force_runtime && crate::reverse::mixed::guarded_select(&act, s),
                |p| types.memory_may_hold_pointers(p),
            )
        };
        // Constant tables of pointers are their own shadows where runtime activity can
        // follow every use; otherwise they keep their null shadows, as before
        // (`const_pointers::stores_constant_table`).
        let mut rt = runtime_activity(ConstantSeeds::WithTables);
        if !rt.unguardable.is_empty() {
            rt = runtime_activity(ConstantSeeds::Floats);
        }
        Analyses {
            cfg,
            act,
            types,
            rt,
        }
    }

    /// The printouts `opts` asks for, naming the original function (in both modes: the
    /// tangent uses the type analysis too).
    pub fn print(&self, clone: Value, original: Value, opts: &Options) -> String {
        let rename = |s: String| {
            s.replace(
                &format!("@{}", clone.name()),
                &format!("@{}", original.name()),
            )
        };
        let mut out = String::new();
        if opts.print_activity {
            out.push_str(&rename(self.act.print(clone)));
            out.push_str(&rename(self.rt.print(clone)));
        }
        if opts.print_type_analysis {
            out.push_str(&rename(self.types.print(clone)));
        }
        out
    }
}
