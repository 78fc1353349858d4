//! The opening explorer: in analysis and review, the opening book's turns of the position on
//! the board (the current one or the one looked back at), each with its practical score (the
//! wins, draws and losses of the games it was played in, for the side that played it) and the
//! engine's score, best first. The books are those shipped with the engine
//! (`fanorona_ai::book`: 5x9 and 5x5 under the standard rules).
//!
//! The explorer reads the shared [`Match`], the analysis' and review's public switches, and
//! reports its box to the [`Layout`].

use bevy::prelude::*;
use fanorona_ai::book::{self, BookEntry};
use fanorona_core::Position;

use crate::Screen;
use crate::analysis::Analysis;
use crate::analysis::review::Review;
use crate::game::flow::Match;
use crate::i18n::{Msg, Tr};
use crate::ui::layout::{Layout, MARGIN, TURNS_PANEL_WIDTH};
use crate::ui::theme::{ACCENT, DIM, PANEL, TEXT, TEXT_BODY, TEXT_SMALL, text, tr_text};

/// The most book turns listed.
pub const MAX_ROWS: usize = 8;

/// The explorer: whether it is shown and the book's turns of the position on the board.
#[derive(Resource, Default, Clone, Debug)]
pub struct Explorer {
    /// Whether it is shown (analysis or review on, outside the training features).
    pub shown: bool,
    /// The book's turns of the position on the board, in the book's order (best score first).
    pub entries: Vec<BookEntry>,
    /// Whether the board and rules have a book.
    pub has_book: bool,
    /// The position the entries are about.
    position: Option<Position>,
}

/// The book's turns of `position` (empty when no shipped book covers its board and rules, or
/// the position is not in it); and whether a book covers the board and rules.
pub fn book_turns(position: &Position) -> (Vec<BookEntry>, bool) {
    match book::shipped(position.size(), position.rules()) {
        Some(book) => (book.entries(position), true),
        None => (Vec::new(), false),
    }
}

/// One line of the explorer: `d2-e3A  +12 =3 -5  63%  engine +0.12 (d8)`; a turn only
/// searched (no games) shows only the engine's score.
pub fn row_text(entry: &BookEntry, side: fanorona_core::Color) -> Msg {
    let id = match (entry.games() > 0, entry.score.is_some()) {
        (true, true) => "explorer-games-engine",
        (true, false) => "explorer-games",
        (false, _) => "explorer-engine",
    };
    let mut msg = Msg::new(id)
        .with("turn", entry.turn.to_string())
        .with("wins", entry.wins)
        .with("draws", entry.draws)
        .with("losses", entry.losses)
        .with(
            "percent",
            entry.practical().map_or(0, |p| (p * 100.0).round() as i64),
        )
        .with("depth", entry.depth);
    if let Some(score) = entry.score {
        msg = msg.with("score", crate::analysis::score_text(score, side));
    }
    msg
}

fn follow(
    mut explorer: ResMut<Explorer>,
    game: Option<Res<Match>>,
    analysis: Option<Res<Analysis>>,
    review: Option<Res<Review>>,
    layout: Res<Layout>,
) {
    let on = analysis.is_some_and(|a| a.enabled) || review.is_some_and(|r| r.enabled);
    let shown = on && game.is_some() && layout.right == crate::ui::layout::RightPanel::Turns;
    if explorer.shown != shown {
        explorer.shown = shown;
    }
    let Some(game) = game.filter(|_| shown) else {
        return;
    };
    let position = game
        .viewing()
        .and_then(|ply| game.game().position_at(ply))
        .unwrap_or(game.game().position());
    if explorer.position.as_ref() == Some(position) {
        return;
    }
    let (entries, has_book) = book_turns(position);
    explorer.entries = entries;
    explorer.has_book = has_book;
    explorer.position = Some(*position);
}

fn report_layout(explorer: Res<Explorer>, mut layout: ResMut<Layout>) {
    if layout.explorer != explorer.shown {
        layout.explorer = explorer.shown;
    }
}

#[derive(Component)]
struct ExplorerBox;

#[derive(Component)]
struct ExplorerRows;

fn spawn_box(mut commands: Commands) {
    commands.spawn((
        ExplorerBox,
        DespawnOnExit(Screen::Playing),
        crate::game::input::BlocksBoard,
        Interaction::None,
        Node {
            position_type: PositionType::Absolute,
            right: px(MARGIN),
            bottom: px(MARGIN),
            width: px(TURNS_PANEL_WIDTH),
            max_height: percent(40.0),
            flex_direction: FlexDirection::Column,
            padding: UiRect::all(px(10.0)),
            row_gap: px(3.0),
            border_radius: BorderRadius::all(px(10.0)),
            overflow: Overflow::clip_y(),
            display: Display::None,
            ..default()
        },
        BackgroundColor(PANEL),
        children![
            tr_text("explorer-title", TEXT_BODY, ACCENT),
            (
                ExplorerRows,
                text("", TEXT_SMALL, TEXT),
                Node {
                    max_width: px(TURNS_PANEL_WIDTH - 20.0),
                    ..default()
                },
            ),
            tr_text("explorer-legend", TEXT_SMALL, DIM),
        ],
    ));
}

fn refresh_box(
    explorer: Res<Explorer>,
    tr: Res<Tr>,
    game: Option<Res<Match>>,
    mut boxes: Query<&mut Node, With<ExplorerBox>>,
    mut rows: Query<&mut Text, With<ExplorerRows>>,
) {
    let display = if explorer.shown {
        Display::Flex
    } else {
        Display::None
    };
    for mut node in &mut boxes {
        if node.display != display {
            node.display = display;
        }
    }
    if !explorer.shown || !(explorer.is_changed() || tr.is_changed()) {
        return;
    }
    let side = explorer
        .position
        .map(|p| p.side_to_move())
        .or(game.map(|g| g.side_to_move()))
        .unwrap_or(fanorona_core::Color::White);
    // The rows are written here (several messages in one text), in the language of the moment.
    let value = if !explorer.has_book {
        tr.get("explorer-no-book")
    } else if explorer.entries.is_empty() {
        tr.get("explorer-out")
    } else {
        explorer
            .entries
            .iter()
            .take(MAX_ROWS)
            .map(|e| tr.msg(&row_text(e, side)))
            .collect::<Vec<_>>()
            .join("\n")
    };
    for mut t in &mut rows {
        if t.0 != value {
            t.0.clone_from(&value);
        }
    }
}

/// The explorer's plugin.
pub fn plugin(app: &mut App) {
    app.init_resource::<Explorer>()
        .init_resource::<Layout>()
        .add_systems(OnEnter(Screen::Playing), spawn_box)
        .add_systems(
            Update,
            (
                follow.after(crate::game::flow::FlowSet),
                report_layout,
                refresh_box.run_if(in_state(Screen::Playing)),
            )
                .chain(),
        );
}

#[cfg(test)]
mod tests;
