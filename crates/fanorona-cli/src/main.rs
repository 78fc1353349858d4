//! `fanorona`: the command-line tool of the fanorona project.
//!
//! One module per command under `commands/`; shared option groups live in `options.rs`;
//! everything written goes through `output.rs`; `help.rs` shapes the help texts.

// Everything written goes through `output`, which never panics on a failed write.
#![warn(clippy::print_stdout, clippy::print_stderr)]

#[macro_use]
mod output;
mod commands;
mod help;
mod options;
mod progress;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use output::StdoutVerdict;

/// Fanorona rules, records and engine on the command line.
#[derive(Parser)]
#[command(
    name = "fanorona",
    version,
    about,
    long_about = None,
    propagate_version = true,
    after_help = "Examples:
  fanorona perft 5                      # 431852 sequences of 5 turns
  fanorona show --play \"f2-e3A d5-d4A\"  # a position, drawn
  fanorona analyse --depth 10           # the engine's best turn
  fanorona solve --board 3x3            # 3x3 solved: White wins
  fanorona validate games.fgn           # replay game records
  fanorona engine                       # the engine protocol
  fanorona help perft                   # a command's own examples"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Perft(commands::perft::PerftArgs),
    Divide(commands::perft::DivideArgs),
    Solve(commands::solve::SolveArgs),
    Validate(commands::validate::ValidateArgs),
    Convert(commands::convert::ConvertArgs),
    Show(commands::show::ShowArgs),
    Analyse(commands::analyse::AnalyseArgs),
    #[command(name = "match")]
    Match(commands::play_match::MatchArgs),
    Openings(commands::openings::OpeningsArgs),
    Puzzles(commands::puzzles::PuzzlesArgs),
    Engine(commands::engine::EngineArgs),
    Bench(commands::bench::BenchArgs),
    Book(commands::book::BookArgs),
    Tune(commands::tune::TuneArgs),
    Nnue(commands::nnue::NnueArgs),
    VerifyProof(commands::verify_proof::VerifyProofArgs),
}

fn main() -> ExitCode {
    // Ctrl-C or SIGTERM: stop the external engines of a match (they would outlive this
    // process), remove the temporary files of unfinished outputs, then exit.
    let _ =
        ctrlc::set_handler(|| output::interrupted(130, fanorona_ai::players::kill_running_engines));
    let matches = help::shape(Cli::command()).get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let result = match cli.command {
        Command::Perft(args) => commands::perft::run_perft(&args),
        Command::Divide(args) => commands::perft::run_divide(&args),
        Command::Solve(args) => commands::solve::run(&args),
        Command::Validate(args) => commands::validate::run(&args),
        Command::Convert(args) => commands::convert::run(&args),
        Command::Show(args) => commands::show::run(&args),
        Command::Analyse(args) => commands::analyse::run(&args),
        Command::Match(args) => commands::play_match::run(&args),
        Command::Openings(args) => commands::openings::run(&args),
        Command::Puzzles(args) => commands::puzzles::run(&args),
        Command::Engine(args) => commands::engine::run(&args),
        Command::Bench(args) => commands::bench::run(&args),
        Command::Book(args) => commands::book::run(&args),
        Command::Tune(args) => commands::tune::run(&args),
        Command::Nnue(args) => commands::nnue::run(&args),
        Command::VerifyProof(args) => commands::verify_proof::run(&args),
    };
    match (output::stdout_verdict(), result) {
        (StdoutVerdict::Closed(status), _) => ExitCode::from(status),
        (StdoutVerdict::Failed(message), _) => {
            errln!("error: {message}");
            ExitCode::from(2)
        }
        (StdoutVerdict::Fine, Ok(code)) => code,
        (StdoutVerdict::Fine, Err(err)) => {
            errln!("error: {}", output::error_text(&err));
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every command states its guarantees (what it writes, when, what it never does) at the
    /// end of its long help, and so in docs/cli/: a new command cannot leave them out.
    #[test]
    fn every_command_states_its_guarantees() {
        let cli = help::shape(Cli::command());
        for sub in cli.get_subcommands() {
            let name = sub.get_name();
            assert!(
                help::guarantees(name).is_some(),
                "{name}: add its guarantees to help.rs"
            );
            let after = sub.get_after_long_help().map(ToString::to_string);
            assert!(
                after.is_some_and(|t| t.starts_with("Guarantees:")),
                "{name}: the long help does not end with its guarantees"
            );
        }
    }
}
