//! `fanorona engine` as a GUI drives it: the real binary on pipes. Every wait has a time-out
//! in the test itself, so a regression (an engine that never answers or never exits) fails
//! instead of hanging CI.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// Long enough for a loaded CI machine.
const TIMEOUT: Duration = Duration::from_secs(20);

/// A running `fanorona engine`; killed when dropped.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
    seen: Vec<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fanorona"))
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the fanorona binary runs");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines,
            seen: Vec::new(),
        }
    }

    fn bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, line: &str) {
        self.bytes(format!("{line}\n").as_bytes());
    }

    /// Waits for a line starting with `prefix`; that line.
    fn expect(&mut self, prefix: &str) -> String {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.starts_with(prefix) {
                        return line;
                    }
                }
                Err(_) => panic!(
                    "no {prefix:?} line within {TIMEOUT:?}; output:\n{}",
                    self.seen.join("\n")
                ),
            }
        }
    }

    /// Closes standard input (when still open) and waits for the exit; the rest of the
    /// output and the exit status.
    fn finish(mut self) -> (Vec<String>, ExitStatus) {
        self.stdin = None;
        let deadline = Instant::now() + TIMEOUT;
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(
                Instant::now() < deadline,
                "the engine did not exit; output:\n{}",
                self.seen.join("\n")
            );
            thread::sleep(Duration::from_millis(10));
        };
        let mut rest = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(5)) {
            rest.push(line);
        }
        (rest, status)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Regression: `go infinite` and then the end of the input never exited.
#[test]
fn the_end_of_the_input_stops_an_infinite_search_answers_and_exits() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    e.expect("info depth 1 ");
    let (rest, status) = e.finish();
    assert!(status.success());
    let best: Vec<&String> = rest.iter().filter(|l| l.starts_with("bestmove ")).collect();
    assert_eq!(best.len(), 1, "{rest:?}");
    fanorona_core::Position::standard()
        .parse_turn(&best[0]["bestmove ".len()..])
        .unwrap();
}

#[test]
fn quit_during_a_search_answers_and_exits() {
    let mut e = Engine::start();
    e.send("go depth 60");
    e.expect("info depth 2 ");
    e.send("quit");
    e.expect("bestmove ");
    let (_, status) = e.finish();
    assert!(status.success());
}

/// Regression: `go btime N` with White to move searched until `stop`.
#[test]
fn a_clock_for_the_side_not_to_move_does_not_search_forever() {
    let mut e = Engine::start();
    e.send("setoption name Level value casual");
    e.send("position startpos");
    e.send("go btime 1000 binc 10");
    let error = e.expect("info string error: ");
    assert!(error.contains("btime without wtime"), "{error}");
    e.expect("bestmove ");
    e.send("quit");
    assert!(e.finish().1.success());
}

/// Regression: `searchmoves`, `multipv` and `mate` left a GUI waiting for `bestmove`.
#[test]
fn searchmoves_multipv_and_mate_are_answered() {
    let mut e = Engine::start();
    e.send("position fen 9/9/2B6/9/W1B6 w");
    e.send("go depth 3 searchmoves a1-b1A");
    assert_eq!(e.expect("bestmove "), "bestmove a1-b1A");
    e.send("setoption name MultiPV value 3");
    e.send("go depth 2");
    let line = e.expect("info depth 2 ");
    assert!(line.contains(" multipv 1 score win 1 "), "{line}");
    assert!(e.expect("info depth 2 ").contains(" multipv 2 "));
    assert!(e.expect("info depth 2 ").contains(" multipv 3 "));
    assert_eq!(e.expect("bestmove "), "bestmove a1-b2A-a3W");
    e.send("go mate 1");
    assert_eq!(e.expect("bestmove "), "bestmove a1-b2A-a3W");
    e.send("quit");
    assert!(e.finish().1.success());
}

/// Regression: a line that is not UTF-8 ended the engine; a huge line was held and echoed
/// whole; `Hash` at its advertised maximum aborted the process.
#[test]
fn bad_lines_and_hash_sizes_are_error_lines_and_the_engine_goes_on() {
    let mut e = Engine::start();
    e.send("uci");
    let hash = e.expect("option name Hash ");
    assert_eq!(
        hash,
        "option name Hash type spin default 16 min 1 max 16384"
    );
    e.expect("uciok");
    e.bytes(b"isready\xff\n");
    let error = e.expect("info string error: ");
    assert_eq!(
        error,
        r#"info string error: line 2: not UTF-8 (byte 8); ignored: "isready\xff""#
    );
    let mut long = vec![b'x'; 4 << 20];
    long.push(b'\n');
    e.bytes(&long);
    let error = e.expect("info string error: ");
    assert!(error.len() < 200, "{error}");
    assert!(error.contains("4194304 bytes, longer than the limit of 65536"));
    for size in ["65536", "18446744073709551615"] {
        e.send(&format!("setoption name Hash value {size}"));
        let error = e.expect("info string error: ");
        assert!(error.contains("the table stays at 16 MiB"), "{error}");
    }
    e.send("go depth 2");
    e.expect("bestmove ");
    e.send("isready");
    e.expect("readyok");
    let (_, status) = e.finish();
    assert!(status.success());
}
