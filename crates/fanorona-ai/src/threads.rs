//! Threads started only when the system can give them: the one way the search's helpers, the
//! game threads of a match and the workers of `fanorona nnue label` are started.
//!
//! Under a process limit (`ulimit -u`) a thread cannot be started; under an address-space
//! limit (`ulimit -v`) it can be started and then find no memory for its first allocation
//! (the allocator's arena of a new thread takes 64 MiB of address space with glibc), which
//! aborts the process. [`spawn_scoped`] checks that there is room for a thread before it
//! starts one, and waits until the thread has made its first allocation before it returns,
//! so that the next check sees what this thread took: a caller that starts threads one by
//! one until one is refused never runs out of memory for them.

use std::sync::mpsc;
use std::thread::{Scope, ScopedJoinHandle};

/// The address space a thread may need: its stack, the allocator's arena of a new thread
/// (64 MiB with glibc) and its buffers, with a margin.
pub const THREAD_HEADROOM: usize = 96 << 20;

/// Whether the process can still take a thread's memory ([`THREAD_HEADROOM`]): that much
/// address space is reserved for a moment (never touched, so it costs no memory) and given
/// back.
///
/// ```
/// // Without a tight limit on the process there is room.
/// assert!(fanorona_ai::threads::room_for_a_thread());
/// ```
pub fn room_for_a_thread() -> bool {
    let mut probe: Vec<u8> = Vec::new();
    probe.try_reserve_exact(THREAD_HEADROOM).is_ok()
}

/// A thread started by [`spawn_scoped`].
#[derive(Debug)]
pub struct Started<'scope, T>(ScopedJoinHandle<'scope, Option<T>>);

impl<T> Started<'_, T> {
    /// Waits for the thread and returns what it returned.
    ///
    /// # Errors
    ///
    /// The thread's panic, as [`std::thread::ScopedJoinHandle::join`] gives it.
    pub fn join(self) -> std::thread::Result<T> {
        self.0.join().and_then(|r| {
            r.ok_or_else(|| Box::new("the thread did not run") as Box<dyn std::any::Any + Send>)
        })
    }
}

/// Starts `f` on a new thread of `scope` when the system has room for it (see the module's
/// documentation), or returns `None`: no room, the thread could not be started, or it could
/// not make its first allocation (then `f` is dropped without running). Returns once the
/// thread runs `f`.
///
/// # Examples
///
/// ```
/// let total = std::thread::scope(|scope| {
///     let threads: Vec<_> = (0..4)
///         .map_while(|i| fanorona_ai::threads::spawn_scoped(scope, move || i * 10))
///         .collect();
///     threads.into_iter().map(|t| t.join().unwrap()).sum::<i32>()
/// });
/// assert_eq!(total, 60);
/// ```
pub fn spawn_scoped<'scope, T, F>(
    scope: &'scope Scope<'scope, '_>,
    f: F,
) -> Option<Started<'scope, T>>
where
    F: FnOnce() -> T + Send + 'scope,
    T: Send + 'scope,
{
    if !room_for_a_thread() {
        return None;
    }
    let (ready_tx, ready_rx) = mpsc::sync_channel::<bool>(1);
    let handle = std::thread::Builder::new()
        .spawn_scoped(scope, move || {
            // The first allocation of the thread (below the size the allocator maps on its
            // own): its arena is made now, or the thread gives up without aborting.
            let mut first: Vec<u8> = Vec::new();
            let ok = first.try_reserve_exact(64 << 10).is_ok();
            drop(first);
            let _ = ready_tx.send(ok);
            ok.then(f)
        })
        .ok()?;
    // The thread answers, or ends (its sender dropped) without having run `f`.
    if ready_rx.recv().unwrap_or(false) {
        Some(Started(handle))
    } else {
        let _ = handle.join();
        None
    }
}
