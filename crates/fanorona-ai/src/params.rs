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
/// Internal iterative reduction: a node from this remaining depth on that the transposition
/// table has no turn for is searched one ply shallower (without a stored best turn its
/// ordering is poor, and the shallower search stores one for the next visit).
pub const IIR_MIN_DEPTH: i32 = 4;
/// Reverse futility pruning: in a quiet position (no capture for the side to move) off the
/// principal variation, up to this remaining depth, ...
pub const RFP_MAX_DEPTH: i32 = 3;
/// ... a static evaluation at least this many centi-stones a ply of remaining depth above
/// beta is taken as the node's score (a fail high), without searching.
pub const RFP_MARGIN: i32 = 100;
/// Futility pruning: in a quiet node off the principal variation, up to this remaining depth,
/// ...
pub const FUTILITY_MAX_DEPTH: i32 = 2;
/// ... when the static evaluation plus this many centi-stones a ply of remaining depth is no
/// better than alpha, the quiet turns after the first are skipped (but the table's turn and
/// the killers).
pub const FUTILITY_MARGIN: i32 = 150;
/// Late move pruning: in a quiet node off the principal variation, up to this remaining
/// depth, ...
pub const LMP_MAX_DEPTH: i32 = 3;
/// ... only the first `LMP_BASE + depth * depth` turns (best ordered first) are searched.
pub const LMP_BASE: i32 = 3;
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

/// What makes one playing level ([`crate::Level`]) weaker than the engine: its search limit
/// and its imperfection (see docs/engine.md, "Levels").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LevelParams {
    /// Search depth in plies; 0 when the level is limited by nodes or time instead.
    pub depth: u32,
    /// Nodes per turn; 0 when the level is limited by depth or time instead. A node limit keeps
    /// a level reproducible on any machine.
    pub nodes: u64,
    /// Evaluation noise in centi-stones either way (drawn from the seed and the position).
    pub noise: i32,
    /// Any root turn within this many centi-stones of the best may be played, better turns
    /// more likely; 0 plays the best.
    pub margin: i32,
    /// Per cent of the root turns overlooked in each position (drawn from the seed, the
    /// position and the turn; the captures that take the most stones and at least one turn
    /// always stay in view).
    pub blind: u64,
    /// Extra per cent of overlooking for each step of a chain after the first (at most 95 in
    /// all). A level with some is short-sighted: it sees the capture in front of a stone, not
    /// the captures it leads to, and the single steps that take the most stay in view rather
    /// than the biggest chains.
    pub chain_blind: u64,
    /// Elo on the ladder's scale, where the stand-in for a new player, `greedy:random=20` (the
    /// largest capture, but one turn in five a random legal turn), is [`LADDER_ANCHOR_ELO`]:
    /// the measured ladder of docs/engine.md, "The ladder".
    pub elo: i32,
}

/// The Elo of the ladder's anchor, the new-player stand-in `greedy:random=20`.
pub const LADDER_ANCHOR_ELO: i32 = 1000;

const fn level(depth: u32, nodes: u64, noise: i32, margin: i32, blind: u64) -> LevelParams {
    LevelParams {
        depth,
        nodes,
        noise,
        margin,
        blind,
        chain_blind: 0,
        elo: 0,
    }
}

const fn short_sighted(mut p: LevelParams, chain_blind: u64) -> LevelParams {
    p.chain_blind = chain_blind;
    p
}

const fn rated(mut p: LevelParams, elo: i32) -> LevelParams {
    p.elo = elo;
    p
}

/// Novice (level 1): one turn ahead, overlooks seven turns in ten and chains more, very
/// noisy, content with a turn far below the best. Below the new-player stand-in.
pub const NOVICE: LevelParams = rated(short_sighted(level(1, 0, 260, 420, 70), 12), 911);
/// Beginner (level 2): the beginner of issue 27, unchanged: one turn ahead, overlooks three
/// turns in five and chains more, noisy, any turn within 3 stones of the best. About even with
/// the new-player stand-in.
pub const BEGINNER: LevelParams = rated(short_sighted(level(1, 0, 200, 300, 60), 15), 1064);
/// Learner (level 3): one turn ahead, short-sighted.
pub const LEARNER: LevelParams = rated(short_sighted(level(1, 0, 175, 250, 52), 12), 1184);
/// Improver (level 4): one turn ahead, short-sighted.
pub const IMPROVER: LevelParams = rated(short_sighted(level(1, 0, 140, 190, 42), 9), 1361);
/// Apprentice (level 5): one turn ahead, a little short-sighted.
pub const APPRENTICE: LevelParams = rated(short_sighted(level(1, 0, 100, 150, 35), 5), 1524);
/// Amateur (level 6): one turn ahead, sees the chains.
pub const AMATEUR: LevelParams = rated(level(1, 0, 60, 100, 25), 1726);
/// Hobbyist (level 7): two plies.
pub const HOBBYIST: LevelParams = rated(level(2, 0, 55, 80, 20), 1927);
/// Intermediate (level 8): three plies.
pub const INTERMEDIATE: LevelParams = rated(level(3, 0, 60, 85, 25), 2053);
/// Regular (level 9): three plies, fewer turns overlooked.
pub const REGULAR: LevelParams = rated(level(3, 0, 40, 55, 15), 2236);
/// Casual (level 10): a club player's game, short-sighted now and then: four plies, overlooks
/// a tenth of its turns, slight noise, any turn within 0.4 stones of the best.
pub const CASUAL: LevelParams = rated(level(4, 0, 30, 40, 10), 2395);
/// Club (level 11): the engine with no imperfection on a small node budget.
pub const CLUB: LevelParams = rated(level(0, 4_000, 0, 0, 0), 2562);
/// Advanced (level 12): the engine at 10 000 nodes a turn.
pub const ADVANCED: LevelParams = rated(level(0, 10_000, 0, 0, 0), 2672);
/// Strong (level 13): full strength within a fixed node budget of 400 000 nodes.
pub const STRONG: LevelParams = rated(level(0, 400_000, 0, 0, 0), 2841);
/// Maximum (level 14): full strength for [`MAXIMUM_MOVETIME_MS`] a turn (not node-limited: its
/// strength depends on the machine).
pub const MAXIMUM: LevelParams = rated(level(0, 0, 0, 0, 0), 2941);
/// Strong: nodes per turn (a node limit keeps the level reproducible on any machine).
pub const STRONG_NODES: u64 = STRONG.nodes;
/// Maximum: thinking time per turn in milliseconds, when no other limit is given.
pub const MAXIMUM_MOVETIME_MS: u64 = 3_000;
