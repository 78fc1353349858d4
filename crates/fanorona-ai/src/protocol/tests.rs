//! The protocol loop driven over in-memory input and output. Every wait has a time-out, so
//! that a regression fails instead of hanging.

use std::io::{BufReader, Cursor, Read};
use std::thread;
use std::time::{Duration, Instant};

use super::*;

/// Long enough for a loaded CI machine; a hang fails after it.
const TIMEOUT: Duration = Duration::from_secs(20);

/// Input that arrives when the test sends it, and ends when the test closes it.
struct ChannelReader {
    rx: mpsc::Receiver<Vec<u8>>,
    pending: Vec<u8>,
    at: usize,
}

impl Read for ChannelReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.pending.len() {
            match self.rx.recv() {
                Ok(bytes) => {
                    self.pending = bytes;
                    self.at = 0;
                }
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len() - self.at);
        buf[..n].copy_from_slice(&self.pending[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The protocol loop on its own thread, as a GUI sees it.
struct Driver {
    tx: Option<mpsc::Sender<Vec<u8>>>,
    out: SharedBuffer,
    done: mpsc::Receiver<io::Result<()>>,
}

impl Driver {
    fn start() -> Driver {
        let (tx, rx) = mpsc::channel();
        let (done_tx, done) = mpsc::channel();
        let out = SharedBuffer::default();
        let o = out.clone();
        thread::spawn(move || {
            let input = BufReader::new(ChannelReader {
                rx,
                pending: Vec::new(),
                at: 0,
            });
            let _ = done_tx.send(run(input, o));
        });
        Driver {
            tx: Some(tx),
            out,
            done,
        }
    }

    fn send(&self, line: &str) {
        self.bytes(format!("{line}\n").as_bytes());
    }

    fn bytes(&self, bytes: &[u8]) {
        let _ = self.tx.as_ref().expect("open").send(bytes.to_vec());
    }

    /// Waits until the output has `n` lines starting with `prefix`; the output then.
    fn wait_for(&self, prefix: &str, n: usize) -> String {
        let start = Instant::now();
        loop {
            let text = self.out.text();
            if count(&text, prefix) >= n {
                return text;
            }
            assert!(
                start.elapsed() < TIMEOUT,
                "timed out waiting for {n} {prefix:?} lines; output:\n{text}"
            );
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// Waits for the loop to end by itself (after `quit`); the output.
    fn ended(&self) -> String {
        match self.done.recv_timeout(TIMEOUT) {
            Ok(r) => r.expect("no I/O error"),
            Err(_) => panic!("the loop did not end; output:\n{}", self.out.text()),
        }
        self.out.text()
    }

    /// Ends the input and waits for the loop to end; the output.
    fn close(mut self) -> String {
        self.tx = None;
        self.ended()
    }
}

fn count(text: &str, prefix: &str) -> usize {
    text.lines().filter(|l| l.starts_with(prefix)).count()
}

/// Runs a whole script (its end stops any search).
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

fn errors(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|l| l.strip_prefix("info string error: "))
        .collect()
}

#[test]
fn handshake_lists_the_options() {
    let text = talk("uci\nisready\nquit\n");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], format!("id name {ENGINE_NAME}"));
    assert!(lines.contains(&"option name Hash type spin default 16 min 1 max 16384"));
    assert!(lines.contains(&"option name MultiPV type spin default 1 min 1 max 256"));
    assert!(lines.contains(&"option name Threads type spin default 1 min 1 max 256"));
    assert_eq!(lines[lines.len() - 2], "uciok");
    assert_eq!(lines[lines.len() - 1], "readyok");
}

#[test]
fn every_level_is_offered_and_plays_by_name_or_index() {
    let text = talk("uci\nquit\n");
    assert!(text.lines().any(|l| l
        == "option name Level type combo default maximum var novice var beginner var learner \
            var improver var apprentice var amateur var hobbyist var intermediate var regular \
            var casual var club var advanced var strong var maximum"));
    // The weakest level by name, a middle one by index (7: intermediate, depth 3), and an
    // index past the last: an error line, and the level stays.
    let d = Driver::start();
    d.send("setoption name Level value novice");
    d.send("go");
    d.wait_for("bestmove", 1);
    d.send("setoption name Level value 7");
    d.send("go");
    d.wait_for("bestmove", 2);
    d.send("setoption name Level value 14");
    d.send("go");
    let text = d.wait_for("bestmove", 3);
    assert!(!text.contains("bestmove (none)"), "{text}");
    // Novice searches one ply, intermediate three, twice.
    assert_eq!(count(&text, "info depth 1 "), 3, "{text}");
    assert_eq!(count(&text, "info depth 3 "), 2, "{text}");
    assert_eq!(count(&text, "info depth 4 "), 0, "{text}");
    let errors = errors(&text);
    assert_eq!(errors.len(), 1, "{text}");
    assert!(
        errors[0].contains("\"14\"") && errors[0].contains("0-13"),
        "{text}"
    );
}

#[test]
fn go_depth_streams_info_and_answers_a_legal_turn() {
    let d = Driver::start();
    d.send("position startpos moves f2-e3A d5d4A");
    d.send("go depth 4");
    let text = d.wait_for("bestmove", 1);
    let infos: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 4);
    assert!(infos[3].starts_with("info depth 4 "));
    assert!(infos[3].contains(" multipv 1 "));
    assert!(infos[3].contains(" score cp ") || infos[3].contains(" score win "));
    assert!(infos[3].contains(" pv "));
    let mut game = Game::default();
    game.play_text("f2-e3A").unwrap();
    game.play_text("d5-d4A").unwrap();
    game.play_text(&bestmove(&text)).unwrap();
    d.close();
}

#[test]
fn a_won_position_reports_a_win_score() {
    let d = Driver::start();
    d.send("position fen 9/9/9/9/W1BB5 w");
    d.send("go depth 2");
    let text = d.wait_for("bestmove", 1);
    assert!(text.contains("score win 1"), "{text}");
    assert_eq!(bestmove(&text), "a1-b1A");
    d.close();
}

#[test]
fn infinite_waits_for_stop() {
    let d = Driver::start();
    d.send("position startpos");
    d.send("go infinite");
    d.send("isready");
    d.wait_for("readyok", 1);
    thread::sleep(Duration::from_millis(50));
    assert_eq!(count(&d.out.text(), "bestmove"), 0);
    d.send("stop");
    let text = d.wait_for("bestmove", 1);
    Position::standard().parse_turn(&bestmove(&text)).unwrap();
    let text = d.close();
    assert_eq!(count(&text, "bestmove"), 1);
}

/// Regression: `go infinite` then the end of the input never ended.
#[test]
fn the_end_of_the_input_stops_an_infinite_search_and_answers() {
    let d = Driver::start();
    d.send("go infinite");
    d.wait_for("info depth 2", 1);
    let asked = Instant::now();
    let text = d.close();
    assert!(asked.elapsed() < Duration::from_secs(5));
    assert_eq!(count(&text, "bestmove"), 1);
    assert!(text.ends_with('\n') && text.lines().last().unwrap().starts_with("bestmove "));
    // The same from a script.
    let text = talk("position startpos\ngo infinite\n");
    assert_eq!(count(&text, "bestmove"), 1);
}

#[test]
fn the_end_of_the_input_stops_a_long_search_too() {
    let d = Driver::start();
    d.send("go depth 60");
    d.wait_for("info depth 3", 1);
    let asked = Instant::now();
    let text = d.close();
    assert!(asked.elapsed() < Duration::from_secs(5));
    assert_eq!(count(&text, "bestmove"), 1);
}

#[test]
fn quit_during_a_search_answers_then_ends() {
    let d = Driver::start();
    d.send("go infinite");
    d.wait_for("info depth 1", 1);
    d.send("quit");
    let text = d.ended();
    assert_eq!(count(&text, "bestmove"), 1);
    assert!(text.lines().last().unwrap().starts_with("bestmove "));
}

/// Regression: `go btime N` with White to move searched until `stop`.
#[test]
fn a_clock_for_the_other_side_only_is_an_error_and_the_level_decides() {
    let d = Driver::start();
    d.send("setoption name Level value beginner");
    d.send("go btime 1000");
    let text = d.wait_for("bestmove", 1);
    assert_eq!(
        errors(&text),
        ["go: btime without wtime: White is to move; the clock is left out"]
    );
    // Increments alone limit nothing either: the level's limits.
    d.send("go winc 1000 binc 1000");
    d.wait_for("bestmove", 2);
    d.send("position startpos moves f2-e3A");
    d.send("go wtime 1000 winc 10");
    let text = d.wait_for("bestmove", 3);
    assert_eq!(errors(&text).len(), 2, "{text}");
    d.close();
}

#[test]
fn clock_limits_answer_quickly() {
    let d = Driver::start();
    let start = Instant::now();
    d.send("go wtime 1000 btime 1000 winc 0 binc 0");
    let text = d.wait_for("bestmove", 1);
    assert!(start.elapsed() < Duration::from_millis(900), "{text}");
    Position::standard().parse_turn(&bestmove(&text)).unwrap();
    d.close();
}

#[test]
fn every_go_gets_exactly_one_bestmove_even_with_bad_arguments() {
    let d = Driver::start();
    let gos = [
        "go depth x",
        "go sideways 3 depth 1",
        "go searchmoves",
        "go multipv 0 depth 1",
        "go mate",
        "go nodes 99999999999999999999999 depth 1",
        "go ponder depth 1",
    ];
    for (n, go) in gos.iter().enumerate() {
        d.send("setoption name Level value beginner");
        d.send(go);
        let text = d.wait_for("bestmove", n + 1);
        Position::standard()
            .parse_turn(text.lines().rfind(|l| l.starts_with("bestmove")).unwrap()[9..].trim())
            .unwrap();
    }
    let text = d.close();
    assert_eq!(count(&text, "bestmove"), gos.len());
    assert_eq!(errors(&text).len(), 7, "{text}");
}

/// Regression: `go searchmoves` answered an error and no `bestmove`.
#[test]
fn searchmoves_restricts_the_answer() {
    let d = Driver::start();
    // White a1 wins at once with a1-b2A-a3W; restricted to a1-b1A it must answer that.
    d.send("position fen 9/9/2B6/9/W1B6 w");
    d.send("go depth 3 searchmoves a1b1A");
    let text = d.wait_for("bestmove", 1);
    assert_eq!(bestmove(&text), "a1-b1A");
    assert!(errors(&text).is_empty(), "{text}");
    // Illegal turns are reported and left out; with none legal every turn is searched.
    d.send("go depth 3 searchmoves c3-b4 a1-b1A zz");
    let text = d.wait_for("bestmove", 2);
    assert_eq!(errors(&text).len(), 2, "{text}");
    assert!(
        text.lines()
            .filter(|l| l.starts_with("bestmove"))
            .all(|l| l == "bestmove a1-b1A")
    );
    d.send("go depth 3 searchmoves c3-b4");
    let text = d.wait_for("bestmove", 3);
    assert_eq!(
        text.lines().rfind(|l| l.starts_with("bestmove")),
        Some("bestmove a1-b2A-a3W")
    );
    assert!(errors(&text)[3].contains("no legal turn given; searching every turn"));
    d.close();
}

/// Regression: `go multipv` answered an error and no `bestmove`.
#[test]
fn multipv_reports_one_line_per_turn_and_iteration() {
    let d = Driver::start();
    d.send("position fen 9/9/2B6/9/W1B6 w");
    d.send("setoption name MultiPV value 2");
    d.send("go depth 2");
    let text = d.wait_for("bestmove", 1);
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[2].starts_with("info depth 2 ") && lines[2].contains(" multipv 1 "));
    assert!(lines[3].starts_with("info depth 2 ") && lines[3].contains(" multipv 2 "));
    assert!(lines[2].contains(" score win 1 "), "{text}");
    assert!(lines[2].ends_with(" pv a1-b2A-a3W"), "{text}");
    assert_eq!(bestmove(&text), "a1-b2A-a3W");
    // `go multipv N` for one search; more lines than turns: one line per turn.
    d.send("go depth 1 multipv 9");
    let text = d.wait_for("bestmove", 2);
    assert_eq!(count(&text, "info depth 1 "), 2 + 3);
    d.send("setoption name MultiPV value 257");
    d.send("isready");
    let text = d.wait_for("readyok", 1);
    assert_eq!(
        errors(&text),
        ["MultiPV takes a number from 1 to 256, not \"257\""]
    );
    d.close();
}

/// Regression: `go mate N` answered an error and no `bestmove`.
#[test]
fn mate_looks_for_a_win_in_time_and_always_answers() {
    let d = Driver::start();
    d.send("position fen 9/9/2B6/9/W1B6 w");
    d.send("go mate 2");
    let text = d.wait_for("bestmove", 1);
    assert_eq!(bestmove(&text), "a1-b2A-a3W");
    assert_eq!(
        count(&text, "info depth"),
        1,
        "stops at the first win in time"
    );
    // No win to find: it ends after 2N-1 plies.
    d.send("position startpos");
    d.send("go mate 2");
    let text = d.wait_for("bestmove", 2);
    assert!(text.contains("info depth 3 "), "{text}");
    assert!(!text.contains("info depth 4 "), "{text}");
    d.close();
}

#[test]
fn stop_without_a_search_and_repeated_go_are_defined() {
    let d = Driver::start();
    d.send("stop");
    d.send("stop");
    d.send("isready");
    let text = d.wait_for("readyok", 1);
    assert_eq!(text, "readyok\n");
    // A `go` during a search ends that search (its bestmove first), then starts anew.
    d.send("go infinite");
    d.wait_for("info depth 1", 1);
    d.send("go depth 2");
    let text = d.wait_for("bestmove", 2);
    let lines: Vec<&str> = text.lines().collect();
    let first = lines
        .iter()
        .position(|l| l.starts_with("bestmove"))
        .unwrap();
    assert!(
        lines[first + 1..]
            .iter()
            .any(|l| l.starts_with("info depth 1 "))
    );
    d.send("stop");
    d.send("isready");
    let text = d.wait_for("readyok", 2);
    assert_eq!(count(&text, "bestmove"), 2);
    d.close();
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
        "position startpos moves c3-b4\nposition fen XYZ w\nsetoption name Hash value lots\nfrobnicate\nisready\n",
    );
    let errors = errors(&text);
    assert_eq!(errors.len(), 4, "{text}");
    assert!(errors[0].contains("turn 1 (\"c3-b4\")"));
    assert!(errors[3].contains("unknown command \"frobnicate\""));
    assert!(text.ends_with("readyok\n"));
}

#[test]
fn a_finished_game_has_no_best_move() {
    let text = talk("position fen 9/9/9/9/W8 b\ngo depth 3\n");
    assert!(text.contains("bestmove (none)"));
    assert_eq!(count(&text, "bestmove"), 1);
}

/// Regression: `Hash` at the advertised maximum aborted; a huge value panicked.
#[test]
fn hash_sizes_out_of_range_are_errors_and_the_table_stays() {
    let d = Driver::start();
    d.send("setoption name Hash value 2");
    for v in [
        "65536",
        "16385",
        "0",
        "18446744073709551615",
        "99999999999999999999999",
    ] {
        d.send(&format!("setoption name Hash value {v}"));
    }
    d.send("go depth 2");
    let text = d.wait_for("bestmove", 1);
    let errors = errors(&text);
    assert_eq!(errors.len(), 5, "{text}");
    assert!(
        errors[0]
            == "Hash takes a size in MiB from 1 to 16384, not \"65536\"; the table stays at 2 MiB"
    );
    d.close();
}

/// Regression: a line that was not UTF-8 ended the engine.
#[test]
fn lines_that_are_not_utf8_are_errors_and_the_loop_goes_on() {
    let d = Driver::start();
    d.bytes(b"position startpos moves f2e3\xff\n");
    d.bytes(b"\xc3\x28\x1b[2J\n");
    d.send("isready");
    let text = d.wait_for("readyok", 1);
    let errors = errors(&text);
    assert_eq!(
        errors,
        [
            r#"line 1: not UTF-8 (byte 29); ignored: "position startpos moves f2e3\xff""#,
            r#"line 2: not UTF-8 (byte 1); ignored: "\xc3(\x1b[2J""#
        ]
    );
    d.close();
}

/// Regression: a huge line was held whole and echoed back whole.
#[test]
fn an_overlong_line_is_an_error_with_a_short_echo() {
    let d = Driver::start();
    let long = format!("position fen {}\n", "B".repeat(10 * MAX_LINE));
    d.bytes(long.as_bytes());
    d.send("unknown".repeat(5_000).as_str());
    d.send("isready");
    let text = d.wait_for("readyok", 1);
    let errors = errors(&text);
    assert_eq!(errors.len(), 2);
    assert!(errors[0].starts_with("line 1: 655373 bytes, longer than the limit of 65536"));
    assert!(errors[1].starts_with("unknown command \"unknownunknown"));
    assert!(text.len() < 500, "{text}");
    d.close();
}

#[test]
fn a_broken_output_ends_the_loop_with_the_error() {
    struct Broken;
    impl Write for Broken {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let err = run(Cursor::new("go infinite\nisready\n"), Broken).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
}

#[test]
fn answer_falls_back_to_a_legal_turn_when_the_search_fails() {
    let t = Position::standard().legal_turns()[0];
    let panicked: std::thread::Result<Result<SearchResult, crate::SearchError>> =
        Err(Box::new("boom"));
    let text = answer(panicked, Some(t));
    assert!(text.starts_with("info string error: the search failed"));
    assert!(text.ends_with(&format!("\nbestmove {t}")));
}

#[test]
fn threads_are_an_option_and_every_go_still_answers_a_legal_turn() {
    let text = talk(
        "setoption name Threads value 2\nposition startpos\ngo depth 4\nisready\n\
         setoption name Threads value 0\nsetoption name Threads value x\nquit\n",
    );
    let best: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect();
    assert_eq!(best.len(), 1, "{text}");
    assert!(Position::standard().parse_turn(best[0]).is_ok(), "{text}");
    let errs = errors(&text);
    assert_eq!(errs.len(), 2, "{text}");
    assert!(
        errs.iter()
            .all(|e| e.contains("Threads takes a number from 1 to 256"))
    );
}

#[test]
fn use_nnue_and_eval_file_switch_the_evaluation() {
    // White a1, c1 against Black i5: after any White turn Black, to move, is one stone down
    // with the no-capture counter at 1. The material network (a test fixture) scores that
    // -100 * 199/200, truncated, for Black, so White's score is cp 99; the hand evaluation
    // counts more, and the embedded network has its own view.
    let score = |setup: &str| {
        let d = Driver::start();
        for line in setup.lines() {
            d.send(line);
        }
        d.send("position fen 8B/9/9/9/W1W6 w");
        d.send("go depth 1");
        let text = d.wait_for("bestmove", 1);
        d.close();
        text.lines()
            .find(|l| l.starts_with("info depth 1 "))
            .and_then(|l| l.split(" score ").nth(1))
            .map(|s| s.split(" nodes").next().unwrap_or("").to_owned())
            .expect("an info line")
    };
    let dir = std::env::temp_dir().join(format!("fanorona-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("material.nnue");
    std::fs::write(&path, crate::nnue::MATERIAL).unwrap();
    let material = format!("setoption name EvalFile value {}", path.display());
    assert_eq!(
        score(&format!("setoption name UseNNUE value true\n{material}")),
        "cp 99"
    );
    let classic = score(&format!("{material}\nsetoption name UseNNUE value false"));
    assert_ne!(classic, "cp 99");
    let embedded = score("setoption name UseNNUE value true");
    assert_ne!(embedded, "cp 99");
    // The default is the embedded network, or the hand evaluation when that is off.
    let default = score("");
    assert_eq!(
        default,
        if crate::nnue::NNUE_BY_DEFAULT {
            embedded
        } else {
            classic
        }
    );
    // A file that is not a network is refused and the evaluation stays.
    let text = talk(&format!(
        "setoption name EvalFile value {}\nsetoption name UseNNUE value maybe\nquit\n",
        dir.display()
    ));
    let errs = errors(&text);
    assert_eq!(errs.len(), 2, "{text}");
    assert!(errs[0].starts_with("EvalFile ") && errs[0].contains("not a regular file"));
    assert!(errs[1].contains("UseNNUE takes true or false"));
    let uci = talk("uci\nquit\n");
    assert!(uci.contains("option name EvalFile type string default <empty>"));
    assert!(uci.contains(&format!(
        "option name UseNNUE type check default {}",
        crate::nnue::NNUE_BY_DEFAULT
    )));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn contempt_is_an_option_that_scores_draws_by_rule() {
    // Every White turn reaches the no-capture limit (see the search's contempt test).
    let score = |setup: &str| {
        let text = talk(&format!(
            "{setup}\nposition fen 8B/9/9/9/W1W6 w 99 30\ngo depth 2\nquit\n"
        ));
        text.lines()
            .rfind(|l| l.starts_with("info depth "))
            .and_then(|l| l.split(" score ").nth(1))
            .map(|s| s.split(" nodes").next().unwrap_or("").to_owned())
            .expect("an info line")
    };
    assert_eq!(score(""), "cp 0");
    assert_eq!(score("setoption name Contempt value 40"), "cp -40");
    let text = talk("setoption name Contempt value 501\nsetoption name Contempt value x\nquit\n");
    let errs = errors(&text);
    assert_eq!(errs.len(), 2, "{text}");
    assert!(
        errs.iter()
            .all(|e| e.contains("Contempt takes a number from -500 to 500"))
    );
    assert!(
        talk("uci\nquit\n").contains("option name Contempt type spin default 0 min -500 max 500")
    );
}

/// A book file in a temporary folder, removed when dropped.
struct TempBook(std::path::PathBuf);

impl TempBook {
    fn new(name: &str, text: &str) -> TempBook {
        let dir = std::env::temp_dir().join(format!(
            "fanorona-protocol-book-{}-{name}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("test.book");
        std::fs::write(&path, text).unwrap();
        TempBook(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempBook {
    fn drop(&mut self) {
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

const START_5X9: &str = "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w";

#[test]
fn the_book_answers_at_once_at_the_maximum_level_and_can_be_turned_off() {
    // A book of one turn: f2-e3A (not the engine's choice at depth 1, which is d3-e3A by the
    // shipped book's scores: either way, the answer must be the book's).
    let book = TempBook::new(
        "one",
        &format!(
            "fanorona-book 1\nboard 5x9\nrules standard\nposition {START_5X9}\nturn f2-e3A 5 0 0 10 1 1\n"
        ),
    );
    let text = talk(&format!(
        "uci\nsetoption name BookFile value {}\nposition startpos\ngo movetime 5000\n",
        book.path()
    ));
    assert!(text.contains("option name OwnBook type check default true"));
    assert!(text.contains("option name BookFile type string default <empty>"));
    assert!(errors(&text).is_empty(), "{text}");
    assert!(text.contains("info string book f2-e3A"), "{text}");
    assert_eq!(bestmove(&text), "f2-e3A");
    assert_eq!(count(&text, "info depth"), 0, "no search: {text}");
    // Off, or at another level, or asked for a fixed depth: the engine searches.
    for setting in [
        "setoption name OwnBook value false\ngo movetime 50",
        "setoption name Level value strong\ngo movetime 50",
        "go depth 2",
        "go movetime 50 searchmoves d3-e3A",
    ] {
        let text = talk(&format!(
            "setoption name BookFile value {}\nposition startpos\n{setting}\n",
            book.path()
        ));
        assert!(!text.contains("info string book"), "{setting}: {text}");
        assert_eq!(count(&text, "bestmove"), 1);
    }
    // The shipped book, with no BookFile: a book turn at the start of 5x9 and of 5x5.
    let text = talk("position startpos\ngo\n");
    assert!(text.contains("info string book "), "{text}");
    Position::standard().parse_turn(&bestmove(&text)).unwrap();
    let text = talk("setoption name Board value 5x5\nposition startpos\ngo movetime 10\n");
    assert!(text.contains("info string book "), "{text}");
}

#[test]
fn a_bad_book_file_is_an_error_and_never_an_illegal_turn() {
    // A turn that is not legal at the start: the file is refused, naming the line.
    let bad = TempBook::new(
        "bad",
        &format!(
            "fanorona-book 1\nboard 5x9\nrules standard\nposition {START_5X9}\nturn a1-b2 1 0 0 10 1 1\n"
        ),
    );
    let text = talk(&format!(
        "setoption name BookFile value {}\nposition startpos\ngo movetime 20\n",
        bad.path()
    ));
    let e = errors(&text);
    assert_eq!(e.len(), 1, "{text}");
    assert!(
        e[0].starts_with("BookFile: ") && e[0].contains("line 5: turn: "),
        "{text}"
    );
    Position::standard().parse_turn(&bestmove(&text)).unwrap();
    let text = talk(
        "setoption name BookFile value /nonexistent/book\nsetoption name OwnBook value maybe\n",
    );
    assert_eq!(errors(&text).len(), 2, "{text}");
    // A book for another board: no entries for 5x9, the engine searches.
    let other = TempBook::new(
        "other",
        "fanorona-book 1\nboard 5x5\nrules standard\nposition BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w\nturn b2-c3A 1 0 0 10 1 1\n",
    );
    let text = talk(&format!(
        "setoption name BookFile value {}\nposition startpos\ngo movetime 20\n",
        other.path()
    ));
    assert!(!text.contains("info string book"), "{text}");
    Position::standard().parse_turn(&bestmove(&text)).unwrap();
}
