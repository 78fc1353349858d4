//! The game being played: its [`flow`] (the core's `Game` and the turn being built), the
//! [`input`] that turns clicks and keys into commands, the [`engine`] opponent, the
//! [`clock`]s, the [`animation`] of steps, the [`sound`] cues, [`export`] and the
//! [`persist`]ence of records and settings.

pub mod animation;
pub mod clock;
pub mod engine;
pub mod export;
pub mod flow;
pub mod input;
pub mod persist;
pub mod sound;

use bevy::prelude::*;

/// The game's plugins.
pub fn plugin(app: &mut App) {
    app.add_plugins((
        flow::plugin,
        animation::plugin,
        input::plugin,
        engine::plugin,
        persist::plugin,
        clock::plugin,
        export::plugin,
        sound::plugin,
    ));
}

#[cfg(test)]
mod tests;
