//! The help texts as printed: paragraphs reflowed to the terminal's width, and each command's
//! guarantees (what it writes, when, and what it never does) at the end of its long help.

use clap::Command;

/// What every command promises about standard output and interruptions.
const COMMON: &str = "Standard output: a closed pipe (such as `| head`) ends the command \
quietly with status 141; any other write error (a full disk) is one error message and status 2. \
It never panics on bad input or a failed write. Ctrl-C or SIGTERM removes the temporary files of \
unfinished outputs and exits with status 130. A run killed outright (SIGKILL, the OOM killer, a \
power cut) never leaves a half-written output under its name; the temporary file it may leave \
(`.NAME.fanorona-tmp-PID-N`) is removed by the next run that writes NAME. An output file that \
exists and is a device or a named pipe (such as /dev/null) is written in place, never replaced.";

/// The guarantees of one command, or `None` for a command this table does not know.
pub fn guarantees(command: &str) -> Option<&'static str> {
    Some(match command {
        "perft" | "divide" | "bench" => {
            "Writes no file: the result goes to standard output, timing and progress to \
             standard error."
        }
        "tune" => {
            "Only reads the FGN files; writes no file: the fitted weights go to standard \
             output. A game that cannot be read or replayed is skipped and counted, the others \
             still count."
        }
        "book" => {
            "Its subcommands' guarantees are at the end of their help: `book build` writes its \
             book whole (a temporary file renamed into place) or not at all, and only reads \
             its records; `book show` writes no file."
        }
        "book build" => {
            "Only reads the --records files. The book is written to a temporary file next to \
             --out, made before the first search (a file that cannot be written is known at \
             once), and renamed into place when complete: whole or not at all; an error or \
             Ctrl-C leaves it as it was. --games-out is a journal: each self-play game is \
             handed to the disk as it ends and survives an interruption, for --resume. An \
             output that is one of the inputs is refused before anything is read. The same \
             arguments give the same book whatever --jobs and the machine's load (searches \
             are limited by nodes, never by time)."
        }
        "book show" => {
            "Writes no file: the turns go to standard output. A book file that cannot be read \
             is an error naming the file and line, status 2."
        }
        "nnue" => {
            "Its subcommands' guarantees are at the end of their help: `nnue label` and \
             `nnue train` write their output files whole (a temporary file renamed into \
             place) or not at all, and only read their inputs."
        }
        "nnue label" => {
            "Only reads the FGN files. --out and --valid-out are each written to a temporary \
             file next to them, made before the first search (a file that cannot be written \
             is known at once), and renamed into place when every game is labelled: whole or \
             not at all; an error, a game that cannot be read or replayed, or Ctrl-C leaves \
             them as they were. An output that is one of the inputs is refused before \
             anything is read. The records follow the games' order whatever --threads. Every \
             worker's table (--hash) is allocated before the first game: one that cannot be \
             had is an error at once, naming --hash. Threads the system cannot give (a process \
             or an address-space limit) are not started: the labelling goes on with those \
             that could be had, with a note on standard error. A worker that fails ends the \
             command with an error, never a hang. Killed outright (SIGKILL, a power cut), it \
             leaves the outputs as they were."
        }
        "nnue train" => {
            "Only reads the data files; a damaged one is an error naming the file, the \
             record and its byte offset. NET is written to a temporary file next to it, made \
             before training, and renamed into place when the network is complete; an error \
             or Ctrl-C leaves NET as it was. The same data and options give the same NET, \
             byte for byte."
        }
        "solve" => {
            "Writes no file but with --tables DIR or --certificate FILE. Each table file is \
             written whole in a temporary folder in DIR, made before the work, and renamed \
             into DIR as soon as its class is solved: an error or Ctrl-C keeps the classes \
             finished (a rerun resumes after them), never half a file, and removes the \
             temporary folder; each table file is on the disk (fsync) before its rename, so \
             that a SIGKILL or a power cut keeps the classes finished too. The certificate \
             goes to a temporary file next to FILE, made before the search, and renamed over \
             FILE only when complete. --probe and \
             --check-tables only read; --check-tables says `invalid` (status 1) only of \
             tables it could read, a missing or unreadable file is status 2. A --checkpoint \
             FILE is written whole (a temporary file renamed over it); an existing one is \
             checked before it is used (its board, rules, start and attacker, every record, \
             its checksum, and its size against --max-memory, before anything is reserved) \
             and refused with the place (status 2, the file left as it was). An option the \
             game does not use (everything but --json under game=telo) is status 2, naming \
             it."
        }
        "validate" => {
            "Only reads; writes no file. Every game of every file is checked, whatever the \
             others hold. With --json, a file that cannot be read still has its entry, with \
             `games`, `invalid`, `error` and `problems`."
        }
        "convert" => {
            "OUTPUT is written to a temporary file `.NAME.fanorona-tmp-*` in its folder and \
             renamed over OUTPUT when the conversion ends (also when some games could not be \
             converted: they are reported, status 1). A read error that stops the conversion, \
             a write error or Ctrl-C leave OUTPUT as it was. An OUTPUT that is the same file \
             as INPUT (the same path, a symbolic or a hard link) is refused before anything is \
             read; INPUT is never changed, and a read-only OUTPUT is not replaced."
        }
        "show" => {
            "Writes no file but --svg FILE, which is written whole (a temporary file renamed \
             over it) or not at all; a FILE that is the record being read is refused."
        }
        "verify-proof" => {
            "Only reads; writes no file. A damaged, truncated or hostile certificate is \
             rejected with its line and the reason (status 1), never a panic or an abort; a \
             file that cannot be read is status 2. Memory stays within --max-memory, and no \
             count of the file reserves more than the file can hold. Only the capture game is \
             checked: a start or rules naming another game are rejected at their line."
        }
        "analyse" => {
            "Never changes the record. --out FILE is opened (a temporary file next to it) \
             before the first search, and renamed over FILE once every turn is analysed: \
             whole or not at all, also when the command is killed outright; the record itself \
             as --out is refused before anything is read. A --hash that the machine cannot \
             give is an error before the search. Search threads the system cannot give (a \
             process or an address-space limit) are not started: the search goes on with \
             those that could be had, with a note on standard error; it never aborts for want \
             of memory for a thread."
        }
        "match" => {
            "--out FILE is checked before the first game and refused if it is the openings \
             file. FILE is left as it was until the first game ends: a match that plays no \
             game (an engine that cannot be started or set up, an option it does not list) \
             never changes it. The first game replaces FILE (with --resume, the games read \
             back and it), and each later game is appended to FILE and handed to the disk \
             (fsync) as it ends: an error, Ctrl-C, SIGKILL, the OOM killer or a power cut \
             keep every finished game. A death in the middle of an append can leave the start \
             of that game at the end of FILE; --resume says so, drops it and plays the game \
             again. Game threads (--concurrency) the system cannot give are not started: the \
             games are played by those that could be had, as the summary notes. What is kept \
             of an external engine's handshake is bounded: lines of at most 64 KiB, at most \
             1000 options of names of at most 256 bytes, else the engine is refused before \
             the first game."
        }
        "openings" => {
            "Writes no file but --out FILE: a temporary file next to it is made before the \
             work (so that a FILE that cannot be written is known at once) and renamed over \
             FILE when the suite is complete; an error or Ctrl-C leaves FILE as it was. \
             Without --out the suite goes to standard output."
        }
        "puzzles" => {
            "Only reads the FGN files and the tables; writes no file but --out FILE and its \
             progress file FILE.progress: each is written whole to a temporary file next to it \
             and renamed into place (the set when it is complete, the progress every 30 \
             seconds), so an error, Ctrl-C or a crash leaves FILE as it was and the progress \
             of the last save, from which the same command resumes. A game that cannot be read \
             or replayed is skipped. Without --out the set goes to standard output. --check FILE \
             only reads FILE (and the tables) and writes no file."
        }
        "engine" => {
            "Writes no file: the protocol's replies go to standard output. Every `go` is \
             answered by exactly one `bestmove`; the end of standard input, like `quit`, \
             stops a running search, prints its `bestmove` and exits with status 0. A line \
             that is not UTF-8 or longer than 64 KiB is an error line and is skipped, in \
             bounded memory; errors echo at most 40 characters of the input, escaped. A hash \
             size that cannot be allocated, or more than the machine's available memory, is an \
             error line and the old table is kept; a table is made at once (its memory is \
             taken as the search fills it), so `isready` is answered right away. Search threads \
             (Threads) the system cannot give are not started: the search goes on with those \
             that could be had and says so in an `info string` before its `bestmove`; it never \
             aborts for want of memory for a thread."
        }
        _ => return None,
    })
}

/// Reflows help text written with hard line breaks: the lines of a paragraph are joined, so
/// that the help wraps cleanly at the terminal's width. Indented lines (examples), lines after
/// one ending with a colon, list items and blank lines keep their breaks.
pub fn reflow(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut prev: Option<&str> = None;
    for line in text.lines() {
        let line = line.trim_end();
        let keep_break = match prev {
            None => true,
            Some(p) => {
                p.is_empty()
                    || line.is_empty()
                    || p.starts_with(char::is_whitespace)
                    || p.ends_with(':')
                    || line.starts_with(char::is_whitespace)
                    || line.starts_with("- ")
                    || line.starts_with("* ")
            }
        };
        if prev.is_some() {
            out.push(if keep_break { '\n' } else { ' ' });
        }
        if line.starts_with(char::is_whitespace) {
            out.push_str(&fit_example(line));
        } else {
            out.push_str(if keep_break { line } else { line.trim_start() });
        }
        prev = Some(line);
    }
    out
}

/// Widest example line kept as written: wider ones would wrap in an 80-column terminal.
const EXAMPLE_WIDTH: usize = 79;

/// An example line that fits [`EXAMPLE_WIDTH`]: a trailing `# comment` loses its aligning
/// spaces, or else goes on a line of its own above the command.
fn fit_example(line: &str) -> String {
    let width = line.chars().count();
    let Some(hash) = line.find("  #").filter(|_| width > EXAMPLE_WIDTH) else {
        return line.to_owned();
    };
    let indent = &line[..line.len() - line.trim_start().len()];
    let (command, comment) = (line[..hash].trim_end(), line[hash..].trim_start());
    let joined = format!("{command}  {comment}");
    if joined.chars().count() <= EXAMPLE_WIDTH {
        joined
    } else {
        format!("{indent}{comment}\n{command}")
    }
}

/// The command with its help texts shaped (see the module).
pub fn shape(cmd: Command) -> Command {
    shape_under(cmd, "")
}

/// Shapes the subcommands of `cmd`, whose name for [`guarantees`] is `prefix` (empty at the
/// top), and theirs in turn (`nnue label`).
fn shape_under(cmd: Command, prefix: &str) -> Command {
    cmd.mut_subcommands(|sub| {
        let name = if prefix.is_empty() {
            sub.get_name().to_owned()
        } else {
            format!("{prefix} {}", sub.get_name())
        };
        let sub = if sub.has_subcommands() {
            shape_under(sub, &name)
        } else {
            sub
        };
        let sub = match sub.get_about().map(ToString::to_string) {
            Some(text) => sub.about(reflow(&text)),
            None => sub,
        };
        let sub = match sub.get_long_about().map(ToString::to_string) {
            Some(text) => sub.long_about(reflow(&text)),
            None => sub,
        };
        match guarantees(&name) {
            Some(g) => sub.after_long_help(format!("Guarantees:\n{g}\n\n{COMMON}")),
            None => sub,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_are_joined_and_examples_kept() {
        let text = "First line\nof a paragraph.\n\nExamples:\n  fanorona a\n  fanorona b\nAfter.";
        assert_eq!(
            reflow(text),
            "First line of a paragraph.\n\nExamples:\n  fanorona a\n  fanorona b\nAfter."
        );
    }

    #[test]
    fn long_examples_fit_80_columns() {
        let long = format!(
            "  fanorona solve --board 9x3{}# can Black force a win?",
            " ".repeat(30)
        );
        assert_eq!(
            fit_example(&long),
            "  fanorona solve --board 9x3  # can Black force a win?"
        );
        let longer = format!("  fanorona {}  # a comment", "x".repeat(70));
        assert_eq!(
            fit_example(&longer),
            format!("  # a comment\n  fanorona {}", "x".repeat(70))
        );
        assert_eq!(
            fit_example("  fanorona a    # short"),
            "  fanorona a    # short"
        );
    }
}
