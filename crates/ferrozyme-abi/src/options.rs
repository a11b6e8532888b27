//! Enzyme's command-line options (`-enzyme-*`, LLVM `cl::opt`s in Enzyme's plugin), one
//! row each, with what Ferrozyme does with them.
//!
//! Scripts and build files written for Enzyme pass these to `opt` (`opt
//! -load-pass-plugin=... -passes=enzyme -enzyme-inline=1`) or to clang (`-mllvm
//! -enzyme-loose-types`). Ferrozyme's plugin registers every option in [`ENZYME_OPTIONS`]
//! with LLVM and `ferrozyme cc|c++|opt` accept them after `-mllvm` (`ferrozyme opt` also
//! bare), so such command lines keep working. Each row says how it is handled:
//!
//! * [`Handling::Honoured`]: Ferrozyme does what the option asks (printing, inlining,
//!   turning the pass off ...); the value reaches the pass as [`EnzymeSettings`].
//! * [`Handling::NoOp`]: an internal tuning knob of Enzyme's own implementation
//!   (caching strategies, preprocessing, Julia's address spaces); accepted, nothing to
//!   do, and the row says why the result is the same.
//! * [`Handling::RejectNonDefault`]: Enzyme's default value is accepted; any other value
//!   would ask for a behaviour Ferrozyme does not have, so silently ignoring it would
//!   change the results the user expects: it is an error saying so.
//!
//! Values follow LLVM's syntax: `-name`, `-name=value`, `--name=value`; booleans accept
//! `1/0/true/false/TRUE/FALSE/True/False`.

/// The kind of value an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptKind {
    Bool,
    Int,
    Str,
}

/// What Ferrozyme does with an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Handling {
    /// Done as asked: what it does in Ferrozyme.
    Honoured(&'static str),
    /// Accepted, no effect: why the result is the same.
    NoOp(&'static str),
    /// Enzyme's default accepted, other values refused: why.
    RejectNonDefault(&'static str),
}

/// One of Enzyme's options.
#[derive(Clone, Copy, Debug)]
pub struct EnzymeOption {
    /// The name without dashes (`enzyme-inline`).
    pub name: &'static str,
    pub kind: OptKind,
    /// Enzyme's default, as text (`"0"`, `"1"`, `"10000"`, `""`).
    pub default: &'static str,
    /// Enzyme's description.
    pub desc: &'static str,
    pub handling: Handling,
}

use Handling::{Honoured, NoOp, RejectNonDefault};
use OptKind::{Bool, Int, Str};

const fn opt(
    name: &'static str,
    kind: OptKind,
    default: &'static str,
    desc: &'static str,
    handling: Handling,
) -> EnzymeOption {
    EnzymeOption {
        name,
        kind,
        default,
        desc,
        handling,
    }
}

const CACHE: &str = "a choice among Enzyme's caching strategies; Ferrozyme decides what to cache or recompute by its own analysis (see -Rpass=enzyme), the derivative is the same";
const PREOPT: &str = "Enzyme's preprocessing of the function before differentiation; Ferrozyme always canonicalises its clone of the function (the user's functions are never changed), the derivative is the same";
const TYPES: &str = "a limit of Enzyme's type analysis; Ferrozyme's type analysis has its own limits, and where it cannot decide it reports cannot-deduce-type instead of guessing";
const JULIA: &str = "only meaningful for Julia's IR conventions";

/// Every Enzyme option Ferrozyme knows, sorted by name.
pub const ENZYME_OPTIONS: &[EnzymeOption] = &[
    opt("enzyme-aggressive-aa", Bool, "0", "Use more unstable but aggressive LLVM AA", NoOp("Ferrozyme uses its own alias reasoning; the derivative is the same")),
    opt("enzyme-always-inline", Bool, "0", "Mark generated functions as always-inline", Honoured("generated derivative functions get the alwaysinline attribute")),
    opt("enzyme-assume-unknown-nofree", Bool, "0", "Assume unknown instructions are nofree as needed", NoOp("Ferrozyme does not need free-ness facts of unknown calls (calls without IR need a rule or are rejected)")),
    opt("enzyme-attributor", Bool, "0", "Run attributor post Enzyme", NoOp("an optimization of Enzyme's output; LLVM's pipeline after the pass optimizes Ferrozyme's")),
    opt("enzyme-auto-sparsity", Bool, "0", "Run Enzyme auto sparsity", NoOp("an optimization for sparse derivative accumulation; Ferrozyme computes the same derivative densely")),
    opt("enzyme-blas-copy", Bool, "1", "Use blas copy calls to cache vectors", NoOp("how BLAS derivative rules cache their inputs; Ferrozyme's BLAS rules cache with plain copies, the derivative is the same")),
    opt("enzyme-cache-always", Bool, "0", "Force always caching of all reads", NoOp(CACHE)),
    opt("enzyme-cache-never", Bool, "0", "Disable caching of all reads", NoOp(CACHE)),
    opt("enzyme-coalese", Bool, "0", "Whether to coalese memory allocations", NoOp(CACHE)),
    opt("enzyme-detect-readthrow", Bool, "1", "Run preprocessing detect readonly or throw optimization", NoOp(PREOPT)),
    opt("enzyme-emptyfn-inactive", Bool, "0", "Empty functions are considered inactive", Honoured("calls of functions without IR and without a derivative rule are treated as inactive (no derivative flows through them) instead of being a missing-derivative error")),
    opt("enzyme-enable", Bool, "1", "Run the Enzyme pass", Honoured("-enzyme-enable=0 turns the pass off: hook calls stay as they are")),
    opt("enzyme-fast-math", Bool, "1", "Use fast math on derivative compuation", NoOp("derivative arithmetic always inherits the algebraic fast-math flags of the code it differentiates, never more")),
    opt("enzyme-free-internal-allocations", Bool, "1", "Always free internal allocations (disable if allocation needs access outside)", NoOp("Ferrozyme frees the memory its derivatives allocate when they no longer need it")),
    opt("enzyme-global-activity", Bool, "0", "Enable correct global activity analysis", NoOp("Ferrozyme's activity analysis always follows mutable globals (they get shadows)")),
    opt("enzyme-globals-default-inactive", Bool, "0", "Consider all nonmarked globals to be inactive", RejectNonDefault("Ferrozyme gives mutable globals that carry floats shadows and differentiates through them; treating them all as inactive would drop those derivatives. Pass the values explicitly or keep them constant")),
    opt("enzyme-inactive-dynamic", Bool, "1", "Force wholy inactive dynamic loops to have 0 iter reverse pass", NoOp(CACHE)),
    opt("enzyme-inline", Bool, "0", "Force inlining of autodiff", Honoured("the calls inside the differentiated function (up to -enzyme-inline-count of them) are inlined into Ferrozyme's clone before it is differentiated")),
    opt("enzyme-inline-count", Int, "10000", "Limit of number of functions to inline", Honoured("the limit of -enzyme-inline")),
    opt("enzyme-julia-addr-load", Bool, "0", "Mark all loads resulting in an addr(13)* to be legal to redo", NoOp(JULIA)),
    opt("enzyme-lapack-copy", Bool, "0", "Use blas copy calls to cache matrices", NoOp("how LAPACK derivative rules cache matrices; Ferrozyme's BLAS rules cache with plain copies, the derivative is the same")),
    opt("enzyme-loop-invariant-cache", Bool, "1", "Attempt to hoist cache outside of loop", NoOp(CACHE)),
    opt("enzyme-loose-types", Bool, "0", "Allow looser use of types", NoOp("Ferrozyme's type analysis never guesses: where Enzyme would guess a type, Ferrozyme still reports cannot-deduce-type with the hint (__enzyme_double(ptr) ...) that resolves it, never a derivative from a guess")),
    opt("enzyme-lower-globals", Bool, "0", "Lower globals to locals assuming the global values are not needed outside of this gradient", RejectNonDefault("it changes what the differentiated program computes (globals become locals); Ferrozyme keeps the program's semantics")),
    opt("enzyme-max-cache", Bool, "0", "Avoid reallocs when possible by potentially overallocating cache", NoOp(CACHE)),
    opt("enzyme-max-int-offset", Int, "100", "Maximum type tree offset", NoOp(TYPES)),
    opt("enzyme-max-type-depth", Int, "6", "Maximum type tree depth", NoOp(TYPES)),
    opt("enzyme-memmove-warning", Bool, "1", "Warn if using memmove implementation as a fallback for memmove", NoOp("Ferrozyme differentiates memmove exactly, with no fallback to warn about")),
    opt("enzyme-mincut-cache", Bool, "1", "Use Enzyme Mincut algorithm", NoOp(CACHE)),
    opt("enzyme-name-instructions", Bool, "0", "Have enzyme name all instructions", NoOp("generated code already carries readable names (rev.<block>, %x.shadow, %d_ret)")),
    opt("enzyme-new-cache", Bool, "1", "Use new cache decision algorithm", NoOp(CACHE)),
    opt("enzyme-noalias", Bool, "0", "Force noalias of autodiff", RejectNonDefault("it asserts that no two arguments alias; Ferrozyme does not assume that, and a derivative computed under a false assumption would be silently wrong")),
    opt("enzyme-non-power2-cache", Bool, "0", "Disable caching of integers which are not a power of 2", NoOp(CACHE)),
    opt("enzyme-omp-opt", Bool, "0", "Whether to enable openmp opt", NoOp("an optimization of OpenMP code after the pass; LLVM's pipeline runs its own")),
    opt("enzyme-phi-restructure", Bool, "0", "Whether to restructure phi's to have better unwrap behavior", NoOp(PREOPT)),
    opt("enzyme-post-opt-level", Int, "0", "Post optimization level within Enzyme differentiated function", NoOp("LLVM's pipeline after the pass (-O<n> of ferrozyme cc, or the passes given to opt) optimizes the generated code")),
    opt("enzyme-postopt", Bool, "0", "Run enzymepostprocessing optimizations", Honoured("the generated functions are simplified right after the pass (SROA, early CSE, instcombine, CFG simplification)")),
    opt("enzyme-preopt", Bool, "1", "Run enzyme preprocessing optimizations", NoOp(PREOPT)),
    opt("enzyme-print", Bool, "0", "Print before and after fns for autodiff", Honoured("prints each function before it is differentiated and every generated function (to stderr in the plugin, to stdout with ferrozyme opt)")),
    opt("enzyme-print-activity", Bool, "0", "Print activity analysis algorithm", Honoured("prints the activity analysis of every differentiated function, as ferrozyme opt --print-activity")),
    opt("enzyme-print-diffuse", Bool, "0", "Print differential use analysis", Honoured("prints what the reverse sweep caches and recomputes, as -Rpass=enzyme remarks")),
    opt("enzyme-print-perf", Bool, "0", "Enable Enzyme to print performance info", Honoured("prints what the reverse sweep caches and recomputes, as -Rpass=enzyme remarks")),
    opt("enzyme-print-type", Bool, "0", "Print type analysis algorithm", Honoured("prints the type analysis of every differentiated function, as ferrozyme opt --print-type-analysis")),
    opt("enzyme-print-unnecessary", Bool, "0", "Print unnecessary values in function", NoOp("a debugging printout of an Enzyme-internal analysis; see -enzyme-print-diffuse for what Ferrozyme caches and recomputes")),
    opt("enzyme-register-reduce", Bool, "0", "Reduce the amount of register reduce", NoOp(CACHE)),
    opt("enzyme-rematerialize", Bool, "1", "Rematerialize allocations/shadows in the reverse rather than caching", NoOp(CACHE)),
    opt("enzyme-runtime-activity", Bool, "0", "Perform runtime activity checks", Honoured("run-time activity checks are inserted automatically wherever a pointer's activity is only known at run time (a phi, select or store mixing enzyme_const and duplicated memory, and the callees such pointers reach): the constant pointer is its own shadow and derivative accesses through such shadows are guarded by shadow != primal; the option also moves the selects otherwise handled by a null shadow and masked accesses to this scheme. Enzyme's silent-wrong case (an active value written through such a pointer and read back) is a compile-time error, or a run-time abort where the pointer is only assumed constant-or-not")),
    opt("enzyme-runtime-error", Bool, "0", "Emit Runtime errors instead of compile time ones", RejectNonDefault("Ferrozyme reports what it cannot differentiate at compile time; deferring the error to run time is not supported")),
    opt("enzyme-rust-type", Bool, "0", "Enable rust-specific type rules", NoOp("Ferrozyme's type analysis applies its rules for Rust's IR whenever they fit")),
    opt("enzyme-select-opt", Bool, "1", "Run Enzyme select optimization", NoOp(PREOPT)),
    opt("enzyme-shared-forward", Bool, "0", "Forward Shared Memory from definitions", NoOp("GPU shared memory; Ferrozyme differentiates CPU code")),
    opt("enzyme-smallbool", Bool, "0", "Place 8 bools together in a single byte", NoOp(CACHE)),
    opt("enzyme-speculate-phis", Bool, "0", "Speculatively execute phi computations", NoOp(CACHE)),
    opt("enzyme-strict-aliasing", Bool, "1", "Assume strict aliasing of types / type stability", Honoured("-enzyme-strict-aliasing=0 makes type analysis ignore TBAA metadata (what clang's -fno-strict-aliasing gives): types come from the accesses alone")),
    opt("enzyme-strong-zero", Bool, "0", "Use additional checks to ensure correct behavior when handling functions with inf", RejectNonDefault("Ferrozyme propagates IEEE arithmetic as is (0 * inf is NaN in an adjoint); the guarded arithmetic this option asks for is not implemented, and ignoring it would give NaN where Enzyme gives 0")),
    opt("enzyme-truncate-all", Str, "", "Truncate all floating point operations. E.g. \"64to32\" or \"64to<exponent_width>-<significand_width>\".", RejectNonDefault("truncating every function of the module is not supported; truncate the functions you choose with __enzyme_truncate_mem_func/__enzyme_truncate_op_func")),
    opt("enzyme-vector-split-phi", Bool, "1", "Split phis according to vector size", NoOp(CACHE)),
    opt("enzyme-vectorize-at-leaf-nodes", Bool, "0", "Only vectorize at the leaf nodes of the computation", NoOp("how Enzyme shapes the code of vector (enzyme_width) derivatives; Ferrozyme chooses the lane layout of its own, the derivative is the same")),
    opt("enzyme-zero-cache", Bool, "0", "Zero initialize the cache", NoOp("the tape is only read where it was written, so zeroing it changes nothing")),
    opt("enzyme_nonmarkedglobals_inactiveloads", Bool, "1", "Consider loads of nonmarked globals to be inactive", NoOp("Ferrozyme's activity analysis decides about globals from how they are used (mutable globals carrying floats get shadows); there is no marking to rely on")),
];

/// The row of an option name (without dashes).
pub fn enzyme_option(name: &str) -> Option<&'static EnzymeOption> {
    ENZYME_OPTIONS.iter().find(|o| o.name == name)
}

/// What the honoured options ask of one run of the pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnzymeSettings {
    /// `-enzyme-enable`.
    pub enable: bool,
    /// `-enzyme-print`.
    pub print_functions: bool,
    /// `-enzyme-print-activity`.
    pub print_activity: bool,
    /// `-enzyme-print-type`.
    pub print_type: bool,
    /// `-enzyme-print-perf` / `-enzyme-print-diffuse`: the cache/recompute remarks.
    pub print_remarks: bool,
    /// `-enzyme-inline`: inline callees into the clone, at most `inline_count` calls.
    pub inline: bool,
    pub inline_count: u32,
    /// `-enzyme-always-inline`.
    pub always_inline: bool,
    /// `-enzyme-postopt`.
    pub postopt: bool,
    /// `-enzyme-emptyfn-inactive`.
    pub emptyfn_inactive: bool,
    /// `-enzyme-strict-aliasing` (false: ignore TBAA).
    pub strict_aliasing: bool,
    /// `-enzyme-runtime-activity`: every mixed pointer under run-time checks.
    pub runtime_activity: bool,
}

impl Default for EnzymeSettings {
    fn default() -> Self {
        EnzymeSettings {
            enable: true,
            print_functions: false,
            print_activity: false,
            print_type: false,
            print_remarks: false,
            inline: false,
            inline_count: 10000,
            always_inline: false,
            postopt: false,
            emptyfn_inactive: false,
            strict_aliasing: true,
            runtime_activity: false,
        }
    }
}

/// Why an option was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError(pub String);

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Splits `-enzyme-x=v` / `--enzyme-x` into the name and the value text, when the word
/// names an Enzyme option (known or not: `enzyme-` or `enzyme_` after the dashes).
pub fn split_option(word: &str) -> Option<(&str, Option<&str>)> {
    let body = word.strip_prefix("--").or_else(|| word.strip_prefix('-'))?;
    if !(body.starts_with("enzyme-") || body.starts_with("enzyme_")) {
        return None;
    }
    Some(match body.split_once('=') {
        Some((n, v)) => (n, Some(v)),
        None => (body, None),
    })
}

fn parse_bool(v: &str) -> Option<bool> {
    match v {
        "1" | "true" | "TRUE" | "True" => Some(true),
        "0" | "false" | "FALSE" | "False" => Some(false),
        _ => None,
    }
}

impl EnzymeSettings {
    /// Applies one option (`name` without dashes, `value` as written; a bare boolean
    /// option is `true`). Unknown names, malformed values and refused values are errors.
    pub fn apply(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        let o = enzyme_option(name).ok_or_else(|| {
            OptionError(format!(
                "unknown Enzyme option '-{name}' (Ferrozyme knows Enzyme's options listed in docs/coverage.md)"
            ))
        })?;
        let text = match (o.kind, value) {
            (Bool, None) => "1".to_string(),
            (_, None) => {
                return Err(OptionError(format!(
                    "'-{name}' needs a value: -{name}=<{}>",
                    if o.kind == Int { "integer" } else { "text" }
                )))
            }
            (_, Some(v)) => v.to_string(),
        };
        let b =
            if o.kind == Bool {
                Some(parse_bool(&text).ok_or_else(|| {
                    OptionError(format!("'-{name}={text}': expected 1/0/true/false"))
                })?)
            } else {
                None
            };
        let n = if o.kind == Int {
            Some(
                text.parse::<i64>()
                    .map_err(|_| OptionError(format!("'-{name}={text}': expected an integer")))?,
            )
        } else {
            None
        };
        let is_default = match o.kind {
            Bool => b == parse_bool(o.default),
            Int => n == o.default.parse().ok(),
            Str => text == o.default,
        };
        match o.handling {
            NoOp(_) => {}
            RejectNonDefault(why) => {
                if !is_default {
                    return Err(OptionError(format!(
                        "'-{name}={text}' is not supported by Ferrozyme: {why}"
                    )));
                }
            }
            Honoured(_) => {
                let b = b.unwrap_or(false);
                match name {
                    "enzyme-enable" => self.enable = b,
                    "enzyme-print" => self.print_functions = b,
                    "enzyme-print-activity" => self.print_activity = b,
                    "enzyme-print-type" => self.print_type = b,
                    "enzyme-print-perf" | "enzyme-print-diffuse" => self.print_remarks |= b,
                    "enzyme-inline" => self.inline = b,
                    "enzyme-inline-count" => {
                        self.inline_count = u32::try_from(n.unwrap_or(0).max(0)).unwrap_or(u32::MAX)
                    }
                    "enzyme-always-inline" => self.always_inline = b,
                    "enzyme-postopt" => self.postopt = b,
                    "enzyme-emptyfn-inactive" => self.emptyfn_inactive = b,
                    "enzyme-strict-aliasing" => self.strict_aliasing = b,
                    "enzyme-runtime-activity" => self.runtime_activity = b,
                    _ => unreachable!("invariant: every Honoured row has a field ({name})"),
                }
            }
        }
        Ok(())
    }

    /// Applies a command-line word (`-enzyme-inline=1`); `None` when the word is not an
    /// Enzyme option.
    pub fn apply_word(&mut self, word: &str) -> Option<Result<(), OptionError>> {
        let (name, value) = split_option(word)?;
        Some(self.apply(name, value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_unique_and_explained() {
        for w in ENZYME_OPTIONS.windows(2) {
            assert!(w[0].name < w[1].name, "{} before {}", w[0].name, w[1].name);
        }
        for o in ENZYME_OPTIONS {
            let why = match o.handling {
                Honoured(s) | NoOp(s) | RejectNonDefault(s) => s,
            };
            assert!(!why.is_empty() && !o.desc.is_empty(), "{}", o.name);
            match o.kind {
                Bool => assert!(parse_bool(o.default).is_some(), "{}", o.name),
                Int => assert!(o.default.parse::<i64>().is_ok(), "{}", o.name),
                Str => {}
            }
        }
    }

    #[test]
    fn every_honoured_option_sets_something() {
        for o in ENZYME_OPTIONS {
            if let Honoured(_) = o.handling {
                let mut s = EnzymeSettings::default();
                let v = match o.kind {
                    Bool => {
                        if parse_bool(o.default) == Some(true) {
                            "0"
                        } else {
                            "1"
                        }
                    }
                    _ => "7",
                };
                s.apply(o.name, Some(v)).unwrap();
                assert_ne!(s, EnzymeSettings::default(), "{} changed nothing", o.name);
            }
        }
    }

    #[test]
    fn words() {
        let mut s = EnzymeSettings::default();
        assert!(s.apply_word("-O2").is_none());
        assert!(s.apply_word("-enzyme-inline").unwrap().is_ok());
        assert!(s.inline);
        assert!(s.apply_word("--enzyme-inline-count=3").unwrap().is_ok());
        assert_eq!(s.inline_count, 3);
        assert!(s.apply_word("-enzyme-loose-types").unwrap().is_ok());
        assert!(s.apply_word("-enzyme-lapack-copy=0").unwrap().is_ok());
        assert!(s.apply_word("-enzyme-lapack-copy=maybe").unwrap().is_err());
        assert!(s.apply_word("-enzyme-bogus=1").unwrap().is_err());
        assert!(s.apply_word("-enzyme-strong-zero=0").unwrap().is_ok());
        let e = s.apply_word("-enzyme-strong-zero").unwrap().unwrap_err();
        assert!(e.0.contains("not supported"), "{e}");
        assert!(s.apply_word("-enzyme-enable=false").unwrap().is_ok());
        assert!(!s.enable);
        assert!(s.apply_word("-enzyme-inline-count").unwrap().is_err());
        assert!(s
            .apply_word("-enzyme_nonmarkedglobals_inactiveloads=0")
            .unwrap()
            .is_ok());
    }
}
