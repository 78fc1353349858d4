//! The numbers of v0.1.0 (copied from `src/params.rs` at commit 81132a4): evaluation weights,
//! search margins and time management.
//!
//! Scores are in centi-stones: one stone of material is worth [`STONE`] = 100.

// ---- Evaluation -------------------------------------------------------------------------

/// The value of one stone.
pub(super) const STONE: i32 = 100;
/// Bonus per own stone on a strong point (where diagonals cross: more lines, more captures).
pub(super) const STRONG_POINT: i32 = 3;
/// Bonus per available step of an own stone to an empty neighbour (mobility).
pub(super) const MOBILITY: i32 = 2;
/// Per own stone with no friendly neighbour on any line (isolated stones are easy targets
/// and defend nothing); negative, so a penalty.
pub(super) const ISOLATED: i32 = -4;
/// Trading down when ahead: `material difference * TRADE_WEIGHT / (stones on board +
/// TRADE_OFFSET)` is added, so the same lead is worth more with fewer stones left.
pub(super) const TRADE_WEIGHT: i32 = 600;
/// See [`TRADE_WEIGHT`].
pub(super) const TRADE_OFFSET: i32 = 4;
/// At most this many stones on the board count as an endgame, where the side ahead is
/// rewarded for closing in on the enemy (otherwise a won ending drifts into the no-capture
/// limit).
pub(super) const ENDGAME_STONES: u32 = 12;
/// Endgame: per point of distance between the two armies' centres, a penalty for the side
/// ahead in material.
pub(super) const ENDGAME_PROXIMITY: i32 = 6;
/// The bonus for having the move in a quiet position.
pub(super) const TEMPO: i32 = 5;
/// The evaluation shrinks as the no-capture counter grows, reaching
/// `(NO_CAPTURE_SCALE - 1) / NO_CAPTURE_SCALE` of its value at the limit: a lead that cannot be
/// converted before the limit is worth less.
pub(super) const NO_CAPTURE_SCALE: i32 = 2;

// ---- Scores -----------------------------------------------------------------------------

/// The score of a won game at the root; a win in `n` plies scores `WIN - n`.
pub(super) const WIN: i32 = 30_000;
/// Scores beyond this are wins (or, negated, losses) at a known distance.
pub(super) const WIN_BOUND: i32 = WIN - MAX_PLY as i32;
/// Greater than every score.
pub(super) const INFINITY: i32 = 32_000;
/// The score of a drawn position (repetition, no-capture limit, stuck under the draw rule).
pub(super) const DRAW: i32 = 0;

// ---- Search -----------------------------------------------------------------------------

/// The deepest ply the search reaches, quiescence included.
pub(super) const MAX_PLY: usize = 128;
/// The deepest nominal depth of iterative deepening.
pub(super) const MAX_DEPTH: u32 = 64;
/// Quiescence: at most this many plies of forced captures below the horizon, then the static
/// evaluation.
pub(super) const QS_MAX_PLY: i32 = 12;
/// Quiescence: at most this many capture turns per node, best-ordered first (chains with many
/// stopping points would otherwise explode the forced opening sequences).
pub(super) const QS_MAX_MOVES: usize = 6;
/// Quiescence: a side that must capture, whose static evaluation already beats beta by this
/// margin, is assumed to reach beta (its capture gains at least a stone).
pub(super) const QS_STAND_PAT_MARGIN: i32 = 0;
/// Aspiration window: the first half-width around the previous iteration's score.
pub(super) const ASPIRATION_DELTA: i32 = 35;
/// Aspiration window: once the half-width has grown beyond this, the full window is used.
pub(super) const ASPIRATION_MAX_DELTA: i32 = 1120;
/// Aspiration windows start at this depth.
pub(super) const ASPIRATION_MIN_DEPTH: u32 = 4;
/// Late move reductions apply from this remaining depth on.
pub(super) const LMR_MIN_DEPTH: i32 = 3;
/// Late move reductions apply from this move number on (the first moves are searched fully).
pub(super) const LMR_MIN_MOVE: usize = 3;
/// Reduction = `LMR_BASE + ln(depth) * ln(move number) / LMR_DIVISOR`, in plies (x100).
pub(super) const LMR_BASE: i32 = 50;
/// See [`LMR_BASE`] (x100).
pub(super) const LMR_DIVISOR: i32 = 250;
/// History scores saturate at this magnitude.
pub(super) const HISTORY_MAX: i32 = 16_384;

// ---- Move ordering ----------------------------------------------------------------------

/// Ordering score of the transposition table's move.
pub(super) const ORDER_TT: i32 = 1 << 30;
/// Ordering base of captures; each captured stone adds [`ORDER_PER_STONE`].
pub(super) const ORDER_CAPTURE: i32 = 1 << 24;
/// See [`ORDER_CAPTURE`].
pub(super) const ORDER_PER_STONE: i32 = 1 << 16;
/// Ordering score of the first killer move (the second gets one less).
pub(super) const ORDER_KILLER: i32 = 1 << 20;

// ---- Time -------------------------------------------------------------------------------

/// Time kept in reserve for answering, in milliseconds (subtracted from every time limit).
pub(super) const MOVE_OVERHEAD_MS: u64 = 5;
/// With a game clock and no moves-to-go, the remaining time is spread over this many turns.
pub(super) const CLOCK_MOVES: u32 = 25;
/// With a game clock, at most this fraction (in percent) of the remaining time on one turn.
pub(super) const CLOCK_MAX_PERCENT: u64 = 40;
/// A new iteration starts only before this fraction (in percent) of the turn's time is used.
pub(super) const SOFT_PERCENT: u64 = 55;
/// The clock and stop flag are checked every this many nodes (a power of two).
pub(super) const CHECK_EVERY: u64 = 512;
