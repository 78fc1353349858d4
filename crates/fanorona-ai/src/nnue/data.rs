//! Training data for the NNUE evaluation: quiet positions of played games, each labelled with
//! the score of a search and the game's result.
//!
//! A data file is a header and fixed-size records of 24 bytes, all little-endian (specified
//! in [`docs/nnue.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/nnue.md)). Version 1 holds positions of the standard game on 5x9; version 2
//! names the [`Variant`] (board and game) in its header:
//!
//! ```text
//! header:  8 bytes magic b"FANDATA\0", u32 version (1 or 2), u32 record size (24);
//!          version 2 only: u32 ranks, u32 files, u32 game (0 capture, 1 Vela)
//! record:  u64 white stones, u64 black stones (bit i = point i, i = rank * files + file),
//!          u8 side to move (0 White, 1 Black), u8 result for the side to move
//!          (0 loss, 1 draw, 2 win), u16 turns without capture, i16 score (centi-stones,
//!          side to move's view, within +-3000), 2 bytes reserved (0)
//! ```
//!
//! The records are made by [`label_game`] (`fanorona nnue label`), read by [`read_records`]
//! and learnt from by [`crate::nnue::train`].
//!
//! # Examples
//!
//! ```
//! use fanorona_ai::nnue::data::{self, Record, Wdl};
//! use fanorona_core::Position;
//!
//! let pos = Position::standard().play(&Position::standard().parse_turn("f2-e3A")?)?;
//! let record = Record::new(&pos, -180, Wdl::Draw).expect("a 5x9 position");
//! let mut file = Vec::new();
//! data::write_header(&mut file, record.variant)?;
//! file.extend_from_slice(&record.to_bytes());
//! assert_eq!(file.len(), data::HEADER_SIZE + data::RECORD_SIZE);
//! assert_eq!(data::read_records(&file[..])?, vec![record]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;
use std::io::{self, Read, Write};
use std::sync::atomic::AtomicBool;

use fanorona_core::{Bitboard, Color, Game, Position, Setup};

use super::Variant;
use crate::{Limits, Score, SearchOptions, Searcher};

/// The first 8 bytes of a data file.
pub const MAGIC: [u8; 8] = *b"FANDATA\0";
/// The format's version of the standard game's files, after the magic (see
/// [`write_header`]).
pub const VERSION: u32 = 1;
/// The format's version whose header also names the board and game.
pub const VERSION_2: u32 = 2;
/// Bytes of a version 1 header: magic, version, record size.
pub const HEADER_SIZE: usize = 16;
/// Bytes of a version 2 header: those of version 1, then ranks, files and game.
pub const HEADER_SIZE_2: usize = HEADER_SIZE + 12;
/// Bytes of one record.
pub const RECORD_SIZE: usize = 24;
/// Scores are clamped to this many centi-stones either way; forced wins and losses score it.
pub const SCORE_LIMIT: i16 = 3000;

/// A game's result for one side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Wdl {
    /// Lost (stored as 0).
    Loss,
    /// Drawn (stored as 1).
    Draw,
    /// Won (stored as 2).
    Win,
}

impl Wdl {
    /// The result as a score: 0, 1/2 or 1.
    pub fn score(self) -> f64 {
        match self {
            Wdl::Loss => 0.0,
            Wdl::Draw => 0.5,
            Wdl::Win => 1.0,
        }
    }

    /// The result for the other side.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }

    fn byte(self) -> u8 {
        match self {
            Wdl::Loss => 0,
            Wdl::Draw => 1,
            Wdl::Win => 2,
        }
    }
}

/// One labelled position of a [`Variant`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub struct Record {
    /// The board and game (in a file, the header's).
    pub variant: Variant,
    /// White's stones, bit `rank * files + file`.
    pub white: u64,
    /// Black's stones.
    pub black: u64,
    /// The side to move.
    pub side: Color,
    /// The game's result for the side to move.
    pub result: Wdl,
    /// Turns played without a capture before this position.
    pub no_capture: u16,
    /// The search score in centi-stones from the side to move's view, within
    /// `-SCORE_LIMIT..=SCORE_LIMIT`.
    pub score: i16,
}

impl Record {
    /// The record of `pos` with `score` (clamped to [`SCORE_LIMIT`]) and the result for the
    /// side to move; `None` when `pos` is of no [`Variant`] (another rule option than the
    /// standard ones, or Fanoron-Telo).
    pub fn new(pos: &Position, score: i32, result: Wdl) -> Option<Record> {
        Variant::of(pos).map(|variant| Record {
            variant,
            white: pos.stones(Color::White).bits(),
            black: pos.stones(Color::Black).bits(),
            side: pos.side_to_move(),
            result,
            no_capture: pos.no_capture_count(),
            score: score.clamp(-i32::from(SCORE_LIMIT), i32::from(SCORE_LIMIT)) as i16,
        })
    }

    /// The 24 bytes of the record.
    pub fn to_bytes(&self) -> [u8; RECORD_SIZE] {
        let mut b = [0u8; RECORD_SIZE];
        b[0..8].copy_from_slice(&self.white.to_le_bytes());
        b[8..16].copy_from_slice(&self.black.to_le_bytes());
        b[16] = match self.side {
            Color::White => 0,
            Color::Black => 1,
        };
        b[17] = self.result.byte();
        b[18..20].copy_from_slice(&self.no_capture.to_le_bytes());
        b[20..22].copy_from_slice(&self.score.to_le_bytes());
        b
    }

    /// Reads a record of `variant` (the file header's) from its 24 bytes, checking every
    /// field.
    ///
    /// # Errors
    ///
    /// [`DataErrorKind::BadRecord`] (with index 0) saying which field is wrong.
    pub fn from_bytes(b: &[u8; RECORD_SIZE], variant: Variant) -> Result<Record, DataError> {
        let bad = |what: &'static str| DataError {
            offset: 0,
            record: Some(0),
            kind: DataErrorKind::BadRecord(what),
        };
        let word = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        let (white, black) = (word(0), word(8));
        if (white | black)
            .checked_shr(variant.points() as u32)
            .unwrap_or(0)
            != 0
        {
            return Err(bad("a stone off the board"));
        }
        if white & black != 0 {
            return Err(bad("a point with two stones"));
        }
        let side = match b[16] {
            0 => Color::White,
            1 => Color::Black,
            _ => return Err(bad("side to move not 0 or 1")),
        };
        let result = match b[17] {
            0 => Wdl::Loss,
            1 => Wdl::Draw,
            2 => Wdl::Win,
            _ => return Err(bad("result not 0, 1 or 2")),
        };
        let no_capture = u16::from_le_bytes([b[18], b[19]]);
        let score = i16::from_le_bytes([b[20], b[21]]);
        if !(-SCORE_LIMIT..=SCORE_LIMIT).contains(&score) {
            return Err(bad("score beyond +-3000"));
        }
        if b[22] != 0 || b[23] != 0 {
            return Err(bad("reserved bytes not 0"));
        }
        Ok(Record {
            variant,
            white,
            black,
            side,
            result,
            no_capture,
            score,
        })
    }

    /// The position under its variant's rules (the turn number, which records do not keep, is
    /// set past the opening).
    pub fn position(&self) -> Position {
        let mut setup = Setup::empty(self.variant.size());
        setup.white = Bitboard::from_bits(self.white);
        setup.black = Bitboard::from_bits(self.black);
        setup.side_to_move = self.side;
        setup.no_capture_count = self.no_capture;
        setup.turn_number = 2;
        Position::from_setup(setup, self.variant.rules()).expect("checked stones on the board")
    }
}

/// What is wrong with a data file.
#[derive(Debug)]
#[non_exhaustive]
pub enum DataErrorKind {
    /// The file could not be read.
    Io(io::Error),
    /// The header is not that of a data file (wrong magic, version or record size, a board or
    /// game there are no networks for).
    BadHeader(&'static str),
    /// The file ends inside a record (or inside the header).
    Truncated,
    /// A record with a field out of range: which one.
    BadRecord(&'static str),
}

/// An error reading a data file, with where it is.
#[derive(Debug)]
#[non_exhaustive]
pub struct DataError {
    /// Byte offset in the file of the header or the record at fault.
    pub offset: u64,
    /// The record at fault, counted from 0, when it is one.
    pub record: Option<u64>,
    /// What is wrong.
    pub kind: DataErrorKind,
}

impl fmt::Display for DataError {
    /// `record 7 (byte 184): side to move not 0 or 1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.record {
            Some(r) => write!(f, "record {r} (byte {}): ", self.offset)?,
            None => write!(f, "byte {}: ", self.offset)?,
        }
        match &self.kind {
            DataErrorKind::Io(e) => write!(f, "cannot read: {e}"),
            DataErrorKind::BadHeader(what) => write!(f, "not an NNUE data file: {what}"),
            DataErrorKind::Truncated => write!(f, "the file ends inside a record"),
            DataErrorKind::BadRecord(what) => write!(f, "bad record: {what}"),
        }
    }
}

impl std::error::Error for DataError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            DataErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }
}

/// Writes the header of a data file of `variant`'s records: version 1 (16 bytes) for the
/// standard game, so that its files read as before, version 2 (28 bytes, with the board and
/// game) for the others.
///
/// # Errors
///
/// Those of `out`.
pub fn write_header(mut out: impl Write, variant: Variant) -> io::Result<()> {
    out.write_all(&MAGIC)?;
    let standard = variant == Variant::STANDARD;
    let version = if standard { VERSION } else { VERSION_2 };
    out.write_all(&version.to_le_bytes())?;
    out.write_all(&(RECORD_SIZE as u32).to_le_bytes())?;
    if !standard {
        for x in [
            u32::from(variant.size().rows()),
            u32::from(variant.size().cols()),
            variant.game_code(),
        ] {
            out.write_all(&x.to_le_bytes())?;
        }
    }
    Ok(())
}

/// The size of the header [`write_header`] writes for `variant`.
pub fn header_size(variant: Variant) -> usize {
    if variant == Variant::STANDARD {
        HEADER_SIZE
    } else {
        HEADER_SIZE_2
    }
}

/// Fills `buf` as far as the input goes; returns the bytes read.
fn read_full(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match input.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// Reads a whole data file: its header and every record, each checked; the records carry
/// the header's [`Variant`] (an empty file's is [`read_variant`]'s).
///
/// # Errors
///
/// [`DataError`] with the byte offset (and record) of the first problem: a wrong header, a
/// file that ends inside a record, a record with a field out of range, a read error.
pub fn read_records(input: impl Read) -> Result<Vec<Record>, DataError> {
    read_variant(input).map(|(_, records)| records)
}

/// Reads a whole data file as [`read_records`] does, with the header's [`Variant`].
///
/// # Errors
///
/// Those of [`read_records`].
pub fn read_variant(mut input: impl Read) -> Result<(Variant, Vec<Record>), DataError> {
    let io_err = |offset, record, e| DataError {
        offset,
        record,
        kind: DataErrorKind::Io(e),
    };
    let mut header = [0u8; HEADER_SIZE];
    let got = read_full(&mut input, &mut header).map_err(|e| io_err(0, None, e))?;
    let header_err = |what| DataError {
        offset: 0,
        record: None,
        kind: DataErrorKind::BadHeader(what),
    };
    if got < MAGIC.len() || header[..8] != MAGIC {
        return Err(header_err("no FANDATA magic"));
    }
    if got < HEADER_SIZE {
        return Err(DataError {
            offset: 0,
            record: None,
            kind: DataErrorKind::Truncated,
        });
    }
    let version = u32::from_le_bytes(header[8..12].try_into().expect("4 bytes"));
    if version != VERSION && version != VERSION_2 {
        return Err(header_err("unknown version"));
    }
    if u32::from_le_bytes(header[12..16].try_into().expect("4 bytes")) != RECORD_SIZE as u32 {
        return Err(header_err("record size not 24"));
    }
    let (variant, header_len) = if version == VERSION {
        (Variant::STANDARD, HEADER_SIZE)
    } else {
        let mut more = [0u8; HEADER_SIZE_2 - HEADER_SIZE];
        let got = read_full(&mut input, &mut more).map_err(|e| io_err(16, None, e))?;
        if got < more.len() {
            return Err(DataError {
                offset: 0,
                record: None,
                kind: DataErrorKind::Truncated,
            });
        }
        let word = |i: usize| u32::from_le_bytes(more[i..i + 4].try_into().expect("4 bytes"));
        let variant = Variant::from_codes(word(0), word(4), word(8)).map_err(|e| DataError {
            offset: 16,
            record: None,
            kind: DataErrorKind::BadHeader(match e {
                super::VariantError::Board { .. } => "no network board",
                _ => "no network game",
            }),
        })?;
        (variant, HEADER_SIZE_2)
    };
    let mut records = Vec::new();
    let mut chunk = vec![0u8; RECORD_SIZE * 4096];
    loop {
        let index = records.len() as u64;
        let offset = header_len as u64 + index * RECORD_SIZE as u64;
        let got = read_full(&mut input, &mut chunk).map_err(|e| io_err(offset, Some(index), e))?;
        for (i, bytes) in chunk[..got].chunks(RECORD_SIZE).enumerate() {
            let (index, offset) = (index + i as u64, offset + (i * RECORD_SIZE) as u64);
            let Ok(bytes) = <&[u8; RECORD_SIZE]>::try_from(bytes) else {
                return Err(DataError {
                    offset,
                    record: Some(index),
                    kind: DataErrorKind::Truncated,
                });
            };
            let record = Record::from_bytes(bytes, variant).map_err(|mut e| {
                e.offset = offset;
                e.record = Some(index);
                e
            })?;
            records.push(record);
        }
        if got < chunk.len() {
            return Ok((variant, records));
        }
    }
}

/// Whether games from `start` are the standard game: the 5x9 board under the standard rules.
pub fn is_standard(start: &Position) -> bool {
    Variant::of(start) == Some(Variant::STANDARD)
}

/// The search score of the current position of `game` for a record: from the side to move's
/// view, clamped to [`SCORE_LIMIT`], forced wins and losses at the limit; `None` when the
/// game is over.
pub fn search_score(searcher: &mut Searcher, game: &Game, limits: &Limits) -> Option<i16> {
    // A cleared table: the score depends on the position and its history only.
    searcher.clear();
    let stop = AtomicBool::new(false);
    let result = searcher
        .search(game, limits, &SearchOptions::default(), &stop, |_| {})
        .ok()?;
    let limit = i32::from(SCORE_LIMIT);
    Some(match result.score {
        Score::Win(n) if n > 0 => SCORE_LIMIT,
        Score::Win(_) => -SCORE_LIMIT,
        Score::Cp(cp) => cp.clamp(-limit, limit) as i16,
    })
}

/// The records of a finished game whose result for White is `white`: one for every quiet
/// position (the side to move has no capture) before the end, scored by a search of that
/// position within `limits` with its history (a cleared table each time, so the records do
/// not depend on what was searched before). Empty when the game is of no [`Variant`]
/// ([`Variant::of`] its start: other rule options than the standard ones, Fanoron-Telo).
///
/// ```
/// use fanorona_ai::nnue::data::{Wdl, label_game};
/// use fanorona_ai::{Limits, Searcher};
/// use fanorona_core::{Color, Game, Position};
///
/// // White (a1, c1) against Black (i5), White to move, far apart: a quiet position.
/// let mut game = Game::new(Position::from_fen("8B/9/9/9/W1W6 w")?);
/// game.play_text("c1-d1")?; // Black to move: quiet again.
/// let records = label_game(&mut Searcher::new(1), &game, Wdl::Win, &Limits::depth(2));
/// assert_eq!(records.len(), 2);
/// assert_eq!((records[0].side, records[0].result), (Color::White, Wdl::Win));
/// assert_eq!((records[1].side, records[1].result), (Color::Black, Wdl::Loss));
/// // A stone up: the search scores it well for White, badly for Black.
/// assert!(records[0].score > 50 && records[1].score < -50);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn label_game(
    searcher: &mut Searcher,
    game: &Game,
    white: Wdl,
    limits: &Limits,
) -> Vec<Record> {
    let mut records = Vec::new();
    if Variant::of(game.start()).is_none() {
        return records;
    }
    let mut replay = Game::new(*game.start());
    for ply in 0..=game.turns().len() {
        let pos = *replay.position();
        if !pos.has_capture() && replay.outcome().is_none() {
            let result = if pos.side_to_move() == Color::White {
                white
            } else {
                white.flip()
            };
            if let Some(score) = search_score(searcher, &replay, limits)
                && let Some(r) = Record::new(&pos, i32::from(score), result)
            {
                records.push(r);
            }
        }
        if let Some(turn) = game.turns().get(ply) {
            replay.play_unchecked(turn);
        }
    }
    records
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_core::{BoardSize, GameKind, Rules};

    fn sample() -> Record {
        // White a1, c1 (bits 0, 2); Black i5 (bit 44); Black to move after 7 quiet turns.
        let pos = Position::from_fen("8B/9/9/9/W1W6 b 7 30").unwrap();
        Record::new(&pos, -250, Wdl::Draw).unwrap()
    }

    #[test]
    fn a_record_has_the_documented_bytes() {
        let b = sample().to_bytes();
        // Hand-written: white bits 0 and 2 = 5; black bit 44 = 0x1000_0000_0000.
        let mut want = [0u8; RECORD_SIZE];
        want[0] = 5;
        want[8 + 5] = 0x10;
        want[16] = 1; // Black
        want[17] = 1; // draw
        want[18] = 7; // no-capture count
        want[20..22].copy_from_slice(&(-250i16).to_le_bytes());
        assert_eq!(b, want);
        assert_eq!(Record::from_bytes(&b, Variant::STANDARD).unwrap(), sample());
        assert_eq!(sample().position().to_string(), "8B/9/9/9/W1W6 b 7 2");
    }

    #[test]
    fn scores_are_clamped() {
        let pos = Position::standard();
        assert_eq!(Record::new(&pos, 99_999, Wdl::Win).unwrap().score, 3000);
        assert_eq!(Record::new(&pos, -4000, Wdl::Win).unwrap().score, -3000);
        let small = Position::start(BoardSize::new(5, 5).unwrap());
        let dimy = Record::new(&small, 0, Wdl::Win).unwrap();
        assert_eq!(dimy.variant.to_string(), "5x5");
        let other = Rules::STANDARD.with_opening_restriction(true);
        let pos = Position::start_with(BoardSize::STANDARD, other).unwrap();
        assert!(Record::new(&pos, 0, Wdl::Win).is_none());
    }

    #[test]
    fn files_round_trip_and_bad_files_are_located() {
        let records = vec![
            sample(),
            Record::new(&Position::standard(), 12, Wdl::Win).unwrap(),
        ];
        let mut file = Vec::new();
        write_header(&mut file, Variant::STANDARD).unwrap();
        for r in &records {
            file.extend_from_slice(&r.to_bytes());
        }
        assert_eq!(file.len(), 16 + 2 * 24);
        assert_eq!(read_records(&file[..]).unwrap(), records);
        // An empty data file (header only) holds no record.
        assert!(read_records(&file[..16]).unwrap().is_empty());
        // Cut inside the second record.
        let err = read_records(&file[..file.len() - 3]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "record 1 (byte 40): the file ends inside a record"
        );
        // A bad side to move in record 1.
        let mut bad = file.clone();
        bad[16 + 24 + 16] = 2;
        assert_eq!(
            read_records(&bad[..]).unwrap_err().to_string(),
            "record 1 (byte 40): bad record: side to move not 0 or 1"
        );
        // Two stones on a point in record 0.
        let mut bad = file.clone();
        bad[16 + 8] = 1;
        assert_eq!(
            read_records(&bad[..]).unwrap_err().to_string(),
            "record 0 (byte 16): bad record: a point with two stones"
        );
        // A stone beyond the board.
        let mut bad = file.clone();
        bad[16 + 7] = 0x80;
        assert!(matches!(
            read_records(&bad[..]).unwrap_err().kind,
            DataErrorKind::BadRecord("a stone off the board")
        ));
        // Not a data file.
        let err = read_records(&b"[Event \"x\"]\n1. f2-e3A *\n"[..]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "byte 0: not an NNUE data file: no FANDATA magic"
        );
        let mut bad = file.clone();
        bad[8] = 3;
        assert!(matches!(
            read_records(&bad[..]).unwrap_err().kind,
            DataErrorKind::BadHeader("unknown version")
        ));
    }

    #[test]
    fn files_of_other_variants_name_their_board_and_game() {
        let dimy = Variant::new(BoardSize::DIMY, GameKind::Capture).unwrap();
        let pos = Position::start(BoardSize::DIMY);
        let record = Record::new(&pos, 40, Wdl::Draw).unwrap();
        assert_eq!(record.variant, dimy);
        let mut file = Vec::new();
        write_header(&mut file, dimy).unwrap();
        assert_eq!(file.len(), header_size(dimy));
        // Hand-written: version 2, record size 24, 5 ranks, 5 files, game 0.
        let mut want = b"FANDATA\0".to_vec();
        for x in [2u32, 24, 5, 5, 0] {
            want.extend_from_slice(&x.to_le_bytes());
        }
        assert_eq!(file, want);
        file.extend_from_slice(&record.to_bytes());
        assert_eq!(read_variant(&file[..]).unwrap(), (dimy, vec![record]));
        // The same stones and side to move (the turn number is not kept).
        let back = read_records(&file[..]).unwrap()[0].position();
        assert_eq!(back.to_setup().white, pos.stones(Color::White));
        assert_eq!(back.to_setup().black, pos.stones(Color::Black));
        assert_eq!(
            (back.size(), back.side_to_move()),
            (BoardSize::DIMY, Color::White)
        );
        // A stone on bit 25 is off the 5x5 board (it would be on 5x9).
        let mut bad = file.clone();
        bad[HEADER_SIZE_2 + 3] |= 0x02;
        assert!(matches!(
            read_records(&bad[..]).unwrap_err().kind,
            DataErrorKind::BadRecord("a stone off the board")
        ));
        // Vela: 5x9, game 1; a position of its rules.
        let vela = Variant::new(BoardSize::STANDARD, GameKind::Vela).unwrap();
        let start = Position::start_with(BoardSize::STANDARD, vela.rules()).unwrap();
        let record = Record::new(&start, 0, Wdl::Win).unwrap();
        assert_eq!(record.variant, vela);
        let mut file = Vec::new();
        write_header(&mut file, vela).unwrap();
        assert_eq!(&file[16..], &[5, 0, 0, 0, 9, 0, 0, 0, 1, 0, 0, 0]);
        file.extend_from_slice(&record.to_bytes());
        let back = read_records(&file[..]).unwrap();
        assert_eq!(back, vec![record]);
        assert_eq!(back[0].position().rules().game(), GameKind::Vela);
        // Fanoron-Telo (game 2) and a board that does not exist are refused, and so is a
        // header cut short.
        let mut bad = file.clone();
        bad[24] = 2;
        assert!(matches!(
            read_records(&bad[..]).unwrap_err().kind,
            DataErrorKind::BadHeader("no network game")
        ));
        let mut bad = file.clone();
        bad[16] = 4;
        assert!(matches!(
            read_records(&bad[..]).unwrap_err().kind,
            DataErrorKind::BadHeader("no network board")
        ));
        assert!(matches!(
            read_records(&file[..20]).unwrap_err().kind,
            DataErrorKind::Truncated
        ));
    }

    #[test]
    fn labels_follow_the_game_and_its_result() {
        // A game White wins quickly is not needed: any finished replay checks the bookkeeping.
        let mut game = Game::default();
        for _ in 0..8 {
            let turns = game.position().legal_turns();
            game.play(&turns[0]).unwrap();
        }
        let mut searcher = Searcher::new(1);
        let records = label_game(&mut searcher, &game, Wdl::Loss, &Limits::depth(1));
        let quiet: Vec<&Position> = game
            .positions()
            .iter()
            .filter(|p| !p.has_capture())
            .collect();
        assert_eq!(records.len(), quiet.len());
        for (r, p) in records.iter().zip(quiet) {
            assert_eq!(r.position().to_setup().white, p.stones(Color::White));
            let want = if p.side_to_move() == Color::White {
                Wdl::Loss
            } else {
                Wdl::Win
            };
            assert_eq!(r.result, want);
        }
        // Labelling twice gives the same records (the table is cleared before each search).
        assert_eq!(
            label_game(&mut searcher, &game, Wdl::Loss, &Limits::depth(1)),
            records
        );
    }
}
