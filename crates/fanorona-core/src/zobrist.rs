//! Zobrist keys: one random 64-bit key per (colour, point), one for the side to move and one
//! per board size, generated at compile time.

use crate::{BoardSize, Color};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

struct Keys {
    stones: [[u64; 64]; 2],
    black_to_move: u64,
    sizes: [u64; 15],
}

static KEYS: Keys = {
    let mut keys = Keys {
        stones: [[0; 64]; 2],
        black_to_move: 0,
        sizes: [0; 15],
    };
    let mut state = 0x4641_4E4F_524F_4E41_u64; // "FANORONA"
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < 64 {
            let (s, k) = splitmix(state);
            state = s;
            keys.stones[c][p] = k;
            p += 1;
        }
        c += 1;
    }
    let (s, k) = splitmix(state);
    state = s;
    keys.black_to_move = k;
    let mut i = 0;
    while i < 15 {
        let (s, k) = splitmix(state);
        state = s;
        keys.sizes[i] = k;
        i += 1;
    }
    keys
};

/// The key of a stone of `color` on point index `point`.
#[inline]
pub(crate) fn stone(color: Color, point: u8) -> u64 {
    KEYS.stones[color.index()][point as usize]
}

/// The key toggled when Black is to move.
#[inline]
pub(crate) fn black_to_move() -> u64 {
    KEYS.black_to_move
}

/// The key of a board size, so that equal stone patterns on different boards differ.
#[inline]
pub(crate) fn size(size: BoardSize) -> u64 {
    KEYS.sizes[size.index()]
}

/// XOR of the keys of all stones of `color` in `bb`.
#[inline]
pub(crate) fn stones(color: Color, mut bb: u64) -> u64 {
    let mut h = 0;
    while bb != 0 {
        h ^= stone(color, bb.trailing_zeros() as u8);
        bb &= bb - 1;
    }
    h
}
