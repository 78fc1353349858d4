//! The compact form of the win/draw/loss tables, for distribution: each class's two-bit layer
//! (`RxC-SvO.fnwdl`) compressed by an adaptive binary range coder into `RxC-SvO.fnwdz`.
//!
//! Each entry (draw, win or loss for the side to move) is coded as up to two binary decisions
//! (draw or not; then win or loss), each with an adaptive probability chosen by the previous
//! three entries (27 contexts): long stretches of one value (a class almost all won) cost
//! nearly nothing, and no class costs much more than its two bits an entry. The coder is the
//! range coder of LZMA with 15-bit probabilities (LZMA has 11), adapted by a 32nd of the error. The format is
//! specified in [`docs/solver.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/solver.md) (*Compact win/draw/loss files*).
//!
//! [`compress_dir`] writes the compact file of every two-bit layer in a directory;
//! [`Tablebase::load_wdl`](super::tablebase::Tablebase::load_wdl) reads a compact file for
//! every class whose two-bit layer is not there, and [`expand_dir`] writes the two-bit layers
//! back (byte for byte the ones compressed).
//!
//! # Examples
//!
//! ```
//! use fanorona_ai::solve::{self, Budget, Value, compact, tablebase::Tablebase, tablegen};
//! use fanorona_core::{BoardSize, Position};
//!
//! let dir = std::env::temp_dir().join(format!("fanorona-compact-doc-{}", std::process::id()));
//! let options = tablegen::Options::new(BoardSize::STANDARD, solve::solver_rules(), 3);
//! tablegen::generate(&dir, &options, &Budget::default(), &mut |_| {}, &mut |_| {})?;
//! let files = compact::compress_dir(&dir)?;
//! let (two_bit, compact): (u64, u64) = files.iter().map(|f| (f.wdl_bytes, f.bytes)).fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
//! assert!(compact < two_bit);
//! // Keep only the compact files: the win/draw/loss tables still answer.
//! for entry in std::fs::read_dir(&dir)? {
//!     let path = entry?.path();
//!     if path.extension().is_some_and(|e| e != "fnwdz") {
//!         std::fs::remove_file(path)?;
//!     }
//! }
//! let tables = Tablebase::load_wdl(&dir)?;
//! let pos = Position::from_fen_with("9/9/4B4/9/2W6 w", solve::solver_rules())?;
//! assert_eq!(tables.probe_wdl(&pos), Some(Value::Win));
//! std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::Read;
use std::path::{Path, PathBuf};

use fanorona_core::BoardSize;

use super::tablebase::{
    TableError, WDL_EXTENSION, class_len, fnv1a, open_table_file, read_checked, read_wdl_file,
    wdl_file_name, write_wdl_file,
};

/// The magic bytes that open every compact win/draw/loss file.
pub const MAGIC: [u8; 8] = *b"FANOWDZ\n";
/// The version of the compact format written by this code.
pub const VERSION: u16 = 1;
/// The size of a compact file's header in bytes.
pub const HEADER_LEN: usize = 48;
/// The extension of compact files.
pub const EXTENSION: &str = "fnwdz";

/// Probabilities are 15-bit: `1 << 15` is certainty.
const PROB_BITS: u32 = 15;
const PROB_ONE: u16 = 1 << PROB_BITS;
/// Adaptation: a probability moves by a 32nd of its error after each decision.
const MOVE_BITS: u32 = 5;
/// The range is renormalised when it falls below 2^24.
const TOP: u32 = 1 << 24;
/// Contexts: the previous three entries, each 0, 1 or 2.
const CONTEXTS: usize = 27;

/// The adaptive probabilities of the model (of a 0 bit), two decisions a context.
struct Model {
    probs: [[u16; 2]; CONTEXTS],
    ctx: usize,
}

impl Model {
    fn new() -> Model {
        Model {
            probs: [[PROB_ONE / 2; 2]; CONTEXTS],
            ctx: 0,
        }
    }

    /// Moves the context on after entry `v`.
    fn push(&mut self, v: u8) {
        self.ctx = (self.ctx * 3 + usize::from(v)) % CONTEXTS;
    }
}

/// The range coder's encoder (LZMA's).
struct Encoder {
    low: u64,
    range: u32,
    cache: u8,
    cache_size: u64,
    out: Vec<u8>,
}

impl Encoder {
    fn new() -> Encoder {
        Encoder {
            low: 0,
            range: u32::MAX,
            cache: 0,
            cache_size: 1,
            out: Vec::new(),
        }
    }

    fn bit(&mut self, prob: &mut u16, bit: bool) {
        let bound = (self.range >> PROB_BITS) * u32::from(*prob);
        if bit {
            self.low += u64::from(bound);
            self.range -= bound;
            *prob -= *prob >> MOVE_BITS;
        } else {
            self.range = bound;
            *prob += (PROB_ONE - *prob) >> MOVE_BITS;
        }
        while self.range < TOP {
            self.range <<= 8;
            self.shift_low();
        }
    }

    fn shift_low(&mut self) {
        if self.low < 0xFF00_0000 || self.low >> 32 != 0 {
            let carry = (self.low >> 32) as u8;
            let mut byte = self.cache;
            loop {
                self.out.push(byte.wrapping_add(carry));
                byte = 0xFF;
                self.cache_size -= 1;
                if self.cache_size == 0 {
                    break;
                }
            }
            self.cache = (self.low >> 24) as u8;
        }
        self.cache_size += 1;
        self.low = (self.low & 0x00FF_FFFF) << 8;
    }

    fn finish(mut self) -> Vec<u8> {
        for _ in 0..5 {
            self.shift_low();
        }
        self.out
    }
}

/// The range coder's decoder. Reading past the end of the stream reads zeros (a damaged
/// stream decodes to wrong entries, which the checksum of the result catches; it never
/// fails otherwise).
struct Decoder<'a> {
    code: u32,
    range: u32,
    data: &'a [u8],
    at: usize,
}

impl<'a> Decoder<'a> {
    fn new(data: &'a [u8]) -> Decoder<'a> {
        let mut d = Decoder {
            code: 0,
            range: u32::MAX,
            data,
            at: 0,
        };
        for _ in 0..5 {
            d.code = (d.code << 8) | u32::from(d.next());
        }
        d
    }

    fn next(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    fn bit(&mut self, prob: &mut u16) -> bool {
        let bound = (self.range >> PROB_BITS) * u32::from(*prob);
        let bit = if self.code < bound {
            self.range = bound;
            *prob += (PROB_ONE - *prob) >> MOVE_BITS;
            false
        } else {
            self.code -= bound;
            self.range -= bound;
            *prob -= *prob >> MOVE_BITS;
            true
        };
        while self.range < TOP {
            self.range <<= 8;
            self.code = (self.code << 8) | u32::from(self.next());
        }
        bit
    }
}

/// Compresses a two-bit layer of `count` entries (`0` draw, `1` win, `2` loss).
pub(crate) fn compress(packed: &[u8], count: u64) -> Vec<u8> {
    let mut model = Model::new();
    let mut enc = Encoder::new();
    for i in 0..count {
        let v = packed[(i / 4) as usize] >> (2 * (i % 4)) & 3;
        let p = &mut model.probs[model.ctx];
        enc.bit(&mut p[0], v != 0);
        if v != 0 {
            enc.bit(&mut p[1], v == 2);
        }
        model.push(v);
    }
    enc.finish()
}

/// Decompresses `count` entries into a two-bit layer (memory reserved fallibly: `None` when
/// it cannot be had).
pub(crate) fn decompress(stream: &[u8], count: u64) -> Option<Vec<u8>> {
    let len = usize::try_from(count.div_ceil(4)).ok()?;
    let mut out = Vec::new();
    out.try_reserve_exact(len).ok()?;
    out.resize(len, 0);
    let mut model = Model::new();
    let mut dec = Decoder::new(stream);
    for i in 0..count {
        let p = &mut model.probs[model.ctx];
        let v = if !dec.bit(&mut p[0]) {
            0
        } else if dec.bit(&mut p[1]) {
            2
        } else {
            1
        };
        out[(i / 4) as usize] |= v << (2 * (i % 4));
        model.push(v);
    }
    Some(out)
}

/// The name of the compact file of a class.
pub(crate) fn file_name(size: BoardSize, stm: u8, opp: u8) -> String {
    format!("{}x{}-{stm}v{opp}.{EXTENSION}", size.rows(), size.cols())
}

/// One compact file written by [`compress_dir`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Compressed {
    /// The compact file.
    pub path: PathBuf,
    /// Bytes of the two-bit layer it was made from (its file, header included).
    pub wdl_bytes: u64,
    /// Bytes of the compact file.
    pub bytes: u64,
}

/// Writes beside every two-bit layer (`*.fnwdl`) in `dir` its compact form (`*.fnwdz`),
/// atomically, checking first that it decodes to the same layer; returns the files written.
///
/// # Errors
///
/// [`TableError::NoTables`] when `dir` holds no two-bit layer, [`TableError::Io`],
/// [`TableError::Format`] and [`TableError::Checksum`] as [`Tablebase::load_wdl`](super::tablebase::Tablebase::load_wdl).
pub fn compress_dir(dir: &Path) -> Result<Vec<Compressed>, TableError> {
    let mut out = Vec::new();
    for path in files_with(dir, WDL_EXTENSION)? {
        let (size, stm, opp, flags, packed) = read_wdl_file(&path)?;
        let count = class_len(size.len(), stm, opp);
        let stream = compress(&packed, count);
        if decompress(&stream, count).as_deref() != Some(&packed[..]) {
            return Err(TableError::Format {
                path,
                reason: "its compact form does not decode to it (a bug)".into(),
            });
        }
        let head = header(size, stm, opp, flags, count, &stream, &packed);
        let target = dir.join(file_name(size, stm, opp));
        let bytes = super::tablegen::write_atomic(&target, dir, &[&head, &stream])?;
        let wdl_bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
        out.push(Compressed {
            path: target,
            wdl_bytes,
            bytes,
        });
    }
    Ok(out)
}

/// Writes the two-bit layer (`*.fnwdl`) of every compact file (`*.fnwdz`) in `dir`,
/// atomically: byte for byte the layer that was compressed. Returns the files written.
///
/// # Errors
///
/// [`TableError::NoTables`] when `dir` holds no compact file; as [`compress_dir`].
pub fn expand_dir(dir: &Path) -> Result<Vec<PathBuf>, TableError> {
    let mut out = Vec::new();
    for path in files_with(dir, EXTENSION)? {
        let (size, stm, opp, flags, packed) = read_file(&path)?;
        write_wdl_file(dir, dir, size, stm, opp, flags, &packed)?;
        out.push(dir.join(wdl_file_name(size, stm, opp)));
    }
    Ok(out)
}

/// The files of `dir` with extension `ext`, sorted; at least one.
pub(crate) fn files_with(dir: &Path, ext: &str) -> Result<Vec<PathBuf>, TableError> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|error| TableError::Io {
            path: dir.to_owned(),
            error,
        })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    paths.sort();
    if paths.is_empty() {
        return Err(TableError::NoTables {
            dir: dir.to_owned(),
        });
    }
    Ok(paths)
}

fn header(
    size: BoardSize,
    stm: u8,
    opp: u8,
    flags: u8,
    count: u64,
    stream: &[u8],
    packed: &[u8],
) -> Vec<u8> {
    let mut h = Vec::with_capacity(HEADER_LEN);
    h.extend_from_slice(&MAGIC);
    h.extend_from_slice(&VERSION.to_le_bytes());
    h.extend_from_slice(&[size.rows(), size.cols(), stm, opp, flags, 0]);
    h.extend_from_slice(&count.to_le_bytes());
    h.extend_from_slice(&fnv1a(stream).to_le_bytes());
    h.extend_from_slice(&fnv1a(packed).to_le_bytes());
    h.extend_from_slice(&(stream.len() as u64).to_le_bytes());
    h
}

/// Reads a compact file and decodes it: board, class, rule flags and the two-bit layer. In
/// bounded work: only a regular file, the header checked first (board, class, count, the
/// stream's length against the file's), the stream's checksum, then the decoded layer's.
pub(crate) fn read_file(path: &Path) -> Result<(BoardSize, u8, u8, u8, Vec<u8>), TableError> {
    let io = |error| TableError::Io {
        path: path.to_owned(),
        error,
    };
    let bad = |reason: String| TableError::Format {
        path: path.to_owned(),
        reason,
    };
    let (mut file, file_len) = open_table_file(path, HEADER_LEN)?;
    let mut h = [0u8; HEADER_LEN];
    file.read_exact(&mut h).map_err(io)?;
    if h[..8] != MAGIC {
        return Err(bad("wrong magic bytes at offset 0".into()));
    }
    let version = u16::from_le_bytes([h[8], h[9]]);
    if version != VERSION {
        return Err(bad(format!(
            "format version {version} at offset 8, this program reads version {VERSION}"
        )));
    }
    let (rows, cols, stm, opp, flags, width) = (h[10], h[11], h[12], h[13], h[14], h[15]);
    let size = BoardSize::new(rows, cols).map_err(|e| bad(format!("board at offset 10: {e}")))?;
    if stm == 0 || opp == 0 || u32::from(stm) + u32::from(opp) > 8 {
        return Err(bad(format!(
            "material {stm}v{opp} at offset 12 is not a table class"
        )));
    }
    if usize::from(stm) + usize::from(opp) > size.len() {
        return Err(bad(format!(
            "material {stm}v{opp} at offset 12 does not fit the {size} board"
        )));
    }
    if flags > 3 {
        return Err(bad(format!("unknown rule flags {flags:#x} at offset 14")));
    }
    if width != 0 {
        return Err(bad(format!("entry width {width} at offset 15, expected 0")));
    }
    let word = |at: usize| u64::from_le_bytes(h[at..at + 8].try_into().expect("8 bytes"));
    let count = word(16);
    let expected = class_len(size.len(), stm, opp);
    if count != expected {
        return Err(bad(format!(
            "{count} entries at offset 16, class {stm}v{opp} on {size} has {expected}"
        )));
    }
    let (stream_sum, layer_sum, stream_len) = (word(24), word(32), word(40));
    if file_len - HEADER_LEN as u64 != stream_len {
        return Err(bad(format!(
            "{} bytes of stream after the header, offset 40 says {stream_len}",
            file_len - HEADER_LEN as u64
        )));
    }
    let stream = read_checked(&mut file, path, stream_len, stream_sum, "stream")?;
    let packed = decompress(&stream, count).ok_or_else(|| {
        io(std::io::Error::new(
            std::io::ErrorKind::OutOfMemory,
            format!(
                "cannot allocate {} bytes for the entries",
                count.div_ceil(4)
            ),
        ))
    })?;
    if fnv1a(&packed) != layer_sum {
        return Err(bad(
            "the decoded entries do not match the checksum at offset 32".into(),
        ));
    }
    Ok((size, stm, opp, flags, packed))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Packs entries (0, 1, 2) four a byte, as the two-bit layer's specification says.
    fn pack(v: &[u8]) -> Vec<u8> {
        let mut out = vec![0u8; v.len().div_ceil(4)];
        for (i, &x) in v.iter().enumerate() {
            out[i / 4] |= x << (2 * (i % 4));
        }
        out
    }

    #[test]
    fn round_trips_and_compresses_runs() {
        // A pseudo-random layer (a linear congruential sequence), a constant one and a
        // mostly constant one, of lengths that end inside a byte.
        let mut x = 12345u64;
        let random: Vec<u8> = (0..10_001)
            .map(|_| {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                ((x >> 33) % 3) as u8
            })
            .collect();
        let wins = vec![1u8; 100_003];
        let mostly: Vec<u8> = (0..50_002)
            .map(|i| if i % 997 == 0 { 2 } else { 1 })
            .collect();
        for v in [&random, &wins, &mostly, &vec![0u8; 1], &vec![]] {
            let packed = pack(v);
            let stream = compress(&packed, v.len() as u64);
            assert_eq!(decompress(&stream, v.len() as u64).unwrap(), packed);
        }
        // Uniform over three values: log2(3) = 1.585 bits an entry at best, at most 2.
        let r = compress(&pack(&random), random.len() as u64).len() as f64;
        assert!(r * 8.0 / 10_001.0 < 1.70, "{r}");
        // One value throughout: almost nothing.
        assert!(compress(&pack(&wins), wins.len() as u64).len() < 100);
    }
}
