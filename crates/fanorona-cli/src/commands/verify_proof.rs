//! `fanorona verify-proof`: checks a solver certificate with the reference move generator.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use fanorona_ai::solve::certificate;
use fanorona_ai::solve::verify::{self, Limits};
use serde_json::json;

/// Check a certificate written by `fanorona solve --certificate`.
///
/// The check trusts nothing of the solver: it reads the file with its own parser and makes
/// every turn with the simple reference move generator (plain arrays, no code shared with the
/// fast one). It reads the file twice, streaming, keeping 24 bytes per position of the
/// certificate. A bad certificate is rejected with the line and the reason, and exit code 1.
/// A Zstandard-compressed certificate (such as tables/certificates/5x7.cert.zst) is
/// decompressed in memory first, at most --max-memory bytes of it.
///
/// Examples:
///   fanorona solve --board 3x5 --certificate 3x5.cert
///   fanorona verify-proof 3x5.cert
///   fanorona verify-proof 5x5.cert --json
///   fanorona verify-proof tables/certificates/5x7.cert.zst
///   fanorona verify-proof 5x7-black.cert --join 5x7-white.cert --out 5x7.cert
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct VerifyProofArgs {
    /// The certificate file.
    pub file: PathBuf,
    /// Memory allowed for the certificate's positions (24 bytes each), such as 512M or 4G.
    #[arg(long, value_name = "SIZE", default_value = "4G",
          value_parser = crate::commands::solve::parse_bytes)]
    pub max_memory: u64,
    /// Join FILE with this certificate into a draw: one must claim `win-or-draw` (the side
    /// to move never loses) and the other `draw-or-loss` (it cannot force a win), for the
    /// same board, rules and start. Both are checked first, and the joined certificate
    /// (`value draw`, both strategies) is checked again before it is written to `--out`.
    #[arg(long, value_name = "OTHER", requires = "out")]
    pub join: Option<PathBuf>,
    /// With `--join`: the file the draw is written to (atomically: only a certificate that
    /// checks is ever put there).
    #[arg(long, value_name = "FILE", requires = "join")]
    pub out: Option<PathBuf>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `fanorona verify-proof`.
pub fn run(args: &VerifyProofArgs) -> Result<ExitCode> {
    let mut stdout = crate::output::stdout();
    let limits = Limits::default().with_max_bytes(args.max_memory);
    let start = Instant::now();
    if let (Some(other), Some(out)) = (&args.join, &args.out) {
        return join(args, other, out, &limits, start);
    }
    let file = crate::output::shown_path(&args.file);
    let result = match decompressed(&args.file, args.max_memory) {
        Ok(Some(text)) => verify::verify(std::io::Cursor::new(text), &limits),
        Ok(None) => verify::verify_file(&args.file, &limits),
        Err(why) => {
            if args.json {
                writeln!(
                    stdout,
                    "{}",
                    json!({"file": file, "valid": false, "kind": "Io", "error": why})
                )?;
            } else {
                errln!("error: cannot read {file}: {why}");
            }
            return Ok(ExitCode::from(2));
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    match result {
        Ok(r) => {
            if args.json {
                let strategies: Vec<_> = r
                    .strategies
                    .iter()
                    .map(|(side, n, ordered)| json!({"side": side, "positions": n, "ordered": ordered}))
                    .collect();
                writeln!(
                    stdout,
                    "{}",
                    json!({
                        "file": file,
                        "valid": true,
                        "board": r.board,
                        "start": r.start,
                        "value": r.value,
                        "strategies": strategies,
                        "positions": r.positions,
                        "replies": r.replies,
                        "bytes": r.bytes,
                        "memory": r.memory,
                        "seconds": seconds,
                    })
                )?;
            } else {
                writeln!(
                    stdout,
                    "{file}: valid: {} {} is a {} for the side to move",
                    r.board, r.start, r.value
                )?;
                writeln!(
                    stdout,
                    "{} positions, {} replies checked with the reference generator, {} bytes read, {} bytes of positions, {seconds:.3} s",
                    r.positions, r.replies, r.bytes, r.memory
                )?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            if args.json {
                writeln!(
                    stdout,
                    "{}",
                    json!({
                        "file": file,
                        "valid": false,
                        "kind": format!("{:?}", e.kind),
                        "line": e.line,
                        "error": e.message,
                        "seconds": seconds,
                    })
                )?;
            } else {
                errln!("{}", rejection(&file, &e));
            }
            Ok(if e.kind == verify::ErrorKind::Io {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            })
        }
    }
}

/// `--join OTHER --out FILE`: the draw made of two bounds.
fn join(
    args: &VerifyProofArgs,
    other: &Path,
    out: &Path,
    limits: &Limits,
    start: Instant,
) -> Result<ExitCode> {
    let mut stdout = crate::output::stdout();
    let result = certificate::join_bounds(&args.file, other, out, limits);
    let seconds = start.elapsed().as_secs_f64();
    let shown = crate::output::shown_path(out);
    match result {
        Ok(r) => {
            if args.json {
                writeln!(
                    stdout,
                    "{}",
                    json!({
                        "file": shown,
                        "valid": true,
                        "board": r.board,
                        "start": r.start,
                        "value": r.value,
                        "positions": r.positions,
                        "bytes": r.bytes,
                        "seconds": seconds,
                    })
                )?;
            } else {
                writeln!(
                    stdout,
                    "{shown}: written and valid: {} {} is a {} for the side to move",
                    r.board, r.start, r.value
                )?;
                writeln!(
                    stdout,
                    "{} positions, {} bytes, {seconds:.3} s (the two bounds and the draw each checked)",
                    r.positions, r.bytes
                )?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            let code = match &e {
                certificate::JoinError::Io { .. } => 2,
                certificate::JoinError::Invalid { error, .. }
                    if error.kind == verify::ErrorKind::Io =>
                {
                    2
                }
                _ => 1,
            };
            let line = match &e {
                certificate::JoinError::Invalid { file, error } => {
                    rejection(&crate::output::shown_path(file), error)
                }
                other => format!(
                    "error: {}",
                    crate::output::without_os_error(&other.to_string())
                ),
            };
            if args.json {
                let message = line.strip_prefix("error: ").unwrap_or(&line);
                writeln!(
                    stdout,
                    "{}",
                    json!({"file": shown, "valid": false, "error": message, "seconds": seconds})
                )?;
            } else {
                errln!("{line}");
            }
            Ok(ExitCode::from(code))
        }
    }
}

/// The line a certificate the checker rejected gets on standard error: a file that could not
/// be read is an error (not a verdict on the certificate), anything else is located.
fn rejection(file: &str, e: &verify::VerifyError) -> String {
    if e.kind == verify::ErrorKind::Io {
        let why = crate::output::without_os_error(&e.message);
        if why.starts_with("cannot open ") {
            format!("error: {why}")
        } else {
            format!("error: cannot read {file}: {why}")
        }
    } else {
        match e.line {
            Some(l) => format!("{file}:{l}: invalid certificate: {}", e.message),
            None => format!("{file}: invalid certificate: {}", e.message),
        }
    }
}

/// The four bytes a Zstandard frame starts with (its magic number, little-endian).
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// The text of a Zstandard-compressed certificate, decompressed in memory (at most `max`
/// bytes); `None` for any other file, which the checker reads itself.
fn decompressed(file: &Path, max: u64) -> std::result::Result<Option<Vec<u8>>, String> {
    use std::io::{Read, Seek};
    // Only a regular file is opened here: the checker refuses anything else with its own words.
    if !std::fs::metadata(file).is_ok_and(|m| m.is_file()) {
        return Ok(None);
    }
    let Ok(mut f) = std::fs::File::open(file) else {
        return Ok(None);
    };
    let mut magic = [0u8; 4];
    if f.read_exact(&mut magic).is_err() || magic != ZSTD_MAGIC {
        return Ok(None);
    }
    f.rewind()
        .map_err(|e| crate::output::without_os_error(&e.to_string()))?;
    let decoder = ruzstd::decoding::StreamingDecoder::new(std::io::BufReader::new(f))
        .map_err(|e| format!("not a valid Zstandard stream: {e}"))?;
    let mut text = Vec::new();
    decoder
        .take(max.saturating_add(1))
        .read_to_end(&mut text)
        .map_err(|e| format!("not a valid Zstandard stream: {e}"))?;
    if text.len() as u64 > max {
        return Err(format!(
            "it decompresses to more than --max-memory ({max} bytes); give more"
        ));
    }
    Ok(Some(text))
}
