//! Batch mode: `--screenshot` captures the window once the scene is fully drawn (two captures
//! in a row identical and not a single colour), writes the PNG and exits; `--benchmark-frames`
//! then times frames and prints the result. Both give up with an error after a time-out.

use std::num::NonZero;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};

/// What batch mode is asked to do.
#[derive(Resource, Clone, Debug)]
pub struct Batch {
    /// Where to write the screenshot.
    pub screenshot: Option<PathBuf>,
    /// How many frames to time after the scene is drawn.
    pub benchmark_frames: Option<u32>,
    /// Give up after this long waiting for a complete frame.
    pub timeout: Duration,
    /// Without a screenshot: how long to let the scene settle before timing frames.
    pub warmup: Duration,
}

#[derive(Default)]
struct Shared {
    last: Option<Vec<u8>>,
    in_flight: bool,
    stable: Option<Image>,
}

#[derive(Resource, Default)]
struct State {
    shared: Arc<Mutex<Shared>>,
    started: Option<Instant>,
    frames: u32,
    saved: bool,
    timing: Vec<f32>,
    last_frame: Option<Instant>,
}

fn single_colour(data: &[u8]) -> bool {
    data.chunks_exact(4).all(|px| px[..3] == data[..3])
}

fn drive(
    mut commands: Commands,
    batch: Res<Batch>,
    mut state: ResMut<State>,
    mut exit: MessageWriter<AppExit>,
) {
    let now = Instant::now();
    let started = *state.started.get_or_insert(now);
    state.frames += 1;
    if batch.screenshot.is_none() && !state.saved {
        // Benchmark only (the scene may keep changing while engines play): time frames once
        // the warm-up is over.
        if now - started < batch.warmup {
            return;
        }
        state.saved = true;
    }
    if !state.saved && now - started > batch.timeout {
        error!(
            "gave up after {} s: the scene was not drawn in time",
            batch.timeout.as_secs()
        );
        eprintln!(
            "fanorona-3d: time-out after {} s waiting for a complete frame",
            batch.timeout.as_secs()
        );
        exit.write(AppExit::Error(NonZero::new(3).expect("3 is not zero")));
        return;
    }
    if !state.saved {
        let stable = state
            .shared
            .lock()
            .map(|mut s| s.stable.take())
            .unwrap_or(None);
        if let Some(image) = stable {
            if let Some(path) = &batch.screenshot {
                let written = image
                    .try_into_dynamic()
                    .map_err(|e| e.to_string())
                    .and_then(|img| img.to_rgb8().save(path).map_err(|e| e.to_string()));
                if let Err(e) = written {
                    eprintln!("fanorona-3d: cannot write {}: {e}", path.display());
                    exit.write(AppExit::Error(NonZero::new(4).expect("4 is not zero")));
                    return;
                }
                println!("screenshot written to {}", path.display());
            }
            state.saved = true;
            if batch.benchmark_frames.is_none() {
                exit.write(AppExit::Success);
            }
            return;
        }
        // Capture every few frames until two captures in a row are the same.
        let shared = state.shared.clone();
        let mut guard = shared.lock().expect("screenshot state lock");
        if !guard.in_flight && state.frames.is_multiple_of(4) {
            guard.in_flight = true;
            let observer_state = shared.clone();
            commands.spawn(Screenshot::primary_window()).observe(
                move |captured: On<ScreenshotCaptured>| {
                    let Ok(mut s) = observer_state.lock() else {
                        return;
                    };
                    s.in_flight = false;
                    let Some(data) = captured.image.data.as_ref() else {
                        return;
                    };
                    if single_colour(data) {
                        s.last = None;
                        return;
                    }
                    if s.last.as_deref() == Some(data.as_slice()) {
                        s.stable = Some(captured.image.clone());
                    } else {
                        s.last = Some(data.clone());
                    }
                },
            );
        }
        return;
    }
    let Some(wanted) = batch.benchmark_frames else {
        return;
    };
    if let Some(last) = state.last_frame {
        let ms = (now - last).as_secs_f32() * 1000.0;
        state.timing.push(ms);
    }
    state.last_frame = Some(now);
    if state.timing.len() as u32 >= wanted {
        let mut sorted = state.timing.clone();
        sorted.sort_by(f32::total_cmp);
        let mean = sorted.iter().sum::<f32>() / sorted.len() as f32;
        let p = |q: f32| sorted[((sorted.len() - 1) as f32 * q).round() as usize];
        println!(
            "frames: {} mean: {mean:.1} ms ({:.1} fps) median: {:.1} ms p95: {:.1} ms max: {:.1} ms",
            sorted.len(),
            1000.0 / mean,
            p(0.5),
            p(0.95),
            p(1.0)
        );
        exit.write(AppExit::Success);
    }
}

/// The batch plugin (added only in screenshot or benchmark mode).
pub fn plugin(app: &mut App) {
    app.init_resource::<State>().add_systems(Last, drive);
}
