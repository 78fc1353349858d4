//! The engine protocol: a line protocol on standard input and output in the style of chess's
//! UCI, so that engine GUIs and match runners can drive the engine. The full description is
//! in `docs/engine-protocol.md`.
//!
//! The loop reads commands from any [`BufRead`] and writes replies to any [`Write`], so that
//! it can be driven by a script in tests.
//!
//! # Examples
//!
//! ```
//! use std::io::Cursor;
//! use fanorona_ai::protocol;
//!
//! let input = Cursor::new("uci\nisready\nposition startpos moves f2e3A\ngo depth 3\n");
//! let out = protocol::SharedBuffer::default();
//! protocol::run(input, out.clone())?;
//! let text = out.text();
//! assert!(text.contains("uciok"));
//! assert!(text.contains("readyok"));
//! assert!(text.contains("info depth 3"));
//! assert!(text.lines().last().unwrap().starts_with("bestmove "));
//! # Ok::<(), std::io::Error>(())
//! ```

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use fanorona_core::{BoardSize, Color, Game, Position, Rules};

use crate::params::DEFAULT_HASH_MB;
use crate::search::Info;
use crate::{Clock, Engine, Level, Limits, SearchOptions};

/// The name the engine gives in `id name`.
pub const ENGINE_NAME: &str = concat!("Fanorona ", env!("CARGO_PKG_VERSION"));
/// The author the engine gives in `id author`.
pub const ENGINE_AUTHOR: &str = "The fanorona developers";

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

/// The `info` line of a search iteration.
pub fn info_line(info: &Info) -> String {
    let mut line = format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {} hashfull {}",
        info.depth,
        info.seldepth,
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

/// A search started by `go`: the reporter thread prints its answer.
struct Running {
    stop: Arc<AtomicBool>,
    reporter: JoinHandle<()>,
}

/// The protocol's state between commands.
struct Session<W: Write + Send + 'static> {
    out: Out<W>,
    engine: Engine,
    board: BoardSize,
    rules: Rules,
    level: Level,
    seed: u64,
    game: Game,
    running: Option<Running>,
}

/// Runs the protocol until `quit` or the end of the input. At the end of the input a running
/// search is waited for (or stopped, when it is infinite), so a script ending in
/// `go depth 5` still gets its `bestmove`.
///
/// # Errors
///
/// An I/O error reading the input or writing the output.
pub fn run<R: BufRead, W: Write + Send + 'static>(input: R, output: W) -> io::Result<()> {
    let mut s = Session {
        out: Arc::new(Mutex::new(output)),
        engine: Engine::new(DEFAULT_HASH_MB),
        board: BoardSize::STANDARD,
        rules: Rules::STANDARD,
        level: Level::Maximum,
        seed: 0,
        game: Game::default(),
        running: None,
    };
    for line in input.lines() {
        let line = line?;
        if !s.command(line.trim())? {
            s.finish(true);
            return Ok(());
        }
    }
    s.finish(false);
    Ok(())
}

impl<W: Write + Send + 'static> Session<W> {
    fn error(&self, message: &str) -> io::Result<()> {
        send(&self.out, &format!("info string error: {message}"))
    }

    /// Ends a running search: stops it first when `stop` (or when it is infinite and would
    /// never end by itself), then waits for its `bestmove`.
    fn finish(&mut self, stop: bool) {
        if let Some(r) = self.running.take() {
            if stop {
                r.stop.store(true, Ordering::Relaxed);
            }
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
                self.finish(true);
                self.engine.clear();
                self.game = Game::new(Position::start_with(self.board, self.rules));
            }
            "setoption" => self.setoption(&rest)?,
            "position" => self.position(&rest)?,
            "go" => self.go(&rest)?,
            "stop" => self.finish(true),
            "quit" => return Ok(false),
            "d" => {
                send(
                    &self.out,
                    &format!("info string position {}", self.game.position()),
                )?;
            }
            _ => self.error(&format!("unknown command {cmd:?}"))?,
        }
        Ok(true)
    }

    fn uci(&self) -> io::Result<()> {
        let lines = [
            format!("id name {ENGINE_NAME}"),
            format!("id author {ENGINE_AUTHOR}"),
            format!(
                "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max 65536"
            ),
            "option name Level type combo default maximum var beginner var casual var strong var maximum"
                .to_owned(),
            "option name Seed type spin default 0 min 0 max 4294967295".to_owned(),
            "option name Board type string default 5x9".to_owned(),
            "option name Tablebase type string default <empty>".to_owned(),
            "option name Rules type string default standard".to_owned(),
            "option name opening-restriction type check default false".to_owned(),
            "option name compulsory-continuation type check default false".to_owned(),
            "option name stuck type combo default loses var loses var draws".to_owned(),
            "option name repetition type string default 3".to_owned(),
            "option name no-capture-limit type string default 100".to_owned(),
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
                Ok(mb) if mb >= 1 => {
                    self.finish(true);
                    self.engine.resize(mb);
                    Ok(())
                }
                _ => Err(format!("Hash takes a size in MiB, not {value:?}")),
            },
            "level" => value
                .parse::<Level>()
                .map(|l| self.level = l)
                .map_err(|e| e.to_string()),
            "seed" => value
                .parse::<u64>()
                .map(|s| self.seed = s)
                .map_err(|_| format!("Seed takes a number, not {value:?}")),
            "board" => match value.parse::<BoardSize>() {
                Ok(size) => {
                    self.board = size;
                    self.game = Game::new(Position::start_with(size, self.rules));
                    Ok(())
                }
                Err(e) => Err(e.to_string()),
            },
            "tablebase" => {
                self.finish(true);
                if value.is_empty() || value == "<empty>" {
                    self.engine.set_tablebase(None);
                    Ok(())
                } else {
                    match crate::solve::tablebase::Tablebase::load(&value) {
                        Ok(t) => {
                            self.engine.set_tablebase(Some(Arc::new(t)));
                            Ok(())
                        }
                        Err(e) => Err(format!("Tablebase {value:?}: {e}")),
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
            _ => Err(format!("unknown option {name:?}")),
        };
        match result {
            Ok(()) => Ok(()),
            Err(e) => self.error(&e),
        }
    }

    fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
        // Replay the current game under the new rules.
        let start = self.game.start().with_rules(rules);
        let mut game = Game::new(start);
        for t in self.game.turns() {
            if game.play(*t).is_err() {
                break;
            }
        }
        self.game = game;
    }

    fn position(&mut self, words: &[&str]) -> io::Result<()> {
        let moves_at = words.iter().position(|w| *w == "moves");
        let setup = &words[..moves_at.unwrap_or(words.len())];
        let start = match setup.first() {
            Some(&"startpos") if setup.len() == 1 => Position::start_with(self.board, self.rules),
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
                    return self.error(&format!("turn {} ({text}): {e}", n + 1));
                }
            }
        }
        self.game = game;
        Ok(())
    }

    fn go(&mut self, words: &[&str]) -> io::Result<()> {
        self.finish(true);
        let limits = match parse_go(words, self.game.position().side_to_move()) {
            Ok(l) => l,
            Err(e) => return self.error(&e),
        };
        if let Some(o) = self.game.outcome() {
            send(&self.out, &format!("info string the game is over: {o}"))?;
            return send(&self.out, "bestmove (none)");
        }
        let limits = limits.unwrap_or_else(|| self.level.limits());
        let infinite = limits.infinite;
        let info_out = Arc::clone(&self.out);
        let info = move |i: &Info| {
            let _ = send(&info_out, &info_line(i));
        };
        let game = self.game.clone();
        let handle = if self.level == Level::Maximum {
            self.engine
                .start(game, limits, SearchOptions::default(), info)
        } else {
            self.engine
                .start_level_with(game, self.level, limits, self.seed, info)
        };
        let stop = handle.stop_flag();
        let flag = Arc::clone(&stop);
        let out = Arc::clone(&self.out);
        let reporter = std::thread::spawn(move || {
            let result = handle.join();
            // In infinite mode the answer waits for `stop`, as in UCI.
            while infinite && !flag.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(2));
            }
            let line = match result {
                Ok(r) => format!("bestmove {}", r.best),
                Err(e) => format!("info string {e}\nbestmove (none)"),
            };
            let _ = send(&out, &line);
        });
        self.running = Some(Running { stop, reporter });
        Ok(())
    }
}

/// Reads the arguments of `go`. `Ok(None)`: no limit was given (the level decides).
///
/// # Errors
///
/// A message naming the argument that is missing or not a number.
pub fn parse_go(words: &[&str], side: Color) -> Result<Option<Limits>, String> {
    let mut limits = Limits::default();
    let mut any = false;
    let (mut wtime, mut btime, mut winc, mut binc, mut togo) = (None, None, 0, 0, None);
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        if key == "infinite" {
            limits.infinite = true;
            any = true;
            i += 1;
            continue;
        }
        if key == "ponder" {
            i += 1;
            continue;
        }
        let Some(v) = words.get(i + 1) else {
            return Err(format!("go {key}: a number must follow"));
        };
        let n: u64 = v
            .parse()
            .map_err(|_| format!("go {key}: {v:?} is not a number"))?;
        match key {
            "depth" => limits.depth = Some(n.min(u64::from(u32::MAX)) as u32),
            "nodes" => limits.nodes = Some(n),
            "movetime" => limits.movetime = Some(Duration::from_millis(n)),
            "wtime" => wtime = Some(n),
            "btime" => btime = Some(n),
            "winc" => winc = n,
            "binc" => binc = n,
            "movestogo" => togo = Some(n.min(u64::from(u32::MAX)) as u32),
            _ => return Err(format!("go: unknown argument {key:?}")),
        }
        any = true;
        i += 2;
    }
    let (time, inc) = match side {
        Color::White => (wtime, winc),
        Color::Black => (btime, binc),
    };
    if let Some(t) = time {
        limits.clock = Some(Clock {
            remaining: Duration::from_millis(t),
            increment: Duration::from_millis(inc),
            moves_to_go: togo,
        });
    }
    Ok(any.then_some(limits))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn talk(script: &str) -> String {
        let out = SharedBuffer::default();
        run(Cursor::new(script.to_owned()), out.clone()).unwrap();
        out.text()
    }

    fn bestmove(text: &str) -> String {
        text.lines()
            .find_map(|l| l.strip_prefix("bestmove "))
            .expect("a bestmove line")
            .to_owned()
    }

    #[test]
    fn handshake_lists_the_options() {
        let text = talk("uci\nisready\nquit\n");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], format!("id name {ENGINE_NAME}"));
        assert!(lines.contains(&"option name Hash type spin default 16 min 1 max 65536"));
        assert_eq!(lines[lines.len() - 2], "uciok");
        assert_eq!(lines[lines.len() - 1], "readyok");
    }

    #[test]
    fn go_depth_streams_info_and_answers_a_legal_turn() {
        let text = talk("position startpos moves f2-e3A d5d4A\ngo depth 4\n");
        let infos: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("info depth"))
            .collect();
        assert_eq!(infos.len(), 4);
        assert!(infos[3].starts_with("info depth 4 "));
        assert!(infos[3].contains(" score cp ") || infos[3].contains(" score win "));
        assert!(infos[3].contains(" pv "));
        let mut game = Game::default();
        game.play_text("f2-e3A").unwrap();
        game.play_text("d5-d4A").unwrap();
        let best = bestmove(&text);
        game.play_text(&best).unwrap();
    }

    #[test]
    fn a_won_position_reports_a_win_score() {
        let text = talk("position fen 9/9/9/9/W1BB5 w\ngo depth 2\n");
        assert!(text.contains("score win 1"), "{text}");
        assert_eq!(bestmove(&text), "a1-b1A");
    }

    #[test]
    fn infinite_waits_for_stop() {
        let text = talk("position startpos\ngo infinite\nisready\nstop\n");
        let ready = text.lines().position(|l| l == "readyok").unwrap();
        let best = text
            .lines()
            .position(|l| l.starts_with("bestmove"))
            .unwrap();
        assert!(ready < best, "{text}");
    }

    #[test]
    fn clock_limits_answer_quickly() {
        let start = std::time::Instant::now();
        let text = talk("position startpos\ngo wtime 1000 btime 1000 winc 0 binc 0\n");
        assert!(start.elapsed() < Duration::from_millis(900));
        Position::standard().parse_turn(&bestmove(&text)).unwrap();
    }

    #[test]
    fn options_change_the_board_and_rules() {
        let text = talk(
            "setoption name Board value 5x5\nsetoption name no-capture-limit value off\nposition startpos\nd\nsetoption name Level value beginner\ngo depth 1\n",
        );
        assert!(text.contains("info string position BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w"));
        let best = bestmove(&text);
        Position::start(BoardSize::DIMY).parse_turn(&best).unwrap();
    }

    #[test]
    fn errors_are_reported_and_the_loop_goes_on() {
        let text = talk(
            "position startpos moves c3-b4\nposition fen XYZ w\nsetoption name Hash value lots\nfrobnicate\ngo depth x\nisready\n",
        );
        let errors: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("info string error: "))
            .collect();
        assert_eq!(errors.len(), 5, "{text}");
        assert!(errors[0].contains("turn 1 (c3-b4)"));
        assert!(text.ends_with("readyok\n"));
    }

    #[test]
    fn a_finished_game_has_no_best_move() {
        let text = talk("position fen 9/9/9/9/W8 b\ngo depth 3\n");
        assert!(text.contains("bestmove (none)"));
    }

    #[test]
    fn go_arguments() {
        let l = parse_go(
            &["wtime", "5000", "btime", "7000", "binc", "100"],
            Color::Black,
        )
        .unwrap()
        .unwrap();
        let c = l.clock.unwrap();
        assert_eq!(c.remaining, Duration::from_millis(7000));
        assert_eq!(c.increment, Duration::from_millis(100));
        assert_eq!(parse_go(&[], Color::White), Ok(None));
        assert!(parse_go(&["depth"], Color::White).is_err());
        assert!(parse_go(&["sideways", "3"], Color::White).is_err());
    }
}
