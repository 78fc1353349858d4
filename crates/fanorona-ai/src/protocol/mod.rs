//! The engine protocol: a line protocol on standard input and output in the style of chess's
//! UCI, so that engine GUIs and match runners can drive the engine. The full description,
//! with every command's behaviour and limits, is in [`docs/engine-protocol.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/engine-protocol.md).
//!
//! The loop reads commands from any [`BufRead`] and writes replies to any [`Write`], so that
//! it can be driven by a script in tests. Its guarantees:
//!
//! - every `go` is answered by exactly one `bestmove`, whatever its arguments (bad ones are
//!   reported on `info string error:` lines and left out);
//! - the end of the input, like `quit`, stops a running search, prints its `bestmove` and
//!   ends the loop;
//! - bad input (unknown commands, bad arguments, lines that are not UTF-8 or are longer than
//!   [`MAX_LINE`] bytes) is answered with an error line and the loop goes on; at most
//!   [`MAX_SHOWN`] characters of it are shown back, escaped;
//! - memory stays bounded: a line is read in chunks and never held beyond [`MAX_LINE`]
//!   bytes; the hash table is allocated fallibly and capped at [`MAX_HASH_MB`] MiB.
//!
//! # Examples
//!
//! ```
//! use std::io::Cursor;
//! use fanorona_ai::protocol;
//!
//! // The end of this input stops the search at once: the answer is still a legal turn.
//! let input = Cursor::new("uci\nisready\nposition startpos moves f2e3A\ngo depth 3\n");
//! let out = protocol::SharedBuffer::default();
//! protocol::run(input, out.clone())?;
//! let text = out.text();
//! assert!(text.contains("uciok"));
//! assert!(text.contains("readyok"));
//! assert_eq!(text.lines().filter(|l| l.starts_with("bestmove ")).count(), 1);
//! # Ok::<(), std::io::Error>(())
//! ```

mod go;
mod input;

use std::io::{self, BufRead, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use fanorona_core::{BoardSize, Game, GameKind, Position, Rules, Turn};

pub use go::MAX_MULTIPV;
pub use input::{MAX_LINE, MAX_SHOWN};

use crate::book::Book;
use crate::nnue::{NNUE_BY_DEFAULT, Network};
use crate::params::{DEFAULT_HASH_MB, MAX_CONTEMPT, MAX_THREADS};
use crate::search::Info;
use crate::tt::MAX_HASH_MB;
use crate::{Engine, Level, SearchOptions, SearchResult};
use go::parse_go;
use input::{Line, Lines, sanitized, shown};

/// The name the engine gives in `id name`.
pub const ENGINE_NAME: &str = concat!("Fanorona ", env!("CARGO_PKG_VERSION"));
/// The author the engine gives in `id author`.
pub const ENGINE_AUTHOR: &str = "The fanorona developers";

/// The longest error message the engine writes, in characters.
const MAX_MESSAGE: usize = 300;

/// A clonable in-memory output for driving the protocol in tests.
#[derive(Clone, Default)]
pub struct SharedBuffer(Arc<Mutex<Vec<u8>>>);

impl SharedBuffer {
    /// Everything written so far, as text.
    pub fn text(&self) -> String {
        let bytes = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

impl Write for SharedBuffer {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

type Out<W> = Arc<Mutex<W>>;

fn send<W: Write>(out: &Out<W>, line: &str) -> io::Result<()> {
    let mut w = out.lock().unwrap_or_else(PoisonError::into_inner);
    w.write_all(line.as_bytes())?;
    w.write_all(b"\n")?;
    w.flush()
}

/// The `info` line of a search iteration (one per line of a multi-line search).
pub fn info_line(info: &Info) -> String {
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} time {} hashfull {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.score,
        info.nodes,
        info.nps,
        info.time.as_millis(),
        info.hashfull
    );
    if !info.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&info.pv_text());
    }
    line
}

/// A search started by `go`: its reporter thread prints the `bestmove`.
struct Running {
    stop: Arc<AtomicBool>,
    /// Dropped to let the `bestmove` of an infinite search out.
    release: mpsc::Sender<()>,
    reporter: JoinHandle<()>,
}

/// The protocol's state between commands.
struct Session<W: Write + Send + 'static> {
    out: Out<W>,
    engine: Engine,
    hash_mb: usize,
    board: BoardSize,
    rules: Rules,
    level: Level,
    seed: u64,
    multipv: usize,
    /// `Contempt`, in centi-stones.
    contempt: i32,
    game: Game,
    running: Option<Running>,
    /// `UseNNUE`.
    use_nnue: bool,
    /// `EvalFile`'s network, used in place of the embedded one of its board and game.
    eval_file: Option<Arc<Network>>,
    /// `OwnBook`.
    own_book: bool,
    /// `BookFile`'s book; `None`: the shipped one for the board and rules.
    book_file: Option<Arc<Book>>,
}

/// Runs the protocol until `quit` or the end of the input. Both stop a running search,
/// print its `bestmove` and return.
///
/// # Errors
///
/// An I/O error reading the input or writing the output (a running search is stopped
/// first).
pub fn run<R: BufRead, W: Write + Send + 'static>(input: R, output: W) -> io::Result<()> {
    let mut s = Session {
        out: Arc::new(Mutex::new(output)),
        engine: Engine::new(DEFAULT_HASH_MB),
        hash_mb: DEFAULT_HASH_MB,
        board: BoardSize::STANDARD,
        rules: Rules::STANDARD,
        level: Level::Maximum,
        seed: 0,
        multipv: 1,
        contempt: 0,
        game: Game::default(),
        running: None,
        use_nnue: NNUE_BY_DEFAULT,
        eval_file: None,
        own_book: true,
        book_file: None,
    };
    let result = s.serve(Lines::new(input));
    s.finish();
    result
}

impl<W: Write + Send + 'static> Session<W> {
    fn serve<R: BufRead>(&mut self, mut lines: Lines<R>) -> io::Result<()> {
        while let Some(line) = lines.next_line()? {
            match line {
                Line::Text(text) => {
                    if !self.command(text.trim())? {
                        return Ok(());
                    }
                }
                Line::NotUtf8(message) | Line::TooLong(message) => self.error(&message)?,
            }
        }
        Ok(())
    }

    fn error(&self, message: &str) -> io::Result<()> {
        send(
            &self.out,
            &format!("info string error: {}", sanitized(message, MAX_MESSAGE)),
        )
    }

    /// Ends a running search, if any: stops it and waits for its `bestmove`.
    fn finish(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop.store(true, Ordering::Relaxed);
            drop(r.release);
            let _ = r.reporter.join();
        }
    }

    /// Handles one command; `false` on `quit`.
    fn command(&mut self, line: &str) -> io::Result<bool> {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else {
            return Ok(true);
        };
        let rest: Vec<&str> = words.collect();
        match cmd {
            "uci" => self.uci()?,
            "isready" => send(&self.out, "readyok")?,
            "ucinewgame" => {
                self.finish();
                self.engine.clear();
                match Position::start_with(self.board, self.rules) {
                    Ok(start) => self.game = Game::new(start),
                    Err(e) => self.error(&e.to_string())?,
                }
            }
            "setoption" => self.setoption(&rest)?,
            "position" => self.position(&rest)?,
            "go" => self.go(&rest)?,
            "stop" => self.finish(),
            "quit" => return Ok(false),
            // Accepted and ignored: the engine does not ponder and has no debug mode.
            "ponderhit" | "debug" => {}
            "d" => {
                send(
                    &self.out,
                    &format!("info string position {}", self.game.position()),
                )?;
            }
            _ => self.error(&format!("unknown command {}", shown(cmd)))?,
        }
        Ok(true)
    }

    fn uci(&self) -> io::Result<()> {
        let lines = [
            format!("id name {ENGINE_NAME}"),
            format!("id author {ENGINE_AUTHOR}"),
            format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"),
            format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
            format!(
                "option name Contempt type spin default 0 min -{MAX_CONTEMPT} max {MAX_CONTEMPT}"
            ),
            format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
            format!(
                "option name Level type combo default maximum{}",
                Level::ALL.map(|l| format!(" var {l}")).concat()
            ),
            "option name Seed type spin default 0 min 0 max 4294967295".to_owned(),
            "option name Board type string default 5x9".to_owned(),
            "option name Tablebase type string default <empty>".to_owned(),
            "option name EvalFile type string default <empty>".to_owned(),
            format!("option name UseNNUE type check default {NNUE_BY_DEFAULT}"),
            "option name OwnBook type check default true".to_owned(),
            "option name BookFile type string default <empty>".to_owned(),
            "option name Rules type string default standard".to_owned(),
            "option name opening-restriction type check default false".to_owned(),
            "option name compulsory-continuation type check default false".to_owned(),
            "option name stuck type combo default loses var loses var draws".to_owned(),
            "option name repetition type string default 3".to_owned(),
            "option name no-capture-limit type string default 100".to_owned(),
            "option name game type combo default capture var capture var vela var telo".to_owned(),
            "option name vela type combo default montgomery var montgomery var bell".to_owned(),
            "uciok".to_owned(),
        ];
        for l in lines {
            send(&self.out, &l)?;
        }
        Ok(())
    }

    fn setoption(&mut self, words: &[&str]) -> io::Result<()> {
        // setoption name <name words> [value <value words>]
        if words.first() != Some(&"name") {
            return self.error("setoption expects: setoption name <name> value <value>");
        }
        let value_at = words.iter().position(|w| *w == "value");
        let name = words[1..value_at.unwrap_or(words.len())].join(" ");
        let value = value_at.map_or(String::new(), |i| words[i + 1..].join(" "));
        let key = name.to_ascii_lowercase();
        let result: Result<(), String> = match key.as_str() {
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=MAX_HASH_MB).contains(&mb) => {
                    // The table belongs to the search: stop it first.
                    self.finish();
                    match self.engine.try_resize(mb) {
                        Ok(()) => {
                            self.hash_mb = mb;
                            Ok(())
                        }
                        Err(e) => Err(format!(
                            "Hash: {e}; the table stays at {} MiB",
                            self.hash_mb
                        )),
                    }
                }
                _ => Err(format!(
                    "Hash takes a size in MiB from 1 to {MAX_HASH_MB}, not {}; the table stays at {} MiB",
                    shown(&value),
                    self.hash_mb
                )),
            },
            "threads" => match value.parse::<usize>() {
                Ok(n) if (1..=MAX_THREADS).contains(&n) => {
                    // The threads belong to the search: stop it first.
                    self.finish();
                    self.engine.set_threads(n);
                    Ok(())
                }
                _ => Err(format!(
                    "Threads takes a number from 1 to {MAX_THREADS}, not {}",
                    shown(&value)
                )),
            },
            "contempt" => match value.parse::<i32>() {
                Ok(n) if (-MAX_CONTEMPT..=MAX_CONTEMPT).contains(&n) => {
                    self.contempt = n;
                    Ok(())
                }
                _ => Err(format!(
                    "Contempt takes a number from -{MAX_CONTEMPT} to {MAX_CONTEMPT}, not {}",
                    shown(&value)
                )),
            },
            "multipv" => match value.parse::<usize>() {
                Ok(n) if (1..=MAX_MULTIPV).contains(&n) => {
                    self.multipv = n;
                    Ok(())
                }
                _ => Err(format!(
                    "MultiPV takes a number from 1 to {MAX_MULTIPV}, not {}",
                    shown(&value)
                )),
            },
            "level" => value
                .parse::<Level>()
                .map(|l| self.level = l)
                .map_err(|e| e.to_string()),
            "seed" => value
                .parse::<u64>()
                .map(|s| self.seed = s)
                .map_err(|_| format!("Seed takes a number, not {}", shown(&value))),
            "board" => match value.parse::<BoardSize>() {
                Ok(size) => match Position::start_with(size, self.rules) {
                    Ok(start) => {
                        self.board = size;
                        self.game = Game::new(start);
                        Ok(())
                    }
                    Err(e) => Err(e.to_string()),
                },
                Err(e) => Err(e.to_string()),
            },
            "tablebase" => {
                self.finish();
                if value.is_empty() || value == "<empty>" {
                    self.engine.set_tablebase(None);
                    Ok(())
                } else {
                    match crate::solve::tablebase::Tablebase::load(&value) {
                        Ok(t) => {
                            self.engine.set_tablebase(Some(Arc::new(t)));
                            Ok(())
                        }
                        Err(e) => Err(format!("Tablebase {}: {e}", shown(&value))),
                    }
                }
            }
            "evalfile" => {
                if value.is_empty() || value == "<empty>" {
                    self.eval_file = None;
                    self.apply_network();
                    Ok(())
                } else {
                    match Network::load(&value) {
                        Ok(net) => {
                            self.eval_file = Some(Arc::new(net));
                            self.apply_network();
                            Ok(())
                        }
                        Err(e) => Err(format!(
                            "EvalFile {}: {e}; the evaluation stays as it was",
                            shown(&value)
                        )),
                    }
                }
            }
            "usennue" => match value.to_ascii_lowercase().as_str() {
                "true" | "false" => {
                    self.use_nnue = value.eq_ignore_ascii_case("true");
                    self.apply_network();
                    Ok(())
                }
                _ => Err(format!(
                    "UseNNUE takes true or false, not {}",
                    shown(&value)
                )),
            },
            "ownbook" => match value.to_ascii_lowercase().as_str() {
                "true" | "false" => {
                    self.own_book = value.eq_ignore_ascii_case("true");
                    Ok(())
                }
                _ => Err(format!(
                    "OwnBook takes true or false, not {}",
                    shown(&value)
                )),
            },
            "bookfile" => {
                if value.is_empty() || value == "<empty>" {
                    self.book_file = None;
                    Ok(())
                } else {
                    match Book::load(&value) {
                        Ok(book) => {
                            self.book_file = Some(Arc::new(book));
                            Ok(())
                        }
                        Err(e) => Err(format!("BookFile: {e}; the book stays as it was")),
                    }
                }
            }
            "rules" => match value.parse::<Rules>() {
                Ok(r) => {
                    self.set_rules(r);
                    Ok(())
                }
                Err(e) => Err(e.to_string()),
            },
            _ if Rules::NAMES.contains(&key.as_str()) => {
                let mut r = self.rules;
                match r.set(&key, &value.to_ascii_lowercase()) {
                    Ok(()) => {
                        self.set_rules(r);
                        Ok(())
                    }
                    Err(e) => Err(e.to_string()),
                }
            }
            _ => Err(format!("unknown option {}", shown(&name))),
        };
        match result {
            Ok(()) => Ok(()),
            Err(e) => self.error(&e),
        }
    }

    /// Gives the engine the networks `UseNNUE` and `EvalFile` ask for (stopping a running
    /// search first: the networks belong to it): the embedded ones, `EvalFile`'s in place of
    /// the one of its board and game.
    fn apply_network(&mut self) {
        self.finish();
        self.engine.set_network(None);
        if self.use_nnue {
            self.engine.use_embedded_networks();
            if let Some(net) = &self.eval_file {
                self.engine.set_network(Some(Arc::clone(net)));
            }
        }
    }

    fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
        // Fanoron-Telo is played on 3x3 only: its rules bring its board.
        if rules.game() == GameKind::Telo {
            self.board = BoardSize::TELO;
        }
        // Replay the current game under the new rules; another game starts anew (on the
        // board the rules' game is played on, so the start exists).
        let old = *self.game.start();
        let start = if old.rules().game() == rules.game() {
            old.with_rules(rules)
        } else {
            Position::start_with(self.board, rules)
        }
        .unwrap_or_else(|_| old.with_rules_unchecked(rules.with_game(old.rules().game())));
        let mut game = Game::new(start);
        for t in self.game.turns() {
            if game.play(t).is_err() {
                break;
            }
        }
        self.game = game;
    }

    fn position(&mut self, words: &[&str]) -> io::Result<()> {
        let moves_at = words.iter().position(|w| *w == "moves");
        let setup = &words[..moves_at.unwrap_or(words.len())];
        let start = match setup.first() {
            Some(&"startpos") if setup.len() == 1 => {
                match Position::start_with(self.board, self.rules) {
                    Ok(p) => p,
                    Err(e) => return self.error(&e.to_string()),
                }
            }
            Some(&"fen") if setup.len() >= 2 => {
                match Position::from_fen_with(&setup[1..].join(" "), self.rules) {
                    Ok(p) => p,
                    Err(e) => return self.error(&e.to_string()),
                }
            }
            _ => {
                return self.error(
                    "position expects: position startpos|fen <position> [moves <turn> ...]",
                );
            }
        };
        let mut game = Game::new(start);
        if let Some(i) = moves_at {
            for (n, text) in words[i + 1..].iter().enumerate() {
                if let Err(e) = game.play_text(text) {
                    return self.error(&format!("turn {} ({}): {e}", n + 1, shown(text)));
                }
            }
        }
        self.game = game;
        Ok(())
    }

    /// The book's turn for this `go`, when the engine plays from its book: `OwnBook` on, the
    /// `maximum` level, a search for play (a clock, `movetime` or no limit; not `infinite`,
    /// `depth`, `nodes`, `mate`, `searchmoves` nor more than one line), and a book turn for
    /// the position (always legal: checked against the position's legal turns).
    fn book_turn(&self, go: &go::Go) -> Option<Turn> {
        if !self.own_book || self.level != Level::Maximum || !go.searchmoves.is_empty() {
            return None;
        }
        if go.multipv.unwrap_or(self.multipv) > 1 {
            return None;
        }
        if let Some(l) = &go.limits
            && (l.infinite || l.depth.is_some() || l.nodes.is_some() || l.mate.is_some())
        {
            return None;
        }
        let pos = self.game.position();
        let book: &Book = match &self.book_file {
            Some(b) => b,
            None => crate::book::shipped(pos.size(), pos.rules())?,
        };
        let seed = crate::rng::mix(self.seed ^ self.game.turns().len() as u64);
        book.pick(pos, seed).filter(|t| pos.is_legal(t))
    }

    /// The root turns of `go searchmoves`: the legal ones among `texts` (each other one is
    /// reported). Empty when none is legal: then every turn is searched.
    fn root_turns(&self, texts: &[String]) -> io::Result<Vec<Turn>> {
        let pos = self.game.position();
        let mut turns = Vec::new();
        for text in texts {
            match pos.parse_turn(text) {
                Ok(t) if !turns.contains(&t) => turns.push(t),
                Ok(_) => {}
                Err(e) => self.error(&format!("go searchmoves: {}: {e}", shown(text)))?,
            }
        }
        if turns.is_empty() && !texts.is_empty() {
            self.error("go searchmoves: no legal turn given; searching every turn")?;
        }
        Ok(turns)
    }

    fn go(&mut self, words: &[&str]) -> io::Result<()> {
        // One search at a time: a running one ends (with its `bestmove`) first.
        self.finish();
        let go = parse_go(words, self.game.position().side_to_move());
        for e in &go.errors {
            self.error(e)?;
        }
        if let Some(o) = self.game.outcome() {
            send(&self.out, &format!("info string the game is over: {o}"))?;
            return send(&self.out, "bestmove (none)");
        }
        if let Some(turn) = self.book_turn(&go) {
            send(&self.out, &format!("info string book {turn}"))?;
            return send(&self.out, &format!("bestmove {turn}"));
        }
        let root_turns = self.root_turns(&go.searchmoves)?;
        // Whatever happens to the search, the answer is a legal turn.
        let fallback = root_turns
            .first()
            .copied()
            .or_else(|| self.game.position().legal_turns().first().copied());
        let limits = go.limits.unwrap_or_else(|| self.level.limits());
        let infinite = limits.infinite;
        let options = SearchOptions {
            root_turns,
            multipv: go.multipv.unwrap_or(self.multipv),
            seed: self.seed,
            contempt: self.contempt,
            ..SearchOptions::default()
        };
        let info_out = Arc::clone(&self.out);
        let info = move |i: &Info| {
            let _ = send(&info_out, &info_line(i));
        };
        let game = self.game.clone();
        let handle = if self.level == Level::Maximum {
            self.engine.start(game, limits, options, info)
        } else {
            self.engine
                .start_level_with_options(game, self.level, limits, options, info)
        };
        let stop = handle.stop_flag();
        let (release, released) = mpsc::channel::<()>();
        let out = Arc::clone(&self.out);
        let reporter = std::thread::Builder::new()
            .name("fanorona-bestmove".to_owned())
            .spawn(move || {
                let result = catch_unwind(AssertUnwindSafe(|| handle.join()));
                // In infinite mode the answer waits for `stop` (or `quit`, the end of the
                // input, a new `go`), as in UCI: the sender is dropped then.
                if infinite {
                    let _ = released.recv();
                }
                let _ = send(&out, &answer(result, fallback));
            });
        // No thread for the reporter: the search (dropped with it) is stopped, and the
        // answer is the fallback turn.
        let reporter = match reporter {
            Ok(r) => r,
            Err(e) => {
                return send(
                    &self.out,
                    &answer(Ok(Err(crate::SearchError::NoThread(e.kind()))), fallback),
                );
            }
        };
        self.running = Some(Running {
            stop,
            release,
            reporter,
        });
        Ok(())
    }
}

/// The `bestmove` line (after an `info string` line when the search failed), after a last
/// `info nodes N time MS` with the whole search's nodes and time (a match compares that time
/// with the wall time it measured).
fn answer(
    result: std::thread::Result<Result<SearchResult, crate::SearchError>>,
    fallback: Option<Turn>,
) -> String {
    let failed = match result {
        Ok(Ok(r)) if r.threads_not_started > 0 => {
            return format!(
                "info string the system could not start {} of the {} search threads: searched \
                 with {}\ninfo nodes {} time {}\nbestmove {}",
                r.threads_not_started,
                r.threads + r.threads_not_started,
                r.threads,
                r.nodes,
                r.time.as_millis(),
                r.best
            );
        }
        Ok(Ok(r)) => {
            return format!(
                "info nodes {} time {}\nbestmove {}",
                r.nodes,
                r.time.as_millis(),
                r.best
            );
        }
        Ok(Err(e)) => format!("info string error: {e}"),
        Err(_) => "info string error: the search failed (a bug; please report it)".to_owned(),
    };
    match fallback {
        Some(t) => format!("{failed}\nbestmove {t}"),
        None => format!("{failed}\nbestmove (none)"),
    }
}

#[cfg(test)]
mod tests;
