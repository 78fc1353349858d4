//! The Puzzles screen: the puzzles shipped with the engine (`fanorona_ai::puzzles`), solved
//! by playing the turn on the board, step by step. Each step is judged as it is made
//! ([`Puzzle::judge`]): a step off the solution, or a chain ended before the solution turn is
//! complete, is a miss; the position is then set up again with the solution shown by the
//! hint's arrow. The first try of each puzzle rates the player (Glicko-2, [`Rating`]) and
//! counts the streak, both kept in the settings. A daily puzzle (the same for everybody all
//! day) and filters by board and theme choose the next puzzle.
//!
//! The screen talks to the game through the shared [`Match`] and reports its panel to the
//! [`Layout`].

use std::sync::Arc;

use bevy::prelude::*;
use fanorona_ai::puzzles::{self, Puzzle, PuzzleSet, Rating, Theme, Verdict};
use fanorona_core::{BoardSize, Step};

use crate::Screen;
use crate::game::flow::{BoardJump, BoardView, Command, FlowSet, Match, Player, side_name};
use crate::i18n::{Localized, Msg};
use crate::settings::Settings;
use crate::ui::layout::Layout;
use crate::ui::theme::{ACCENT, DIM, TEXT, TEXT_BODY, TEXT_LARGE, tr_text};
use crate::ui::widgets::{Action, button};

/// What the screen's buttons ask.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PuzzleCommand {
    /// Open the screen (from the menu) with a puzzle near the player's rating.
    Open,
    /// The next puzzle of the filters.
    Next,
    /// The daily puzzle (of the board filter).
    Daily,
    /// This puzzle again (not rated again).
    Retry,
    /// The next board filter: all, 5x9, 5x5.
    CycleBoard,
    /// The next theme filter: any, then each theme.
    CycleTheme,
    /// Back to the menu.
    Exit,
}

/// The puzzles the screen offers (the shipped set by default).
#[derive(Resource, Clone)]
pub struct PuzzleLibrary(pub Arc<PuzzleSet>);

impl Default for PuzzleLibrary {
    fn default() -> Self {
        PuzzleLibrary(Arc::new(puzzles::shipped()))
    }
}

/// Where the attempt stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attempt {
    /// Waiting for (the rest of) the turn.
    Solving,
    /// Solved.
    Solved,
    /// Missed: the solution is shown.
    Missed,
}

/// The board filters offered.
pub const BOARDS: [Option<BoardSize>; 3] = [None, Some(BoardSize::STANDARD), Some(BoardSize::DIMY)];

/// The Puzzles screen's state (present while it runs).
#[derive(Resource, Clone, Debug)]
pub struct PuzzleScreen {
    /// The puzzle on the board.
    pub puzzle: Option<Puzzle>,
    /// Where the attempt stands.
    pub attempt: Attempt,
    /// Whether this puzzle already counted for the rating (its first try did).
    pub rated: bool,
    /// Whether the puzzle is the daily one.
    pub daily: bool,
    /// The board filter.
    pub board: Option<BoardSize>,
    /// The theme filter.
    pub theme: Option<Theme>,
    /// What was said about the last try.
    pub feedback: Msg,
    /// Puzzles shown in this session (not offered again soon).
    seen: Vec<String>,
    match_id: u64,
}

impl PuzzleScreen {
    fn new() -> PuzzleScreen {
        PuzzleScreen {
            puzzle: None,
            attempt: Attempt::Solving,
            rated: false,
            daily: false,
            board: None,
            theme: None,
            feedback: Msg::default(),
            seen: Vec::new(),
            match_id: u64::MAX,
        }
    }
}

/// The player's puzzle rating from the settings.
pub fn rating(settings: &Settings) -> Rating {
    Rating::new(
        settings.puzzle_rating,
        settings.puzzle_deviation,
        settings.puzzle_volatility,
    )
}

fn match_id(game: &Match) -> u64 {
    game.generation() >> 32
}

/// The puzzle of the filters nearest the player's rating among those not seen in this
/// session (all seen: the nearest of all).
pub fn next_puzzle<'a>(
    set: &'a PuzzleSet,
    board: Option<BoardSize>,
    theme: Option<Theme>,
    player: f64,
    seen: &[String],
) -> Option<&'a Puzzle> {
    let distance = |p: &&Puzzle| (f64::from(p.rating()) - player).abs() as u64;
    set.filter(board, theme)
        .filter(|p| !seen.iter().any(|s| s == p.id()))
        .min_by_key(distance)
        .or_else(|| set.filter(board, theme).min_by_key(distance))
}

/// Sets `puzzle` up on the board.
fn show(screen: &mut PuzzleScreen, puzzle: &Puzzle, daily: bool) -> Match {
    let game = Match::new(*puzzle.position(), [Player::Human, Player::Human], 1);
    screen.puzzle = Some(puzzle.clone());
    screen.attempt = Attempt::Solving;
    screen.rated = false;
    screen.daily = daily;
    screen.match_id = match_id(&game);
    screen.feedback =
        Msg::new("puzzles-task").with("side", side_name(puzzle.position().side_to_move()));
    if !screen.seen.iter().any(|s| s == puzzle.id()) {
        screen.seen.push(puzzle.id().to_owned());
    }
    game
}

fn puzzle_commands(
    mut commands: Commands,
    mut requests: MessageReader<PuzzleCommand>,
    screen: Option<Res<PuzzleScreen>>,
    library: Res<PuzzleLibrary>,
    settings: Res<Settings>,
    mut next: ResMut<NextState<Screen>>,
    mut jumps: MessageWriter<BoardJump>,
) {
    let mut state = screen.map(|s| s.clone());
    let mut changed = false;
    let player = settings.puzzle_rating;
    for request in requests.read() {
        changed = true;
        jumps.write(BoardJump);
        let s = state.get_or_insert_with(PuzzleScreen::new);
        let pick = |s: &PuzzleScreen| next_puzzle(&library.0, s.board, s.theme, player, &s.seen);
        let chosen = match request {
            PuzzleCommand::Open | PuzzleCommand::Next => pick(s).map(|p| (p.clone(), false)),
            PuzzleCommand::Daily => library
                .0
                .daily(puzzles::day_number(std::time::SystemTime::now()), s.board)
                .map(|p| (p.clone(), true)),
            PuzzleCommand::Retry => s.puzzle.clone().map(|p| (p, s.daily)),
            PuzzleCommand::CycleBoard => {
                let i = BOARDS.iter().position(|b| *b == s.board).unwrap_or(0);
                s.board = BOARDS[(i + 1) % BOARDS.len()];
                pick(s).map(|p| (p.clone(), false))
            }
            PuzzleCommand::CycleTheme => {
                s.theme = match s.theme {
                    None => Some(Theme::ALL[0]),
                    Some(t) => Theme::ALL
                        .iter()
                        .position(|x| *x == t)
                        .and_then(|i| Theme::ALL.get(i + 1))
                        .copied(),
                };
                pick(s).map(|p| (p.clone(), false))
            }
            PuzzleCommand::Exit => {
                state = None;
                commands.remove_resource::<Match>();
                next.set(Screen::Menu);
                continue;
            }
        };
        match chosen {
            Some((puzzle, daily)) => {
                let rated = s.rated && *request == PuzzleCommand::Retry;
                let game = show(s, &puzzle, daily);
                s.rated = rated;
                if rated {
                    s.feedback = Msg::new("puzzles-again-unrated").with("task", s.feedback.clone());
                }
                commands.insert_resource(game);
                next.set(Screen::Playing);
            }
            None => {
                s.feedback = Msg::new("puzzles-none");
                if *request == PuzzleCommand::Open {
                    // Nothing to show on the board: leave it as it was.
                    let game = Match::new(
                        fanorona_core::Position::standard(),
                        [Player::Human, Player::Human],
                        1,
                    );
                    s.match_id = match_id(&game);
                    commands.insert_resource(game);
                    next.set(Screen::Playing);
                }
            }
        }
    }
    if changed {
        match state {
            Some(s) => commands.insert_resource(s),
            None => commands.remove_resource::<PuzzleScreen>(),
        }
    }
}

/// Judges the steps made so far; rates the first try.
fn judge_attempt(
    mut commands: Commands,
    screen: Option<ResMut<PuzzleScreen>>,
    game: Option<Res<Match>>,
    mut settings: ResMut<Settings>,
    mut moves: MessageWriter<Command>,
) {
    let (Some(mut screen), Some(game)) = (screen, game) else {
        return;
    };
    if match_id(&game) != screen.match_id {
        // Another game was started or loaded: the screen is over.
        commands.remove_resource::<PuzzleScreen>();
        return;
    }
    let Some(puzzle) = screen.puzzle.clone() else {
        return;
    };
    if screen.attempt != Attempt::Solving {
        // After a miss the solution's arrow stays on the board.
        if screen.attempt == Attempt::Missed
            && game.game().turns().is_empty()
            && game.partial_steps().is_empty()
            && game.hint().is_none()
            && let Some(&solution) = puzzle.solution().first()
        {
            moves.write(Command::ShowHint {
                generation: game.generation(),
                turn: solution,
            });
        }
        if screen.attempt == Attempt::Missed
            && let Some(turn) = game.game().turns().first()
        {
            // Playing the shown solution after a miss: solved, not rated.
            let steps: Vec<Step> = turn.steps().collect();
            if puzzle.judge(&steps, true) == Verdict::Solved {
                screen.attempt = Attempt::Solved;
                screen.feedback = Msg::new("puzzles-solved-shown").with("turn", turn.to_string());
            } else {
                // Not the solution again: the position once more, with the arrow.
                let again = Match::new(*puzzle.position(), [Player::Human, Player::Human], 1);
                screen.match_id = match_id(&again);
                commands.insert_resource(again);
            }
        }
        return;
    }
    let (steps, ended): (Vec<Step>, bool) = match game.game().turns().first() {
        Some(turn) => (turn.steps().collect(), true),
        None => (game.partial_steps().to_vec(), false),
    };
    if steps.is_empty() {
        return;
    }
    let verdict = puzzle.judge(&steps, ended);
    let solved = match verdict {
        Verdict::Solved => true,
        Verdict::Wrong => false,
        _ => return,
    };
    let played = game.game().turns().first().map_or_else(
        || Msg::new("puzzles-that-step"),
        |t| Msg::new("puzzles-turn").with("turn", t.to_string()),
    );
    let mut rating_line = Msg::default();
    if !screen.rated {
        screen.rated = true;
        let before = rating(&settings);
        let after = before.after_attempt(puzzle.rating(), solved);
        settings.puzzle_rating = after.rating;
        settings.puzzle_deviation = after.deviation;
        settings.puzzle_volatility = after.volatility;
        if solved {
            settings.puzzle_streak += 1;
            settings.puzzle_best_streak = settings.puzzle_best_streak.max(settings.puzzle_streak);
        } else {
            settings.puzzle_streak = 0;
        }
        let change = (after.rating - before.rating).round() as i64;
        rating_line = Msg::new("puzzles-rating-change")
            .with("rating", after.rating.round() as i64)
            .with("change", format!("{change:+}"));
    }
    if solved {
        screen.attempt = Attempt::Solved;
        screen.feedback = Msg::new("puzzles-solved")
            .with("turn", played)
            .with("rating", rating_line);
    } else {
        let ended_early = ended
            && steps.len() < puzzle.solution().iter().map(|t| t.len()).min().unwrap_or(0)
            && puzzle
                .solution()
                .iter()
                .any(|t| t.steps().zip(&steps).all(|(a, b)| a == *b));
        let why = Msg::new(if ended_early {
            "puzzles-stopped-early"
        } else {
            "puzzles-not-solution"
        })
        .with("turn", played);
        let mut turns = puzzle
            .solution()
            .iter()
            .map(|t| Msg::new("puzzles-turn").with("turn", t.to_string()));
        let first = turns.next().unwrap_or_default();
        let solution = turns.fold(first, |list, item| {
            Msg::new("puzzles-or").with("list", list).with("item", item)
        });
        screen.attempt = Attempt::Missed;
        screen.feedback = Msg::new("puzzles-missed")
            .with("why", why)
            .with("rating", rating_line)
            .with("solution", solution);
        // The puzzle's position again, with the solution's arrow (next frame).
        let again = Match::new(*puzzle.position(), [Player::Human, Player::Human], 1);
        screen.match_id = match_id(&again);
        commands.insert_resource(again);
    }
}

/// Once solved, the board rests.
fn rest_view(screen: Option<Res<PuzzleScreen>>, mut view: ResMut<BoardView>) {
    if screen.is_some_and(|s| s.attempt == Attempt::Solved)
        && (view.interactive || !view.targets.is_empty())
    {
        view.interactive = false;
        view.targets.clear();
        view.selected = None;
        view.must_capture = fanorona_core::Bitboard::EMPTY;
    }
}

// ---------------------------------------------------------------- the panel

#[derive(Component)]
struct PuzzlePanel;

#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum PuzzleText {
    Title,
    Feedback,
    Rating,
    Board,
    Theme,
}

fn spawn_panel(mut commands: Commands, screen: Option<Res<PuzzleScreen>>) {
    if screen.is_none() {
        return;
    }
    let line = |which: PuzzleText, size: f32, color: Color| {
        (
            which,
            tr_text(Msg::default(), size, color),
            Node {
                max_width: px(300.0),
                ..default()
            },
        )
    };
    let row = || Node {
        column_gap: px(6.0),
        row_gap: px(6.0),
        flex_wrap: FlexWrap::Wrap,
        ..default()
    };
    let filter = |which: PuzzleText, request: PuzzleCommand| {
        (
            Button,
            Action::Puzzles(request),
            Node {
                padding: UiRect::axes(px(10.0), px(4.0)),
                border_radius: BorderRadius::all(px(6.0)),
                ..default()
            },
            BackgroundColor(crate::ui::BUTTON),
            children![(which, tr_text(Msg::default(), 15.0, TEXT), Pickable::IGNORE)],
        )
    };
    commands.spawn((
        PuzzlePanel,
        DespawnOnExit(Screen::Playing),
        crate::game::input::BlocksBoard,
        Interaction::None,
        crate::ui::layout::wide_panel_node(),
        BackgroundColor(crate::ui::layout::WIDE_PANEL_BACKGROUND),
        children![
            tr_text("puzzles-title", TEXT_LARGE, ACCENT),
            line(PuzzleText::Title, 16.0, ACCENT),
            line(PuzzleText::Feedback, TEXT_BODY, TEXT),
            line(PuzzleText::Rating, TEXT_BODY, DIM),
            (
                row(),
                children![
                    button("puzzles-next", Action::Puzzles(PuzzleCommand::Next)),
                    button("puzzles-daily", Action::Puzzles(PuzzleCommand::Daily)),
                    button("puzzles-again", Action::Puzzles(PuzzleCommand::Retry)),
                    button("puzzles-leave", Action::Puzzles(PuzzleCommand::Exit)),
                ],
            ),
            (
                row(),
                children![
                    filter(PuzzleText::Board, PuzzleCommand::CycleBoard),
                    filter(PuzzleText::Theme, PuzzleCommand::CycleTheme),
                ],
            ),
        ],
    ));
}

fn refresh_panel(
    mut commands: Commands,
    screen: Option<Res<PuzzleScreen>>,
    settings: Res<Settings>,
    panels: Query<Entity, With<PuzzlePanel>>,
    mut texts: Query<(&PuzzleText, &mut Localized)>,
) {
    let Some(screen) = screen else {
        for panel in &panels {
            commands.entity(panel).despawn();
        }
        return;
    };
    for (which, mut t) in &mut texts {
        let value = match which {
            PuzzleText::Title => match &screen.puzzle {
                Some(p) => {
                    let themes: Vec<&str> = p.themes().iter().map(|t| t.name()).collect();
                    Msg::new(match (screen.daily, themes.is_empty()) {
                        (false, true) => "puzzles-heading",
                        (false, false) => "puzzles-heading-themes",
                        (true, true) => "puzzles-heading-daily",
                        (true, false) => "puzzles-heading-daily-themes",
                    })
                    .with("id", p.id())
                    .with("board", p.size().to_string())
                    .with("rating", p.rating())
                    .with("themes", themes.join(", "))
                }
                None => Msg::default(),
            },
            PuzzleText::Feedback => screen.feedback.clone(),
            PuzzleText::Rating => Msg::new("puzzles-rating")
                .with("rating", settings.puzzle_rating.round() as i64)
                .with("error", (2.0 * settings.puzzle_deviation).round() as i64)
                .with("streak", settings.puzzle_streak)
                .with("best", settings.puzzle_best_streak),
            PuzzleText::Board => match screen.board {
                Some(b) => Msg::new("puzzles-board").with("board", b.to_string()),
                None => Msg::new("puzzles-board-all"),
            },
            PuzzleText::Theme => match screen.theme {
                Some(t) => Msg::new("puzzles-theme").with("theme", t.name()),
                None => Msg::new("puzzles-theme-any"),
            },
        };
        if t.0 != value {
            t.0 = value;
        }
    }
}

/// The screen's plugin.
pub fn plugin(app: &mut App) {
    app.add_message::<PuzzleCommand>()
        .init_resource::<Layout>()
        .init_resource::<PuzzleLibrary>()
        .add_systems(
            PreUpdate,
            crate::ui::layout::report_training_panel::<PuzzleScreen>,
        )
        .add_systems(OnEnter(Screen::Playing), spawn_panel)
        .add_systems(
            Update,
            (
                puzzle_commands.before(FlowSet),
                judge_attempt.after(FlowSet),
                rest_view.after(judge_attempt),
                refresh_panel.run_if(in_state(Screen::Playing)),
            )
                .chain(),
        );
}

#[cfg(test)]
mod tests;
