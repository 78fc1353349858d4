//! The network file (format in [`docs/nnue.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/nnue.md)): parsing with typed errors, loading from a
//! file, and the quantized inference (accumulators and output layer).

use core::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

use fanorona_core::{Color, Position};

use super::variant::{MAX_POINTS, Variant, VariantError};

/// The eight bytes that open a network file of format version 1 (a network of the capture
/// game): `FANNUE`, then the version as the two bytes `0x00 0x01`.
pub const MAGIC: [u8; 8] = *b"FANNUE\x00\x01";
/// The eight bytes that open a network file of format version 2, whose header also names
/// the game (written for Vela's networks; see [`Network::to_bytes`]).
pub const MAGIC_V2: [u8; 8] = *b"FANNUE\x00\x02";
/// The eight bytes that open a network file of format version 3, whose output layer has
/// several sets of weights chosen by the number of stones on the board (output buckets; see
/// [`Network::buckets`] and [`Network::to_bytes`]).
pub const MAGIC_V3: [u8; 8] = *b"FANNUE\x00\x03";
/// The largest hidden layer a file may declare.
pub const MAX_HIDDEN: usize = 1024;
/// The most output buckets a file may declare.
pub const MAX_BUCKETS: usize = 16;
/// Version 1: magic, rows, cols, inputs, hidden, QA, QB, S.
const HEADER_LEN: usize = 8 + 4 * 4 + 3 * 4;
/// Version 2: magic, rows, cols, game, inputs, hidden, QA, QB, S.
const HEADER_LEN_V2: usize = HEADER_LEN + 4;
/// Version 3: version 2's header, then the output buckets `B`.
const HEADER_LEN_V3: usize = HEADER_LEN_V2 + 4;
/// The largest stone count there is (a board of at most 64 points): the bucket table has one
/// entry more.
const MAX_STONES: usize = 64;
/// The checksum at the end.
const CHECKSUM_LEN: usize = 8;
/// The accumulator lanes are processed in blocks of this many (two SSE2 registers of `i16`);
/// the hidden layer is padded with zero weights to a multiple of it.
const BLOCK: usize = 16;
/// The largest evaluation a network may give, in centi-stones (far below the win scores).
pub(crate) const EVAL_LIMIT: i64 = 20_000;

/// The size in bytes of a network file with a header of `header` bytes, `inputs` inputs,
/// `hidden` hidden units and `buckets` output buckets.
const fn file_len(header: usize, inputs: usize, hidden: usize, buckets: usize) -> usize {
    header + 2 * (inputs * hidden + hidden + buckets * 2 * hidden) + 4 * buckets + CHECKSUM_LEN
}

/// The longest network file there can be (version 3, the largest board, a hidden layer of
/// [`MAX_HIDDEN`], [`MAX_BUCKETS`] output buckets).
pub(crate) const MAX_FILE_LEN: usize =
    file_len(HEADER_LEN_V3, 2 * MAX_POINTS, MAX_HIDDEN, MAX_BUCKETS);

/// The output bucket of a position of `stones` stones (both sides') on a board of `points`
/// points, for a network of `buckets` buckets: `min(buckets - 1, stones * buckets / points)`.
const fn bucket_for(stones: usize, buckets: usize, points: usize) -> usize {
    let b = stones * buckets / points;
    if b < buckets { b } else { buckets - 1 }
}

/// FNV-1a, 64 bits.
pub(crate) fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Why a network file was refused.
#[derive(Debug)]
#[non_exhaustive]
pub enum NetworkError {
    /// The file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error.
        error: std::io::Error,
    },
    /// The path is not a regular file (a directory, a FIFO, a device): refused unread.
    NotRegular {
        /// The path.
        path: PathBuf,
        /// What it is instead.
        kind: &'static str,
    },
    /// The bytes do not start with `FANNUE`: not a network file.
    Magic,
    /// A network file of another format version than 1, 2 or 3.
    Version {
        /// The version found (bytes 7 and 8, big-endian).
        found: u16,
    },
    /// A network for a board there is none of (or Vela on another board than 5x9).
    Board {
        /// Ranks declared.
        rows: u32,
        /// Files declared.
        cols: u32,
    },
    /// A network for a game without networks (Fanoron-Telo) or an unknown game code.
    Game {
        /// The code declared.
        code: u32,
    },
    /// An input count other than twice the board's points.
    Inputs {
        /// The count declared.
        found: u32,
        /// Twice the points of the board declared.
        expected: u32,
    },
    /// A hidden layer size out of `1..=`[`MAX_HIDDEN`].
    Hidden {
        /// The size declared.
        found: u32,
    },
    /// A number of output buckets out of `1..=`[`MAX_BUCKETS`] (version 3).
    Buckets {
        /// The number declared.
        found: u32,
    },
    /// Quantization constants that are not positive (or QA above `i16::MAX`).
    Quantization {
        /// QA declared.
        qa: i32,
        /// QB declared.
        qb: i32,
        /// S declared.
        scale: i32,
    },
    /// The byte count does not match the sizes declared.
    Length {
        /// The bytes the header's sizes call for (at least the header when it is cut).
        expected: u64,
        /// The bytes there are.
        found: u64,
    },
    /// The checksum does not match the contents.
    Checksum {
        /// The checksum stored in the file.
        stored: u64,
        /// The checksum of the contents.
        computed: u64,
    },
    /// Weights so large that a sum could overflow the integer arithmetic.
    Range {
        /// What overflows: `"accumulator"` or `"output"`.
        layer: &'static str,
        /// The hidden unit (the first found) for the accumulator, the output bucket for the
        /// output.
        unit: usize,
    },
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            NetworkError::NotRegular { path, kind } => {
                write!(f, "{}: {kind}, not a regular file", path.display())
            }
            NetworkError::Magic => f.write_str("not a network file (no FANNUE magic)"),
            NetworkError::Version { found } => {
                write!(
                    f,
                    "network format version {found}, only versions 1, 2 and 3 are known"
                )
            }
            NetworkError::Board { rows, cols } => {
                write!(
                    f,
                    "a network for a {rows}x{cols} board, which there is no network for"
                )
            }
            NetworkError::Game { code } => write!(f, "{}", VariantError::Game { code: *code }),
            NetworkError::Inputs { found, expected } => {
                write!(f, "{found} inputs, expected {expected}")
            }
            NetworkError::Hidden { found } => {
                write!(f, "{found} hidden units, expected 1 to {MAX_HIDDEN}")
            }
            NetworkError::Buckets { found } => {
                write!(f, "{found} output buckets, expected 1 to {MAX_BUCKETS}")
            }
            NetworkError::Quantization { qa, qb, scale } => write!(
                f,
                "quantization QA {qa}, QB {qb}, S {scale}: each must be positive (QA at most 32767)"
            ),
            NetworkError::Length { expected, found } => {
                write!(f, "{found} bytes, expected {expected}")
            }
            NetworkError::Checksum { stored, computed } => write!(
                f,
                "checksum {stored:#018x} stored, {computed:#018x} computed: the file is damaged"
            ),
            NetworkError::Range { layer, unit } => write!(
                f,
                "weights too large: the {layer} sum of hidden unit {unit} could overflow"
            ),
        }
    }
}

impl std::error::Error for NetworkError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            NetworkError::Io { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// An evaluation network for one [`Variant`] (the standard 5x9 board's is embedded): twice
/// the board's points as inputs per perspective (90 on 5x9), one hidden layer of `H`
/// clipped-ReLU units per perspective (the same weights for both), and one output from both
/// halves, side to move first, by one of [`Network::buckets`] sets of output weights chosen
/// by the number of stones on the board. All arithmetic is in integers, so an evaluation is
/// exact and the same on every machine.
///
/// # Examples
///
/// ```
/// use fanorona_ai::nnue::Network;
/// use fanorona_core::Position;
///
/// let net = Network::embedded();
/// // The start is symmetric: the network sees the same stones from either side.
/// let start = Position::standard();
/// let white = net.evaluate(&start).expect("a 5x9 position");
/// assert_eq!(Some(white), net.evaluate(&start.null_move()));
/// // Any byte changed is caught by the checksum, every cut by the length.
/// let mut bytes = net.to_bytes();
/// bytes[100] ^= 1;
/// assert!(Network::from_bytes(&bytes).is_err());
/// assert!(Network::from_bytes(&net.to_bytes()[..50]).is_err());
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    variant: Variant,
    hidden: usize,
    qa: i16,
    qb: i32,
    scale: i32,
    /// Feature-major: the `hidden` weights of feature 0, then of feature 1, ...
    w1: Box<[i16]>,
    b1: Box<[i16]>,
    /// Per output bucket (bucket 0 first): the side to move's half, then the other half.
    w2: Box<[i16]>,
    /// Per output bucket.
    b2: Box<[i32]>,
    /// The number of output buckets.
    buckets: usize,
    /// The output bucket of each stone count, 0 to 64.
    bucket_of: [u8; MAX_STONES + 1],
    checksum: u64,
    /// `hidden` rounded up to a multiple of [`BLOCK`]: the lanes of one perspective's
    /// accumulator in the inference.
    lanes: usize,
    /// W1 with each feature's row padded to `lanes` by zeros.
    pw1: Box<[i16]>,
    /// b1 padded to `lanes` by zeros.
    pb1: Box<[i16]>,
    /// Each half of each bucket's w2 padded to `lanes` by zeros (the padded lanes add
    /// nothing): `2 * lanes` per bucket.
    pw2: Box<[i16]>,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field("variant", &self.variant)
            .field("hidden", &self.hidden)
            .field("buckets", &self.buckets)
            .field("qa", &self.qa)
            .field("qb", &self.qb)
            .field("scale", &self.scale)
            .field("checksum", &format_args!("{:#018x}", self.checksum))
            .finish_non_exhaustive()
    }
}

/// A little-endian reader over bytes whose length was checked before.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0; N];
        out.copy_from_slice(&self.bytes[self.at..self.at + N]);
        self.at += N;
        out
    }

    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }

    fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }

    fn i16s(&mut self, n: usize) -> Box<[i16]> {
        let out = self.bytes[self.at..self.at + 2 * n]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        self.at += 2 * n;
        out
    }
}

impl Network {
    /// Parses a network file's bytes, checking everything: magic, version, board and game,
    /// sizes, quantization, length, checksum, and that no sum can overflow.
    ///
    /// # Errors
    ///
    /// The [`NetworkError`] of the first problem found (never [`NetworkError::Io`] or
    /// [`NetworkError::NotRegular`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let found = bytes.len() as u64;
        if bytes.len() < 8 {
            return Err(NetworkError::Length {
                expected: HEADER_LEN as u64,
                found,
            });
        }
        if bytes[..6] != MAGIC[..6] {
            return Err(NetworkError::Magic);
        }
        let version = u16::from_be_bytes([bytes[6], bytes[7]]);
        let header = match version {
            1 => HEADER_LEN,
            2 => HEADER_LEN_V2,
            3 => HEADER_LEN_V3,
            found => return Err(NetworkError::Version { found }),
        };
        if bytes.len() < header {
            return Err(NetworkError::Length {
                expected: header as u64,
                found,
            });
        }
        let mut c = Cursor { bytes, at: 8 };
        let (rows, cols) = (c.u32(), c.u32());
        let game = if version >= 2 { c.u32() } else { 0 };
        let variant = Variant::from_codes(rows, cols, game).map_err(|e| match e {
            VariantError::Game { code } => NetworkError::Game { code },
            _ => NetworkError::Board { rows, cols },
        })?;
        let inputs = c.u32();
        if inputs as usize != variant.inputs() {
            return Err(NetworkError::Inputs {
                found: inputs,
                expected: variant.inputs() as u32,
            });
        }
        let hidden_raw = c.u32();
        let hidden = hidden_raw as usize;
        if !(1..=MAX_HIDDEN).contains(&hidden) {
            return Err(NetworkError::Hidden { found: hidden_raw });
        }
        let (qa, qb, scale) = (c.i32(), c.i32(), c.i32());
        if qa <= 0 || qa > i32::from(i16::MAX) || qb <= 0 || scale <= 0 {
            return Err(NetworkError::Quantization { qa, qb, scale });
        }
        let buckets_raw = if version == 3 { c.u32() } else { 1 };
        let buckets = buckets_raw as usize;
        if !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(NetworkError::Buckets { found: buckets_raw });
        }
        let expected = file_len(header, variant.inputs(), hidden, buckets);
        if bytes.len() != expected {
            return Err(NetworkError::Length {
                expected: expected as u64,
                found,
            });
        }
        let body = expected - CHECKSUM_LEN;
        let stored = u64::from_le_bytes(bytes[body..].try_into().unwrap_or([0; 8]));
        let computed = fnv1a64(&bytes[..body]);
        if stored != computed {
            return Err(NetworkError::Checksum { stored, computed });
        }
        let w1 = c.i16s(variant.inputs() * hidden);
        let b1 = c.i16s(hidden);
        let w2 = c.i16s(buckets * 2 * hidden);
        let b2 = (0..buckets).map(|_| c.i32()).collect();
        let net = Network::with_padding(
            variant, hidden, qa as i16, qb, scale, w1, b1, w2, b2, computed,
        );
        net.check_ranges()?;
        Ok(net)
    }

    /// The network with its padded copies for the inference.
    #[allow(clippy::too_many_arguments)]
    fn with_padding(
        variant: Variant,
        hidden: usize,
        qa: i16,
        qb: i32,
        scale: i32,
        w1: Box<[i16]>,
        b1: Box<[i16]>,
        w2: Box<[i16]>,
        b2: Box<[i32]>,
        checksum: u64,
    ) -> Network {
        let buckets = b2.len();
        let points = variant.points();
        let mut bucket_of = [0; MAX_STONES + 1];
        for (stones, b) in bucket_of.iter_mut().enumerate() {
            // At most MAX_BUCKETS - 1: fits a byte.
            *b = bucket_for(stones, buckets, points) as u8;
        }
        let lanes = hidden.div_ceil(BLOCK) * BLOCK;
        let pad = |rows: &[i16]| -> Box<[i16]> {
            rows.chunks_exact(hidden)
                .flat_map(|row| {
                    row.iter()
                        .copied()
                        .chain(std::iter::repeat_n(0, lanes - hidden))
                })
                .collect()
        };
        let (pw1, pb1, pw2) = (pad(&w1), pad(&b1), pad(&w2));
        Network {
            variant,
            hidden,
            qa,
            qb,
            scale,
            w1,
            b1,
            w2,
            b2,
            buckets,
            bucket_of,
            checksum,
            lanes,
            pw1,
            pb1,
            pw2,
        }
    }

    /// Refuses weights whose sums could overflow: an accumulator (its bias and, per point, the
    /// larger of the point's two weights, in absolute value) must fit an `i16`, and each
    /// bucket's output (its `|b2|` plus `QA` times every `|w2|` of the bucket) an `i32`.
    fn check_ranges(&self) -> Result<(), NetworkError> {
        let h = self.hidden;
        let points = self.variant.points();
        for j in 0..h {
            let mut bound = i64::from(self.b1[j]).abs();
            for p in 0..points {
                let own = i64::from(self.w1[p * h + j]).abs();
                let other = i64::from(self.w1[(points + p) * h + j]).abs();
                bound += own.max(other);
            }
            if bound > i64::from(i16::MAX) {
                return Err(NetworkError::Range {
                    layer: "accumulator",
                    unit: j,
                });
            }
        }
        for (bucket, (&b2, w2)) in self.b2.iter().zip(self.w2.chunks_exact(2 * h)).enumerate() {
            let out = i64::from(b2).abs()
                + w2.iter()
                    .map(|&w| i64::from(w).abs() * i64::from(self.qa))
                    .sum::<i64>();
            if out > i64::from(i32::MAX) {
                return Err(NetworkError::Range {
                    layer: "output",
                    unit: bucket,
                });
            }
        }
        Ok(())
    }

    /// Loads a network file. Only a regular file is read, and only when its size is at most
    /// that of the largest network, so a wrong path can neither hang nor exhaust memory.
    ///
    /// # Errors
    ///
    /// [`NetworkError::Io`] or [`NetworkError::NotRegular`] for the file, the others (see
    /// [`Network::from_bytes`]) for its contents.
    pub fn load(path: impl AsRef<Path>) -> Result<Network, NetworkError> {
        let path = path.as_ref();
        let io = |error| NetworkError::Io {
            path: path.to_owned(),
            error,
        };
        let not_regular = |t: std::fs::FileType| NetworkError::NotRegular {
            path: path.to_owned(),
            kind: crate::solve::tablebase::file_kind(t),
        };
        let meta = std::fs::metadata(path).map_err(io)?;
        if !meta.is_file() {
            return Err(not_regular(meta.file_type()));
        }
        let file = crate::solve::tablebase::open_nonblocking(path).map_err(io)?;
        // The file opened may not be the one looked at: ask the open file itself.
        let meta = file.metadata().map_err(io)?;
        if !meta.is_file() {
            return Err(not_regular(meta.file_type()));
        }
        if meta.len() > MAX_FILE_LEN as u64 {
            return Err(NetworkError::Length {
                expected: MAX_FILE_LEN as u64,
                found: meta.len(),
            });
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        // One byte more than the largest network: a file that grew after the check is caught
        // by the length test of the parser.
        file.take(MAX_FILE_LEN as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        Network::from_bytes(&bytes)
    }

    /// The network built into the engine for the standard 5x9 capture game
    /// (`crates/fanorona-ai/nets/`, see [`docs/engine.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/engine.md)); the networks of the other
    /// variants are [`Network::embedded_for`] and [`Network::embedded_all`].
    pub fn embedded() -> std::sync::Arc<Network> {
        // The standard game's network is always embedded (the unit tests check it).
        Network::embedded_for(Variant::STANDARD).expect("the standard network is embedded")
    }

    /// The network built into the engine for `variant`, if it has one.
    ///
    /// ```
    /// use fanorona_ai::nnue::{Network, Variant};
    ///
    /// assert!(Network::embedded_for(Variant::STANDARD).is_some());
    /// ```
    pub fn embedded_for(variant: Variant) -> Option<std::sync::Arc<Network>> {
        Network::embedded_all()
            .iter()
            .find(|n| n.variant() == variant)
            .cloned()
    }

    /// Every network built into the engine, one per variant (the standard game's first): a
    /// new [`crate::Searcher`] evaluates with these when
    /// [`NNUE_BY_DEFAULT`](super::NNUE_BY_DEFAULT) says so.
    pub fn embedded_all() -> &'static [std::sync::Arc<Network>] {
        static NETS: std::sync::OnceLock<Vec<std::sync::Arc<Network>>> = std::sync::OnceLock::new();
        NETS.get_or_init(|| {
            super::EMBEDDED_NETS
                .iter()
                .map(|bytes| {
                    // The embedded bytes are checked by the unit tests: they always parse.
                    std::sync::Arc::new(
                        Network::from_bytes(bytes).expect("an embedded network is valid"),
                    )
                })
                .collect()
        })
    }

    /// The file's bytes, as [`Network::from_bytes`] reads them: format version 1 for a
    /// network of the capture game (so that such a file reads as before), version 2, with the
    /// game in the header, for Vela's; version 3 (the game and the number of buckets in the
    /// header) for a network of more than one output bucket, whatever its game.
    pub fn to_bytes(&self) -> Vec<u8> {
        let v = self.variant;
        let bucketed = self.buckets > 1;
        let capture = v.game_code() == 0 && !bucketed;
        let (magic, header) = match (bucketed, capture) {
            (true, _) => (&MAGIC_V3, HEADER_LEN_V3),
            (false, true) => (&MAGIC, HEADER_LEN),
            (false, false) => (&MAGIC_V2, HEADER_LEN_V2),
        };
        let mut out = Vec::with_capacity(file_len(header, v.inputs(), self.hidden, self.buckets));
        out.extend_from_slice(magic);
        let (rows, cols) = (u32::from(v.size().rows()), u32::from(v.size().cols()));
        let game = (!capture).then_some(v.game_code());
        for x in [
            Some(rows),
            Some(cols),
            game,
            Some(v.inputs() as u32),
            Some(self.hidden as u32),
        ]
        .into_iter()
        .flatten()
        {
            out.extend_from_slice(&x.to_le_bytes());
        }
        for v in [i32::from(self.qa), self.qb, self.scale] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        if bucketed {
            out.extend_from_slice(&(self.buckets as u32).to_le_bytes());
        }
        for v in self.w1.iter().chain(&*self.b1).chain(&*self.w2) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in &self.b2 {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let sum = fnv1a64(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// The number of hidden units per perspective.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The number of output buckets `B` (1 to [`MAX_BUCKETS`]; 1 for the files of versions 1
    /// and 2): the sets of output weights, of which a position of `stones` stones (both
    /// sides') on a board of `points` points uses set `min(B - 1, stones * B / points)`.
    ///
    /// ```
    /// use fanorona_ai::nnue::Network;
    ///
    /// assert_eq!(Network::embedded().buckets(), 1);
    /// ```
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// The output bucket of `pos` (0 for a network of one bucket).
    #[inline]
    fn bucket(&self, pos: &Position) -> usize {
        if self.buckets == 1 {
            return 0;
        }
        let [white, black] = stones_of(pos);
        let stones = (white.count_ones() + black.count_ones()) as usize;
        usize::from(self.bucket_of[stones.min(MAX_STONES)])
    }

    /// The file's checksum: it names the network.
    pub fn checksum(&self) -> u64 {
        self.checksum
    }

    /// The board and game the network evaluates.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Whether the network can evaluate `pos`: a position of its [`Variant`] (its board, its
    /// game, the standard rule options).
    pub fn covers(&self, pos: &Position) -> bool {
        Variant::of(pos) == Some(self.variant)
    }

    /// The network's evaluation of `pos` in centi-stones from the side to move's view, with
    /// the no-capture factor of the hand evaluation applied (as the search uses it); `None`
    /// for a position the network does not cover ([`Network::covers`]).
    pub fn evaluate(&self, pos: &Position) -> Option<i32> {
        if !self.covers(pos) {
            return None;
        }
        let mut acc = vec![0i16; 2 * self.lanes];
        self.refresh(stones_of(pos), &mut acc);
        Some(self.finish(pos, &acc))
    }

    /// The output of the accumulators `acc` (White's perspective, then Black's) for `pos`'s
    /// side to move, scaled to centi-stones and by the no-capture factor.
    #[inline]
    pub(crate) fn finish(&self, pos: &Position, acc: &[i16]) -> i32 {
        let cp = self.output(acc, pos.side_to_move(), self.bucket(pos));
        let (num, den) = crate::eval::no_capture_scale(pos);
        cp * num / den
    }

    /// The lanes of one perspective's accumulator (the hidden units padded to a multiple of
    /// 16): an accumulator slice of [`Network::refresh`] and [`Network::update`] holds twice
    /// as many.
    #[inline]
    pub(crate) fn lanes(&self) -> usize {
        self.lanes
    }

    /// The network's output in centi-stones (clamped to the evaluation range) from
    /// `stm`'s view, from the accumulators `acc` (White's perspective, then Black's), by the
    /// output weights of `bucket` (below [`Network::buckets`]).
    #[inline]
    pub(crate) fn output(&self, acc: &[i16], stm: Color, bucket: usize) -> i32 {
        let (white, black) = acc.split_at(self.lanes);
        let (us, them) = match stm {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        let lanes = self.lanes;
        let (w_us, w_them) = self.pw2[bucket * 2 * lanes..][..2 * lanes].split_at(lanes);
        let out = self.b2[bucket]
            .wrapping_add(dot_clipped(us, w_us, self.qa))
            .wrapping_add(dot_clipped(them, w_them, self.qa));
        let cp = i64::from(out) * i64::from(self.scale) / (i64::from(self.qa) * i64::from(self.qb));
        cp.clamp(-EVAL_LIMIT, EVAL_LIMIT) as i32
    }

    /// Sets `acc` (2 * lanes: White's perspective, then Black's) to the accumulators of the
    /// stones `stones` (White's, Black's bits).
    pub(crate) fn refresh(&self, stones: [u64; 2], acc: &mut [i16]) {
        let points = self.variant.points();
        let mut plus = Features::default();
        for (c, &bits) in stones.iter().enumerate() {
            plus.push_all(c, bits, points);
        }
        let (white, black) = acc.split_at_mut(self.lanes);
        white.copy_from_slice(&self.pb1);
        black.copy_from_slice(&self.pb1);
        self.apply(white, black, &Features::default(), &plus);
    }

    /// Updates `acc` from the stones `from` to the stones `to` (each White's, Black's bits):
    /// the rows of the removed stones subtracted, those of the added stones added. The lanes
    /// wrap on overflow, so the order does not matter: the result is exact, since the loading
    /// checked that every accumulator fits.
    pub(crate) fn update(&self, from: [u64; 2], to: [u64; 2], acc: &mut [i16]) {
        let points = self.variant.points();
        let (mut minus, mut plus) = (Features::default(), Features::default());
        for c in 0..2 {
            minus.push_all(c, from[c] & !to[c], points);
            plus.push_all(c, to[c] & !from[c], points);
        }
        let (white, black) = acc.split_at_mut(self.lanes);
        self.apply(white, black, &minus, &plus);
    }

    /// Subtracts the rows of `minus` and adds those of `plus`, block by block, so that each
    /// block of the accumulators is loaded and stored once.
    #[inline]
    fn apply(&self, white: &mut [i16], black: &mut [i16], minus: &Features, plus: &Features) {
        let lanes = self.lanes;
        for (b, (wb, bb)) in white
            .chunks_exact_mut(BLOCK)
            .zip(black.chunks_exact_mut(BLOCK))
            .enumerate()
        {
            let at = b * BLOCK;
            let mut w = [0i16; BLOCK];
            let mut k = [0i16; BLOCK];
            w.copy_from_slice(wb);
            k.copy_from_slice(bb);
            for &(fw, fb) in minus.list() {
                let rw = &self.pw1[fw as usize * lanes + at..][..BLOCK];
                let rb = &self.pw1[fb as usize * lanes + at..][..BLOCK];
                for j in 0..BLOCK {
                    w[j] = w[j].wrapping_sub(rw[j]);
                    k[j] = k[j].wrapping_sub(rb[j]);
                }
            }
            for &(fw, fb) in plus.list() {
                let rw = &self.pw1[fw as usize * lanes + at..][..BLOCK];
                let rb = &self.pw1[fb as usize * lanes + at..][..BLOCK];
                for j in 0..BLOCK {
                    w[j] = w[j].wrapping_add(rw[j]);
                    k[j] = k[j].wrapping_add(rb[j]);
                }
            }
            wb.copy_from_slice(&w);
            bb.copy_from_slice(&k);
        }
    }

    /// Builds a network of one output bucket from its parts (tests and constructions).
    #[cfg(test)]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn from_parts(
        variant: Variant,
        hidden: usize,
        qa: i32,
        qb: i32,
        scale: i32,
        w1: Vec<i16>,
        b1: Vec<i16>,
        w2: Vec<i16>,
        b2: i32,
    ) -> Result<Network, NetworkError> {
        Network::from_bucket_parts(variant, hidden, qa, qb, scale, w1, b1, w2, vec![b2])
    }

    /// Builds a network from its parts (tests and constructions): `w2` holds `2 * hidden`
    /// weights per bucket, `b2` one bias per bucket.
    #[cfg(test)]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn from_bucket_parts(
        variant: Variant,
        hidden: usize,
        qa: i32,
        qb: i32,
        scale: i32,
        w1: Vec<i16>,
        b1: Vec<i16>,
        w2: Vec<i16>,
        b2: Vec<i32>,
    ) -> Result<Network, NetworkError> {
        assert_eq!(w1.len(), variant.inputs() * hidden);
        assert_eq!(b1.len(), hidden);
        assert_eq!(w2.len(), b2.len() * 2 * hidden);
        let net = Network::with_padding(
            variant,
            hidden,
            qa as i16,
            qb,
            scale,
            w1.into(),
            b1.into(),
            w2.into(),
            b2.into(),
            0,
        );
        Network::from_bytes(&net.to_bytes())
    }

    /// The weights, for reference implementations in tests: (w1, b1, w2, b2, qa, qb, s), w2
    /// and b2 of every bucket.
    #[cfg(test)]
    #[allow(clippy::type_complexity)]
    pub(crate) fn parts(&self) -> (&[i16], &[i16], &[i16], &[i32], i32, i32, i32) {
        (
            &self.w1,
            &self.b1,
            &self.w2,
            &self.b2,
            i32::from(self.qa),
            self.qb,
            self.scale,
        )
    }
}

/// White's and Black's stones of `pos` as bits (the point index is the bit).
#[inline]
pub(crate) fn stones_of(pos: &Position) -> [u64; 2] {
    [
        pos.stones(Color::White).bits(),
        pos.stones(Color::Black).bits(),
    ]
}

/// The features of some stones in both perspectives (at most one per point).
struct Features {
    list: [(u8, u8); MAX_POINTS],
    len: usize,
}

impl Default for Features {
    fn default() -> Features {
        Features {
            list: [(0, 0); MAX_POINTS],
            len: 0,
        }
    }
}

impl Features {
    /// Adds the features of colour `c`'s (0 White, 1 Black) stones on the points of `bits`,
    /// on a board of `points` points.
    #[inline]
    fn push_all(&mut self, c: usize, bits: u64, points: usize) {
        // Only the board's points: the stones of a position always are, and a stray bit
        // must not index beyond the weights.
        let mut b = bits & (u64::MAX >> (64 - points));
        while b != 0 && self.len < MAX_POINTS {
            let p = b.trailing_zeros() as usize;
            b &= b - 1;
            self.list[self.len] = features(c, p, points);
            self.len += 1;
        }
    }

    fn list(&self) -> &[(u8, u8)] {
        &self.list[..self.len]
    }
}

/// The features of a stone of colour `c` (0 White, 1 Black) on point `p` of a board of
/// `points` points: in White's perspective and in Black's (whose board is turned by 180
/// degrees).
#[inline]
fn features(c: usize, p: usize, points: usize) -> (u8, u8) {
    let turned = points - 1 - p;
    let (w, b) = if c == 0 {
        (p, points + turned)
    } else {
        (points + p, turned)
    };
    (w as u8, b as u8)
}

/// `sum_j w[j] * clamp(acc[j], 0, qa)` (cannot overflow: checked at loading), one block of
/// 16 lanes at a time; the sum wraps, so its order does not change the result.
///
/// The clamped block goes through [`std::hint::black_box`] on purpose: the compiler then no
/// longer knows that the clamped lanes are non-negative, and multiplies them as signed 16-bit
/// lanes with SSE2's `pmaddwd` (8 lanes per instruction). Knowing it, it widens each lane to
/// 32 bits and emulates 32-bit multiplies, which made this function a quarter of the search's
/// time.
#[inline]
fn dot_clipped(acc: &[i16], w: &[i16], qa: i16) -> i32 {
    let mut sum = 0i32;
    for (a, w) in acc.chunks_exact(BLOCK).zip(w.chunks_exact(BLOCK)) {
        let mut clipped = [0i16; BLOCK];
        for (c, &a) in clipped.iter_mut().zip(a) {
            *c = a.clamp(0, qa);
        }
        let clipped = std::hint::black_box(clipped);
        sum = clipped.iter().zip(w).fold(sum, |s, (&c, &w)| {
            s.wrapping_add(i32::from(c) * i32::from(w))
        });
    }
    sum
}
