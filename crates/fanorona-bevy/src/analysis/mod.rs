//! Hint and analysis: a second engine (its own transposition table, its own thread) looks at
//! the position on the board. The hint shows its suggested turn as an arrow; analysis mode
//! shows an evaluation bar and the best lines (MultiPV: 3 by default, 1 to 8 with **Fewer
//! lines** / **More lines**), each with its score and depth in turn notation, updated after
//! every completed iteration of the search. Neither waits on the window: results arrive on a
//! channel.

pub mod review;

use std::sync::Mutex;
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use bevy::prelude::*;
use fanorona_ai::{Engine, Info, Limits, Score, SearchHandle, SearchOptions};
use fanorona_core::{Color as Side, Game, Turn};

use crate::Screen;
use crate::game::engine::Thinking;
use crate::game::flow::{Command, FlowSet, Match};
use crate::i18n::{Arg, Msg};

/// Size of the analysis engine's transposition table.
const HASH_MB: usize = 32;
/// How long a hint may think when analysis mode is off.
pub const HINT_TIME: Duration = Duration::from_millis(1500);
/// The longest one analysis search runs on a position.
pub const ANALYSIS_TIME: Duration = Duration::from_secs(60);
/// With analysis on, a hint is given once the search has reached this depth (or ended).
const HINT_DEPTH: u32 = 6;
/// The most lines analysis mode shows.
pub const MAX_LINES: u8 = 8;
/// The lines analysis mode shows unless the player chooses otherwise.
pub const DEFAULT_LINES: u8 = 3;

/// What the player asked for.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalysisRequest {
    /// Show the engine's suggestion for the side to move.
    Hint,
    /// Turn analysis mode on or off.
    Toggle,
    /// Show one line more (up to [`MAX_LINES`]).
    MoreLines,
    /// Show one line fewer (at least one).
    FewerLines,
}

/// One line of the analysis: a root turn with its score, the depth it was searched to and
/// the expected replies.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The completed depth of this line.
    pub depth: u32,
    /// Its score for the side to move.
    pub score: Score,
    /// The turn and the expected replies.
    pub pv: Vec<Turn>,
}

/// A line of turns in notation, numbered like a record (`12. f2-e3A d4-d3W 13. ...`): the
/// first turn is played after `ply` turns of a game whose first mover is `start_side`.
pub fn line_text(pv: &[Turn], ply: usize, start_side: Side, max_turns: usize) -> String {
    let mut out = String::new();
    for (i, turn) in pv.iter().take(max_turns).enumerate() {
        let index = ply + i;
        let white_moves = (start_side == Side::White) == index.is_multiple_of(2);
        if i == 0 || white_moves {
            let number = index / 2 + 1;
            if !out.is_empty() {
                out.push(' ');
            }
            if white_moves {
                out += &format!("{number}. ");
            } else {
                out += &format!("{number}... ");
            }
        } else {
            out.push(' ');
        }
        out += &turn.to_string();
    }
    out
}

/// The latest report of the analysis engine.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Completed depth.
    pub depth: u32,
    /// Score for the side to move.
    pub score: Score,
    /// The side to move in the analysed position.
    pub side: Side,
    /// The best line, starting with the best turn.
    pub pv: Vec<Turn>,
    /// Nodes searched.
    pub nodes: u64,
    /// Whether the search has ended (this is its final answer).
    pub finished: bool,
    /// The best lines (MultiPV), best first; the first is the best line above. Each keeps
    /// the depth it was last completed at.
    pub lines: Vec<Line>,
}

impl Report {
    /// The share of the evaluation bar that is White's, from 0 (Black wins) to 1 (White
    /// wins); 0.5 is equal. Centi-stone scores go through a logistic curve: one stone ahead
    /// is about 60%, four stones about 85%.
    pub fn white_share(&self) -> f32 {
        white_share(self.score, self.side)
    }

    /// The evaluation in words from White's point of view: `+1.25` (stones), `White wins in 3`.
    pub fn score_text(&self) -> Msg {
        score_text(self.score, self.side)
    }

    /// The best line in turn notation, numbered like a record (`12. f2-e3A d4-d3W 13. ...`).
    pub fn line_text(&self, ply: usize, start_side: Side, max_turns: usize) -> String {
        line_text(&self.pv, ply, start_side, max_turns)
    }

    /// Takes in a line the search reported (`multipv` from 1): the lines of the same
    /// iteration replace the older ones; an older line whose turn is not among them stays
    /// (with its own depth) until `wanted` lines are shown.
    fn take_line(&mut self, multipv: usize, line: Line, fresh: &mut Vec<Line>, wanted: usize) {
        if multipv <= 1 {
            fresh.clear();
            fresh.push(line.clone());
            self.depth = line.depth;
            self.score = line.score;
            self.pv.clone_from(&line.pv);
        } else if fresh.first().is_some_and(|f| f.depth == line.depth) {
            fresh.push(line);
        } else {
            return;
        }
        let mut lines = fresh.clone();
        for old in &self.lines {
            if lines.len() >= wanted {
                break;
            }
            if lines.iter().all(|l| l.pv.first() != old.pv.first()) {
                lines.push(old.clone());
            }
        }
        lines.truncate(wanted.max(1));
        self.lines = lines;
    }
}

/// `score` (for `side`, to move) from White's point of view: `+1.25` (stones), `White wins in
/// 3`, in the player's language.
pub fn score_text(score: Score, side: Side) -> Msg {
    let sign = if side == Side::White { 1 } else { -1 };
    match score {
        Score::Cp(cp) => {
            let white = cp * sign;
            Msg::new("score-stones")
                .with("sign", if white < 0 { "-" } else { "+" })
                .with("value", Arg::Decimal(f64::from(white.abs()) / 100.0, 2))
        }
        Score::Win(n) => {
            let winner = if n * sign > 0 {
                Side::White
            } else {
                Side::Black
            };
            Msg::new("eval-wins-in")
                .with("side", crate::game::flow::side_name(winner))
                .with("turns", n.abs())
        }
    }
}

/// White's share of an evaluation bar for `score` (for `side`, to move), from 0 (Black wins)
/// to 1 (White wins); 0.5 is equal. Centi-stone scores go through a logistic curve: one
/// stone ahead is about 60%, four stones about 85%.
pub fn white_share(score: Score, side: Side) -> f32 {
    let for_mover = match score {
        Score::Cp(cp) => 1.0 / (1.0 + (-(cp as f32) / 250.0).exp()),
        Score::Win(n) if n > 0 => 1.0,
        Score::Win(_) => 0.0,
    };
    match side {
        Side::White => for_mover,
        Side::Black => 1.0 - for_mover,
    }
}

/// Analysis mode, the hint and what the analysis engine has found.
#[derive(Resource, Default)]
pub struct Analysis {
    /// Whether analysis mode is on.
    pub enabled: bool,
    /// A hint was asked for this generation of the game.
    hint_for: Option<u64>,
    /// The latest report, and the generation of the game and the turn looked back at (`None`:
    /// the current position) it is about.
    report: Option<(u64, Option<usize>, Report)>,
    job: Option<Job>,
}

struct Job {
    generation: u64,
    view: Option<usize>,
    side: Side,
    time: Duration,
    lines: usize,
    /// The lines of the iteration being reported.
    fresh: Vec<Line>,
    handle: Option<SearchHandle>,
    infos: Mutex<Receiver<Info>>,
}

impl Analysis {
    /// The latest report about the current position of `generation`.
    pub fn report(&self, generation: u64) -> Option<&Report> {
        self.report_at(generation, None)
    }

    /// The latest report about the position on the board: the current one, or the one
    /// looked back at.
    pub fn report_for(&self, game: &Match) -> Option<&Report> {
        self.report_at(game.generation(), game.viewing())
    }

    fn report_at(&self, generation: u64, view: Option<usize>) -> Option<&Report> {
        self.report
            .as_ref()
            .filter(|(g, v, _)| *g == generation && *v == view)
            .map(|(_, _, r)| r)
    }

    /// Whether the analysis engine is searching now.
    pub fn searching(&self) -> bool {
        self.job.as_ref().is_some_and(|j| j.handle.is_some())
    }

    /// Whether a hint is being looked for.
    pub fn hint_pending(&self, generation: u64) -> bool {
        self.hint_for == Some(generation)
    }
}

/// The analysis engine.
#[derive(Resource, Clone)]
pub struct AnalysisEngine(pub Engine);

impl Default for AnalysisEngine {
    fn default() -> Self {
        AnalysisEngine(Engine::new(HASH_MB))
    }
}

fn stop_job(job: Job) {
    if let Some(handle) = job.handle {
        handle.stop();
        // Dropping a handle waits for its thread: let another thread wait, not the window.
        let _ = std::thread::Builder::new()
            // i18n: not text (a thread name)
            .name("fanorona-analysis-stop".into())
            .spawn(move || drop(handle));
    }
}

fn requests(
    mut requests: MessageReader<AnalysisRequest>,
    mut analysis: ResMut<Analysis>,
    mut game: ResMut<Match>,
    settings: Option<ResMut<crate::settings::Settings>>,
) {
    let mut settings = settings;
    for request in requests.read() {
        match request {
            AnalysisRequest::MoreLines | AnalysisRequest::FewerLines => {
                let Some(settings) = settings.as_deref_mut() else {
                    continue;
                };
                let now = settings.analysis_lines();
                let lines = if *request == AnalysisRequest::MoreLines {
                    (now + 1).min(MAX_LINES)
                } else {
                    now.saturating_sub(1).max(1)
                };
                settings.analysis_lines = lines;
                if let Some((_, _, report)) = analysis.report.as_mut() {
                    report.lines.truncate(usize::from(lines));
                }
                game.set_message(Msg::new("analysis-lines").with("count", lines));
            }
            AnalysisRequest::Toggle => {
                analysis.enabled = !analysis.enabled;
                game.set_message(Msg::new(if analysis.enabled {
                    "analysis-on"
                } else {
                    "analysis-off"
                }));
            }
            AnalysisRequest::Hint => {
                if game.outcome().is_some() || game.viewing().is_some() {
                    game.set_message(Msg::new("hint-none-over"));
                } else if !game.partial_steps().is_empty() {
                    game.set_message(Msg::new("hint-none-chain"));
                } else if game.engine_to_move() {
                    game.set_message(Msg::new("hint-none-engine"));
                } else {
                    analysis.hint_for = Some(game.generation());
                    game.set_message(Msg::new("hint-looking"));
                }
            }
        }
    }
}

/// Starts, follows and stops the analysis search; turns a found hint into a command.
fn drive_analysis(
    mut analysis: ResMut<Analysis>,
    engine: Res<AnalysisEngine>,
    game: Res<Match>,
    thinking: Res<Thinking>,
    settings: Option<Res<crate::settings::Settings>>,
    mut commands: MessageWriter<Command>,
) {
    let generation = game.generation();
    let view = game.viewing();
    let analysis = &mut *analysis;
    if analysis.hint_for.is_some_and(|g| g != generation) {
        analysis.hint_for = None;
    }
    let hint = analysis.hint_pending(generation);
    // The position on the board: looking back, the one after that turn.
    let shown = match view {
        Some(ply) => {
            let mut past = Game::new(*game.game().start());
            for turn in &game.game().turns()[..ply] {
                // The turns were played in this game before: replaying them succeeds.
                let _ = past.play(turn);
            }
            past
        }
        None => game.game().clone(),
    };
    // Analyse the position on the board while a person (or nobody) is to move: not while the
    // game engine thinks, which would share the processor with it.
    let wanted = if view.is_some() {
        analysis.enabled && shown.outcome().is_none() && !thinking.active()
    } else {
        (analysis.enabled || hint)
            && game.outcome().is_none()
            && game.partial_steps().is_empty()
            && !thinking.active()
            && !game.engine_to_move()
    };
    // Analysis mode shows the chosen number of lines; a hint alone needs the best one.
    let lines = if analysis.enabled {
        usize::from(settings.map_or(DEFAULT_LINES, |s| s.analysis_lines()))
    } else {
        1
    };
    if analysis.job.as_ref().is_some_and(|job| {
        job.generation != generation
            || job.view != view
            || !wanted
            || (job.lines != lines && job.handle.is_some())
    }) && let Some(job) = analysis.job.take()
    {
        stop_job(job);
    }
    if let Some(job) = analysis.job.as_mut() {
        let infos: Vec<Info> = job
            .infos
            .lock()
            .map(|r| r.try_iter().collect())
            .unwrap_or_default();
        for info in infos {
            let current =
                matches!(&analysis.report, Some((g, v, _)) if *g == generation && *v == view);
            if !current {
                analysis.report = Some((
                    generation,
                    view,
                    Report {
                        depth: info.depth,
                        score: info.score,
                        side: job.side,
                        pv: info.pv.clone(),
                        nodes: info.nodes,
                        finished: false,
                        lines: Vec::new(),
                    },
                ));
            }
            let Some((_, _, report)) = analysis.report.as_mut() else {
                continue;
            };
            report.nodes = info.nodes;
            report.finished = false;
            report.take_line(
                info.multipv,
                Line {
                    depth: info.depth,
                    score: info.score,
                    pv: info.pv,
                },
                &mut job.fresh,
                job.lines,
            );
        }
        if job.handle.as_ref().is_some_and(SearchHandle::is_finished)
            && let Some(handle) = job.handle.take()
        {
            match handle.join() {
                Ok(result) => {
                    let mut lines = match &analysis.report {
                        Some((g, v, r)) if *g == generation && *v == view => r.lines.clone(),
                        _ => Vec::new(),
                    };
                    let best = Line {
                        depth: result.depth,
                        score: result.score,
                        pv: result.pv.clone(),
                    };
                    lines.retain(|l| l.pv.first() != best.pv.first());
                    lines.insert(0, best);
                    lines.truncate(job.lines.max(1));
                    analysis.report = Some((
                        generation,
                        view,
                        Report {
                            depth: result.depth,
                            score: result.score,
                            side: job.side,
                            pv: result.pv,
                            nodes: result.nodes,
                            finished: true,
                            lines,
                        },
                    ));
                }
                Err(e) => warn!("analysis: {e}"),
            }
        }
    }
    let time = if analysis.enabled {
        ANALYSIS_TIME
    } else {
        HINT_TIME
    };
    // A finished hint search is not enough for analysis mode: search again, longer.
    let start = wanted
        && analysis
            .job
            .as_ref()
            .is_none_or(|job| job.handle.is_none() && (job.time < time || job.lines != lines));
    if start {
        if analysis.report_at(generation, view).is_none() {
            analysis.report = None;
        }
        let (send, infos) = channel();
        let side = shown.position().side_to_move();
        let handle = engine.0.start(
            shown,
            Limits::movetime(time),
            SearchOptions::default().with_multipv(lines),
            move |info| {
                let _ = send.send(info.clone());
            },
        );
        analysis.job = Some(Job {
            generation,
            view,
            side,
            time,
            lines,
            fresh: Vec::new(),
            handle: Some(handle),
            infos: Mutex::new(infos),
        });
    }
    if analysis.hint_pending(generation)
        && let Some(report) = analysis.report(generation)
        && (report.finished || report.depth >= HINT_DEPTH)
        && let Some(&turn) = report.pv.first()
    {
        analysis.hint_for = None;
        commands.write(Command::ShowHint { generation, turn });
    }
}

/// `H` asks for a hint, `E` turns analysis on or off (not while a turn is being typed).
pub fn analysis_keys(
    keys: Res<ButtonInput<KeyCode>>,
    entry: Option<Res<crate::game::input::TurnEntry>>,
    mut requests: MessageWriter<AnalysisRequest>,
) {
    if entry.is_some_and(|e| e.used_keys) {
        return;
    }
    if keys.just_pressed(KeyCode::KeyH) {
        requests.write(AnalysisRequest::Hint);
    }
    if keys.just_pressed(KeyCode::KeyE) {
        requests.write(AnalysisRequest::Toggle);
    }
}

/// Stops the analysis search when the app exits.
fn stop_on_exit(mut exits: MessageReader<AppExit>, mut analysis: ResMut<Analysis>) {
    if exits.read().count() > 0
        && let Some(job) = analysis.job.take()
        && let Some(handle) = job.handle
    {
        handle.stop();
    }
}

/// The analysis plugin.
pub fn plugin(app: &mut App) {
    app.init_resource::<Analysis>()
        .init_resource::<AnalysisEngine>()
        .add_message::<AnalysisRequest>()
        .add_systems(
            Update,
            (
                analysis_keys
                    .after(crate::game::input::type_turn)
                    .before(requests)
                    .run_if(
                        in_state(Screen::Playing).and_then(resource_exists::<ButtonInput<KeyCode>>),
                    ),
                (requests, drive_analysis)
                    .chain()
                    .before(FlowSet)
                    .run_if(resource_exists::<Match>.and_then(not(in_state(Screen::Menu)))),
                stop_on_exit,
            ),
        );
}

#[cfg(test)]
mod tests;
