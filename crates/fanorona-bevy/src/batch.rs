//! Batch mode: `--screenshot` captures the window once the scene is fully drawn (two captures
//! in a row identical and not a single colour), writes the PNG and exits; `--benchmark-frames`
//! then times frames and prints the result. Both give up with an error after a time-out.
//!
//! The benchmark separates the CPU's work from waiting for the picture. With Bevy's pipelined
//! rendering the main world (game logic, UI, animation) and the render world (extraction,
//! preparing and encoding draw commands) run on two threads at once; what remains of a frame
//! is *present* time: acquiring the window's image, submitting the commands and presenting,
//! which is where the GPU's (or a software rasteriser's) work and vsync are waited for.

use std::num::NonZero;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::render::renderer::{RenderGraph, RenderGraphSystems, render_system};
use bevy::render::view::prepare_windows;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use bevy::render::{Render, RenderApp, RenderSystems};

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
    /// Main-world CPU time of each timed frame, in milliseconds.
    main_cpu: Vec<f32>,
    /// When this frame's main-world update began.
    update_began: Option<Instant>,
    /// Render-world times, written by the render thread.
    render: Arc<Mutex<RenderTimes>>,
    /// The process's CPU time when the timed frames began.
    cpu_at_start: Option<Duration>,
}

/// Render-world times of the timed frames, in milliseconds.
#[derive(Default, Debug)]
struct RenderTimes {
    /// Whether the benchmark is timing frames now.
    recording: bool,
    /// Render-world CPU time: the whole render schedule less `present`.
    cpu: Vec<f32>,
    /// Acquiring the window's image, submitting and presenting.
    present: Vec<f32>,
}

/// The render world's clock for the frame it is working on.
#[derive(Resource, Default)]
struct RenderClock {
    shared: Arc<Mutex<RenderTimes>>,
    began: Option<Instant>,
    acquire_began: Option<Instant>,
    submit_began: Option<Instant>,
    waited: Duration,
}

fn ms(d: Duration) -> f32 {
    d.as_secs_f32() * 1000.0
}

fn render_began(mut clock: ResMut<RenderClock>) {
    clock.began = Some(Instant::now());
    clock.waited = Duration::ZERO;
}

fn acquire_began(mut clock: ResMut<RenderClock>) {
    clock.acquire_began = Some(Instant::now());
}

fn acquire_ended(mut clock: ResMut<RenderClock>) {
    if let Some(t) = clock.acquire_began.take() {
        clock.waited += t.elapsed();
    }
}

fn submit_began(mut clock: ResMut<RenderClock>) {
    clock.submit_began = Some(Instant::now());
}

fn present_ended(mut clock: ResMut<RenderClock>) {
    // From the submission of the encoded commands to the end of `render_system`: submit,
    // the screenshot copies and present.
    if let Some(t) = clock.submit_began.take() {
        clock.waited += t.elapsed();
    }
}

fn render_ended(mut clock: ResMut<RenderClock>) {
    let Some(began) = clock.began.take() else {
        return;
    };
    let total = began.elapsed();
    let waited = clock.waited.min(total);
    if let Ok(mut times) = clock.shared.lock()
        && times.recording
    {
        times.cpu.push(ms(total - waited));
        times.present.push(ms(waited));
    }
}

fn update_began(mut state: ResMut<State>) {
    state.update_began = Some(Instant::now());
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
        let interval = ms(now - last);
        state.timing.push(interval);
        if let Some(began) = state.update_began {
            state.main_cpu.push(ms(now - began));
        }
    } else {
        if let Ok(mut times) = state.render.lock() {
            times.recording = true;
        }
        state.cpu_at_start = process_cpu_time();
    }
    state.last_frame = Some(now);
    if state.timing.len() as u32 >= wanted {
        let (render_cpu, present) = state
            .render
            .lock()
            .map(|t| (t.cpu.clone(), t.present.clone()))
            .unwrap_or_default();
        print!(
            "{}",
            benchmark_report(&state.timing, &state.main_cpu, &render_cpu, &present)
        );
        if let (Some(start), Some(end)) = (state.cpu_at_start, process_cpu_time()) {
            println!(
                "{}",
                process_cpu_line(end.saturating_sub(start), state.timing.len())
            );
        }
        exit.write(AppExit::Success);
    }
}

/// The CPU time the whole process (every thread) has used, from `/proc/self/stat` (Linux;
/// `None` elsewhere). It counts work, not waiting, so it means the same on a busy machine.
pub fn process_cpu_time() -> Option<Duration> {
    parse_proc_stat_cpu(&std::fs::read_to_string("/proc/self/stat").ok()?)
}

/// User plus system time from the text of `/proc/<pid>/stat` (fields 14 and 15, in clock
/// ticks of 1/100 s, the value of `CLK_TCK` on Linux).
pub fn parse_proc_stat_cpu(stat: &str) -> Option<Duration> {
    // The command name (field 2) is in parentheses and may hold spaces: count from the last
    // closing parenthesis. Field 3 is then the first one.
    let rest = stat.get(stat.rfind(')')? + 1..)?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(14 - 3)?.parse().ok()?;
    let stime: u64 = fields.get(15 - 3)?.parse().ok()?;
    Some(Duration::from_millis((utime + stime).saturating_mul(10)))
}

/// The report's line on the process's CPU time per timed frame.
pub fn process_cpu_line(cpu: Duration, frames: usize) -> String {
    let per_frame = ms(cpu) / frames.max(1) as f32;
    format!(
        "process  CPU per frame: {per_frame:.1} ms over {frames} frames  [all threads: game, render, engines, a software rasteriser; 10 ms resolution, unaffected by load]"
    )
}

/// Mean, median, 95th percentile and worst of a series of milliseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Mean.
    pub mean: f32,
    /// Median.
    pub median: f32,
    /// 95th percentile (nearest rank).
    pub p95: f32,
    /// The largest.
    pub max: f32,
}

/// The summary of `values`, `None` when there are none.
pub fn summarize(values: &[f32]) -> Option<Summary> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f32::total_cmp);
    let p = |q: f32| sorted[((sorted.len() - 1) as f32 * q).round() as usize];
    Some(Summary {
        mean: sorted.iter().sum::<f32>() / sorted.len() as f32,
        median: p(0.5),
        p95: p(0.95),
        max: p(1.0),
    })
}

/// The benchmark's report: frame interval, CPU time (main world, render world, and per frame
/// the larger of the two, which bounds the frame rate on a fast GPU since the two run in
/// parallel) and present time, one line each.
pub fn benchmark_report(frames: &[f32], main: &[f32], render: &[f32], present: &[f32]) -> String {
    let cpu: Vec<f32> = main.iter().zip(render).map(|(m, r)| m.max(*r)).collect();
    let mut out = String::new();
    let rows: [(&str, &[f32], &str); 5] = [
        ("frame", frames, "time between frames"),
        ("cpu", &cpu, "per frame the larger of main and render"),
        ("main", main, "main world: game, UI, animation"),
        (
            "render",
            render,
            "render world CPU: extract, prepare, encode",
        ),
        (
            "present",
            present,
            "acquire + submit + present: waiting for the GPU",
        ),
    ];
    for (name, values, what) in rows {
        let Some(s) = summarize(values) else {
            continue;
        };
        let fps = if name == "frame" || name == "cpu" {
            format!(" ({:.1} fps)", 1000.0 / s.mean.max(0.001))
        } else {
            String::new()
        };
        out += &format!(
            "{name:<8} frames: {} mean: {:.1} ms{fps} median: {:.1} ms p95: {:.1} ms max: {:.1} ms  [{what}]\n",
            values.len(),
            s.mean,
            s.median,
            s.p95,
            s.max
        );
    }
    out
}

/// The batch plugin (added only in screenshot or benchmark mode).
pub fn plugin(app: &mut App) {
    let state = State::default();
    let render = state.render.clone();
    app.insert_resource(state)
        .add_systems(First, update_began)
        .add_systems(Last, drive);
    if let Some(render_app) = app.get_sub_app_mut(RenderApp) {
        render_app
            .insert_resource(RenderClock {
                shared: render,
                ..default()
            })
            .add_systems(
                Render,
                (
                    render_began.in_set(RenderSystems::ExtractCommands),
                    (
                        acquire_began.before(prepare_windows),
                        acquire_ended.after(prepare_windows),
                    )
                        .in_set(RenderSystems::PrepareViews),
                    present_ended
                        .after(render_system)
                        .in_set(RenderSystems::Render),
                    render_ended.in_set(RenderSystems::PostCleanup),
                ),
            )
            .add_systems(
                RenderGraph,
                submit_began
                    .after(RenderGraphSystems::Render)
                    .before(RenderGraphSystems::Submit),
            );
    }
}
