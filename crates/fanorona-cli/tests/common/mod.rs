//! Running the `fanorona` binary from the integration tests.

use std::process::{Command, Output};

/// Runs `fanorona` with `args` and collects its output.
pub fn fanorona(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fanorona"))
        .args(args)
        .output()
        .expect("the fanorona binary runs")
}

/// Standard output as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

/// Standard error as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("UTF-8 output")
}
