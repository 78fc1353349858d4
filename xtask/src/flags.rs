//! A small hand-written command-line parser: flags, options with values, positional arguments
//! and a `--` separator, with errors that name the offending argument.

use anyhow::{Result, bail};

/// The arguments of one task, consumed piece by piece; [`Args::finish`] rejects leftovers.
#[derive(Debug)]
pub struct Args {
    task: &'static str,
    words: Vec<String>,
    trailing: Vec<String>,
}

impl Args {
    /// Wraps the arguments that follow the task name; everything after a `--` is kept apart.
    pub fn new(task: &'static str, words: Vec<String>) -> Args {
        let mut words = words;
        let trailing = match words.iter().position(|w| w == "--") {
            Some(at) => {
                let rest = words.split_off(at);
                rest[1..].to_vec()
            }
            None => Vec::new(),
        };
        Args {
            task,
            words,
            trailing,
        }
    }

    /// Whether `-h` or `--help` was given.
    pub fn help(&self) -> bool {
        self.words.iter().any(|w| w == "-h" || w == "--help")
    }

    /// Removes a flag without a value, saying whether it was present.
    pub fn flag(&mut self, name: &str) -> bool {
        let before = self.words.len();
        self.words.retain(|w| w != name);
        self.words.len() != before
    }

    /// Removes an option with a value (`--name VALUE` or `--name=VALUE`), all of its
    /// occurrences, in order.
    pub fn values(&mut self, name: &str) -> Result<Vec<String>> {
        let mut found = Vec::new();
        let mut kept = Vec::new();
        let mut words = std::mem::take(&mut self.words).into_iter();
        while let Some(word) = words.next() {
            if word == name {
                match words.next() {
                    Some(value) if !value.starts_with("--") => found.push(value),
                    _ => bail!(
                        "`{name}` needs a value; see `cargo xtask {} --help`",
                        self.task
                    ),
                }
            } else if let Some(value) = word.strip_prefix(name).and_then(|r| r.strip_prefix('=')) {
                found.push(value.to_owned());
            } else {
                kept.push(word);
            }
        }
        self.words = kept;
        Ok(found)
    }

    /// Removes an option with a value that may be given at most once.
    pub fn value(&mut self, name: &str) -> Result<Option<String>> {
        let mut values = self.values(name)?;
        if values.len() > 1 {
            bail!("`{name}` was given {} times; give it once", values.len());
        }
        Ok(values.pop())
    }

    /// Removes the next positional argument (one that does not start with `-`).
    pub fn positional(&mut self) -> Option<String> {
        let at = self.words.iter().position(|w| !w.starts_with('-'))?;
        Some(self.words.remove(at))
    }

    /// The arguments that followed `--`.
    pub fn trailing(&mut self) -> Vec<String> {
        std::mem::take(&mut self.trailing)
    }

    /// Fails when arguments were left unconsumed (unknown flags, extra positionals, or a `--`
    /// part the task does not take).
    pub fn finish(self) -> Result<()> {
        if let Some(word) = self.words.first() {
            bail!(
                "unexpected argument `{word}`; see `cargo xtask {} --help`",
                self.task
            );
        }
        if !self.trailing.is_empty() {
            bail!("`cargo xtask {}` takes nothing after `--`", self.task);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> Args {
        Args::new("test", words.iter().map(|w| (*w).to_owned()).collect())
    }

    #[test]
    fn consumes_flags_values_and_positionals() {
        let mut a = args(&[
            "1.2.3",
            "--dry-run",
            "--step",
            "fmt",
            "--step=test",
            "--",
            "x",
            "-y",
        ]);
        assert!(!a.help());
        assert!(a.flag("--dry-run"));
        assert!(!a.flag("--dry-run"));
        assert_eq!(a.values("--step").unwrap(), ["fmt", "test"]);
        assert_eq!(a.positional().as_deref(), Some("1.2.3"));
        assert_eq!(a.positional(), None);
        assert_eq!(a.trailing(), ["x", "-y"]);
        a.finish().unwrap();
    }

    #[test]
    fn rejects_leftovers_and_missing_values() {
        let a = args(&["--frobnicate"]);
        let err = a.finish().unwrap_err().to_string();
        assert_eq!(
            err,
            "unexpected argument `--frobnicate`; see `cargo xtask test --help`"
        );
        let mut a = args(&["--step"]);
        assert_eq!(
            a.values("--step").unwrap_err().to_string(),
            "`--step` needs a value; see `cargo xtask test --help`"
        );
        let mut a = args(&["--date", "2024-01-01", "--date=2024-01-02"]);
        assert!(a.value("--date").is_err());
        let a = args(&["--", "x"]);
        assert!(a.finish().is_err());
        assert!(args(&["fmt", "-h"]).help());
    }
}
