//! The engine on a background thread: start a search, stream its progress, stop it, collect
//! the answer. This is the interface for graphical clients.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use fanorona_core::Game;

use crate::params::DEFAULT_HASH_MB;
use crate::search::{Info, SearchError, SearchOptions, SearchResult, Searcher};
use crate::tt::HashSizeError;
use crate::{Level, Limits};

/// A search engine that searches on its own thread. Cheap to clone: clones share one
/// transposition table, and their searches run one after the other.
///
/// # Examples
///
/// ```
/// use std::sync::mpsc;
/// use fanorona_ai::{Engine, Level, Limits, SearchOptions};
/// use fanorona_core::Game;
///
/// let engine = Engine::new(8);
/// let (tx, rx) = mpsc::channel();
/// // A search for the client: progress arrives on a channel, the window stays responsive.
/// let handle = engine.start(Game::default(), Limits::depth(5), SearchOptions::default(), move |info| {
///     let _ = tx.send(info.depth);
/// });
/// let result = handle.join()?;
/// assert_eq!(result.depth, 5);
/// assert_eq!(rx.iter().collect::<Vec<_>>(), vec![1, 2, 3, 4, 5]);
///
/// // A level, stopped early: it still answers with a legal turn.
/// let handle = engine.start_level(Game::default(), Level::Maximum, 1, |_| {});
/// handle.stop();
/// let result = handle.join()?;
/// assert!(Game::default().position().is_legal(&result.best));
/// # Ok::<(), fanorona_ai::SearchError>(())
/// ```
#[derive(Clone)]
pub struct Engine {
    searcher: Arc<Mutex<Searcher>>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new(DEFAULT_HASH_MB)
    }
}

/// A running search. Dropping it stops the search and waits for the thread.
pub struct SearchHandle {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<Result<SearchResult, SearchError>>>,
    /// The thread could not be started: [`SearchError::NoThread`].
    refused: Option<SearchError>,
}

impl SearchHandle {
    /// Asks the search to stop; it answers soon after (see [`SearchHandle::join`]).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// The stop flag, to share with other parts of a program.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Whether the search has finished (then [`SearchHandle::join`] returns at once).
    pub fn is_finished(&self) -> bool {
        self.thread.as_ref().is_none_or(JoinHandle::is_finished)
    }

    /// Waits for the search to end and returns its answer.
    ///
    /// # Errors
    ///
    /// [`SearchError::GameOver`] when the game was already over, [`SearchError::NoThread`]
    /// when the system could not start the search's thread.
    ///
    /// # Panics
    ///
    /// Passes on a panic of the search thread (a bug).
    pub fn join(mut self) -> Result<SearchResult, SearchError> {
        if let Some(e) = self.refused.take() {
            return Err(e);
        }
        let thread = self.thread.take().expect("joined once");
        match thread.join() {
            Ok(r) => r,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }
}

impl Drop for SearchHandle {
    fn drop(&mut self) {
        if let Some(thread) = self.thread.take() {
            self.stop();
            let _ = thread.join();
        }
    }
}

impl Engine {
    /// An engine with a transposition table of about `hash_mb` MiB (clamped to
    /// `1..=`[`MAX_HASH_MB`](crate::tt::MAX_HASH_MB)).
    ///
    /// # Panics
    ///
    /// When the table cannot be allocated; use [`Engine::try_new`] for sizes that come from
    /// users.
    pub fn new(hash_mb: usize) -> Engine {
        Engine::with_searcher(Searcher::new(hash_mb))
    }

    /// An engine with a transposition table of about `hash_mb` MiB, or an error when the
    /// size is out of `1..=`[`MAX_HASH_MB`](crate::tt::MAX_HASH_MB) or the memory cannot be had.
    ///
    /// # Errors
    ///
    /// [`HashSizeError`].
    pub fn try_new(hash_mb: usize) -> Result<Engine, HashSizeError> {
        Searcher::try_new(hash_mb).map(Engine::with_searcher)
    }

    fn with_searcher(searcher: Searcher) -> Engine {
        Engine {
            searcher: Arc::new(Mutex::new(searcher)),
        }
    }

    /// Forgets what earlier searches learnt (for a new game). Waits for a running search.
    pub fn clear(&self) {
        self.lock().clear();
    }

    /// Replaces the transposition table by one of about `hash_mb` MiB (clamped to
    /// `1..=`[`MAX_HASH_MB`](crate::tt::MAX_HASH_MB)). Waits for a running search.
    ///
    /// # Panics
    ///
    /// When the table cannot be allocated; see [`Engine::try_resize`].
    pub fn resize(&self, hash_mb: usize) {
        self.lock().resize(hash_mb);
    }

    /// Searches with `threads` threads from the next search on (Lazy SMP, see
    /// [`Searcher::set_threads`]; clamped to `1..=`[`MAX_THREADS`](crate::params::MAX_THREADS)).
    /// Waits for a running search.
    ///
    /// ```
    /// use fanorona_ai::{Engine, Limits, SearchOptions};
    /// use fanorona_core::Game;
    ///
    /// let engine = Engine::new(8);
    /// engine.set_threads(2);
    /// assert_eq!(engine.threads(), 2);
    /// let r = engine.start(Game::default(), Limits::depth(4), SearchOptions::default(), |_| {}).join()?;
    /// assert!(Game::default().position().is_legal(&r.best));
    /// # Ok::<(), fanorona_ai::SearchError>(())
    /// ```
    pub fn set_threads(&self, threads: usize) {
        self.lock().set_threads(threads);
    }

    /// The number of search threads. Waits for a running search.
    pub fn threads(&self) -> usize {
        self.lock().threads()
    }

    /// Replaces the transposition table by one of about `hash_mb` MiB, or keeps the old one
    /// and returns an error when the new one cannot be had. Waits for a running search.
    ///
    /// # Errors
    ///
    /// [`HashSizeError`].
    pub fn try_resize(&self, hash_mb: usize) -> Result<(), HashSizeError> {
        self.lock().try_resize(hash_mb)
    }

    /// Lets the searches probe endgame tables (`None`: stop probing). Waits for a running
    /// search.
    pub fn set_tablebase(&self, tables: Option<Arc<crate::solve::tablebase::Tablebase>>) {
        self.lock().set_tablebase(tables);
    }

    /// Sets the network of its board and game, or with `None` removes every network (see
    /// [`Searcher::set_network`]).
    pub fn set_network(&self, network: Option<Arc<crate::nnue::Network>>) {
        self.lock().set_network(network);
    }

    /// Evaluates with the networks built into the engine, and no others (see
    /// [`Searcher::use_embedded_networks`]).
    pub(crate) fn use_embedded_networks(&self) {
        self.lock().use_embedded_networks();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Searcher> {
        self.searcher.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Starts searching the current position of `game` on a new thread. `info` is called on
    /// that thread after each completed iteration.
    pub fn start(
        &self,
        game: Game,
        limits: Limits,
        options: SearchOptions,
        info: impl FnMut(&Info) + Send + 'static,
    ) -> SearchHandle {
        self.spawn(move |searcher, stop| searcher.search(&game, &limits, &options, stop, info))
    }

    /// Starts a search at a [`Level`]: the level's limits and imperfection, the noise and
    /// choice seeded by `seed`.
    pub fn start_level(
        &self,
        game: Game,
        level: Level,
        seed: u64,
        info: impl FnMut(&Info) + Send + 'static,
    ) -> SearchHandle {
        self.spawn(move |searcher, stop| level.play(searcher, &game, seed, stop, info))
    }

    /// Starts a search at a [`Level`] with other limits (the level's imperfection at a given
    /// time per turn or on a clock).
    pub fn start_level_with(
        &self,
        game: Game,
        level: Level,
        limits: Limits,
        seed: u64,
        info: impl FnMut(&Info) + Send + 'static,
    ) -> SearchHandle {
        self.spawn(move |searcher, stop| {
            level.play_with(searcher, &game, &limits, seed, stop, info)
        })
    }

    /// As [`Engine::start_level_with`], with the root turns, lines and seed of `options`
    /// (see [`Level::play_with_options`]).
    pub fn start_level_with_options(
        &self,
        game: Game,
        level: Level,
        limits: Limits,
        options: SearchOptions,
        info: impl FnMut(&Info) + Send + 'static,
    ) -> SearchHandle {
        self.spawn(move |searcher, stop| {
            level.play_with_options(searcher, &game, &limits, &options, stop, info)
        })
    }

    fn spawn(
        &self,
        job: impl FnOnce(&mut Searcher, &AtomicBool) -> Result<SearchResult, SearchError>
        + Send
        + 'static,
    ) -> SearchHandle {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let searcher = Arc::clone(&self.searcher);
        let thread = std::thread::Builder::new()
            .name("fanorona-search".to_owned())
            .spawn(move || {
                let mut s = searcher.lock().unwrap_or_else(PoisonError::into_inner);
                job(&mut s, &flag)
            });
        match thread {
            Ok(thread) => SearchHandle {
                stop,
                thread: Some(thread),
                refused: None,
            },
            Err(e) => SearchHandle {
                stop,
                thread: None,
                refused: Some(SearchError::NoThread(e.kind())),
            },
        }
    }
}

/// Searches the current position of `game` on the calling thread with a fresh engine of
/// [`DEFAULT_HASH_MB`] MiB: the simplest way to ask for a turn. Keep a [`Searcher`] instead
/// to reuse what it learns from turn to turn.
///
/// # Errors
///
/// [`SearchError::GameOver`] when the game is over.
///
/// # Examples
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use fanorona_ai::{Limits, SearchOptions, search};
/// use fanorona_core::Game;
///
/// let game = Game::default();
/// let result = search(&game, &Limits::nodes(5_000), &SearchOptions::default(), &AtomicBool::new(false), |_| {})?;
/// assert!(game.position().is_legal(&result.best));
/// # Ok::<(), fanorona_ai::SearchError>(())
/// ```
pub fn search(
    game: &Game,
    limits: &Limits,
    options: &SearchOptions,
    stop: &AtomicBool,
    info: impl FnMut(&Info),
) -> Result<SearchResult, SearchError> {
    Searcher::new(DEFAULT_HASH_MB).search(game, limits, options, stop, info)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn an_infinite_search_stops_on_request_with_a_legal_turn() {
        let engine = Engine::new(4);
        let game = Game::default();
        // Stop once the first iteration has reported, however busy the machine is (a fixed
        // sleep failed under load: no iteration had finished yet).
        let (reported, first_report) = std::sync::mpsc::channel();
        let handle = engine.start(
            game.clone(),
            Limits::infinite(),
            SearchOptions::default(),
            move |_| {
                let _ = reported.send(());
            },
        );
        first_report
            .recv_timeout(Duration::from_secs(60))
            .expect("an iteration reports within a minute");
        assert!(!handle.is_finished());
        let asked = Instant::now();
        handle.stop();
        let result = handle.join().unwrap();
        assert!(asked.elapsed() < Duration::from_millis(500));
        assert!(game.position().is_legal(&result.best));
        assert!(result.depth >= 1);
    }

    #[test]
    fn a_dropped_handle_stops_its_search_and_frees_the_engine() {
        let engine = Engine::new(4);
        let handle = engine.start(
            Game::default(),
            Limits::infinite(),
            SearchOptions::default(),
            |_| {},
        );
        drop(handle);
        // The engine is free again: a short search completes.
        let r = engine
            .start(
                Game::default(),
                Limits::depth(2),
                SearchOptions::default(),
                |_| {},
            )
            .join()
            .unwrap();
        assert_eq!(r.depth, 2);
    }
}
