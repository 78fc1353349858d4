//! The engine plays in the background: a search runs on its own thread, the window stays
//! responsive, and a new game, undo or load stops the search through its stop flag.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use fanorona_ai::{Clock, Level, Searcher};
use fanorona_core::{Game, Turn};

use crate::Screen;
use crate::game::flow::{Animating, Command, FlowSet, Match};

/// Something that chooses a turn for the side to move in a game.
pub trait EngineAdapter: Send + Sync + 'static {
    /// A turn for the side to move at `level`, or `None` if there is no legal turn or the
    /// search was stopped before it found one. With a `clock` (the side to move's time left
    /// and increment) the turn must come well within it. Must return soon after `stop`
    /// becomes true.
    fn choose(
        &self,
        game: &Game,
        level: u8,
        clock: Option<Clock>,
        stop: &AtomicBool,
    ) -> Option<Turn>;
}

/// The engine used by the client.
#[derive(Resource, Clone)]
pub struct Engine(pub Arc<dyn EngineAdapter>);

/// The engine of `fanorona-ai`: its levels for people, with one searcher (and its
/// transposition table) kept from turn to turn.
pub struct AiEngine {
    searcher: Mutex<Searcher>,
}

/// Size of the engine's transposition table.
const HASH_MB: usize = 32;

impl Default for AiEngine {
    fn default() -> Self {
        AiEngine {
            searcher: Mutex::new(Searcher::new(HASH_MB)),
        }
    }
}

/// The longest the engine thinks about one turn at each level.
pub fn max_think(level: Level) -> Duration {
    Duration::from_millis(if level < Level::Casual {
        // Depth 1 to 3: a fraction of this even on a slow machine.
        1_000
    } else if level < Level::Strong {
        2_000
    } else if level == Level::Strong {
        3_000
    } else {
        // Maximum, and any level added later: the longest.
        5_000
    })
}

/// The `fanorona-ai` level for a menu level (1 is the weakest).
pub fn ai_level(level: u8) -> Level {
    Level::from_index(level.saturating_sub(1)).unwrap_or(Level::Maximum)
}

/// The name of an engine level, in the player's language.
pub fn level_name(level: Level) -> crate::i18n::Msg {
    crate::i18n::Msg::new(match level {
        Level::Novice => "level-novice",
        Level::Beginner => "level-beginner",
        Level::Learner => "level-learner",
        Level::Improver => "level-improver",
        Level::Apprentice => "level-apprentice",
        Level::Amateur => "level-amateur",
        Level::Hobbyist => "level-hobbyist",
        Level::Intermediate => "level-intermediate",
        Level::Regular => "level-regular",
        Level::Casual => "level-casual",
        Level::Club => "level-club",
        Level::Advanced => "level-advanced",
        Level::Strong => "level-strong",
        _ => "level-maximum",
    })
}

impl EngineAdapter for AiEngine {
    fn choose(
        &self,
        game: &Game,
        level: u8,
        clock: Option<Clock>,
        stop: &AtomicBool,
    ) -> Option<Turn> {
        // A search cancelled a moment ago may still hold the searcher: it returns as soon as
        // it sees its stop flag.
        let mut searcher = self
            .searcher
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if game.turns().is_empty() {
            searcher.clear();
        }
        // A different seed each time, so that the levels with noise vary from game to game.
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let level = ai_level(level);
        // Whatever the level's own limits, a person never waits longer than this.
        let mut limits = level.limits().with_movetime(max_think(level));
        // With a clock, the engine shares its time out over the rest of the game: the
        // search stops at the first of the level's limits and the clock's budget.
        limits.clock = clock;
        match level.play_with(&mut searcher, game, &limits, seed, stop, |_| {}) {
            Ok(result) => Some(result.best),
            Err(e) => {
                warn!("engine: {e}");
                None
            }
        }
    }
}

/// The shortest time the engine appears to think, so that people can follow its turns.
#[derive(Resource, Clone, Copy, Debug)]
pub struct MinThink(pub Duration);

impl Default for MinThink {
    fn default() -> Self {
        MinThink(Duration::from_millis(400))
    }
}

struct Job {
    generation: u64,
    stop: Arc<AtomicBool>,
    result: Mutex<Receiver<Option<Turn>>>,
    started: Instant,
    found: Option<Option<Turn>>,
}

/// The search in progress, if any.
#[derive(Resource, Default)]
pub struct Thinking {
    job: Option<Job>,
}

impl Thinking {
    /// Whether the engine is thinking now.
    pub fn active(&self) -> bool {
        self.job.is_some()
    }

    /// Seconds since the search started.
    pub fn seconds(&self) -> f32 {
        self.job
            .as_ref()
            .map_or(0.0, |j| j.started.elapsed().as_secs_f32())
    }

    /// The stop flag of the running search (for tests and shutdown).
    pub fn stop_flag(&self) -> Option<Arc<AtomicBool>> {
        self.job.as_ref().map(|j| j.stop.clone())
    }
}

/// The system that starts and follows the engine's search.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub struct EngineSet;

fn drive_engine(
    game: Res<Match>,
    clocks: Option<Res<crate::game::clock::Clocks>>,
    engine: Res<Engine>,
    animating: Res<Animating>,
    min_think: Res<MinThink>,
    mut thinking: ResMut<Thinking>,
    mut commands: MessageWriter<Command>,
) {
    let wanted = game.engine_to_move() && game.viewing().is_none() && game.draw_offer().is_none();
    if let Some(job) = thinking.job.as_mut() {
        if job.generation != game.generation() || !wanted {
            job.stop.store(true, Ordering::Relaxed);
            thinking.job = None;
            return;
        }
        if job.found.is_none() {
            let received = job.result.lock().map(|r| r.try_recv());
            match received.unwrap_or(Err(TryRecvError::Disconnected)) {
                Ok(found) => job.found = Some(found),
                Err(TryRecvError::Empty) => {}
                Err(TryRecvError::Disconnected) => job.found = Some(None),
            }
        }
        if job.started.elapsed() >= min_think.0
            && !animating.0
            && let Some(found) = job.found.take()
        {
            let generation = job.generation;
            thinking.job = None;
            if let Some(turn) = found {
                commands.write(Command::EngineTurn { generation, turn });
            } else {
                warn!("the engine found no turn");
            }
        }
        return;
    }
    if !wanted || animating.0 {
        return;
    }
    let stop = Arc::new(AtomicBool::new(false));
    let (send, result) = channel();
    let snapshot = game.game().clone();
    let level = game.level();
    let clock = clocks.and_then(|c| c.engine_clock(game.side_to_move()));
    let adapter = engine.0.clone();
    let thread_stop = stop.clone();
    let spawned = std::thread::Builder::new()
        // i18n: not text (a thread name)
        .name("fanorona-engine".into())
        .spawn(move || {
            let turn = adapter.choose(&snapshot, level, clock, &thread_stop);
            // The receiver is gone when the search was cancelled: nothing to report then.
            let _ = send.send(turn);
        });
    if let Err(e) = spawned {
        error!("cannot start the engine thread: {e}");
        return;
    }
    thinking.job = Some(Job {
        generation: game.generation(),
        stop,
        result: Mutex::new(result),
        started: Instant::now(),
        found: None,
    });
}

/// Stops a running search when the app exits.
fn stop_on_exit(mut exits: MessageReader<AppExit>, thinking: Res<Thinking>) {
    if exits.read().count() > 0
        && let Some(flag) = thinking.stop_flag()
    {
        flag.store(true, Ordering::Relaxed);
    }
}

/// The engine plugin.
pub fn plugin(app: &mut App) {
    if !app.world().contains_resource::<Engine>() {
        app.insert_resource(Engine(Arc::new(AiEngine::default())));
    }
    app.init_resource::<Thinking>()
        .init_resource::<MinThink>()
        .add_systems(
            Update,
            (
                drive_engine
                    .in_set(EngineSet)
                    .after(FlowSet)
                    .run_if(resource_exists::<Match>.and_then(not(in_state(Screen::Menu)))),
                stop_on_exit,
            ),
        );
}
