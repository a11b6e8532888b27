//! Archives on the link line: rlibs of the crates being built hold bitcode objects
//! (`-C linker-plugin-lto`) and sometimes native objects (bundled C libraries); the
//! standard library's rlibs hold native objects only.
//!
//! Bitcode members go into the AD module. An archive that also holds native objects is
//! handed to the linker again without its bitcode members (written with `llvm-ar-22`,
//! falling back to `ar`, so it keeps a symbol index and lazy member selection).

use std::path::{Path, PathBuf};
use std::process::Command;

use object::read::archive::ArchiveFile;

use crate::error::{failed, Error};
use crate::lto::{is_bitcode, Bitcode};

/// `!<arch>\n`: the magic of ar archives.
pub fn is_archive(bytes: &[u8]) -> bool {
    bytes.starts_with(b"!<arch>\n")
}

/// The members of an archive that matter here.
pub struct Split {
    pub bitcode: Vec<Bitcode>,
    /// (member name, bytes) of native objects (ELF).
    pub native: Vec<(String, Vec<u8>)>,
}

/// Reads the bitcode and native members of `path` (other members, such as rustc's
/// `lib.rmeta`, are not objects and are left out).
pub fn split(path: &Path, data: &[u8]) -> Result<Split, Error> {
    let bad = |e: object::Error| failed(format!("cannot read archive '{}': {e}", path.display()));
    let ar = ArchiveFile::parse(data).map_err(bad)?;
    let mut out = Split {
        bitcode: Vec::new(),
        native: Vec::new(),
    };
    for m in ar.members() {
        let m = m.map_err(bad)?;
        let name = String::from_utf8_lossy(m.name()).into_owned();
        let bytes = m.data(data).map_err(bad)?;
        if is_bitcode(bytes) {
            out.bitcode.push(Bitcode {
                name: format!("{}({name})", path.display()),
                bytes: bytes.to_vec(),
            });
        } else if bytes.starts_with(b"\x7fELF") {
            out.native.push((name, bytes.to_vec()));
        }
    }
    Ok(out)
}

/// Writes `members` as a new archive `dir/<k>-<stem>.a` (with a symbol index).
pub fn write_native(
    dir: &Path,
    k: usize,
    original: &Path,
    members: &[(String, Vec<u8>)],
) -> Result<PathBuf, Error> {
    let stem = original
        .file_stem()
        .map_or_else(|| "lib".to_string(), |s| s.to_string_lossy().into_owned());
    let mdir = dir.join(format!("{k}-members"));
    std::fs::create_dir_all(&mdir)
        .map_err(|e| failed(format!("cannot create '{}': {e}", mdir.display())))?;
    let mut files = Vec::new();
    for (j, (name, bytes)) in members.iter().enumerate() {
        // Members may share a name; the index keeps the files apart.
        let base = Path::new(name)
            .file_name()
            .map_or_else(|| "member.o".into(), |s| s.to_string_lossy().into_owned());
        let p = mdir.join(format!("{j}-{base}"));
        std::fs::write(&p, bytes)
            .map_err(|e| failed(format!("cannot write '{}': {e}", p.display())))?;
        files.push(p);
    }
    let out = dir.join(format!("{k}-{stem}.a"));
    let tool = ["llvm-ar-22", "/usr/lib/llvm-22/bin/llvm-ar", "ar"]
        .into_iter()
        .find(|t| Command::new(t).arg("--version").output().is_ok())
        .ok_or_else(|| failed("cannot find llvm-ar-22 or ar to rewrite an archive"))?;
    let status = Command::new(tool)
        .arg("rcs")
        .arg(&out)
        .args(&files)
        .status()
        .map_err(|e| failed(format!("cannot run {tool}: {e}")))?;
    if !status.success() {
        return Err(failed(format!(
            "{tool} failed to write '{}'",
            out.display()
        )));
    }
    Ok(out)
}
