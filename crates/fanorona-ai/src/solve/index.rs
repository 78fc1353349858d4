//! Combinatorial numbering of sets of points (colex order), shared by the endgame tables and
//! the layered retrograde analysis.

/// Binomial coefficients C(n, k) for n, k < 65 (all fit 64 bits).
pub(crate) static BINOM: [[u64; 65]; 65] = {
    let mut t = [[0u64; 65]; 65];
    let mut n = 0;
    while n < 65 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 65 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

/// The colex rank of a set of points among sets of the same size.
#[inline]
pub(crate) fn rank(mut set: u64) -> u64 {
    let mut r = 0;
    let mut i = 1;
    while set != 0 {
        let c = set.trailing_zeros() as usize;
        r += BINOM[c][i];
        i += 1;
        set &= set - 1;
    }
    r
}

/// The set of `k` points of colex rank `r`.
pub(crate) fn unrank(mut r: u64, k: usize) -> u64 {
    let mut set = 0;
    let mut c = 64;
    for i in (1..=k).rev() {
        c -= 1;
        while BINOM[c][i] > r {
            c -= 1;
        }
        r -= BINOM[c][i];
        set |= 1 << c;
    }
    set
}

/// Removes from `set` the points of `holes`, closing the gaps (bit p moves down by the number
/// of holes below it).
#[inline]
pub(crate) fn squeeze(set: u64, holes: u64) -> u64 {
    let mut out = 0;
    let mut s = set;
    while s != 0 {
        let p = s.trailing_zeros();
        out |= 1 << (p - (holes & ((1u64 << p) - 1)).count_ones());
        s &= s - 1;
    }
    out
}

/// The inverse of [`squeeze`].
pub(crate) fn spread(set: u64, holes: u64) -> u64 {
    let mut out = 0;
    let mut s = set;
    let mut free = !holes;
    let mut i = 0;
    while s != 0 {
        let p = free.trailing_zeros();
        if s & (1 << i) != 0 {
            out |= 1 << p;
            s &= !(1 << i);
        }
        free &= free - 1;
        i += 1;
    }
    out
}
