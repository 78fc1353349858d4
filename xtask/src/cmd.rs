//! Running external commands with clear failure messages.
//!
//! Every task runs its commands through [`Cmd`], which echoes the command line before running it
//! and, when it fails, says which command failed and how (exit code, signal, not found), so that
//! a failure can be reproduced by copying one line.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

/// A command line to run, with its environment additions and working directory.
#[derive(Clone, Debug)]
pub struct Cmd {
    /// What to execute.
    program: OsString,
    /// How the program is shown in messages (`cargo` rather than the full path of `$CARGO`).
    shown_as: String,
    args: Vec<OsString>,
    envs: Vec<(OsString, OsString)>,
    dir: Option<PathBuf>,
}

impl Cmd {
    /// A command running `program`.
    pub fn new(program: impl AsRef<OsStr>) -> Cmd {
        let program = program.as_ref().to_os_string();
        let shown_as = program.to_string_lossy().into_owned();
        Cmd {
            program,
            shown_as,
            args: Vec::new(),
            envs: Vec::new(),
            dir: None,
        }
    }

    /// A `cargo` command, using the cargo that runs the task (`$CARGO`) when there is one.
    pub fn cargo() -> Cmd {
        let mut cmd = Cmd::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
        cmd.shown_as = "cargo".to_owned();
        cmd
    }

    /// Adds one argument.
    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Cmd {
        self.args.push(arg.as_ref().to_os_string());
        self
    }

    /// Adds several arguments.
    pub fn args<I, S>(mut self, args: I) -> Cmd
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_os_string()));
        self
    }

    /// Sets an environment variable for the command.
    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Cmd {
        self.envs
            .push((key.as_ref().to_os_string(), value.as_ref().to_os_string()));
        self
    }

    /// Runs the command in `dir` instead of the current directory.
    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> Cmd {
        self.dir = Some(dir.as_ref().to_path_buf());
        self
    }

    fn command(&self) -> Command {
        let mut command = Command::new(&self.program);
        command.args(&self.args);
        for (key, value) in &self.envs {
            command.env(key, value);
        }
        if let Some(dir) = &self.dir {
            command.current_dir(dir);
        }
        command
    }

    fn spawn_error(&self, err: std::io::Error) -> anyhow::Error {
        let hint = if err.kind() == std::io::ErrorKind::NotFound {
            format!(" (is `{}` installed and on PATH?)", self.shown_as)
        } else {
            String::new()
        };
        anyhow::Error::new(err).context(format!("could not start `{self}`{hint}"))
    }

    fn check_status(&self, status: ExitStatus) -> Result<()> {
        if status.success() {
            Ok(())
        } else {
            bail!("`{self}` failed ({})", describe_status(status))
        }
    }

    /// Runs the command with inherited standard streams, echoing it first; fails unless it
    /// exits successfully.
    pub fn run(&self) -> Result<()> {
        eprintln!("$ {self}");
        let status = self.command().status().map_err(|e| self.spawn_error(e))?;
        self.check_status(status)
    }

    /// Runs the command quietly and returns its standard output. Fails unless the command exits
    /// successfully, and then the error holds what the command wrote to standard error.
    pub fn read(&self) -> Result<String> {
        let output = self
            .command()
            .stdin(Stdio::null())
            .output()
            .map_err(|e| self.spawn_error(e))?;
        if let Err(err) = self.check_status(output.status) {
            let stderr = String::from_utf8_lossy(&output.stderr);
            let stderr = stderr.trim_end();
            return Err(if stderr.is_empty() {
                err
            } else {
                err.context(stderr.to_owned())
            });
        }
        String::from_utf8(output.stdout).with_context(|| format!("`{self}` printed non-UTF-8"))
    }

    /// Runs the command, echoing it first, and hands each line of its standard output to
    /// `on_line` as it arrives (standard error is passed through). Fails unless the command
    /// exits successfully.
    pub fn for_each_line(&self, mut on_line: impl FnMut(&str) -> Result<()>) -> Result<()> {
        eprintln!("$ {self}");
        let mut child = self
            .command()
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| self.spawn_error(e))?;
        let stdout = child
            .stdout
            .take()
            .context("child has no standard output")?;
        let mut result = Ok(());
        for line in BufReader::new(stdout).lines() {
            let line = line.with_context(|| format!("reading the output of `{self}`"))?;
            if result.is_ok() {
                result = on_line(&line);
            }
        }
        let status = child
            .wait()
            .with_context(|| format!("waiting for `{self}`"))?;
        self.check_status(status)?;
        result
    }

    /// Runs the command with inherited standard streams and stops it (with everything it
    /// started, on Unix) when it takes longer than `limit`.
    pub fn run_with_timeout(&self, limit: Duration) -> Result<()> {
        eprintln!("$ {self}   (time limit {} s)", limit.as_secs_f64());
        let mut command = self.command();
        command.stdin(Stdio::null());
        #[cfg(unix)]
        {
            // Its own process group, so that a timeout stops helpers such as Xvfb too.
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        let mut child = command.spawn().map_err(|e| self.spawn_error(e))?;
        let started = Instant::now();
        loop {
            if let Some(status) = child.try_wait().context("waiting for a child process")? {
                return self.check_status(status);
            }
            if started.elapsed() >= limit {
                stop(&mut child);
                bail!(
                    "`{self}` did not finish within {} s and was stopped",
                    limit.as_secs_f64()
                );
            }
            thread::sleep(Duration::from_millis(100));
        }
    }
}

/// Stops a child that ran out of time: politely, then for good.
fn stop(child: &mut Child) {
    #[cfg(unix)]
    {
        let group = format!("-{}", child.id());
        let kill = |signal: &str| {
            // Quietly: the group may be gone already.
            let _ = Command::new("kill")
                .args([signal, "--", &group])
                .stderr(Stdio::null())
                .status();
        };
        kill("-TERM");
        for _ in 0..50 {
            if matches!(child.try_wait(), Ok(Some(_))) {
                break;
            }
            thread::sleep(Duration::from_millis(100));
        }
        kill("-KILL");
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// Says how a process ended, for messages.
fn describe_status(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exit code {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("killed by signal {signal}");
        }
    }
    status.to_string()
}

/// Quotes one word for a shell command line, only where needed.
pub fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%^".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

impl fmt::Display for Cmd {
    /// The command as one could type it into a POSIX shell from the workspace root.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(dir) = &self.dir {
            write!(f, "cd {} && ", shell_quote(&dir.to_string_lossy()))?;
        }
        for (key, value) in &self.envs {
            write!(
                f,
                "{}={} ",
                key.to_string_lossy(),
                shell_quote(&value.to_string_lossy())
            )?;
        }
        f.write_str(&shell_quote(&self.shown_as))?;
        for arg in &self.args {
            write!(f, " {}", shell_quote(&arg.to_string_lossy()))?;
        }
        Ok(())
    }
}

/// Whether `program` can be found on `PATH`.
pub fn on_path(program: &str) -> bool {
    let Some(path) = std::env::var_os("PATH") else {
        return false;
    };
    let suffixes: &[&str] = if cfg!(windows) {
        &["", ".exe", ".cmd", ".bat"]
    } else {
        &[""]
    };
    std::env::split_paths(&path).any(|dir| {
        suffixes.iter().any(|suffix| {
            let candidate = dir.join(format!("{program}{suffix}"));
            candidate.is_file()
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_quotes_only_what_needs_quoting() {
        let cmd = Cmd::cargo()
            .args(["doc", "--workspace", "--no-deps"])
            .env("RUSTDOCFLAGS", "-D warnings");
        assert_eq!(
            cmd.to_string(),
            "RUSTDOCFLAGS='-D warnings' cargo doc --workspace --no-deps"
        );
        let cmd = Cmd::new("xvfb-run").args(["-a", "-s", "-screen 0 1280x720x24", "it's"]);
        assert_eq!(
            cmd.to_string(),
            r"xvfb-run -a -s '-screen 0 1280x720x24' 'it'\''s'"
        );
        assert_eq!(shell_quote(""), "''");
    }

    #[test]
    fn failures_name_the_command_and_the_exit_code() {
        let cmd = Cmd::cargo().arg("no-such-subcommand-for-xtask-tests");
        let err = cmd.read().unwrap_err();
        // What the command said comes first, then which command failed and how.
        assert!(err.to_string().contains("no such command"), "{err:#}");
        let cause = err.chain().nth(1).unwrap().to_string();
        assert!(cause.starts_with("`cargo no-such-subcommand-for-xtask-tests` failed (exit code "));
        let missing = Cmd::new("no-such-program-for-xtask-tests")
            .run()
            .unwrap_err();
        assert!(format!("{missing:#}").contains("is `no-such-program-for-xtask-tests` installed"));
    }

    #[test]
    fn reads_standard_output() {
        let version = Cmd::cargo().arg("--version").read().unwrap();
        assert!(version.starts_with("cargo "), "{version}");
        let mut lines = Vec::new();
        Cmd::cargo()
            .arg("--version")
            .for_each_line(|line| {
                lines.push(line.to_owned());
                Ok(())
            })
            .unwrap();
        assert_eq!(lines, [version.trim_end()]);
    }

    #[cfg(unix)]
    #[test]
    fn a_command_that_runs_too_long_is_stopped() {
        let started = Instant::now();
        let err = Cmd::new("sleep")
            .arg("30")
            .run_with_timeout(Duration::from_millis(300));
        assert!(
            err.unwrap_err()
                .to_string()
                .contains("did not finish within 0.3 s")
        );
        assert!(started.elapsed() < Duration::from_secs(10));
        Cmd::new("true")
            .run_with_timeout(Duration::from_secs(10))
            .unwrap();
    }
}
