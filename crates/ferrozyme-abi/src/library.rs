//! C and C++ runtime functions that carry no derivative: one row each, with what the
//! function may write and why it is inactive.
//!
//! A call on the differentiated path to a function without IR needs a derivative rule or
//! must be known to be *inactive*: its result carries no derivative (an integer, a stream
//! handle, a count of characters) and it writes nothing a derivative could flow through.
//! The criterion, for every row: the function reads its arguments (strings, buffers, the
//! value printed) and writes at most character data, integers, or the state of a stream
//! or of the C library; it never writes floating-point data the program reads back and
//! returns no pointer into memory the program differentiates. Functions returning a
//! pointer into their argument (`strchr`, `strcpy`'s destination), reading numbers into
//! memory (`scanf`) or allocating (`strdup`) are deliberately absent: they are not
//! inactive in that sense. `strtod` and its twins are rows: the number they return is
//! parsed from characters (no derivative), and the end pointer they store is a pointer
//! into that same character string ([`Writes::PointerTo`]), never into floating-point
//! data.
//!
//! `ferrozyme-analysis` classifies calls of these functions as inactive (copied into the
//! derivative code as they are, no adjoint, no shadow). [`Writes`] records what each one
//! writes, for analyses that track memory (a character buffer written by `snprintf` is
//! still written).

/// What an inactive library function may write, besides the C library's own state
/// (`errno`, stream buffers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Writes {
    /// Nothing the program can read back.
    Nothing,
    /// Characters (and a terminating NUL) into the buffer passed as argument `n`.
    CharsTo(usize),
    /// A stream: `FILE *`, `std::ostream`, a file descriptor.
    Stream,
    /// A pointer into the character string given as argument 0, stored through the
    /// `char **` passed as argument `n` when it is not null (`strtod`'s end pointer).
    PointerTo(usize),
    /// Integers into the object passed as argument `n`: a mutex's lock word and owner,
    /// the `time_t` of `time(&t)`, the `struct timeval`/`timespec` of the clocks.
    IntegersTo(usize),
}

impl Writes {
    /// The argument through which the function stores what the program can read back,
    /// when there is one (`Stream` and `Nothing` leave no such argument).
    pub fn output_argument(self) -> Option<usize> {
        match self {
            Writes::CharsTo(n) | Writes::PointerTo(n) | Writes::IntegersTo(n) => Some(n),
            Writes::Nothing | Writes::Stream => None,
        }
    }
}

/// One inactive library function.
#[derive(Clone, Copy, Debug)]
pub struct Inactive {
    /// The symbol (C name, or the Itanium-mangled C++ name).
    pub name: &'static str,
    pub writes: Writes,
    /// Why no derivative flows through it.
    pub why: &'static str,
}

const fn row(name: &'static str, writes: Writes, why: &'static str) -> Inactive {
    Inactive { name, writes, why }
}

const ATEXIT: &str =
    "registers a destructor to run at thread or program exit in the C++ runtime's own list; integer result";
const PARSE: &str = "parses a floating-point number from characters: a constant of the text";
const STRINGS: &str = "compares or measures character data; integer result";
const CTYPE: &str = "classifies or converts a character; integer result";
const FORMAT: &str = "formats its arguments as characters into a buffer; integer result";
const PRINT: &str = "writes its arguments to a stream as characters";
const STREAMS: &str =
    "opens, closes or positions a stream: a `FILE *` handle (opaque C library state) or an integer result";
const CLOCKS: &str =
    "reads a clock: the time as integers, stored through a pointer (and returned); integer result";
const MUTEX: &str = "locks or unlocks a mutex: integer state in the mutex, an integer error code";
const OSTREAM: &str = "std::ostream output: writes characters to the stream, returns the stream";

/// The table.
pub const INACTIVE_LIBRARY: &[Inactive] = &[
    // <string.h>: comparisons and lengths.
    row("strlen", Writes::Nothing, STRINGS),
    row("strnlen", Writes::Nothing, STRINGS),
    row("strcmp", Writes::Nothing, STRINGS),
    row("strncmp", Writes::Nothing, STRINGS),
    row("strcasecmp", Writes::Nothing, STRINGS),
    row("strncasecmp", Writes::Nothing, STRINGS),
    row("strcoll", Writes::Nothing, STRINGS),
    row("strspn", Writes::Nothing, STRINGS),
    row("strcspn", Writes::Nothing, STRINGS),
    row(
        "memcmp",
        Writes::Nothing,
        "compares bytes; integer result (piecewise constant in floats it may read)",
    ),
    row(
        "bcmp",
        Writes::Nothing,
        "compares bytes; integer result (piecewise constant in floats it may read)",
    ),
    // <stdlib.h>: integers from strings and integers.
    row("atoi", Writes::Nothing, "parses an integer from characters"),
    row("atol", Writes::Nothing, "parses an integer from characters"),
    row(
        "atoll",
        Writes::Nothing,
        "parses an integer from characters",
    ),
    row(
        "strtol",
        Writes::PointerTo(1),
        "parses an integer from characters",
    ),
    row(
        "strtoul",
        Writes::PointerTo(1),
        "parses an integer from characters",
    ),
    row(
        "strtoll",
        Writes::PointerTo(1),
        "parses an integer from characters",
    ),
    row(
        "strtoull",
        Writes::PointerTo(1),
        "parses an integer from characters",
    ),
    // Floating-point numbers parsed from characters: the value is a constant of the
    // program's input text, with no derivative with respect to anything differentiated.
    row("strtod", Writes::PointerTo(1), PARSE),
    row("strtof", Writes::PointerTo(1), PARSE),
    row("strtold", Writes::PointerTo(1), PARSE),
    row("atof", Writes::Nothing, PARSE),
    row("abs", Writes::Nothing, "integer arithmetic"),
    row("labs", Writes::Nothing, "integer arithmetic"),
    row("llabs", Writes::Nothing, "integer arithmetic"),
    // <ctype.h> (glibc's macros read tables through these).
    row("__ctype_b_loc", Writes::Nothing, CTYPE),
    row("__ctype_tolower_loc", Writes::Nothing, CTYPE),
    row("__ctype_toupper_loc", Writes::Nothing, CTYPE),
    row("tolower", Writes::Nothing, CTYPE),
    row("toupper", Writes::Nothing, CTYPE),
    row("isalpha", Writes::Nothing, CTYPE),
    row("isdigit", Writes::Nothing, CTYPE),
    row("isalnum", Writes::Nothing, CTYPE),
    row("isspace", Writes::Nothing, CTYPE),
    row("isupper", Writes::Nothing, CTYPE),
    row("islower", Writes::Nothing, CTYPE),
    row("isxdigit", Writes::Nothing, CTYPE),
    row("ispunct", Writes::Nothing, CTYPE),
    row("isprint", Writes::Nothing, CTYPE),
    row(
        "__errno_location",
        Writes::Nothing,
        "the address of errno (an int)",
    ),
    // <stdio.h>: formatting into character buffers.
    row("sprintf", Writes::CharsTo(0), FORMAT),
    row("snprintf", Writes::CharsTo(0), FORMAT),
    row("vsprintf", Writes::CharsTo(0), FORMAT),
    row("vsnprintf", Writes::CharsTo(0), FORMAT),
    row("__sprintf_chk", Writes::CharsTo(0), FORMAT),
    row("__snprintf_chk", Writes::CharsTo(0), FORMAT),
    row("__vsnprintf_chk", Writes::CharsTo(0), FORMAT),
    row("__vsprintf_chk", Writes::CharsTo(0), FORMAT),
    // <time.h>, <sys/time.h>: clocks that store the time through a pointer (`clock` is
    // in INACTIVE_EXTERNALS: it returns it).
    row("time", Writes::IntegersTo(0), CLOCKS),
    row("gettimeofday", Writes::IntegersTo(0), CLOCKS),
    row("clock_gettime", Writes::IntegersTo(1), CLOCKS),
    // <stdio.h>, <unistd.h>: output (printf, fprintf, vprintf, puts ... are in
    // INACTIVE_EXTERNALS).
    row("putc", Writes::Stream, PRINT),
    row("dprintf", Writes::Stream, PRINT),
    row("__vfprintf_chk", Writes::Stream, PRINT),
    row("__vprintf_chk", Writes::Stream, PRINT),
    row("fputs_unlocked", Writes::Stream, PRINT),
    row("fwrite_unlocked", Writes::Stream, PRINT),
    row("putchar_unlocked", Writes::Stream, PRINT),
    // <stdio.h>: opening, closing and positioning streams (reading numbers from them is
    // `crate::input`'s business: what `fscanf` writes is data, with derivative zero).
    row("fopen", Writes::Stream, STREAMS),
    row("fopen64", Writes::Stream, STREAMS),
    row("fmemopen", Writes::Stream, STREAMS),
    row("fdopen", Writes::Stream, STREAMS),
    row("fclose", Writes::Stream, STREAMS),
    row("rewind", Writes::Stream, STREAMS),
    row("fseek", Writes::Stream, STREAMS),
    row("ftell", Writes::Stream, STREAMS),
    row("feof", Writes::Stream, STREAMS),
    row("ferror", Writes::Stream, STREAMS),
    row("clearerr", Writes::Stream, STREAMS),
    // libstdc++: the locale lookup std::endl's inline part does (the stream functions
    // themselves are families, below).
    row(
        "_ZNKSt5ctypeIcE13_M_widen_initEv",
        Writes::Nothing,
        "fills a locale facet's character cache (std::endl's widen)",
    ),
    // Locks guarding lazily built tables (boost::math's quadrature abscissas, a user's
    // cache behind a std::mutex): libstdc++'s `__gthread_mutex_*` call these.
    row("pthread_mutex_lock", Writes::IntegersTo(0), MUTEX),
    row("pthread_mutex_trylock", Writes::IntegersTo(0), MUTEX),
    row("pthread_mutex_unlock", Writes::IntegersTo(0), MUTEX),
    // The C++ runtime's registration of a destructor for a `thread_local` (or, at
    // `__cxa_atexit`, a static) object with a non-trivial destructor, on its first use:
    // the function and object pointers go into the runtime's own list, the destructor
    // runs on the primal object at thread (program) exit; integer result.
    row("__cxa_thread_atexit", Writes::Nothing, ATEXIT),
    row("__cxa_atexit", Writes::Nothing, ATEXIT),
    row(
        "_ZSt16__throw_bad_castv",
        Writes::Nothing,
        "throws; never returns into derivative code",
    ),
];

/// Searches of a table: `bsearch(key, table, n, size, cmp)` and `lfind(key, table, &n,
/// size, cmp)` read the key and the table (through the comparator, whose `int` result
/// carries no derivative), write nothing, and return a pointer into the table or null.
/// When the table is immutable memory (a `const` global: a table of knots or
/// breakpoints), no derivative can flow through the call: the key is only read and the
/// result points at constants. A search of a differentiable table (records of the
/// program's doubles) gets a built-in rule instead (`ferrozyme_transform`'s
/// `custom/search.rs`: the result's shadow is the same offset into the table's shadow).
/// One row: (function, index of the table argument).
pub const TABLE_SEARCHES: &[(&str, usize)] = &[("bsearch", 1), ("lfind", 1)];

/// The table argument's index of a search of [`TABLE_SEARCHES`].
pub fn table_search(name: &str) -> Option<usize> {
    argument_row(TABLE_SEARCHES, name)
}

/// The argument index of `name`'s row in a (function, argument index) table.
fn argument_row(table: &[(&str, usize)], name: &str) -> Option<usize> {
    table.iter().find(|(n, _)| *n == name).map(|(_, i)| *i)
}

/// The C++ runtime's one-time initialization of a static (or `thread_local`) object with
/// dynamic initialization: the guard variable (`__cxa_guard_*`'s argument 0) and the object
/// whose destructor is registered (`__cxa_*atexit`'s argument 1). Their state is not data
/// to put back: a guard reset to 0 runs the initialization again and registers the
/// destructor once more (two destructor runs at exit free the object's memory twice), and
/// an object put back to its bytes before that initialization is not an object. One row:
/// (function, index of the argument naming that state).
pub const ONE_TIME_INIT: &[(&str, usize)] = &[
    ("__cxa_guard_acquire", 0),
    ("__cxa_guard_release", 0),
    ("__cxa_guard_abort", 0),
    ("__cxa_atexit", 1),
    ("__cxa_thread_atexit", 1),
];

/// The index of the argument of a [`ONE_TIME_INIT`] call that names the guard or the
/// object it initializes.
pub fn one_time_init_state(name: &str) -> Option<usize> {
    argument_row(ONE_TIME_INIT, name)
}

/// Families of inactive functions, by symbol prefix: libstdc++'s output streams. Every
/// member function of `std::ostream`/`std::wostream` (`operator<<` for numbers and
/// pointers, `put`, `write`, `flush`, `_M_insert`) and the free `operator<<`s for
/// characters and C strings, `std::endl`, `std::flush`, write characters to the stream
/// and return it. (`operator<<` templates for other types, `std::complex` say, are
/// defined in the headers and have IR.)
pub const INACTIVE_FAMILIES: &[Inactive] = &[
    row("_ZNSo", Writes::Stream, OSTREAM),
    row(
        "_ZNSt13basic_ostreamIwSt11char_traitsIwEE",
        Writes::Stream,
        OSTREAM,
    ),
    row(
        "_ZStlsISt11char_traitsIcEERSt13basic_ostreamIcT_ES5_",
        Writes::Stream,
        OSTREAM,
    ),
    row(
        "_ZStlsIwSt11char_traitsIwEERSt13basic_ostreamIT_T0_ES6_",
        Writes::Stream,
        OSTREAM,
    ),
    row("_ZSt16__ostream_insertI", Writes::Stream, OSTREAM),
    row("_ZSt4endlI", Writes::Stream, OSTREAM),
    row("_ZSt5flushI", Writes::Stream, OSTREAM),
];

/// The row of an inactive library function, by symbol: an exact row, else a family.
pub fn inactive_library(name: &str) -> Option<&'static Inactive> {
    INACTIVE_LIBRARY
        .iter()
        .find(|r| r.name == name)
        .or_else(|| INACTIVE_FAMILIES.iter().find(|r| name.starts_with(r.name)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_unique_and_explained() {
        let mut seen = std::collections::HashSet::new();
        for r in INACTIVE_LIBRARY {
            assert!(seen.insert(r.name), "duplicate row {}", r.name);
            assert!(!r.why.is_empty(), "{} has no reason", r.name);
            assert!(
                !crate::INACTIVE_EXTERNALS.contains(&r.name),
                "{} is already in INACTIVE_EXTERNALS",
                r.name
            );
        }
        assert_eq!(
            inactive_library("__vsnprintf_chk").map(|r| r.writes),
            Some(Writes::CharsTo(0))
        );
        assert!(inactive_library("strchr").is_none());
        // What the reverse sweep's memory facts and the checkpoint closures read back.
        assert_eq!(
            inactive_library("snprintf").and_then(|r| r.writes.output_argument()),
            Some(0)
        );
        assert_eq!(
            inactive_library("clock_gettime").and_then(|r| r.writes.output_argument()),
            Some(1)
        );
        assert_eq!(
            inactive_library("gettimeofday").map(|r| r.writes),
            Some(Writes::IntegersTo(0))
        );
        // std::cout << double at -O0, and std::endl.
        assert!(inactive_library("_ZNSolsEd").is_some());
        assert!(
            inactive_library("_ZSt4endlIcSt11char_traitsIcEERSt13basic_ostreamIT_T0_ES6_")
                .is_some()
        );
        assert!(inactive_library("_ZNSt7complexIdEmLIdEERS0_RKS_IT_E").is_none());
    }
}
