//! Sound: a knock when a stone lands, clicks when stones are captured (one per stone, up to
//! eight, rising in pitch: bigger captures sound bigger), a short chord when the game ends.
//! The sounds are generated in code (no asset files) as 16-bit WAV.
//!
//! The cues ([`SoundCue`]) are always made, timed to the animation, and logged; they are
//! heard only when the client is built with the `sound` feature (Bevy's audio, which on
//! Linux needs ALSA's headers: `apt-get install libasound2-dev`), so that the plain build
//! needs no system package. `M` or the menu's **Sound** setting mutes them.

use std::collections::VecDeque;

use bevy::prelude::*;

use crate::game::flow::{FlowSet, Match, StepPlayed};
use crate::settings::Settings;

/// Samples per second of the generated sounds.
pub const SAMPLE_RATE: u32 = 22_050;
/// The most capture clicks in one sound.
pub const MAX_CLICKS: u32 = 8;

/// A sound to play.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SoundCue {
    /// A stone landed without capturing.
    Place,
    /// A step captured this many stones.
    Capture(u32),
    /// The game ended.
    GameOver,
}

/// The cues made so far (the newest last, at most 64), for the panel and for tests.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct SoundLog(pub Vec<SoundCue>);

/// Cues waiting for their moment in the animation: seconds to wait, and the cue.
#[derive(Resource, Default)]
struct Pending(VecDeque<(f32, SoundCue)>);

/// One decaying sine tone added into `out` from `start` seconds on.
fn tone(out: &mut [f32], start: f32, freq: f32, length: f32, decay: f32, volume: f32) {
    let rate = SAMPLE_RATE as f32;
    let first = (start * rate) as usize;
    let count = (length * rate) as usize;
    for i in 0..count {
        let Some(sample) = out.get_mut(first + i) else {
            break;
        };
        let t = i as f32 / rate;
        // A short attack avoids a click at the start.
        let attack = (t / 0.003).min(1.0);
        let envelope = attack * (-t / decay).exp();
        let wave = (std::f32::consts::TAU * freq * t).sin()
            + 0.35 * (std::f32::consts::TAU * freq * 2.01 * t).sin();
        *sample += volume * envelope * wave;
    }
}

/// The samples (mono, -1..1) of a cue.
pub fn samples(cue: SoundCue) -> Vec<f32> {
    let rate = SAMPLE_RATE as f32;
    match cue {
        SoundCue::Place => {
            let mut out = vec![0.0; (0.12 * rate) as usize];
            tone(&mut out, 0.0, 330.0, 0.12, 0.025, 0.55);
            tone(&mut out, 0.0, 910.0, 0.05, 0.008, 0.25);
            out
        }
        SoundCue::Capture(n) => {
            let clicks = n.clamp(1, MAX_CLICKS);
            let gap = 0.055;
            let mut out = vec![0.0; ((f32::from(clicks as u16) * gap + 0.1) * rate) as usize];
            for k in 0..clicks {
                let freq = 620.0 * 1.09_f32.powi(k as i32);
                tone(&mut out, k as f32 * gap, freq, 0.09, 0.02, 0.45);
            }
            out
        }
        SoundCue::GameOver => {
            let mut out = vec![0.0; (0.9 * rate) as usize];
            for (k, freq) in [523.25, 659.25, 783.99].into_iter().enumerate() {
                tone(
                    &mut out,
                    k as f32 * 0.12,
                    freq,
                    0.9 - k as f32 * 0.12,
                    0.25,
                    0.3,
                );
            }
            out
        }
    }
}

/// A 16-bit mono PCM WAV file of `samples` (clipped to -1..1).
pub fn wav_bytes(samples: &[f32]) -> Vec<u8> {
    let data_len = (samples.len() * 2) as u32;
    let mut out = Vec::with_capacity(44 + samples.len() * 2);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVE");
    out.extend_from_slice(b"fmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&SAMPLE_RATE.to_le_bytes());
    out.extend_from_slice(&(SAMPLE_RATE * 2).to_le_bytes()); // bytes per second
    out.extend_from_slice(&2u16.to_le_bytes()); // bytes per frame
    out.extend_from_slice(&16u16.to_le_bytes()); // bits per sample
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for s in samples {
        let v = (s.clamp(-1.0, 1.0) * f32::from(i16::MAX)) as i16;
        out.extend_from_slice(&v.to_le_bytes());
    }
    out
}

/// Turns the steps played and the end of the game into cues, each at the moment the
/// animation shows it (a stone lands at the end of its slide).
fn make_cues(
    mut played: MessageReader<StepPlayed>,
    settings: Res<Settings>,
    game: Res<Match>,
    mut pending: ResMut<Pending>,
    mut over: Local<Option<(u64, bool)>>,
) {
    let step = settings.animation.step_seconds();
    // Steps already waiting are shown first: later ones start after them.
    let mut at = pending.0.back().map_or(0.0, |(t, _)| *t + step * 0.8);
    for (i, s) in played.read().enumerate() {
        if i > 0 {
            at += step * 0.8;
        }
        at += step;
        let count = s.captured.count();
        let cue = if count == 0 {
            SoundCue::Place
        } else {
            SoundCue::Capture(count)
        };
        pending.0.push_back((at, cue));
    }
    let id = game.generation() >> 32;
    let ended = game.outcome().is_some();
    if let Some((last_id, was_over)) = *over
        && last_id == id
        && ended
        && !was_over
    {
        pending.0.push_back((at + step, SoundCue::GameOver));
    }
    *over = Some((id, ended));
}

fn release_cues(
    time: Res<Time>,
    settings: Res<Settings>,
    mut pending: ResMut<Pending>,
    mut log: ResMut<SoundLog>,
    mut cues: MessageWriter<SoundCue>,
) {
    let dt = time.delta_secs();
    for (t, _) in pending.0.iter_mut() {
        *t -= dt;
    }
    while pending.0.front().is_some_and(|(t, _)| *t <= 0.0) {
        let Some((_, cue)) = pending.0.pop_front() else {
            break;
        };
        if settings.muted {
            continue;
        }
        cues.write(cue);
        log.0.push(cue);
        if log.0.len() > 64 {
            log.0.remove(0);
        }
    }
}

/// `M` mutes or unmutes (not while a turn is being typed).
fn mute_key(
    keys: Res<ButtonInput<KeyCode>>,
    entry: Option<Res<crate::game::input::TurnEntry>>,
    browser: Option<Res<crate::browser::Browser>>,
    mut settings: ResMut<Settings>,
    game: Option<ResMut<Match>>,
) {
    if entry.is_some_and(|e| e.used_keys)
        || browser.is_some_and(|b| b.took_keys)
        || !keys.just_pressed(KeyCode::KeyM)
    {
        return;
    }
    settings.muted = !settings.muted;
    if let Some(mut game) = game {
        game.set_message(crate::i18n::Msg::new(if settings.muted {
            "sound-off"
        } else if cfg!(feature = "sound") {
            "sound-on"
        } else {
            "sound-on-silent"
        }));
    }
}

#[cfg(feature = "sound")]
mod play {
    use bevy::audio::{AudioPlayer, AudioSource, PlaybackSettings};
    use bevy::prelude::*;

    use super::{MAX_CLICKS, SoundCue, samples, wav_bytes};

    /// The generated sounds as audio assets.
    #[derive(Resource)]
    pub(super) struct Sounds {
        place: Handle<AudioSource>,
        captures: Vec<Handle<AudioSource>>,
        over: Handle<AudioSource>,
    }

    pub(super) fn setup(mut commands: Commands, mut sources: ResMut<Assets<AudioSource>>) {
        let mut add = |cue| {
            sources.add(AudioSource {
                bytes: wav_bytes(&samples(cue)).into(),
            })
        };
        let sounds = Sounds {
            place: add(SoundCue::Place),
            captures: (1..=MAX_CLICKS)
                .map(|n| add(SoundCue::Capture(n)))
                .collect(),
            over: add(SoundCue::GameOver),
        };
        commands.insert_resource(sounds);
    }

    pub(super) fn play(
        mut commands: Commands,
        mut cues: MessageReader<SoundCue>,
        sounds: Option<Res<Sounds>>,
    ) {
        let Some(sounds) = sounds else {
            cues.clear();
            return;
        };
        for cue in cues.read() {
            let handle = match cue {
                SoundCue::Place => sounds.place.clone(),
                SoundCue::Capture(n) => {
                    let i = (n.clamp(&1, &MAX_CLICKS) - 1) as usize;
                    sounds.captures[i].clone()
                }
                SoundCue::GameOver => sounds.over.clone(),
            };
            commands.spawn((AudioPlayer::new(handle), PlaybackSettings::DESPAWN));
        }
    }
}

/// The sound plugin.
pub fn plugin(app: &mut App) {
    app.add_message::<SoundCue>()
        .init_resource::<SoundLog>()
        .init_resource::<Pending>()
        .add_systems(
            Update,
            (
                (make_cues, release_cues)
                    .chain()
                    .after(FlowSet)
                    .run_if(resource_exists::<Match>),
                mute_key
                    .after(crate::browser::BrowserKeys)
                    .run_if(resource_exists::<ButtonInput<KeyCode>>),
            ),
        );
    #[cfg(feature = "sound")]
    app.add_systems(Startup, play::setup)
        .add_systems(Update, play::play.after(release_cues));
}
