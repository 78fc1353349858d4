//! The trainer's model, free of Bevy: exercises chosen from the endgame tables, the tables'
//! perfect defence, and the judgement of each of the player's turns (kept the win or the
//! draw, or threw it away, and which turn kept it).

use fanorona_ai::Rng;
use fanorona_ai::solve::Value;
use fanorona_ai::solve::tablebase::Tablebase;
use fanorona_core::{Bitboard, BoardSize, Color as Side, Position, Setup, Turn};

/// What the player must do from the exercise's position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Win (the tables say the position is won).
    Win,
    /// Hold the draw (the tables say the position is drawn, and some turns lose).
    Draw,
}

/// A kind of exercise: the player's stones against the opponent's, and the goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Material {
    /// The player's stones.
    pub player: u8,
    /// The opponent's stones.
    pub opponent: u8,
    /// Win or hold the draw.
    pub goal: Goal,
}

impl Material {
    /// Stones in all.
    pub fn stones(self) -> u32 {
        u32::from(self.player) + u32::from(self.opponent)
    }

    /// `3 v 1: win`, `2 v 3: hold the draw`.
    pub fn label(self) -> crate::i18n::Msg {
        crate::i18n::Msg::new(match self.goal {
            Goal::Win => "trainer-kind-win",
            Goal::Draw => "trainer-kind-draw",
        })
        .with("player", self.player)
        .with("opponent", self.opponent)
    }
}

/// The exercises offered, easiest first (those of 5 stones need the 5-stone tables).
pub const MATERIALS: [Material; 7] = [
    Material {
        player: 2,
        opponent: 1,
        goal: Goal::Win,
    },
    Material {
        player: 3,
        opponent: 1,
        goal: Goal::Win,
    },
    Material {
        player: 2,
        opponent: 2,
        goal: Goal::Win,
    },
    Material {
        player: 1,
        opponent: 2,
        goal: Goal::Draw,
    },
    Material {
        player: 3,
        opponent: 2,
        goal: Goal::Win,
    },
    Material {
        player: 4,
        opponent: 1,
        goal: Goal::Win,
    },
    Material {
        player: 2,
        opponent: 3,
        goal: Goal::Draw,
    },
];

/// A win the exercise asks for is at least this many turns (plies) away, so that there is
/// something to find.
pub const MIN_WIN_DISTANCE: u16 = 5;

/// A drawn exercise is held after this many of the player's turns with the draw kept.
pub const HOLD_TURNS: u32 = 8;

/// Tries per exercise before giving up on a material.
const TRIES: u32 = 20_000;

/// The rules of the trainer's games: the tables' (the standard rules without the no-capture
/// limit, so a win the tables promise is never cut short by it).
pub fn trainer_rules() -> fanorona_core::Rules {
    fanorona_ai::solve::solver_rules()
}

/// A position of `material` on the standard board with the player (White) to move, won (or
/// drawn with a losing turn to avoid) by the tables; the same `seed` gives the same position.
/// `None` when the tables do not cover the material or no such position was found.
pub fn choose(tables: &Tablebase, material: Material, seed: u64) -> Option<Position> {
    let size = BoardSize::STANDARD;
    if tables.max_stones(size) < material.stones() {
        return None;
    }
    let points: Vec<_> = size.points().collect();
    let mut rng = Rng::new(seed);
    for _ in 0..TRIES {
        let mut taken = Bitboard::EMPTY;
        let mut place = |count: u8, rng: &mut Rng| {
            let mut stones = Bitboard::EMPTY;
            while stones.bits().count_ones() < u32::from(count) {
                let p = points[rng.below(points.len() as u64) as usize];
                if !taken.contains(p) {
                    taken.insert(p);
                    stones.insert(p);
                }
            }
            stones
        };
        let white = place(material.player, &mut rng);
        let black = place(material.opponent, &mut rng);
        let mut setup = Setup::empty(size);
        setup.white = white;
        setup.black = black;
        setup.side_to_move = Side::White;
        // Past the opening, whatever the rules say about it.
        setup.turn_number = 10;
        let Ok(position) = Position::from_setup(setup, trainer_rules()) else {
            continue;
        };
        if suits(tables, &position, material.goal) {
            return Some(position);
        }
    }
    None
}

/// Whether `position` makes an exercise with this goal: won at [`MIN_WIN_DISTANCE`] or more,
/// or drawn; in both cases with at least one turn that throws the result away.
pub fn suits(tables: &Tablebase, position: &Position, goal: Goal) -> bool {
    let Some(probe) = tables.probe(position) else {
        return false;
    };
    let wanted = match goal {
        Goal::Win => probe.wdl == Value::Win && probe.distance >= MIN_WIN_DISTANCE,
        Goal::Draw => probe.wdl == Value::Draw,
    };
    wanted
        && position.legal_turns().iter().any(|turn| {
            tables
                .probe(&position.play_unchecked(turn))
                .is_some_and(|after| after.wdl.flip() != probe.wdl)
        })
}

/// The tables' reply: the fastest win, a drawing turn or the slowest loss.
pub fn defence(tables: &Tablebase, position: &Position) -> Option<Turn> {
    tables.best_turn(position).map(|(turn, _)| turn)
}

/// What a turn of the player did to the result.
#[derive(Clone, Debug, PartialEq)]
pub enum Judgement {
    /// The result before the turn still holds (`fastest`: the turn is one of the quickest
    /// wins). `left`: turns (plies) to the end under best play after it (0 for a draw).
    Kept {
        /// The result kept.
        value: Value,
        /// Whether the turn keeps the fastest win (always true for a draw).
        fastest: bool,
        /// Turns (plies) to the end after it.
        left: u16,
    },
    /// The turn threw a win away (to a draw or a loss) or a draw away (to a loss).
    ThrewAway {
        /// The result before the turn.
        before: Value,
        /// The result after it, for the player.
        after: Value,
        /// A turn that kept the result (the tables' best).
        kept_by: Turn,
    },
}

/// Judges `turn` played in `before` by the tables; `None` when they do not cover it.
pub fn judge(tables: &Tablebase, before: &Position, turn: &Turn) -> Option<Judgement> {
    let was = tables.probe(before)?;
    let after = tables.probe(&before.play_unchecked(turn))?;
    let now = after.wdl.flip();
    let rank = |v: Value| match v {
        Value::Win => 2,
        Value::Draw => 1,
        Value::Loss => 0,
    };
    if rank(now) < rank(was.wdl) {
        let (kept_by, _) = tables.best_turn(before)?;
        return Some(Judgement::ThrewAway {
            before: was.wdl,
            after: now,
            kept_by,
        });
    }
    Some(Judgement::Kept {
        value: now,
        fastest: now != Value::Win || after.distance + 1 == was.distance,
        left: after.distance,
    })
}

/// A player's turns in a win `distance` turns (plies) away, the player moving first.
pub fn player_turns(distance: u16) -> u32 {
    u32::from(distance).div_ceil(2)
}
