//! The game screen's panels: whose turn, stones left, messages, buttons, the evaluation bar,
//! the list of turns and the result.

use bevy::prelude::*;
use fanorona_core::{Color as Side, StepKind};

use super::layout::*;
use super::theme::*;
use super::widgets::*;
use crate::Screen;
use crate::analysis::review::ReviewRequest;
use crate::analysis::{Analysis, AnalysisRequest};
use crate::game::clock::{Clocks, clock_text};
use crate::game::engine::Thinking;
use crate::game::export::Export;
use crate::game::flow::{Command, Match, Player, side_name, turn_number};
use crate::game::input::{BlocksBoard, TurnEntry};
use crate::i18n::{Arg, Msg, Tr};
use crate::tutorial::Tutorial;

/// The game screen's live texts.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Live {
    Turn,
    Stones,
    Players,
    Thinking,
    Message,
    Result,
    Entry,
    Analysis,
    Clock,
}

/// The evaluation bar (shown in analysis mode) and its white part.
#[derive(Component)]
struct EvalBar;

#[derive(Component)]
struct EvalFill;

/// Buttons shown only in some situations.
#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum Only {
    Chain,
    Choice,
    DrawOffer,
    TwoPeople,
    Viewing,
    /// Shown in analysis mode (the number of lines).
    Analysis,
}

/// Parts of the left panel a lesson does not need (hidden during the tutorial).
#[derive(Component)]
pub(crate) struct GameOnly;

/// The slot of one row of height under the fixed buttons where the situation's buttons (End
/// turn, Approach / Withdrawal, answering a draw offer) appear: its height never changes, so
/// nothing below the fixed buttons pushes them.
#[derive(Component)]
pub(crate) struct ActionSlot;

/// The left panel.
#[derive(Component)]
pub(crate) struct LeftPanel;

/// The help lines at the panel's end, hidden while the analysis needs the room.
#[derive(Component)]
struct HelpText;

#[derive(Component)]
struct TurnList;

/// The right panel with the list of turns (hidden during the tutorial).
#[derive(Component)]
struct TurnsPanel;

/// The height of a row of buttons (text, padding), in logical pixels at UI scale 1.
const BUTTON_ROW: f32 = TEXT_BUTTON * 1.25 + 2.0 * 4.0 + 2.0;

fn spawn_game_ui(mut commands: Commands) {
    let left = commands
        .spawn((
            LeftPanel,
            DespawnOnExit(Screen::Playing),
            BlocksBoard,
            Interaction::None,
            Node {
                position_type: PositionType::Absolute,
                left: px(MARGIN),
                top: px(MARGIN),
                width: px(LEFT_PANEL_WIDTH),
                // Never past the window's bottom: what does not fit (the help at the end
                // first) is cut at the panel's edge.
                max_height: percent(100.0 - 2.0 * 100.0 * MARGIN / 720.0),
                overflow: Overflow::clip_y(),
                row_gap: px(6.0),
                ..panel_node()
            },
            BackgroundColor(PANEL),
        ))
        .id();
    let live = |commands: &mut Commands, which: Live, size: f32, color: Color| {
        commands
            .spawn((
                which,
                text("", size, color),
                Node {
                    max_width: px(LEFT_PANEL_WIDTH - 28.0),
                    ..default()
                },
            ))
            .id()
    };
    // The top: lines of one line each, whatever happens, then the buttons that are always
    // there. Nothing above a button changes height, so no button moves under the mouse.
    let title = commands
        .spawn(tr_text("app-title", TEXT_TITLE, ACCENT))
        .id();
    let turn = live(&mut commands, Live::Turn, TEXT_LARGE, TEXT);
    let stones = live(&mut commands, Live::Stones, TEXT_BODY, TEXT);
    commands.entity(turn).insert(GameOnly);
    // One line each, whatever they say: the buttons below them never move.
    for line in [turn, stones] {
        commands.entity(line).insert(TextLayout::no_wrap());
    }
    commands.entity(left).add_children(&[title, turn, stones]);
    // Two buttons a row, so no row wraps (a wrapped row would change height with the font).
    let fixed: [(Vec<(&str, Action)>, bool); 8] = [
        (
            vec![
                ("panel-undo", Action::Game(Command::Undo)),
                ("panel-redo", Action::Game(Command::Redo)),
            ],
            false,
        ),
        (
            vec![
                ("panel-type-turn", Action::TypeTurn),
                ("panel-menu", Action::Menu),
            ],
            false,
        ),
        (
            vec![
                ("panel-hint", Action::Analysis(AnalysisRequest::Hint)),
                ("panel-analysis", Action::Analysis(AnalysisRequest::Toggle)),
            ],
            true,
        ),
        (
            vec![
                ("panel-review", Action::Review(ReviewRequest::Toggle)),
                ("panel-open", Action::Browse),
            ],
            true,
        ),
        (
            vec![
                ("panel-copy-position", Action::Export(Export::CopyPosition)),
                ("panel-copy-fgn", Action::Export(Export::CopyGame)),
            ],
            true,
        ),
        (
            vec![
                ("panel-save-position", Action::Export(Export::SavePosition)),
                ("panel-save", Action::Save),
            ],
            true,
        ),
        (
            vec![
                ("panel-new-game", Action::Game(Command::NewGame)),
                ("panel-resign", Action::Game(Command::Resign)),
            ],
            true,
        ),
        (
            vec![("panel-offer-draw", Action::Game(Command::OfferDraw))],
            true,
        ),
    ];
    for (row, game_only) in fixed {
        let row_entity = commands.spawn(button_row()).id();
        if game_only {
            commands.entity(row_entity).insert(GameOnly);
        }
        for (label, action) in row {
            let draw = action == Action::Game(Command::OfferDraw);
            let b = commands.spawn(button(label, action)).id();
            if draw {
                // Hidden, not removed, between a person and the engine: the buttons after it
                // keep their places.
                commands.entity(b).insert(Only::TwoPeople);
            }
            commands.entity(row_entity).add_child(b);
        }
        commands.entity(left).add_child(row_entity);
    }
    // The situation's buttons, in a slot of fixed height.
    let slot = commands
        .spawn((
            ActionSlot,
            Node {
                height: px(BUTTON_ROW),
                flex_shrink: 0.0,
                ..default()
            },
        ))
        .id();
    let situations: [(Only, Vec<(&str, Action)>); 3] = [
        (
            Only::Chain,
            vec![("panel-end-turn", Action::Game(Command::EndTurn))],
        ),
        (
            Only::Choice,
            vec![
                (
                    "panel-approach",
                    Action::Game(Command::Choose(StepKind::Approach)),
                ),
                (
                    "panel-withdrawal",
                    Action::Game(Command::Choose(StepKind::Withdrawal)),
                ),
            ],
        ),
        (
            Only::DrawOffer,
            vec![
                ("panel-accept-draw", Action::Game(Command::AnswerDraw(true))),
                (
                    "panel-decline-draw",
                    Action::Game(Command::AnswerDraw(false)),
                ),
            ],
        ),
    ];
    for (only, row) in situations {
        let row_entity = commands.spawn((button_row(), only)).id();
        for (label, action) in row {
            let b = commands.spawn(button(label, action)).id();
            commands.entity(row_entity).add_child(b);
        }
        commands.entity(slot).add_child(row_entity);
    }
    commands.entity(left).add_child(slot);
    // Below the buttons: what changes length.
    let clock = live(&mut commands, Live::Clock, TEXT_BUTTON, TEXT);
    let players = live(&mut commands, Live::Players, TEXT_BODY, DIM);
    commands.entity(players).insert(GameOnly);
    let thinking = live(&mut commands, Live::Thinking, TEXT_BODY, ACCENT);
    let result = live(&mut commands, Live::Result, TEXT_LARGE, ACCENT);
    let message = live(&mut commands, Live::Message, TEXT_BODY, TEXT);
    let entry = live(&mut commands, Live::Entry, TEXT_BODY, ACCENT);
    let eval_bar = commands
        .spawn((
            EvalBar,
            Node {
                width: percent(100.0),
                height: px(16.0),
                flex_shrink: 0.0,
                border: UiRect::all(px(1.0)),
                border_radius: BorderRadius::all(px(3.0)),
                display: Display::None,
                ..default()
            },
            BorderColor::all(DIM),
            BackgroundColor(Color::srgb(0.02, 0.02, 0.025)),
            children![
                (
                    EvalFill,
                    Node {
                        width: percent(50.0),
                        height: percent(100.0),
                        ..default()
                    },
                    BackgroundColor(Color::srgb(0.93, 0.91, 0.86)),
                ),
                // The middle: equal.
                (
                    Node {
                        position_type: PositionType::Absolute,
                        left: percent(50.0),
                        width: px(2.0),
                        height: percent(100.0),
                        ..default()
                    },
                    BackgroundColor(crate::board::SKY_BLUE),
                ),
            ],
        ))
        .id();
    let analysis = live(&mut commands, Live::Analysis, TEXT_BODY, TEXT);
    commands.entity(analysis).insert(GameOnly);
    // In analysis mode: how many lines (MultiPV).
    let lines_row = commands.spawn((button_row(), Only::Analysis)).id();
    for (label, request) in [
        ("analysis-fewer-lines", AnalysisRequest::FewerLines),
        ("analysis-more-lines", AnalysisRequest::MoreLines),
    ] {
        let b = commands
            .spawn(button(label, Action::Analysis(request)))
            .id();
        commands.entity(lines_row).add_child(b);
    }
    let help = commands
        .spawn((GameOnly, HelpText, tr_text("panel-help", TEXT_SMALL, DIM)))
        .id();
    commands.entity(left).add_children(&[
        clock, players, thinking, result, message, entry, eval_bar, lines_row, analysis, help,
    ]);

    // Right: the list of turns.
    commands.spawn((
        TurnsPanel,
        DespawnOnExit(Screen::Playing),
        BlocksBoard,
        Interaction::None,
        Node {
            position_type: PositionType::Absolute,
            right: px(MARGIN),
            top: px(MARGIN),
            width: px(TURNS_PANEL_WIDTH),
            max_height: percent(92.0),
            ..panel_node()
        },
        BackgroundColor(PANEL),
        children![
            tr_text("panel-turns", TEXT_LARGE, ACCENT),
            (
                TurnList,
                Node {
                    flex_direction: FlexDirection::Column,
                    overflow: Overflow::scroll_y(),
                    row_gap: px(2.0),
                    ..default()
                },
                ScrollPosition::default(),
            ),
            (
                button("panel-back-to-game", Action::Game(Command::View(None))),
                Only::Viewing
            ),
        ],
    ));
}

fn button_row() -> Node {
    Node {
        column_gap: px(6.0),
        flex_wrap: FlexWrap::Wrap,
        row_gap: px(4.0),
        flex_shrink: 0.0,
        ..default()
    }
}

/// The evaluation in words, with its unit: `White is 1.25 stones ahead`, `about equal`,
/// `Black wins in 3`.
pub fn evaluation_words(report: &crate::analysis::Report) -> Msg {
    use fanorona_ai::Score;
    let sign = if report.side == Side::White { 1 } else { -1 };
    match report.score {
        Score::Cp(cp) => {
            let white = cp * sign;
            let stones = f64::from(white.abs()) / 100.0;
            if white.abs() < 10 {
                Msg::new("eval-equal")
            } else {
                let leader = if white > 0 { Side::White } else { Side::Black };
                // `one` for exactly 1.00 (the plural follows the number shown).
                let one = (stones - 1.0).abs() < 0.005;
                Msg::new("eval-ahead")
                    .with("side", side_name(leader))
                    .with("stones", Arg::Decimal(stones, 2))
                    .with("count", if one { 1 } else { 2 })
            }
        }
        Score::Win(n) => {
            let winner = if n * sign > 0 {
                Side::White
            } else {
                Side::Black
            };
            Msg::new("eval-wins-in")
                .with("side", side_name(winner))
                .with("turns", n.abs())
        }
    }
}

fn refresh_game_ui(
    tr: Res<Tr>,
    game: Res<Match>,
    thinking: Res<Thinking>,
    entry: Res<TurnEntry>,
    analysis: Res<Analysis>,
    animating: Option<Res<crate::game::flow::Animating>>,
    clocks: Option<Res<Clocks>>,
    mut texts: Query<(&Live, &mut Text)>,
    tutorial: Option<Res<Tutorial>>,
    layout: Res<Layout>,
    mut optional: Query<
        (&Only, &mut Node, &mut Visibility),
        (
            Without<EvalBar>,
            Without<EvalFill>,
            Without<TurnsPanel>,
            Without<GameOnly>,
        ),
    >,
    mut game_only: Query<
        (&mut Node, Has<HelpText>),
        (
            With<GameOnly>,
            Without<Only>,
            Without<EvalFill>,
            Without<TurnsPanel>,
        ),
    >,
    mut bar: Query<
        &mut Node,
        (
            With<EvalBar>,
            Without<EvalFill>,
            Without<TurnsPanel>,
            Without<Only>,
            Without<GameOnly>,
        ),
    >,
    mut fill: Query<
        &mut Node,
        (
            With<EvalFill>,
            Without<EvalBar>,
            Without<TurnsPanel>,
            Without<Only>,
            Without<GameOnly>,
        ),
    >,
    mut turns_panel: Query<
        &mut Node,
        (
            With<TurnsPanel>,
            Without<EvalBar>,
            Without<EvalFill>,
            Without<Only>,
            Without<GameOnly>,
        ),
    >,
    mut shown_share: Local<Option<f32>>,
) {
    let report = analysis.report_for(&game);
    let clocks = clocks.map(|c| c.clone()).unwrap_or_default();
    let viewing = game.viewing();
    let position = viewing
        .and_then(|p| game.game().position_at(p))
        .unwrap_or(game.game().position());
    let side = position.side_to_move();
    let outcome = game.outcome();
    // While stones move, the lines about the board wait for the board.
    let moving = animating.is_some_and(|a| a.0);
    for (live, mut t) in &mut texts {
        if moving && matches!(live, Live::Turn | Live::Stones | Live::Message) {
            continue;
        }
        let value = match live {
            Live::Turn => match (viewing, outcome) {
                (Some(0), _) => tr.msg(&Msg::new("panel-at-start").with("side", side_name(side))),
                (Some(p), _) => tr.msg(
                    &Msg::new("panel-after-turn")
                        .with("number", turn_number(p))
                        .with("side", side_name(side)),
                ),
                (None, Some(_)) => tr.get("panel-game-over"),
                (None, None) => tr.msg(&Msg::new("flow-to-move").with("side", side_name(side))),
            },
            Live::Stones => {
                // The stones shown (a chain's captures leave at once; looking back, the old
                // position's).
                let shown = game.shown_stones();
                let count = |s: Side| shown.iter().filter(|(_, c)| *c == s).count();
                tr.msg(
                    &Msg::new("panel-stones")
                        .with("white", count(Side::White))
                        .with("black", count(Side::Black)),
                )
            }
            Live::Players => {
                let who = |p: Player| match p {
                    Player::Human => Msg::new("panel-person"),
                    Player::Engine => Msg::new("panel-engine-level").with("level", game.level()),
                };
                let [w, b] = game.players();
                tr.msg(
                    &Msg::new("panel-players")
                        .with("white", who(w))
                        .with("black", who(b))
                        .with("size", game.size().to_string()),
                )
            }
            Live::Thinking => {
                if thinking.active() {
                    let dots = ".".repeat(1 + (thinking.seconds() * 3.0) as usize % 3);
                    tr.msg(
                        &Msg::new("panel-thinking")
                            .with("dots", format!("{dots:<3}"))
                            .with("seconds", Arg::Decimal(thinking.seconds().into(), 1)),
                    )
                } else {
                    String::new()
                }
            }
            Live::Message => tr.msg(game.message()),
            Live::Result => tr.msg(&game.result_text().unwrap_or_default()),
            Live::Clock => match (clocks.left(Side::White), clocks.left(Side::Black)) {
                (Some(w), Some(b)) => {
                    let running = |s: Side| {
                        if outcome.is_none() && side == s {
                            " <"
                        } else {
                            ""
                        }
                    };
                    tr.msg(
                        &Msg::new("panel-clocks")
                            .with(
                                "white",
                                format!("{}{}", clock_text(w), running(Side::White)),
                            )
                            .with(
                                "black",
                                format!("{}{}", clock_text(b), running(Side::Black)),
                            ),
                    )
                }
                _ => String::new(),
            },
            Live::Analysis => match (analysis.enabled, report) {
                (false, _) => String::new(),
                (true, None) => tr.get(if viewing.is_none() && game.outcome().is_some() {
                    "panel-analysis-over"
                } else if analysis.searching() {
                    "panel-analysis-thinking"
                } else {
                    "panel-analysis-waits"
                }),
                (true, Some(r)) => {
                    let ply = viewing.unwrap_or(game.game().turns().len());
                    let start_side = game.game().start().side_to_move();
                    if r.lines.len() <= 1 {
                        tr.msg(
                            &Msg::new(if r.finished {
                                "panel-evaluation"
                            } else {
                                "panel-evaluation-thinking"
                            })
                            .with("words", evaluation_words(r))
                            .with("score", r.score_text())
                            .with("depth", r.depth)
                            .with("nodes", r.nodes)
                            .with("line", r.line_text(ply, start_side, 6)),
                        )
                    } else {
                        // Several lines (MultiPV): a shorter heading, then each line with
                        // its score and depth, so that they fit the panel.
                        let mut out = tr.msg(
                            &Msg::new(if r.finished {
                                "panel-evaluation-lines"
                            } else {
                                "panel-evaluation-lines-thinking"
                            })
                            .with("words", evaluation_words(r))
                            .with("depth", r.depth)
                            .with("nodes", r.nodes),
                        );
                        for (i, line) in r.lines.iter().enumerate() {
                            out.push('\n');
                            out += &tr.msg(
                                &Msg::new("panel-analysis-line")
                                    .with("number", i + 1)
                                    .with("score", crate::analysis::score_text(line.score, r.side))
                                    .with("depth", line.depth)
                                    .with(
                                        "line",
                                        crate::analysis::line_text(&line.pv, ply, start_side, 2),
                                    ),
                            );
                        }
                        out
                    }
                }
            },
            Live::Entry => {
                if entry.open {
                    tr.msg(&Msg::new("panel-type-a-turn").with("text", format!("{}_", entry.text)))
                } else {
                    String::new()
                }
            }
        };
        if t.0 != value {
            t.0 = value;
        }
    }
    let in_tutorial = tutorial.is_some();
    // A feature's panel on the right (the tutorial's, a trainer's) takes the list's place.
    let turns_display = if in_tutorial || layout.right != RightPanel::Turns {
        Display::None
    } else {
        Display::Flex
    };
    // The opening explorer's box below the list takes the lower part of the right edge.
    let turns_height = percent(if layout.explorer { 52.0 } else { 92.0 });
    for mut node in &mut turns_panel {
        if node.display != turns_display {
            node.display = turns_display;
        }
        if node.max_height != turns_height {
            node.max_height = turns_height;
        }
    }
    for (mut node, help) in &mut game_only {
        if help {
            let display = if in_tutorial || analysis.enabled {
                Display::None
            } else {
                Display::Flex
            };
            if node.display != display {
                node.display = display;
            }
        } else if in_tutorial && node.display != Display::None {
            // Out of the tutorial the live texts show themselves (see `hide_empty_texts`).
            node.display = Display::None;
        }
    }
    let bar_display = if analysis.enabled && !in_tutorial {
        Display::Flex
    } else {
        Display::None
    };
    for mut node in &mut bar {
        if node.display != bar_display {
            node.display = bar_display;
        }
    }
    // The bar keeps its last evaluation while a new search starts (never a jump to the
    // middle); a finished game shows its result.
    let share = match (viewing, outcome) {
        (None, Some(o)) => Some(match o.winner {
            Some(Side::White) => 1.0,
            Some(Side::Black) => 0.0,
            None => 0.5,
        }),
        _ => report.map(crate::analysis::Report::white_share),
    };
    if let Some(share) = share {
        *shown_share = Some(share);
    }
    let share = shown_share.unwrap_or(0.5);
    for mut node in &mut fill {
        let width = percent(share * 100.0);
        if node.width != width {
            node.width = width;
        }
    }
    let human_pair = game.players() == [Player::Human, Player::Human];
    for (only, mut node, mut visibility) in &mut optional {
        let shown = match only {
            Only::Chain => game.can_end_turn() && game.choice().is_none(),
            Only::Choice => game.choice().is_some(),
            Only::DrawOffer => game.draw_offer().is_some(),
            Only::TwoPeople => human_pair && outcome.is_none() && game.draw_offer().is_none(),
            Only::Viewing => game.viewing().is_some(),
            Only::Analysis => analysis.enabled && !in_tutorial,
        };
        if *only == Only::TwoPeople {
            // Kept in place, only hidden: the buttons after it never move.
            let wanted = if shown {
                Visibility::Inherited
            } else {
                Visibility::Hidden
            };
            if *visibility != wanted {
                *visibility = wanted;
            }
            continue;
        }
        let display = if shown { Display::Flex } else { Display::None };
        if node.display != display {
            node.display = display;
        }
    }
}

/// Empty live texts take no room (each would still add a line's gap), so the left panel fits
/// a small window; during the tutorial the game's lines stay hidden.
fn hide_empty_texts(
    mut texts: Query<(&Text, &mut Node, Has<GameOnly>), With<Live>>,
    tutorial: Option<Res<Tutorial>>,
) {
    for (text, mut node, game_only) in &mut texts {
        let display = if text.0.is_empty() || (game_only && tutorial.is_some()) {
            Display::None
        } else {
            Display::Flex
        };
        if node.display != display {
            node.display = display;
        }
    }
}

fn refresh_turn_list(
    mut commands: Commands,
    game: Res<Match>,
    review: Option<Res<crate::analysis::review::Review>>,
    lists: Query<(Entity, Option<&Children>), With<TurnList>>,
    mut shown: Local<Option<(usize, Option<usize>, u64, usize)>>,
    mut scroll: Query<&mut ScrollPosition, With<TurnList>>,
) {
    // The review's mistakes are marked in the list (`?`, `??`).
    let marks: Vec<(usize, &'static str)> = review
        .as_ref()
        .filter(|r| r.enabled)
        .map(|r| {
            r.mistakes()
                .iter()
                .map(|m| (m.turn, m.severity.mark()))
                .collect()
        })
        .unwrap_or_default();
    let done = review
        .as_ref()
        .filter(|r| r.enabled)
        .map_or(0, |r| r.done() + 1);
    let key = (
        game.game().turns().len(),
        game.viewing(),
        game.generation(),
        done,
    );
    let Ok((list, children)) = lists.single() else {
        *shown = None;
        return;
    };
    if *shown == Some(key) && children.is_some() {
        return;
    }
    *shown = Some(key);
    if let Some(children) = children {
        for child in children.iter() {
            commands.entity(child).despawn();
        }
    }
    let turns = game.game().turns();
    let start_side = game.game().start().side_to_move();
    for (i, turn) in turns.iter().enumerate() {
        let ply = i + 1;
        let mover = if i % 2 == 0 {
            start_side
        } else {
            start_side.other()
        };
        let number = if mover == start_side {
            format!("{}.", i / 2 + 1)
        } else {
            String::new()
        };
        let current = game.viewing().map_or(ply == turns.len(), |v| v == ply);
        let mark = marks
            .iter()
            .find(|(t, _)| *t == ply)
            .map_or("", |(_, m)| *m);
        let color = if current {
            ACCENT
        } else if mark.is_empty() {
            TEXT
        } else {
            crate::board::VERMILLION
        };
        let entry = commands
            .spawn((
                Button,
                Action::Game(Command::View(Some(ply))),
                Node {
                    padding: UiRect::axes(px(6.0), px(2.0)),
                    column_gap: px(6.0),
                    ..default()
                },
                BackgroundColor(if current { BUTTON } else { Color::NONE }),
                children![
                    (
                        text(number, 15.0, DIM),
                        Node {
                            min_width: px(30.0),
                            ..default()
                        },
                        Pickable::IGNORE
                    ),
                    (
                        text(format!("{} {turn}{mark}", mover.char()), 15.0, color),
                        Node {
                            max_width: px(170.0),
                            ..default()
                        },
                        Pickable::IGNORE
                    ),
                ],
            ))
            .id();
        commands.entity(list).add_child(entry);
    }
    if turns.is_empty() {
        let empty = commands.spawn(tr_text("panel-no-turns", 15.0, DIM)).id();
        commands.entity(list).add_child(empty);
    }
    if game.viewing().is_none()
        && let Ok(mut position) = scroll.single_mut()
    {
        // Keep the newest turn in sight.
        position.0.y = f32::MAX;
    }
}

/// The game screen's panels.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Playing), spawn_game_ui)
        .add_systems(
            Update,
            (refresh_game_ui, hide_empty_texts, refresh_turn_list)
                .chain()
                .run_if(in_state(Screen::Playing).and_then(resource_exists::<Match>)),
        );
}
