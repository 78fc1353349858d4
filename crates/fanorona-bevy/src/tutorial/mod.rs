//! The interactive tutorial: short lessons on small positions, one rule each. A lesson shows
//! the rule, asks for one turn, and judges the turn the player makes on the board (clicked or
//! typed): a right turn passes the lesson, a wrong one is explained and taken back. Moves the
//! rules forbid are refused by the game itself, with its own explanation.

use bevy::prelude::*;
use fanorona_core::{Bitboard, Color as Side, Game, Position, StepKind, Turn};

use crate::Screen;
use crate::game::flow::{BoardView, Command, FlowSet, Match, Player};
use crate::ui::layout::{Layout, RightPanel};

/// What a lesson says about the turn played.
pub type Verdict = Result<String, String>;

/// One lesson: a rule, a position and the turn asked for.
pub struct Lesson {
    /// Short title.
    pub title: &'static str,
    /// The rule, in a few sentences.
    pub rule: &'static str,
    /// What the player should do.
    pub task: &'static str,
    /// The position (position string; White to move).
    pub position: &'static str,
    /// Judges the kind of turn played in `position`: `Ok(praise)` or `Err(explanation)`.
    pub judge: fn(&Position, &Turn) -> Verdict,
    /// The stones the turn must capture (all of them; a chain may take more), empty: any.
    pub take: &'static [&'static str],
}

impl Lesson {
    /// The lesson's starting position.
    pub fn start(&self) -> Position {
        Position::from_fen(self.position).expect("the lessons' positions are valid")
    }

    /// Judges a turn played in the lesson's position: the kind of turn the lesson asks for,
    /// and the stones it must take.
    pub fn judge_turn(&self, position: &Position, turn: &Turn) -> Verdict {
        let praise = (self.judge)(position, turn)?;
        if self.take.is_empty() {
            return Ok(praise);
        }
        let size = position.size();
        let wanted = self
            .take
            .iter()
            .filter_map(|name| size.parse_point(name))
            .fold(Bitboard::EMPTY, |b, p| b | p.bit());
        let taken = turn.captured();
        if taken & wanted == wanted {
            return Ok(praise);
        }
        let names =
            |b: Bitboard| -> Vec<String> { b.points(size).map(|p| p.to_string()).collect() };
        Err(format!(
            "{turn} captured {} on {}, but this lesson asks for {} on {}.",
            stones(taken.count()),
            and_list(&names(taken)),
            if wanted.count() == 1 {
                "the stone"
            } else {
                "the stones"
            },
            and_list(&names(wanted)),
        ))
    }
}

/// `1 stone`, `2 stones`.
pub fn stones(n: u32) -> String {
    if n == 1 {
        "1 stone".into()
    } else {
        format!("{n} stones")
    }
}

/// `c3`, `c3 and c4`, `c3, c4 and c5`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => "nothing".into(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn most_captures(position: &Position) -> u32 {
    position
        .legal_turns()
        .iter()
        .map(|t| t.captured().count())
        .max()
        .unwrap_or(0)
}

fn first_kind(turn: &Turn) -> Option<StepKind> {
    turn.steps().next().map(|s| s.kind)
}

fn judge_paika(_: &Position, turn: &Turn) -> Verdict {
    if turn.is_paika() {
        Ok(format!(
            "{turn} is a paika move: one step along a line to a free point, capturing nothing."
        ))
    } else {
        Err(format!(
            "{turn} captured; this lesson asks for a paika move."
        ))
    }
}

fn judge_approach(_: &Position, turn: &Turn) -> Verdict {
    match first_kind(turn) {
        Some(StepKind::Approach) => Ok(format!(
            "{turn}: your stone stopped right next to the black line and captured {} by approach.",
            stones(turn.captured().count())
        )),
        Some(StepKind::Withdrawal) => Err(format!(
            "{turn} captured by withdrawal: moving away from a stone. Here move towards a black stone, so that your stone lands next to it on the same line."
        )),
        _ => Err(format!("{turn} captured nothing.")),
    }
}

fn judge_withdrawal(_: &Position, turn: &Turn) -> Verdict {
    match first_kind(turn) {
        Some(StepKind::Withdrawal) => Ok(format!(
            "{turn}: your stone stepped straight away from the black stones and captured {} by withdrawal.",
            stones(turn.captured().count())
        )),
        Some(StepKind::Approach) => Err(format!(
            "{turn} captured by approach (moving towards a stone). Here move a stone that touches a black stone directly away from it, along their line."
        )),
        _ => Err(format!("{turn} captured nothing.")),
    }
}

fn judge_choice(position: &Position, turn: &Turn) -> Verdict {
    let best = most_captures(position);
    let got = turn.captured().count();
    if got == best {
        Ok(format!(
            "{turn} chose the larger line: {} instead of 1.",
            stones(got)
        ))
    } else {
        Err(format!(
            "{turn} captured {}; the other choice of the same step captures {best}. When a step can capture both ways, you choose (click a stone of the line, or A / W).",
            stones(got)
        ))
    }
}

fn judge_chain(position: &Position, turn: &Turn) -> Verdict {
    let best = most_captures(position);
    let got = turn.captured().count();
    if got == best {
        Ok(format!(
            "{turn}: one stone, {} in a row. It never moved in the same direction twice in a row and never came back to a point it had visited.",
            if turn.len() == 1 {
                "1 capture".to_string()
            } else {
                format!("{} captures", turn.len())
            }
        ))
    } else {
        Err(format!(
            "{turn} ended after {got} capture{}: the same stone could have captured again. After a capture keep clicking the highlighted points; end the turn only when you want to stop.",
            if got == 1 { "" } else { "s" }
        ))
    }
}

fn judge_compulsory(_: &Position, turn: &Turn) -> Verdict {
    if turn.is_capture() {
        Ok(format!(
            "{turn} captured. While any capture exists, a paika move is not allowed."
        ))
    } else {
        Err(format!("{turn} did not capture."))
    }
}

fn judge_ending(position: &Position, turn: &Turn) -> Verdict {
    let mut game = Game::new(*position);
    if game.play(turn).is_err() {
        return Err(format!("{turn} is not legal here."));
    }
    match game.outcome() {
        Some(outcome) if outcome.winner == Some(Side::White) => Ok(format!(
            "{turn} took Black's last stone: White wins. A game also ends when the player to move cannot move, and is drawn when a position repeats three times or after 100 turns without a capture."
        )),
        _ => Err(format!(
            "{turn} leaves Black a stone: the game goes on. Capture the last black stone."
        )),
    }
}

/// The lessons, in order.
pub const LESSONS: [Lesson; 7] = [
    Lesson {
        title: "Paika: an ordinary move",
        rule: "Stones move one step along a line (the lines on the board) to a free neighbouring point. When no capture is possible anywhere, such a move, a paika, is the turn.",
        task: "Click your white stone, then one of the marked points (or type a turn such as a1-b2 after T).",
        position: "4B/5/5/5/W4 w",
        judge: judge_paika,
        take: &[],
    },
    Lesson {
        title: "Capture by approach",
        rule: "Moving a stone to a point right next to an enemy stone, in the direction of the move, captures that stone and every enemy stone directly behind it on the same line, up to the first gap or own stone.",
        task: "Capture the two black stones on c3 and c4 by approach.",
        position: "5/2B2/2B1B/4W/2W2 w",
        judge: judge_approach,
        take: &["c3", "c4"],
    },
    Lesson {
        title: "Capture by withdrawal",
        rule: "Moving a stone directly away from an enemy stone that touches it captures that stone and the unbroken line of enemy stones behind it.",
        task: "Capture the black stones on c3 and c4 by withdrawal: move the stone on c2 away from them.",
        position: "5/2B2/2B1B/2W2/4W w",
        judge: judge_withdrawal,
        take: &["c3", "c4"],
    },
    Lesson {
        title: "Approach or withdrawal?",
        rule: "Sometimes one step captures both ways: it approaches one line and withdraws from another. You choose which line is captured (never both).",
        task: "Move b3 to c3 and capture the larger line.",
        position: "5/5/BW1BB/5/5 w",
        judge: judge_choice,
        take: &["d3", "e3"],
    },
    Lesson {
        title: "Chains",
        rule: "After a capture the same stone may capture again, and again. Two restrictions: it may not move twice in a row in the same direction, and it may not return to a point it has visited this turn. You may stop the chain at any time (End turn, Space).",
        task: "Capture both black stones near your stone in one turn.",
        position: "5/5/1B3/5/W1B1B w",
        judge: judge_chain,
        take: &["b3", "c1"],
    },
    Lesson {
        title: "Capturing is compulsory",
        rule: "If any of your stones can capture, you must capture (with any such stone); paika moves are allowed only when no capture exists. The stones that can capture are ringed in orange.",
        task: "Find a capture.",
        position: "5/5/2B2/5/W3W w",
        judge: judge_compulsory,
        take: &["c3"],
    },
    Lesson {
        title: "How a game ends",
        rule: "You win by capturing all the enemy's stones, or when the player to move has no legal move. A position repeated three times, or 100 turns in a row without a capture, is a draw.",
        task: "Win the game in this turn.",
        position: "5/5/1B3/5/W1BB1 w",
        judge: judge_ending,
        take: &[],
    },
];

/// Where the player is in the tutorial (present only while it runs).
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct Tutorial {
    /// The lesson shown, an index into [`LESSONS`].
    pub lesson: usize,
    /// Whether the lesson's turn was made right.
    pub passed: bool,
    /// What the lesson says about the last try.
    pub feedback: String,
    /// Wrong tries in this lesson.
    pub wrong_tries: u32,
}

/// What the tutorial's buttons ask.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TutorialCommand {
    /// Begin at the first lesson.
    Start,
    /// Go to the next lesson (after the last: leave).
    Next,
    /// Go back one lesson.
    Previous,
    /// Set the position of this lesson again.
    Retry,
    /// Leave the tutorial for the menu.
    Exit,
}

/// Starts the tutorial at lesson `index` (from 0): its game and its state, for the app to
/// show on the game screen.
pub fn begin(app: &mut App, index: usize) {
    let index = index.min(LESSONS.len() - 1);
    app.insert_resource(lesson_match(index))
        .insert_resource(Tutorial {
            lesson: index,
            passed: false,
            feedback: String::new(),
            wrong_tries: 0,
        });
}

fn lesson_match(index: usize) -> Match {
    Match::new(LESSONS[index].start(), [Player::Human, Player::Human], 1)
}

fn tutorial_commands(
    mut commands: Commands,
    mut requests: MessageReader<TutorialCommand>,
    tutorial: Option<ResMut<Tutorial>>,
    mut next: ResMut<NextState<Screen>>,
    mut jumps: MessageWriter<crate::game::flow::BoardJump>,
) {
    let mut lesson = tutorial.as_ref().map(|t| t.lesson);
    for request in requests.read() {
        let go_to = match request {
            TutorialCommand::Start => Some(0),
            TutorialCommand::Next => lesson.map(|l| l + 1),
            TutorialCommand::Previous => lesson.map(|l| l.saturating_sub(1)),
            TutorialCommand::Retry => lesson,
            TutorialCommand::Exit => Some(LESSONS.len()),
        };
        let Some(index) = go_to else { continue };
        jumps.write(crate::game::flow::BoardJump);
        if index >= LESSONS.len() {
            commands.remove_resource::<Tutorial>();
            commands.remove_resource::<Match>();
            lesson = None;
            next.set(Screen::Menu);
            continue;
        }
        lesson = Some(index);
        commands.insert_resource(lesson_match(index));
        commands.insert_resource(Tutorial {
            lesson: index,
            passed: false,
            feedback: String::new(),
            wrong_tries: 0,
        });
        next.set(Screen::Playing);
    }
}

/// The message line once the lesson's turn is made.
const LESSON_DONE: &str = "Lesson done: Next lesson when you are ready";

/// Judges the turn made in the lesson; a wrong one is explained and taken back.
fn check_lesson(
    tutorial: Option<ResMut<Tutorial>>,
    mut game: ResMut<Match>,
    mut jumps: MessageWriter<crate::game::flow::BoardJump>,
) {
    let Some(mut tutorial) = tutorial else {
        return;
    };
    if tutorial.passed {
        return;
    }
    let Some(&turn) = game.game().turns().first() else {
        return;
    };
    let lesson = &LESSONS[tutorial.lesson];
    match lesson.judge_turn(game.game().start(), &turn) {
        Ok(praise) => {
            tutorial.passed = true;
            tutorial.feedback = format!("Right! {praise}");
            game.set_message(LESSON_DONE);
        }
        Err(why) => {
            tutorial.wrong_tries += 1;
            tutorial.feedback =
                format!("Not quite: {why} The position is set up again: try once more.");
            // Back to the lesson's position, without animation.
            *game = lesson_match(tutorial.lesson);
            jumps.write(crate::game::flow::BoardJump);
        }
    }
}

#[derive(Component)]
struct TutorialPanel;

#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum TutorialText {
    Title,
    Rule,
    Task,
    Feedback,
}

fn spawn_panel(mut commands: Commands, tutorial: Option<Res<Tutorial>>) {
    if tutorial.is_none() {
        return;
    }
    let text = |which: TutorialText, size: f32, color: Color| {
        (
            which,
            Text::new(""),
            TextFont::from_font_size(size),
            TextColor(color),
            Node {
                max_width: px(300.0),
                ..default()
            },
        )
    };
    let button = |label: &str, request: TutorialCommand| {
        (
            Button,
            crate::ui::Action::Tutorial(request),
            Node {
                padding: UiRect::axes(px(10.0), px(5.0)),
                border_radius: BorderRadius::all(px(6.0)),
                ..default()
            },
            BackgroundColor(crate::ui::BUTTON),
            children![(
                Text::new(label),
                TextFont::from_font_size(16.0),
                TextColor(crate::ui::TEXT),
                Pickable::IGNORE
            )],
        )
    };
    commands.spawn((
        TutorialPanel,
        DespawnOnExit(Screen::Playing),
        crate::game::input::BlocksBoard,
        Interaction::None,
        Node {
            position_type: PositionType::Absolute,
            right: px(crate::ui::MARGIN),
            top: px(crate::ui::MARGIN),
            width: px(crate::ui::layout::TUTORIAL_PANEL_WIDTH),
            flex_direction: FlexDirection::Column,
            padding: UiRect::all(px(14.0)),
            row_gap: px(8.0),
            border_radius: BorderRadius::all(px(10.0)),
            ..default()
        },
        BackgroundColor(Color::srgba(0.06, 0.07, 0.09, 0.95)),
        children![
            text(TutorialText::Title, 22.0, crate::ui::ACCENT),
            text(TutorialText::Rule, 15.0, crate::ui::TEXT),
            text(TutorialText::Task, 16.0, crate::ui::ACCENT),
            text(TutorialText::Feedback, 15.0, crate::ui::TEXT),
            (
                Node {
                    column_gap: px(6.0),
                    flex_wrap: FlexWrap::Wrap,
                    row_gap: px(6.0),
                    ..default()
                },
                children![
                    button("< Back", TutorialCommand::Previous),
                    button("Again", TutorialCommand::Retry),
                    button("Next >", TutorialCommand::Next),
                    button("Leave", TutorialCommand::Exit),
                ],
            ),
        ],
    ));
}

fn refresh_panel(
    mut commands: Commands,
    tutorial: Option<Res<Tutorial>>,
    panels: Query<Entity, With<TutorialPanel>>,
    mut texts: Query<(&TutorialText, &mut Text, &mut TextColor)>,
) {
    let Some(tutorial) = tutorial else {
        for panel in &panels {
            commands.entity(panel).despawn();
        }
        return;
    };
    let lesson = &LESSONS[tutorial.lesson];
    for (which, mut text, mut color) in &mut texts {
        let value = match which {
            TutorialText::Title => format!(
                "Lesson {} of {}: {}",
                tutorial.lesson + 1,
                LESSONS.len(),
                lesson.title
            ),
            TutorialText::Rule => lesson.rule.to_string(),
            TutorialText::Task => {
                if tutorial.passed {
                    if tutorial.lesson + 1 < LESSONS.len() {
                        "Done. Next > opens the next lesson.".to_string()
                    } else {
                        "Done: that was the last lesson. Leave returns to the menu.".to_string()
                    }
                } else {
                    format!("Your turn: {}", lesson.task)
                }
            }
            TutorialText::Feedback => tutorial.feedback.clone(),
        };
        if text.0 != value {
            text.0 = value;
        }
        if *which == TutorialText::Feedback {
            let wanted = if tutorial.passed {
                crate::board::SKY_BLUE
            } else {
                crate::board::ORANGE
            };
            if color.0 != wanted {
                color.0 = wanted;
            }
        }
    }
}

/// Once the lesson's turn is made the board rests: the other side's stones cannot be
/// selected (so no turn is played on), and no rings, targets or selection show.
fn rest_view_after_lesson(
    tutorial: Option<Res<Tutorial>>,
    game: Option<ResMut<Match>>,
    mut view: ResMut<BoardView>,
) {
    if !tutorial.is_some_and(|t| t.passed) {
        return;
    }
    if let Some(mut game) = game
        && (game.selected().is_some() || !game.partial_steps().is_empty())
    {
        game.apply(&Command::Cancel);
        game.set_message(LESSON_DONE);
    }
    if view.interactive || !view.targets.is_empty() || view.must_capture != Bitboard::EMPTY {
        view.interactive = false;
        view.targets.clear();
        view.selected = None;
        view.must_capture = Bitboard::EMPTY;
    }
}

/// Tells the layout that the lesson's panel takes the right edge while the tutorial runs.
fn report_layout(tutorial: Option<Res<Tutorial>>, mut layout: ResMut<Layout>) {
    let right = if tutorial.is_some() {
        RightPanel::Tutorial
    } else if layout.right == RightPanel::Tutorial {
        RightPanel::Turns
    } else {
        // Another feature's panel (or the list of turns): not the tutorial's to change.
        return;
    };
    if layout.right != right {
        layout.right = right;
    }
}

/// The tutorial plugin.
pub fn plugin(app: &mut App) {
    app.add_message::<TutorialCommand>()
        .init_resource::<Layout>()
        .add_systems(PreUpdate, report_layout)
        .add_systems(OnEnter(Screen::Playing), spawn_panel)
        .add_systems(
            Update,
            (
                tutorial_commands,
                check_lesson.after(FlowSet).run_if(resource_exists::<Match>),
                rest_view_after_lesson.after(check_lesson),
                refresh_panel
                    .run_if(in_state(Screen::Playing))
                    .after(check_lesson),
            ),
        );
}

#[cfg(test)]
mod tests;
