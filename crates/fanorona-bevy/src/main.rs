//! `fanorona-3d`: play Fanorona on a 3D board (see `--help`).

use std::process::ExitCode;

use bevy::app::AppExit;
use fanorona_bevy::cli::LaunchOptions;

fn main() -> ExitCode {
    let options = match LaunchOptions::parse_from_args(std::env::args_os()) {
        Ok(options) => options,
        // Prints the help or version (status 0) or the error (status 2).
        Err(e) => e.exit(),
    };
    let mut app = match fanorona_bevy::build_app(&options) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("fanorona-3d: {e}");
            return ExitCode::from(2);
        }
    };
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}
