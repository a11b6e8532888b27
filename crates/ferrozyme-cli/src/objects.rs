//! What a link input holds: LLVM IR (to differentiate through) or only machine code.
//!
//! Differentiation needs the IR of every function on the differentiated path, across
//! files and libraries. Three kinds of input carry it:
//!
//! * LLVM bitcode files (`clang -flto -c`, `ferrozyme cc -flto -c`, `-emit-llvm`);
//! * object files with the bitcode embedded in a `.llvmbc` section (`ferrozyme cc -c`
//!   writes those: machine code a plain linker can use, plus the IR; `clang
//!   -fembed-bitcode` too), or in `.llvm.lto`;
//! * static libraries (`ar` archives) whose members are either of the above.
//!
//! This module only reads files (with the `object` crate); it knows nothing of LLVM
//! modules. Machine-code-only inputs are read for their symbol tables: the symbols they
//! need may pull archive members in (as a linker would), and the ones they define name
//! the library in a `missing-derivative` error.

use std::path::Path;

use object::read::archive::ArchiveFile;
use object::{Object, ObjectSection, ObjectSymbol};

use crate::error::CliError;

/// Sections that hold embedded bitcode.
pub const BITCODE_SECTIONS: &[&str] = &[".llvmbc", ".llvm.lto"];

/// What one object (a file, or an archive member) holds.
#[derive(Clone, Debug)]
pub enum Content {
    /// LLVM IR: raw bitcode, or bitcode embedded in an object (`machine_code`).
    Ir {
        bitcode: Vec<u8>,
        machine_code: bool,
    },
    /// Machine code only, with its global symbols.
    Native {
        defined: Vec<String>,
        undefined: Vec<String>,
    },
    /// Anything else (a linker script, an unknown format): left to the linker.
    Other,
}

impl Content {
    pub fn has_ir(&self) -> bool {
        matches!(self, Content::Ir { .. })
    }
}

/// Bitcode starts with `BC 0xC0DE`, or with the wrapper magic `0x0B17C0DE`.
pub fn is_bitcode(bytes: &[u8]) -> bool {
    bytes.starts_with(b"BC\xC0\xDE") || bytes.starts_with(&[0xDE, 0xC0, 0x17, 0x0B])
}

/// Classifies the bytes of one object file.
pub fn classify(bytes: &[u8]) -> Content {
    if is_bitcode(bytes) {
        return Content::Ir {
            bitcode: bytes.to_vec(),
            machine_code: false,
        };
    }
    let Ok(file) = object::File::parse(bytes) else {
        return Content::Other;
    };
    for name in BITCODE_SECTIONS {
        if let Some(data) = file.section_by_name(name).and_then(|s| s.data().ok()) {
            if is_bitcode(data) {
                return Content::Ir {
                    bitcode: data.to_vec(),
                    machine_code: true,
                };
            }
        }
    }
    let mut defined = Vec::new();
    let mut undefined = Vec::new();
    let symbols = file.symbols().chain(file.dynamic_symbols());
    for s in symbols {
        if !s.is_global() {
            continue;
        }
        let Ok(name) = s.name() else { continue };
        if name.is_empty() {
            continue;
        }
        if s.is_undefined() {
            undefined.push(name.to_string());
        } else if s.is_definition() {
            defined.push(name.to_string());
        }
    }
    Content::Native { defined, undefined }
}

/// Reads and classifies an object file (a `.o`, a shared library).
pub fn read_object(path: &Path) -> Result<Content, CliError> {
    let bytes = std::fs::read(path)
        .map_err(|e| CliError::Failed(format!("cannot read '{}': {e}", path.display())))?;
    Ok(classify(&bytes))
}

/// One member of a static library.
#[derive(Clone, Debug)]
pub struct Member {
    /// `libfoo.a(bar.o)`, for messages.
    pub display: String,
    pub content: Content,
}

/// A static library, member by member.
#[derive(Clone, Debug)]
pub struct Archive {
    pub members: Vec<Member>,
}

impl Archive {
    pub fn has_ir(&self) -> bool {
        self.members.iter().any(|m| m.content.has_ir())
    }

    /// Every member is IR without machine code: a linker without an LTO plugin could not
    /// use it, so the library stays off the final link line.
    pub fn only_ir(&self) -> bool {
        !self.members.is_empty()
            && self.members.iter().all(|m| {
                matches!(
                    m.content,
                    Content::Ir {
                        machine_code: false,
                        ..
                    }
                )
            })
    }
}

/// Does the file start with an `ar` magic (`!<arch>` or the thin `!<thin>`)?
pub fn is_archive(path: &Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 8];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok()
        && (&magic == b"!<arch>\n" || &magic == b"!<thin>\n")
}

/// Reads a static library.
pub fn read_archive(path: &Path) -> Result<Archive, CliError> {
    let bytes = std::fs::read(path)
        .map_err(|e| CliError::Failed(format!("cannot read '{}': {e}", path.display())))?;
    let bad = |e: object::read::Error| {
        CliError::Failed(format!(
            "'{}' is not a static library this tool can read: {e}",
            path.display()
        ))
    };
    let archive = ArchiveFile::parse(&*bytes).map_err(bad)?;
    let lib = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let mut members = Vec::new();
    for m in archive.members() {
        let m = m.map_err(bad)?;
        let name = String::from_utf8_lossy(m.name()).into_owned();
        let data = if archive.is_thin() {
            // Thin archives name their members' files, relative to the archive.
            let file = path.parent().unwrap_or(Path::new(".")).join(&name);
            std::fs::read(&file).map_err(|e| {
                CliError::Failed(format!(
                    "cannot read '{}' (a member of the thin archive '{}'): {e}",
                    file.display(),
                    path.display()
                ))
            })?
        } else {
            m.data(&*bytes).map_err(bad)?.to_vec()
        };
        members.push(Member {
            display: format!("{lib}({name})"),
            content: classify(&data),
        });
    }
    Ok(Archive { members })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitcode_is_ir() {
        let c = classify(b"BC\xC0\xDE\x35\x14\x00\x00");
        assert!(matches!(
            c,
            Content::Ir {
                machine_code: false,
                ..
            }
        ));
        assert!(matches!(classify(b"INPUT(-lfoo)\n"), Content::Other));
    }

    #[test]
    fn archive_magic() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("x.a");
        std::fs::write(&a, b"!<arch>\n").unwrap();
        assert!(is_archive(&a));
        let o = dir.path().join("x.o");
        std::fs::write(&o, b"\x7fELF").unwrap();
        assert!(!is_archive(&o));
        assert!(read_archive(&a).unwrap().members.is_empty());
    }
}
