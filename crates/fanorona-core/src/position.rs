//! Positions: stones on a board, the side to move, the rule options and the counters that
//! rules depend on.

use core::fmt;

use crate::movegen::{self, Counter};
use crate::outcome::{EndReason, Outcome};
use crate::{
    Bitboard, BoardSize, Color, GameKind, Geometry, IllegalReason, PlayError, Point, Rules,
    StepKind, StuckRule, Turn, TurnList, variants, zobrist,
};

/// An unchecked position: plain data, not necessarily legal. Turn it into a [`Position`] with
/// [`Position::from_setup`].
///
/// It may gain fields (it is `#[non_exhaustive]`): start from [`Setup::empty`] or
/// [`Position::to_setup`] and set fields.
///
/// ```
/// use fanorona_core::{BoardSize, Color, Position, Rules, Setup};
///
/// let size = BoardSize::DIMY;
/// let mut setup = Setup::empty(size);
/// setup.white = [size.point(0, 0), size.point(1, 1)].into_iter().flatten().collect();
/// setup.black = size.parse_point("e5").into_iter().collect();
/// setup.side_to_move = Color::Black;
/// let pos = Position::from_setup(setup, Rules::STANDARD)?;
/// assert_eq!(pos.to_fen(), "4B/5/5/1W3/W4 b");
/// # Ok::<(), fanorona_core::PositionError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Setup {
    /// The board.
    pub size: BoardSize,
    /// White's stones.
    pub white: Bitboard,
    /// Black's stones.
    pub black: Bitboard,
    /// The side to move.
    pub side_to_move: Color,
    /// Consecutive turns without a capture so far (for the no-capture limit).
    pub no_capture_count: u16,
    /// The turn number, starting at 1 and growing after each Black turn (for the opening
    /// restriction, which applies to each side's turn in turn 1).
    pub turn_number: u16,
}

impl Setup {
    /// The empty board of `size`, White to move, no turn without capture yet, turn 1.
    pub fn empty(size: BoardSize) -> Setup {
        Setup {
            size,
            white: Bitboard::EMPTY,
            black: Bitboard::EMPTY,
            side_to_move: Color::White,
            no_capture_count: 0,
            turn_number: 1,
        }
    }
}

/// What makes a [`Setup`] unusable.
///
/// # Examples
///
/// ```
/// use fanorona_core::{BoardSize, Bitboard, Position, PositionError, Rules, Setup};
///
/// let mut setup = Setup::empty(BoardSize::TELO);
/// setup.white = Bitboard::from_bits(0b1_1111); // five stones
/// let e = Position::from_setup(setup, Rules::TELO).unwrap_err();
/// assert!(matches!(e, PositionError::TooManyStones(_)));
/// // Fanoron-Telo is played on the 3x3 board only.
/// let e = Position::start_with(BoardSize::STANDARD, Rules::TELO).unwrap_err();
/// assert!(matches!(e, PositionError::WrongBoard(_)));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum PositionError {
    /// A point holds both a white and a black stone.
    Overlap(Point),
    /// A stone lies outside the board: the index of its bit, past the board's points.
    OffBoard {
        /// The bit's index (at least the board's number of points).
        index: u8,
    },
    /// The turn number is 0 (turns count from 1).
    ZeroTurnNumber,
    /// The rules' game is not played on this board (Fanoron-Telo needs the 3x3 board).
    WrongBoard(GameKind),
    /// A side has more stones than the game gives it (three in Fanoron-Telo).
    TooManyStones(Color),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Overlap(p) => {
                write!(f, "point {p} holds both a white and a black stone")
            }
            PositionError::OffBoard { index } => {
                write!(f, "a stone on point index {index} lies outside the board")
            }
            PositionError::ZeroTurnNumber => write!(f, "the turn number must be at least 1"),
            PositionError::WrongBoard(game) => write!(
                f,
                "the game {} is played on the 3x3 board only",
                game.name()
            ),
            PositionError::TooManyStones(c) => {
                write!(f, "{c} has more than the three stones of Fanoron-Telo")
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// A legal position: where the stones are, who moves, and under which rules.
///
/// Positions are small `Copy` values (about 48 bytes); [`Position::play`] returns a new one.
///
/// # Examples
///
/// ```
/// use fanorona_core::{Color, Position};
///
/// let pos = Position::standard();
/// assert_eq!(pos.side_to_move(), Color::White);
/// assert_eq!(pos.stones(Color::White).count(), 22);
/// let turn = pos.parse_turn("f2-e3A")?;
/// let next = pos.play(&turn)?;
/// assert_eq!(next.stones(Color::Black).count(), 20); // f2-e3A captures d4 and c5
/// assert_eq!(next.to_string(), "BB1BBBBBB/BBB1BBBBB/BWBWWBWBW/WWWWW1WWW/WWWWWWWWW b");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct Position {
    pub(crate) geo: &'static Geometry,
    pub(crate) stones: [u64; 2],
    pub(crate) side: Color,
    pub(crate) rules: Rules,
    pub(crate) no_capture: u16,
    pub(crate) turn_number: u16,
    pub(crate) hash: u64,
}

impl Position {
    /// The start of the standard game (Fanoron-Tsivy, 5x9) under the standard rules.
    pub fn standard() -> Position {
        Position::start(BoardSize::STANDARD)
    }

    /// The starting position of any board size under the standard rules.
    ///
    /// White fills the ranks below the middle one, Black those above; the middle rank reads
    /// Black, White, Black, ... from the left, skipping the centre, which stays empty.
    ///
    /// ```
    /// use fanorona_core::{BoardSize, Position};
    /// assert_eq!(Position::start(BoardSize::DIMY).to_fen(), "BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w");
    /// assert_eq!(Position::start(BoardSize::TELO).to_fen(), "BBB/B1W/WWW w");
    /// ```
    pub fn start(size: BoardSize) -> Position {
        let (rows, cols) = (size.rows(), size.cols());
        let mid = rows / 2;
        let mut white = 0u64;
        let mut black = 0u64;
        for rank in 0..rows {
            let mut k = 0;
            for file in 0..cols {
                let bit = 1u64 << (rank * cols + file);
                if rank < mid {
                    white |= bit;
                } else if rank > mid {
                    black |= bit;
                } else if file != cols / 2 {
                    if k % 2 == 0 {
                        black |= bit;
                    } else {
                        white |= bit;
                    }
                    k += 1;
                }
            }
        }
        let geo = size.geometry();
        let mut pos = Position {
            geo,
            stones: [white, black],
            side: Color::White,
            rules: Rules::STANDARD,
            no_capture: 0,
            turn_number: 1,
            hash: 0,
        };
        pos.hash = pos.compute_zobrist();
        pos
    }

    /// The starting position of any board size under the given rules, or why there is none:
    /// the stones of [`Position::start`] for the capture games, the empty 3x3 board for
    /// Fanoron-Telo (`game=telo`).
    ///
    /// ```
    /// use fanorona_core::{BoardSize, Position, PositionError, Rules};
    ///
    /// let telo = Position::start_with(BoardSize::TELO, Rules::TELO)?;
    /// assert_eq!(telo.to_fen(), "3/3/3 w telo");
    /// assert_eq!(
    ///     Position::start_with(BoardSize::STANDARD, Rules::TELO),
    ///     Err(PositionError::WrongBoard(Rules::TELO.game())),
    /// );
    /// # Ok::<(), PositionError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`PositionError::WrongBoard`] when the rules' game is not played on this board.
    pub fn start_with(size: BoardSize, rules: Rules) -> Result<Position, PositionError> {
        if rules.game == GameKind::Telo {
            return Position::from_setup(Setup::empty(size), rules);
        }
        Position::start(size).with_rules(rules)
    }

    /// Checks a [`Setup`] and makes it a position under `rules`.
    ///
    /// Any arrangement of stones is accepted, including positions where a side has no stones
    /// (the game is then over).
    ///
    /// # Errors
    ///
    /// [`PositionError`] when stones overlap or lie off the board, or the turn number is 0.
    pub fn from_setup(setup: Setup, rules: Rules) -> Result<Position, PositionError> {
        let geo = setup.size.geometry();
        let all = geo.all().bits();
        let (w, b) = (setup.white.bits(), setup.black.bits());
        let off = (w | b) & !all;
        if off != 0 {
            return Err(PositionError::OffBoard {
                index: off.trailing_zeros() as u8,
            });
        }
        if let Some(p) = Bitboard::from_bits(w & b).first(setup.size) {
            return Err(PositionError::Overlap(p));
        }
        if setup.turn_number == 0 {
            return Err(PositionError::ZeroTurnNumber);
        }
        if rules.game == GameKind::Telo {
            if setup.size != BoardSize::TELO {
                return Err(PositionError::WrongBoard(rules.game));
            }
            for (c, bb) in [(Color::White, w), (Color::Black, b)] {
                if bb.count_ones() > variants::TELO_STONES {
                    return Err(PositionError::TooManyStones(c));
                }
            }
        }
        let mut pos = Position {
            geo,
            stones: [w, b],
            side: setup.side_to_move,
            rules,
            no_capture: setup.no_capture_count,
            turn_number: setup.turn_number,
            hash: 0,
        };
        pos.hash = pos.compute_zobrist();
        Ok(pos)
    }

    /// The plain data of this position.
    pub fn to_setup(&self) -> Setup {
        Setup {
            size: self.size(),
            white: self.stones(Color::White),
            black: self.stones(Color::Black),
            side_to_move: self.side,
            no_capture_count: self.no_capture,
            turn_number: self.turn_number,
        }
    }

    /// The same position under other rules, checked as [`Position::from_setup`] checks a
    /// setup (Fanoron-Telo needs the 3x3 board and at most three stones a side).
    ///
    /// ```
    /// use fanorona_core::{Position, Rules};
    ///
    /// let pos = Position::from_fen("3/1W1/3 b")?;
    /// assert!(pos.with_rules(Rules::TELO).is_ok());
    /// assert!(Position::standard().with_rules(Rules::TELO).is_err());
    /// # Ok::<(), fanorona_core::FenError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The [`PositionError`] of the setup under `rules`.
    pub fn with_rules(&self, rules: Rules) -> Result<Position, PositionError> {
        Position::from_setup(self.to_setup(), rules)
    }

    /// The same position under other rules, unchecked (for engines that switch options of
    /// one game, such as the no-capture limit): the caller keeps the rules' game possible on
    /// this board, which [`Position::with_rules`] checks.
    pub fn with_rules_unchecked(mut self, rules: Rules) -> Position {
        self.rules = rules;
        self
    }

    /// The board size.
    #[inline]
    pub fn size(&self) -> BoardSize {
        self.geo.size()
    }

    /// The board's neighbour tables.
    #[inline]
    pub fn geometry(&self) -> &'static Geometry {
        self.geo
    }

    /// The rule options in force.
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The stones of one side.
    #[inline]
    pub fn stones(&self, color: Color) -> Bitboard {
        Bitboard::from_bits(self.stones[color.index()])
    }

    /// All stones of both sides.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        Bitboard::from_bits(self.stones[0] | self.stones[1])
    }

    /// The empty points.
    #[inline]
    pub fn empty(&self) -> Bitboard {
        Bitboard::from_bits(self.geo.all().bits() & !(self.stones[0] | self.stones[1]))
    }

    /// The points of `set` on this position's board, lowest index first: the stones of a
    /// side, a turn's captures, a builder's highlights, listed without passing the board size.
    ///
    /// ```
    /// use fanorona_core::{Color, Position};
    ///
    /// let pos = Position::from_fen("3/1W1/B2 w")?;
    /// let names: Vec<String> = pos.points(pos.occupied()).map(|p| p.to_string()).collect();
    /// assert_eq!(names, ["a1", "b2"]);
    /// assert_eq!(pos.points(pos.stones(Color::White)).count(), 1);
    /// # Ok::<(), fanorona_core::FenError>(())
    /// ```
    #[inline]
    pub fn points(&self, set: Bitboard) -> crate::Points {
        set.points(self.size())
    }

    /// The colour of the stone on `point`, if any (none for a point of another board).
    #[inline]
    pub fn stone_at(&self, point: Point) -> Option<Color> {
        let i = point.index();
        if !self.size().contains(point) {
            None
        } else if self.stones[0] >> i & 1 == 1 {
            Some(Color::White)
        } else if self.stones[1] >> i & 1 == 1 {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// Consecutive turns without a capture that led to this position.
    #[inline]
    pub fn no_capture_count(&self) -> u16 {
        self.no_capture
    }

    /// The turn number: 1 for each side's first turn, growing after each Black turn.
    #[inline]
    pub fn turn_number(&self) -> u16 {
        self.turn_number
    }

    /// The Zobrist hash of the stones, the side to move and the board size. Kept up to date by
    /// [`Position::play`]; always equal to [`Position::compute_zobrist`].
    #[inline]
    pub fn zobrist(&self) -> u64 {
        self.hash
    }

    /// Computes the Zobrist hash from scratch.
    pub fn compute_zobrist(&self) -> u64 {
        let mut h = zobrist::size(self.size())
            ^ zobrist::stones(Color::White, self.stones[0])
            ^ zobrist::stones(Color::Black, self.stones[1]);
        if self.side == Color::Black {
            h ^= zobrist::black_to_move();
        }
        h
    }

    /// Whether two positions have the same stones, board and side to move (counters and
    /// rules aside): the test of repetition.
    #[inline]
    pub fn same_placement(&self, other: &Position) -> bool {
        self.hash == other.hash
            && self.stones == other.stones
            && self.side == other.side
            && core::ptr::eq(self.geo, other.geo)
    }

    /// Whether the opening restriction limits the side to move to a single capture step.
    #[inline]
    pub fn is_opening_restricted(&self) -> bool {
        self.rules.opening_restriction && self.turn_number == 1
    }

    /// Whether the side to move has a capture (and so must capture). Never in Fanoron-Telo,
    /// nor for the side giving the handicap during the Vela phase (it may not capture: White
    /// under Montgomery's Vela, Black under Bell's).
    #[inline]
    pub fn has_capture(&self) -> bool {
        if self.rules.game != GameKind::Capture {
            return variants::has_capture(self);
        }
        movegen::capture_masks(self).1
    }

    /// Whether the Vela restriction is in force: the game is Vela (`game=vela`) and the side
    /// giving the handicap ([`VelaRule::giver`](crate::VelaRule::giver): White under
    /// Montgomery's Vela, the default, Black under Bell's) has more than five stones. That side
    /// only makes paika moves, the other captures one stone per turn.
    ///
    /// ```
    /// use fanorona_core::{BoardSize, Position, Rules};
    ///
    /// let vela = Position::start_with(BoardSize::STANDARD, Rules::VELA)?;
    /// assert!(vela.is_vela_phase());
    /// assert!(!vela.has_capture());
    /// assert!(vela.legal_turns().iter().all(|t| t.is_paika()));
    /// # Ok::<(), fanorona_core::PositionError>(())
    /// ```
    #[inline]
    pub fn is_vela_phase(&self) -> bool {
        variants::vela_restricted(self)
    }

    /// Whether the side to move places a stone this turn (Fanoron-Telo, while it has fewer
    /// than three stones on the board).
    #[inline]
    pub fn is_placement_phase(&self) -> bool {
        self.rules.game == GameKind::Telo
            && self.stones[self.side.index()].count_ones() < variants::TELO_STONES
    }

    /// All legal turns: every paika when no capture exists, otherwise every capture chain,
    /// each stopping point of a chain and each approach/withdrawal choice a turn of its own.
    ///
    /// Allocates nothing for ordinary positions (see [`TurnList`]).
    pub fn legal_turns(&self) -> TurnList {
        let mut list = TurnList::new();
        movegen::generate(self, u64::MAX, &mut list);
        list
    }

    /// The legal turns that lead to distinct positions: of the turns that share a start, an
    /// end and the stones they capture (different paths of one chain, say), only the first in
    /// the order of [`Position::legal_turns`] is kept. Playing these gives every position
    /// [`Position::legal_turns`] reaches, each once: what a search needs.
    ///
    /// ```
    /// use fanorona_core::Position;
    ///
    /// // Black's h4 can reach f1 by two paths that take the same white stones.
    /// let pos = Position::from_fen("BB3B1BB/BB3WBBB/5W2W/WB4WWW/4W2WW b 0 5")?;
    /// let long = pos.parse_turn("h4-h3A-g3A-h2W-g1W-f1A")?;
    /// let short = pos.parse_turn("h4-h3A-g3W-f2A-f1W")?;
    /// assert_eq!(pos.play(&long)?, pos.play(&short)?);
    /// let unique = pos.unique_turns();
    /// assert_eq!((pos.legal_turns().len(), unique.len()), (28, 27));
    /// assert!(unique.contains(&long) != unique.contains(&short));
    /// assert_eq!(pos.count_unique_turns(), 27);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn unique_turns(&self) -> TurnList {
        let mut list = TurnList::new();
        movegen::generate(self, u64::MAX, &mut movegen::Unique::new(&mut list));
        list
    }

    /// [`Position::unique_turns`] into `list` (cleared first): the same turns without moving
    /// a list, for callers that keep one (a search, say).
    #[inline]
    pub fn unique_turns_into(&self, list: &mut TurnList) {
        list.clear();
        movegen::generate(self, u64::MAX, &mut movegen::Unique::new(list));
    }

    /// The number of [`Position::unique_turns`], counted without building them.
    pub fn count_unique_turns(&self) -> u64 {
        movegen::count_unique(self)
    }

    /// Calls `f` with every legal turn, in the order of [`Position::legal_turns`], without
    /// building a list.
    pub fn for_each_turn(&self, f: impl FnMut(Turn)) {
        let mut sink = movegen::FnSink(f);
        movegen::generate(self, u64::MAX, &mut sink);
    }

    /// Calls `f` with every legal turn of the stone on `from` (none when it is not a stone of
    /// the side to move, or a point of another board). Capture stays compulsory: when any
    /// stone can capture, only captures are legal, for this stone too.
    pub fn for_each_turn_from(&self, from: Point, f: impl FnMut(Turn)) {
        if !self.size().contains(from) {
            return;
        }
        let mut sink = movegen::FnSink(f);
        movegen::generate(self, from.bit().bits(), &mut sink);
    }

    /// The number of legal turns, counted without building them.
    pub fn count_turns(&self) -> u64 {
        let mut counter = Counter(0);
        movegen::generate(self, u64::MAX, &mut counter);
        counter.0
    }

    /// Whether the side to move has at least one legal turn.
    pub fn has_legal_turn(&self) -> bool {
        movegen::has_legal_turn(self)
    }

    /// Whether `turn` is legal here.
    pub fn is_legal(&self, turn: &Turn) -> bool {
        if turn.size() != self.size() {
            return false;
        }
        let mut found = false;
        self.for_each_turn_from(turn.from(), |t| found |= t == *turn);
        found
    }

    /// Plays a legal turn and returns the new position.
    ///
    /// # Errors
    ///
    /// [`PlayError::Illegal`] with the reason when the turn is not legal here: a turn of
    /// another position or board, a stale turn, a turn after the end of the game.
    ///
    /// # Examples
    ///
    /// ```
    /// use fanorona_core::{BoardSize, IllegalReason, PlayError, Position};
    ///
    /// let pos = Position::standard();
    /// let turn = pos.parse_turn("f2-e3A")?;
    /// let next = pos.play(&turn)?;
    /// // The same turn again is stale: f2 is empty now.
    /// assert!(matches!(
    ///     next.play(&turn),
    ///     Err(PlayError::Illegal { reason: IllegalReason::OpponentStone(_) | IllegalReason::NoStone(_), .. })
    /// ));
    /// // A turn of the 5x5 board on the 5x9 board.
    /// let small = Position::start(BoardSize::DIMY);
    /// let other = small.legal_turns()[0];
    /// assert!(matches!(
    ///     pos.play(&other),
    ///     Err(PlayError::Illegal { reason: IllegalReason::WrongBoard { .. }, .. })
    /// ));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn play(&self, turn: &Turn) -> Result<Position, PlayError> {
        if self.is_legal(turn) {
            Ok(self.play_unchecked(turn))
        } else {
            Err(PlayError::Illegal {
                turn: *turn,
                reason: self.why_illegal(turn),
            })
        }
    }

    /// Whether `turn` passes the cheap necessary conditions of legality that
    /// [`Position::play_unchecked`] asserts: its board, the mover's stone on its start, an end
    /// that is empty or emptied by the turn (a placement's start and end are the same empty
    /// point), and captures that are all the opponent's stones.
    #[inline]
    fn may_be_legal(&self, turn: &Turn) -> bool {
        let us = self.stones[self.side.index()];
        let them = self.stones[self.side.other().index()];
        let from = 1u64 << turn.start_index();
        let to = 1u64 << turn.end_index();
        let captured = turn.captured().bits();
        // A chain may end on a point it emptied by an earlier capture of the same turn.
        let start_ok = if turn.is_placement() {
            (us | them) & from == 0
        } else {
            us & from != 0 && us & to == 0 && (them & to == 0 || captured & to != 0)
        };
        turn.size() == self.size() && start_ok && captured & !them == 0
    }

    /// Why `turn` is not legal here (for a turn known not to be).
    fn why_illegal(&self, turn: &Turn) -> IllegalReason {
        if turn.size() != self.size() {
            return IllegalReason::WrongBoard {
                turn: turn.size(),
                position: self.size(),
            };
        }
        let steps: Vec<(Point, Option<StepKind>)> = turn
            .steps()
            .map(|s| (s.to, s.kind.is_capture().then_some(s.kind)))
            .collect();
        self.illegal_reason(turn.from(), &steps)
    }

    /// Plays a turn without checking it and returns the new position: the fast path for
    /// engines that play the turns they just generated.
    ///
    /// The turn must be legal in this position (from [`Position::legal_turns`], parsed by
    /// [`Position::parse_turn`] or finished by a [`TurnBuilder`](crate::TurnBuilder)).
    /// [`Position::play`] checks it.
    ///
    /// # Panics
    ///
    /// In builds with debug assertions, when the turn cannot be legal here: a turn of another
    /// board, or one whose stone is not the mover's, whose end point holds a stone it does
    /// not capture, or whose captures are not all the opponent's stones (a stale turn or one of another position).
    /// These checks cost a few bit operations, so that engines keep their speed in debug
    /// builds; [`Position::play`] checks full legality. Without debug assertions an illegal
    /// turn gives a position the rules cannot reach (never undefined behaviour).
    ///
    /// ```
    /// use fanorona_core::Position;
    ///
    /// let pos = Position::standard();
    /// for turn in pos.legal_turns() {
    ///     assert_eq!(pos.play_unchecked(&turn), pos.play(&turn).unwrap());
    /// }
    /// ```
    #[inline]
    pub fn play_unchecked(&self, turn: &Turn) -> Position {
        debug_assert!(
            self.may_be_legal(turn),
            "play_unchecked: {turn} is not legal in {self}"
        );
        let mut next = *self;
        let us = self.side;
        let them = us.other();
        let move_bits = (1u64 << turn.start_index()) | (1u64 << turn.end_index());
        let captured = turn.captured().bits();
        next.stones[us.index()] ^= move_bits;
        next.stones[them.index()] &= !captured;
        // A placement has from == to: its single bit is toggled on, and hashed once.
        next.hash ^= zobrist::stones(us, move_bits)
            ^ zobrist::stones(them, captured)
            ^ zobrist::black_to_move();
        next.side = them;
        next.no_capture = if captured != 0 {
            0
        } else {
            self.no_capture.saturating_add(1)
        };
        if us == Color::Black {
            next.turn_number = self.turn_number.saturating_add(1);
        }
        next
    }

    /// The same stones with the other side to move, as if the side to move had passed: the
    /// "null move" of search heuristics. Passing is never a legal turn in Fanorona; this is
    /// only a question a search may ask ("what if the opponent could move twice?"). The
    /// counters stay as they are.
    ///
    /// ```
    /// use fanorona_core::{Color, Position};
    ///
    /// let pos = Position::standard();
    /// let passed = pos.null_move();
    /// assert_eq!(passed.side_to_move(), Color::Black);
    /// assert_eq!(passed.stones(Color::White), pos.stones(Color::White));
    /// assert_eq!(passed.zobrist(), passed.compute_zobrist());
    /// assert_eq!(passed.null_move(), pos);
    /// ```
    #[inline]
    pub fn null_move(&self) -> Position {
        let mut next = *self;
        next.side = self.side.other();
        next.hash ^= zobrist::black_to_move();
        next
    }

    /// The end of the game as far as this position alone decides it: in Fanoron-Telo a line
    /// of three (its side wins); in the capture game the side to move has no stones (it
    /// loses); in both, the side to move has no legal turn (it loses, or draws under
    /// [`StuckRule::Draws`]). Under Bell's Vela, the side receiving the handicap with no
    /// capture during the restriction loses whatever the stuck rule says
    /// ([`EndReason::NoVelaCapture`]). Repetition and the no-capture limit need the game's history:
    /// see [`Game::outcome`](crate::Game::outcome).
    pub fn outcome(&self) -> Option<Outcome> {
        let us = self.side;
        if self.rules.game == GameKind::Telo {
            if let Some(winner) = variants::telo_winner(self) {
                return Some(Outcome::win(winner, EndReason::Alignment));
            }
        } else if self.stones[us.index()] == 0 {
            return Some(Outcome::win(us.other(), EndReason::NoStones));
        }
        if !self.has_legal_turn() {
            if variants::bell_receiver(self) {
                return Some(Outcome::win(us.other(), EndReason::NoVelaCapture));
            }
            return Some(match self.rules.stuck {
                StuckRule::Loses => Outcome::win(us.other(), EndReason::Stuck),
                StuckRule::Draws => Outcome::draw(EndReason::Stuck),
            });
        }
        None
    }
}

impl Default for Position {
    /// The start of the standard game, [`Position::standard`].
    fn default() -> Position {
        Position::standard()
    }
}

impl PartialEq for Position {
    /// Positions are equal when stones, side to move, board, rules and counters all agree.
    fn eq(&self, other: &Position) -> bool {
        self.same_placement(other)
            && self.rules == other.rules
            && self.no_capture == other.no_capture
            && self.turn_number == other.turn_number
    }
}

impl Eq for Position {}

impl core::hash::Hash for Position {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl fmt::Display for Position {
    /// The position string (see [`Position::to_fen`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

/// With serde, a position is written as its position string and its rules:
/// `{"fen": "BBB/B1W/WWW w", "rules": {...}}`.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(
    rename = "Position",
    expecting = "a position: its position string and rules"
)]
struct PositionRepr {
    fen: String,
    #[serde(default)]
    rules: Rules,
}

#[cfg(feature = "serde")]
impl serde::Serialize for Position {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        PositionRepr {
            fen: self.to_fen(),
            rules: self.rules,
        }
        .serialize(s)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Position {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Position, D::Error> {
        let repr = PositionRepr::deserialize(d)?;
        Position::from_fen_with(&repr.fen, repr.rules).map_err(serde::de::Error::custom)
    }
}
