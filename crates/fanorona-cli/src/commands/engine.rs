//! `fanorona engine`: the engine protocol on standard input and output.

use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

/// Speak the engine protocol (UCI style) on standard input and output.
///
/// For engine GUIs and match runners; the commands and replies are described in
/// docs/engine-protocol.md.
///
/// Example session (type the lines, or send them from a GUI):
///   uci
///   position startpos moves f2-e3A
///   go movetime 500
///   quit
///
/// `quit` (like the end of the input) stops a running search at once: its `bestmove` is
/// printed, but a search stopped before its first iteration has no `info` lines. Piped in one
/// go (`printf 'uci\n...quit\n' | fanorona engine`), the session above ends before the search
/// reports anything, whatever the limits of `go`: a script waits for `bestmove` before it
/// sends `quit`, as a GUI does.
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct EngineArgs {}

/// Runs `fanorona engine`.
pub fn run(_args: &EngineArgs) -> Result<ExitCode> {
    let stdin = std::io::stdin();
    fanorona_ai::protocol::run(stdin.lock(), crate::output::stdout())?;
    Ok(ExitCode::SUCCESS)
}
