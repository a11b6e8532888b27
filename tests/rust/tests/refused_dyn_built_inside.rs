//! `Box<dyn Term>` objects created and dropped inside a differentiated function
//! (`front16_user::built_inside`, feature `dyn-built-inside`): right (this test passes,
//! against FD and a formula) or refused at the link with a clear error, never a wrong
//! number. Built only with the feature (crates/cargo-ferrozyme/tests/rust_crate.rs): a
//! test binary of its own, so that its refusal does not hide the other cases'.

use ferrozyme_rust_tests::check::*;
use ferrozyme_rust_tests::front16_user::*;

#[test]
fn box_dyn_terms_built_inside() {
    for coupled in [false, true] {
        let p = [0.4, 0.9, 2.5, -1.0];
        let mut dp = [0.0; 4];
        d_built_inside(&p, &mut dp, coupled, 1.0);
        let fd = fd_grad(|q| built_inside(q, coupled), &p);
        assert_all_close("d built inside", &dp, &fd, FD);
        // d/dp_i 0.5 (p_i - i)^2 = p_i - i, plus the coupling's cos terms
        let mut want: Vec<f64> = p.iter().enumerate().map(|(i, v)| v - i as f64).collect();
        if coupled {
            let c = (p[0] * p[3]).cos();
            want[0] += c * p[3];
            want[3] += c * p[0];
        }
        assert_all_close("d built inside formula", &dp, &want, EXACT);
    }
}
