//! Automatic checkpointing by budget (`ferrozyme_transform::checkpoint::auto`): which
//! loops of a reverse-differentiated function are candidates is reported by
//! `-Rpass=enzyme` remarks, one per outermost loop, saying what the state is or why the
//! loop stays fully taped. The gradients themselves are checked by the e2e programs
//! tests/c/565-567 (finite differences, the unbudgeted gradient).

mod common;

use common::{assert_ok, ferrozyme, stderr, write};

const SOURCE: &str = r#"
#include <math.h>
extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);
struct state { double *x; };

double candidate(double *x, double *tmp, int m, double k, long n) {
  for (long t = 0; t < n; t++) {
    for (int i = 0; i < m; i++)
      tmp[i] = x[i] + 0.05 * k * sin(x[(i + 1) % m]);
    for (int i = 0; i < m; i++)
      x[i] = tmp[i];
  }
  return x[0];
}

double loaded(struct state *s, double *y, int m, long n) {
  for (long t = 0; t < n; t++)
    for (int i = 0; i < m; i++) {
      s->x[i] = s->x[i] + 0.05 * sin(y[i]);
      y[i] = y[i] * 0.99 + 0.01 * cos(s->x[i]);
    }
  return y[0];
}

double carried(double *x, int m, long n) {
  double acc = 0;
  for (long t = 0; t < n; t++) {
    for (int i = 0; i < m; i++)
      x[i] = x[i] + 0.05 * cos(x[(i + 1) % m]);
    acc += x[0];
  }
  return acc;
}

double small(double *x, long n) {
  for (long t = 0; t < n; t++)
    x[t & 1] = x[t & 1] * 0.5 + 1;
  return x[0];
}

double constant(double *x, const double *c, int m, long n) {
  for (long t = 0; t < n; t++)
    for (int i = 0; i < m; i++)
      x[i] = x[i] + 0.05 * c[i] * sin(x[(i + 1) % m]);
  return x[0];
}

double rows(const double *a, const double *x, double *y, int m, long n) {
  for (long i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j < m; j++)
      s += a[i * m + j] * sin(x[j]);
    y[i] = s;
  }
  return y[0];
}

void grads(double *x, double *dx, double *t, double *dt, struct state *s, struct state *ds,
           const double *c) {
  __enzyme_autodiff((void *)candidate, enzyme_dup, x, dx, enzyme_dup, t, dt, enzyme_const, 8,
                    enzyme_out, 0.5, enzyme_const, 100L);
  __enzyme_autodiff((void *)loaded, enzyme_dup, s, ds, enzyme_dup, t, dt, enzyme_const, 8,
                    enzyme_const, 100L);
  __enzyme_autodiff((void *)carried, enzyme_dup, x, dx, enzyme_const, 8, enzyme_const, 100L);
  __enzyme_autodiff((void *)small, enzyme_dup, x, dx, enzyme_const, 100L);
  __enzyme_autodiff((void *)constant, enzyme_dup, x, dx, enzyme_const, c, enzyme_const, 8,
                    enzyme_const, 100L);
  __enzyme_autodiff((void *)rows, enzyme_dup, c, dx, enzyme_dup, x, dx, enzyme_dup, t, dt,
                    enzyme_const, 8, enzyme_const, 100L);
}
"#;

/// The remark about the (only) time loop of `function`.
fn remark<'a>(err: &'a str, function: &str) -> &'a str {
    let func = format!("in function `{function}`");
    let mut found = err
        .lines()
        .filter(|l| l.starts_with("auto.c:") && l.contains(&func) && l.contains("the loop is"));
    let r = found
        .next()
        .unwrap_or_else(|| panic!("no remark for {function} in:\n{err}"));
    assert!(
        found.next().is_none(),
        "two loop remarks for {function}:\n{err}"
    );
    r
}

#[test]
fn remarks_say_which_loops_are_checkpointed_and_why_not() {
    let dir = tempfile::tempdir().expect("temporary directory");
    write(dir.path(), "auto.c", SOURCE);
    let o = ferrozyme(
        dir.path(),
        &["cc", "-O2", "-Rpass=enzyme", "-c", "auto.c", "-o", "auto.o"],
    );
    assert_ok(&o);
    let err = stderr(&o);
    let r = remark(&err, "candidate");
    assert!(
        r.contains("checkpointed automatically")
            && r.contains("argument 1 of `candidate`")
            && r.contains("argument 2 of `candidate`"),
        "{r}"
    );
    let r = remark(&err, "loaded");
    assert!(
        r.contains("taped in full")
            && r.contains("cannot be identified")
            && r.contains("loaded from memory"),
        "{r}"
    );
    let r = remark(&err, "carried");
    assert!(
        r.contains("taped in full") && r.contains("in a register"),
        "{r}"
    );
    // Shown remarks quote the carried value (unshown ones leave the quotation out: it
    // numbers the whole module, issue 18).
    assert!(
        r.contains("carries `%") && r.contains(" = phi double "),
        "{r}"
    );
    let r = remark(&err, "small");
    assert!(
        r.contains("taped in full") && r.contains("body is small"),
        "{r}"
    );
    let r = remark(&err, "constant");
    assert!(
        r.contains("taped in full")
            && r.contains("argument 2 of `constant`")
            && r.contains("enzyme_const"),
        "{r}"
    );
}

#[test]
fn no_remarks_without_rpass() {
    let dir = tempfile::tempdir().expect("temporary directory");
    write(dir.path(), "auto.c", SOURCE);
    let o = ferrozyme(dir.path(), &["cc", "-O2", "-c", "auto.c", "-o", "auto.o"]);
    assert_ok(&o);
    assert!(!stderr(&o).contains("the loop is"), "{}", stderr(&o));
}
