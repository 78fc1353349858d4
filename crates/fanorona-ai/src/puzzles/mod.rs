//! Puzzles: positions where exactly one turn family wins, a way to judge a player's attempt
//! step by step, themed and rated puzzle sets, and the set shipped with the engine.
//!
//! A puzzle is a position (a board, the standard rules or Vela, the side to move) and its
//! solution: every legal turn that wins. All solution turns share their first step (from,
//! to, approach or withdrawal): they form one *turn family*, the turns of the position that
//! begin with the same step. Every other family loses the win. The player makes the turn step
//! by step; [`Puzzle::judge`] says after each step whether it is solved, wrong or may go on.
//! A chain stopped before the end of a solution turn is wrong.
//!
//! A puzzle is a [`PuzzleKind::Tactic`], found by the engine's search (the solution family
//! scores at least two stones, every other family at most half a stone, at a recorded depth),
//! or a [`PuzzleKind::WinIn`], exact by the endgame tables (the solution turns keep the win,
//! the others do not). [`check`] re-checks either. The file format, the criterion, the
//! themes and the ratings are described in [`docs/puzzles.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/puzzles.md).
//!
//! # Examples
//!
//! ```
//! use fanorona_ai::puzzles::{self, Theme, Verdict};
//! use fanorona_core::BoardSize;
//!
//! let set = puzzles::shipped();
//! assert!(set.len() > 0);
//! let puzzle = set.filter(Some(BoardSize::STANDARD), None).next().expect("5x9 puzzles");
//! // Play the first solution turn step by step.
//! let turn = puzzle.solution()[0];
//! let steps: Vec<_> = turn.steps().collect();
//! for n in 1..steps.len() {
//!     assert_ne!(puzzle.judge(&steps[..n], false), Verdict::Wrong);
//! }
//! assert_eq!(puzzle.judge(&steps, true), Verdict::Solved);
//! // The daily puzzle: the same all day long.
//! let day = puzzles::day_number(std::time::SystemTime::now());
//! assert_eq!(set.daily(day, None).map(|p| p.id()), set.daily(day, None).map(|p| p.id()));
//! ```

use core::fmt;
use core::str::FromStr;

use fanorona_core::{BoardSize, Position, Step, Turn};

pub mod check;
mod format;
pub mod generate;

mod rating;

pub use format::{ParseError, ParseErrorKind};
pub use rating::{
    DEFAULT_DEVIATION, DEFAULT_RATING, DEFAULT_VOLATILITY, EPSILON, MIN_DEVIATION,
    PUZZLE_DEVIATION, Rating, SCALE, TAU,
};

/// The shipped puzzles of the standard 5x9 board, in the puzzle format.
pub const SHIPPED_5X9: &str = include_str!("../../puzzles/5x9.txt");
/// The shipped endgame puzzles of the standard 5x9 board (wins in N by the endgame tables,
/// from random positions of 3 and 4 stones), in the puzzle format.
pub const SHIPPED_5X9_ENDGAMES: &str = include_str!("../../puzzles/5x9-endgames.txt");
/// The shipped puzzles of the 5x5 board, in the puzzle format.
pub const SHIPPED_5X5: &str = include_str!("../../puzzles/5x5.txt");

/// The lowest rating a puzzle may have.
pub const MIN_RATING: u16 = 100;
/// The highest rating a puzzle may have.
pub const MAX_RATING: u16 = 4000;

/// How a puzzle was found and how it is checked.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum PuzzleKind {
    /// Found by search: at this depth (plies, the engine's fixed-depth search with its hand
    /// evaluation and an exact score for every turn) the solution family scores at least
    /// [`check::WIN_SCORE`] and every other family at most [`check::OTHER_SCORE`].
    Tactic {
        /// The depth of the search that re-checks it.
        depth: u32,
    },
    /// Exact by the endgame tables: the side to move wins in this many of its own turns
    /// (the solution turn included) with best play, and only the solution turns keep the win.
    WinIn {
        /// The winner's turns to the end, at least 1.
        turns: u16,
    },
}

impl fmt::Display for PuzzleKind {
    /// `tactic D` or `win N`, as in the puzzle format.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PuzzleKind::Tactic { depth } => write!(f, "tactic {depth}"),
            PuzzleKind::WinIn { turns } => write!(f, "win {turns}"),
        }
    }
}

/// What the winning turn does; a puzzle has any number of themes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
#[non_exhaustive]
pub enum Theme {
    /// A long chain: a solution turn of three capture steps or more.
    Chain,
    /// An approach-and-withdraw choice: a step of the solution could capture the other way
    /// from the same move, and that choice does not win.
    Choice,
    /// A sacrifice: after the solution turn the opponent can capture more stones than the
    /// turn captured.
    Sacrifice,
    /// Endgame technique: at most eight stones on the board.
    Endgame,
    /// A quiet move: the solution is a paika, no capture.
    Quiet,
    /// A position of Vela, the handicap game.
    Vela,
}

impl Theme {
    /// Every theme, in the order they are written.
    pub const ALL: [Theme; 6] = [
        Theme::Chain,
        Theme::Choice,
        Theme::Sacrifice,
        Theme::Endgame,
        Theme::Quiet,
        Theme::Vela,
    ];

    /// The theme's name in the puzzle format: `chain`, `choice`, `sacrifice`, `endgame`,
    /// `quiet` or `vela`.
    pub const fn name(self) -> &'static str {
        match self {
            Theme::Chain => "chain",
            Theme::Choice => "choice",
            Theme::Sacrifice => "sacrifice",
            Theme::Endgame => "endgame",
            Theme::Quiet => "quiet",
            Theme::Vela => "vela",
        }
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A word that names no theme.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ThemeError(pub String);

impl fmt::Display for ThemeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is not a theme (chain, choice, sacrifice, endgame, quiet, vela)",
            fanorona_core::escape::quoted(&self.0)
        )
    }
}

impl std::error::Error for ThemeError {}

impl FromStr for Theme {
    type Err = ThemeError;

    fn from_str(s: &str) -> Result<Theme, ThemeError> {
        Theme::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| ThemeError(s.to_owned()))
    }
}

/// The answer to an attempt so far ([`Puzzle::judge`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum Verdict {
    /// The steps made are a solution turn: solved.
    Solved,
    /// A step left the solution, a step was not legal, or the turn ended before a solution
    /// turn was complete: failed.
    Wrong,
    /// The steps so far begin a solution turn that is not complete yet: go on.
    Continue,
}

/// A puzzle: a position and the turns that win it.
///
/// Make one with [`Puzzle::new`] (checked) or read a [`PuzzleSet`].
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct Puzzle {
    id: String,
    position: Position,
    solution: Vec<Turn>,
    kind: PuzzleKind,
    themes: Vec<Theme>,
    rating: u16,
}

/// Why a puzzle is not well formed.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum PuzzleError {
    /// The id is empty, longer than 32 characters, or has a character other than an ASCII
    /// letter, digit, `-` or `_`.
    BadId(String),
    /// The solution is empty.
    NoSolution,
    /// A solution turn is not legal in the position.
    IllegalTurn(String),
    /// A solution turn is listed twice.
    DuplicateTurn(String),
    /// Two solution turns begin with different steps: they are not one family.
    NotOneFamily {
        /// The first turn.
        first: String,
        /// A turn with another first step.
        other: String,
    },
    /// The game is Fanoron-Telo, which has no puzzles.
    Telo,
    /// The rating is outside [`MIN_RATING`]..=[`MAX_RATING`].
    BadRating(u16),
    /// A [`PuzzleKind::WinIn`] of 0 turns.
    BadKind,
}

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PuzzleError::BadId(id) => write!(
                f,
                "bad id {}: 1 to 32 ASCII letters, digits, '-' or '_'",
                fanorona_core::escape::quoted(id)
            ),
            PuzzleError::NoSolution => write!(f, "the solution lists no turn"),
            PuzzleError::IllegalTurn(t) => write!(f, "solution turn {t} is not legal here"),
            PuzzleError::DuplicateTurn(t) => write!(f, "solution turn {t} is listed twice"),
            PuzzleError::NotOneFamily { first, other } => write!(
                f,
                "solution turns {first} and {other} begin with different steps"
            ),
            PuzzleError::Telo => write!(f, "Fanoron-Telo positions make no puzzles"),
            PuzzleError::BadRating(r) => {
                write!(f, "rating {r} is not in {MIN_RATING}..={MAX_RATING}")
            }
            PuzzleError::BadKind => write!(f, "a win in 0 turns"),
        }
    }
}

impl std::error::Error for PuzzleError {}

/// Whether `id` is a well-formed puzzle id.
fn good_id(id: &str) -> bool {
    (1..=32).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

impl Puzzle {
    /// A puzzle, checked for form: a good id, a non-empty solution of distinct legal turns
    /// sharing their first step, a rating in range. Whether the solution really wins is
    /// another matter: see [`check`].
    ///
    /// The solution is kept sorted (the order of [`Turn`]) and the themes sorted and without
    /// repeats.
    ///
    /// # Errors
    ///
    /// [`PuzzleError`] says what is wrong.
    ///
    /// ```
    /// use fanorona_ai::puzzles::{Puzzle, PuzzleKind, Theme};
    /// use fanorona_core::Position;
    ///
    /// let pos = Position::standard();
    /// let turn = pos.parse_turn("d3-e3W")?;
    /// let p = Puzzle::new("demo", pos, vec![turn], PuzzleKind::Tactic { depth: 4 }, vec![Theme::Choice], 1200)?;
    /// assert_eq!(p.first_step(), turn.steps().next().unwrap());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(
        id: &str,
        position: Position,
        mut solution: Vec<Turn>,
        kind: PuzzleKind,
        mut themes: Vec<Theme>,
        rating: u16,
    ) -> Result<Puzzle, PuzzleError> {
        if !good_id(id) {
            return Err(PuzzleError::BadId(id.to_owned()));
        }
        if position.rules().game() == fanorona_core::GameKind::Telo {
            return Err(PuzzleError::Telo);
        }
        if !(MIN_RATING..=MAX_RATING).contains(&rating) {
            return Err(PuzzleError::BadRating(rating));
        }
        if kind == (PuzzleKind::WinIn { turns: 0 }) {
            return Err(PuzzleError::BadKind);
        }
        let Some(first) = solution.first().copied() else {
            return Err(PuzzleError::NoSolution);
        };
        for t in &solution {
            if !position.is_legal(t) || t.is_placement() {
                return Err(PuzzleError::IllegalTurn(t.to_string()));
            }
            if t.steps().next() != first.steps().next() {
                return Err(PuzzleError::NotOneFamily {
                    first: first.to_string(),
                    other: t.to_string(),
                });
            }
        }
        solution.sort();
        if let Some(w) = solution.windows(2).find(|w| w[0] == w[1]) {
            return Err(PuzzleError::DuplicateTurn(w[0].to_string()));
        }
        themes.sort();
        themes.dedup();
        Ok(Puzzle {
            id: id.to_owned(),
            position,
            solution,
            kind,
            themes,
            rating,
        })
    }

    /// The puzzle's id, unique in its set.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The position to solve; its side to move is the solver.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The board.
    pub fn size(&self) -> BoardSize {
        self.position.size()
    }

    /// Every turn that solves the puzzle, sorted; all begin with [`Puzzle::first_step`].
    pub fn solution(&self) -> &[Turn] {
        &self.solution
    }

    /// The first step of every solution turn: the winning family.
    pub fn first_step(&self) -> Step {
        self.solution[0]
            .steps()
            .next()
            .expect("a solution turn has a step")
    }

    /// How the puzzle was found and is checked.
    pub fn kind(&self) -> PuzzleKind {
        self.kind
    }

    /// The themes, sorted.
    pub fn themes(&self) -> &[Theme] {
        &self.themes
    }

    /// Whether the puzzle has `theme`.
    pub fn has_theme(&self, theme: Theme) -> bool {
        self.themes.contains(&theme)
    }

    /// The puzzle's rating (the Glicko scale of [`Rating`]).
    pub fn rating(&self) -> u16 {
        self.rating
    }

    /// Judges an attempt: `steps` are the steps made so far in the puzzle's position, and
    /// `ended` says whether the player ended the turn after them.
    ///
    /// - [`Verdict::Wrong`] when the steps are not the beginning of any solution turn (a
    ///   wrong step, an illegal one, the wrong capture of an approach-or-withdraw choice), or
    ///   when `ended` and they are not a whole solution turn (a chain stopped too early);
    /// - [`Verdict::Solved`] when they are a whole solution turn and either `ended`, or the
    ///   turn cannot go on by any legal step (the turn is over by the rules);
    /// - [`Verdict::Continue`] otherwise: more steps are to come, or the player may still
    ///   end the turn here.
    ///
    /// ```
    /// use fanorona_ai::puzzles::{Puzzle, PuzzleKind, Verdict};
    /// use fanorona_core::Position;
    ///
    /// // White's h2 must make a chain of three captures.
    /// let pos = Position::from_fen("3B1B1B1/5B1W1/7B1/7WW/1W5WW w 0 7")?;
    /// let chain = pos.parse_turn("h2-g3A-f3W-f4A")?;
    /// let p = Puzzle::new("chain", pos, vec![chain], PuzzleKind::Tactic { depth: 6 }, vec![], 1500)?;
    /// let steps: Vec<_> = chain.steps().collect();
    /// assert_eq!(p.judge(&steps[..1], false), Verdict::Continue);
    /// assert_eq!(p.judge(&steps[..1], true), Verdict::Wrong); // stopped too early
    /// assert_eq!(p.judge(&steps, true), Verdict::Solved);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn judge(&self, steps: &[Step], ended: bool) -> Verdict {
        if steps.is_empty() {
            return if ended {
                Verdict::Wrong
            } else {
                Verdict::Continue
            };
        }
        let prefix_of =
            |t: &Turn| t.len() >= steps.len() && t.steps().zip(steps).all(|(a, b)| a == *b);
        if !self.solution.iter().any(prefix_of) {
            return Verdict::Wrong;
        }
        let whole = self
            .solution
            .iter()
            .any(|t| t.len() == steps.len() && prefix_of(t));
        if ended {
            return if whole {
                Verdict::Solved
            } else {
                Verdict::Wrong
            };
        }
        if whole && !self.can_go_on(steps) {
            Verdict::Solved
        } else {
            Verdict::Continue
        }
    }

    /// Whether a legal turn extends `steps` by another step.
    fn can_go_on(&self, steps: &[Step]) -> bool {
        let mut builder = self.position.begin_turn();
        for s in steps {
            if builder.play_step(*s).is_err() {
                return false;
            }
        }
        !builder.legal_steps().is_empty()
    }
}

/// Two puzzles of a set have this id.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct DuplicateId(pub String);

impl fmt::Display for DuplicateId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "two puzzles have the id {}",
            fanorona_core::escape::quoted(&self.0)
        )
    }
}

impl std::error::Error for DuplicateId {}

/// A set of puzzles, in the order of its file.
///
/// Read one with [`PuzzleSet::parse`] (or `str::parse`); `Display` writes the puzzle format
/// back, so that parsing it gives the same set.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct PuzzleSet {
    puzzles: Vec<Puzzle>,
}

impl PuzzleSet {
    /// A set of these puzzles.
    ///
    /// # Errors
    ///
    /// [`DuplicateId`] when two puzzles have the same id.
    pub fn new(puzzles: Vec<Puzzle>) -> Result<PuzzleSet, DuplicateId> {
        let mut ids: Vec<&str> = puzzles.iter().map(Puzzle::id).collect();
        ids.sort_unstable();
        if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
            return Err(DuplicateId(w[0].to_owned()));
        }
        Ok(PuzzleSet { puzzles })
    }

    /// Reads a set in the puzzle format ([`docs/puzzles.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/puzzles.md)).
    ///
    /// # Errors
    ///
    /// [`ParseError`]: the line, the column and what is wrong.
    pub fn parse(text: &str) -> Result<PuzzleSet, ParseError> {
        format::parse(text)
    }

    /// The number of puzzles.
    pub fn len(&self) -> usize {
        self.puzzles.len()
    }

    /// Whether the set has no puzzle.
    pub fn is_empty(&self) -> bool {
        self.puzzles.is_empty()
    }

    /// The puzzles, in order.
    pub fn puzzles(&self) -> &[Puzzle] {
        &self.puzzles
    }

    /// The puzzle with this id.
    pub fn get(&self, id: &str) -> Option<&Puzzle> {
        self.puzzles.iter().find(|p| p.id == id)
    }

    /// Adds the puzzles of `other` (the union of two sets).
    ///
    /// # Errors
    ///
    /// [`DuplicateId`] for an id of `other` already in this set; this set is then unchanged.
    pub fn extend(&mut self, other: PuzzleSet) -> Result<(), DuplicateId> {
        if let Some(p) = other.puzzles.iter().find(|p| self.get(&p.id).is_some()) {
            return Err(DuplicateId(p.id.clone()));
        }
        self.puzzles.extend(other.puzzles);
        Ok(())
    }

    /// The puzzles of `board` (all boards when `None`) that have `theme` (any when `None`),
    /// in order.
    pub fn filter(
        &self,
        board: Option<BoardSize>,
        theme: Option<Theme>,
    ) -> impl Iterator<Item = &Puzzle> + '_ {
        self.puzzles.iter().filter(move |p| {
            board.is_none_or(|b| p.size() == b) && theme.is_none_or(|t| p.has_theme(t))
        })
    }

    /// The daily puzzle of day `day` (days since 1970-01-01, UTC: see [`day_number`]) among
    /// the puzzles of `board` (all when `None`): the same for everybody all day, chosen by a
    /// hash of the day; `None` when there is no puzzle of that board.
    pub fn daily(&self, day: i64, board: Option<BoardSize>) -> Option<&Puzzle> {
        let n = self.filter(board, None).count() as u64;
        if n == 0 {
            return None;
        }
        let pick = crate::rng::mix(day as u64 ^ 0x5EED_DA11_0000_0000) % n;
        self.filter(board, None).nth(pick as usize)
    }
}

impl fmt::Display for PuzzleSet {
    /// The set in the puzzle format: the header line, then one line a puzzle.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        format::write(self, f)
    }
}

impl FromStr for PuzzleSet {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<PuzzleSet, ParseError> {
        PuzzleSet::parse(s)
    }
}

/// The day of `time` in days since 1970-01-01 (UTC), for [`PuzzleSet::daily`]; negative
/// before 1970.
pub fn day_number(time: std::time::SystemTime) -> i64 {
    match time.duration_since(std::time::UNIX_EPOCH) {
        Ok(d) => (d.as_secs() / 86_400) as i64,
        Err(e) => -(e.duration().as_secs().div_ceil(86_400) as i64),
    }
}

/// The day number of a calendar date (proleptic Gregorian, UTC), for [`PuzzleSet::daily`]:
/// `day_of_date(1970, 1, 1)` is 0. `None` for a month outside 1..=12 or a day outside the
/// month.
///
/// ```
/// use fanorona_ai::puzzles::day_of_date;
///
/// assert_eq!(day_of_date(1970, 1, 1), Some(0));
/// assert_eq!(day_of_date(2000, 3, 1), Some(11_017));
/// assert_eq!(day_of_date(2023, 2, 29), None);
/// ```
pub fn day_of_date(year: i32, month: u32, day: u32) -> Option<i64> {
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days_in = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if !(1..=12).contains(&month) || day == 0 || day > days_in[month as usize - 1] {
        return None;
    }
    // Howard Hinnant's days_from_civil.
    let y = i64::from(year) - i64::from(month <= 2);
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

/// The puzzle set shipped in the binary: the 5x9 puzzles, the 5x9 endgames, then the 5x5
/// puzzles ([`SHIPPED_5X9`], [`SHIPPED_5X9_ENDGAMES`], [`SHIPPED_5X5`]), parsed at each call
/// (a few milliseconds).
///
/// ```
/// use fanorona_ai::puzzles;
/// use fanorona_core::BoardSize;
///
/// let set = puzzles::shipped();
/// assert!(set.filter(Some(BoardSize::STANDARD), None).count() > 0);
/// assert!(set.filter(Some(BoardSize::DIMY), None).count() >= 50);
/// ```
pub fn shipped() -> PuzzleSet {
    let mut set = PuzzleSet::parse(SHIPPED_5X9).expect("the shipped 5x9 set parses");
    for more in [SHIPPED_5X9_ENDGAMES, SHIPPED_5X5] {
        set.extend(PuzzleSet::parse(more).expect("the shipped sets parse"))
            .expect("the shipped sets have distinct ids");
    }
    set
}

#[cfg(test)]
mod tests;
