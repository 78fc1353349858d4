//! The documentation's examples, run as tests: `cargo xtask docs --check` (and `--check-slow`).
//!
//! Three kinds of example are checked against the `fanorona` binary:
//!
//! - **Command examples**, fenced blocks with the info string `console`, in the style of
//!   `trycmd`: each `$ fanorona ARGS` line is run and what follows it, up to the next `$` line,
//!   is its expected standard output (`$ fanorona ARGS 2>&1`: standard output and standard error
//!   together, in the order they were written). A line `? N` right after the command expects
//!   exit status N (default 0). In expected output, `[..]` matches any text within a line and a
//!   line `...` any number of lines, for timings and other parts that change from run to run.
//! - **Protocol sessions**, fenced blocks with the info string `engine-session`: the lines
//!   `> TEXT` are sent to `fanorona engine` and the lines `< TEXT` are its expected answers
//!   (same wildcards). After `uci`, `isready` and `go` (without `infinite`) the next line is
//!   sent only once `uciok`, `readyok` or `bestmove` has come. Every turn the engine answers
//!   (`pv`, `bestmove`) and every turn of the block's own `position ... moves` and expected
//!   lines is checked legal by the rules (`fanorona show --play`, which plays through
//!   `fanorona-core`).
//! - **Counted numbers in tables** ([`COUNTED`]): a number in a table row (node counts,
//!   positions, expanded nodes: counted, not timed) is compared with the same number in the
//!   JSON output of the command that measures it.
//!
//! A block whose info string also has the word `slow` (`console slow`) runs only with
//! `--check-slow`; so do the slow rows of [`COUNTED`].
//!
//! Each command runs in a fresh temporary directory (so an example that writes a file writes
//! it there); a relative path among its arguments that names a file or folder of the
//! repository is copied into that directory first, so examples may read the repository's
//! files (`tables/certificates/7x5.cert`) under the names they have there.

use std::fmt;
use std::fs::{self, File};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

/// The files whose examples are checked, besides every `*.md` under `docs/` (which includes
/// the generated command pages of `docs/cli/`).
const TOP_LEVEL: [&str; 1] = ["README.md"];

/// How long one example command may run before it is stopped and fails.
pub const COMMAND_LIMIT: Duration = Duration::from_secs(300);

/// The same for the examples marked slow (7x5 by proof-number search takes six minutes on a
/// busy 2-core machine, the layered analysis of 7x3 fifteen).
pub const SLOW_LIMIT: Duration = Duration::from_secs(3600);

/// How long a protocol session waits for an answer it expects.
const ANSWER_LIMIT: Duration = Duration::from_secs(60);

/// Which examples to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// The examples not marked slow.
    Fast,
    /// Every example.
    All,
}

/// What a fenced block holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `$ fanorona ...` lines with their output.
    Console,
    /// A `fanorona engine` protocol session.
    Session,
}

/// One checked fenced block of a markdown file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// The line of its opening fence, from 1.
    pub line: usize,
    /// What it holds.
    pub kind: Kind,
    /// Marked `slow`.
    pub slow: bool,
    /// Its lines, without the fences.
    pub body: Vec<String>,
}

/// The `console` and `engine-session` blocks of a markdown text.
pub fn blocks(markdown: &str) -> Vec<Block> {
    let mut out = Vec::new();
    // The open fence: its line, what it holds (kind, slow) if checked, the fence, the body.
    type Open = (usize, Option<(Kind, bool)>, String, Vec<String>);
    let mut open: Option<Open> = None;
    for (i, line) in markdown.lines().enumerate() {
        let trimmed = line.trim_start();
        match &mut open {
            None => {
                if let Some(info) = trimmed.strip_prefix("```") {
                    let fence = "`".repeat(3 + info.chars().take_while(|&c| c == '`').count());
                    let words: Vec<&str> = info
                        .trim_start_matches('`')
                        .split(|c: char| c == ',' || c.is_whitespace())
                        .filter(|w| !w.is_empty())
                        .collect();
                    let kind = match words.first() {
                        Some(&"console") => Some(Kind::Console),
                        Some(&"engine-session") => Some(Kind::Session),
                        _ => None,
                    };
                    let slow = words.contains(&"slow");
                    open = Some((i + 1, kind.map(|k| (k, slow)), fence, Vec::new()));
                }
            }
            Some((start, kind, fence, body)) => {
                if trimmed.starts_with(fence.as_str()) && trimmed.trim_start_matches('`').is_empty()
                {
                    if let Some((kind, slow)) = *kind {
                        out.push(Block {
                            line: *start,
                            kind,
                            slow,
                            body: std::mem::take(body),
                        });
                    }
                    open = None;
                } else {
                    body.push(line.to_owned());
                }
            }
        }
    }
    out
}

/// One `$ fanorona ...` example of a console block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Example {
    /// The line of the `$`, from 1, in its file.
    pub line: usize,
    /// The command as written after `$ `.
    pub shown: String,
    /// The arguments after `fanorona`.
    pub args: Vec<String>,
    /// `2>&1`: standard error is part of the output.
    pub merge_stderr: bool,
    /// The expected exit status.
    pub status: i32,
    /// The expected output lines.
    pub expected: Vec<String>,
}

/// The examples of a console block that starts (its fence) at line `fence_line`.
pub fn examples(block: &Block) -> Result<Vec<Example>> {
    let mut out: Vec<Example> = Vec::new();
    for (i, line) in block.body.iter().enumerate() {
        let at = block.line + 1 + i;
        if let Some(command) = line.strip_prefix("$ ") {
            let mut words = split_words(command).with_context(|| format!("line {at}"))?;
            if words.first().map(String::as_str) != Some("fanorona") {
                bail!("line {at}: an example runs `fanorona`, not `{command}`");
            }
            words.remove(0);
            let merge_stderr = words.last().map(String::as_str) == Some("2>&1");
            if merge_stderr {
                words.pop();
            }
            if let Some(w) = words
                .iter()
                .find(|w| ["|", ">", "<", "&&", ";", "2>"].contains(&w.as_str()))
            {
                bail!("line {at}: `{w}`: an example is one `fanorona` command, without a shell");
            }
            out.push(Example {
                line: at,
                shown: command.to_owned(),
                args: words,
                merge_stderr,
                status: 0,
                expected: Vec::new(),
            });
        } else if let Some(last) = out.last_mut() {
            if let Some(status) = line.strip_prefix("? ")
                && last.expected.is_empty()
            {
                last.status = status
                    .trim()
                    .parse()
                    .with_context(|| format!("line {at}: `? N` needs an exit status"))?;
            } else {
                last.expected.push(line.trim_end().to_owned());
            }
        } else if !line.trim().is_empty() {
            bail!("line {at}: output before the first `$ fanorona` line");
        }
    }
    for e in &mut out {
        while e.expected.last().is_some_and(|l| l.is_empty()) {
            e.expected.pop();
        }
    }
    if out.is_empty() {
        bail!(
            "line {}: a console block without a `$ fanorona` line",
            block.line
        );
    }
    Ok(out)
}

/// The examples of a generated command page (`docs/cli/`, a command's `--help`) that show
/// their result: a line `  fanorona ARGS   # N ...` whose comment starts with a number N, which
/// must be the last line of the command's standard output (`fanorona perft 3   # 724 from the
/// standard start`).
pub fn help_examples(page: &str) -> Result<Vec<Example>> {
    let mut out = Vec::new();
    for (i, line) in page.lines().enumerate() {
        let Some(rest) = line.strip_prefix("  fanorona ") else {
            continue;
        };
        let Some((command, comment)) = rest.split_once("  #") else {
            continue;
        };
        let Some(number) = comment.split_whitespace().next() else {
            continue;
        };
        if !number.bytes().all(|b| b.is_ascii_digit() || b == b',') {
            continue;
        }
        let shown = format!("fanorona {}", command.trim_end());
        let args = split_words(command).with_context(|| format!("line {}", i + 1))?;
        out.push(Example {
            line: i + 1,
            shown,
            args,
            merge_stderr: false,
            status: 0,
            expected: vec!["...".to_owned(), number.replace(',', "")],
        });
    }
    Ok(out)
}

/// Splits a command line into words as a POSIX shell would for the simple cases examples use:
/// single and double quotes, backslash escapes outside single quotes.
pub fn split_words(line: &str) -> Result<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => bail!("unclosed ' in `{line}`"),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => bail!("unclosed \" in `{line}`"),
                        },
                        Some(c) => word.push(c),
                        None => bail!("unclosed \" in `{line}`"),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    word.push(c);
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// Whether one line of output matches one expected line, where `[..]` matches any text.
pub fn line_matches(expected: &str, actual: &str) -> bool {
    let expected = expected.trim_end();
    let actual = actual.trim_end();
    let mut parts = expected.split("[..]");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = actual.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// Whether the output lines match the expected ones, where a line `...` matches any number of
/// lines. On a mismatch, the error names the first expected line that could not be matched.
pub fn lines_match(expected: &[String], actual: &[String]) -> std::result::Result<(), String> {
    // Dynamic programming over (expected, actual) positions: `ok[i][j]`: expected[i..]
    // matches actual[j..].
    let (n, m) = (expected.len(), actual.len());
    let mut ok = vec![vec![false; m + 1]; n + 1];
    ok[n][m] = true;
    for i in (0..n).rev() {
        for j in (0..=m).rev() {
            ok[i][j] = if expected[i].trim() == "..." {
                ok[i + 1][j] || (j < m && ok[i][j + 1])
            } else {
                j < m && line_matches(&expected[i], &actual[j]) && ok[i + 1][j + 1]
            };
        }
    }
    if ok[0][0] {
        return Ok(());
    }
    // Where it goes wrong: the longest prefix of expected lines that matches a prefix of the
    // output, line for line.
    let mut i = 0;
    let mut j = 0;
    while i < n && j < m && expected[i].trim() != "..." && line_matches(&expected[i], &actual[j]) {
        i += 1;
        j += 1;
    }
    Err(match (expected.get(i), actual.get(j)) {
        (Some(e), Some(a)) => format!("expected line {}: {e:?}\n      got: {a:?}", i + 1),
        (Some(e), None) => format!("expected line {} {e:?}, but the output ended", i + 1),
        (None, Some(a)) => format!("more output than expected: {a:?}"),
        (None, None) => "the output does not match".to_owned(),
    })
}

/// A failed example: where it is and what went wrong.
#[derive(Debug)]
pub struct Failure {
    /// `FILE:LINE`.
    pub place: String,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.place, self.message)
    }
}

/// What the check found.
#[derive(Debug, Default)]
pub struct Report {
    /// Examples (commands, sessions, table rows) that ran and matched.
    pub passed: usize,
    /// Slow ones left out.
    pub skipped_slow: usize,
    /// Those that failed.
    pub failures: Vec<Failure>,
}

/// Runs `fanorona`-using examples: `program` stands for `fanorona`, `repo` is where relative
/// paths of arguments are looked up.
#[derive(Clone, Debug)]
pub struct Runner {
    /// The program that `fanorona` in the examples means.
    pub program: PathBuf,
    /// The repository root.
    pub repo: PathBuf,
    /// How long one command may run ([`COMMAND_LIMIT`]; slow examples get [`SLOW_LIMIT`]).
    pub limit: Duration,
}

impl Runner {
    /// Runs one command in a fresh directory: its output (with standard error when
    /// `merge_stderr`) and exit status.
    pub fn run(&self, args: &[String], merge_stderr: bool) -> Result<(String, i32)> {
        let dir = tempfile::tempdir()?;
        for arg in args {
            self.copy_in(arg, dir.path())?;
        }
        let out_path = dir.path().join(".output");
        let out = File::create(&out_path)?;
        let err: Stdio = if merge_stderr {
            out.try_clone()?.into()
        } else {
            Stdio::null()
        };
        let mut child = Command::new(&self.program)
            .args(args)
            .current_dir(dir.path())
            .env("COLUMNS", "100")
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .with_context(|| format!("starting {}", self.program.display()))?;
        let status = wait_with_limit(&mut child, self.limit)?;
        let text = fs::read_to_string(&out_path).context("the output is not UTF-8")?;
        Ok((text, status))
    }

    /// Copies a relative path of the repository named by an argument (or by the value of a
    /// `--name=value` argument) into `dir`, where the command runs.
    fn copy_in(&self, arg: &str, dir: &Path) -> Result<()> {
        let value = arg.split_once('=').map_or(arg, |(_, v)| v);
        for candidate in [arg, value] {
            if candidate.is_empty()
                || candidate.starts_with('-')
                || Path::new(candidate).is_absolute()
                || candidate.contains("..")
            {
                continue;
            }
            let from = self.repo.join(candidate);
            let first = Path::new(candidate).components().next();
            let is_target = first.is_some_and(|c| c.as_os_str() == "target");
            if from.exists() && !is_target {
                copy_tree(&from, &dir.join(candidate))?;
            }
        }
        Ok(())
    }

    /// Checks one example.
    pub fn check(&self, example: &Example) -> std::result::Result<(), String> {
        let (output, status) = self
            .run(&example.args, example.merge_stderr)
            .map_err(|e| format!("{e:#}"))?;
        let actual: Vec<String> = output.lines().map(str::to_owned).collect();
        let mut problems = Vec::new();
        if status != example.status {
            problems.push(format!("exit status {status}, expected {}", example.status));
        }
        if let Err(why) = lines_match(&example.expected, &actual) {
            problems.push(why);
        }
        if problems.is_empty() {
            return Ok(());
        }
        let mut message = format!("`{}`: {}", example.shown, problems.join("; "));
        message += "\n    the output was:";
        for line in actual.iter().take(40) {
            message += &format!("\n      {line}");
        }
        if actual.len() > 40 {
            message += &format!("\n      ... ({} more lines)", actual.len() - 40);
        }
        Err(message)
    }

    /// Whether `turns` are legal, one after the other, from the start of `board` or from
    /// `fen`: `fanorona show` plays them through the rules of `fanorona-core`.
    pub fn legal(
        &self,
        fen: Option<&str>,
        board: Option<&str>,
        turns: &[String],
    ) -> std::result::Result<(), String> {
        let mut args = vec!["show".to_owned()];
        if let Some(fen) = fen {
            args.extend(["--fen".to_owned(), fen.to_owned()]);
        } else if let Some(board) = board {
            args.extend(["--board".to_owned(), board.to_owned()]);
        }
        if !turns.is_empty() {
            args.extend(["--play".to_owned(), turns.join(" ")]);
        }
        match self.run(&args, true) {
            Ok((_, 0)) => Ok(()),
            Ok((output, _)) => Err(format!(
                "not legal: {} {}: {}",
                fen.unwrap_or("the start"),
                turns.join(" "),
                output.trim()
            )),
            Err(e) => Err(format!("{e:#}")),
        }
    }

    /// Runs a protocol session against `fanorona engine` and checks its answers and turns.
    pub fn session(&self, block: &Block) -> std::result::Result<(), String> {
        let mut sent = Vec::new();
        let mut expected = Vec::new();
        for line in &block.body {
            if let Some(text) = line.strip_prefix("> ") {
                sent.push(text.trim_end().to_owned());
            } else if let Some(text) = line.strip_prefix("< ") {
                expected.push(text.trim_end().to_owned());
            } else if line.trim_end() == "<" || line.trim_end() == ">" {
                return Err(format!("`{line}`: an empty line is not sent nor expected"));
            } else if !line.trim().is_empty() {
                return Err(format!("`{line}`: session lines start with `> ` or `< `"));
            }
        }
        let answers = self.converse(&sent)?;
        lines_match(&expected, &answers)?;
        self.session_turns_legal(&sent, &answers, &expected)
    }

    /// Sends the lines to `fanorona engine`, waiting for the answer of those that have one,
    /// and returns everything it answered.
    fn converse(&self, sent: &[String]) -> std::result::Result<Vec<String>, String> {
        let mut child = Command::new(&self.program)
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("starting {} engine: {e}", self.program.display()))?;
        let stdout = child.stdout.take().ok_or("no standard output")?;
        let (tx, rx) = mpsc::channel::<String>();
        let reader = thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut answers = Vec::new();
        let mut result = Ok(());
        {
            let mut stdin = child.stdin.take().ok_or("no standard input")?;
            for line in sent {
                if let Err(e) = writeln!(stdin, "{line}").and_then(|()| stdin.flush()) {
                    result = Err(format!("sending `{line}`: {e}"));
                    break;
                }
                let word = line.split_whitespace().next().unwrap_or("");
                let awaited = match word {
                    "uci" => Some("uciok"),
                    "isready" => Some("readyok"),
                    "go" if !line.split_whitespace().any(|w| w == "infinite") => Some("bestmove"),
                    _ => None,
                };
                if let Some(awaited) = awaited
                    && let Err(e) = wait_for(&rx, awaited, &mut answers)
                {
                    result = Err(format!("after `{line}`: {e}"));
                    break;
                }
            }
            // Closing standard input ends the session like `quit`.
        }
        let deadline = Instant::now() + ANSWER_LIMIT;
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match rx.recv_timeout(left) {
                Ok(line) => answers.push(line),
                Err(_) => break,
            }
        }
        let ended = wait_with_limit(&mut child, Duration::from_secs(5));
        let _ = reader.join();
        result?;
        match ended {
            Ok(0) => Ok(answers),
            Ok(status) => Err(format!("`fanorona engine` ended with status {status}")),
            Err(e) => Err(format!("{e:#}")),
        }
    }

    /// Every turn of a session legal: those the block sends in `position ... moves`, the
    /// engine's `pv` and `bestmove` turns, and those of the expected answers.
    fn session_turns_legal(
        &self,
        sent: &[String],
        answers: &[String],
        expected: &[String],
    ) -> std::result::Result<(), String> {
        let mut board: Option<String> = None;
        let mut position: Option<(Option<String>, Vec<String>)> = None;
        // The position each `go` searched, in order.
        let mut searched = Vec::new();
        for line in sent {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["setoption", "name", name, "value", value]
                    if name.eq_ignore_ascii_case("board") =>
                {
                    board = Some((*value).to_owned());
                }
                ["position", rest @ ..] => {
                    let at = rest.iter().position(|w| *w == "moves");
                    let (head, moves) = rest.split_at(at.unwrap_or(rest.len()));
                    let moves: Vec<String> =
                        moves.iter().skip(1).map(|m| (*m).to_owned()).collect();
                    let fen = match head {
                        ["startpos"] => None,
                        ["fen", fen @ ..] => Some(fen.join(" ")),
                        _ => return Err(format!("`{line}`: not a position command")),
                    };
                    self.legal(fen.as_deref(), board.as_deref(), &moves)
                        .map_err(|e| format!("`{line}`: {e}"))?;
                    position = Some((fen, moves));
                }
                ["go", ..] => searched.push(position.clone().unwrap_or((None, Vec::new()))),
                _ => {}
            }
        }
        let answer_turns = |lines: &[String]| -> Vec<(usize, Vec<String>)> {
            // (index of the search, turns from its position).
            let mut out = Vec::new();
            let mut search = 0;
            for line in lines {
                let words: Vec<&str> = line.split_whitespace().collect();
                if let Some(at) = words.iter().position(|w| *w == "pv") {
                    let turns: Vec<String> = words[at + 1..]
                        .iter()
                        .take_while(|w| !w.contains("[..]") && **w != "...")
                        .map(|w| (*w).to_owned())
                        .collect();
                    out.push((search, turns));
                }
                if words.first() == Some(&"bestmove") {
                    if let Some(turn) = words.get(1)
                        && *turn != "(none)"
                        && !turn.contains("[..]")
                    {
                        out.push((search, vec![(*turn).to_owned()]));
                    }
                    search += 1;
                }
            }
            out
        };
        for (search, turns) in answer_turns(answers)
            .into_iter()
            .chain(answer_turns(expected))
        {
            if turns.is_empty() {
                continue;
            }
            let Some((fen, moves)) = searched.get(search) else {
                return Err(format!(
                    "a `bestmove` or `pv` without a `go`: {}",
                    turns.join(" ")
                ));
            };
            let mut all = moves.clone();
            all.extend(turns);
            self.legal(fen.as_deref(), board.as_deref(), &all)?;
        }
        Ok(())
    }
}

/// Waits for a line that starts with `word`, keeping every line read.
fn wait_for(
    rx: &mpsc::Receiver<String>,
    word: &str,
    answers: &mut Vec<String>,
) -> std::result::Result<(), String> {
    let deadline = Instant::now() + ANSWER_LIMIT;
    loop {
        let left = deadline
            .checked_duration_since(Instant::now())
            .ok_or_else(|| format!("no `{word}` within {} s", ANSWER_LIMIT.as_secs()))?;
        match rx.recv_timeout(left) {
            Ok(line) => {
                let done = line.split_whitespace().next() == Some(word);
                answers.push(line);
                if done {
                    return Ok(());
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                return Err(format!("no `{word}` within {} s", ANSWER_LIMIT.as_secs()));
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(format!("the engine ended before `{word}`"));
            }
        }
    }
}

/// Waits for a child to end, killing it after `limit`; its exit status (-1 for a signal).
fn wait_with_limit(child: &mut Child, limit: Duration) -> Result<i32> {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(status.code().unwrap_or(-1));
        }
        if started.elapsed() >= limit {
            let _ = child.kill();
            let _ = child.wait();
            bail!(
                "did not finish within {} s and was stopped",
                limit.as_secs()
            );
        }
        thread::sleep(Duration::from_millis(10));
    }
}

/// Copies a file or a folder (recursively).
fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    if let Some(parent) = to.parent() {
        fs::create_dir_all(parent)?;
    }
    if from.is_dir() {
        fs::create_dir_all(to)?;
        for entry in fs::read_dir(from)? {
            let entry = entry?;
            copy_tree(&entry.path(), &to.join(entry.file_name()))?;
        }
    } else {
        fs::copy(from, to).with_context(|| format!("copying {}", from.display()))?;
    }
    Ok(())
}

/// A number of a table row that a command counts: the row of `file` that starts with
/// `row`, the number in it written as `pattern` (`{}` stands for the number, with thousands
/// separators or not), and the command whose JSON output holds it at `pointer`.
#[derive(Clone, Copy, Debug)]
pub struct Counted {
    /// The markdown file, relative to the repository.
    pub file: &'static str,
    /// How the table row starts.
    pub row: &'static str,
    /// The command's arguments (after `fanorona`); it prints one JSON object.
    pub args: &'static [&'static str],
    /// Pairs (JSON pointer into the output, pattern of the number in the row).
    pub numbers: &'static [(&'static str, &'static str)],
    /// Too slow for CI: runs with `--check-slow` only.
    pub slow: bool,
}

/// The counted numbers of the documentation's tables (see [`Counted`]).
pub const COUNTED: &[Counted] = &[
    Counted {
        file: "docs/solver.md",
        row: "| 3x3 |",
        args: &["solve", "--board", "3x3", "--method", "both", "--json"],
        numbers: &[
            ("/retro/states", "{} positions"),
            ("/retro/edges", "{} edges"),
            ("/distance", "| {} |"),
            ("/pn/proof_size", "proof {} nodes"),
            ("/pn/expanded", "nodes, {} expanded"),
        ],
        slow: false,
    },
    Counted {
        file: "docs/solver.md",
        row: "| 3x5 |",
        args: &["solve", "--board", "3x5", "--method", "both", "--json"],
        numbers: &[
            ("/retro/states", "{} positions"),
            ("/retro/edges", "{} edges"),
            ("/distance", "| {} |"),
            ("/pn/proof_size", "proof {} nodes"),
            ("/pn/expanded", "nodes, {} expanded"),
        ],
        slow: false,
    },
    Counted {
        file: "docs/solver.md",
        row: "| 5x3 |",
        args: &["solve", "--board", "5x3", "--method", "both", "--json"],
        numbers: &[
            ("/retro/states", "{} positions"),
            ("/retro/edges", "{} edges"),
            ("/distance", "| {} |"),
            ("/pn/proof_size", "proof {} nodes"),
            ("/pn/expanded", "nodes, {} expanded"),
        ],
        slow: false,
    },
    Counted {
        file: "docs/solver.md",
        row: "| 7x3 |",
        args: &["solve", "--board", "7x3", "--method", "pn", "--json"],
        numbers: &[
            ("/pn/proof_size", "proof {} nodes"),
            ("/pn/expanded", "nodes, {} expanded"),
        ],
        slow: false,
    },
    Counted {
        file: "docs/solver.md",
        row: "| 7x3 |",
        args: &[
            "solve", "--board", "7x3", "--prove", "white", "--dfpn", "--json",
        ],
        numbers: &[("/expanded", "df-pn: {} expanded")],
        slow: false,
    },
    Counted {
        file: "docs/solver.md",
        row: "| 3x7 |",
        args: &["solve", "--board", "3x7", "--method", "pn", "--json"],
        numbers: &[
            ("/pn/proof_size", "proof {} nodes"),
            ("/pn/expanded", "nodes, {} expanded"),
        ],
        slow: false,
    },
    Counted {
        file: "docs/solver.md",
        row: "| 3x7 |",
        args: &[
            "solve", "--board", "3x7", "--prove", "white", "--dfpn", "--json",
        ],
        numbers: &[("/expanded", "df-pn: {} expanded")],
        slow: false,
    },
    Counted {
        file: "docs/solver.md",
        row: "| 7x3 |",
        args: &[
            "solve",
            "--board",
            "7x3",
            "--method",
            "layered",
            "--max-memory",
            "10G",
            "--json",
        ],
        numbers: &[
            ("/layered/states", "{} positions in"),
            ("/layered/classes", "in {} classes"),
            ("/layered/largest_class", "(largest {})"),
            ("/layered/edges", "{} paika edges"),
        ],
        slow: true,
    },
    Counted {
        file: "docs/solver.md",
        row: "| 3x7 |",
        args: &[
            "solve",
            "--board",
            "3x7",
            "--method",
            "layered",
            "--max-memory",
            "10G",
            "--json",
        ],
        numbers: &[
            ("/layered/states", "{} positions in"),
            ("/layered/classes", "in {} classes"),
            ("/layered/largest_class", "(largest {})"),
            ("/layered/edges", "{} paika edges"),
        ],
        slow: true,
    },
    Counted {
        file: "docs/solver.md",
        row: "| 5x5 |",
        args: &["solve", "--board", "5x5", "--method", "pn", "--json"],
        numbers: &[
            ("/pn/win_search/expanded", "| {} + "),
            ("/pn/loss_search/expanded", " + {} expanded"),
        ],
        slow: false,
    },
    Counted {
        file: "docs/solver.md",
        row: "| 3x9 |",
        args: &[
            "solve", "--board", "3x9", "--prove", "white", "--dfpn", "--json",
        ],
        numbers: &[
            ("/expanded", "| {} expanded"),
            ("/entries", "{} table entries"),
            ("/proof_length", "≤ {} (proof length)"),
        ],
        slow: false,
    },
    Counted {
        file: "docs/solver.md",
        row: "| 7x5 |",
        args: &["solve", "--board", "7x5", "--method", "pn", "--json"],
        numbers: &[
            ("/pn/proof_size", "proof {} nodes"),
            ("/pn/expanded", "nodes, {} expanded"),
        ],
        slow: true,
    },
    Counted {
        file: "docs/solver.md",
        row: "| 9x3 |",
        args: &[
            "solve", "--board", "9x3", "--prove", "white", "--dfpn", "--json",
        ],
        numbers: &[
            ("/expanded", "| {} expanded"),
            ("/entries", "{} table entries"),
            ("/proof_length", "≤ {} (proof length)"),
        ],
        slow: true,
    },
    Counted {
        file: "docs/solver.md",
        row: "| 9x3 |",
        args: &["solve", "--board", "9x3", "--prove", "black", "--json"],
        numbers: &[("/expanded", "disproved ({} expanded")],
        slow: true,
    },
    Counted {
        file: "docs/solver.md",
        row: "| 5x7 |",
        args: &["solve", "--board", "5x7", "--prove", "black", "--json"],
        numbers: &[("/expanded", "disproved: {} expanded")],
        slow: true,
    },
];

/// Finds the number written as `pattern` in `row`, reading `{}` as digits with optional `,`.
pub fn number_in(row: &str, pattern: &str) -> Option<u64> {
    let (before, after) = pattern.split_once("{}")?;
    let is_part = |c: char| c.is_ascii_digit() || c == ',';
    for (start, c) in row.char_indices() {
        if !c.is_ascii_digit()
            || !row[..start].ends_with(before)
            || row[..start].chars().next_back().is_some_and(is_part)
        {
            continue;
        }
        let digits: String = row[start..].chars().take_while(|&c| is_part(c)).collect();
        let digits = digits.trim_end_matches(',');
        if row[start + digits.len()..].starts_with(after) {
            return digits.replace(',', "").parse().ok();
        }
    }
    None
}

impl Runner {
    /// Checks one table row's counted numbers against its command.
    pub fn counted(&self, counted: &Counted, text: &str) -> std::result::Result<(), String> {
        let row = text
            .lines()
            .find(|l| l.starts_with(counted.row))
            .ok_or_else(|| format!("no table row starts with `{}`", counted.row))?;
        let args: Vec<String> = counted.args.iter().map(|a| (*a).to_owned()).collect();
        let shown = format!("fanorona {}", args.join(" "));
        let (output, status) = self
            .run(&args, false)
            .map_err(|e| format!("`{shown}`: {e:#}"))?;
        if status != 0 {
            return Err(format!("`{shown}` ended with status {status}"));
        }
        let json: serde_json::Value = serde_json::from_str(output.trim())
            .map_err(|e| format!("`{shown}` did not print one JSON object: {e}"))?;
        let mut problems = Vec::new();
        for (pointer, pattern) in counted.numbers {
            let measured = json.pointer(pointer).and_then(serde_json::Value::as_u64);
            let documented = number_in(row, pattern);
            match (documented, measured) {
                (Some(d), Some(m)) if d == m => {}
                (Some(d), Some(m)) => problems.push(format!(
                    "`{pattern}` is {d} in the table, {m} by `{shown}` ({pointer})"
                )),
                (None, _) => problems.push(format!("`{pattern}`: no such number in the row")),
                (_, None) => problems.push(format!("`{shown}` printed no number at {pointer}")),
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "table row `{}`: {}",
                counted.row,
                problems.join("; ")
            ))
        }
    }
}

/// The markdown files checked: `README.md` and every `*.md` under `docs/`, sorted.
pub fn files(repo: &Path) -> Result<Vec<PathBuf>> {
    let mut out: Vec<PathBuf> = TOP_LEVEL.iter().map(|f| repo.join(f)).collect();
    let mut stack = vec![repo.join("docs")];
    let mut found = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))? {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                found.push(path);
            }
        }
    }
    found.sort();
    out.extend(found);
    Ok(out)
}

/// Checks every example of the given markdown files (and, for the repository's files, the
/// counted numbers of [`COUNTED`]), printing one line per example.
pub fn check(
    runner: &Runner,
    files: &[PathBuf],
    counted: &[Counted],
    which: Which,
) -> Result<Report> {
    let mut report = Report::default();
    let slow_runner = Runner {
        limit: SLOW_LIMIT.max(runner.limit),
        ..runner.clone()
    };
    let rel = |p: &Path| {
        p.strip_prefix(&runner.repo)
            .unwrap_or(p)
            .to_string_lossy()
            .replace('\\', "/")
    };
    for file in files {
        let text =
            fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
        let name = rel(file);
        let generated = text.starts_with("<!-- Generated by `cargo xtask docs`");
        let from_help = if generated {
            help_examples(&text)?
        } else {
            Vec::new()
        };
        for example in from_help {
            let place = format!("{name}:{}", example.line);
            let started = Instant::now();
            match runner.check(&example) {
                Ok(()) => {
                    eprintln!("ok    {place} `{}` ({:.1} s)", example.shown, secs(started));
                    report.passed += 1;
                }
                Err(message) => {
                    eprintln!("FAIL  {place} `{}`", example.shown);
                    report.failures.push(Failure { place, message });
                }
            }
        }
        for block in blocks(&text) {
            if block.slow && which == Which::Fast {
                report.skipped_slow += 1;
                continue;
            }
            match block.kind {
                Kind::Session => {
                    let started = Instant::now();
                    let place = format!("{name}:{}", block.line);
                    let runner = if block.slow { &slow_runner } else { runner };
                    match runner.session(&block) {
                        Ok(()) => {
                            eprintln!("ok    {place} (engine session, {:.1} s)", secs(started));
                            report.passed += 1;
                        }
                        Err(message) => {
                            eprintln!("FAIL  {place} (engine session)");
                            report.failures.push(Failure { place, message });
                        }
                    }
                }
                Kind::Console => {
                    let examples = match examples(&block) {
                        Ok(examples) => examples,
                        Err(e) => {
                            report.failures.push(Failure {
                                place: format!("{name}:{}", block.line),
                                message: format!("{e:#}"),
                            });
                            continue;
                        }
                    };
                    let runner = if block.slow { &slow_runner } else { runner };
                    for example in examples {
                        let place = format!("{name}:{}", example.line);
                        let started = Instant::now();
                        match runner.check(&example) {
                            Ok(()) => {
                                eprintln!(
                                    "ok    {place} `{}` ({:.1} s)",
                                    example.shown,
                                    secs(started)
                                );
                                report.passed += 1;
                            }
                            Err(message) => {
                                eprintln!("FAIL  {place} `{}`", example.shown);
                                report.failures.push(Failure { place, message });
                            }
                        }
                    }
                }
            }
        }
    }
    for c in counted {
        if c.slow && which == Which::Fast {
            report.skipped_slow += 1;
            continue;
        }
        let path = runner.repo.join(c.file);
        let text = fs::read_to_string(&path).with_context(|| format!("reading {}", c.file))?;
        let place = format!("{} `{}`", c.file, c.row);
        let started = Instant::now();
        let runner = if c.slow { &slow_runner } else { runner };
        match runner.counted(c, &text) {
            Ok(()) => {
                eprintln!("ok    {place} (counted numbers, {:.1} s)", secs(started));
                report.passed += 1;
            }
            Err(message) => {
                eprintln!("FAIL  {place} (counted numbers)");
                report.failures.push(Failure { place, message });
            }
        }
    }
    Ok(report)
}

fn secs(started: Instant) -> f64 {
    started.elapsed().as_secs_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_console_and_session_blocks_with_their_marks() {
        let md = "text\n```console\n$ fanorona perft 1\n5\n```\n\n```sh\nfanorona x\n```\n\
                  ````console slow\n$ fanorona perft 9\n```\nnot the end\n````\n```engine-session\n> uci\n< uciok\n```\n";
        let found = blocks(md);
        assert_eq!(found.len(), 3);
        assert_eq!(found[0].line, 2);
        assert_eq!(found[0].kind, Kind::Console);
        assert!(!found[0].slow);
        assert_eq!(found[0].body, ["$ fanorona perft 1", "5"]);
        assert!(found[1].slow);
        assert_eq!(found[1].body, ["$ fanorona perft 9", "```", "not the end"]);
        assert_eq!(found[2].kind, Kind::Session);
        assert_eq!(found[2].line, 15);
    }

    #[test]
    fn reads_examples_with_status_and_stderr() {
        let block = Block {
            line: 10,
            kind: Kind::Console,
            slow: false,
            body: [
                "$ fanorona show --play \"f2-e3A d5-d4A\"",
                "a",
                "",
                "$ fanorona perft x 2>&1",
                "? 2",
                "error: [..]",
                "",
            ]
            .map(String::from)
            .to_vec(),
        };
        let found = examples(&block).unwrap();
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].line, 11);
        assert_eq!(found[0].args, ["show", "--play", "f2-e3A d5-d4A"]);
        assert_eq!(found[0].expected, ["a"]);
        assert_eq!(found[0].status, 0);
        assert!(found[1].merge_stderr);
        assert_eq!(found[1].args, ["perft", "x"]);
        assert_eq!(found[1].status, 2);
        assert_eq!(found[1].expected, ["error: [..]"]);
        let shell = Block {
            body: vec!["$ fanorona perft 3 | head".to_owned()],
            ..block.clone()
        };
        assert!(
            examples(&shell)
                .unwrap_err()
                .to_string()
                .contains("without a shell")
        );
        let other = Block {
            body: vec!["$ ls".to_owned()],
            ..block
        };
        assert!(
            examples(&other)
                .unwrap_err()
                .to_string()
                .contains("line 11")
        );
    }

    #[test]
    fn reads_the_results_shown_in_help_examples() {
        let page = "<!-- Generated by `cargo xtask docs` -->\nExamples:\n  fanorona perft 3                # 724 from the start\n  fanorona show                   # the standard start\n  fanorona perft 5 --json  # 431,852\n";
        let found = help_examples(page).unwrap();
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].line, 3);
        assert_eq!(found[0].args, ["perft", "3"]);
        assert_eq!(found[0].expected, ["...", "724"]);
        assert_eq!(found[1].args, ["perft", "5", "--json"]);
        assert_eq!(found[1].expected, ["...", "431852"]);
    }

    #[test]
    fn splits_words_like_a_shell() {
        assert_eq!(
            split_words(r#"a 'b c' "d \"e\"" f\ g --x="1 2""#).unwrap(),
            ["a", "b c", "d \"e\"", "f g", "--x=1 2"]
        );
        assert!(split_words("'open").is_err());
    }

    #[test]
    fn wildcards_match_within_and_across_lines() {
        assert!(line_matches(
            "perft 3: 724 in [..] s",
            "perft 3: 724 in 0.01 s"
        ));
        assert!(line_matches("[..]", ""));
        assert!(line_matches("a[..]b[..]c", "aXbYc"));
        assert!(!line_matches("a[..]b[..]c", "aXcYb"));
        assert!(!line_matches("724", "7245"));
        assert!(!line_matches("ab[..]ba", "aba"));
        assert!(line_matches("x  ", "x"));
        let lines = |s: &[&str]| s.iter().map(|l| (*l).to_owned()).collect::<Vec<_>>();
        assert!(lines_match(&lines(&["a", "...", "z"]), &lines(&["a", "b", "c", "z"])).is_ok());
        assert!(lines_match(&lines(&["a", "...", "z"]), &lines(&["a", "z"])).is_ok());
        assert!(lines_match(&lines(&["...", "b", "..."]), &lines(&["a", "b", "c"])).is_ok());
        let err = lines_match(&lines(&["a", "b"]), &lines(&["a", "c"])).unwrap_err();
        assert!(err.contains("expected line 2: \"b\""), "{err}");
        assert!(lines_match(&lines(&["a"]), &lines(&["a", "b"])).is_err());
        assert!(lines_match(&lines(&["a", "b"]), &lines(&["a"])).is_err());
    }

    #[test]
    fn finds_numbers_of_table_rows() {
        let row = "| 3x3 | win | c2-b2A | 11 | retro | 1,012 positions, 2,221 edges | pn: win (proof 34 nodes, 47 expanded) |";
        assert_eq!(number_in(row, "{} positions"), Some(1012));
        assert_eq!(number_in(row, "{} edges"), Some(2221));
        assert_eq!(number_in(row, "| {} |"), Some(11));
        assert_eq!(number_in(row, "proof {} nodes"), Some(34));
        assert_eq!(number_in(row, "{} expanded"), Some(47));
        assert_eq!(number_in(row, "{} stones"), None);
    }

    /// A stand-in for `fanorona`: a program every machine with Rust has, whose output is
    /// known in part: `cargo --version` prints `cargo 1.x.y (...)`.
    fn stand_in() -> Runner {
        Runner {
            program: PathBuf::from(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())),
            repo: crate::project_root(),
            limit: COMMAND_LIMIT,
        }
    }

    #[test]
    fn a_wrong_example_output_fails_the_check_and_a_right_one_passes() {
        let dir = tempfile::tempdir().unwrap();
        let page = dir.path().join("page.md");
        fs::write(
            &page,
            "# A page\n\n```console\n$ fanorona --version\ncargo 1.[..]\n```\n\n\
             ```console\n$ fanorona --version\nfanorona 9.9.9\n```\n\n\
             ```console slow\n$ fanorona --version\nnever run\n```\n",
        )
        .unwrap();
        let runner = stand_in();
        let report = check(&runner, std::slice::from_ref(&page), &[], Which::Fast).unwrap();
        assert_eq!(report.passed, 1);
        assert_eq!(report.skipped_slow, 1);
        assert_eq!(report.failures.len(), 1, "{:?}", report.failures);
        let failure = report.failures[0].to_string();
        assert!(failure.contains("page.md:9"), "{failure}");
        assert!(
            failure.contains("expected line 1: \"fanorona 9.9.9\""),
            "{failure}"
        );
        let report = check(&runner, &[page], &[], Which::All).unwrap();
        assert_eq!(report.failures.len(), 2);
    }

    #[test]
    fn an_unexpected_exit_status_fails() {
        let runner = stand_in();
        let example = Example {
            line: 1,
            shown: "fanorona no-such-command".to_owned(),
            args: vec!["no-such-command-of-cargo".to_owned()],
            merge_stderr: true,
            status: 0,
            expected: vec!["...".to_owned()],
        };
        let err = runner.check(&example).unwrap_err();
        assert!(err.contains("exit status 101, expected 0"), "{err}");
    }

    #[test]
    fn the_documentation_has_examples_in_every_kind() {
        let repo = crate::project_root();
        let mut kinds = (0, 0);
        for file in files(&repo).unwrap() {
            for block in blocks(&fs::read_to_string(&file).unwrap()) {
                match block.kind {
                    Kind::Console => {
                        examples(&block).unwrap_or_else(|e| panic!("{}: {e:#}", file.display()));
                        kinds.0 += 1;
                    }
                    Kind::Session => kinds.1 += 1,
                }
            }
        }
        assert!(kinds.0 >= 2 && kinds.1 >= 1, "{kinds:?}");
        for c in COUNTED {
            let text = fs::read_to_string(repo.join(c.file)).unwrap();
            let row = text.lines().find(|l| l.starts_with(c.row)).unwrap();
            for (_, pattern) in c.numbers {
                assert!(number_in(row, pattern).is_some(), "{} {pattern}", c.row);
            }
        }
    }
}
