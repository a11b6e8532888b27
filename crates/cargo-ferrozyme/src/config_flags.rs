//! The `rustflags` a crate's cargo configuration sets, so that `cargo ferrozyme` keeps them.
//!
//! Cargo uses the first of: `CARGO_ENCODED_RUSTFLAGS`, `RUSTFLAGS`, the target's
//! `rustflags` (`CARGO_TARGET_<TRIPLE>_RUSTFLAGS`, `[target.<triple>] rustflags`), then
//! `build.rustflags` (`CARGO_BUILD_RUSTFLAGS`, `[build] rustflags`). `cargo ferrozyme` sets
//! `RUSTFLAGS`, which hid the configuration's flags (rust30: a crate's `.cargo/config.toml`
//! with `-C target-cpu=native` was silently built for the generic CPU). When neither
//! environment variable is set, the configured flags are read here, as cargo reads them, and
//! put before ours.
//!
//! Files: `.cargo/config.toml` (or `.cargo/config`) in the current directory and each
//! ancestor, then `$CARGO_HOME/config.toml`; arrays from several files are joined, the
//! deeper directory's last (cargo's merge). A string value is split at whitespace.
//! Not read: `--config` on the command line and `[target.'cfg(…)']` tables (cargo
//! evaluates the `cfg`; a table that sets `rustflags` there is reported with a warning).

use std::path::{Path, PathBuf};

/// What the configuration sets for builds of `triple`: the flags, and warnings about
/// settings that were not applied.
#[derive(Debug, Default, PartialEq)]
pub struct Configured {
    pub flags: Vec<String>,
    pub warnings: Vec<String>,
}

/// The configured flags for the current directory, read from the environment and files.
pub fn configured(triple: Option<&str>) -> Configured {
    let cwd = std::env::current_dir().unwrap_or_default();
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")));
    let tables: Vec<toml::Table> = config_files(&cwd, home.as_deref())
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok()?.parse().ok())
        .collect();
    flags_from(&tables, triple, |k| std::env::var(k).ok())
}

/// The configuration files in cargo's order of increasing precedence: `$CARGO_HOME`'s,
/// then from the root directory down to `dir`.
fn config_files(dir: &Path, home: Option<&Path>) -> Vec<PathBuf> {
    let in_dir = |d: &Path| {
        ["config.toml", "config"]
            .iter()
            .map(|n| d.join(n))
            .find(|p| p.is_file())
    };
    let mut files: Vec<PathBuf> = dir
        .ancestors()
        .filter_map(|d| in_dir(&d.join(".cargo")))
        .collect();
    if let Some(h) = home.and_then(in_dir) {
        let canon = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
        if !files.iter().any(|f| canon(f) == canon(&h)) {
            files.push(h);
        }
    }
    files.reverse();
    files
}

/// The flags of `tables` (lowest precedence first) and the environment (`env`), for the
/// target `triple`; empty when `RUSTFLAGS` or `CARGO_ENCODED_RUSTFLAGS` is set.
fn flags_from(
    tables: &[toml::Table],
    triple: Option<&str>,
    env: impl Fn(&str) -> Option<String>,
) -> Configured {
    let mut out = Configured::default();
    if env("CARGO_ENCODED_RUSTFLAGS").is_some() || env("RUSTFLAGS").is_some() {
        return out;
    }
    for t in tables {
        let cfg_tables = t
            .get("target")
            .and_then(|v| v.as_table())
            .into_iter()
            .flatten()
            .filter(|(k, v)| k.starts_with("cfg(") && v.get("rustflags").is_some());
        for (k, _) in cfg_tables {
            out.warnings.push(format!(
                "`[target.'{k}'] rustflags` in the cargo configuration is not applied by \
                 `cargo ferrozyme`: set them in `RUSTFLAGS` or `[build] rustflags`"
            ));
        }
    }
    if let Some(triple) = triple {
        let var = format!(
            "CARGO_TARGET_{}_RUSTFLAGS",
            triple.to_uppercase().replace(['-', '.'], "_")
        );
        let mut target = collect(tables, &["target", triple, "rustflags"]);
        target.extend(env(&var).map(|s| split(&s)).unwrap_or_default());
        if !target.is_empty() {
            out.flags = target;
            return out;
        }
    }
    out.flags = collect(tables, &["build", "rustflags"]);
    out.flags.extend(
        env("CARGO_BUILD_RUSTFLAGS")
            .map(|s| split(&s))
            .unwrap_or_default(),
    );
    out
}

/// The value at `path` in every table, joined in order.
fn collect(tables: &[toml::Table], path: &[&str]) -> Vec<String> {
    let mut v = Vec::new();
    for t in tables {
        let mut cur: Option<&toml::Value> = t.get(path[0]);
        for key in &path[1..] {
            cur = cur.and_then(|c| c.get(*key));
        }
        match cur {
            Some(toml::Value::String(s)) => v.extend(split(s)),
            Some(toml::Value::Array(a)) => {
                v.extend(a.iter().filter_map(|x| x.as_str()).map(String::from))
            }
            _ => {}
        }
    }
    v
}

fn split(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> toml::Table {
        s.parse().unwrap()
    }

    const HOST: &str = "x86_64-unknown-linux-gnu";

    #[test]
    fn build_rustflags_are_kept() {
        let c = flags_from(
            &[t("[build]\nrustflags = [\"-C\", \"target-cpu=native\"]\n")],
            Some(HOST),
            |_| None,
        );
        assert_eq!(c.flags, ["-C", "target-cpu=native"]);
        assert!(c.warnings.is_empty());
    }

    #[test]
    fn the_environment_wins_over_files() {
        let tables = [t("[build]\nrustflags = \"-Ctarget-cpu=native\"\n")];
        let c = flags_from(&tables, Some(HOST), |k| {
            (k == "RUSTFLAGS").then(|| "-Copt-level=1".to_string())
        });
        assert!(c.flags.is_empty(), "RUSTFLAGS is kept by the caller as is");
    }

    #[test]
    fn target_flags_supersede_build_flags_and_files_join() {
        let home = t("[target.x86_64-unknown-linux-gnu]\nrustflags = [\"-Ca\"]\n");
        let crate_ = t("[build]\nrustflags = [\"-Cignored\"]\n\
             [target.x86_64-unknown-linux-gnu]\nrustflags = \"-Cb -Cc\"\n");
        let c = flags_from(&[home, crate_], Some(HOST), |_| None);
        assert_eq!(c.flags, ["-Ca", "-Cb", "-Cc"]);
    }

    #[test]
    fn cfg_tables_are_reported() {
        let c = flags_from(
            &[t("[target.'cfg(unix)']\nrustflags = [\"-Cx\"]\n")],
            Some(HOST),
            |_| None,
        );
        assert!(c.flags.is_empty());
        assert!(c.warnings[0].contains("cfg(unix)"), "{:?}", c.warnings);
    }

    #[test]
    fn files_are_found_from_the_root_down() {
        let d = tempfile::tempdir().unwrap();
        let inner = d.path().join("a").join("b");
        std::fs::create_dir_all(inner.join(".cargo")).unwrap();
        std::fs::create_dir_all(d.path().join("a").join(".cargo")).unwrap();
        std::fs::write(inner.join(".cargo/config.toml"), "").unwrap();
        std::fs::write(d.path().join("a/.cargo/config"), "").unwrap();
        let files = config_files(&inner, None);
        let n = files.len();
        assert!(n >= 2);
        assert_eq!(files[n - 1], inner.join(".cargo/config.toml"));
        assert_eq!(files[n - 2], d.path().join("a/.cargo/config"));
    }
}
