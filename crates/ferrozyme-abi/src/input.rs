//! Input functions: C's `scanf` family, C++'s `std::istream >>` and C++17's
//! `std::from_chars`, on the differentiated path.
//!
//! A number read from text (a configuration string, a file, standard input) is data, not
//! a differentiable input: nothing the program computed flows into it, so its derivative
//! is zero. Such a call is not *inactive* in the sense of [`crate::library`] — it writes
//! floats into memory the program reads back — but what it writes is a constant: it is
//! differentiated exactly as a store of a constant is. Forward mode sets the tangent of
//! every float it wrote to zero; reverse mode clears the adjoint of those floats when the
//! reverse sweep passes the call (the value they held before was overwritten, so its
//! adjoint goes nowhere). Integers, characters and strings it writes carry no derivative
//! and need nothing.
//!
//! Which bytes are floats: for `std::istream::operator>>(double &)` and its siblings the
//! signature says it (one row per type); for the `scanf` family the format string does,
//! so it must be a constant the compiler can read (a string literal). A format that is
//! not one, positional arguments (`%1$lf`), a `%p` (a pointer read from text) or the
//! `v...scanf` forms (a `va_list` hides the targets) are refused with a clear error.

/// How an input function says where it writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reads {
    /// `scanf`-like: argument `format` is the format string, the targets follow it.
    Scanf { format: usize },
    /// One value of `bytes` bytes written to `*arg`; `float` when it is floating point.
    Value { arg: usize, bytes: u64, float: bool },
}

/// One input function.
#[derive(Clone, Copy, Debug)]
pub struct Input {
    /// The symbol (C name, or the Itanium-mangled C++ name).
    pub name: &'static str,
    pub reads: Reads,
}

const fn scanf(name: &'static str, format: usize) -> Input {
    Input {
        name,
        reads: Reads::Scanf { format },
    }
}

const fn value(name: &'static str, bytes: u64, float: bool) -> Input {
    value_at(name, 1, bytes, float)
}

const fn value_at(name: &'static str, arg: usize, bytes: u64, float: bool) -> Input {
    Input {
        name,
        reads: Reads::Value { arg, bytes, float },
    }
}

/// The table. glibc redirects the C99 forms to `__isoc99_*` (and `__isoc23_*` with newer
/// standards); libstdc++'s `operator>>` for floating types is out of line at `-O0`, and
/// at `-O1` and up is inlined down to `std::istream::_M_extract<T>`.
pub const INPUT_LIBRARY: &[Input] = &[
    scanf("sscanf", 1),
    scanf("__isoc99_sscanf", 1),
    scanf("__isoc23_sscanf", 1),
    scanf("fscanf", 1),
    scanf("__isoc99_fscanf", 1),
    scanf("__isoc23_fscanf", 1),
    scanf("scanf", 0),
    scanf("__isoc99_scanf", 0),
    scanf("__isoc23_scanf", 0),
    // std::istream::operator>>(double &), (float &), (long double &).
    value("_ZNSirsERd", 8, true),
    value("_ZNSirsERf", 4, true),
    value("_ZNSirsERe", 16, true),
    // std::istream::_M_extract<double>, <float>, <long double>.
    value("_ZNSi10_M_extractIdEERSiRT_", 8, true),
    value("_ZNSi10_M_extractIfEERSiRT_", 4, true),
    value("_ZNSi10_M_extractIeEERSiRT_", 16, true),
    // std::from_chars(first, last, double &, chars_format) and its float / long double
    // forms (libstdc++ defines them out of line): the value goes to argument 2, the
    // returned `from_chars_result` holds a pointer into the same characters and an error
    // code.
    value_at("_ZSt10from_charsPKcS0_RdSt12chars_format", 2, 8, true),
    value_at("_ZSt10from_charsPKcS0_RfSt12chars_format", 2, 4, true),
    value_at("_ZSt10from_charsPKcS0_ReSt12chars_format", 2, 16, true),
];

/// The row of an input function, by symbol.
pub fn input_library(name: &str) -> Option<&'static Input> {
    INPUT_LIBRARY.iter().find(|r| r.name == name)
}

/// What one assigning conversion of a `scanf` format writes through its argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScanTarget {
    /// A floating-point value of this many bytes (`%f` 4, `%lf` 8, `%Lf` 16).
    Float(u64),
    /// Integers, characters or a string: no derivative.
    NoFloat,
}

/// The targets of a `scanf` format, one per argument it consumes, in order; `None` when
/// the format has something whose target cannot be known or carries a pointer
/// (positional `%n$`, `%p`, an unterminated `%[`, an unknown conversion).
pub fn scanf_targets(format: &str) -> Option<Vec<ScanTarget>> {
    let b = format.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        if b.get(i) == Some(&b'%') {
            i += 1;
            continue;
        }
        let suppressed = b.get(i) == Some(&b'*');
        if suppressed {
            i += 1;
        }
        let digits = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if b.get(i) == Some(&b'$') && i > digits {
            return None;
        }
        if b.get(i) == Some(&b'm') {
            // POSIX's allocating modifier: the target receives a pointer.
            return None;
        }
        let mut length = String::new();
        while let Some(&c) = b.get(i).filter(|c| b"hlLqjzt".contains(c)) {
            length.push(c as char);
            i += 1;
        }
        let conv = *b.get(i)?;
        i += 1;
        let target = match conv {
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => match length.as_str() {
                "" => ScanTarget::Float(4),
                "l" => ScanTarget::Float(8),
                "L" => ScanTarget::Float(16),
                _ => return None,
            },
            b'd' | b'i' | b'u' | b'o' | b'x' | b'X' | b'n' | b'c' | b's' => ScanTarget::NoFloat,
            b'[' => {
                // A scanset: `]` right after `[` (or `[^`) is part of the set.
                if b.get(i) == Some(&b'^') {
                    i += 1;
                }
                if b.get(i) == Some(&b']') {
                    i += 1;
                }
                while *b.get(i)? != b']' {
                    i += 1;
                }
                i += 1;
                ScanTarget::NoFloat
            }
            _ => return None,
        };
        if !suppressed {
            out.push(target);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ScanTarget::*;

    #[test]
    fn formats() {
        assert_eq!(
            scanf_targets("%lf %d %f"),
            Some(vec![Float(8), NoFloat, Float(4)])
        );
        assert_eq!(
            scanf_targets("x=%le, y=%*lf %Lg"),
            Some(vec![Float(8), Float(16)])
        );
        assert_eq!(
            scanf_targets("%99s %% %[^,], %5lf%n"),
            Some(vec![NoFloat, NoFloat, Float(8), NoFloat])
        );
        assert_eq!(scanf_targets("%[]x] %ld"), Some(vec![NoFloat, NoFloat]));
        assert_eq!(scanf_targets("no conversions"), Some(vec![]));
        assert_eq!(scanf_targets("%p"), None);
        assert_eq!(scanf_targets("%1$lf"), None);
        assert_eq!(scanf_targets("%ms"), None);
        assert_eq!(scanf_targets("%[abc"), None);
        assert_eq!(scanf_targets("%hf"), None);
        assert_eq!(scanf_targets("%"), None);
    }

    #[test]
    fn from_chars_writes_its_third_argument() {
        assert_eq!(
            input_library("_ZSt10from_charsPKcS0_RdSt12chars_format").map(|r| r.reads),
            Some(Reads::Value {
                arg: 2,
                bytes: 8,
                float: true
            })
        );
    }

    #[test]
    fn rows() {
        assert!(input_library("__isoc99_sscanf").is_some());
        assert_eq!(
            input_library("_ZNSirsERd").map(|r| r.reads),
            Some(Reads::Value {
                arg: 1,
                bytes: 8,
                float: true
            })
        );
        assert!(input_library("vsscanf").is_none());
        let mut seen = std::collections::HashSet::new();
        assert!(INPUT_LIBRARY.iter().all(|r| seen.insert(r.name)));
    }
}
