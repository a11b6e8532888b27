//! Lanes of vector mode: `enzyme_width, N` asks for N derivative directions at once.
//!
//! Every shadow, tangent, seed and adjoint exists once per lane; the primal exists once.
//! A [`Lane`] is the index of one direction (lane 0 is the only one in scalar mode), and
//! [`Lanes<T>`] holds one `T` per lane, indexed by `Lane` only, so a lane number cannot be
//! confused with a parameter index or a width.

use std::ops::{Index, IndexMut};

/// One direction of vector mode (0 ≤ lane < width ≤ 64).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lane(u8);

impl Lane {
    /// The first lane (the only one in scalar mode).
    pub const FIRST: Lane = Lane(0);

    /// The lanes of a request of `width` directions, lane 0 first.
    pub fn all(width: u32) -> impl Iterator<Item = Lane> + Clone {
        (0..width.max(1) as u8).map(Lane)
    }

    /// The lane's position (for naming values and laying out aggregates).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl std::fmt::Display for Lane {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One `T` per lane.
#[derive(Clone, Debug, Default)]
pub struct Lanes<T>(Vec<T>);

impl<T> Lanes<T> {
    /// `width` lanes, each built by `f`.
    pub fn new(width: u32, f: impl FnMut(Lane) -> T) -> Lanes<T> {
        Lanes(Lane::all(width).map(f).collect())
    }

    /// The lanes, lane 0 first.
    #[cfg(test)]
    pub fn iter(&self) -> impl Iterator<Item = (Lane, &T)> {
        self.0.iter().enumerate().map(|(k, t)| (Lane(k as u8), t))
    }

    pub fn values(&self) -> impl Iterator<Item = &T> {
        self.0.iter()
    }
}

impl<T> Index<Lane> for Lanes<T> {
    type Output = T;
    fn index(&self, l: Lane) -> &T {
        &self.0[l.index()]
    }
}

impl<T> IndexMut<Lane> for Lanes<T> {
    fn index_mut(&mut self, l: Lane) -> &mut T {
        &mut self.0[l.index()]
    }
}

impl<T> FromIterator<T> for Lanes<T> {
    fn from_iter<I: IntoIterator<Item = T>>(it: I) -> Self {
        Lanes(it.into_iter().collect())
    }
}

impl<T> IntoIterator for Lanes<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_are_indexed_by_lane() {
        let mut l = Lanes::new(3, |k| k.index() * 10);
        let second = Lane::all(3).nth(1).unwrap();
        l[second] += 1;
        let got: Vec<(usize, usize)> = l.iter().map(|(k, v)| (k.index(), *v)).collect();
        assert_eq!(got, vec![(0, 0), (1, 11), (2, 20)]);
        // Scalar mode has exactly lane 0.
        assert_eq!(Lane::all(0).collect::<Vec<_>>(), vec![Lane::FIRST]);
        assert_eq!(Lane::all(1).collect::<Vec<_>>(), vec![Lane::FIRST]);
    }
}
