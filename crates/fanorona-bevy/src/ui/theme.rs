//! Colours, text sizes and the text bundle every panel uses.

use bevy::prelude::*;

use crate::i18n::Localized;

pub(crate) const PANEL: Color = Color::srgba(0.06, 0.07, 0.09, 0.86);
pub(crate) const BUTTON: Color = Color::srgb(0.20, 0.22, 0.27);
pub(crate) const BUTTON_HOVER: Color = Color::srgb(0.30, 0.34, 0.42);
pub(crate) const BUTTON_PRESS: Color = Color::srgb(0.45, 0.36, 0.16);
pub(crate) const TEXT: Color = Color::srgb(0.93, 0.93, 0.9);
pub(crate) const DIM: Color = Color::srgb(0.65, 0.67, 0.7);
pub(crate) const ACCENT: Color = Color::srgb(1.0, 0.82, 0.35);
pub(crate) const ERROR: Color = Color::srgb(1.0, 0.45, 0.4);

/// Text sizes, in logical pixels at UI scale 1 (the UI scale never goes below
/// [`super::layout::MIN_UI_SCALE`], so the smallest text stays readable).
pub(crate) const TEXT_TITLE: f32 = 28.0;
/// Headings and the side to move.
pub(crate) const TEXT_LARGE: f32 = 20.0;
/// Buttons.
pub(crate) const TEXT_BUTTON: f32 = 15.0;
/// Messages and most panel text.
pub(crate) const TEXT_BODY: f32 = 15.0;
/// Help lines.
pub(crate) const TEXT_SMALL: f32 = 13.0;

/// A text shown in the player's language: a message id (`"menu-start"`) or a
/// [`crate::i18n::Msg`] with arguments, with this size and colour (see [`crate::i18n`]).
pub(crate) fn tr_text(message: impl Into<Localized>, size: f32, color: Color) -> impl Bundle {
    (
        message.into(),
        TextFont::from_font_size(size),
        TextColor(color),
    )
}

/// A text with this size and colour, shown as it is: notation, numbers, names of files, or a
/// text a system writes from messages itself (words come from [`tr_text`]).
pub(crate) fn text(value: impl Into<String>, size: f32, color: Color) -> impl Bundle {
    (
        Text::new(value),
        TextFont::from_font_size(size),
        TextColor(color),
    )
}

/// A panel: a column with padding and rounded corners.
pub(crate) fn panel_node() -> Node {
    Node {
        flex_direction: FlexDirection::Column,
        padding: UiRect::all(px(14.0)),
        row_gap: px(8.0),
        border_radius: BorderRadius::all(px(10.0)),
        ..default()
    }
}
