//! `fanorona-3d`: play Fanorona on a 3D board (see `--help`).

use std::process::ExitCode;

use bevy::app::AppExit;
use fanorona_bevy::cli::{Parsed, USAGE, parse_args};

fn main() -> ExitCode {
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(Parsed::Run(options)) => options,
        Ok(Parsed::Help) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Ok(Parsed::Version) => {
            println!("fanorona-3d {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("fanorona-3d: {e}");
            return ExitCode::from(2);
        }
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
