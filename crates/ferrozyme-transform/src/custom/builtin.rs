//! Derivatives of compiler and C library functions without IR, written as registered
//! rules: the complex-arithmetic helpers (here), `qsort`/`qsort_r` (`qsort.rs`) and the
//! table searches `bsearch`/`lfind` (`search.rs`).
//!
//! C's `_Complex` and C++'s `std::complex` multiply and divide through `__muldc3` /
//! `__divdc3` (`double`) and `__mulsc3` / `__divsc3` (`float`) when the compiler cannot
//! prove the operands finite (at `-O0`, and without `-ffast-math`). Their results are pairs
//! (real, imaginary) of four real arguments, which the rules table's one-result rows
//! cannot express; they get registered-derivative rules here instead, in IR text linked
//! into the module when it calls them, in the convention of `convention.rs`:
//!
//! * `aug(a, b, c, d) -> { ptr null, z }` calls the real function (its Annex G handling
//!   of infinities and NaNs stays exact);
//! * `rev(a, b, c, d, dz, ptr) -> { da, db, dc, dd }`;
//! * `fwd(a, ta, b, tb, c, tc, d, td) -> { z, tz }`.
//!
//! With `z1 = a + bi`, `z2 = c + di`: for `z = z1 z2`, `dz = z2 dz1 + z1 dz2`; for
//! `z = z1 / z2`, `dz = w dz1 - z w dz2` with `w = 1 / z2`. Multiplying a perturbation
//! by `k = kr + ki i` maps (dx, dy) to (kr dx - ki dy, ki dx + kr dy); its transpose maps
//! the adjoint (gr, gi) to (kr gr + ki gi, -ki gr + kr gi).

use ferrozyme_llvm::{link_ir_for_target, Module, Value};

use super::qsort::Sort;
use super::{ForwardRule, ReverseRule};

/// The runtime functions with built-in rules: (name, element type, pair type as the
/// x86-64 C ABI returns it).
const FUNCTIONS: &[(&str, &str, &str)] = &[
    ("__muldc3", "double", "{ double, double }"),
    ("__divdc3", "double", "{ double, double }"),
    ("__mulsc3", "float", "<2 x float>"),
    ("__divsc3", "float", "<2 x float>"),
];

/// Has `name` no IR in `module`, and no rules linked yet?
fn wants_rules(module: Module, name: &str) -> bool {
    module.function(name).is_some_and(|f| f.is_declaration())
        && module.function(&format!("__fz_rev.{name}")).is_none()
}

/// Is `name` declared in `module` with the type of `decl` (a `declare` line)? A function
/// of the same name with another signature (another ABI, a user's own function) is left
/// alone: its calls get the usual missing-derivative error.
fn declared_as(module: Module, name: &str, decl: &str) -> bool {
    module.function(name).is_some_and(|f| {
        let ty = f.function_type();
        let params: Vec<String> = ty.param_types().iter().map(|t| t.to_string()).collect();
        let want = format!(
            "declare {} @{name}({})",
            ty.return_type(),
            params.join(", ")
        );
        decl.trim() == want
    })
}

/// Declares `name` in the rules' text (once).
fn declare(
    declared: &mut ferrozyme_analysis::hash::HashSet<String>,
    text: &mut String,
    name: &str,
    decl: String,
) {
    if declared.insert(name.to_string()) {
        text.push_str(&decl);
    }
}

/// Links the rules of every such function `module` declares; returns them.
pub(crate) fn link(module: Module) -> Result<Vec<(ReverseRule, ForwardRule)>, String> {
    let mut text = String::new();
    let mut found: Vec<String> = Vec::new();
    let mut declared = ferrozyme_analysis::hash::HashSet::default();
    for (name, fp, pair) in FUNCTIONS {
        if !wants_rules(module, name) {
            continue;
        }
        let decl = |n: &str| format!("declare {pair} @{n}({fp}, {fp}, {fp}, {fp})\n");
        if !declared_as(module, name, &decl(name)) {
            continue;
        }
        declare(&mut declared, &mut text, name, decl(name));
        if name.starts_with("__div") {
            // The quotient's derivative multiplies.
            let mul = name.replace("div", "mul");
            declare(&mut declared, &mut text, &mul, decl(&mul));
        }
        text.push_str(&rules_ir(name, fp, pair));
        found.push(name.to_string());
    }
    for name in super::holomorphic::names() {
        if !wants_rules(module, &name) {
            continue;
        }
        let fp = super::holomorphic::precision(&name).expect("listed");
        if !declared_as(module, &name, &super::holomorphic::declaration(&name, fp)) {
            continue;
        }
        for n in std::iter::once(name.clone()).chain(super::holomorphic::needs(&name)) {
            let decl = super::holomorphic::declaration(&n, fp);
            declare(&mut declared, &mut text, &n, decl);
        }
        text.push_str(&super::holomorphic::rules_ir(&name));
        found.push(name);
    }
    for name in super::holomorphic::REAL_VALUED {
        let decl = super::holomorphic::real_valued_declaration(name);
        if !wants_rules(module, name) || !declared_as(module, name, &decl) {
            continue;
        }
        declare(&mut declared, &mut text, name, decl);
        text.push_str(&super::holomorphic::real_valued_rules_ir(name));
        found.push(name.to_string());
    }
    let mut library = ferrozyme_analysis::hash::HashSet::default();
    let sorts: Vec<Sort> = Sort::ALL
        .into_iter()
        .filter(|s| wants_rules(module, s.name()) && declared_as(module, s.name(), s.declaration()))
        .collect();
    if !sorts.is_empty() {
        text.push_str(super::qsort::HELPERS_IR);
    }
    for s in sorts {
        text.push_str(&s.rules_ir());
        if s.library() {
            library.insert(s.name().to_string());
        }
        found.push(s.name().to_string());
    }
    let searches: Vec<(&str, &str)> = super::search::SEARCHES
        .iter()
        .filter(|(name, decl)| wants_rules(module, name) && declared_as(module, name, decl))
        .copied()
        .collect();
    if !searches.is_empty() {
        text.push_str(super::search::HELPERS_IR);
    }
    for (name, decl) in searches {
        declare(&mut declared, &mut text, name, decl.to_string());
        text.push_str(&super::search::rules_ir(name));
        library.insert(name.to_string());
        found.push(name.to_string());
    }
    if found.is_empty() {
        return Ok(Vec::new());
    }
    link_ir_for_target(module, &text, "ferrozyme-builtin-rules").map_err(|e| e.to_string())?;
    let get = |n: String| -> Value {
        let f = module
            .function(&n)
            .expect("invariant: the built-in rules define every function they name");
        f.set_linkage_internal();
        crate::generated::mark(f);
        f
    };
    // The sorts' vector lane rules (`qsort.rs`), looked up by name when needed.
    for s in Sort::ALL {
        for rule in ["fwd_lane", "rev_lane"] {
            let name = format!("__fz_{rule}.{}", s.name());
            if module.function(&name).is_some() {
                get(name);
            }
        }
    }
    Ok(found
        .into_iter()
        .map(|name| {
            let func = module.function(&name).expect("checked above");
            (
                ReverseRule {
                    func,
                    aug: get(format!("__fz_aug.{name}")),
                    rev: get(format!("__fz_rev.{name}")),
                    library: library.contains(&name),
                },
                ForwardRule {
                    func,
                    fwd: get(format!("__fz_fwd.{name}")),
                    library: library.contains(&name),
                },
            )
        })
        .collect())
}

/// The three rule functions of one runtime function.
fn rules_ir(name: &str, fp: &str, pair: &str) -> String {
    let divide = name.starts_with("__div");
    // Extracting the two parts of a pair and building one.
    let (get0, get1) = if pair.starts_with('<') {
        (
            "extractelement PAIR %P, i32 0",
            "extractelement PAIR %P, i32 1",
        )
    } else {
        ("extractvalue PAIR %P, 0", "extractvalue PAIR %P, 1")
    };
    let parts = |p: &str, r: &str, i: &str| {
        format!(
            "  %{r} = {}\n  %{i} = {}\n",
            get0.replace("PAIR", pair).replace("%P", &format!("%{p}")),
            get1.replace("PAIR", pair).replace("%P", &format!("%{p}"))
        )
    };
    let build = |r: &str, i: &str, out: &str| {
        if pair.starts_with('<') {
            format!(
                "  %{out}.0 = insertelement {pair} poison, {fp} %{r}, i32 0\n  %{out} = insertelement {pair} %{out}.0, {fp} %{i}, i32 1\n"
            )
        } else {
            format!(
                "  %{out}.0 = insertvalue {pair} poison, {fp} %{r}, 0\n  %{out} = insertvalue {pair} %{out}.0, {fp} %{i}, 1\n"
            )
        }
    };
    // The factors k1 (applied to dz1) and k2 (to dz2), as (real, imaginary) registers.
    let factors = if divide {
        format!(
            "  %n2 = fmul {fp} %c, %c\n  %n3 = fmul {fp} %d, %d\n  %n = fadd {fp} %n2, %n3\n  %k1r = fdiv {fp} %c, %n\n  %dn = fneg {fp} %d\n  %k1i = fdiv {fp} %dn, %n\n  %z = call {pair} @{name}({fp} %a, {fp} %b, {fp} %c, {fp} %d)\n{}  %qw = call {pair} @__mul{}c3({fp} %zr, {fp} %zi, {fp} %k1r, {fp} %k1i)\n{}  %k2r = fneg {fp} %qwr\n  %k2i = fneg {fp} %qwi\n",
            parts("z", "zr", "zi"),
            if fp == "double" { "d" } else { "s" },
            parts("qw", "qwr", "qwi")
        )
    } else {
        format!(
            "  %k1r = fadd {fp} %c, 0.0\n  %k1i = fadd {fp} %d, 0.0\n  %k2r = fadd {fp} %a, 0.0\n  %k2i = fadd {fp} %b, 0.0\n"
        )
    };
    let args = format!("{fp} %a, {fp} %b, {fp} %c, {fp} %d");
    let mut s = String::new();
    // aug: the real function, no tape.
    s.push_str(&format!(
        "define {{ ptr, {pair} }} @__fz_aug.{name}({args}) {{\n  %z = call {pair} @{name}({args})\n  %r0 = insertvalue {{ ptr, {pair} }} poison, ptr null, 0\n  %r = insertvalue {{ ptr, {pair} }} %r0, {pair} %z, 1\n  ret {{ ptr, {pair} }} %r\n}}\n"
    ));
    // rev: the transposed factors applied to the adjoint.
    let transpose = |kr: &str, ki: &str, x: &str, y: &str| {
        format!(
            "  %{x}1 = fmul {fp} %{kr}, %gr\n  %{x}2 = fmul {fp} %{ki}, %gi\n  %{x} = fadd {fp} %{x}1, %{x}2\n  %{y}1 = fmul {fp} %{ki}, %gr\n  %{y}2 = fmul {fp} %{kr}, %gi\n  %{y} = fsub {fp} %{y}2, %{y}1\n"
        )
    };
    s.push_str(&format!(
        "define {{ {fp}, {fp}, {fp}, {fp} }} @__fz_rev.{name}({args}, {pair} %g, ptr %tape) {{\n{}{}{}{}  %o0 = insertvalue {{ {fp}, {fp}, {fp}, {fp} }} poison, {fp} %da, 0\n  %o1 = insertvalue {{ {fp}, {fp}, {fp}, {fp} }} %o0, {fp} %db, 1\n  %o2 = insertvalue {{ {fp}, {fp}, {fp}, {fp} }} %o1, {fp} %dc, 2\n  %o3 = insertvalue {{ {fp}, {fp}, {fp}, {fp} }} %o2, {fp} %dd, 3\n  ret {{ {fp}, {fp}, {fp}, {fp} }} %o3\n}}\n",
        parts("g", "gr", "gi"),
        factors,
        transpose("k1r", "k1i", "da", "db"),
        transpose("k2r", "k2i", "dc", "dd"),
    ));
    // fwd: k1 dz1 + k2 dz2.
    let apply = |kr: &str, ki: &str, x: &str, y: &str, out: &str| {
        format!(
            "  %{out}r1 = fmul {fp} %{kr}, %{x}\n  %{out}r2 = fmul {fp} %{ki}, %{y}\n  %{out}r = fsub {fp} %{out}r1, %{out}r2\n  %{out}i1 = fmul {fp} %{ki}, %{x}\n  %{out}i2 = fmul {fp} %{kr}, %{y}\n  %{out}i = fadd {fp} %{out}i1, %{out}i2\n"
        )
    };
    let primal = if divide {
        String::new()
    } else {
        format!("  %z = call {pair} @{name}({args})\n")
    };
    s.push_str(&format!(
        "define {{ {pair}, {pair} }} @__fz_fwd.{name}({fp} %a, {fp} %ta, {fp} %b, {fp} %tb, {fp} %c, {fp} %tc, {fp} %d, {fp} %td) {{\n{}{}{}{}  %tr = fadd {fp} %t1r, %t2r\n  %ti = fadd {fp} %t1i, %t2i\n{}  %p0 = insertvalue {{ {pair}, {pair} }} poison, {pair} %z, 0\n  %p1 = insertvalue {{ {pair}, {pair} }} %p0, {pair} %t, 1\n  ret {{ {pair}, {pair} }} %p1\n}}\n",
        factors,
        primal,
        apply("k1r", "k1i", "ta", "tb", "t1"),
        apply("k2r", "k2i", "tc", "td", "t2"),
        build("tr", "ti", "t"),
    ));
    s
}
