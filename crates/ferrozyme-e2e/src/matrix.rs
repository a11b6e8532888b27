//! Which variants of a C or C++ program the default suite runs.
//!
//! Every program runs at each level its `OPT:` line lists through `ferrozyme cc`,
//! except that a program listing both `-O1` and `-O3` runs at most one of the two (a
//! quarter of these programs one, chosen by name, the others neither), a share of the
//! programs listing `-O2` run `-O0` (an eighth of the C++ and Fortran ones, a quarter of
//! the others), and half of the C++ programs built on Eigen or boost
//! run, at `-O2` alone; the
//! `--ad-before-opt` trial runs for a twelfth of the programs and the plugin trial for a
//! sixteenth (not the Eigen or boost programs); an MPI program listing more than two
//! process counts runs the smallest and the largest. Which ones follows from the
//! program's name, so it is the same on every run and machine. This keeps the whole
//! suite within its time budget on two cores while every variant still runs on dozens
//! to hundreds of programs. `FZ_FULL_MATRIX=1` runs every variant of every program (run
//! it after a change to the transform's shared code). A program whose purpose is one
//! variant says
//! `// VARIANTS: all` and always runs all.
//! A variant that the program ignores (`IGNORE-REF: ...`) is always listed, so the
//! gap stays visible.

use crate::Directives;

/// A build of a program beside its `ferrozyme cc` levels: `--ad-before-opt` or the plugin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    Ref,
    Plugin,
}

impl Variant {
    /// Whether a program whose name hashes to `h` runs this variant by default. (The
    /// levels `-O1` and `-O3` are shared differently: see [`Matrix::runs_level`].) The
    /// `--ad-before-opt` share was a half until session 12; the third kept is a subset of
    /// that half (`h` even), so no program runs a variant the default suite never ran.
    pub fn selects(self, h: u64) -> bool {
        match self {
            // Session 23 halved both shares (the suite's time), session 27 again (CI took
            // 1559 s at stop 55); each is a subset of the one before (a third: `h % 6` in
            // {0, 2}; a quarter: `h % 4 == 0`; a sixth and an eighth: `h % 6 == 0`,
            // `h % 8 == 0`), so no program runs a variant it did not run before.
            Variant::Ref => h % 12 == 0,
            Variant::Plugin => h % 16 == 0,
        }
    }

    /// The share of programs [`Variant::selects`] takes.
    pub fn rate(self) -> f64 {
        match self {
            Variant::Ref => 1.0 / 12.0,
            Variant::Plugin => 1.0 / 16.0,
        }
    }

    /// The directive key of this variant (`IGNORE-<key>:`).
    pub fn key(self) -> &'static str {
        match self {
            Variant::Ref => "REF",
            Variant::Plugin => "PLUGIN",
        }
    }
}

/// The kind of a program: each kind shares its `-O0` trials on its own
/// ([`Matrix::runs_level`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    C,
    Cxx,
    /// A C++ program that includes Eigen or boost headers ([`Kind::of_cxx`]): clang's
    /// front end alone takes 2-3 s of each of its trials.
    CxxLibrary,
    /// An MPI program, C, C++ or Fortran (tests/mpi).
    Mpi,
    /// An OpenMP program, C, C++ or Fortran (tests/openmp).
    OpenMp,
    /// A Fortran program (tests/fortran).
    Fortran,
}

impl Kind {
    /// The kind of the C++ program whose source is `src`.
    pub fn of_cxx(src: &str) -> Self {
        let library = src.lines().any(|l| {
            let l = l.trim_start();
            l.starts_with("#include")
                && ["<Eigen/", "<unsupported/Eigen/", "<boost/"]
                    .iter()
                    .any(|h| l.contains(h))
        });
        if library {
            Kind::CxxLibrary
        } else {
            Kind::Cxx
        }
    }

    /// The hash key that picks the half of this kind's programs that run `-O0`.
    fn o0_key(self) -> &'static str {
        match self {
            Kind::C => "c-O0",
            Kind::Cxx | Kind::CxxLibrary => "cxx-O0",
            Kind::Mpi => "mpi-O0",
            Kind::OpenMp => "openmp-O0",
            Kind::Fortran => "fortran-O0",
        }
    }
}

/// The default sampled matrix or the full one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Matrix {
    Sampled,
    Full,
}

impl Matrix {
    /// `FZ_FULL_MATRIX=1` (any value but empty or `0`) asks for the full matrix.
    pub fn from_env() -> Self {
        match std::env::var("FZ_FULL_MATRIX") {
            Ok(v) if !v.is_empty() && v != "0" => Matrix::Full,
            _ => Matrix::Sampled,
        }
    }

    /// Whether the program `stem` runs at `level`. `-O2` always runs, but for half of
    /// the Eigen and boost programs (since session 28, which run nothing else). Half of the
    /// programs that list `-O0` and `-O2` run `-O0` by default (C++ and MPI since session
    /// 24, OpenMP and Fortran since session 25, C since session 26; a quarter of the C,
    /// C++ and Fortran ones since session 27, of the MPI and OpenMP ones since session 28,
    /// an eighth of the C++ and Fortran ones since session 28;
    /// by name, a hash key per kind: a C++ trial costs about four C trials, most of it
    /// clang's front end on the standard library, an MPI trial as much: flang and
    /// `mpirun`s, an OpenMP or Fortran trial about three: thread counts, flang). A C++
    /// program built on Eigen or boost ([`Kind::CxxLibrary`]) runs `-O2` alone when it
    /// lists it (since session 26; its front end costs 2-3 s a trial), half of them (since
    /// session 28). A program that lists both `-O1` and `-O3`
    /// runs, by default, one of the two for a quarter of such programs and neither for
    /// the others (an eighth for C++ programs since session 25; by its name); one that
    /// lists only one of them runs it. A level the program ignores (`IGNORE-O1:` ...) or
    /// `VARIANTS: all` always runs.
    pub fn runs_level(self, stem: &str, kind: Kind, d: &Directives, level: &str) -> bool {
        let lists = |l: &str| d.opts.iter().any(|o| o == l);
        if self.keeps_all(d, level) {
            return true;
        }
        if kind == Kind::CxxLibrary && lists("O2") {
            // Half of them since session 28 (CI took 1607 s at stop 56): about 3.5 CPU
            // seconds a trial, 43 programs, and the library code they reach is shared.
            return level == "O2" && (fnv1a(&format!("{stem}/cxx-library")) >> 40) % 2 == 0;
        }
        if level == "O0" && lists("O2") {
            // A quarter of the C, C++ and Fortran programs since session 27 (CI took 1559
            // s at stop 55; a subset of the half they ran before: `% 4 == 0` of `% 2 ==
            // 0`); of the MPI and OpenMP programs too since session 28 (CI took 1607 s at
            // stop 56; about 0.9 and 0.5 CPU seconds a trial).
            // C++ and Fortran an eighth since session 28 (about 0.56 and 0.99 CPU seconds
            // a trial; a subset of the quarter).
            let share = match kind {
                Kind::Cxx | Kind::Fortran => 8,
                Kind::C | Kind::Mpi | Kind::OpenMp => 4,
                Kind::CxxLibrary => 2,
            };
            return (fnv1a(&format!("{stem}/{}", kind.o0_key())) >> 40) % share == 0;
        }
        let one_of_two = matches!(level, "O1" | "O3") && lists("O1") && lists("O3");
        if !one_of_two {
            return true;
        }
        // Since session 14 only half of these programs ran a third level at all, since
        // session 24 a quarter (the suite's time budget; C++ trials cost about four C
        // trials each); the quarter is a subset of the half (`% 4 == 0` of `% 2 == 0`).
        // (A high bit: FNV-1a's lowest bit is the parity of the bytes' lowest bits, the
        // same for every suffix of equal parity, so `% 2` of two hashes of one stem agree.)
        // Since session 25 an eighth of the C++ programs (a subset of the quarter).
        let share = if matches!(kind, Kind::Cxx | Kind::CxxLibrary) {
            8
        } else {
            4
        };
        let third_level = (fnv1a(&format!("{stem}/third-level")) >> 40) % share == 0;
        let o1_this_time = fnv1a(&format!("{stem}/O1-or-O3")) % 2 == 0;
        third_level && (level == "O1") == o1_this_time
    }

    /// Whether the program `stem` of kind `kind` runs `variant`. A C++ program built on
    /// Eigen or boost runs neither by default (since session 27: its front end costs 2-3 s
    /// a trial, and the two builds are exercised by the other programs' share).
    pub fn runs(self, stem: &str, kind: Kind, d: &Directives, variant: Variant) -> bool {
        self.keeps_all(d, variant.key())
            || (kind != Kind::CxxLibrary
                && variant.selects(fnv1a(&format!("{stem}/{}", variant.key()))))
    }

    /// The process counts an MPI program runs with, of the ones it lists (`// MPI: 2 3
    /// 4`): by default the smallest and the largest (since session 27: an `mpirun` costs
    /// about 0.4 s, and the middle counts repeat what the two ends check); every count in
    /// the full matrix or for a `VARIANTS: all` program.
    pub fn process_counts(self, d: &Directives, listed: &[u32]) -> Vec<u32> {
        if self == Matrix::Full || d.all_variants || listed.len() <= 2 {
            return listed.to_vec();
        }
        let (lo, hi) = (listed.iter().min(), listed.iter().max());
        match (lo, hi) {
            (Some(&lo), Some(&hi)) => vec![lo, hi],
            _ => Vec::new(),
        }
    }

    /// Whether the variant with directive key `key` runs whatever the share: in the full
    /// matrix, for a `VARIANTS: all` program, and where the program ignores it (listed).
    fn keeps_all(self, d: &Directives, key: &str) -> bool {
        self == Matrix::Full || d.all_variants || d.ignored_at(key).is_some()
    }
}

/// FNV-1a, 64 bits: a hash that is the same on every machine and toolchain.
fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn share_taken(variant: Variant) -> f64 {
        let d = Directives::default();
        let n = 2000;
        let taken = (0..n)
            .filter(|i| Matrix::Sampled.runs(&format!("{i}_prog"), Kind::C, &d, variant))
            .count();
        taken as f64 / n as f64
    }

    #[test]
    fn shares_match_their_rates() {
        for v in [Variant::Ref, Variant::Plugin] {
            let want = v.rate();
            let got = share_taken(v);
            assert!(
                (got - want).abs() < 0.05,
                "{v:?}: {got} of programs, want {want}"
            );
        }
    }

    #[test]
    fn full_matrix_directive_and_ignored_variants_always_run() {
        let stem = (0..100)
            .map(|i| format!("{i}_p"))
            .find(|s| !Matrix::Sampled.runs(s, Kind::C, &Directives::default(), Variant::Plugin))
            .unwrap();
        assert!(Matrix::Full.runs(&stem, Kind::C, &Directives::default(), Variant::Plugin));
        let all = Directives {
            all_variants: true,
            ..Directives::default()
        };
        assert!(Matrix::Sampled.runs(&stem, Kind::C, &all, Variant::Plugin));
        let ignored = Directives {
            ignore_at: vec![("PLUGIN".into(), "why".into())],
            ..Directives::default()
        };
        assert!(Matrix::Sampled.runs(&stem, Kind::C, &ignored, Variant::Plugin));
    }

    #[test]
    fn at_most_one_of_o1_and_o3_when_both_are_listed() {
        let both = Directives {
            opts: ["O0", "O1", "O2", "O3"].map(String::from).to_vec(),
            ..Directives::default()
        };
        let o1_only = Directives {
            opts: ["O1"].map(String::from).to_vec(),
            ..Directives::default()
        };
        let (mut o1_runs, mut third) = (0, 0);
        for i in 0..200 {
            let stem = format!("{i}_p");
            let runs = |d: &Directives, l: &str| Matrix::Sampled.runs_level(&stem, Kind::C, d, l);
            assert!(runs(&both, "O2"));
            assert!(!(runs(&both, "O1") && runs(&both, "O3")), "{stem}");
            third += usize::from(runs(&both, "O1") || runs(&both, "O3"));
            o1_runs += usize::from(runs(&both, "O1"));
            assert!(runs(&o1_only, "O1"));
            assert!(Matrix::Full.runs_level(&stem, Kind::C, &both, "O1"));
            assert!(Matrix::Full.runs_level(&stem, Kind::C, &both, "O3"));
        }
        assert!(
            (30..=70).contains(&third),
            "{third} of 200 ran a third level"
        );
        assert!((10..=40).contains(&o1_runs), "{o1_runs} of 200 ran -O1");
    }

    #[test]
    fn each_kind_shares_its_o0_trials() {
        let o0_o2 = Directives {
            opts: ["O0", "O2"].map(String::from).to_vec(),
            ..Directives::default()
        };
        let o0_only = Directives {
            opts: ["O0"].map(String::from).to_vec(),
            ..Directives::default()
        };
        let ignored = Directives {
            ignore_at: vec![("O0".into(), "why".into())],
            ..o0_o2.clone()
        };
        let kinds = [Kind::C, Kind::Cxx, Kind::Mpi, Kind::OpenMp, Kind::Fortran];
        let mut o0 = [0usize; 5];
        for i in 0..200 {
            let stem = format!("{i}_p");
            let runs = |lang, d: &Directives| Matrix::Sampled.runs_level(&stem, lang, d, "O0");
            for (k, n) in kinds.iter().zip(o0.iter_mut()) {
                assert!(runs(*k, &o0_only) && runs(*k, &ignored));
                assert!(Matrix::Full.runs_level(&stem, *k, &o0_o2, "O0"));
                assert!(Matrix::Sampled.runs_level(&stem, *k, &o0_o2, "O2"));
                *n += usize::from(runs(*k, &o0_o2));
            }
        }
        for (k, n) in kinds.iter().zip(o0) {
            let want = if matches!(k, Kind::Cxx | Kind::Fortran) {
                10..=40
            } else {
                30..=70
            };
            assert!(want.contains(&n), "{k:?}: {n} of 200 ran -O0");
        }
    }

    #[test]
    fn library_programs_run_o2_alone() {
        let src =
            "// OPT: O0 O1 O2 O3\n#include <vector>\n  #include <Eigen/Dense>\nint main() {}\n";
        assert_eq!(Kind::of_cxx(src), Kind::CxxLibrary);
        assert_eq!(
            Kind::of_cxx("#include <vector>\n// <Eigen/Dense>\n"),
            Kind::Cxx
        );
        assert_eq!(
            Kind::of_cxx("#include <boost/numeric/odeint.hpp>"),
            Kind::CxxLibrary
        );
        let all = Directives {
            opts: ["O0", "O1", "O2", "O3"].map(String::from).to_vec(),
            ..Directives::default()
        };
        let ignored = Directives {
            ignore_at: vec![("O3".into(), "why".into())],
            ..all.clone()
        };
        let o0_only = Directives {
            opts: ["O0"].map(String::from).to_vec(),
            ..Directives::default()
        };
        let mut o2 = 0;
        for i in 0..100 {
            let stem = format!("{i}_p");
            let runs =
                |d: &Directives, l: &str| Matrix::Sampled.runs_level(&stem, Kind::CxxLibrary, d, l);
            o2 += usize::from(runs(&all, "O2"));
            assert!(!runs(&all, "O0") && !runs(&all, "O1") && !runs(&all, "O3"));
            assert!(runs(&ignored, "O3") && !runs(&ignored, "O1"));
            assert!(runs(&o0_only, "O0"));
            for l in ["O0", "O1", "O2", "O3"] {
                assert!(Matrix::Full.runs_level(&stem, Kind::CxxLibrary, &all, l));
            }
            for v in [Variant::Ref, Variant::Plugin] {
                assert!(!Matrix::Sampled.runs(&stem, Kind::CxxLibrary, &all, v));
                assert!(Matrix::Full.runs(&stem, Kind::CxxLibrary, &all, v));
                let ignored_v = Directives {
                    ignore_at: vec![(v.key().into(), "why".into())],
                    ..all.clone()
                };
                assert!(Matrix::Sampled.runs(&stem, Kind::CxxLibrary, &ignored_v, v));
            }
        }
        assert!((30..=70).contains(&o2), "{o2} of 100 ran -O2");
    }

    #[test]
    fn mpi_programs_run_their_smallest_and_largest_counts() {
        let d = Directives::default();
        let all = Directives {
            all_variants: true,
            ..Directives::default()
        };
        assert_eq!(Matrix::Sampled.process_counts(&d, &[2, 3, 4]), vec![2, 4]);
        assert_eq!(Matrix::Sampled.process_counts(&d, &[2, 3]), vec![2, 3]);
        assert_eq!(Matrix::Sampled.process_counts(&d, &[3]), vec![3]);
        assert_eq!(Matrix::Full.process_counts(&d, &[2, 3, 4]), vec![2, 3, 4]);
        assert_eq!(
            Matrix::Sampled.process_counts(&all, &[2, 3, 4]),
            vec![2, 3, 4]
        );
    }
}
