//! Every tunable number of the engine, named in one place: evaluation weights, search
//! margins, time management and table sizes.
//!
//! Scores are in centi-stones: one stone of material is worth [`STONE`] = 100.

// ---- Evaluation -------------------------------------------------------------------------

/// The value of one stone.
pub const STONE: i32 = 100;
/// Bonus per own stone on a strong point (where diagonals cross: more lines, more captures).
pub const STRONG_POINT: i32 = -31;
/// Bonus per available step of an own stone to an empty neighbour (mobility).
pub const MOBILITY: i32 = 18;
/// Per own stone with no friendly neighbour on any line (isolated stones are easy targets
/// and defend nothing); negative, so a penalty.
pub const ISOLATED: i32 = -13;
/// Trading down when ahead: `material difference * TRADE_WEIGHT / (stones on board +
/// TRADE_OFFSET)` is added, so the same lead is worth more with fewer stones left.
pub const TRADE_WEIGHT: i32 = 600;
/// See [`TRADE_WEIGHT`].
pub const TRADE_OFFSET: i32 = 4;
/// At most this many stones on the board count as an endgame, where the side ahead is
/// rewarded for closing in on the enemy (otherwise a won ending drifts into the no-capture
/// limit).
pub const ENDGAME_STONES: u32 = 12;
/// Endgame: per point of distance between the two armies' centres, a penalty for the side
/// ahead in material.
pub const ENDGAME_PROXIMITY: i32 = 6;
/// Per own stone that the opponent could take as the first stone of a capture, were it its
/// turn (see [`crate::eval::capturable`]); negative, so a penalty.
pub const THREATENED: i32 = -61;
/// When the opponent would have any capture, were it its turn; negative, so a penalty.
pub const THREAT: i32 = -53;
/// The bonus for having the move in a quiet position.
pub const TEMPO: i32 = 3;
/// The evaluation shrinks as the no-capture counter grows, reaching
/// `(NO_CAPTURE_SCALE - 1) / NO_CAPTURE_SCALE` of its value at the limit: a lead that cannot be
/// converted before the limit is worth less.
pub const NO_CAPTURE_SCALE: i32 = 2;

// ---- Scores -----------------------------------------------------------------------------

/// The score of a won game at the root; a win in `n` plies scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Scores beyond this are wins (or, negated, losses) at a known distance.
pub const WIN_BOUND: i32 = WIN - MAX_PLY as i32;
/// Greater than every score.
pub const INFINITY: i32 = 32_000;
/// The score of a drawn position (repetition, no-capture limit, stuck under the draw rule).
pub const DRAW: i32 = 0;
/// The largest contempt a search takes ([`crate::SearchOptions::contempt`]), either way: five
/// stones. More is clamped.
pub const MAX_CONTEMPT: i32 = 500;

// ---- Search -----------------------------------------------------------------------------

/// The deepest ply the search reaches, quiescence included.
pub const MAX_PLY: usize = 128;
/// The deepest nominal depth of iterative deepening.
pub const MAX_DEPTH: u32 = 64;
/// Quiescence: at most this many plies of forced captures below the horizon, then the static
/// evaluation.
pub const QS_MAX_PLY: i32 = 12;
/// Quiescence: at most this many capture turns per node, best-ordered first (chains with many
/// stopping points would otherwise explode the forced opening sequences).
pub const QS_MAX_MOVES: usize = 6;
/// Quiescence: the depth its capture positions are stored at in the transposition table
/// (below every depth of the main search, which therefore only takes their turn for ordering).
pub const QS_DEPTH: i32 = -1;
/// Quiescence: a side that must capture, whose static evaluation already beats beta by this
/// margin, is assumed to reach beta (its capture gains at least a stone).
pub const QS_STAND_PAT_MARGIN: i32 = 0;
/// Aspiration window: the first half-width around the previous iteration's score.
pub const ASPIRATION_DELTA: i32 = 35;
/// Aspiration window: once the half-width has grown beyond this, the full window is used.
pub const ASPIRATION_MAX_DELTA: i32 = 1120;
/// Aspiration windows start at this depth.
pub const ASPIRATION_MIN_DEPTH: u32 = 4;
/// Late move reductions apply from this remaining depth on.
pub const LMR_MIN_DEPTH: i32 = 3;
/// Late move reductions apply from this move number on (the first moves are searched fully).
pub const LMR_MIN_MOVE: usize = 3;
/// Reduction = `LMR_BASE + ln(depth) * ln(move number) / LMR_DIVISOR`, in plies (x100).
pub const LMR_BASE: i32 = 50;
/// See [`LMR_BASE`] (x100).
pub const LMR_DIVISOR: i32 = 250;
/// Null-move pruning: tried from this remaining depth on, in quiet positions (no capture for
/// the side to move) whose static evaluation is at least beta.
pub const NMP_MIN_DEPTH: i32 = 3;
/// Null-move pruning: the reduction is `NMP_BASE + depth / NMP_DIVISOR` plies.
pub const NMP_BASE: i32 = 2;
/// See [`NMP_BASE`].
pub const NMP_DIVISOR: i32 = 4;
/// Null-move pruning needs at least this many stones of the side to move: with few stones,
/// having to move can be a real disadvantage (zugzwang), and the null move would hide it.
pub const NMP_MIN_STONES: u32 = 4;
/// Late capture reductions: in a position with captures, captures after this many (ordered by
/// stones taken) are searched one ply shallower first, from [`LMR_MIN_DEPTH`] on.
pub const CAPTURE_LMR_MIN_MOVE: usize = 4;
/// History scores saturate at this magnitude.
pub const HISTORY_MAX: i32 = 16_384;

// ---- Move ordering ----------------------------------------------------------------------

/// Ordering score of the transposition table's move.
pub const ORDER_TT: i32 = 1 << 30;
/// Ordering base of captures; each captured stone adds [`ORDER_PER_STONE`].
pub const ORDER_CAPTURE: i32 = 1 << 24;
/// See [`ORDER_CAPTURE`].
pub const ORDER_PER_STONE: i32 = 1 << 16;
/// Ordering score of the first killer move (the second gets one less).
pub const ORDER_KILLER: i32 = 1 << 20;

// ---- Time -------------------------------------------------------------------------------

/// Time kept in reserve for answering, in milliseconds (subtracted from every time limit).
pub const MOVE_OVERHEAD_MS: u64 = 5;
/// With a game clock and no moves-to-go, the remaining time is spread over this many turns.
pub const CLOCK_MOVES: u32 = 25;
/// With a game clock, at most this fraction (in percent) of the remaining time on one turn.
pub const CLOCK_MAX_PERCENT: u64 = 40;
/// A new iteration starts only before this fraction (in percent) of the turn's time is used.
pub const SOFT_PERCENT: u64 = 55;
/// Game clock: while the best turn changed in the last iteration, new iterations start until
/// this per cent of the soft limit (never beyond the hard limit).
pub const TM_UNSTABLE_PERCENT: u32 = 160;
/// Game clock: once the best turn has stayed the same for [`TM_STABLE_ITERATIONS`] iterations,
/// new iterations start only until this per cent of the soft limit.
pub const TM_STABLE_PERCENT: u32 = 60;
/// See [`TM_STABLE_PERCENT`].
pub const TM_STABLE_ITERATIONS: u32 = 3;
/// Game clock: the next iteration is predicted to take this per cent of the last one's time;
/// it is not started when it would not finish before the hard limit.
pub const TM_NEXT_ITERATION_PERCENT: u32 = 150;
/// The clock and stop flag are checked every this many nodes (a power of two).
pub const CHECK_EVERY: u64 = 512;

// ---- Tables -----------------------------------------------------------------------------

/// The most search threads a searcher runs.
pub const MAX_THREADS: usize = 256;
/// Default size of the transposition table in MiB.
pub const DEFAULT_HASH_MB: usize = 16;

// ---- Levels -----------------------------------------------------------------------------

/// Beginner: search depth in plies: one turn ahead, as a new player reads the board. The
/// beginner's settings were made weaker for issue 27, so that a new player can beat it; measured
/// against a greedy player with random turns in docs/engine.md, "The ladder".
pub const BEGINNER_DEPTH: u32 = 1;
/// Beginner: evaluation noise in centi-stones either way.
pub const BEGINNER_NOISE: i32 = 200;
/// Beginner: any root turn within this many centi-stones of the best may be played (3 stones).
pub const BEGINNER_MARGIN: i32 = 300;
/// Beginner: per cent of the root turns overlooked in each position (drawn from the seed and
/// the position; captures of the longest kind and at least one turn always stay in view); a
/// chain more, see [`BEGINNER_CHAIN_BLIND`].
pub const BEGINNER_BLIND: u64 = 60;
/// Beginner: extra per cent of overlooking for each step of a chain after the first (at most
/// 95 in all): a new player sees the capture in front of a stone, not the captures it leads to.
pub const BEGINNER_CHAIN_BLIND: u64 = 15;
/// Casual: search depth in plies.
pub const CASUAL_DEPTH: u32 = 4;
/// Casual: evaluation noise in centi-stones either way.
pub const CASUAL_NOISE: i32 = 30;
/// Casual: any root turn within this many centi-stones of the best may be played.
pub const CASUAL_MARGIN: i32 = 40;
/// Casual: per cent of the root turns overlooked (see [`BEGINNER_BLIND`]).
pub const CASUAL_BLIND: u64 = 10;
/// Strong: nodes per turn (a node limit keeps the level reproducible on any machine).
pub const STRONG_NODES: u64 = 400_000;
/// Maximum: thinking time per turn in milliseconds, when no other limit is given.
pub const MAXIMUM_MOVETIME_MS: u64 = 3_000;
