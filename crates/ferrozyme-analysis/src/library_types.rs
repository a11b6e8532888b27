//! Which C++ standard library calls cannot carry derivatives, decided from their types.
//!
//! A function without IR needs a rule, unless nothing it can do reaches a derivative: it
//! returns no floating-point value and writes no memory that holds one. For C++'s
//! standard library (`std::`, compiled into libstdc++ and seen only as declarations) the
//! Itanium-mangled name spells out the parameter types, so that can be decided by type:
//!
//! * every parameter through which the function may write — a pointer or reference to
//!   non-`const` data, and `this` of a non-`const` member function — must point to
//!   *float-free* data;
//! * by-value parameters must be float-free too (a by-value object may hold pointers it
//!   writes through);
//! * a result returned in memory (`sret`) must be a float-free class, and a result
//!   returned by value must not be floating-point (the caller checks the IR type).
//!
//! *Float-free* types: the integer and character types and `bool`; pointers to
//! float-free types; and the library's character, string and stream classes
//! ([`FLOAT_FREE_CLASSES`]) when their template arguments are float-free (a
//! `std::basic_ostream<char>` holds characters, flags and integers; a
//! `std::vector<double>` is not on the list). `void *` is not float-free (it may point to
//! anything). So `std::cout << x` (`std::ostream::operator<<(double)`: `this` is a
//! float-free stream, `x` a value), `std::string` and `std::stringstream` construction,
//! `str()`, `std::to_string(double)`, `std::filebuf::open` are inactive by the same
//! criterion, while `std::istream::operator>>(double&)` (a `double &` written) and
//! `std::vector<double>::push_back` (a class holding doubles) are not.
//!
//! The demangled text is taken apart by [`signature`] (qualified name, parameters, `const`,
//! the return type where templates spell it).

mod signature;

use signature::split_top;
pub use signature::{demangle, owner_class, parse_signature, Signature};

/// Class (template) names whose instances hold no floating-point data when their
/// template arguments hold none: characters, strings, streams, locales, buffers.
pub const FLOAT_FREE_CLASSES: &[&str] = &[
    "std::basic_string",
    "std::__cxx11::basic_string",
    "std::basic_string_view",
    "std::char_traits",
    "std::allocator",
    "std::basic_ios",
    "std::basic_ostream",
    "std::basic_istream",
    "std::basic_iostream",
    "std::basic_streambuf",
    "std::basic_stringbuf",
    "std::__cxx11::basic_stringbuf",
    "std::basic_stringstream",
    "std::__cxx11::basic_stringstream",
    "std::basic_ostringstream",
    "std::__cxx11::basic_ostringstream",
    "std::basic_istringstream",
    "std::__cxx11::basic_istringstream",
    "std::basic_filebuf",
    "std::basic_ofstream",
    "std::basic_ifstream",
    "std::basic_fstream",
    "std::__basic_file",
    "std::ostreambuf_iterator",
    "std::istreambuf_iterator",
    "std::ctype",
    "std::ios_base",
    "std::ios_base::Init",
    "std::locale",
    "std::locale::facet",
    "std::_Ios_Openmode",
    "std::_Ios_Fmtflags",
    "std::_Ios_Iostate",
    "std::_Ios_Seekdir",
    // The typedefs the demangler prints for the `char` instances.
    "std::string",
    "std::ostream",
    "std::istream",
    "std::iostream",
    "std::streambuf",
    "std::nothrow_t",
    "std::align_val_t",
    // The standard exception classes: a vtable pointer and a reference-counted message
    // (libraries that check indices, like boost::numeric::ublas, construct them on their
    // throw paths inside differentiated code).
    "std::exception",
    "std::logic_error",
    "std::runtime_error",
    "std::out_of_range",
    "std::invalid_argument",
    "std::domain_error",
    "std::length_error",
    "std::range_error",
    "std::overflow_error",
    "std::underflow_error",
    "std::bad_alloc",
    "std::bad_cast",
    "std::bad_function_call",
    "std::bad_array_new_length",
    // The va_list of a formatting function (`vsnprintf` through `__gnu_cxx::__to_xstring`):
    // it points to the caller's argument save area, which holds no differentiable memory.
    "__va_list_tag",
];

/// The integer, character and boolean types (float-free scalars).
const INTEGER_TYPES: &[&str] = &[
    "bool",
    "char",
    "signed char",
    "unsigned char",
    "wchar_t",
    "char8_t",
    "char16_t",
    "char32_t",
    "short",
    "unsigned short",
    "int",
    "unsigned int",
    "long",
    "unsigned long",
    "long long",
    "unsigned long long",
    "__int128",
    "unsigned __int128",
    "decltype(nullptr)",
];

/// Strips `const`/`volatile` qualifiers.
fn unqualified(t: &str) -> &str {
    let mut t = t.trim();
    loop {
        if let Some(r) = t.strip_suffix(" const") {
            t = r.trim_end();
        } else if let Some(r) = t.strip_suffix(" volatile") {
            t = r.trim_end();
        } else if let Some(r) = t.strip_prefix("const ") {
            t = r.trim_start();
        } else {
            return t;
        }
    }
}

/// `R (*)(P...)`: the return type and the parameter list.
fn function_pointer(t: &str) -> Option<(&str, &str)> {
    let at = t.find(" (*)(")?;
    let params = t[at + 5..].strip_suffix(')')?;
    Some((&t[..at], params))
}

/// Is a value of type `t` free of floating-point data (recursively through pointers and
/// template arguments)?
pub fn float_free(t: &str) -> bool {
    let t = unqualified(t);
    if let Some(inner) = t.strip_suffix('*') {
        let inner = inner.trim_end();
        return inner != "void" && unqualified(inner) != "void" && float_free(inner);
    }
    if t.ends_with('&') {
        return float_free(t.trim_end_matches('&').trim_end());
    }
    if INTEGER_TYPES.contains(&t) || FLOAT_FREE_CLASSES.contains(&t) {
        return true;
    }
    // A template instance: a listed template with float-free arguments.
    if let Some(i) = t.find('<') {
        if t.ends_with('>') && matching_close(t, i) == Some(t.len() - 1) {
            let (base, args) = (&t[..i], &t[i + 1..t.len() - 1]);
            return FLOAT_FREE_CLASSES.contains(&base.trim())
                && split_top(args, ',')
                    .iter()
                    .all(|a| a.chars().all(|c| c.is_ascii_digit() || c == '-') || float_free(a));
        }
    }
    // A member type of a float-free class (`std::basic_ostream<char>::sentry`).
    owner_class(t).is_some_and(|o| float_free(&o))
}

/// The index of the `>` closing the `<` at `open`.
fn matching_close(t: &str, open: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (i, c) in t.char_indices().skip_while(|(i, _)| *i < open) {
        match c {
            '<' => depth += 1,
            '>' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// May the function write through a parameter of type `t` only float-free data?
pub fn param_writes_float_free(t: &str) -> bool {
    let t = t.trim();
    // Variadic arguments are values; the caller rejects pointers passed there.
    if t == "..." {
        return true;
    }
    // A function pointer: the function may write what its own parameters point to.
    if let Some((ret, params)) = function_pointer(t) {
        return !["float", "double", "long double"].contains(&unqualified(ret))
            && split_top(params, ',')
                .iter()
                .all(|p| param_writes_float_free(p));
    }
    let pointee = t
        .strip_suffix("&&")
        .or_else(|| t.strip_suffix('&'))
        .or_else(|| t.strip_suffix('*'))
        .map(str::trim_end);
    match pointee {
        // Read-only memory: nothing is written through it (it may be read: reading
        // never carries a derivative into a call that returns none and writes none).
        Some(p) if p.ends_with(" const") || p.starts_with("const ") => true,
        Some(p) => p != "void" && float_free(p),
        // A floating-point value passed by value is read, never written back.
        None => ["float", "double", "long double"].contains(&unqualified(t)) || float_free(t),
    }
}

/// Is the IR struct named `ir_name` (clang's `class.std::__cxx11::basic_string`,
/// `class.std::basic_ostream.12`) one of the float-free library classes? IR names carry
/// no template arguments: a `basic_string` of doubles would be misjudged, a type nobody
/// instantiates.
pub fn is_float_free_struct(ir_name: &str) -> bool {
    let name = ir_name
        .strip_prefix("class.")
        .or_else(|| ir_name.strip_prefix("struct."))
        .unwrap_or(ir_name);
    // LLVM suffixes a struct name with `.123` when names clash; the rest has no dots.
    let name = name.split('.').next().unwrap_or(name);
    FLOAT_FREE_CLASSES.contains(&name)
}

/// Can a call of the standard library function `mangled` (no IR, no rule) not carry
/// derivatives, by the criterion of the module docs? `sret_class` is the IR name of the
/// struct its hidden result parameter has (`class.std::__cxx11::basic_string`), if any;
/// the caller has already checked that the IR result type holds no floating point.
///
/// `deep`: the function has IR (a template instance compiled from a header), so it is
/// differentiated unless `const` is known to reach all the data: C++'s `const` is shallow
/// (`std::function<void()>::operator() const` runs a lambda that writes through its
/// captured references; `std::slice_array<double>::operator*= const` writes through its
/// pointer), so `this` of a `const` member and `const` pointers and references count as
/// read-only only for float-free classes and scalars ([`deep_read_only`]). Without IR
/// the library's documented behaviour is trusted (`const` members of its own classes).
pub fn std_call_is_float_free(
    mangled: &str,
    sret_class: Option<&str>,
    ret_pointer: bool,
    deep: bool,
) -> bool {
    let Some(d) = demangle(mangled) else {
        return false;
    };
    let Some(sig) = parse_signature(&d) else {
        return false;
    };
    if !(sig.name.starts_with("std::") || sig.name.starts_with("__gnu_cxx::")) {
        return false;
    }
    if let Some(class) = owner_class(&sig.name) {
        if (deep || !sig.is_const) && !float_free(&class) {
            return false;
        }
    }
    if let Some(r) = &sig.ret {
        if !param_writes_float_free(r) {
            return false;
        }
    }
    if sret_class.is_some_and(|c| !is_float_free_struct(c)) {
        return false;
    }
    // A returned pointer or reference hands out memory: it must point to float-free data
    // (`std::vector<double>::operator[] const` writes nothing, yet the `double &` it
    // returns is where the caller's derivative lives). The mangling spells the result of
    // templates only; otherwise a member of a float-free class (`std::ostream &` from
    // `operator<<`) is taken to return part of itself.
    if ret_pointer {
        let ok = match &sig.ret {
            Some(r) => float_free(r),
            None => owner_class(&sig.name).is_some_and(|c| float_free(&c)),
        };
        if !ok {
            return false;
        }
    }
    sig.params.iter().all(|p| {
        param_writes_float_free(p)
            && (!deep || !read_only_pointee(p).is_some_and(|q| !deep_read_only(q)))
    })
}

/// The pointee of a `const` pointer or reference parameter (`T const&` -> `T const`).
fn read_only_pointee(t: &str) -> Option<&str> {
    let p = t
        .trim()
        .strip_suffix("&&")
        .or_else(|| t.trim().strip_suffix('&'))
        .or_else(|| t.trim().strip_suffix('*'))?
        .trim_end();
    (p.ends_with(" const") || p.starts_with("const ")).then_some(p)
}

/// Does `const` on `t` make everything reachable from it read-only: a scalar, a
/// float-free type, or a `const` pointer to such (`double const* const`)? A class that
/// holds pointers (`std::slice_array<double>`, a lambda's captures, `std::function`) does
/// not qualify.
pub fn deep_read_only(t: &str) -> bool {
    let u = unqualified(t);
    if ["float", "double", "long double"].contains(&u) || float_free(u) {
        return true;
    }
    read_only_pointee(u).is_some_and(deep_read_only)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types() {
        assert!(float_free("int"));
        assert!(float_free("char const*"));
        assert!(float_free(
            "std::basic_ostream<char, std::char_traits<char> >"
        ));
        assert!(float_free(
            "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >"
        ));
        assert!(!float_free("double"));
        assert!(!float_free("void*"));
        assert!(!float_free("std::vector<double, std::allocator<double> >"));
        assert!(!float_free("std::basic_string<double>"));
        assert!(param_writes_float_free("double"));
        assert!(param_writes_float_free("double const&"));
        assert!(!param_writes_float_free("double&"));
        assert!(!param_writes_float_free("void*"));
        assert!(param_writes_float_free("void const*"));
    }

    #[test]
    fn calls() {
        for inactive in [
            "_ZNSolsEd",
            "_ZNSo9_M_insertIdEERSoT_",
            "_ZNSt13basic_ostreamIwSt11char_traitsIwEE9_M_insertIdEERS2_T_",
            "_ZStlsISt11char_traitsIcEERSt13basic_ostreamIcT_ES5_PKc",
            "_ZSt16__ostream_insertIcSt11char_traitsIcEERSt13basic_ostreamIT_T0_ES6_PKS3_l",
            "_ZNKSt7__cxx1118basic_stringstreamIcSt11char_traitsIcESaIcEE3strEv",
            "_ZNSt7__cxx1118basic_stringstreamIcSt11char_traitsIcESaIcEEC1Ev",
            "_ZNSt13basic_filebufIcSt11char_traitsIcEE4openEPKcSt13_Ios_Openmode",
            "_ZNSt13basic_filebufIcSt11char_traitsIcEEC1Ev",
            "_ZNSt6localeD1Ev",
            "_ZNSt8ios_baseC2Ev",
            "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE10_M_replaceEmmPKcm",
            "_ZNSt9basic_iosIcSt11char_traitsIcEE4initEPSt15basic_streambufIcS1_E",
            "_ZNSoC1EPSt15basic_streambufIcSt11char_traitsIcEE",
            "_ZSt4endlIcSt11char_traitsIcEERSt13basic_ostreamIT_T0_ES6_",
            "_ZN9__gnu_cxx12__to_xstringINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEcEET_PFiPT0_mPKS8_P13__va_list_tagEmSB_z",
            // std exception classes (cxx/126: boost::numeric::ublas's bad_index).
            "_ZNSt11logic_errorC2EPKc",
            "_ZNSt11logic_errorC2ERKS_",
            "_ZNSt11logic_errorD2Ev",
            "_ZNSt12out_of_rangeC2EPKc",
            "_ZNSt12out_of_rangeD2Ev",
            "_ZNSt13runtime_errorC1ERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE",
            "_ZNSt9exceptionD2Ev",
        ] {
            assert!(std_call_is_float_free(inactive, None, false, false), "{inactive}");
        }
        assert!(std_call_is_float_free(
            "_ZNSt7__cxx119to_stringEd",
            Some("class.std::__cxx11::basic_string"),
            false,
            false
        ));
        // Returning a reference: into a stream (inactive), into a vector of doubles (not).
        assert!(std_call_is_float_free("_ZNSolsEd", None, true, false));
        assert!(std_call_is_float_free(
            "_ZSt4endlIcSt11char_traitsIcEERSt13basic_ostreamIT_T0_ES6_",
            None,
            true,
            false
        ));
        assert!(!std_call_is_float_free(
            "_ZNKSt6vectorIdSaIdEEixEm",
            None,
            true,
            false
        ));
        assert!(!std_call_is_float_free(
            "_ZNKSt6vectorIdSaIdEE4dataEv",
            None,
            true,
            false
        ));
        for active in [
            "_ZNSirsERd",                         // istream >> double&
            "_ZNSt6vectorIdSaIdEE9push_backERKd", // vector<double>
            "_Z5helperPd",                        // not std
            "_ZNSt7__cxx119to_stringEd",          // sret of unknown class (checked by caller)
        ] {
            let sret = (active == "_ZNSt7__cxx119to_stringEd").then_some("struct.pair_dd");
            assert!(
                !std_call_is_float_free(active, sret, false, false),
                "{active}"
            );
        }
    }

    /// With IR, `const` counts only where it is deep: `std::function<void()>::operator()
    /// const` (its lambda may write through captured references) and
    /// `std::slice_array<double>::operator*= const` are differentiated; a `const` member
    /// of a float-free class and `double const&` parameters stay inactive.
    #[test]
    fn shallow_const_with_ir() {
        let call = "_ZNKSt8functionIFvvEEclEv";
        assert!(std_call_is_float_free(call, None, false, false));
        assert!(!std_call_is_float_free(call, None, false, true));
        let slice = "_ZNKSt11slice_arrayIdEmLERKSt8valarrayIdE";
        assert!(!std_call_is_float_free(slice, None, false, true));
        let str_ = "_ZNKSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE4sizeEv";
        assert!(std_call_is_float_free(str_, None, false, true));
        assert!(std_call_is_float_free("_ZNSolsEd", None, true, true));
        assert!(deep_read_only("double const"));
        assert!(deep_read_only("double const* const"));
        assert!(!deep_read_only("double* const"));
        assert!(!deep_read_only("std::function<void ()> const"));
    }
}

/// The floating-point type a parameter of C++ type `t` points or refers to, when `t` is
/// a pointer or reference to one (`double *`, `const double &`, `float &&`): C++'s
/// aliasing rules say the memory behind it holds that type (at offset 0; it may be an
/// array of them). Pointers to pointers and anything else give `None`.
pub fn fp_pointee(t: &str) -> Option<&'static str> {
    let t = t.trim();
    let inner = t
        .strip_suffix("&&")
        .or_else(|| t.strip_suffix('&'))
        .or_else(|| t.strip_suffix('*'))?;
    match unqualified(inner) {
        "double" => Some("double"),
        "float" => Some("float"),
        "long double" => Some("long double"),
        _ => None,
    }
}

/// Does an IR parameter fit a C++ parameter of type `t` as the x86-64 ABI passes it
/// (pointers and references in pointers, `double` in `double`, integers in integers)?
/// Classes by value are never a fit (they may be split into several IR parameters), so
/// a signature with one is not aligned with the IR at all.
pub fn param_fits(t: &str, ir_pointer: bool, ir_fp: bool, ir_int: bool) -> bool {
    let t = unqualified(t.trim());
    if t.ends_with('*') || t.ends_with('&') || array_pointee(t).is_some() {
        return ir_pointer;
    }
    match t {
        "double" | "float" => ir_fp,
        _ if INTEGER_TYPES.contains(&t) => ir_int,
        // Classes by value and anything else: no check possible (passed in memory, in
        // registers split into pieces, or as a pointer).
        _ => false,
    }
}

/// The element type of a reference or pointer to an array, `T (&) [N]`, `T (&&) [N]`,
/// `T (*) [N]` (a string literal passed to a template: `char const (&) [6]`).
fn array_pointee(t: &str) -> Option<&str> {
    let t = t.trim();
    let open = t.strip_suffix(']')?.rfind('[')?;
    let head = t[..open].trim_end();
    ["(&)", "(&&)", "(*)"]
        .iter()
        .find_map(|r| head.strip_suffix(r))
        .map(str::trim_end)
}

/// Does a pointer or reference parameter declared with C++ type `t` bound what it
/// points to as holding no floating-point data, behind any pointer: a reference or
/// pointer to a float-free class (`std::string &&`, `std::ostream &`) or to an array of
/// integers or characters (`char const (&) [6]`)? Not `void *` (anything), nor a plain
/// `char *` or `unsigned char *`: the language lets character pointers address any
/// object's bytes, doubles included.
pub fn declared_float_free_pointee(t: &str) -> bool {
    let t = unqualified(t.trim());
    if let Some(e) = array_pointee(t) {
        return INTEGER_TYPES.contains(&unqualified(e));
    }
    let Some(p) = t
        .strip_suffix("&&")
        .or_else(|| t.strip_suffix('&'))
        .or_else(|| t.strip_suffix('*'))
        .map(|p| unqualified(p.trim_end()))
    else {
        return false;
    };
    !INTEGER_TYPES.contains(&p) && float_free(p)
}

/// Is C++ type `t` a reference to an integer (`int &&`, `const unsigned long &`)? It
/// names one integer object, never floating-point data (a pointer may address an array
/// and a character pointer any object's bytes, so neither counts).
pub fn declared_integer_reference(t: &str) -> bool {
    let t = unqualified(t.trim());
    t.strip_suffix("&&")
        .or_else(|| t.strip_suffix('&'))
        .is_some_and(|p| INTEGER_TYPES.contains(&unqualified(p.trim_end())))
}

/// The C++ types of defined function `f`'s parameters, read from its mangled name
/// (`name`, the function's own or the one it was cloned from), each with the IR
/// parameter it is: aligned from the end (a hidden `this` or result slot comes first),
/// and only when every parameter's kind fits the IR ([`param_fits`]); `None` for
/// anything else (not a C++ name, classes by value, variadic functions). A forwarding
/// pack (`Args &&...`, mangled `DpO`) is printed with the deduced types without their
/// references (`emplace<char const (&) [6], int>(char const (&) [6], int)` for an `int
/// &&`), so there an integer type meets an IR pointer too.
pub fn declared_params(
    name: &str,
    f: ferrozyme_llvm::Value,
) -> Option<Vec<(String, ferrozyme_llvm::Value)>> {
    let forwarded = name.contains("DpO");
    let sig = demangle(name).and_then(|d| parse_signature(&d))?;
    let ir = f.params();
    let n = sig.params.len();
    if ir.len() < n || ir.len() - n > 2 || sig.params.iter().any(|p| p.contains("...")) {
        return None;
    }
    let hidden = ir.len() - n;
    if !ir[..hidden].iter().all(|p| p.ty().is_pointer()) {
        return None;
    }
    let fits = sig.params.iter().zip(&ir[hidden..]).all(|(t, p)| {
        let ty = p.ty();
        param_fits(t, ty.is_pointer(), ty.is_fp_scalar(), ty.is_integer())
            || (forwarded && ty.is_pointer() && INTEGER_TYPES.contains(&unqualified(t)))
    });
    fits.then(|| {
        sig.params
            .into_iter()
            .zip(ir[hidden..].iter().copied())
            .collect()
    })
}

#[cfg(test)]
mod signature_tests {
    use super::*;

    #[test]
    fn declared_float_free_pointees() {
        // the kept constants of tests/cxx/124 at -O0: a string literal and a string key
        assert!(declared_float_free_pointee("char const (&) [6]"));
        assert!(declared_float_free_pointee(
            "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >&&"
        ));
        assert!(declared_float_free_pointee("std::string const&"));
        // byte pointers may address doubles; void * anything; valarray holds doubles
        assert!(!declared_float_free_pointee("char const*"));
        assert!(!declared_float_free_pointee("unsigned char*"));
        assert!(!declared_float_free_pointee("void*"));
        assert!(!declared_float_free_pointee("double const (&) [4]"));
        // the key `std::map<int, double>::operator[](int &&)` hands `forward_as_tuple`
        assert!(declared_integer_reference("int&&"));
        assert!(declared_integer_reference("unsigned long const&"));
        assert!(!declared_integer_reference("int*"));
        assert!(!declared_integer_reference("double const&"));
        assert!(!declared_float_free_pointee("std::valarray<double> const&"));
        assert!(!declared_float_free_pointee("int"));
        let emplace = parse_signature(
            &demangle("_ZNSt3mapINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEiSt4lessIS5_ESaISt4pairIKS5_iEEE7emplaceIJRA6_KciEEES8_ISt17_Rb_tree_iteratorISA_EbEDpOT_").unwrap(),
        )
        .unwrap();
        // the forwarded `int &&` loses its reference (see `declared_params`)
        assert_eq!(emplace.params, ["char const (&) [6]", "int"]);
        assert!(param_fits("char const (&) [6]", true, false, false));
        assert!(!param_fits("char const (&) [6]", false, false, true));
    }

    #[test]
    fn pointees_of_fp_pointers_and_references() {
        assert_eq!(fp_pointee("double const*"), Some("double"));
        assert_eq!(fp_pointee("double*"), Some("double"));
        assert_eq!(fp_pointee("float&"), Some("float"));
        assert_eq!(fp_pointee("const double&"), Some("double"));
        assert_eq!(fp_pointee("double&&"), Some("double"));
        assert_eq!(fp_pointee("double**"), None);
        assert_eq!(fp_pointee("double"), None);
        assert_eq!(
            fp_pointee("std::vector<double, std::allocator<double> >&"),
            None
        );
        let sig = parse_signature(
            &demangle("_ZNSt20__copy_move_backwardILb1ELb1ESt26random_access_iterator_tagE13__copy_move_bIdEEPT_PKS3_S6_S4_").unwrap(),
        )
        .unwrap();
        let p: Vec<Option<&str>> = sig.params.iter().map(|t| fp_pointee(t)).collect();
        assert_eq!(p, vec![Some("double"), Some("double"), Some("double")]);
    }
}
