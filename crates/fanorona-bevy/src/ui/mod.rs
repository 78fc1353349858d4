//! The user interface: the [`layout`] of the screen (which panel takes which edge), the
//! [`theme`] (colours, text sizes), [`widgets`] (buttons), the [`menu`] screen and the game
//! screen's [`panel`]s.

pub mod layout;
pub mod menu;
pub mod panel;
pub mod theme;
pub mod widgets;

use bevy::prelude::*;

pub use layout::{LEFT_EDGE, MARGIN, TURNS_EDGE, ui_scale_for};
pub use menu::Choice;
pub(crate) use theme::{ACCENT, BUTTON, TEXT};
pub use widgets::Action;

/// The UI plugin: the layout, the widgets, the menu and the game screen's panels.
pub fn plugin(app: &mut App) {
    // The catalogue (kept when the i18n plugin put it there first).
    app.init_resource::<crate::i18n::Tr>().add_plugins((
        layout::plugin,
        widgets::plugin,
        menu::plugin,
        panel::plugin,
    ));
}

#[cfg(test)]
mod tests;
