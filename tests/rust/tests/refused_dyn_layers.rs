//! `Box<dyn Layer>`s duplicated with shadow boxes whose methods push into a `Vec`
//! (`front16_user::network`, feature `dyn-layers-lib`): right (this test passes, against
//! FD and a formula) or refused at the link with a clear error, never a wrong number.
//! Built only with the feature (crates/cargo-ferrozyme/tests/rust_crate.rs): a test
//! binary of its own, so that its refusal does not hide the other cases'.

use ferrozyme_rust_tests::check::*;
use ferrozyme_rust_tests::front16_user::*;

#[test]
fn duplicated_trait_objects_with_parameter_fields() {
    let stack = |w: Vec<f64>, s: f64| -> Vec<Box<dyn Layer>> {
        vec![Box::new(Dense { w, n_in: 3 }), Box::new(Scale { s })]
    };
    let w = vec![0.3, -0.2, 0.5, 0.1, 0.4, -0.6];
    let layers = stack(w.clone(), 1.7);
    let mut shadow = stack(vec![0.0; 6], 0.0);
    let x = [0.5, -1.0, 2.0];
    let y = d_network(&layers, &mut shadow, &x, 1.0);
    assert_close("network", y, network(&layers, &x), EXACT);
    // The shadow boxes were built here with known types: read their fields back.
    let dw = unsafe { &(*(&*shadow[0] as *const dyn Layer as *const Dense)).w };
    let ds = unsafe { (*(&*shadow[1] as *const dyn Layer as *const Scale)).s };
    let mut p = w.clone();
    p.push(1.7);
    let fd = fd_grad(|q| network(&stack(q[..6].to_vec(), q[6]), &x), &p);
    assert_all_close("d Dense.w", dw, &fd[..6], FD);
    assert_close("d Scale.s", ds, fd[6], FD);
    // y = s² Σ h², so dy/ds = 2 y / s
    assert_close("d s formula", ds, 2.0 * y / 1.7, EXACT);
}
