//! Game flow: one resource ([`Match`]) wraps the core game and turns board clicks and buttons
//! into core calls. No rule is written here: legal steps, captures, chains and the end of the
//! game all come from `fanorona-core`.

use std::sync::atomic::{AtomicU64, Ordering};

use bevy::prelude::*;
use fanorona_core::{
    Bitboard, BoardSize, Color as Side, Direction, EndReason, Game, Outcome, Point, Position, Step,
    StepKind, Turn, TurnBuilder,
};

use crate::i18n::Msg;
use crate::settings::{Mode, Settings};

static NEXT_GENERATION: AtomicU64 = AtomicU64::new(0);

/// Who makes the moves for one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person clicking on the board.
    Human,
    /// The engine.
    Engine,
}

/// What the player (or the engine) asks the game to do.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum Command {
    /// A click (or drag end) on a board point.
    Click(Point),
    /// End the capture chain now.
    EndTurn,
    /// Choose approach or withdrawal when one step allows both.
    Choose(StepKind),
    /// Take back the turn in progress, or the last turn (against the engine: back to the
    /// person's last turn).
    Undo,
    /// Play again what undo took back.
    Redo,
    /// Start a new game with the current settings.
    NewGame,
    /// The side to move (a person) gives up.
    Resign,
    /// The side to move (a person) offers a draw to the other person.
    OfferDraw,
    /// The other person accepts (`true`) or declines the draw offer.
    AnswerDraw(bool),
    /// Look at the position after this many turns (`None`: back to the game).
    View(Option<usize>),
    /// Look one turn back (`-1`) or forward (`+1`).
    ViewStep(i32),
    /// Escape: leave the history view, or drop the selection.
    Cancel,
    /// A whole turn typed in turn notation (`f2-e3A`), read by `fanorona-core` (refused while
    /// a chain is in progress on the board).
    PlayText(String),
    /// Show the engine's suggestion (found for the game with this generation) as an arrow.
    ShowHint {
        /// [`Match::generation`] when the search started.
        generation: u64,
        /// The suggested turn.
        turn: Turn,
    },
    /// The engine's turn for the game with this generation.
    EngineTurn {
        /// [`Match::generation`] when the search started.
        generation: u64,
        /// The turn found.
        turn: Turn,
    },
}

/// One step to animate: a stone slides from `from` to `to`, then `captured` leave the board.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepPlayed {
    /// Where the stone starts.
    pub from: Point,
    /// Where it arrives.
    pub to: Point,
    /// The stones this step removes.
    pub captured: Bitboard,
}

/// The board changes without animation (new game, undo, load, looking back): running
/// animations stop and the stones are put where the game says.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardJump;

/// The game being played, with the turn in progress and the player's selection.
#[derive(Resource, Clone, Debug)]
pub struct Match {
    game: Game,
    players: [Player; 2],
    level: u8,
    steps: Vec<Step>,
    selected: Option<Point>,
    choice: Option<[Step; 2]>,
    redo: Vec<Turn>,
    view: Option<usize>,
    draw_offer: Option<Side>,
    message: Msg,
    generation: u64,
    hint: Option<(u64, Turn)>,
    flagged: Option<Side>,
}

impl Match {
    /// A new game from `position` with the given players and engine level.
    pub fn new(position: Position, players: [Player; 2], level: u8) -> Match {
        Match::from_game(Game::new(position), players, level)
    }

    /// Continues an existing game (a loaded record).
    pub fn from_game(game: Game, players: [Player; 2], level: u8) -> Match {
        let mut m = Match {
            game,
            players,
            level,
            steps: Vec::new(),
            selected: None,
            choice: None,
            redo: Vec::new(),
            view: None,
            draw_offer: None,
            message: Msg::default(),
            hint: None,
            flagged: None,
            // Every match starts from a fresh generation, so that a search started for a
            // replaced match is always recognised as stale.
            generation: NEXT_GENERATION.fetch_add(1 << 32, Ordering::Relaxed),
        };
        m.message = m.default_message();
        m
    }

    /// A new game as the settings describe it.
    pub fn from_settings(settings: &Settings) -> Match {
        let position = settings.start_position();
        Match::new(position, players_for(settings), settings.level())
    }

    /// The core game (turns played so far).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Who plays White and Black (indexed by `Color::index`).
    pub fn players(&self) -> [Player; 2] {
        self.players
    }

    /// Changes who plays which side (and the engine level) without touching the game.
    pub fn set_players(&mut self, players: [Player; 2], level: u8) {
        self.players = players;
        self.level = level;
        self.generation += 1;
        self.message = self.default_message();
    }

    /// The engine level.
    pub fn level(&self) -> u8 {
        self.level
    }

    /// Board size.
    pub fn size(&self) -> BoardSize {
        self.game.position().size()
    }

    /// Bumped whenever the game changes under the engine's feet (new game, undo, load, ...):
    /// a search started for an older generation is stale.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The steps of the turn in progress.
    pub fn partial_steps(&self) -> &[Step] {
        &self.steps
    }

    /// The selected stone.
    pub fn selected(&self) -> Option<Point> {
        self.selected
    }

    /// The pending choice between approach and withdrawal: `[approach, withdrawal]`.
    pub fn choice(&self) -> Option<[Step; 2]> {
        self.choice
    }

    /// The ply shown while looking back, `None` when showing the game.
    pub fn viewing(&self) -> Option<usize> {
        self.view
    }

    /// A pending draw offer by this side.
    pub fn draw_offer(&self) -> Option<Side> {
        self.draw_offer
    }

    /// The engine's suggestion for the position on the board, if one was asked for.
    pub fn hint(&self) -> Option<Turn> {
        self.hint
            .filter(|(g, _)| *g == self.generation && self.steps.is_empty() && self.view.is_none())
            .map(|(_, t)| t)
    }

    /// The points of the hinted turn still to go: the whole path before its first step, then,
    /// while the turn in progress follows the hint, the rest of it from the moving stone
    /// (empty when no hint is shown or the turn took another way).
    pub fn hint_path(&self) -> Vec<Point> {
        let Some((_, turn)) = self
            .hint
            .filter(|(g, _)| *g == self.generation && self.view.is_none())
        else {
            return Vec::new();
        };
        let done = self.steps.len();
        let follows = turn.steps().take(done).eq(self.steps.iter().copied());
        if !follows || done >= turn.len() {
            return Vec::new();
        }
        turn.path().skip(done).collect()
    }

    /// The side that lost on time, if the game ended so.
    pub fn flagged(&self) -> Option<Side> {
        self.flagged.filter(|_| self.outcome().is_some())
    }

    /// `side`'s clock reached zero: it loses the game (recorded as a resignation, so the
    /// record's result is right; the panel says "on time").
    pub fn lose_on_time(&mut self, side: Side) {
        if self.outcome().is_some() {
            return;
        }
        self.steps.clear();
        self.selected = None;
        self.choice = None;
        self.draw_offer = None;
        // Cannot fail: the game is not over (checked above).
        let _ = self.game.resign(side);
        self.flagged = Some(side);
        self.generation += 1;
        self.message = self.default_message();
    }

    /// The result in words, `None` while the game goes on.
    pub fn result_text(&self) -> Option<Msg> {
        let outcome = self.outcome()?;
        Some(match self.flagged() {
            Some(side) => Msg::new("result-on-time")
                .with("winner", side_name(side.other()))
                .with("loser", side_name(side)),
            None => outcome_text(outcome),
        })
    }

    /// The line of help text shown to the player.
    pub fn message(&self) -> &Msg {
        &self.message
    }

    /// Shows a message (for example the result of saving).
    pub fn set_message(&mut self, message: impl Into<Msg>) {
        self.message = message.into();
    }

    /// The result, if the game is over (by the rules, resignation or agreement).
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    /// The side to move in the game.
    pub fn side_to_move(&self) -> Side {
        self.game.position().side_to_move()
    }

    /// Whether the engine should be thinking now.
    pub fn engine_to_move(&self) -> bool {
        self.outcome().is_none()
            && self.players[self.side_to_move().index()] == Player::Engine
            && self.steps.is_empty()
    }

    /// Whether a person may click on the board now.
    pub fn human_to_move(&self) -> bool {
        self.outcome().is_none()
            && self.view.is_none()
            && self.players[self.side_to_move().index()] == Player::Human
    }

    /// Turns that undo took back.
    pub fn redo_len(&self) -> usize {
        self.redo.len()
    }

    /// Whether the turn in progress may end now.
    pub fn can_end_turn(&self) -> bool {
        !self.steps.is_empty() && self.replay().can_end()
    }

    fn replay(&self) -> TurnBuilder {
        let mut builder = self.game.position().begin_turn();
        for step in &self.steps {
            // The steps were accepted by this same builder before, so replaying them succeeds.
            let _ = builder.play_step(*step);
        }
        builder
    }

    /// The stones on the board as shown now: the game's position, the turn in progress
    /// applied, or a past position while looking back.
    pub fn shown_stones(&self) -> Vec<(Point, Side)> {
        if let Some(position) = self.view.and_then(|ply| self.game.position_at(ply)) {
            return stones_of(position);
        }
        let builder = self.replay();
        let mut stones: Vec<(Point, Side)> = Vec::new();
        for side in Side::ALL {
            let size = builder.start().size();
            stones.extend(builder.stones(side).points(size).map(|p| (p, side)));
        }
        stones.sort_by_key(|(p, _)| p.index());
        stones
    }

    /// The points where the side to move may place a stone (Fanoron-Telo's first turns, the
    /// turn builder's placement step), empty otherwise.
    pub fn placements(&self) -> Vec<Point> {
        if !self.steps.is_empty() || self.outcome().is_some() {
            return Vec::new();
        }
        let builder = self.replay();
        builder
            .legal_placements()
            .points(builder.start().size())
            .collect()
    }

    fn default_message(&self) -> Msg {
        if self.outcome().is_some() {
            return Msg::new(GAME_OVER_MESSAGE);
        }
        let side = self.side_to_move();
        let id = match self.players[side.index()] {
            Player::Engine => "flow-engine-to-move",
            Player::Human => {
                if !self.placements().is_empty() {
                    "flow-to-place"
                } else if self.game.position().has_capture() {
                    "flow-to-move-must-capture"
                } else {
                    "flow-to-move"
                }
            }
        };
        Msg::new(id).with("side", side_name(side))
    }

    /// Applies one command; returns the steps to animate.
    pub fn apply(&mut self, command: &Command) -> Vec<StepPlayed> {
        match command {
            Command::Click(point) => return self.click(*point),
            Command::EndTurn => self.end_turn(),
            Command::Choose(kind) => return self.choose(*kind),
            Command::Undo => self.undo(),
            Command::Redo => return self.redo(),
            Command::NewGame => {
                let start = *self.game.start();
                *self = Match::new(start, self.players, self.level);
            }
            Command::Resign => self.resign(),
            Command::OfferDraw => self.offer_draw(),
            Command::AnswerDraw(accept) => self.answer_draw(*accept),
            Command::View(ply) => self.set_view(*ply),
            Command::ViewStep(delta) => {
                let len = self.game.turns().len();
                let current = self.view.unwrap_or(len) as i64;
                let target = (current + i64::from(*delta)).clamp(0, len as i64) as usize;
                self.set_view(Some(target));
            }
            Command::Cancel => {
                if self.view.is_some() {
                    self.set_view(None);
                } else if self.steps.is_empty() {
                    self.selected = None;
                    self.choice = None;
                    self.message = self.default_message();
                } else if self.choice.is_some() {
                    self.choice = None;
                    self.message = Msg::new("flow-chain-continues");
                }
            }
            Command::PlayText(text) => return self.play_text(text),
            Command::ShowHint { generation, turn } => {
                if *generation == self.generation && self.game.position().is_legal(turn) {
                    self.hint = Some((self.generation, *turn));
                    self.message = Msg::new("flow-hint").with("turn", turn.to_string());
                }
            }
            Command::EngineTurn { generation, turn } => {
                if *generation == self.generation && self.engine_to_move() {
                    return self.play_whole_turn(*turn);
                }
            }
        }
        Vec::new()
    }

    fn set_view(&mut self, ply: Option<usize>) {
        let len = self.game.turns().len();
        self.view = ply.filter(|&p| p < len);
        self.message = match self.view {
            Some(0) => Msg::new("flow-looking-back-start"),
            Some(p) => Msg::new("flow-looking-back")
                .with("number", turn_number(p))
                .with("turn", self.game.turns()[p - 1].to_string()),
            None => self.default_message(),
        };
    }

    fn click(&mut self, point: Point) -> Vec<StepPlayed> {
        if self.view.is_some() {
            self.message = Msg::new("flow-looking-back-click");
            return Vec::new();
        }
        if self.outcome().is_some() {
            // The result line shows the outcome; the message says what can be done next.
            self.message = self.default_message();
            return Vec::new();
        }
        let side = self.side_to_move();
        if self.players[side.index()] == Player::Engine {
            self.message = Msg::new("flow-wait-engine");
            return Vec::new();
        }
        if self.draw_offer.is_some() {
            self.message = Msg::new("flow-answer-draw-first");
            return Vec::new();
        }
        let placements = self.placements();
        if !placements.is_empty() {
            // Fanoron-Telo: a click on an empty point places a stone there (the builder's
            // placement step, then its finished turn).
            let mut builder = self.replay();
            if let Ok(turn) = builder.place(point).and_then(|()| builder.finish()) {
                self.selected = None;
                return self.play_whole_turn(turn);
            }
            self.message = Msg::new("flow-place-first");
            return Vec::new();
        }
        if let Some([approach, withdrawal]) = self.choice {
            let builder = self.replay();
            if builder.captured_by(approach).contains(point) {
                return self.play_step(approach);
            }
            if builder.captured_by(withdrawal).contains(point) {
                return self.play_step(withdrawal);
            }
            self.message = Msg::new("flow-choose-line");
            return Vec::new();
        }
        let builder = self.replay();
        let legal = builder.legal_steps();
        if !self.steps.is_empty() {
            let moving = self.selected;
            let to_here: Vec<Step> = legal
                .iter()
                .copied()
                .filter(|s| Some(s.from) == moving && s.to == point)
                .collect();
            if !to_here.is_empty() {
                return self.pick(&to_here);
            }
            self.message = Msg::new(if Some(point) == moving {
                "flow-stone-is-capturing"
            } else {
                "flow-only-capturing-stone"
            });
            return Vec::new();
        }
        if let Some(from) = self.selected {
            let to_here: Vec<Step> = legal
                .iter()
                .copied()
                .filter(|s| s.from == from && s.to == point)
                .collect();
            if !to_here.is_empty() {
                return self.pick(&to_here);
            }
        }
        let position = self.game.position();
        match position.stone_at(point) {
            Some(owner) if owner == side => {
                if self.selected == Some(point) {
                    self.selected = None;
                    self.message = self.default_message();
                } else if legal.iter().any(|s| s.from == point) {
                    self.selected = Some(point);
                    self.message =
                        Msg::new("flow-selected").with("point", name(position.size(), point));
                } else if position.has_capture() {
                    self.message = Msg::new("flow-must-capture-marked");
                } else {
                    self.message = Msg::new("flow-no-free-point");
                }
            }
            Some(_) => {
                self.message =
                    Msg::new("flow-not-your-stone").with("side", side.other().to_string());
            }
            None => {
                if self.selected.is_some() {
                    self.message = Msg::new(if position.has_capture() {
                        "flow-illegal-step-must-capture"
                    } else {
                        "flow-illegal-step"
                    });
                } else {
                    self.message = Msg::new("flow-select-first").with("side", side.to_string());
                }
            }
        }
        Vec::new()
    }

    fn play_text(&mut self, text: &str) -> Vec<StepPlayed> {
        let text = text.trim();
        if self.view.is_some() {
            self.message = Msg::new("flow-looking-back-esc");
            return Vec::new();
        }
        if self.outcome().is_some() {
            // The result line shows the outcome; the message says what can be done next.
            self.message = self.default_message();
            return Vec::new();
        }
        if self.players[self.side_to_move().index()] == Player::Engine {
            self.message = Msg::new("flow-wait-engine");
            return Vec::new();
        }
        if self.draw_offer.is_some() {
            self.message = Msg::new("flow-answer-draw-first");
            return Vec::new();
        }
        if !self.steps.is_empty() {
            self.message = Msg::new("flow-chain-in-progress");
            return Vec::new();
        }
        match self.game.position().parse_turn(text) {
            Ok(turn) => {
                self.selected = None;
                self.choice = None;
                self.play_whole_turn(turn)
            }
            Err(e) => {
                self.message = Msg::new("flow-typed-refused")
                    .with("text", format!("{text:?}"))
                    .with("error", e.to_string());
                Vec::new()
            }
        }
    }

    /// Plays one of the steps `from -> to` found for a click: if both approach and withdrawal
    /// are possible, asks the player to choose.
    fn pick(&mut self, steps: &[Step]) -> Vec<StepPlayed> {
        let approach = steps.iter().find(|s| s.kind == StepKind::Approach);
        let withdrawal = steps.iter().find(|s| s.kind == StepKind::Withdrawal);
        if let (Some(a), Some(w)) = (approach, withdrawal) {
            self.choice = Some([*a, *w]);
            self.message = Msg::new("flow-approach-or-withdrawal");
            return Vec::new();
        }
        self.play_step(steps[0])
    }

    fn choose(&mut self, kind: StepKind) -> Vec<StepPlayed> {
        match self.choice {
            Some([a, _]) if kind == StepKind::Approach => self.play_step(a),
            Some([_, w]) if kind == StepKind::Withdrawal => self.play_step(w),
            _ => Vec::new(),
        }
    }

    fn play_step(&mut self, step: Step) -> Vec<StepPlayed> {
        let mut builder = self.replay();
        let captured = builder.captured_by(step);
        if let Err(e) = builder.play_step(step) {
            self.message = Msg::new("flow-not-allowed").with("error", e.to_string());
            self.choice = None;
            return Vec::new();
        }
        let complete = builder.is_complete();
        let can_end = builder.can_end();
        self.steps.push(step);
        self.choice = None;
        self.selected = Some(step.to);
        self.redo.clear();
        let played = vec![StepPlayed {
            from: step.from,
            to: step.to,
            captured,
        }];
        if complete || !step.kind.is_capture() {
            self.finish_turn();
        } else if can_end {
            self.message = Msg::new("flow-continue-or-end");
        } else {
            self.message = Msg::new("flow-chain-must-continue");
        }
        played
    }

    fn end_turn(&mut self) {
        if self.steps.is_empty() {
            self.message = Msg::new("flow-nothing-to-end");
        } else if !self.can_end_turn() {
            self.message = Msg::new("flow-rules-require-continue");
        } else {
            self.finish_turn();
        }
    }

    fn finish_turn(&mut self) {
        let finished = self.replay().finish();
        match finished {
            Ok(turn) => {
                debug!("turn played: {turn}");
                if let Err(e) = self.game.play(&turn) {
                    self.message = Msg::new("flow-turn-refused").with("error", e.to_string());
                }
            }
            Err(e) => self.message = Msg::new("flow-turn-refused").with("error", e.to_string()),
        }
        self.steps.clear();
        self.selected = None;
        self.choice = None;
        self.generation += 1;
        self.message = self.default_message();
    }

    fn play_whole_turn(&mut self, turn: Turn) -> Vec<StepPlayed> {
        let mut builder = self.game.position().begin_turn();
        let mut played = Vec::new();
        for step in turn.steps() {
            let captured = builder.captured_by(step);
            if builder.play_step(step).is_err() {
                self.message = Msg::new("flow-engine-turn-illegal").with("turn", turn.to_string());
                return Vec::new();
            }
            played.push(StepPlayed {
                from: step.from,
                to: step.to,
                captured,
            });
        }
        debug!("engine turn played: {turn}");
        if let Err(e) = self.game.play(&turn) {
            self.message = Msg::new("flow-engine-turn-refused").with("error", e.to_string());
            return Vec::new();
        }
        self.generation += 1;
        self.redo.clear();
        self.message = self.default_message();
        played
    }

    fn undo(&mut self) {
        self.flagged = None;
        self.view = None;
        self.draw_offer = None;
        self.generation += 1;
        if !self.steps.is_empty() || self.choice.is_some() {
            self.steps.clear();
            self.selected = None;
            self.choice = None;
            self.message = Msg::new("flow-turn-taken-back");
            return;
        }
        self.selected = None;
        if matches!(
            self.game.outcome().map(|o| o.reason),
            Some(EndReason::Resignation | EndReason::Agreement)
        ) {
            // Takes back the resignation or the agreed draw, not a turn.
            self.game.undo();
            self.message = self.default_message();
            return;
        }
        let all_engine = self.players.iter().all(|p| *p == Player::Engine);
        let mut undone = 0;
        while let Some(turn) = self.game.undo() {
            self.redo.push(turn);
            undone += 1;
            if all_engine || self.players[self.side_to_move().index()] == Player::Human {
                break;
            }
        }
        self.message = if undone == 0 {
            Msg::new("flow-nothing-to-undo")
        } else {
            self.default_message()
        };
    }

    fn redo(&mut self) -> Vec<StepPlayed> {
        if !self.steps.is_empty() || self.outcome().is_some() {
            return Vec::new();
        }
        self.view = None;
        let mut played = Vec::new();
        while let Some(turn) = self.redo.pop() {
            let rest = std::mem::take(&mut self.redo);
            let steps = self.play_whole_turn_unchecked(turn);
            self.redo = rest;
            played.extend(steps);
            let all_engine = self.players.iter().all(|p| *p == Player::Engine);
            if all_engine
                || self.players[self.side_to_move().index()] == Player::Human
                || self.outcome().is_some()
            {
                break;
            }
        }
        if played.is_empty() {
            self.message = Msg::new("flow-nothing-to-redo");
        }
        played
    }

    fn play_whole_turn_unchecked(&mut self, turn: Turn) -> Vec<StepPlayed> {
        let mut builder = self.game.position().begin_turn();
        let mut played = Vec::new();
        for step in turn.steps() {
            let captured = builder.captured_by(step);
            let _ = builder.play_step(step);
            played.push(StepPlayed {
                from: step.from,
                to: step.to,
                captured,
            });
        }
        if self.game.play(&turn).is_err() {
            return Vec::new();
        }
        self.generation += 1;
        self.message = self.default_message();
        played
    }

    fn resign(&mut self) {
        if self.outcome().is_some() {
            return;
        }
        let side = self.side_to_move();
        let resigning = if self.players[side.index()] == Player::Human {
            side
        } else if self.players[side.other().index()] == Player::Human {
            side.other()
        } else {
            self.message = Msg::new("flow-only-person-resigns");
            return;
        };
        self.steps.clear();
        self.selected = None;
        self.choice = None;
        if let Err(e) = self.game.resign(resigning) {
            self.message = Msg::new("flow-refused").with("error", e.to_string());
            return;
        }
        self.generation += 1;
        self.message = self.default_message();
    }

    fn offer_draw(&mut self) {
        if self.outcome().is_some() {
            return;
        }
        if self.players != [Player::Human, Player::Human] {
            self.message = Msg::new("flow-draw-two-people");
            return;
        }
        let side = self.side_to_move();
        self.draw_offer = Some(side);
        self.message = Msg::new("flow-draw-offered")
            .with("side", side_name(side))
            .with("other", side_name(side.other()));
    }

    fn answer_draw(&mut self, accept: bool) {
        if self.draw_offer.take().is_none() {
            return;
        }
        if accept {
            self.steps.clear();
            self.selected = None;
            self.choice = None;
            if let Err(e) = self.game.agree_draw() {
                self.message = Msg::new("flow-refused").with("error", e.to_string());
                return;
            }
            self.generation += 1;
            self.message = self.default_message();
        } else {
            self.message = Msg::new("flow-draw-declined").with("message", self.default_message());
        }
    }

    /// What the board shows: stones and every highlight.
    pub fn board_view(&self) -> BoardView {
        let size = self.size();
        let mut view = BoardView {
            size,
            stones: self.shown_stones(),
            ..BoardView::default()
        };
        if let Some(ply) = self.view {
            if ply > 0 {
                let turn = self.game.turns()[ply - 1];
                view.last_path = turn.path().collect();
                view.last_captured = turn.captured();
            }
            return view;
        }
        if let Some(turn) = self.game.turns().last().filter(|_| self.steps.is_empty()) {
            view.last_path = turn.path().collect();
            view.last_captured = turn.captured();
        }
        view.hint = self.hint_path();
        if !self.human_to_move() || self.draw_offer.is_some() {
            return view;
        }
        view.interactive = true;
        let placements = self.placements();
        if !placements.is_empty() {
            view.targets = placements.iter().map(|&p| (p, false)).collect();
            return view;
        }
        let builder = self.replay();
        if let Some([a, w]) = self.choice {
            view.selected = self.selected.or(Some(a.from));
            view.choice = Some((builder.captured_by(a), builder.captured_by(w)));
            view.targets.push((a.to, true));
        } else {
            let legal = builder.legal_steps();
            if self.steps.is_empty() && self.game.position().has_capture() {
                view.must_capture = legal.iter().fold(Bitboard::EMPTY, |b, s| b | s.from.bit());
            }
            view.selected = self.selected;
            if let Some(from) = self.selected {
                for step in legal.iter().filter(|s| s.from == from) {
                    let capture = step.kind.is_capture();
                    if let Some(t) = view.targets.iter_mut().find(|t| t.0 == step.to) {
                        t.1 |= capture;
                    } else {
                        view.targets.push((step.to, capture));
                    }
                }
            }
        }
        if !self.steps.is_empty() {
            view.visited = builder.visited();
            view.forbidden = builder
                .last_direction()
                .zip(self.selected)
                .map(|(d, p)| (p, d));
            view.chain = true;
        }
        view
    }
}

/// Turn `ply` (counted from 1) numbered as the list of turns and records number it: `7.`
/// for the first side's turn of the seventh round, `7...` for the other side's.
pub fn turn_number(ply: usize) -> String {
    let index = ply.saturating_sub(1);
    let dots = if index.is_multiple_of(2) { "." } else { "..." };
    format!("{}{dots}", index / 2 + 1)
}

/// "White" or "Black", in the player's language.
pub fn side_name(side: Side) -> Msg {
    Msg::new(match side {
        Side::White => "side-white",
        Side::Black => "side-black",
    })
}

/// The point's name, like `e3` (a point knows its board; `_size` is kept for callers).
pub fn name(_size: BoardSize, point: Point) -> String {
    point.to_string()
}

fn stones_of(position: &Position) -> Vec<(Point, Side)> {
    position
        .size()
        .points()
        .filter_map(|p| position.stone_at(p).map(|c| (p, c)))
        .collect()
}

/// Who plays which side for these settings.
pub fn players_for(settings: &Settings) -> [Player; 2] {
    match settings.mode {
        Mode::TwoPlayers => [Player::Human, Player::Human],
        Mode::EngineVsEngine => [Player::Engine, Player::Engine],
        Mode::HumanVsEngine => {
            let mut players = [Player::Engine, Player::Engine];
            players[settings.human_side.side().index()] = Player::Human;
            players
        }
    }
}

/// The message line once a game is over (the result line shows the outcome itself).
const GAME_OVER_MESSAGE: &str = "flow-game-over";

/// A sentence for a finished game: who won and why.
pub fn outcome_text(outcome: Outcome) -> Msg {
    let why = match outcome.reason {
        EndReason::NoStones => Msg::new("end-no-stones"),
        EndReason::Stuck => Msg::new("end-stuck"),
        EndReason::Repetition => Msg::new("end-repetition"),
        EndReason::NoCaptureLimit => Msg::new("end-no-capture-limit"),
        EndReason::Resignation => Msg::new("end-resignation"),
        EndReason::Agreement => Msg::new("end-agreement"),
        EndReason::Alignment => Msg::new("end-alignment"),
        // A reason added to the core later: its own (English) words.
        other => Msg::new("end-other").with("reason", other.description()),
    };
    match outcome.winner {
        Some(side) => Msg::new("result-wins")
            .with("side", side_name(side))
            .with("why", why),
        None => Msg::new("result-draw").with("why", why),
    }
}

/// Everything the board shows, derived from [`Match`] whenever it changes.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct BoardView {
    /// Board size.
    pub size: BoardSize,
    /// Stones and their points.
    pub stones: Vec<(Point, Side)>,
    /// The selected (or chain-moving) stone.
    pub selected: Option<Point>,
    /// Legal destinations of the selected stone; `true` for a capture.
    pub targets: Vec<(Point, bool)>,
    /// Stones that can capture when capturing is compulsory.
    pub must_capture: Bitboard,
    /// While choosing: the approach line and the withdrawal line.
    pub choice: Option<(Bitboard, Bitboard)>,
    /// Points the chain already visited.
    pub visited: Bitboard,
    /// The moving stone and the direction it may not take next.
    pub forbidden: Option<(Point, Direction)>,
    /// Path of the last turn played.
    pub last_path: Vec<Point>,
    /// Where the last turn captured.
    pub last_captured: Bitboard,
    /// A person can act on the board now.
    pub interactive: bool,
    /// A capture chain is in progress.
    pub chain: bool,
    /// The path of the engine's suggested turn (empty when no hint is shown).
    pub hint: Vec<Point>,
}

impl Default for BoardView {
    fn default() -> Self {
        BoardView {
            size: BoardSize::STANDARD,
            stones: Vec::new(),
            selected: None,
            targets: Vec::new(),
            must_capture: Bitboard::EMPTY,
            choice: None,
            visited: Bitboard::EMPTY,
            forbidden: None,
            last_path: Vec::new(),
            last_captured: Bitboard::EMPTY,
            interactive: false,
            chain: false,
            hint: Vec::new(),
        }
    }
}

/// Whether stones are being animated (input to the board waits, the engine waits to start).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Animating(pub bool);

/// Applies the commands of this frame.
fn apply_commands(
    mut commands: MessageReader<Command>,
    mut game: ResMut<Match>,
    mut played: MessageWriter<StepPlayed>,
    mut jumps: MessageWriter<BoardJump>,
    animating: Res<Animating>,
) {
    for command in commands.read() {
        if animating.0
            && matches!(
                command,
                Command::Click(_) | Command::Choose(_) | Command::EndTurn
            )
        {
            continue;
        }
        if matches!(
            command,
            Command::Undo
                | Command::NewGame
                | Command::View(_)
                | Command::ViewStep(_)
                | Command::Cancel
        ) {
            jumps.write(BoardJump);
        }
        let steps = game.apply(command);
        debug!("{command:?}: {}", game.message());
        played.write_batch(steps);
    }
}

fn refresh_view(game: Res<Match>, mut view: ResMut<BoardView>) {
    let new = game.board_view();
    if *view != new {
        *view = new;
    }
}

/// The game-flow plugin: [`Match`], [`Command`] and [`StepPlayed`] messages, [`BoardView`].
pub fn plugin(app: &mut App) {
    app.add_message::<Command>()
        .add_message::<StepPlayed>()
        .add_message::<BoardJump>()
        .init_resource::<Animating>()
        .init_resource::<BoardView>()
        .add_systems(
            Update,
            (
                apply_commands,
                refresh_view.run_if(resource_exists_and_changed::<Match>),
            )
                .chain()
                .in_set(FlowSet)
                .run_if(resource_exists::<Match>),
        );
}

/// System set of the game-flow systems: input runs before it, rendering after it.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FlowSet;
