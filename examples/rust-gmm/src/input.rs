//! Input files: ADBench's GMM format (what `bench/src/gmm.c` reads) and the result file
//! the C benchmark writes with `--dump` (its objective and Ferrozyme's gradient of it).
//!
//! Both are whitespace-separated numbers. A GMM file is `d K n`, then K alphas, K·d
//! means, K·d(d+1)/2 icf entries, n·d data values, then γ and m of the Wishart prior.
//! A C result file is the objective followed by the gradient in the order
//! [alphas, means, icf], one number per line.

use std::path::Path;

use crate::gmm::Wishart;

/// One GMM problem.
#[derive(Clone, Debug)]
pub struct Problem {
    pub d: usize,
    pub k: usize,
    pub n: usize,
    pub alphas: Vec<f64>,
    pub means: Vec<f64>,
    pub icf: Vec<f64>,
    pub x: Vec<f64>,
    pub wishart: Wishart,
}

impl Problem {
    pub fn icf_size(&self) -> usize {
        self.d * (self.d + 1) / 2
    }

    /// Length of the gradient: alphas, means and icf.
    pub fn gradient_len(&self) -> usize {
        self.k + self.k * self.d + self.k * self.icf_size()
    }
}

/// The numbers of a file, in order.
struct Tokens {
    nums: std::vec::IntoIter<f64>,
    path: String,
}

impl Tokens {
    fn read(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let nums = text
            .split_whitespace()
            .map(|t| {
                t.parse::<f64>()
                    .map_err(|_| format!("{}: bad number '{t}'", path.display()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Tokens {
            nums: nums.into_iter(),
            path: path.display().to_string(),
        })
    }

    fn take(&mut self, count: usize) -> Result<Vec<f64>, String> {
        let v: Vec<f64> = self.nums.by_ref().take(count).collect();
        if v.len() == count {
            Ok(v)
        } else {
            Err(format!("{}: the file ends early", self.path))
        }
    }

    fn count(&mut self) -> Result<usize, String> {
        let v = self.take(1)?[0];
        if v >= 0.0 && v.fract() == 0.0 {
            Ok(v as usize)
        } else {
            Err(format!("{}: expected a count, found {v}", self.path))
        }
    }
}

/// Reads an ADBench GMM file.
pub fn read_problem(path: &Path) -> Result<Problem, String> {
    let mut t = Tokens::read(path)?;
    let (d, k, n) = (t.count()?, t.count()?, t.count()?);
    if d == 0 || k == 0 || n == 0 {
        return Err(format!("{}: d, K and n must be positive", path.display()));
    }
    let icf_sz = d * (d + 1) / 2;
    let alphas = t.take(k)?;
    let means = t.take(k * d)?;
    let icf = t.take(k * icf_sz)?;
    let x = t.take(n * d)?;
    let gamma = t.take(1)?[0];
    let m = t.count()? as i32;
    Ok(Problem {
        d,
        k,
        n,
        alphas,
        means,
        icf,
        x,
        wishart: Wishart { gamma, m },
    })
}

/// The C benchmark's result: objective and gradient.
pub struct CResult {
    pub objective: f64,
    pub gradient: Vec<f64>,
}

/// Reads the file `gmm --dump FILE` writes; `len` is the expected gradient length.
pub fn read_c_result(path: &Path, len: usize) -> Result<CResult, String> {
    let mut t = Tokens::read(path)?;
    let objective = t.take(1)?[0];
    let gradient = t.take(len)?;
    if t.nums.next().is_some() {
        return Err(format!(
            "{}: more than {len} gradient values (another input's result?)",
            path.display()
        ));
    }
    Ok(CResult {
        objective,
        gradient,
    })
}
