//! The interface's part of the high-contrast look and the text size (the board's part is
//! `board::contrast`).
//!
//! - High contrast: panels become opaque black, buttons dark grey with a white border, text
//!   white (the dimmed help text nearly white), the focus outline wider; the board's
//!   coordinates black on its grey. The theme's colours
//!   are mapped one to one, so turning the look off restores them exactly.
//! - Text size: the setting is reported to the [`Layout`]; the UI scale is multiplied by its
//!   factor (`ui::layout`) and the camera fits the board into the room the larger panels
//!   leave.

use bevy::prelude::*;

use crate::settings::Settings;
use crate::ui::layout::Layout;
use crate::ui::theme::{ACCENT, BUTTON, BUTTON_HOVER, BUTTON_PRESS, DIM, ERROR, PANEL, TEXT};
use crate::ui::widgets::Focusable;

/// Panel and button colours: the usual look, the high-contrast one.
pub const BACKGROUNDS: [(Color, Color); 5] = [
    (PANEL, Color::BLACK),
    (
        Color::srgba(0.06, 0.07, 0.09, 0.97),
        Color::srgba(0.0, 0.0, 0.0, 0.995),
    ),
    (BUTTON, Color::srgb(0.16, 0.16, 0.16)),
    (BUTTON_HOVER, Color::srgb(0.0, 0.2, 0.45)),
    (BUTTON_PRESS, Color::srgb(0.5, 0.4, 0.0)),
];

/// Text colours: the usual look, the high-contrast one.
pub const TEXTS: [(Color, Color); 5] = [
    (TEXT, Color::WHITE),
    (crate::board::COORD_COLOR, Color::BLACK),
    (DIM, Color::srgb(0.92, 0.92, 0.92)),
    (ACCENT, Color::srgb(1.0, 0.9, 0.2)),
    (ERROR, Color::srgb(1.0, 0.62, 0.58)),
];

/// The width of a button's border in the high-contrast look.
const BORDER: f32 = 1.5;

fn mapped(color: Color, table: &[(Color, Color)], high: bool) -> Option<Color> {
    table.iter().find_map(|&(usual, contrast)| {
        let (from, to) = if high {
            (usual, contrast)
        } else {
            (contrast, usual)
        };
        (color == from).then_some(to)
    })
}

/// Applies the look to the interface: everything when the setting changes, new and changed
/// colours otherwise (the buttons recolour themselves on hover).
fn apply_look(
    settings: Res<Settings>,
    mut last: Local<bool>,
    mut backgrounds: Query<&mut BackgroundColor>,
    mut texts: Query<&mut TextColor>,
    mut buttons: Query<(&mut Node, &mut BorderColor), With<Button>>,
    plain_buttons: Query<Entity, (With<Button>, Without<BorderColor>)>,
    mut outlines: Query<&mut Outline, With<Focusable>>,
    mut commands: Commands,
) {
    let high = settings.high_contrast;
    let all = high != *last;
    *last = high;
    for mut bg in &mut backgrounds {
        if (all || bg.is_changed())
            && let Some(c) = mapped(bg.0, &BACKGROUNDS, high)
        {
            bg.0 = c;
        }
    }
    for mut color in &mut texts {
        if (all || color.is_changed())
            && let Some(c) = mapped(color.0, &TEXTS, high)
        {
            color.0 = c;
        }
    }
    for entity in &plain_buttons {
        commands
            .entity(entity)
            .try_insert(BorderColor::all(Color::NONE));
    }
    let border = if high { px(BORDER) } else { px(0.0) };
    let border_color = if high { Color::WHITE } else { Color::NONE };
    for (mut node, mut color) in &mut buttons {
        if node.border.left != border {
            node.border = UiRect::all(border);
        }
        if color.top != border_color {
            *color = BorderColor::all(border_color);
        }
    }
    let width = if high { px(3.5) } else { px(2.0) };
    for mut outline in &mut outlines {
        if outline.width != width {
            outline.width = width;
        }
    }
}

/// The text size goes to the layout (which scales the interface).
fn report_text_size(settings: Res<Settings>, mut layout: ResMut<Layout>) {
    if layout.text_size != settings.text_size {
        layout.text_size = settings.text_size;
    }
}

/// The look's plugin.
pub fn plugin(app: &mut App) {
    app.init_resource::<Layout>().add_systems(
        PostUpdate,
        (report_text_size, apply_look)
            .run_if(resource_exists::<Settings>)
            .before(bevy::ui::UiSystems::Prepare),
    );
}
