//! `fanorona engine`: the engine protocol on standard input and output.

use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

/// Speak the engine protocol (UCI style) on standard input and output.
///
/// For engine GUIs and match runners; the commands and replies are described in
/// docs/engine-protocol.md.
///
/// Example session:
///   uci
///   position startpos moves f2-e3A
///   go movetime 500
///   quit
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct EngineArgs {}

/// Runs `fanorona engine`.
pub fn run(_args: &EngineArgs) -> Result<ExitCode> {
    let stdin = std::io::stdin();
    fanorona_ai::protocol::run(stdin.lock(), crate::output::stdout())?;
    Ok(ExitCode::SUCCESS)
}
