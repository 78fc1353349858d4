//! The screen's layout: which panel takes which edge of the window and how large the panels
//! are. Features report what they show ([`Layout`]); the camera fits the board into the room
//! the layout leaves, without knowing the features.

use bevy::prelude::*;

/// The space between the window's edge and a panel, in logical pixels at UI scale 1.
pub const MARGIN: f32 = 12.0;
/// The width of the game screen's left panel.
pub const LEFT_PANEL_WIDTH: f32 = 300.0;
/// The width of the list of turns on the right.
pub const TURNS_PANEL_WIDTH: f32 = 230.0;
/// From the left edge to the right side of the left panel, with a gap before the board.
pub const LEFT_EDGE: f32 = MARGIN + LEFT_PANEL_WIDTH + 18.0;
/// From the right edge to the left side of the list of turns, with a gap.
pub const TURNS_EDGE: f32 = MARGIN + TURNS_PANEL_WIDTH + 13.0;

/// The UI scale for a window of this logical size: 1 at 1280x720, smaller windows get
/// smaller panels, larger ones larger text.
pub fn ui_scale_for(window: Vec2) -> f32 {
    (window.x / 1280.0)
        .min(window.y / 720.0)
        .clamp(MIN_UI_SCALE, 2.0)
}

/// The smallest UI scale: the smallest text (13 px at scale 1) stays at least 9 px high.
pub const MIN_UI_SCALE: f32 = 0.7;

fn scale_ui(windows: Query<&Window>, layout: Res<Layout>, mut scale: ResMut<UiScale>) {
    if let Some(window) = windows.iter().next() {
        // The player's text size scales the whole interface (panels with their text).
        let wanted =
            ui_scale_for(Vec2::new(window.width(), window.height())) * layout.text_size.factor();
        if (scale.0 - wanted).abs() > 0.001 {
            scale.0 = wanted;
        }
    }
}

/// The width of the tutorial's panel (on the right, in place of the list of turns).
pub const TUTORIAL_PANEL_WIDTH: f32 = 330.0;
/// From the right edge to the left side of the tutorial's panel, with a gap before the board.
pub const TUTORIAL_EDGE: f32 = MARGIN + TUTORIAL_PANEL_WIDTH + 13.0;
/// The background of the wide right-edge panels (the tutorial's lesson, the endgame trainer,
/// the puzzles, the mistakes to retry).
pub const WIDE_PANEL_BACKGROUND: Color = Color::srgba(0.06, 0.07, 0.09, 0.95);

/// The node of a wide right-edge panel, as wide as [`TUTORIAL_PANEL_WIDTH`], at the window's
/// top right (the room [`Layout::panels`] keeps for [`RightPanel::Tutorial`] and
/// [`RightPanel::Training`]); its children in a column.
pub fn wide_panel_node() -> Node {
    Node {
        position_type: PositionType::Absolute,
        right: px(MARGIN),
        top: px(MARGIN),
        width: px(TUTORIAL_PANEL_WIDTH),
        flex_direction: FlexDirection::Column,
        padding: UiRect::all(px(14.0)),
        row_gap: px(8.0),
        border_radius: BorderRadius::all(px(10.0)),
        ..default()
    }
}

/// Reports a training feature's panel: while its resource `R` exists the right edge is
/// [`RightPanel::Training`], and when the resource goes the edge goes back to the list of
/// turns (only if this feature had taken it, so features do not undo each other's reports).
pub fn report_training_panel<R: Resource>(
    feature: Option<Res<R>>,
    mut layout: ResMut<Layout>,
    mut mine: Local<bool>,
) {
    let right = if feature.is_some() {
        *mine = true;
        RightPanel::Training
    } else if std::mem::take(&mut *mine) && layout.right == RightPanel::Training {
        RightPanel::Turns
    } else {
        return;
    };
    if layout.right != right {
        layout.right = right;
    }
}

/// The height of the review graph (at the bottom, between the side panels).
pub const GRAPH_HEIGHT: f32 = 96.0;
/// The space between the graph and the window's bottom edge.
pub const GRAPH_BOTTOM: f32 = 10.0;
/// From the bottom edge to the top of the graph, with a gap above it: the board is fitted
/// above this line.
pub const GRAPH_EDGE: f32 = GRAPH_BOTTOM + GRAPH_HEIGHT + 8.0;

/// What takes the right edge of the game screen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RightPanel {
    /// The list of turns.
    #[default]
    Turns,
    /// The tutorial's lesson.
    Tutorial,
    /// Nothing (the position editor has only its left panel).
    Nothing,
    /// A training feature's panel (the endgame trainer, the mistakes to retry), as wide as
    /// the tutorial's.
    Training,
}

/// What the features show around the board, reported by them: the tutorial takes the right
/// edge while it runs, the review graph the bottom strip while the review is on. The camera
/// and the panels read only this.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// The right edge's panel.
    pub right: RightPanel,
    /// Whether the review graph is shown at the bottom.
    pub graph: bool,
    /// The player's text size (from the settings): the UI scale is multiplied by its factor,
    /// and so is the room the panels take.
    pub text_size: crate::settings::TextSize,
    /// Whether the opening explorer's box takes the lower part of the right edge (the list
    /// of turns then keeps to the upper part).
    pub explorer: bool,
}

impl Layout {
    /// The room the panels of this layout take, in UI units (logical pixels at UI scale 1,
    /// before the player's text size).
    pub fn panels(self) -> Panels {
        let wide = matches!(self.right, RightPanel::Tutorial | RightPanel::Training);
        let shown = Panels::shown(wide, self.graph);
        if self.right == RightPanel::Nothing {
            Panels {
                right: MARGIN,
                ..shown
            }
        } else {
            shown
        }
    }

    /// The room the panels take on the screen, in logical pixels at the window's UI scale 1:
    /// [`Layout::panels`] grown by the text size's factor (the UI scale includes it), for the
    /// camera's fit.
    pub fn screen_panels(self) -> Panels {
        let p = self.panels();
        let f = self.text_size.factor();
        Panels {
            left: p.left * f,
            right: p.right * f,
            bottom: p.bottom * f,
        }
    }
}

/// What the UI covers at the window's edges, in logical pixels at UI scale 1 (the panels are
/// scaled with the window, see [`crate::ui::ui_scale_for`]): the board is fitted into the rest.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Panels {
    /// From the left edge to the right side of the left panel, with a gap.
    pub left: f32,
    /// From the right edge to the left side of the right panel, with a gap.
    pub right: f32,
    /// From the bottom edge to the top of the review graph, with a gap (0 without it).
    pub bottom: f32,
}

impl Panels {
    /// The game screen: the left panel and the list of turns.
    pub const GAME: Panels = Panels {
        left: LEFT_EDGE,
        right: TURNS_EDGE,
        bottom: 0.0,
    };

    /// The panels shown: the tutorial's panel replaces the list of turns on the right, the
    /// review graph takes a strip at the bottom between the side panels.
    pub fn shown(tutorial: bool, graph: bool) -> Panels {
        Panels {
            left: LEFT_EDGE,
            right: if tutorial { TUTORIAL_EDGE } else { TURNS_EDGE },
            bottom: if graph { GRAPH_EDGE } else { 0.0 },
        }
    }
}

/// The layout's plugin: the [`Layout`] resource and the UI scale.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Layout>().add_systems(Update, scale_ui);
}
