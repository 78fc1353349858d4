//! Certificates: proofs of a solved value that an independent program can check.
//!
//! A certificate states the value of a start position under the solver's default rules and
//! proves it with strategies (see [`docs/solver.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/solver.md), *Certificates*, for the format):
//!
//! - a **win** or a **loss**: the winner's strategy, one turn for each of the winner's
//!   positions it reaches, every reply of the loser covered, listed so that every position a
//!   reply leads to comes *earlier* in the list. The order proves that the strategy has no
//!   cycle, so it ends the game in a finite number of turns: a win even under the repetition
//!   draw.
//! - a **bound** ([`Certificate::build_bound`]): one side's closed set alone proves that the
//!   side does not lose (`win-or-draw` or `draw-or-loss` for the side to move).
//! - a **draw**: for each side, a closed set of its positions, each with a turn after which
//!   every reply of the opponent leads back into the set (or the opponent has no turn left and
//!   loses). A side following it never loses, so neither side can force a win.
//!
//! Certificates are built from proof-number searches ([`pns`]): a proof's
//! strategy comes from the table of solved positions (each position's proving turn leads to
//! positions solved before it); a disproof, which may rely on repeated positions, comes from a
//! search that keeps its solved subtrees. [`verify`](super::verify) checks a certificate with
//! the reference move generator alone.
//!
//! # Examples
//!
//! ```
//! use fanorona_ai::solve::{self, Budget, Value, certificate::Certificate, verify};
//! use fanorona_core::BoardSize;
//!
//! let cert = Certificate::build(&solve::start(BoardSize::TELO), &Budget::default(), &mut |_| {})?;
//! assert_eq!(cert.value(), Some(Value::Win));
//! let mut text = Vec::new();
//! cert.write_to(&mut text).unwrap();
//! let report = verify::verify(std::io::Cursor::new(&text), &verify::Limits::default()).unwrap();
//! assert_eq!(report.value, "win");
//! # Ok::<(), fanorona_ai::solve::SolveError>(())
//! ```

use std::io::{self, Write};
use std::path::Path;

use fanorona_core::{Color, Position, Turn};

use super::key::{Key, KeySet, Keyer};
use super::pns::{self, CLEAN, NIL, Tree};
use super::{Budget, Progress, SolveError, Value, solver_rules};

/// The first line of a certificate file.
pub const MAGIC: &str = "fanorona-certificate 1";

/// One side's strategy: positions of that side to move, each with its turn.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Strategy {
    /// The side the strategy is for.
    pub side: Color,
    /// Whether every reply leads to an earlier entry (a win's strategy), or only to some entry
    /// (a drawing side's closed set).
    pub ordered: bool,
    entries: Vec<(Position, Turn)>,
}

impl Strategy {
    /// The positions of the strategy with their turns, in file order.
    pub fn entries(&self) -> &[(Position, Turn)] {
        &self.entries
    }
}

/// What a certificate proves about the start, for its side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum Claim {
    /// The exact value: the winner's ordered strategy, or each side's closed one for a draw.
    Exact(Value),
    /// The side to move does not lose (its closed strategy): a win or a draw.
    WinOrDraw,
    /// The side to move cannot force a win (the opponent's closed strategy): a draw or a loss.
    DrawOrLoss,
}

impl Claim {
    /// The claim as written in a certificate: `win`, `draw`, `loss`, `win-or-draw` or
    /// `draw-or-loss`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Claim::Exact(v) => v.as_str(),
            Claim::WinOrDraw => "win-or-draw",
            Claim::DrawOrLoss => "draw-or-loss",
        }
    }
}

impl core::fmt::Display for Claim {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A proof of the value of a start position (see the [module documentation](self)).
#[derive(Clone, Debug)]
pub struct Certificate {
    start: Position,
    claim: Claim,
    strategies: Vec<Strategy>,
}

impl Certificate {
    /// Solves `start` by proof-number search and builds the certificate of its value.
    ///
    /// # Errors
    ///
    /// [`SolveError::Unsupported`] when the rules of `start` are not the solver's default
    /// rules (the format and the reference generator know only those, with any repetition
    /// count); the budget errors of the searches; [`SolveError::Internal`] when a strategy
    /// cannot be read from a search (a bug).
    pub fn build(
        start: &Position,
        budget: &Budget,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Certificate, SolveError> {
        let start = prepare(start)?;
        let clock = budget.clock();
        let us = start.side_to_move();
        let (win, tree) = pns::run(&start, us, budget, &clock, progress, false)?;
        if win.proved {
            let entries = proof_strategy(&tree)?;
            return Ok(Certificate {
                start,
                claim: Claim::Exact(Value::Win),
                strategies: vec![Strategy {
                    side: us,
                    ordered: true,
                    entries,
                }],
            });
        }
        drop(tree);
        let (loss, tree) = pns::run(&start, us.other(), budget, &clock, progress, false)?;
        if loss.proved {
            let entries = proof_strategy(&tree)?;
            return Ok(Certificate {
                start,
                claim: Claim::Exact(Value::Loss),
                strategies: vec![Strategy {
                    side: us.other(),
                    ordered: true,
                    entries,
                }],
            });
        }
        drop(tree);
        // A draw: both disproofs, from searches that keep their solved subtrees.
        let mut strategies = Vec::with_capacity(2);
        for attacker in [us.other(), us] {
            let (s, tree) = pns::run(&start, attacker, budget, &clock, progress, true)?;
            if s.proved {
                return Err(SolveError::Internal(
                    "a search repeated with kept subtrees gave another result",
                ));
            }
            strategies.push(Strategy {
                side: attacker.other(),
                ordered: false,
                entries: disproof_strategy(&tree)?,
            });
        }
        Ok(Certificate {
            start,
            claim: Claim::Exact(Value::Draw),
            strategies,
        })
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// Proves that `side` does not lose from `start`, or else that the other side wins, with
    /// one proof-number search (the other side as attacker, keeping its solved subtrees): the
    /// claim is [`Claim::WinOrDraw`] or [`Claim::DrawOrLoss`] (for the start's side to move)
    /// when the search is disproved, an exact win or loss when it is proved. Half of a draw's
    /// proof, for boards where the other half is out of reach.
    ///
    /// # Errors
    ///
    /// As [`Certificate::build`].
    pub fn build_bound(
        start: &Position,
        side: Color,
        budget: &Budget,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Certificate, SolveError> {
        let start = prepare(start)?;
        let clock = budget.clock();
        let us = start.side_to_move();
        let attacker = side.other();
        let (s, tree) = pns::run(&start, attacker, budget, &clock, progress, true)?;
        let (claim, ordered, entries) = if s.proved {
            let v = if attacker == us {
                Value::Win
            } else {
                Value::Loss
            };
            (Claim::Exact(v), true, proof_strategy(&tree)?)
        } else {
            let c = if side == us {
                Claim::WinOrDraw
            } else {
                Claim::DrawOrLoss
            };
            (c, false, disproof_strategy(&tree)?)
        };
        Ok(Certificate {
            start,
            claim,
            strategies: vec![Strategy {
                side: if s.proved { attacker } else { side },
                ordered,
                entries,
            }],
        })
    }

    /// A win (or, when `winner` is not the side to move at `start`, a loss) proved by the
    /// winner's ordered strategy `entries`: each position with the winner to move and its turn,
    /// every reply after a turn leading to an earlier position (or ending the game).
    /// The checker decides whether it holds; this only assembles it.
    ///
    /// # Errors
    ///
    /// [`SolveError::Unsupported`] under other rules than the solver's.
    pub(crate) fn from_strategy(
        start: &Position,
        winner: Color,
        entries: Vec<(Position, Turn)>,
    ) -> Result<Certificate, SolveError> {
        let start = prepare(start)?;
        let value = if winner == start.side_to_move() {
            Value::Win
        } else {
            Value::Loss
        };
        Ok(Certificate {
            start,
            claim: Claim::Exact(value),
            strategies: vec![Strategy {
                side: winner,
                ordered: true,
                entries,
            }],
        })
    }

    /// A bound proved by `side`'s closed strategy `entries` (each position with `side` to move
    /// and its turn, every reply leading back into the set): `win-or-draw` when `side` is to
    /// move at `start`, else `draw-or-loss`. The checker decides whether it holds.
    ///
    /// # Errors
    ///
    /// [`SolveError::Unsupported`] under other rules than the solver's.
    pub(crate) fn from_closed(
        start: &Position,
        side: Color,
        entries: Vec<(Position, Turn)>,
    ) -> Result<Certificate, SolveError> {
        let start = prepare(start)?;
        let claim = if side == start.side_to_move() {
            Claim::WinOrDraw
        } else {
            Claim::DrawOrLoss
        };
        Ok(Certificate {
            start,
            claim,
            strategies: vec![Strategy {
                side,
                ordered: false,
                entries,
            }],
        })
    }

    /// What the certificate proves.
    pub fn claim(&self) -> Claim {
        self.claim
    }

    /// The proved value of the start for its side to move, when the claim is exact.
    pub fn value(&self) -> Option<Value> {
        match self.claim {
            Claim::Exact(v) => Some(v),
            _ => None,
        }
    }

    /// The strategies: the winner's for a win or a loss, each side's for a draw.
    pub fn strategies(&self) -> &[Strategy] {
        &self.strategies
    }

    /// Positions in all strategies.
    pub fn positions(&self) -> u64 {
        self.strategies.iter().map(|s| s.entries.len() as u64).sum()
    }

    /// Writes the certificate in the format of [`docs/solver.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/solver.md), returning the bytes written.
    ///
    /// # Errors
    ///
    /// Any error of `out`.
    pub fn write_to<W: Write>(&self, out: W) -> io::Result<u64> {
        let mut w = HashingWriter::new(io::BufWriter::new(out));
        let size = self.start.size();
        writeln!(w, "{MAGIC}")?;
        writeln!(w, "board {size}")?;
        writeln!(w, "rules {}", self.start.rules().to_full_string())?;
        writeln!(w, "start {}", self.start.to_fen())?;
        writeln!(w, "value {}", self.claim)?;
        for s in &self.strategies {
            writeln!(
                w,
                "strategy {} {} {}",
                side_word(s.side),
                s.entries.len(),
                if s.ordered { "ordered" } else { "closed" }
            )?;
            for (pos, turn) in &s.entries {
                writeln!(
                    w,
                    "{:x}:{:x} {turn}",
                    pos.stones(Color::White).bits(),
                    pos.stones(Color::Black).bits()
                )?;
            }
        }
        w.finish()
    }

    /// Writes the certificate to `path` atomically: into a temporary file beside it, renamed
    /// into place once complete (an existing file is replaced only then). Returns the size.
    ///
    /// # Errors
    ///
    /// Any error creating, writing or renaming the file (the temporary file is removed).
    pub fn save(&self, path: &Path) -> io::Result<u64> {
        let tmp = temporary_beside(path)?;
        let result = (|| {
            let file = std::fs::File::create(&tmp)?;
            let bytes = self.write_to(&file)?;
            file.sync_all()?;
            std::fs::rename(&tmp, path)?;
            Ok(bytes)
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        result
    }
}

fn side_word(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The start under the certificate's rules, counters reset (they play no part there).
fn prepare(start: &Position) -> Result<Position, SolveError> {
    // The solver's repetition setting is always valid (it comes from `Rules` itself).
    let rules = start
        .rules()
        .with_repetition(solver_rules().repetition())
        .map_err(|_| SolveError::Internal("the solver's repetition rule"))?;
    if rules != solver_rules() {
        return Err(SolveError::Unsupported(
            "certificates are made under the solver's default rules only (standard rules, no \
             no-capture limit)",
        ));
    }
    Ok(reset_counters(start))
}

fn reset_counters(pos: &Position) -> Position {
    let setup = {
        let mut setup = fanorona_core::Setup::empty(pos.size());
        setup.white = pos.stones(Color::White);
        setup.black = pos.stones(Color::Black);
        setup.side_to_move = pos.side_to_move();
        setup.no_capture_count = 0;
        setup.turn_number = 1;
        setup
    };
    Position::from_setup(setup, pos.rules()).unwrap_or(*pos)
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a, 64 bits, continuing from `hash`.
pub(crate) fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(FNV_PRIME);
    }
    hash
}

/// The temporary file beside `path` that a certificate is written to before it is renamed
/// into place: `.NAME.tmp-PID`.
fn temporary_beside(path: &Path) -> io::Result<std::path::PathBuf> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".tmp-{}", std::process::id()));
    Ok(path.with_file_name(tmp_name))
}

/// Writes a certificate's lines, hashing them for its `end` line.
struct HashingWriter<W: Write> {
    inner: W,
    hash: u64,
    bytes: u64,
}

impl<W: Write> HashingWriter<W> {
    fn new(inner: W) -> Self {
        HashingWriter {
            inner,
            hash: FNV_OFFSET,
            bytes: 0,
        }
    }

    /// Writes the `end` line with the checksum of everything before it and flushes; returns
    /// the bytes written, the `end` line's included.
    fn finish(mut self) -> io::Result<u64> {
        let hash = self.hash;
        writeln!(self.inner, "end {hash:016x}")?;
        self.inner.flush()?;
        Ok(self.bytes + 21)
    }
}

impl<W: Write> Write for HashingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hash = fnv1a(self.hash, &buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// The distinct children of a position: (key, one turn reaching it, the position).
fn children(keyer: &Keyer, pos: &Position) -> Vec<(Key, Turn, Position)> {
    let mut out: Vec<(Key, Turn, Position)> = Vec::new();
    pos.for_each_turn(|t| {
        let child = pos.play_unchecked(&t);
        let key = keyer.key(&child);
        if !out.iter().any(|c| c.0 == key) {
            out.push((key, t, child));
        }
    });
    out
}

/// The attacker's strategy of a proved search, ordered by when each position was first proved
/// (its proving child and that child's children were all proved earlier).
fn proof_strategy(tree: &Tree) -> Result<Vec<(Position, Turn)>, SolveError> {
    let keyer = tree.keyer;
    let root = tree.nodes[0].key;
    let proved_seq = |key: &Key| -> Option<u32> {
        tree.solved
            .get(key)
            .and_then(|s| if s.proved { Some(s.seq) } else { None })
    };
    let mut stack: Vec<Key> = Vec::new();
    if tree.is_or(root) {
        stack.push(root);
    } else {
        stack.extend(children(&keyer, &keyer.position(root)).iter().map(|c| c.0));
    }
    let mut seen = KeySet::default();
    let mut out: Vec<(u32, Position, Turn)> = Vec::new();
    while let Some(key) = stack.pop() {
        if !seen.insert(key) {
            continue;
        }
        let seq = proved_seq(&key).ok_or(SolveError::Internal(
            "a position of the proof is not in the table of proved positions",
        ))?;
        let pos = keyer.position(key);
        let kids = children(&keyer, &pos);
        // A turn that ends the game, else the child proved first (before this position).
        let chosen = kids
            .iter()
            .find(|c| {
                c.2.outcome()
                    .is_some_and(|o| o.winner == Some(tree.attacker))
            })
            .map(|c| (c, None))
            .or_else(|| {
                kids.iter()
                    .filter_map(|c| proved_seq(&c.0).map(|s| (c, Some(s))))
                    .min_by_key(|(_, s)| *s)
            });
        let Some((child, child_seq)) = chosen else {
            return Err(SolveError::Internal(
                "a proved position has no proved child",
            ));
        };
        if child_seq.is_some_and(|s| s >= seq) {
            return Err(SolveError::Internal(
                "a proof refers to a position proved later",
            ));
        }
        if child_seq.is_some() {
            for grand in children(&keyer, &child.2) {
                stack.push(grand.0);
            }
        }
        out.push((seq, pos, child.1));
    }
    out.sort_unstable_by_key(|e| e.0);
    Ok(out.into_iter().map(|(_, p, t)| (p, t)).collect())
}

/// The defender's closed strategy of a disproved search whose tree kept its solved subtrees.
fn disproof_strategy(tree: &Tree) -> Result<Vec<(Position, Turn)>, SolveError> {
    let keyer = tree.keyer;
    let mut seen = KeySet::default();
    let mut out: Vec<(Position, Turn)> = Vec::new();
    let mut stack: Vec<u32> = vec![0];
    while let Some(mut n) = stack.pop() {
        let key = tree.nodes[n as usize].key;
        if seen.contains(&key) {
            continue;
        }
        let pos = keyer.position(key);
        if tree.nodes[n as usize].first == NIL {
            if pos.outcome().is_some() {
                // The attacker to move and without a turn: the defender has won.
                if tree.is_or(key) {
                    seen.insert(key);
                    continue;
                }
                return Err(SolveError::Internal(
                    "a disproof ends in the defender's loss",
                ));
            }
            // Solved elsewhere: continue from the node where it was solved.
            match tree.solved.get(&key) {
                Some(s) if !s.proved && tree.nodes[s.node as usize].first != NIL => n = s.node,
                _ => {
                    return Err(SolveError::Internal(
                        "a leaf of a disproof is neither terminal, repeated nor solved elsewhere",
                    ));
                }
            }
        }
        seen.insert(key);
        let node = tree.nodes[n as usize];
        if node.dn != 0 {
            return Err(SolveError::Internal(
                "a position of the disproof is not disproved",
            ));
        }
        let block = node.first..node.first + node.len;
        if tree.is_or(key) {
            stack.extend(block);
        } else {
            let c = block
                .filter(|&c| tree.nodes[c as usize].dn == 0)
                .max_by_key(|&c| {
                    let c = &tree.nodes[c as usize];
                    (c.dep == CLEAN, u64::MAX - c.size)
                })
                .ok_or(SolveError::Internal(
                    "a disproved node has no disproved child",
                ))?;
            let target = tree.nodes[c as usize].key;
            let turn = children(&keyer, &pos)
                .into_iter()
                .find(|k| k.0 == target)
                .map(|k| k.1)
                .ok_or(SolveError::Internal("no turn reaches a child of the tree"))?;
            out.push((pos, turn));
            stack.push(c);
        }
    }
    Ok(out)
}

/// Why two bound certificates could not be joined into a draw ([`join_bounds`]).
#[derive(Debug)]
#[non_exhaustive]
pub enum JoinError {
    /// One of the two input certificates (or the joined file, which is checked again before
    /// it is renamed into place) does not check.
    Invalid {
        /// The file that failed.
        file: std::path::PathBuf,
        /// Why the checker rejected it.
        error: super::verify::VerifyError,
    },
    /// The two do not make a draw together: not one `win-or-draw` and one `draw-or-loss`,
    /// or not the same board, rules and start.
    Mismatch(String),
    /// Reading or writing a file failed.
    Io {
        /// The file.
        file: std::path::PathBuf,
        /// The system's error.
        error: io::Error,
    },
}

impl core::fmt::Display for JoinError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            JoinError::Invalid { file, error } => {
                write!(f, "{}: not a valid certificate: {error}", file.display())
            }
            JoinError::Mismatch(why) => write!(f, "the certificates do not make a draw: {why}"),
            JoinError::Io { file, error } => write!(f, "{}: {error}", file.display()),
        }
    }
}

impl std::error::Error for JoinError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            JoinError::Invalid { error, .. } => Some(error),
            JoinError::Io { error, .. } => Some(error),
            JoinError::Mismatch(_) => None,
        }
    }
}

/// Joins the two bounds of one start into a draw: `win-or-draw` (the side to move's closed
/// strategy: it never loses) and `draw-or-loss` (the opponent's: the side to move cannot force
/// a win), given in either order, into `out` with `value draw` and both strategies, copied
/// line for line (the `win-or-draw`'s first).
///
/// Both inputs are checked with the independent checker ([`verify`](super::verify)) first,
/// and the joined file once more before it is renamed into place (a temporary file beside
/// `out`): `out` is only ever a certificate that checks. Returns the checker's report of it.
///
/// # Errors
///
/// [`JoinError`]: an input that does not check, two that do not belong together (other
/// claims, boards, rules or starts), or a file that cannot be read or written.
///
/// # Examples
///
/// ```no_run
/// use fanorona_ai::solve::{certificate, verify::Limits};
/// use std::path::Path;
///
/// let report = certificate::join_bounds(
///     Path::new("5x7-black.cert"),
///     Path::new("5x7-white.cert"),
///     Path::new("5x7.cert"),
///     &Limits::default(),
/// )?;
/// assert_eq!(report.value, "draw");
/// # Ok::<(), certificate::JoinError>(())
/// ```
pub fn join_bounds(
    a: &Path,
    b: &Path,
    out: &Path,
    limits: &super::verify::Limits,
) -> Result<super::verify::Report, JoinError> {
    use super::verify;
    let check = |file: &Path| {
        verify::verify_file(file, limits).map_err(|error| JoinError::Invalid {
            file: file.to_path_buf(),
            error,
        })
    };
    let (ra, rb) = (check(a)?, check(b)?);
    let (first, second) = match (ra.value.as_str(), rb.value.as_str()) {
        ("win-or-draw", "draw-or-loss") => (a, b),
        ("draw-or-loss", "win-or-draw") => (b, a),
        (x, y) => {
            return Err(JoinError::Mismatch(format!(
                "one must claim win-or-draw and the other draw-or-loss, not {x} and {y}"
            )));
        }
    };
    let (ha, sa) = read_parts(first)?;
    let (hb, sb) = read_parts(second)?;
    for (i, what) in [(1, "board"), (2, "rules"), (3, "start")] {
        if ha[i] != hb[i] {
            return Err(JoinError::Mismatch(format!(
                "other {what}s: `{}` and `{}`",
                ha[i], hb[i]
            )));
        }
    }
    let io_err = |error: io::Error| JoinError::Io {
        file: out.to_path_buf(),
        error,
    };
    let tmp = temporary_beside(out).map_err(io_err)?;
    let result = (|| {
        let write = || -> io::Result<()> {
            let file = std::fs::File::create(&tmp)?;
            let mut w = HashingWriter::new(io::BufWriter::new(&file));
            for line in &ha[..4] {
                writeln!(w, "{line}")?;
            }
            writeln!(w, "value draw")?;
            for part in [&sa, &sb] {
                w.write_all(part)?;
            }
            w.finish()?;
            file.sync_all()
        };
        write().map_err(io_err)?;
        let report = verify::verify_file(&tmp, limits).map_err(|error| JoinError::Invalid {
            file: out.to_path_buf(),
            error,
        })?;
        std::fs::rename(&tmp, out).map_err(io_err)?;
        Ok(report)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// A checked certificate's first five lines (magic, board, rules, start, value) and the bytes
/// of its strategies (every line after the value line up to the `end` line).
fn read_parts(file: &Path) -> Result<(Vec<String>, Vec<u8>), JoinError> {
    use std::io::{BufRead, Read};
    let io_err = |error: io::Error| JoinError::Io {
        file: file.to_path_buf(),
        error,
    };
    let mut r = io::BufReader::new(std::fs::File::open(file).map_err(io_err)?);
    let mut head = Vec::with_capacity(5);
    let mut line = String::new();
    for _ in 0..5 {
        line.clear();
        r.read_line(&mut line).map_err(io_err)?;
        head.push(line.trim_end_matches('\n').to_string());
    }
    let mut body = Vec::new();
    r.read_to_end(&mut body).map_err(io_err)?;
    // The checker accepted the file, so it ends with exactly one `end` line.
    let cut = body[..body.len().saturating_sub(1)]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |i| i + 1);
    body.truncate(cut);
    Ok((head, body))
}
