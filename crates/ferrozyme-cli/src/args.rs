//! Hand-written argument parsing for `ferrozyme cc|c++|opt`.
//!
//! clang's flags do not fit a declarative parser: `-I dir` and `-Idir` mean the same,
//! `-O2`, `-lm` and `-Wl,--foo` glue a value to the flag, and anything we do not know must
//! still reach clang unchanged. So parsing is one pass over the words that sorts each into
//! one of three buckets — flags for compiling each source to bitcode, flags and inputs for
//! the final link, and Ferrozyme's own switches — and keeps the order within each bucket
//! (link order matters for `-l`).
//!
//! Parsing never prints and never exits: every problem is a [`UsageError`], which the
//! binary turns into a message and exit code 2.

use std::fmt;
use std::path::{Path, PathBuf};

use ferrozyme_transform::enzyme_options::{self, EnzymeSettings};

/// A command-line mistake (exit code 2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn usage(msg: impl Into<String>) -> UsageError {
    UsageError(msg.into())
}

/// The optimization level of a compile, as clang spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OptLevel {
    #[default]
    O0,
    O1,
    O2,
    O3,
    Os,
    Oz,
}

impl OptLevel {
    /// Parses the part after `-O` (`""`, `"2"`, `"s"`, `"fast"` …).
    pub fn parse(s: &str) -> Option<OptLevel> {
        Some(match s {
            "0" => OptLevel::O0,
            // clang: a bare -O is -O1; -Og is -O1 with debugging in mind.
            "" | "1" | "g" => OptLevel::O1,
            "2" => OptLevel::O2,
            "3" | "fast" => OptLevel::O3,
            "s" => OptLevel::Os,
            "z" => OptLevel::Oz,
            n if n.chars().all(|c| c.is_ascii_digit()) => OptLevel::O3,
            _ => return None,
        })
    }

    /// The flag clang understands (`-O2`).
    pub fn clang_flag(self) -> &'static str {
        match self {
            OptLevel::O0 => "-O0",
            OptLevel::O1 => "-O1",
            OptLevel::O2 => "-O2",
            OptLevel::O3 => "-O3",
            OptLevel::Os => "-Os",
            OptLevel::Oz => "-Oz",
        }
    }

    /// The new-pass-manager pipeline name (`O2` for `default<O2>`).
    pub fn pipeline_name(self) -> &'static str {
        &self.clang_flag()[1..]
    }
}

/// Which clang driver the command stands in for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Driver {
    /// `ferrozyme cc`, like `clang-22`.
    C,
    /// `ferrozyme c++`, like `clang++-22`.
    Cxx,
    /// `ferrozyme fortran`, like `flang-22` (C and C++ sources still go to clang).
    Fortran,
}

/// How far the compile goes, as clang's `-c` / `-S` / neither.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Build an executable (or shared library): the default.
    Link,
    /// `-c`: stop at an object file (or bitcode with `-emit-llvm`).
    Object,
    /// `-S`: stop at assembly (or textual IR with `-emit-llvm`).
    Assembly,
}

/// One source to compile to bitcode, with the `-x` language in force where it appeared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    pub path: PathBuf,
    pub lang: Option<String>,
}

/// `ferrozyme cc|c++ …`, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CcArgs {
    pub driver: Driver,
    pub opt: OptLevel,
    /// Whether `-O<n>` was given (the link step of separately compiled objects otherwise
    /// uses the level they were compiled at).
    pub opt_given: bool,
    /// `-flto`: `-c` writes LLVM bitcode (differentiated at the link), as clang does.
    pub lto: bool,
    pub stage: Stage,
    /// `-emit-llvm` with `-c`/`-S`: write the differentiated module instead of machine code.
    pub emit_llvm: bool,
    pub output: Option<PathBuf>,
    pub sources: Vec<Source>,
    /// Flags for every `clang -emit-llvm -c` (everything but -O, -c, -o, -x and inputs).
    pub compile_flags: Vec<String>,
    /// Flags only flang understands (`-ffree-form`, `-J dir`): Fortran compiles only.
    pub fortran_flags: Vec<String>,
    /// Flags and inputs for the final link, in command-line order.
    pub link_args: Vec<String>,
    /// `--ad-before-opt`: differentiate unoptimized IR, then optimize.
    pub ad_before_opt: bool,
    /// `--check-gradients`: compare every derivative with finite differences at run time.
    pub check_gradients: bool,
    /// `--save-temps=<dir>`: keep the IR before and after AD there.
    pub save_temps: Option<PathBuf>,
    /// `-v`: show the commands run.
    pub verbose: bool,
    /// `--time-passes` / `-ftime-report`: print the time of each phase at the end.
    pub time_passes: bool,
    /// `--codegen-threads N`: machine code of the module in N parts on N threads (1: one
    /// module; not given: large modules over the cores, `split_codegen`).
    pub codegen_threads: Option<usize>,
    pub help: bool,
    /// Enzyme's options given as `-mllvm -enzyme-…` (`ferrozyme_abi::options`).
    pub enzyme: EnzymeSettings,
}

/// `-mllvm <word>`: an Enzyme option goes to the pass (`Some`), anything else to clang.
fn enzyme_mllvm(settings: &mut EnzymeSettings, word: &str) -> Option<Result<(), UsageError>> {
    settings.apply_word(word).map(|r| {
        r.map_err(|e| {
            // A mistyped name (`-enzyme-print-activty`) gets the nearest known one.
            let hint = enzyme_options::split_option(word)
                .filter(|(name, _)| enzyme_options::enzyme_option(name).is_none())
                .and_then(|(name, _)| {
                    // The nearest first: `enzyme-print-activty` starts with `enzyme-print`.
                    let names = enzyme_option_names();
                    nearest_option(name, &names).or_else(|| closest_option(name, &names))
                })
                .map(|o| format!(" (did you mean '-{o}'?)"))
                .unwrap_or_default();
            usage(format!("{e}{hint}"))
        })
    })
}

/// The names of Enzyme's options, without dashes.
fn enzyme_option_names() -> Vec<&'static str> {
    enzyme_options::ENZYME_OPTIONS
        .iter()
        .map(|o| o.name)
        .collect()
}

/// A second input word of `ferrozyme opt` that is no file: an Enzyme option written
/// without its dash (`enzyme-print-activity`, as `opt`'s scripts name it) gets the option
/// it meant.
fn second_input(word: &str) -> UsageError {
    let dashed = format!("-{word}");
    if !Path::new(word).exists() && enzyme_options::split_option(&dashed).is_some() {
        return usage(format!(
            "'{word}' is not a file: Enzyme's options take a dash ('{dashed}')"
        ));
    }
    usage("'ferrozyme opt' takes exactly one input module")
}

const SOURCE_EXTS: &[&str] = &[
    "c", "i", "cc", "cp", "cpp", "cxx", "c++", "C", "CC", "ii", "ll", "bc",
];

fn is_source(path: &str) -> bool {
    Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| SOURCE_EXTS.contains(&e))
        || crate::fortran::has_fortran_ext(path)
}

/// Flags whose value is the next word (`-I dir`), and where each goes.
const SEPARATE_COMPILE: &[&str] = &[
    "-I",
    "-D",
    "-U",
    "-include",
    "-isystem",
    "-iquote",
    "-idirafter",
    "-imacros",
    "-Xclang",
    "-MF",
    "-MT",
    "-MQ",
];
const SEPARATE_LINK: &[&str] = &["-L", "-l", "-Xlinker", "-u"];
const SEPARATE_BOTH: &[&str] = &["-target", "-arch", "--sysroot", "-isysroot"];
/// Flags that only matter to the linker.
const LINK_ONLY: &[&str] = &[
    "-static",
    "-shared",
    "-rdynamic",
    "-pie",
    "-no-pie",
    "-nostdlib",
    "-nodefaultlibs",
    "-nostartfiles",
    "-static-libgcc",
    "-static-libstdc++",
    "-s",
];

impl CcArgs {
    /// Parses the words after `ferrozyme cc` (or `c++`).
    pub fn parse(driver: Driver, words: &[String]) -> Result<CcArgs, UsageError> {
        let mut a = CcArgs {
            driver,
            opt: OptLevel::O0,
            opt_given: false,
            lto: false,
            stage: Stage::Link,
            emit_llvm: false,
            output: None,
            sources: Vec::new(),
            compile_flags: Vec::new(),
            fortran_flags: Vec::new(),
            link_args: Vec::new(),
            ad_before_opt: false,
            check_gradients: false,
            save_temps: None,
            verbose: false,
            time_passes: false,
            codegen_threads: None,
            help: false,
            enzyme: EnzymeSettings::default(),
        };
        let mut lang: Option<String> = None;
        let mut it = words.iter();
        while let Some(w) = it.next() {
            let w = w.as_str();
            let mut value = |flag: &str| -> Result<String, UsageError> {
                it.next()
                    .cloned()
                    .ok_or_else(|| usage(format!("missing argument to '{flag}'")))
            };
            match w {
                "--help" | "-help" => a.help = true,
                "--ad-before-opt" => a.ad_before_opt = true,
                "--check-gradients" => a.check_gradients = true,
                "-c" => a.stage = Stage::Object,
                "-S" => a.stage = Stage::Assembly,
                "-emit-llvm" => a.emit_llvm = true,
                "-v" => a.verbose = true,
                "--time-passes" => a.time_passes = true,
                // clang's own flag: its per-pass report of each compile, plus ours.
                "-ftime-report" => {
                    a.time_passes = true;
                    a.compile_flags.push(w.to_string());
                }
                "--codegen-threads" => a.codegen_threads = Some(thread_count(w, &value(w)?)?),
                _ if w.starts_with("--codegen-threads=") => {
                    a.codegen_threads = Some(thread_count(w, &w["--codegen-threads=".len()..])?)
                }
                "-o" => a.output = Some(PathBuf::from(value(w)?)),
                "-x" => lang = Some(value(w)?),
                "-mllvm" => {
                    let v = value(w)?;
                    if let Some(r) = enzyme_mllvm(&mut a.enzyme, &v) {
                        r?;
                    } else {
                        a.compile_flags.extend([w.to_string(), v]);
                    }
                }
                // clang's remark flag: our remarks when its pattern names Enzyme's pass,
                // clang's own remarks for its compiles in any case.
                _ if w.starts_with("-Rpass=") => {
                    a.enzyme.print_remarks |= remarks_wanted(&w["-Rpass=".len()..]);
                    a.compile_flags.push(w.to_string());
                }
                _ if w.starts_with("-mllvm=") => {
                    let v = &w["-mllvm=".len()..];
                    if let Some(r) = enzyme_mllvm(&mut a.enzyme, v) {
                        r?;
                    } else {
                        a.compile_flags.push(w.to_string());
                    }
                }
                "-" => {
                    return Err(usage(
                        "reading a source from standard input is not supported",
                    ))
                }
                "--save-temps" | "-save-temps" => {
                    return Err(usage(format!(
                        "'{w}' needs a directory: --save-temps=<dir>"
                    )))
                }
                // The link step always merges all IR before AD; -flto only makes `-c`
                // write bitcode. Passing it on would change clang's pre-link pipeline.
                // -fembed-bitcode is what `-c` always does.
                _ if w.starts_with("-flto") => a.lto = true,
                _ if w.starts_with("-fno-lto") => a.lto = false,
                _ if w.starts_with("-fembed-bitcode") => {}
                _ if crate::fortran::SEPARATE_FORTRAN.contains(&w) => {
                    let v = value(w)?;
                    a.fortran_flags.extend([w.to_string(), v]);
                }
                _ if crate::fortran::is_fortran_only(w) => a.fortran_flags.push(w.to_string()),
                _ if SEPARATE_COMPILE.contains(&w) => {
                    let v = value(w)?;
                    a.compile_flags.extend([w.to_string(), v]);
                }
                _ if SEPARATE_LINK.contains(&w) => {
                    let v = value(w)?;
                    a.link_args.extend([w.to_string(), v]);
                }
                _ if SEPARATE_BOTH.contains(&w) => {
                    let v = value(w)?;
                    a.compile_flags.extend([w.to_string(), v.clone()]);
                    a.link_args.extend([w.to_string(), v]);
                }
                _ if w.starts_with("--save-temps=") || w.starts_with("-save-temps=") => {
                    let dir = &w[w.find('=').map_or(0, |i| i + 1)..];
                    if dir.is_empty() {
                        return Err(usage("'--save-temps=' needs a directory"));
                    }
                    a.save_temps = Some(PathBuf::from(dir));
                }
                _ if w.starts_with("-O") => {
                    a.opt = OptLevel::parse(&w[2..])
                        .ok_or_else(|| usage(format!("invalid optimization level '{w}'")))?;
                    a.opt_given = true;
                }
                _ if w.starts_with("-o") => a.output = Some(PathBuf::from(&w[2..])),
                _ if w.starts_with("-x") => lang = Some(w[2..].to_string()),
                _ if w.starts_with("-L")
                    || w.starts_with("-l")
                    || w.starts_with("-Wl,")
                    || w.starts_with("-Xlinker") =>
                {
                    a.link_args.push(w.to_string())
                }
                _ if LINK_ONLY.contains(&w) => a.link_args.push(w.to_string()),
                // Code generation and target flags matter to both steps (-m32, -fopenmp,
                // -fsanitize=…, -pthread, -fuse-ld=… only to the link but harmless at compile).
                _ if w.starts_with("-f")
                    || w.starts_with("-m")
                    || w == "-pthread"
                    || w.starts_with("--target=") =>
                {
                    if !w.starts_with("-fuse-ld=") {
                        a.compile_flags.push(w.to_string());
                    }
                    a.link_args.push(w.to_string());
                }
                // Everything else that looks like a flag (-g, -I…, -D…, -std=…, -W…) is
                // the compiler's business; clang reports the ones it does not know.
                _ if w.starts_with('-') => a.compile_flags.push(w.to_string()),
                _ => {
                    let explicit = lang.as_deref().filter(|l| *l != "none");
                    if explicit.is_some() || is_source(w) {
                        a.sources.push(Source {
                            path: PathBuf::from(w),
                            lang: explicit.map(str::to_string),
                        });
                    } else {
                        // Objects, archives, shared libraries, linker scripts.
                        a.link_args.push(w.to_string());
                    }
                }
            }
        }
        if a.help {
            return Ok(a);
        }
        if a.sources.is_empty() && !a.link_args.iter().any(|w| !w.starts_with('-')) {
            return Err(usage("no input files"));
        }
        if a.stage != Stage::Link {
            if a.sources.is_empty() {
                return Err(usage(format!(
                    "'{}' needs at least one source file",
                    stage_flag(a.stage)
                )));
            }
            if a.sources.len() > 1 && a.output.is_some() {
                return Err(usage(format!(
                    "cannot use '-o' with '{}' and several sources (each source gets its own output)",
                    stage_flag(a.stage)
                )));
            }
        } else if a.emit_llvm {
            return Err(usage("'-emit-llvm' needs '-c' or '-S'"));
        }
        Ok(a)
    }
}

fn stage_flag(s: Stage) -> &'static str {
    match s {
        Stage::Object => "-c",
        Stage::Assembly => "-S",
        Stage::Link => "",
    }
}

/// `ferrozyme opt IN -o OUT …`, parsed.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct OptArgs {
    pub input: PathBuf,
    pub output: PathBuf,
    pub print_activity: bool,
    pub print_type_analysis: bool,
    /// `-O<n>`: run `default<O<n>>` after the pass.
    pub opt: Option<OptLevel>,
    pub help: bool,
    /// Enzyme's options (`-enzyme-…`, bare or after `-mllvm`).
    pub enzyme: EnzymeSettings,
    /// `--time-passes` / `-ftime-report`: the time of each phase, on stderr at the end.
    pub time_passes: bool,
    /// `--before-loop-unroll`: the input has not been through LoopUnroll yet, as the
    /// plugin's input at clang's OptimizerEarly (`Options::loops_unpeeled`).
    pub before_loop_unroll: bool,
}

/// `--codegen-threads`' value: a count from 1 up.
fn thread_count(flag: &str, v: &str) -> Result<usize, UsageError> {
    v.parse::<usize>()
        .ok()
        .filter(|&n| (1..=256).contains(&n))
        .ok_or_else(|| {
            usage(format!(
                "'{flag}' needs a thread count from 1 to 256, not '{v}'"
            ))
        })
}

/// Does a `-Rpass=`/`-pass-remarks=` pattern select Ferrozyme's remarks (reported under
/// Enzyme's pass name, `enzyme`)? The patterns users write for it: the name itself, an
/// alternative containing it, or "everything" (`.*`, `.+`); not a full regular expression.
pub fn remarks_wanted(pattern: &str) -> bool {
    let p = pattern.trim_matches(|c| c == '\'' || c == '"');
    p.split('|').any(|alt| {
        let alt = alt.trim_matches(|c| c == '^' || c == '$' || c == '(' || c == ')');
        alt == ".*" || alt == ".+" || alt == ferrozyme_llvm::diag::REMARK_PASS
    })
}

/// The flags of `ferrozyme opt` that take no value (for suggestions).
const OPT_FLAGS: &[&str] = &[
    "--print-activity",
    "--print-type-analysis",
    "--time-passes",
    "--before-loop-unroll",
    "--help",
];

/// The option of `known` the mistyped `word` most likely meant: one that starts with it or
/// that it starts with (`--print-type`), else the nearest within 3 edits
/// (`--print-activty`, `-print-activity`).
fn closest_option<'a>(word: &str, known: &[&'a str]) -> Option<&'a str> {
    let bare = word.trim_start_matches('-');
    if bare.len() >= 4 {
        let by_prefix: Vec<&str> = known
            .iter()
            .copied()
            .filter(|k| {
                let k = k.trim_start_matches('-');
                k.starts_with(bare) || bare.starts_with(k)
            })
            .collect();
        if let [one] = by_prefix[..] {
            return Some(one);
        }
    }
    nearest_option(word, known)
}

/// The option of `known` nearest to `word`, within 3 edits.
fn nearest_option<'a>(word: &str, known: &[&'a str]) -> Option<&'a str> {
    known
        .iter()
        .map(|k| (edit_distance(word, k), *k))
        .filter(|(d, _)| *d <= 3)
        .min()
        .map(|(_, k)| k)
}

/// Levenshtein distance (insertions, deletions, substitutions), on bytes.
fn edit_distance(a: &str, b: &str) -> usize {
    let b = b.as_bytes();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.bytes().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (diag + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            diag = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

impl OptArgs {
    pub fn parse(words: &[String]) -> Result<OptArgs, UsageError> {
        let mut a = OptArgs::default();
        let mut input = None;
        let mut output = None;
        let mut it = words.iter();
        while let Some(w) = it.next() {
            match w.as_str() {
                "--help" | "-help" | "-h" => a.help = true,
                "--print-activity" => a.print_activity = true,
                "--print-type-analysis" => a.print_type_analysis = true,
                "--time-passes" | "-ftime-report" => a.time_passes = true,
                "--before-loop-unroll" => a.before_loop_unroll = true,
                "-mllvm" => {
                    let v = it
                        .next()
                        .ok_or_else(|| usage("missing argument to '-mllvm'"))?;
                    enzyme_mllvm(&mut a.enzyme, v).ok_or_else(|| {
                        usage(format!(
                            "'ferrozyme opt' takes only Enzyme's options after -mllvm, not '{v}'"
                        ))
                    })??;
                }
                s if s.starts_with("-Rpass=") || s.starts_with("-pass-remarks=") => {
                    let pattern = s.split_once('=').map_or("", |(_, p)| p);
                    a.enzyme.print_remarks |= remarks_wanted(pattern);
                }
                s if ferrozyme_transform::enzyme_options::split_option(s).is_some() => {
                    enzyme_mllvm(&mut a.enzyme, s).expect("invariant: an Enzyme option word")?;
                }
                "-o" => {
                    output = Some(
                        it.next()
                            .ok_or_else(|| usage("missing argument to '-o'"))?
                            .into(),
                    )
                }
                s if s.starts_with("-O") => {
                    a.opt = Some(
                        OptLevel::parse(&s[2..])
                            .ok_or_else(|| usage(format!("invalid optimization level '{s}'")))?,
                    )
                }
                s if s.starts_with("-o") => output = Some(PathBuf::from(&s[2..])),
                s if s.starts_with('-') && s != "-" => {
                    let hint = closest_option(s, OPT_FLAGS)
                        .map(|o| format!(" (did you mean '{o}'?)"))
                        .unwrap_or_default();
                    return Err(usage(format!(
                        "unknown option '{s}' for 'ferrozyme opt'{hint}"
                    )));
                }
                s => {
                    if input.is_some() {
                        return Err(second_input(s));
                    }
                    input = Some(PathBuf::from(s));
                }
            }
        }
        if a.help {
            return Ok(a);
        }
        a.input =
            input.ok_or_else(|| usage("'ferrozyme opt' needs an input module (.ll or .bc)"))?;
        a.output = output.ok_or_else(|| {
            usage("'ferrozyme opt' needs '-o OUT.ll' or '-o OUT.bc' ('-o -' for stdout)")
        })?;
        Ok(a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }
    fn cc(s: &str) -> Result<CcArgs, UsageError> {
        CcArgs::parse(Driver::C, &words(s))
    }

    #[test]
    fn rpass_patterns_that_name_enzyme_turn_remarks_on() {
        for p in [
            "enzyme",
            ".*",
            "'enzyme'",
            "loop-vectorize|enzyme",
            "^enzyme$",
            "(enzyme)",
        ] {
            assert!(remarks_wanted(p), "{p}");
        }
        for p in ["inline", "loop-vectorize|slp", "", "enzymes"] {
            assert!(!remarks_wanted(p), "{p}");
        }
        let a = cc("-O2 -Rpass=enzyme a.c").unwrap();
        assert!(a.enzyme.print_remarks);
        assert_eq!(a.compile_flags, words("-Rpass=enzyme"), "clang gets it too");
        assert!(!cc("-O2 -Rpass=inline a.c").unwrap().enzyme.print_remarks);
    }

    #[test]
    fn sorts_flags_into_compile_and_link() {
        let a = cc("-O2 -g -Iinc -I other -DX=1 -U Y -std=c11 -Wall -ffast-math a.c b.cpp x.o -L lib -lm -Wl,--as-needed -o prog").unwrap();
        assert_eq!(a.opt, OptLevel::O2);
        assert_eq!(a.stage, Stage::Link);
        assert_eq!(a.output, Some(PathBuf::from("prog")));
        assert_eq!(
            a.sources
                .iter()
                .map(|s| s.path.to_str().unwrap())
                .collect::<Vec<_>>(),
            ["a.c", "b.cpp"]
        );
        assert_eq!(
            a.compile_flags,
            words("-g -Iinc -I other -DX=1 -U Y -std=c11 -Wall -ffast-math")
        );
        assert_eq!(
            a.link_args,
            words("-ffast-math x.o -L lib -lm -Wl,--as-needed")
        );
    }

    #[test]
    fn opt_levels() {
        for (flag, lvl) in [
            ("-O0", OptLevel::O0),
            ("-O", OptLevel::O1),
            ("-O3", OptLevel::O3),
            ("-Os", OptLevel::Os),
            ("-Oz", OptLevel::Oz),
            ("-Ofast", OptLevel::O3),
        ] {
            assert_eq!(cc(&format!("{flag} a.c")).unwrap().opt, lvl, "{flag}");
        }
        assert_eq!(cc("a.c").unwrap().opt, OptLevel::O0);
        assert!(cc("-Oq a.c").is_err());
        assert_eq!(OptLevel::Os.pipeline_name(), "Os");
    }

    #[test]
    fn language_override_applies_to_later_inputs() {
        let a = cc("foo.txt -x c bar.txt -x none baz.o").unwrap();
        assert_eq!(
            a.sources,
            vec![Source {
                path: "bar.txt".into(),
                lang: Some("c".into())
            }]
        );
        assert_eq!(a.link_args, words("foo.txt baz.o"));
    }

    #[test]
    fn ferrozyme_switches() {
        let a = cc("--ad-before-opt --save-temps=tmpdir -c -flto a.c").unwrap();
        assert!(a.ad_before_opt);
        assert_eq!(a.save_temps, Some(PathBuf::from("tmpdir")));
        assert_eq!(a.stage, Stage::Object);
        assert!(a.compile_flags.is_empty(), "-flto is not passed to clang");
        assert!(a.lto);
        assert!(!cc("-flto -fno-lto a.c").unwrap().lto);
    }

    #[test]
    fn usage_errors() {
        assert!(cc("").is_err());
        assert!(cc("-o").is_err());
        assert!(cc("-I").is_err());
        assert!(cc("-c a.c b.c -o x.o").is_err());
        assert!(cc("-c x.o").is_err());
        assert!(cc("-emit-llvm a.c").is_err());
        assert!(cc("--save-temps a.c").is_err());
        assert!(cc("--help").unwrap().help);
        assert!(cc("-c a.c b.c").is_ok());
        assert!(cc("x.o y.a -o prog").is_ok(), "link-only is fine");
    }

    #[test]
    fn opt_args() {
        let a = OptArgs::parse(&words("in.ll -o out.bc --print-activity -O2")).unwrap();
        assert!(!a.time_passes);
        assert!(
            OptArgs::parse(&words("in.ll -o out.bc --time-passes"))
                .unwrap()
                .time_passes
        );
        assert!(
            OptArgs::parse(&words("in.ll -o out.bc -ftime-report"))
                .unwrap()
                .time_passes
        );
        assert_eq!(a.input, PathBuf::from("in.ll"));
        assert_eq!(a.output, PathBuf::from("out.bc"));
        assert!(a.print_activity && !a.print_type_analysis);
        assert_eq!(a.opt, Some(OptLevel::O2));
        assert!(OptArgs::parse(&words("in.ll")).is_err());
        assert!(OptArgs::parse(&words("-o x.ll")).is_err());
        assert!(OptArgs::parse(&words("a.ll b.ll -o x.ll")).is_err());
        assert!(OptArgs::parse(&words("a.ll -o x.ll --bogus")).is_err());
    }

    #[test]
    fn enzyme_options() {
        let a = cc(
            "-O2 -mllvm -enzyme-inline=1 -mllvm -enzyme-loose-types -mllvm -inline-threshold=9 a.c",
        )
        .unwrap();
        assert!(a.enzyme.inline);
        assert_eq!(a.compile_flags, words("-mllvm -inline-threshold=9"));
        assert!(cc("-mllvm -enzyme-bogus a.c").is_err());
        assert!(cc("-mllvm -enzyme-strong-zero=1 a.c")
            .unwrap_err()
            .0
            .contains("not supported"));
        let o = OptArgs::parse(&words("in.ll -o - -enzyme-print -mllvm -enzyme-postopt")).unwrap();
        assert!(o.enzyme.print_functions && o.enzyme.postopt);
        assert!(OptArgs::parse(&words("in.ll -o - -mllvm -inline-threshold=3")).is_err());
    }
}
