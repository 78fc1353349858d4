//! The interactive tutorial: short lessons on small positions, one rule each. A lesson shows
//! the rule, asks for one turn, and judges the turn the player makes on the board (clicked or
//! typed): a right turn passes the lesson, a wrong one is explained and taken back. Moves the
//! rules forbid are refused by the game itself, with its own explanation.

use bevy::prelude::*;
use fanorona_core::{Bitboard, Color as Side, Game, Position, StepKind, Turn};

use crate::Screen;
use crate::game::flow::{BoardView, Command, FlowSet, Match, Player};
use crate::i18n::{Localized, Msg};
use crate::ui::layout::{Layout, RightPanel};

/// What a lesson says about the turn played.
pub type Verdict = Result<Msg, Msg>;

/// One lesson: a rule, a position and the turn asked for. Its texts are message ids
/// (`locales/*/tutorial.ftl`).
pub struct Lesson {
    /// Short title (a message id).
    pub title: &'static str,
    /// The rule, in a few sentences (a message id).
    pub rule: &'static str,
    /// What the player should do (a message id).
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
        Err(Msg::new("lesson-wrong-stones")
            .with("turn", turn.to_string())
            .with("taken", stones(taken.count()))
            .with("taken-points", and_list(&names(taken)))
            .with("wanted", wanted.count())
            .with("wanted-points", and_list(&names(wanted))))
    }
}

/// `1 stone`, `2 stones`, in the player's language.
pub fn stones(n: u32) -> Msg {
    Msg::new("stones-count").with("count", n)
}

/// `c3`, `c3 and c4`, `c3, c4 and c5`, in the player's language.
fn and_list(items: &[String]) -> Msg {
    match items {
        [] => Msg::new("list-nothing"),
        [one] => Msg::new("list-one").with("item", one.clone()),
        [rest @ .., last] => Msg::new("list-and")
            .with("items", rest.join(", "))
            .with("last", last.clone()),
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
    let t = turn.to_string();
    if turn.is_paika() {
        Ok(Msg::new("lesson-paika-right").with("turn", t))
    } else {
        Err(Msg::new("lesson-paika-wrong").with("turn", t))
    }
}

fn judge_approach(_: &Position, turn: &Turn) -> Verdict {
    let t = turn.to_string();
    match first_kind(turn) {
        Some(StepKind::Approach) => Ok(Msg::new("lesson-approach-right")
            .with("turn", t)
            .with("stones", stones(turn.captured().count()))),
        Some(StepKind::Withdrawal) => Err(Msg::new("lesson-approach-wrong").with("turn", t)),
        _ => Err(Msg::new("lesson-captured-nothing").with("turn", t)),
    }
}

fn judge_withdrawal(_: &Position, turn: &Turn) -> Verdict {
    let t = turn.to_string();
    match first_kind(turn) {
        Some(StepKind::Withdrawal) => Ok(Msg::new("lesson-withdrawal-right")
            .with("turn", t)
            .with("stones", stones(turn.captured().count()))),
        Some(StepKind::Approach) => Err(Msg::new("lesson-withdrawal-wrong").with("turn", t)),
        _ => Err(Msg::new("lesson-captured-nothing").with("turn", t)),
    }
}

fn judge_choice(position: &Position, turn: &Turn) -> Verdict {
    let best = most_captures(position);
    let got = turn.captured().count();
    let t = turn.to_string();
    if got == best {
        Ok(Msg::new("lesson-choice-right")
            .with("turn", t)
            .with("stones", stones(got)))
    } else {
        Err(Msg::new("lesson-choice-wrong")
            .with("turn", t)
            .with("stones", stones(got))
            .with("best", best))
    }
}

fn judge_chain(position: &Position, turn: &Turn) -> Verdict {
    let best = most_captures(position);
    let got = turn.captured().count();
    let t = turn.to_string();
    if got == best {
        Ok(Msg::new("lesson-chain-right")
            .with("turn", t)
            .with("captures", turn.len()))
    } else {
        Err(Msg::new("lesson-chain-wrong")
            .with("turn", t)
            .with("captures", got))
    }
}

fn judge_compulsory(_: &Position, turn: &Turn) -> Verdict {
    let t = turn.to_string();
    if turn.is_capture() {
        Ok(Msg::new("lesson-compulsory-right").with("turn", t))
    } else {
        Err(Msg::new("lesson-compulsory-wrong").with("turn", t))
    }
}

fn judge_ending(position: &Position, turn: &Turn) -> Verdict {
    let t = turn.to_string();
    let mut game = Game::new(*position);
    if game.play(turn).is_err() {
        return Err(Msg::new("lesson-not-legal").with("turn", t));
    }
    match game.outcome() {
        Some(outcome) if outcome.winner == Some(Side::White) => {
            Ok(Msg::new("lesson-ending-right").with("turn", t))
        }
        _ => Err(Msg::new("lesson-ending-wrong").with("turn", t)),
    }
}

/// The lessons, in order.
pub const LESSONS: [Lesson; 7] = [
    Lesson {
        title: "lesson-paika-title",
        rule: "lesson-paika-rule",
        task: "lesson-paika-task",
        position: "4B/5/5/5/W4 w",
        judge: judge_paika,
        take: &[],
    },
    Lesson {
        title: "lesson-approach-title",
        rule: "lesson-approach-rule",
        task: "lesson-approach-task",
        position: "5/2B2/2B1B/4W/2W2 w",
        judge: judge_approach,
        take: &["c3", "c4"],
    },
    Lesson {
        title: "lesson-withdrawal-title",
        rule: "lesson-withdrawal-rule",
        task: "lesson-withdrawal-task",
        position: "5/2B2/2B1B/2W2/4W w",
        judge: judge_withdrawal,
        take: &["c3", "c4"],
    },
    Lesson {
        title: "lesson-choice-title",
        rule: "lesson-choice-rule",
        task: "lesson-choice-task",
        // i18n: not text (a position string)
        position: "5/5/BW1BB/5/5 w",
        judge: judge_choice,
        take: &["d3", "e3"],
    },
    Lesson {
        title: "lesson-chain-title",
        rule: "lesson-chain-rule",
        task: "lesson-chain-task",
        position: "5/5/1B3/5/W1B1B w",
        judge: judge_chain,
        take: &["b3", "c1"],
    },
    Lesson {
        title: "lesson-compulsory-title",
        rule: "lesson-compulsory-rule",
        task: "lesson-compulsory-task",
        position: "5/5/2B2/5/W3W w",
        judge: judge_compulsory,
        take: &["c3"],
    },
    Lesson {
        title: "lesson-ending-title",
        rule: "lesson-ending-rule",
        task: "lesson-ending-task",
        // i18n: not text (a position string)
        position: "5/5/1B3/5/W1BB1 w",
        judge: judge_ending,
        take: &[],
    },
];

/// Where the player is in the tutorial (present only while it runs).
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct Tutorial {
    /// The lesson shown, an index into [`LESSONS`].
    pub lesson: usize,
    /// Whether the lesson's turn was made right.
    pub passed: bool,
    /// What the lesson says about the last try.
    pub feedback: Msg,
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
            feedback: Msg::default(),
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
            feedback: Msg::default(),
            wrong_tries: 0,
        });
        next.set(Screen::Playing);
    }
}

/// The message line once the lesson's turn is made (a message id).
const LESSON_DONE: &str = "lesson-done";

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
            tutorial.feedback = Msg::new("tutorial-right").with("praise", praise);
            game.set_message(Msg::new(LESSON_DONE));
        }
        Err(why) => {
            tutorial.wrong_tries += 1;
            tutorial.feedback = Msg::new("tutorial-not-quite").with("why", why);
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
            Localized::default(),
            TextFont::from_font_size(size),
            TextColor(color),
            Node {
                max_width: px(300.0),
                ..default()
            },
        )
    };
    let button = |label: &'static str, request: TutorialCommand| {
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
                Localized::new(label),
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
        crate::ui::layout::wide_panel_node(),
        BackgroundColor(crate::ui::layout::WIDE_PANEL_BACKGROUND),
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
                    button("tutorial-back", TutorialCommand::Previous),
                    button("tutorial-again", TutorialCommand::Retry),
                    button("tutorial-next", TutorialCommand::Next),
                    button("tutorial-leave", TutorialCommand::Exit),
                ],
            ),
        ],
    ));
}

fn refresh_panel(
    mut commands: Commands,
    tutorial: Option<Res<Tutorial>>,
    panels: Query<Entity, With<TutorialPanel>>,
    mut texts: Query<(&TutorialText, &mut Localized, &mut TextColor)>,
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
            TutorialText::Title => Msg::new("tutorial-lesson-title")
                .with("number", tutorial.lesson + 1)
                .with("count", LESSONS.len())
                .with("title", Msg::new(lesson.title)),
            TutorialText::Rule => Msg::new(lesson.rule),
            TutorialText::Task => {
                if tutorial.passed {
                    Msg::new(if tutorial.lesson + 1 < LESSONS.len() {
                        "tutorial-done"
                    } else {
                        "tutorial-done-last"
                    })
                } else {
                    Msg::new("tutorial-your-turn").with("task", Msg::new(lesson.task))
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
        game.set_message(Msg::new(LESSON_DONE));
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
    // Other screens report their own right edge (the editor has none, the trainer its own);
    // leaving the tutorial gives the edge back to the list of turns.
    let right = match (tutorial.is_some(), layout.right) {
        (true, _) => RightPanel::Tutorial,
        (false, RightPanel::Tutorial) => RightPanel::Turns,
        (false, other) => other,
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
