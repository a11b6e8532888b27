//! Special functions that partials mention but neither LLVM intrinsics nor Rust's `f64`
//! provide: the digamma function `psi = d/dx log Gamma(x)` (for `lgamma` and `tgamma`) and
//! the Bessel functions of the first and second kind of orders 0 and 1 (for `j0`, `j1`,
//! `y0`, `y1`, whose derivatives are each other's) and of integer order (`jn`, `yn`, whose
//! derivatives are their neighbouring orders).
//!
//! Here they are reference implementations (pure Rust: this crate has no `unsafe`) for
//! the numeric tests of the rules; the
//! transform lowers `digamma` to a definition of its own linked into the module
//! (`ferrozyme_transform::lower`, same algorithm) and the Bessel functions to the C
//! library's `j0`/`j1`/`y0`/`y1`/`jn`/`yn`.

const EULER_GAMMA: f64 = 0.577_215_664_901_532_9;

/// `J0` by its power series `sum (-1)^k (x/2)^2k / (k!)^2` (a test reference on the
/// rules' sampling domains, |x| <= 5: the terms fall below 1e-17 long before k = 40).
pub fn bessel_j0(x: f64) -> f64 {
    let q = -(x * x) / 4.0;
    let (mut t, mut s) = (1.0, 1.0);
    for k in 1..40 {
        t *= q / (k * k) as f64;
        s += t;
    }
    s
}

/// `J1` by `sum (-1)^k (x/2)^(2k+1) / (k! (k+1)!)`.
pub fn bessel_j1(x: f64) -> f64 {
    let q = -(x * x) / 4.0;
    let (mut t, mut s) = (x / 2.0, x / 2.0);
    for k in 1..40 {
        t *= q / (k * (k + 1)) as f64;
        s += t;
    }
    s
}

/// `Y0(x) = 2/pi (ln(x/2) + gamma) J0(x) + 2/pi sum_k>=1 (-1)^(k+1) H_k (x^2/4)^k / (k!)^2`.
pub fn bessel_y0(x: f64) -> f64 {
    let q = x * x / 4.0;
    let (mut t, mut h, mut s) = (1.0, 0.0, 0.0);
    for k in 1..40 {
        t *= -q / (k * k) as f64;
        h += 1.0 / k as f64;
        s -= h * t;
    }
    let pi = std::f64::consts::PI;
    2.0 / pi * ((x / 2.0).ln() + EULER_GAMMA) * bessel_j0(x) + 2.0 / pi * s
}

/// `Y1(x) = -2/(pi x) + 2/pi ln(x/2) J1(x)
///          - 1/pi sum_k>=0 (-1)^k (psi(k+1) + psi(k+2)) (x/2)^(2k+1) / (k! (k+1)!)`.
pub fn bessel_y1(x: f64) -> f64 {
    let q = -(x * x) / 4.0;
    let mut t = x / 2.0;
    let mut p1 = -EULER_GAMMA; // psi(k + 1)
    let mut p2 = 1.0 - EULER_GAMMA; // psi(k + 2)
    let mut s = (p1 + p2) * t;
    for k in 1..40 {
        t *= q / (k * (k + 1)) as f64;
        p1 += 1.0 / k as f64;
        p2 += 1.0 / (k + 1) as f64;
        s += (p1 + p2) * t;
    }
    let pi = std::f64::consts::PI;
    -2.0 / (pi * x) + 2.0 / pi * (x / 2.0).ln() * bessel_j1(x) - s / pi
}

/// `Jn` of integer order by `sum (-1)^k (x/2)^(2k+n) / (k! (k+n)!)` (|x| <= 5 in the
/// tests); `J-n = (-1)^n Jn`.
pub fn bessel_jn(n: i32, x: f64) -> f64 {
    if n < 0 {
        let j = bessel_jn(-n, x);
        return if n % 2 == 0 { j } else { -j };
    }
    let mut t = 1.0;
    for k in 1..=n {
        t *= x / 2.0 / k as f64;
    }
    let (q, mut s) = (-(x * x) / 4.0, t);
    for k in 1..40 {
        t *= q / (k * (k + n)) as f64;
        s += t;
    }
    s
}

/// `Yn` of integer order by the upward recurrence `Y(k+1) = 2k/x Yk - Y(k-1)` from `Y0`
/// and `Y1` (stable upwards for the second kind); `Y-n = (-1)^n Yn`.
pub fn bessel_yn(n: i32, x: f64) -> f64 {
    if n < 0 {
        let y = bessel_yn(-n, x);
        return if n % 2 == 0 { y } else { -y };
    }
    let (mut a, mut b) = (bessel_y0(x), bessel_y1(x));
    if n == 0 {
        return a;
    }
    for k in 1..n {
        (a, b) = (b, 2.0 * k as f64 / x * b - a);
    }
    b
}

/// `log Gamma(x)` for `x > 0`: shifted up to `x >= 10` (`log Gamma(x) = log Gamma(x + 1)
/// - log x`), then Stirling's series to `x^-13`.
pub fn log_gamma(x: f64) -> f64 {
    let (mut x, mut r) = (x, 0.0);
    while x < 10.0 {
        r -= x.ln();
        x += 1.0;
    }
    let f = 1.0 / (x * x);
    let series = (1.0 / 12.0
        + f * (-1.0 / 360.0
            + f * (1.0 / 1260.0
                + f * (-1.0 / 1680.0 + f * (1.0 / 1188.0 + f * (-691.0 / 360360.0))))))
        / x;
    r + (x - 0.5) * x.ln() - x + 0.5 * (2.0 * std::f64::consts::PI).ln() + series
}

/// `Gamma(x)` for `x > 0`.
pub fn gamma(x: f64) -> f64 {
    log_gamma(x).exp()
}

/// The digamma function: poles (NaN) at 0, -1, -2, ...; for `x < 0` the reflection
/// `psi(x) = psi(1 - x) - pi / tan(pi x)`; then `psi(x) = psi(x + 1) - 1/x` up to
/// `x >= 10`, where the asymptotic series `log x - 1/(2x) - sum B_2k / (2k x^2k)`
/// truncated after `x^-14` is accurate to ~1e-16 relative.
pub fn digamma(x: f64) -> f64 {
    if x.is_nan() || (x <= 0.0 && x == x.floor()) {
        return f64::NAN;
    }
    let (mut x, mut r) = if x < 0.0 {
        (
            1.0 - x,
            -std::f64::consts::PI / (std::f64::consts::PI * x).tan(),
        )
    } else {
        (x, 0.0)
    };
    while x < 10.0 {
        r -= 1.0 / x;
        x += 1.0;
    }
    let f = 1.0 / (x * x);
    let t = f
        * (-1.0 / 12.0
            + f * (1.0 / 120.0
                + f * (-1.0 / 252.0
                    + f * (1.0 / 240.0
                        + f * (-1.0 / 132.0 + f * (691.0 / 32760.0 + f * (-1.0 / 12.0)))))));
    r + x.ln() - 0.5 / x + t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digamma_known_values() {
        // psi(1) = -gamma (Euler-Mascheroni), psi(1/2) = -gamma - 2 ln 2.
        let em = 0.577_215_664_901_532_9;
        assert!((digamma(1.0) + em).abs() < 1e-15);
        assert!((digamma(0.5) + em + 2.0 * std::f64::consts::LN_2).abs() < 1e-14);
        // psi(x + 1) = psi(x) + 1/x, also across the reflection.
        for x in [-2.7, -0.3, 0.2, 3.3, 12.5] {
            assert!(
                (digamma(x + 1.0) - digamma(x) - 1.0 / x).abs() < 1e-12,
                "{x}"
            );
        }
        assert!(digamma(-2.0).is_nan() && digamma(0.0).is_nan());
        // the derivative of lgamma by central differences
        for x in [0.3, 1.7, 4.2, 25.0] {
            let h = 1e-5;
            let fd = (log_gamma(x + h) - log_gamma(x - h)) / (2.0 * h);
            assert!((fd - digamma(x)).abs() < 1e-8, "{x}");
        }
    }

    #[test]
    fn references_known_values() {
        // Gamma(1/2) = sqrt(pi), Gamma(5) = 24; Bessel values to 15 digits.
        assert!((gamma(0.5) - std::f64::consts::PI.sqrt()).abs() < 1e-14);
        assert!((gamma(5.0) - 24.0).abs() < 1e-12);
        assert!((bessel_j0(1.0) - 0.765_197_686_557_966_6).abs() < 1e-15);
        assert!((bessel_j1(1.0) - 0.440_050_585_744_933_5).abs() < 1e-15);
        assert!((bessel_y0(1.0) - 0.088_256_964_215_676_96).abs() < 1e-14);
        assert!((bessel_y1(1.0) + 0.781_212_821_300_288_7).abs() < 1e-14);
        // integer orders: J2(1), Y2(1) to 15 digits; orders 0, 1 and -1 agree with the
        // dedicated functions
        assert!((bessel_jn(2, 1.0) - 0.114_903_484_931_900_5).abs() < 1e-15);
        assert!((bessel_yn(2, 1.0) + 1.650_682_606_816_254_4).abs() < 1e-13);
        assert!((bessel_jn(1, 2.5) - bessel_j1(2.5)).abs() < 1e-15);
        assert!((bessel_jn(-1, 2.5) + bessel_j1(2.5)).abs() < 1e-15);
        assert!((bessel_yn(0, 2.5) - bessel_y0(2.5)).abs() < 1e-15);
    }
}
