//! The NNUE trainer and the network file format.
//!
//! The network (specified in [`docs/nnue.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/nnue.md)): each side's perspective sees 90 inputs, its own
//! stones and the opponent's on the 45 points, the board turned 180 degrees for Black so that
//! each side sees its own army at the bottom ([`features`]). A hidden layer of `H` clipped
//! ReLUs per perspective shares its weights between the two; the output is
//! `y = b2 + w2[..H] . h(side to move) + w2[H..] . h(other side)` and the evaluation
//! `y * S` centi-stones, where `w2` and `b2` are those of the position's output bucket (one
//! set, or [`TrainOptions::buckets`] sets chosen by the number of stones on the board:
//! [`output_bucket`]). [`train`] fits it (Adam on mini-batches, deterministic for a seed) to
//! labelled positions ([`crate::nnue::data`]): the target mixes the game's result and the
//! search score, `lambda * result + (1 - lambda) * sigmoid(K * score)`, the prediction is
//! `sigmoid(K * y * S)`, the loss their squared difference. [`FloatNet::quantise`] makes the
//! integer network of the file ([`QuantNet`]).
//!
//! # Examples
//!
//! ```
//! use fanorona_ai::nnue::data::{Record, Wdl};
//! use fanorona_ai::nnue::train::{QuantNet, TrainOptions, train};
//! use fanorona_core::Position;
//!
//! // One quiet position, a stone up for White, labelled +100 and won.
//! let pos = Position::from_fen("8B/9/9/9/W1W6 w")?;
//! let data = vec![Record::new(&pos, 100, Wdl::Win).expect("5x9")];
//! let mut options = TrainOptions::default();
//! options.hidden = 8;
//! options.epochs = 2;
//! let trained = train(&data, &[], &options, |_| {});
//! let net = trained.net.quantise();
//! let bytes = net.to_bytes();
//! assert_eq!(QuantNet::from_bytes(&bytes)?, net);
//! assert_eq!(bytes.len(), 48 + 186 * 8);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;

use fanorona_core::{BoardSize, Color};

use super::Variant;
use super::data::Record;
use super::variant::MAX_POINTS;
use crate::params::NO_CAPTURE_SCALE;
use crate::rng::Rng;

/// The first 8 bytes of a network file of version 1 (a network of the capture game).
pub const NET_MAGIC: [u8; 8] = *b"FANNUE\x00\x01";
/// The first 8 bytes of a network file of version 2 (its header names the game: Vela's).
pub const NET_MAGIC_V2: [u8; 8] = *b"FANNUE\x00\x02";
/// The first 8 bytes of a network file of version 3 (its header names the game and the
/// number of output buckets: a network of more than one bucket).
pub const NET_MAGIC_V3: [u8; 8] = *b"FANNUE\x00\x03";
/// Ranks of the standard board.
pub const ROWS: u32 = 5;
/// Files of the standard board.
pub const COLS: u32 = 9;
/// Inputs per perspective on the standard board: own stones and the opponent's on the 45
/// points (on another board, twice its points: [`Variant::inputs`]).
pub const INPUTS: usize = 90;
/// The largest hidden layer a file may have.
pub const MAX_HIDDEN: usize = 1024;
/// The most output buckets a file may have.
pub const MAX_BUCKETS: usize = 16;
/// Quantisation of the hidden layer: weights `W1`, `b1` times `QA`; activations clip at `QA`.
pub const QA: i32 = 255;
/// Quantisation of the output weights `w2` (times `QB`); `b2` is stored times `QA * QB`.
pub const QB: i32 = 64;
/// The default output scale `S`: centi-stones per unit of `y`.
pub const DEFAULT_SCALE: i32 = 400;
/// The default `K`: centi-stones to win probability, `sigmoid(K * eval)` (Texel's fit).
pub const DEFAULT_K: f64 = 0.0039;

/// `W1` and `b1` are clipped to this after each step, so that the quantised accumulator
/// (at most 45 weights and the bias on 5x9, each within `1.98 * QA`) fits an `i16`; less on
/// a board of 64 points ([`clip_hidden`]).
const CLIP_HIDDEN: f32 = 1.98;
/// `w2` (and `b2`) are clipped to this after each step.
const CLIP_OUTPUT: f32 = 8.0;
/// The standard rules' no-capture limit.
const NO_CAPTURE_LIMIT: u16 = 100;

/// The clip of `W1` and `b1` on a board of `points` points: [`CLIP_HIDDEN`], or less where
/// the bias and a weight per point, each rounded to at most `clip * QA + 1/2`, could pass
/// `i16::MAX`.
fn clip_hidden(points: usize) -> f32 {
    let limit = (f64::from(i16::MAX) / (points as f64 + 1.0) - 0.5) / f64::from(QA);
    CLIP_HIDDEN.min(limit as f32)
}

/// The active features of `perspective` for the stones `white` and `black` on the standard
/// 5x9 board (bit `rank * 9 + file`), ascending: `i'` for each of the perspective's own stones
/// and `45 + i'` for each of the opponent's, where `i' = i` for White and `i' = 44 - i` for
/// Black (the board turned 180 degrees). [`features_on`] for another board.
///
/// ```
/// use fanorona_ai::nnue::train::features;
/// use fanorona_core::Color;
///
/// // White a1 (bit 0) and b1 (bit 1), Black i5 (bit 44).
/// assert_eq!(features(0b11, 1 << 44, Color::White), [0, 1, 89]);
/// // Black sees its i5 at a1, White's a1 and b1 at i5 and h5.
/// assert_eq!(features(0b11, 1 << 44, Color::Black), [0, 88, 89]);
/// ```
pub fn features(white: u64, black: u64, perspective: Color) -> Vec<usize> {
    features_on(Variant::STANDARD, white, black, perspective)
}

/// The active features of `perspective` for the stones `white` and `black` on `variant`'s
/// board of `P` points (bit `rank * files + file`), ascending: `i'` for each own stone and
/// `P + i'` for each opposing one, `i' = i` for White and `P - 1 - i` for Black.
///
/// ```
/// use fanorona_ai::nnue::{Variant, train::features_on};
/// use fanorona_core::{BoardSize, Color, GameKind};
///
/// let dimy = Variant::new(BoardSize::DIMY, GameKind::Capture)?;
/// // White a1 (bit 0), Black e5 (bit 24): each sees its own stone on a1.
/// assert_eq!(features_on(dimy, 1, 1 << 24, Color::White), [0, 49]);
/// assert_eq!(features_on(dimy, 1, 1 << 24, Color::Black), [0, 49]);
/// # Ok::<(), fanorona_ai::nnue::VariantError>(())
/// ```
pub fn features_on(variant: Variant, white: u64, black: u64, perspective: Color) -> Vec<usize> {
    let (mut list, n) = feature_list(white, black, perspective, variant.points());
    list[..n].sort_unstable();
    list[..n].iter().map(|&f| usize::from(f)).collect()
}

/// The features of a perspective on a board of `points` points into a fixed array, in bit
/// order; with their number. Bits beyond the board are not features.
#[inline]
fn feature_list(
    white: u64,
    black: u64,
    perspective: Color,
    points: usize,
) -> ([u8; MAX_POINTS], usize) {
    let mut out = [0u8; MAX_POINTS];
    let mut n = 0;
    let board = u64::MAX >> (64 - points);
    let (own, opp) = match perspective {
        Color::White => (white & board, black & board),
        Color::Black => (black & board, white & board),
    };
    for (bits, base) in [(own, 0u8), (opp, points as u8)] {
        let mut b = bits;
        while b != 0 && n < MAX_POINTS {
            let i = b.trailing_zeros() as u8;
            b &= b - 1;
            let i = match perspective {
                Color::White => i,
                Color::Black => points as u8 - 1 - i,
            };
            out[n] = base + i;
            n += 1;
        }
    }
    (out, n)
}

/// The stones `bits` of a board of `size` seen in the mirror `sym`: bit 0 flips the files
/// (a <-> the last), bit 1 the ranks (1 <-> the last). The rules are the same in every mirror
/// (on every board of odd sides the diagonals pass through the points whose file plus rank
/// is even, which both flips keep, and Vela's phase depends on stone counts only).
fn mirror(bits: u64, sym: u8, size: BoardSize) -> u64 {
    if sym == 0 {
        return bits;
    }
    let (rows, cols) = (u32::from(size.rows()), u32::from(size.cols()));
    let mut out = 0u64;
    let mut b = bits;
    while b != 0 {
        let i = b.trailing_zeros();
        b &= b - 1;
        let (mut rank, mut file) = (i / cols, i % cols);
        if sym & 1 != 0 {
            file = cols - 1 - file;
        }
        if sym & 2 != 0 {
            rank = rows - 1 - rank;
        }
        out |= 1 << (rank * cols + file);
    }
    out
}

/// The factor the engine multiplies its evaluation by after `no_capture` turns without a
/// capture under the standard rules: 1 at 0, falling linearly to 1/2 at the limit of 100
/// (see [`crate::eval::Terms::scale_num`]). Scores are divided by it before training.
///
/// ```
/// use fanorona_ai::nnue::train::no_capture_factor;
///
/// assert_eq!(no_capture_factor(0), 1.0);
/// assert_eq!(no_capture_factor(50), 0.75);
/// assert_eq!(no_capture_factor(100), 0.5);
/// ```
pub fn no_capture_factor(no_capture: u16) -> f64 {
    let full = f64::from(NO_CAPTURE_SCALE) * f64::from(NO_CAPTURE_LIMIT);
    (full - f64::from(no_capture.min(NO_CAPTURE_LIMIT))) / full
}

/// The output bucket of a position of `stones` stones (both sides') on a board of `points`
/// points, for a network of `buckets` output buckets: `min(buckets - 1, stones * buckets /
/// points)` (0 for one bucket).
///
/// ```
/// use fanorona_ai::nnue::train::output_bucket;
///
/// // On 5x9 (45 points), 8 buckets: the start's 44 stones are bucket 7, 40 too (320 / 45 =
/// // 7.1), 39 are bucket 6, 5 stones bucket 0.
/// assert_eq!(output_bucket(44, 8, 45), 7);
/// assert_eq!(output_bucket(40, 8, 45), 7);
/// assert_eq!(output_bucket(39, 8, 45), 6);
/// assert_eq!(output_bucket(5, 8, 45), 0);
/// assert_eq!(output_bucket(44, 1, 45), 0);
/// ```
pub fn output_bucket(stones: u32, buckets: usize, points: usize) -> usize {
    (stones as usize * buckets / points.max(1)).min(buckets.max(1) - 1)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The floating-point network the trainer fits.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    variant: Variant,
    hidden: usize,
    scale: i32,
    /// Feature-major: the `hidden` weights of feature 0, then feature 1, ...
    w1: Vec<f32>,
    b1: Vec<f32>,
    /// `2 * hidden` per output bucket, bucket 0 first: the side to move's half, then the
    /// other's.
    w2: Vec<f32>,
    /// One per output bucket.
    b2: Vec<f32>,
}

impl FloatNet {
    /// A network of the standard game of `hidden` units (clamped to `1..=MAX_HIDDEN`) and
    /// output scale `scale`, its weights drawn from the generator seeded with `seed`.
    pub fn new(hidden: usize, scale: i32, seed: u64) -> FloatNet {
        FloatNet::for_variant(Variant::STANDARD, hidden, scale, seed)
    }

    /// A network of `variant`, as [`FloatNet::new`] makes the standard game's.
    pub fn for_variant(variant: Variant, hidden: usize, scale: i32, seed: u64) -> FloatNet {
        FloatNet::with_buckets(variant, hidden, 1, scale, seed)
    }

    /// A network of `variant` with `buckets` output buckets (clamped to
    /// `1..=`[`MAX_BUCKETS`]), as [`FloatNet::new`] makes the standard game's: the output
    /// weights of bucket 0 are drawn first, then those of bucket 1, ... (so one bucket is
    /// [`FloatNet::for_variant`]'s network).
    pub fn with_buckets(
        variant: Variant,
        hidden: usize,
        buckets: usize,
        scale: i32,
        seed: u64,
    ) -> FloatNet {
        let hidden = hidden.clamp(1, MAX_HIDDEN);
        let buckets = buckets.clamp(1, MAX_BUCKETS);
        let mut rng = Rng::new(seed);
        let mut uniform = |r: f64| ((rng.unit() * 2.0 - 1.0) * r) as f32;
        let w1 = (0..variant.inputs() * hidden)
            .map(|_| uniform(0.1))
            .collect();
        let b1 = vec![0.5; hidden];
        let r2 = 1.0 / (2.0 * hidden as f64).sqrt();
        let w2 = (0..buckets * 2 * hidden).map(|_| uniform(r2)).collect();
        FloatNet {
            variant,
            hidden,
            scale: scale.max(1),
            w1,
            b1,
            w2,
            b2: vec![0.0; buckets],
        }
    }

    /// The number of hidden units per perspective.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The number of output buckets (see [`output_bucket`]).
    pub fn buckets(&self) -> usize {
        self.b2.len()
    }

    /// The output bucket of the stones `white` and `black`.
    fn bucket(&self, white: u64, black: u64) -> usize {
        output_bucket(
            (white | black).count_ones(),
            self.b2.len(),
            self.variant.points(),
        )
    }

    /// The output scale `S`.
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// The board and game.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    fn accumulate(&self, feats: &[u8], acc: &mut [f32]) {
        acc.copy_from_slice(&self.b1);
        for &f in feats {
            let row = &self.w1[usize::from(f) * self.hidden..][..self.hidden];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// `y` for the stones and the side to move, by the output weights of `bucket`.
    fn output(
        &self,
        white: u64,
        black: u64,
        side: Color,
        bucket: usize,
        scratch: &mut [f32],
    ) -> f32 {
        let h = self.hidden;
        let (us, them) = scratch.split_at_mut(h);
        let points = self.variant.points();
        let (f, n) = feature_list(white, black, side, points);
        self.accumulate(&f[..n], us);
        let (f, n) = feature_list(white, black, side.other(), points);
        self.accumulate(&f[..n], them);
        let w2 = &self.w2[bucket * 2 * h..][..2 * h];
        let mut y = self.b2[bucket];
        for (a, w) in us.iter().zip(&w2[..h]) {
            y += a.clamp(0.0, 1.0) * w;
        }
        for (a, w) in them.iter().zip(&w2[h..]) {
            y += a.clamp(0.0, 1.0) * w;
        }
        y
    }

    /// The evaluation in centi-stones (`y * S`) of the stones `white`, `black` with `side` to
    /// move, from the side to move's view, before the no-capture factor.
    pub fn evaluate(&self, white: u64, black: u64, side: Color) -> f64 {
        let mut scratch = vec![0.0; 2 * self.hidden];
        let bucket = self.bucket(white, black);
        f64::from(self.output(white, black, side, bucket, &mut scratch)) * f64::from(self.scale)
    }

    /// The integer network of the file format: `W1`, `b1` times [`QA`], `w2` times [`QB`],
    /// `b2` times `QA * QB`, each rounded to the nearest integer.
    pub fn quantise(&self) -> QuantNet {
        let q = |x: f32, by: i32| (f64::from(x) * f64::from(by)).round();
        QuantNet {
            variant: self.variant,
            hidden: self.hidden,
            scale: self.scale,
            w1: self.w1.iter().map(|&w| q(w, QA) as i16).collect(),
            b1: self.b1.iter().map(|&w| q(w, QA) as i16).collect(),
            w2: self.w2.iter().map(|&w| q(w, QB) as i16).collect(),
            b2: self.b2.iter().map(|&b| q(b, QA * QB) as i32).collect(),
        }
    }
}

/// The integer network, as stored in a network file (see [`docs/nnue.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/nnue.md)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantNet {
    variant: Variant,
    hidden: usize,
    scale: i32,
    w1: Vec<i16>,
    b1: Vec<i16>,
    /// `2 * hidden` per output bucket, bucket 0 first.
    w2: Vec<i16>,
    /// One per output bucket.
    b2: Vec<i32>,
}

/// Why bytes are not a network file.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum NetError {
    /// The file does not start with [`NET_MAGIC`].
    BadMagic,
    /// A header field has a value this format does not take: which one, and the value.
    BadHeader(&'static str, i64),
    /// The file's length is not the one its header implies.
    BadLength {
        /// The length the header implies.
        expected: usize,
        /// The file's length.
        got: usize,
    },
    /// The checksum does not match the bytes: the file is damaged.
    Checksum,
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::BadMagic => write!(f, "not a network file (no FANNUE magic)"),
            NetError::BadHeader(what, v) => write!(f, "unsupported {what} {v} in the header"),
            NetError::BadLength { expected, got } => {
                write!(f, "the file has {got} bytes, its header says {expected}")
            }
            NetError::Checksum => write!(f, "checksum mismatch: the file is damaged"),
        }
    }
}

impl std::error::Error for NetError {}

/// FNV-1a, 64 bits.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The size of a version 1 header: magic and seven 32-bit fields.
const NET_HEADER: usize = 8 + 7 * 4;
/// The size of a version 2 header: the game is one field more.
const NET_HEADER_V2: usize = NET_HEADER + 4;
/// The size of a version 3 header: version 2's, then the number of output buckets.
const NET_HEADER_V3: usize = NET_HEADER_V2 + 4;

impl QuantNet {
    /// The number of hidden units per perspective.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The output scale `S`.
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// The board and game.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The number of output buckets (see [`output_bucket`]).
    pub fn buckets(&self) -> usize {
        self.b2.len()
    }

    /// The bytes of the network file: version 1 for the capture game, version 2 (with the
    /// game after the files) for Vela; version 3 (the game after the files, the number of
    /// buckets after `S`) for a network of more than one output bucket, whatever its game.
    pub fn to_bytes(&self) -> Vec<u8> {
        let v = self.variant;
        let inputs = v.inputs();
        let buckets = self.buckets();
        let mut out = Vec::with_capacity(
            NET_HEADER_V3 + 8 + 2 * (inputs + 1 + 2 * buckets) * self.hidden + 4 * buckets,
        );
        let mut header = vec![u32::from(v.size().rows()), u32::from(v.size().cols())];
        if buckets > 1 {
            out.extend_from_slice(&NET_MAGIC_V3);
            header.push(v.game_code());
        } else if v.game_code() == 0 {
            out.extend_from_slice(&NET_MAGIC);
        } else {
            out.extend_from_slice(&NET_MAGIC_V2);
            header.push(v.game_code());
        }
        header.extend([inputs as u32, self.hidden as u32]);
        for x in header {
            out.extend_from_slice(&x.to_le_bytes());
        }
        for v in [QA, QB, self.scale] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        if buckets > 1 {
            out.extend_from_slice(&(buckets as u32).to_le_bytes());
        }
        for v in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in &self.b2 {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a network file, checking its header, length and checksum.
    ///
    /// # Errors
    ///
    /// [`NetError`] saying what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<QuantNet, NetError> {
        let v3 = bytes.len() >= NET_HEADER_V3 && bytes[..8] == NET_MAGIC_V3;
        let v2 = bytes.len() >= NET_HEADER_V2 && bytes[..8] == NET_MAGIC_V2;
        if !v3 && !v2 && (bytes.len() < NET_HEADER || bytes[..8] != NET_MAGIC) {
            return Err(NetError::BadMagic);
        }
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        let i32_at = |i: usize| i32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        // Versions 2 and 3 have the game after the files: the later fields are 4 bytes on.
        let (game, d) = if v2 || v3 { (u32_at(16), 4) } else { (0, 0) };
        let variant = Variant::from_codes(u32_at(8), u32_at(12), game).map_err(|e| match e {
            super::VariantError::Game { code } => NetError::BadHeader("game", i64::from(code)),
            _ => NetError::BadHeader("board rows", i64::from(u32_at(8))),
        })?;
        let inputs = variant.inputs();
        if u32_at(16 + d) != inputs as u32 {
            return Err(NetError::BadHeader("inputs", i64::from(u32_at(16 + d))));
        }
        let hidden = u32_at(20 + d) as usize;
        if !(1..=MAX_HIDDEN).contains(&hidden) {
            return Err(NetError::BadHeader(
                "hidden size",
                i64::from(u32_at(20 + d)),
            ));
        }
        if i32_at(24 + d) != QA {
            return Err(NetError::BadHeader("QA", i64::from(i32_at(24 + d))));
        }
        if i32_at(28 + d) != QB {
            return Err(NetError::BadHeader("QB", i64::from(i32_at(28 + d))));
        }
        let scale = i32_at(32 + d);
        if scale < 1 {
            return Err(NetError::BadHeader("output scale", i64::from(scale)));
        }
        // Version 3 has the number of output buckets after S.
        let buckets = if v3 { u32_at(40) as usize } else { 1 };
        if !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(NetError::BadHeader("output buckets", i64::from(u32_at(40))));
        }
        let header = NET_HEADER + d + if v3 { 4 } else { 0 };
        let expected = header + 2 * (inputs + 1 + 2 * buckets) * hidden + 4 * buckets + 8;
        if bytes.len() != expected {
            return Err(NetError::BadLength {
                expected,
                got: bytes.len(),
            });
        }
        let body = &bytes[..expected - 8];
        let sum = u64::from_le_bytes(bytes[expected - 8..].try_into().expect("8 bytes"));
        if fnv1a(body) != sum {
            return Err(NetError::Checksum);
        }
        let mut at = header;
        let mut take = |n: usize| -> Vec<i16> {
            let v = bytes[at..at + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * n;
            v
        };
        let w1 = take(inputs * hidden);
        let b1 = take(hidden);
        let w2 = take(buckets * 2 * hidden);
        let b2 = (0..buckets)
            .map(|k| i32_at(expected - 8 - 4 * (buckets - k)))
            .collect();
        Ok(QuantNet {
            variant,
            hidden,
            scale,
            w1,
            b1,
            w2,
            b2,
        })
    }

    fn accumulate(&self, white: u64, black: u64, perspective: Color) -> Vec<i32> {
        let (f, n) = feature_list(white, black, perspective, self.variant.points());
        let mut acc: Vec<i32> = self.b1.iter().map(|&b| i32::from(b)).collect();
        for &f in &f[..n] {
            let row = &self.w1[usize::from(f) * self.hidden..][..self.hidden];
            for (a, &w) in acc.iter_mut().zip(row) {
                *a += i32::from(w);
            }
        }
        acc
    }

    /// The integer evaluation in centi-stones of the stones `white`, `black` with `side` to
    /// move, from the side to move's view, before the no-capture factor: the output
    /// `b2 + sum w2[j] * clamp(acc_us[j], 0, QA) + sum w2[H + j] * clamp(acc_them[j], 0, QA)`
    /// (`w2` and `b2` of the stones' [`output_bucket`]), times `S / (QA * QB)`, truncated
    /// toward zero.
    pub fn evaluate(&self, white: u64, black: u64, side: Color) -> i32 {
        let us = self.accumulate(white, black, side);
        let them = self.accumulate(white, black, side.other());
        let h = self.hidden;
        let k = output_bucket(
            (white | black).count_ones(),
            self.buckets(),
            self.variant.points(),
        );
        let w2 = &self.w2[k * 2 * h..][..2 * h];
        let mut out = self.b2[k];
        for (a, &w) in us.iter().zip(&w2[..h]) {
            out += i32::from(w) * a.clamp(&0, &QA);
        }
        for (a, &w) in them.iter().zip(&w2[h..]) {
            out += i32::from(w) * a.clamp(&0, &QA);
        }
        (i64::from(out) * i64::from(self.scale) / i64::from(QA * QB)) as i32
    }
}

/// How [`train`] trains.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct TrainOptions {
    /// Hidden units per perspective (default 128).
    pub hidden: usize,
    /// Passes over the data (default 20).
    pub epochs: usize,
    /// The weight of the game's result in the target, the rest going to the search score
    /// (default 0.5).
    pub lambda: f64,
    /// Seeds the initial weights, the order of the samples and the mirrors (default 1).
    pub seed: u64,
    /// Adam's step size (default 0.001); it drops to 30% after a third of the epochs and to
    /// 9% after two thirds.
    pub lr: f64,
    /// Samples per step (default 1024).
    pub batch: usize,
    /// `K`, centi-stones to win probability (default [`DEFAULT_K`]).
    pub k: f64,
    /// The output scale `S` (default [`DEFAULT_SCALE`]).
    pub scale: i32,
    /// Each sample seen in a random one of the board's four mirrors (default true).
    pub mirrors: bool,
    /// The board and game of the network (default [`Variant::STANDARD`]); [`train`] learns
    /// from the records of this variant only.
    pub variant: Variant,
    /// Output buckets, 1 to [`MAX_BUCKETS`] (default 1): sets of output weights, each
    /// position using and training the set of its number of stones ([`output_bucket`]). A
    /// network of one bucket is written as file version 1 (2 for Vela), of more as version 3.
    pub buckets: usize,
}

impl Default for TrainOptions {
    fn default() -> TrainOptions {
        TrainOptions {
            hidden: 128,
            epochs: 20,
            lambda: 0.5,
            seed: 1,
            lr: 0.001,
            batch: 1024,
            k: DEFAULT_K,
            scale: DEFAULT_SCALE,
            mirrors: true,
            variant: Variant::STANDARD,
            buckets: 1,
        }
    }
}

/// The losses after one epoch.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct EpochReport {
    /// The epoch, from 1.
    pub epoch: usize,
    /// The step size used.
    pub lr: f64,
    /// The mean loss over the epoch's training samples (as trained, in their mirrors).
    pub train_loss: f64,
    /// The loss on the validation records, if any.
    pub valid_loss: Option<f64>,
    /// The cross-entropy of the validation results predicted by the network's evaluation
    /// (with the no-capture factor) as `sigmoid(K * eval)`, if any (see [`result_loss`]).
    pub valid_result_loss: Option<f64>,
}

/// What [`train`] reports as it goes.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Progress {
    /// A step is done: samples of this epoch done, and in all.
    Step {
        /// The epoch, from 1.
        epoch: usize,
        /// Samples of the epoch done.
        done: usize,
        /// Samples in an epoch.
        total: usize,
    },
    /// An epoch is done.
    Epoch(EpochReport),
}

/// The result of [`train`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Trained {
    /// The fitted network.
    pub net: FloatNet,
    /// One report per epoch.
    pub epochs: Vec<EpochReport>,
}

/// A training sample: the stones, the side to move and the target.
#[derive(Clone, Copy)]
struct Sample {
    white: u64,
    black: u64,
    side: Color,
    target: f32,
}

impl Sample {
    /// The sample's output bucket in `net` (the mirrors keep the stone count).
    fn bucket(&self, net: &FloatNet) -> usize {
        net.bucket(self.white, self.black)
    }
}

fn sample(r: &Record, options: &TrainOptions) -> Sample {
    let score = f64::from(r.score) / no_capture_factor(r.no_capture);
    let target =
        options.lambda * r.result.score() + (1.0 - options.lambda) * sigmoid(options.k * score);
    Sample {
        white: r.white,
        black: r.black,
        side: r.side,
        target: target as f32,
    }
}

/// Adam's state for one parameter vector.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    /// One step on `params` with the gradient `grad` (scaled by `g_scale`), then the clip.
    fn step(&mut self, params: &mut [f32], grad: &[f32], g_scale: f32, lr: f32, clip: f32) {
        self.step_at(0, params, grad, g_scale, lr, clip);
    }

    /// [`Adam::step`] on the parameters from `at` on: `params` and `grad` are those, the
    /// state is taken from `at`.
    fn step_at(
        &mut self,
        at: usize,
        params: &mut [f32],
        grad: &[f32],
        g_scale: f32,
        lr: f32,
        clip: f32,
    ) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        for (((p, g), m), v) in params
            .iter_mut()
            .zip(grad)
            .zip(&mut self.m[at..])
            .zip(&mut self.v[at..])
        {
            let g = g * g_scale;
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *p = (*p - lr * *m / (v.sqrt() + EPS)).clamp(-clip, clip);
        }
    }
}

/// The network's prediction `sigmoid(K * y * S)` and `y`, for a sample, by the output
/// weights of `bucket`.
fn predict(net: &FloatNet, s: &Sample, bucket: usize, k: f64, scratch: &mut [f32]) -> (f64, f32) {
    let y = net.output(s.white, s.black, s.side, bucket, scratch);
    (sigmoid(k * f64::from(y) * f64::from(net.scale)), y)
}

/// The mean training loss of `net` on `records`: the squared difference between the
/// prediction `sigmoid(K * y * S)` and the target `lambda * result + (1 - lambda) *
/// sigmoid(K * score / no-capture factor)` (0 when there are no records).
pub fn loss(net: &FloatNet, records: &[Record], options: &TrainOptions) -> f64 {
    let mut scratch = vec![0.0; 2 * net.hidden];
    let mut total = 0.0;
    for r in records {
        let s = sample(r, options);
        let (p, _) = predict(net, &s, s.bucket(net), options.k, &mut scratch);
        total += (p - f64::from(s.target)).powi(2);
    }
    total / records.len().max(1) as f64
}

/// The mean cross-entropy (in nats; 0.693 is a coin toss) of predicting each record's result
/// as `sigmoid(k * eval(record))`: how well an evaluation in centi-stones (the network's
/// with the no-capture factor, the hand evaluation, the search score) foretells results.
///
/// ```
/// use fanorona_ai::nnue::data::{Record, Wdl};
/// use fanorona_ai::nnue::train::result_loss;
/// use fanorona_core::Position;
///
/// let won = Record::new(&Position::standard(), 0, Wdl::Win).expect("5x9");
/// // An evaluation of 0 gives 1/2: ln 2.
/// assert!((result_loss(&[won], 0.004, |_| 0.0) - 2f64.ln()).abs() < 1e-12);
/// ```
pub fn result_loss(records: &[Record], k: f64, eval: impl Fn(&Record) -> f64) -> f64 {
    let mut total = 0.0;
    for r in records {
        let p = sigmoid(k * eval(r)).clamp(1e-12, 1.0 - 1e-12);
        let t = r.result.score();
        total -= t * p.ln() + (1.0 - t) * (1.0 - p).ln();
    }
    total / records.len().max(1) as f64
}

/// Trains a network of `options.variant` on the records of that variant in `train_set`,
/// reporting the loss on those of `valid` after each epoch (see the module and
/// [`TrainOptions`]). Deterministic: the same records and options give the same network, bit
/// for bit. `progress` hears of every step and epoch.
pub fn train(
    train_set: &[Record],
    valid: &[Record],
    options: &TrainOptions,
    mut progress: impl FnMut(&Progress),
) -> Trained {
    let variant = options.variant;
    let mut net = FloatNet::with_buckets(
        variant,
        options.hidden,
        options.buckets,
        options.scale,
        options.seed,
    );
    let h = net.hidden;
    let buckets = net.buckets();
    let inputs = variant.inputs();
    let clip = clip_hidden(variant.points());
    let valid: Vec<Record> = valid
        .iter()
        .filter(|r| r.variant == variant)
        .copied()
        .collect();
    let samples: Vec<Sample> = train_set
        .iter()
        .filter(|r| r.variant == variant)
        .map(|r| sample(r, options))
        .collect();
    let mut rng = Rng::new(options.seed ^ 0x05ee_d0f0_da7a);
    let mut order: Vec<usize> = (0..samples.len()).collect();
    let (mut g_w1, mut g_b1, mut g_w2, mut g_b2) = (
        vec![0.0f32; inputs * h],
        vec![0.0f32; h],
        vec![0.0f32; buckets * 2 * h],
        vec![0.0f32; buckets],
    );
    let (mut a_w1, mut a_b1, mut a_w2, mut a_b2) = (
        Adam::new(inputs * h),
        Adam::new(h),
        Adam::new(buckets * 2 * h),
        Adam::new(buckets),
    );
    let mut acc = vec![0.0f32; 2 * h];
    let mut d_acc = vec![0.0f32; h];
    // The output buckets of the samples of a batch.
    let mut seen = vec![false; buckets];
    let batch = options.batch.max(1);
    let scale_k = options.k * f64::from(net.scale);
    let mut step: i32 = 0;
    let mut reports = Vec::new();
    for epoch in 1..=options.epochs {
        let stage = (3 * (epoch - 1) / options.epochs.max(1)) as i32;
        let lr = options.lr * 0.3f64.powi(stage);
        // Fisher-Yates with the seeded generator.
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let mut total_loss = 0.0f64;
        for (b, chunk) in order.chunks(batch).enumerate() {
            g_w1.fill(0.0);
            g_b1.fill(0.0);
            g_w2.fill(0.0);
            g_b2.fill(0.0);
            seen.fill(false);
            for &i in chunk {
                let mut s = samples[i];
                if options.mirrors {
                    let sym = rng.below(4) as u8;
                    s.white = mirror(s.white, sym, variant.size());
                    s.black = mirror(s.black, sym, variant.size());
                }
                // Only the sample's bucket of the output layer learns from it.
                let k = s.bucket(&net);
                let (p, _) = predict(&net, &s, k, options.k, &mut acc);
                let err = p - f64::from(s.target);
                total_loss += err * err;
                let dy = (2.0 * err * p * (1.0 - p) * scale_k) as f32;
                g_b2[k] += dy;
                seen[k] = true;
                let at = k * 2 * h;
                for (side, half) in [(s.side, 0), (s.side.other(), h)] {
                    let a = &acc[half..half + h];
                    let w2 = &net.w2[at + half..at + half + h];
                    for j in 0..h {
                        let x = a[j];
                        g_w2[at + half + j] += dy * x.clamp(0.0, 1.0);
                        d_acc[j] = if x > 0.0 && x < 1.0 { dy * w2[j] } else { 0.0 };
                    }
                    for (g, d) in g_b1.iter_mut().zip(&d_acc) {
                        *g += d;
                    }
                    let (f, n) = feature_list(s.white, s.black, side, variant.points());
                    for &f in &f[..n] {
                        let row = &mut g_w1[usize::from(f) * h..][..h];
                        for (g, d) in row.iter_mut().zip(&d_acc) {
                            *g += d;
                        }
                    }
                }
            }
            step += 1;
            // Adam's bias corrections folded into the step size.
            let c1 = 1.0 - 0.9f64.powi(step);
            let c2 = 1.0 - 0.999f64.powi(step);
            let lr_t = (lr * c2.sqrt() / c1) as f32;
            let g_scale = 1.0 / chunk.len() as f32;
            a_w1.step(&mut net.w1, &g_w1, g_scale, lr_t, clip);
            a_b1.step(&mut net.b1, &g_b1, g_scale, lr_t, clip);
            // The output buckets of the batch's samples, each with its own part of the state
            // (one bucket: all of it, every step).
            for k in (0..buckets).filter(|&k| seen[k]) {
                let w = k * 2 * h..(k + 1) * 2 * h;
                let (w2, g) = (&mut net.w2[w.clone()], &g_w2[w.clone()]);
                a_w2.step_at(w.start, w2, g, g_scale, lr_t, CLIP_OUTPUT);
                let (b2, g) = (&mut net.b2[k..=k], &g_b2[k..=k]);
                a_b2.step_at(k, b2, g, g_scale, lr_t, CLIP_OUTPUT);
            }
            progress(&Progress::Step {
                epoch,
                done: (b * batch + chunk.len()).min(samples.len()),
                total: samples.len(),
            });
        }
        let has_valid = !valid.is_empty();
        let report = EpochReport {
            epoch,
            lr,
            train_loss: total_loss / samples.len().max(1) as f64,
            valid_loss: has_valid.then(|| loss(&net, &valid, options)),
            valid_result_loss: has_valid.then(|| {
                result_loss(&valid, options.k, |r| {
                    net.evaluate(r.white, r.black, r.side) * no_capture_factor(r.no_capture)
                })
            }),
        };
        progress(&Progress::Epoch(report));
        reports.push(report);
    }
    Trained {
        net,
        epochs: reports,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::data::Wdl;
    use fanorona_core::Position;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    /// Turns a position 180 degrees and swaps the colours (the side to move too).
    fn twin(p: &Position) -> (u64, u64, Color) {
        let rot = |bits: u64| {
            (0..45)
                .filter(|i| bits >> i & 1 == 1)
                .fold(0u64, |a, i| a | 1 << (44 - i))
        };
        (
            rot(p.stones(Color::Black).bits()),
            rot(p.stones(Color::White).bits()),
            p.side_to_move().other(),
        )
    }

    #[test]
    fn the_start_has_the_hand_listed_features_from_both_sides() {
        // White: ranks 1-2 (bits 0..=17) and b3, d3, g3, i3 (19, 21, 24, 26). Black: a3, c3,
        // f3, h3 (18, 20, 23, 25) and ranks 4-5 (27..=44). Turned for Black, its army lands
        // on the same points; both see the same 90-input picture.
        let start = Position::standard();
        let mut want: Vec<usize> = (0..18).chain([19, 21, 24, 26]).collect();
        want.extend([63, 65, 68, 70]);
        want.extend(72..90);
        let (w, b) = (
            start.stones(Color::White).bits(),
            start.stones(Color::Black).bits(),
        );
        assert_eq!(features(w, b, Color::White), want);
        assert_eq!(features(w, b, Color::Black), want);
    }

    #[test]
    fn a_position_and_its_turned_colour_swapped_twin_look_the_same() {
        let mut rng = Rng::new(5);
        for fen in crate::bench::POSITIONS {
            let mut p = pos(fen);
            for _ in 0..30 {
                let (w, b, side) = twin(&p);
                let (pw, pb) = (p.stones(Color::White).bits(), p.stones(Color::Black).bits());
                let us = p.side_to_move();
                assert_eq!(features(pw, pb, us), features(w, b, side));
                assert_eq!(features(pw, pb, us.other()), features(w, b, side.other()));
                let net = FloatNet::new(16, 400, 3);
                // The same sums, added in another order.
                assert!((net.evaluate(pw, pb, us) - net.evaluate(w, b, side)).abs() < 1e-3);
                let turns = p.legal_turns();
                if turns.is_empty() || p.outcome().is_some() {
                    break;
                }
                p = p.play_unchecked(&turns[rng.below(turns.len() as u64) as usize]);
            }
        }
    }

    #[test]
    fn mirrors_move_the_corners() {
        // a1 = bit 0, i1 = bit 8, a5 = bit 36, i5 = bit 44; e3 (22) is the centre.
        assert_eq!(mirror(1, 1, BoardSize::STANDARD), 1 << 8);
        assert_eq!(mirror(1, 2, BoardSize::STANDARD), 1 << 36);
        assert_eq!(mirror(1, 3, BoardSize::STANDARD), 1 << 44);
        assert_eq!(mirror(1 << 22, 3, BoardSize::STANDARD), 1 << 22);
        // b2 (10) -> h2 (16), b4 (28), h4 (34).
        assert_eq!(mirror(1 << 10, 1, BoardSize::STANDARD), 1 << 16);
        assert_eq!(mirror(1 << 10, 2, BoardSize::STANDARD), 1 << 28);
        assert_eq!(mirror(1 << 10, 3, BoardSize::STANDARD), 1 << 34);
        let start = Position::standard();
        // The start is symmetric under the file flip.
        let w = start.stones(Color::White).bits();
        assert_eq!(mirror(w, 1, BoardSize::STANDARD).count_ones(), 22);
    }

    #[test]
    fn fnv1a_reference_values() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }

    /// A network with hand-set weights: one hidden unit that reads White's... own stone on
    /// a1 (feature 0).
    fn hand_net() -> FloatNet {
        let mut net = FloatNet::new(1, 400, 0);
        net.w1.fill(0.0);
        net.w1[0] = 1.0;
        net.b1[0] = 0.0;
        net.w2 = vec![2.0, -1.0];
        net.b2 = vec![0.25];
        net
    }

    #[test]
    fn a_hand_set_network_evaluates_as_computed_by_hand() {
        let net = hand_net();
        let q = net.quantise();
        // W1q[0] = 255, w2q = [128, -64], b2q = 0.25 * 255 * 64 = 4080.
        assert_eq!(
            (q.w1[0], q.w2.clone(), q.b2.clone()),
            (255, vec![128, -64], vec![4080])
        );
        // White a1 (bit 0), Black h5 (bit 43: Black's feature 44 - 43 = 1, weight 0).
        // White to move: acc_us = 255, acc_them = 0 (a1 is feature 89 for Black).
        // out = 4080 + 128 * 255 = 36720; 36720 * 400 / 16320 = 900. Float: 0.25 + 2 = 2.25.
        assert_eq!(q.evaluate(1, 1 << 43, Color::White), 900);
        assert_eq!(net.evaluate(1, 1 << 43, Color::White), 900.0);
        // Black to move: acc_us = 0, acc_them (White's a1) = 255:
        // 4080 - 64 * 255 = -12240 -> -300. Float: 0.25 - 1 = -0.75.
        assert_eq!(q.evaluate(1, 1 << 43, Color::Black), -300);
        assert_eq!(net.evaluate(1, 1 << 43, Color::Black), -300.0);
        // Black's own i5 is its feature 0 too: 4080 + 128 * 255 - 64 * 255 = 20400 -> 500.
        assert_eq!(q.evaluate(1, 1 << 44, Color::Black), 500);
        // Truncation toward zero: b2 only, -0.001 -> round(-16.32) = -16; -16 * 400 / 16320
        // = -0.39 -> 0.
        let mut n = hand_net();
        n.w2 = vec![0.0, 0.0];
        n.b2 = vec![-0.001];
        assert_eq!(n.quantise().evaluate(0, 0, Color::White), 0);
    }

    #[test]
    fn network_files_round_trip_and_damage_is_found() {
        let net = FloatNet::new(4, 400, 11).quantise();
        let bytes = net.to_bytes();
        // 36 header bytes, (90 + 1 + 2) * 4 i16, an i32 and the checksum.
        assert_eq!(bytes.len(), 36 + 2 * 93 * 4 + 4 + 8);
        assert_eq!(&bytes[..8], b"FANNUE\x00\x01");
        assert_eq!(
            &bytes[8..24],
            &[5, 0, 0, 0, 9, 0, 0, 0, 90, 0, 0, 0, 4, 0, 0, 0]
        );
        assert_eq!(&bytes[24..36], &[255, 0, 0, 0, 64, 0, 0, 0, 144, 1, 0, 0]);
        assert_eq!(QuantNet::from_bytes(&bytes).unwrap(), net);
        let mut bad = bytes.clone();
        bad[100] ^= 1;
        assert_eq!(QuantNet::from_bytes(&bad), Err(NetError::Checksum));
        assert!(matches!(
            QuantNet::from_bytes(&bytes[..bytes.len() - 1]),
            Err(NetError::BadLength { .. })
        ));
        let mut bad = bytes.clone();
        bad[20] = 0;
        assert_eq!(
            QuantNet::from_bytes(&bad),
            Err(NetError::BadHeader("hidden size", 0))
        );
        assert_eq!(QuantNet::from_bytes(b"FANDATA\0"), Err(NetError::BadMagic));
    }

    #[test]
    fn the_engine_reads_the_trainers_files_and_evaluates_alike() {
        // The trained network through the file format into the engine's own reader
        // (crate::nnue::Network, written separately from the spec): the same centi-stones,
        // times the no-capture factor the engine applies.
        let trained = train(&synthetic(1000, 5), &[], &small_options(), |_| {});
        let q = trained.net.quantise();
        let engine = crate::nnue::Network::from_bytes(&q.to_bytes()).unwrap();
        assert_eq!(engine.hidden(), 16);
        assert_evaluates_alike(&engine, &q, Position::standard());
    }

    /// Along a random game from `start`, the engine's network evaluates as the trainer's
    /// integer network, times the no-capture factor the engine applies.
    fn assert_evaluates_alike(engine: &crate::nnue::Network, q: &QuantNet, start: Position) {
        let mut rng = Rng::new(8);
        let mut p = start;
        for _ in 0..60 {
            let (w, b) = (p.stones(Color::White).bits(), p.stones(Color::Black).bits());
            let (num, den) = crate::eval::no_capture_scale(&p);
            let want = q.evaluate(w, b, p.side_to_move()) * num / den;
            assert_eq!(engine.evaluate(&p), Some(want), "{p}");
            let turns = p.legal_turns();
            if turns.is_empty() || p.outcome().is_some() {
                break;
            }
            p = p.play_unchecked(&turns[rng.below(turns.len() as u64) as usize]);
        }
    }

    /// Positions from random games with a material-based label, for the trainer tests.
    fn synthetic(n: usize, seed: u64) -> Vec<Record> {
        synthetic_from(Position::standard(), n, seed)
    }

    /// Positions from random games from `start`, labelled as [`synthetic`]'s.
    fn synthetic_from(start: Position, n: usize, seed: u64) -> Vec<Record> {
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        while out.len() < n {
            let mut p = start;
            for _ in 0..60 {
                let turns = p.legal_turns();
                if turns.is_empty() || p.outcome().is_some() {
                    break;
                }
                if !p.has_capture() {
                    let us = p.stones(p.side_to_move()).count() as i32;
                    let them = p.stones(p.side_to_move().other()).count() as i32;
                    let score = 150 * (us - them);
                    let result = match score.signum() {
                        1 => Wdl::Win,
                        0 => Wdl::Draw,
                        _ => Wdl::Loss,
                    };
                    out.push(Record::new(&p, score, result).unwrap());
                }
                p = p.play_unchecked(&turns[rng.below(turns.len() as u64) as usize]);
            }
        }
        out.truncate(n);
        out
    }

    fn small_options() -> TrainOptions {
        TrainOptions {
            hidden: 16,
            epochs: 6,
            batch: 64,
            lr: 0.01,
            ..TrainOptions::default()
        }
    }

    #[test]
    fn networks_of_fanoron_dimy_and_vela_go_through_their_files_into_the_engine() {
        use fanorona_core::{BoardSize, GameKind};
        let dimy = Variant::new(BoardSize::DIMY, GameKind::Capture).unwrap();
        let vela = Variant::new(BoardSize::STANDARD, GameKind::Vela).unwrap();
        for variant in [dimy, vela] {
            let start = Position::start_with(variant.size(), variant.rules()).unwrap();
            let options = TrainOptions {
                variant,
                ..small_options()
            };
            // Standard-game records among them are not learnt from.
            let mut data = synthetic_from(start, 600, 3);
            data.extend(synthetic(300, 4));
            let trained = train(&data, &[], &options, |_| {});
            let q = trained.net.quantise();
            assert_eq!(q.variant(), variant);
            let bytes = q.to_bytes();
            let header: Vec<u32> = bytes[8..28]
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
                .collect();
            if variant == dimy {
                // Version 1: 5 ranks, 5 files, 50 inputs, 16 hidden units.
                assert_eq!(&bytes[..8], b"FANNUE\x00\x01");
                assert_eq!(header, [5, 5, 50, 16, 255]);
                assert_eq!(bytes.len(), 36 + 2 * 53 * 16 + 4 + 8);
            } else {
                // Version 2: 5 ranks, 9 files, game 1, 90 inputs, 16 hidden units.
                assert_eq!(&bytes[..8], b"FANNUE\x00\x02");
                assert_eq!(header, [5, 9, 1, 90, 16]);
                assert_eq!(bytes.len(), 40 + 2 * 93 * 16 + 4 + 8);
            }
            assert_eq!(QuantNet::from_bytes(&bytes).unwrap(), q);
            let engine = crate::nnue::Network::from_bytes(&bytes).unwrap();
            assert_eq!(engine.variant(), variant);
            assert_eq!(engine.to_bytes(), bytes);
            // Not a network of the standard game.
            assert!(!engine.covers(&Position::standard()));
            assert_eq!(engine.evaluate(&Position::standard()), None);
            assert_evaluates_alike(&engine, &q, start);
        }
    }

    #[test]
    fn the_mirrors_keep_the_rules() {
        // The strong points (file + rank even) are the same after each flip, so the lines
        // and the capture rules are too: legal turn counts agree in mirrored positions, on
        // 5x9, on 5x5 and in Vela (whose phase depends on the stone counts only).
        use fanorona_core::GameKind;
        for (size, game) in [
            (BoardSize::STANDARD, GameKind::Capture),
            (BoardSize::DIMY, GameKind::Capture),
            (BoardSize::STANDARD, GameKind::Vela),
        ] {
            let variant = Variant::new(size, game).unwrap();
            let mut rng = Rng::new(13);
            let mut p = Position::start_with(size, variant.rules()).unwrap();
            for _ in 0..40 {
                let turns = p.legal_turns();
                if turns.is_empty() || p.outcome().is_some() {
                    break;
                }
                for sym in 1..4 {
                    let mut setup = p.to_setup();
                    let (w, b) = (setup.white.bits(), setup.black.bits());
                    setup.white = fanorona_core::Bitboard::from_bits(mirror(w, sym, size));
                    setup.black = fanorona_core::Bitboard::from_bits(mirror(b, sym, size));
                    let m = Position::from_setup(setup, p.rules()).unwrap();
                    assert_eq!(m.count_turns(), p.count_turns(), "{p} sym {sym}");
                    assert_eq!(m.is_vela_phase(), p.is_vela_phase());
                }
                p = p.play_unchecked(&turns[rng.below(turns.len() as u64) as usize]);
            }
        }
        // On 5x5, a1 (bit 0) goes to e1 (4), a5 (20) and e5 (24).
        let dimy = BoardSize::DIMY;
        assert_eq!(
            [mirror(1, 1, dimy), mirror(1, 2, dimy), mirror(1, 3, dimy)],
            [1 << 4, 1 << 20, 1 << 24]
        );
    }

    #[test]
    fn the_hidden_clip_keeps_every_board_in_i16() {
        assert_eq!(clip_hidden(45), CLIP_HIDDEN);
        assert_eq!(clip_hidden(63), CLIP_HIDDEN);
        assert!(clip_hidden(64) < CLIP_HIDDEN);
        for points in [9, 25, 45, 63, 64] {
            let clip = f64::from(clip_hidden(points));
            let per = (clip * f64::from(QA)).round();
            assert!(
                per * (points as f64 + 1.0) <= f64::from(i16::MAX),
                "{points}"
            );
        }
    }

    #[test]
    fn training_is_deterministic_and_lowers_the_loss() {
        let data = synthetic(3000, 1);
        let valid = synthetic(500, 2);
        let options = small_options();
        let start = loss(&FloatNet::new(16, 400, options.seed), &valid, &options);
        let a = train(&data, &valid, &options, |_| {});
        let b = train(&data, &valid, &options, |_| {});
        assert_eq!(a.net.quantise().to_bytes(), b.net.quantise().to_bytes());
        let end = a.epochs.last().unwrap().valid_loss.unwrap();
        assert!(end < start * 0.5, "{start} -> {end}");
        // Another seed gives another network.
        let other = TrainOptions {
            seed: 2,
            ..small_options()
        };
        assert_ne!(train(&data, &[], &other, |_| {}).net, a.net);
    }

    #[test]
    fn the_quantised_network_is_close_to_the_float_one() {
        let data = synthetic(2000, 3);
        let trained = train(&data, &[], &small_options(), |_| {});
        let q = trained.net.quantise();
        let net = &trained.net;
        let (mut worst, mut sum) = (0.0f64, 0.0);
        let test = synthetic(300, 4);
        for r in &test {
            let f = net.evaluate(r.white, r.black, r.side);
            let i = f64::from(q.evaluate(r.white, r.black, r.side));
            // The rounding's worst case: each accumulator is off by at most half a step of
            // W1 per stone and of b1, each w2 by half a step, b2 by half a step, and the
            // result is truncated (1 centi-stone).
            let stones = f64::from((r.white | r.black).count_ones());
            let dh = (stones + 1.0) * 0.5 / f64::from(QA);
            let bound = f64::from(net.scale)
                * (net.w2.iter().map(|w| f64::from(w.abs()) * dh).sum::<f64>()
                    + 2.0 * net.hidden as f64 * 0.5 / f64::from(QB)
                    + 0.5 / f64::from(QA * QB))
                + 1.0;
            assert!((f - i).abs() <= bound, "{f} vs {i}, bound {bound}");
            worst = worst.max((f - i).abs());
            sum += (f - i).abs();
        }
        let mean = sum / test.len() as f64;
        // In practice the errors cancel: a few centi-stones.
        assert!(worst <= 10.0 && mean <= 3.0, "worst {worst} mean {mean}");
    }

    /// A hand-set network of two output buckets: one hidden unit that reads the own stone
    /// on a1 (feature 0), bucket 0 (at most 22 stones on 5x9) with `w2 = [2, -1]`,
    /// `b2 = 0.25`, bucket 1 (23 stones or more) with `w2 = [1.5, 1]`, `b2 = -0.5`.
    fn hand_net_of_two_buckets() -> FloatNet {
        let mut net = FloatNet::with_buckets(Variant::STANDARD, 1, 2, 400, 0);
        net.w1.fill(0.0);
        net.w1[0] = 1.0;
        net.b1[0] = 0.0;
        net.w2 = vec![2.0, -1.0, 1.5, 1.0];
        net.b2 = vec![0.25, -0.5];
        net
    }

    #[test]
    fn a_hand_set_two_bucket_network_evaluates_each_bucket_as_computed_by_hand() {
        let net = hand_net_of_two_buckets();
        assert_eq!(net.buckets(), 2);
        let q = net.quantise();
        // w2q = [128, -64, 96, 64], b2q = [0.25, -0.5] * 16320 = [4080, -8160].
        assert_eq!(
            (q.w2.clone(), q.b2.clone()),
            (vec![128, -64, 96, 64], vec![4080, -8160])
        );
        // White holds ranks 1 and 2 (bits 0 to 17, a1 among them: White's feature 0; for
        // Black it is feature 89, of weight 0).
        let white = (1u64 << 18) - 1;
        // Black on d5..h5 (bits 39 to 43; not i5, Black's feature 0): 23 stones, bucket
        // min(1, 23 * 2 / 45) = 1.
        let black23 = 0b11111 << 39;
        // White to move: -0.5 + 1.5 * 1 = 1 -> 400; -8160 + 96 * 255 = 16320 -> 400.
        assert_eq!(net.evaluate(white, black23, Color::White), 400.0);
        assert_eq!(q.evaluate(white, black23, Color::White), 400);
        // Black to move: -0.5 + 1 * 1 = 0.5 -> 200; -8160 + 64 * 255 = 8160 -> 200.
        assert_eq!(net.evaluate(white, black23, Color::Black), 200.0);
        assert_eq!(q.evaluate(white, black23, Color::Black), 200);
        // Black on e5..h5 (bits 40 to 43): 22 stones, bucket 0.
        let black22 = 0b1111 << 40;
        // White to move: 0.25 + 2 = 2.25 -> 900; 4080 + 128 * 255 = 36720 -> 900.
        assert_eq!(net.evaluate(white, black22, Color::White), 900.0);
        assert_eq!(q.evaluate(white, black22, Color::White), 900);
        // Black to move: 0.25 - 1 = -0.75 -> -300; 4080 - 64 * 255 = -12240 -> -300.
        assert_eq!(net.evaluate(white, black22, Color::Black), -300.0);
        assert_eq!(q.evaluate(white, black22, Color::Black), -300);
        // The engine reads the file and evaluates the same positions alike.
        let engine = crate::nnue::Network::from_bytes(&q.to_bytes()).unwrap();
        assert_eq!(engine.buckets(), 2);
        for (fen, want) in [
            ("3BBBBB1/9/9/WWWWWWWWW/WWWWWWWWW w", 400),
            ("3BBBBB1/9/9/WWWWWWWWW/WWWWWWWWW b", 200),
            ("4BBBB1/9/9/WWWWWWWWW/WWWWWWWWW w", 900),
            ("4BBBB1/9/9/WWWWWWWWW/WWWWWWWWW b", -300),
        ] {
            assert_eq!(engine.evaluate(&pos(fen)), Some(want), "{fen}");
        }
    }

    #[test]
    fn bucketed_network_files_round_trip_and_damage_is_found() {
        let net = FloatNet::with_buckets(Variant::STANDARD, 4, 3, 400, 11).quantise();
        assert_eq!(net.buckets(), 3);
        let bytes = net.to_bytes();
        // 44 header bytes, (90 + 1) * 4 + 3 * 2 * 4 i16, 3 i32 and the checksum.
        assert_eq!(bytes.len(), 44 + 2 * (91 * 4 + 24) + 12 + 8);
        assert_eq!(&bytes[..8], b"FANNUE\x00\x03");
        assert_eq!(&bytes[..8], &NET_MAGIC_V3);
        // 5 ranks, 9 files, game 0, 90 inputs, 4 hidden; QA, QB, S; 3 buckets.
        assert_eq!(
            &bytes[8..28],
            &[5, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 90, 0, 0, 0, 4, 0, 0, 0]
        );
        assert_eq!(
            &bytes[28..44],
            &[255, 0, 0, 0, 64, 0, 0, 0, 144, 1, 0, 0, 3, 0, 0, 0]
        );
        assert_eq!(QuantNet::from_bytes(&bytes).unwrap(), net);
        let mut bad = bytes.clone();
        bad[300] ^= 1;
        assert_eq!(QuantNet::from_bytes(&bad), Err(NetError::Checksum));
        assert!(matches!(
            QuantNet::from_bytes(&bytes[..bytes.len() - 4]),
            Err(NetError::BadLength { .. })
        ));
        for b in [0u8, 17] {
            let mut bad = bytes.clone();
            bad[40] = b;
            assert_eq!(
                QuantNet::from_bytes(&bad),
                Err(NetError::BadHeader("output buckets", i64::from(b)))
            );
        }
        let mut bad = bytes.clone();
        bad[40] = 2;
        assert!(matches!(
            QuantNet::from_bytes(&bad),
            Err(NetError::BadLength { .. })
        ));
        // One bucket is the network of before, written as before.
        let one = FloatNet::with_buckets(Variant::STANDARD, 4, 1, 400, 11);
        assert_eq!(one, FloatNet::new(4, 400, 11));
        assert_eq!(&one.quantise().to_bytes()[..8], b"FANNUE\x00\x01");
    }

    #[test]
    fn the_engine_reads_bucketed_files_and_evaluates_alike() {
        // The most buckets, so that the synthetic positions (quiet ones of random games,
        // mostly of fewer than 23 stones) use many.
        let options = TrainOptions {
            buckets: MAX_BUCKETS,
            ..small_options()
        };
        let trained = train(&synthetic(1000, 5), &[], &options, |_| {});
        let q = trained.net.quantise();
        assert_eq!(q.buckets(), 16);
        let engine = crate::nnue::Network::from_bytes(&q.to_bytes()).unwrap();
        assert_eq!(engine.buckets(), 16);
        assert_eq!(engine.to_bytes(), q.to_bytes());
        assert_evaluates_alike(&engine, &q, Position::standard());
        // Positions of every stone count the random games reach, with their counters.
        let mut used = std::collections::BTreeSet::new();
        for r in synthetic(400, 9) {
            let p = r.position();
            let (num, den) = crate::eval::no_capture_scale(&p);
            let want = q.evaluate(r.white, r.black, r.side) * num / den;
            assert_eq!(engine.evaluate(&p), Some(want), "{p}");
            used.insert(output_bucket((r.white | r.black).count_ones(), 16, 45));
        }
        assert!(used.len() >= 5, "{used:?}");
    }

    #[test]
    fn training_with_four_buckets_is_deterministic_and_lowers_the_loss() {
        let data = synthetic(3000, 1);
        let valid = synthetic(500, 2);
        let options = TrainOptions {
            buckets: 4,
            ..small_options()
        };
        let start = FloatNet::with_buckets(Variant::STANDARD, 16, 4, 400, options.seed);
        let start_loss = loss(&start, &valid, &options);
        let a = train(&data, &valid, &options, |_| {});
        let b = train(&data, &valid, &options, |_| {});
        assert_eq!(a.net.buckets(), 4);
        assert_eq!(a.net.quantise().to_bytes(), b.net.quantise().to_bytes());
        let end = a.epochs.last().unwrap().valid_loss.unwrap();
        assert!(end < start_loss * 0.5, "{start_loss} -> {end}");
        // Not the one-bucket network.
        let one = train(&data, &valid, &small_options(), |_| {});
        assert_ne!(one.net.quantise().to_bytes(), a.net.quantise().to_bytes());
        // Only the sample's bucket learns: with positions of 11 stones or fewer only (bucket
        // 0 of 4: 11 * 4 / 45 = 0), the output weights of buckets 1 to 3 stay as drawn.
        let few: Vec<Record> = data
            .iter()
            .filter(|r| (r.white | r.black).count_ones() <= 11)
            .copied()
            .collect();
        assert!(few.len() > 100, "{}", few.len());
        let t = train(&few, &[], &options, |_| {});
        let h2 = 2 * 16;
        assert_ne!(t.net.w2[..h2], start.w2[..h2]);
        assert_ne!(t.net.b2[0], 0.0);
        assert_eq!(t.net.w2[h2..], start.w2[h2..]);
        assert_eq!(t.net.b2[1..], [0.0; 3]);
    }

    #[test]
    fn one_bucket_is_the_network_and_file_of_before() {
        // buckets: 1 (the default) trains the network of before: version 1 for the capture
        // game, version 2 for Vela, of the lengths of before.
        let data = synthetic(600, 6);
        let options = TrainOptions {
            buckets: 1,
            ..small_options()
        };
        assert_eq!(TrainOptions::default().buckets, 1);
        let bytes = train(&data, &[], &options, |_| {})
            .net
            .quantise()
            .to_bytes();
        assert_eq!(&bytes[..8], b"FANNUE\x00\x01");
        assert_eq!(bytes.len(), 36 + 2 * 93 * 16 + 4 + 8);
        let engine = crate::nnue::Network::from_bytes(&bytes).unwrap();
        assert_eq!(engine.buckets(), 1);
        assert_eq!(engine.to_bytes(), bytes);
        let vela = Variant::new(BoardSize::STANDARD, fanorona_core::GameKind::Vela).unwrap();
        let net = FloatNet::with_buckets(vela, 8, 1, 400, 3).quantise();
        let bytes = net.to_bytes();
        assert_eq!(&bytes[..8], b"FANNUE\x00\x02");
        assert_eq!(bytes.len(), 40 + 186 * 8 + 12);
        // With two buckets, Vela's file is version 3 too.
        let two = FloatNet::with_buckets(vela, 8, 2, 400, 3).quantise();
        let bytes = two.to_bytes();
        assert_eq!(&bytes[..8], b"FANNUE\x00\x03");
        assert_eq!(&bytes[16..20], &1u32.to_le_bytes());
        assert_eq!(QuantNet::from_bytes(&bytes).unwrap(), two);
        let engine = crate::nnue::Network::from_bytes(&bytes).unwrap();
        assert_eq!((engine.variant(), engine.buckets()), (vela, 2));
    }
}
