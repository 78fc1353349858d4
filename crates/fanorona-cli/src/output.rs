//! Everything the `fanorona` command writes goes through here: standard output, standard error
//! and files.
//!
//! - Standard output ([`stdout`]) never panics: a write error is returned and remembered, and
//!   `main` turns it into the exit status ([`stdout_failure`]): a closed pipe (`| head`) ends
//!   the program quietly, any other error (a full disk) is one message and exit status 2.
//! - Standard error (`errln!`) never panics either: when even it cannot be
//!   written, there is nowhere left to say so, and the message is dropped.
//!   Its messages have their control characters escaped.
//! - A file is written to a temporary file in the destination's folder, named
//!   `.NAME.fanorona-tmp-PID-N`, and renamed over the destination only when complete
//!   ([`OutputFile::commit`]); on an error the temporary file is removed and the destination
//!   is untouched. Interrupted by Ctrl-C (SIGINT) or SIGTERM, the program removes its
//!   temporary files before it exits ([`interrupted`]). A destination that exists and is not
//!   a regular file (`/dev/null`, `/dev/full`, a named pipe, a terminal) is written directly:
//!   it cannot be replaced by a rename, and must never be (as root, a rename would put a
//!   regular file in place of `/dev/null`).
//! - A journal ([`OutputFile::journal`], the games of `fanorona match`) leaves its destination
//!   alone until its first whole item, which replaces it by a rename; each later item is
//!   appended and handed to the disk (fsync), so that every whole item survives a SIGKILL,
//!   the OOM killer or a power cut.
//! - The temporary files a killed run left (`.NAME.fanorona-tmp-PID-N`, its process gone) are
//!   removed by the next run that writes NAME.
//! - An output that is the same file as an input (the same path, a symbolic or a hard link) is
//!   refused before anything is read ([`refuse_same_file`]).
//! - File names and other text from outside are printed with control characters escaped
//!   ([`shown`], [`sanitize`]), so that a name cannot drive the terminal.

use std::borrow::Cow;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{Context, Result, bail};

/// Writes one line to standard error, like `eprintln!`, but never panics (a message that cannot
/// be written is dropped) and escapes control characters (see [`sanitize`]), which messages
/// quoting a file's text could hold.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use ::std::io::Write as _;
        let text = ::std::format!($($arg)*);
        let _ = ::std::writeln!(::std::io::stderr(), "{}", $crate::output::sanitize(&text));
    }};
}

/// The first error met writing standard output: its kind and its text.
static STDOUT_FAILURE: Mutex<Option<(io::ErrorKind, String)>> = Mutex::new(None);

/// Standard output that reports write errors instead of panicking, and remembers the first one
/// for `main` (see [`stdout_failure`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Stdout;

/// Standard output for the commands' results (see [`Stdout`]).
pub fn stdout() -> Stdout {
    Stdout
}

fn remember(e: io::Error) -> io::Error {
    let mut failure = STDOUT_FAILURE.lock().unwrap_or_else(|p| p.into_inner());
    if failure.is_none() {
        *failure = Some((e.kind(), io_text(&e)));
    }
    e
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        io::stdout().write(buf).map_err(remember)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        io::stdout().write_all(buf).map_err(remember)
    }

    fn flush(&mut self) -> io::Result<()> {
        io::stdout().flush().map_err(remember)
    }
}

/// How writing standard output failed, if it did: the error's kind and text.
pub fn stdout_failure() -> Option<(io::ErrorKind, String)> {
    STDOUT_FAILURE
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .clone()
}

/// What `main` does about a failed standard output.
pub enum StdoutVerdict {
    /// Nothing failed.
    Fine,
    /// The reader went away (a closed pipe): exit quietly with this status.
    Closed(u8),
    /// Any other error: print this message and exit with status 2.
    Failed(String),
}

/// The exit status for a closed standard output: 141 (128 + SIGPIPE), what a shell reports
/// for a program stopped by a closed pipe.
pub const CLOSED_PIPE_STATUS: u8 = 141;

/// Flushes standard output and tells `main` what to do about any error met writing it.
pub fn stdout_verdict() -> StdoutVerdict {
    let _ = stdout().flush();
    match stdout_failure() {
        None => StdoutVerdict::Fine,
        Some((io::ErrorKind::BrokenPipe, _)) => StdoutVerdict::Closed(CLOSED_PIPE_STATUS),
        Some((_, text)) => StdoutVerdict::Failed(format!("cannot write standard output: {text}")),
    }
}

/// Text from outside (a file name, a message quoting input) made safe to print: control
/// characters other than new lines and tabs, and the Unicode controls that reorder text, are
/// escaped in the workspace's one form (`\x1b`, `\u{202e}`: `fanorona_core::escape`).
pub fn sanitize(text: &str) -> Cow<'_, str> {
    let bad = |c: char| c != '\n' && c != '\t' && fanorona_core::escape::needs_escape(c);
    if !text.chars().any(bad) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if bad(c) {
            let _ = fanorona_core::escape::write_char(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// The name a path is printed under: `<stdin>` for `-`, otherwise the path with control
/// characters escaped (also a new line or a tab, which would break a `FILE:LINE:COL` line).
pub fn shown(path: &str) -> Cow<'_, str> {
    if path == "-" {
        return Cow::Borrowed("<stdin>");
    }
    fanorona_core::escape::escaped(path)
}

/// A path as [`shown`] prints it.
pub fn shown_path(path: &Path) -> String {
    shown(&path.to_string_lossy()).into_owned()
}

/// The identity of a file: device and inode where there are such, else the canonical path.
#[derive(PartialEq, Eq, Debug)]
enum FileId {
    #[cfg(unix)]
    Inode(u64, u64),
    #[cfg_attr(unix, allow(dead_code))]
    Path(PathBuf),
}

#[cfg(unix)]
fn id_of(meta: &fs::Metadata, _path: Option<&Path>) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    Some(FileId::Inode(meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn id_of(_meta: &fs::Metadata, path: Option<&Path>) -> Option<FileId> {
    Some(FileId::Path(fs::canonicalize(path?).ok()?))
}

/// The identity of a named file (following symbolic links), if it exists.
fn file_id(path: &str) -> Option<FileId> {
    let meta = fs::metadata(path).ok()?;
    id_of(&meta, Some(Path::new(path)))
}

/// The identity of the regular file behind standard input (`input`) or output, if it is one.
#[cfg(unix)]
fn stdio_id(input: bool) -> Option<FileId> {
    use std::os::fd::AsFd;
    let fd = if input {
        io::stdin().as_fd().try_clone_to_owned().ok()?
    } else {
        io::stdout().as_fd().try_clone_to_owned().ok()?
    };
    let meta = File::from(fd).metadata().ok()?;
    meta.is_file().then(|| id_of(&meta, None)).flatten()
}

#[cfg(not(unix))]
fn stdio_id(_input: bool) -> Option<FileId> {
    None
}

/// Refuses an output that is the same file as one of the inputs: the same path, a symbolic
/// link or a hard link to it (`-` is standard input or output, compared when it is a file).
/// Call it before reading anything.
pub fn refuse_same_file(inputs: &[&str], output: &str) -> Result<()> {
    let out_id = if output == "-" {
        stdio_id(false)
    } else {
        file_id(output)
    };
    let Some(out_id) = out_id else {
        return Ok(());
    };
    for input in inputs {
        let in_id = if *input == "-" {
            stdio_id(true)
        } else {
            file_id(input)
        };
        if in_id.as_ref() == Some(&out_id) {
            let out_name = if output == "-" {
                "standard output".to_owned()
            } else {
                shown(output).into_owned()
            };
            bail!(
                "the output {out_name} is the same file as the input {}: refusing to overwrite \
                 an input (write to another file)",
                shown(input)
            );
        }
    }
    Ok(())
}

/// Temporary files being written, removed when the program is interrupted; and journals
/// already in place, cut back to their whole items then.
static LIVE: Mutex<Vec<Live>> = Mutex::new(Vec::new());

struct Live {
    /// The file being written: a temporary file, or a journal's destination once its first
    /// item is in place.
    tmp: PathBuf,
    /// Whether `tmp` is a folder (see [`TempDir`]).
    dir: bool,
    /// For a journal in place (`tmp` is its destination): the length of its whole items.
    kept: Option<u64>,
}

fn live() -> std::sync::MutexGuard<'static, Vec<Live>> {
    LIVE.lock().unwrap_or_else(|p| p.into_inner())
}

/// Cleans up after an interruption (Ctrl-C, SIGTERM) and exits with `status`: removes the
/// temporary files of outputs still being written, and cuts journals (see
/// [`OutputFile::journal`]) back to their whole items. The list's lock stays held until the exit, so no output
/// is committed or appended to meanwhile; `first` runs once it is held (stopping external
/// engines, whose end must not be written down as a game).
pub fn interrupted(status: i32, first: impl FnOnce()) -> ! {
    let guard = live();
    first();
    for l in guard.iter() {
        keep_or_remove(l);
    }
    let _ = io::stderr().flush();
    std::process::exit(status)
}

/// Cuts a journal in place back to its whole items, or removes an unfinished temporary file
/// or folder.
fn keep_or_remove(l: &Live) {
    if l.dir {
        let _ = fs::remove_dir_all(&l.tmp);
        return;
    }
    match l.kept {
        Some(kept) => {
            let _ = fs::OpenOptions::new()
                .write(true)
                .open(&l.tmp)
                .and_then(|f| f.set_len(kept).and_then(|()| f.sync_all()));
        }
        None => {
            let _ = fs::remove_file(&l.tmp);
        }
    }
}

/// Hands a folder's entries (a rename, a new file) to the disk; a file system that cannot
/// (some network ones) is left to do its best.
fn sync_dir(dir: &Path) {
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// The folder a path is in (`.` for a bare name).
fn parent_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    }
}

/// Removes what a killed run (SIGKILL, the OOM killer, a power cut) left in `dir`: the
/// temporary files and folders named `PREFIX.fanorona-tmp-PID-N` whose process `PID` is no
/// longer running (`prefix` is `.NAME` for the temporary files of NAME, empty for the
/// temporary folders of [`TempDir`]). Only where the running processes can be known (Linux's
/// `/proc`); a name that does not parse is left alone.
fn remove_stale(dir: &Path, prefix: &std::ffi::OsStr) {
    let proc_root = Path::new("/proc");
    if !proc_root.join("self").exists() {
        return;
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let Some(prefix) = prefix.to_str() else {
        return;
    };
    let head = format!("{prefix}.fanorona-tmp-");
    let ours = std::process::id();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        let Some(rest) = name.strip_prefix(head.as_str()) else {
            continue;
        };
        let Some((pid, n)) = rest.split_once('-') else {
            continue;
        };
        let (Ok(pid), true) = (
            pid.parse::<u32>(),
            !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()),
        ) else {
            continue;
        };
        if pid == ours || proc_root.join(pid.to_string()).exists() {
            continue;
        }
        let path = entry.path();
        match entry.file_type() {
            Ok(t) if t.is_dir() => {
                let _ = fs::remove_dir_all(&path);
            }
            Ok(_) => {
                let _ = fs::remove_file(&path);
            }
            Err(_) => {}
        }
    }
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A file being written: a temporary file next to its destination, renamed over it by
/// [`commit`](OutputFile::commit). Dropped without a commit (an error, a panic), the temporary
/// file is removed and the destination stays as it was. Temporary files that a killed run
/// (SIGKILL, a power cut) left next to the destination are removed when the next output to it
/// starts.
///
/// Symbolic links are followed: the file a link points to is replaced, the link stays.
///
/// A destination that exists and is not a regular file nor a folder (a device such as
/// `/dev/null` or `/dev/full`, a named pipe) is opened and written directly, never replaced;
/// a write error there (a full device) is still an error.
pub struct OutputFile {
    dest: PathBuf,
    /// The temporary file; the destination itself when written directly.
    tmp: PathBuf,
    /// Written directly to the destination (not a regular file): no temporary file.
    direct: bool,
    /// A journal: the length of its whole items, and whether they are in place (the
    /// temporary file renamed over the destination at the first item).
    journal: Option<(u64, bool)>,
    file: Option<BufWriter<File>>,
}

impl OutputFile {
    /// Starts writing `dest` (see [`OutputFile`]).
    pub fn create(dest: impl AsRef<Path>) -> Result<OutputFile> {
        Self::start(dest.as_ref(), false)
    }

    /// Starts a journal of whole items (such as finished games) for `dest`: items written with
    /// [`append`](OutputFile::append) are kept whatever happens next, even a SIGKILL or a
    /// power cut. The first item goes to a temporary file that is handed to the disk and
    /// renamed over `dest`; each later one is appended to `dest` and handed to the disk
    /// (fsync) before `append` returns. Until the first item `dest` is left as it was: a
    /// journal with no item never replaces a file (committed, it makes an empty one only
    /// where there was none). On an error (dropped without a commit) or an interruption, the
    /// file is cut back to its whole items; only a death of the process in the middle of an
    /// append can leave part of one item at the end, which readers of the journal (`match
    /// --resume`) drop.
    pub fn journal(dest: impl AsRef<Path>) -> Result<OutputFile> {
        Self::start(dest.as_ref(), true)
    }

    fn start(dest: &Path, journal: bool) -> Result<OutputFile> {
        let name = shown_path(dest);
        // A device or a named pipe (following links, as /dev/stdout is one): written in place.
        if let Ok(meta) = fs::metadata(dest)
            && !meta.is_file()
            && !meta.is_dir()
        {
            let file = fs::OpenOptions::new()
                .write(true)
                .open(dest)
                .map_err(|e| anyhow::anyhow!("cannot write {name}: {}", io_text(&e)))?;
            return Ok(OutputFile {
                dest: dest.to_owned(),
                tmp: dest.to_owned(),
                direct: true,
                journal: None,
                file: Some(BufWriter::with_capacity(1 << 16, file)),
            });
        }
        // Replace what a symbolic link points to, not the link.
        let dest = match fs::symlink_metadata(dest) {
            Ok(m) if m.file_type().is_symlink() => match fs::canonicalize(dest) {
                Ok(target) => target,
                Err(_) => bail!("cannot write {name}: it is a symbolic link to nowhere"),
            },
            _ => dest.to_owned(),
        };
        if dest.is_dir() {
            bail!("cannot write {name}: it is a folder");
        }
        // A rename could replace a read-only file: respect the protection as writing in
        // place would.
        if fs::metadata(&dest).is_ok_and(|m| m.permissions().readonly()) {
            bail!("cannot write {name}: it is read-only");
        }
        let Some(file_name) = dest.file_name() else {
            bail!("cannot write {name}: not a file name");
        };
        let dir = parent_of(&dest);
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(file_name);
        remove_stale(&dir, &tmp_name);
        tmp_name.push(format!(
            ".fanorona-tmp-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let tmp = dir.join(tmp_name);
        let mut guard = live();
        let file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
            .map_err(|e| anyhow::anyhow!("cannot write {name}: {}", io_text(&e)))?;
        // A replaced file keeps its permissions.
        if let Ok(meta) = fs::metadata(&dest) {
            let _ = file.set_permissions(meta.permissions());
        }
        guard.push(Live {
            tmp: tmp.clone(),
            dir: false,
            kept: None,
        });
        drop(guard);
        Ok(OutputFile {
            dest,
            tmp,
            direct: false,
            journal: journal.then_some((0, false)),
            file: Some(BufWriter::with_capacity(1 << 16, file)),
        })
    }

    /// Writes one whole item to a journal and hands it to the disk (see
    /// [`journal`](OutputFile::journal)): once this returns, the item is kept whatever
    /// happens to the program. On an error the journal holds its earlier items only.
    pub fn append(&mut self, item: &[u8]) -> Result<()> {
        let mut guard = live();
        let name = shown_path(&self.dest);
        let fail = |e: io::Error| anyhow::anyhow!("cannot write {name}: {}", io_text(&e));
        let file = self.file.as_mut().expect("not committed");
        file.write_all(item)
            .and_then(|()| file.flush())
            .map_err(fail)?;
        let Some((kept, placed)) = self.journal.as_mut() else {
            // A device or a pipe: nothing to hand to a disk, nor to rename.
            return Ok(());
        };
        let file = file.get_ref();
        let len = file
            .sync_data()
            .and_then(|()| file.metadata())
            .map_err(fail)?
            .len();
        if !*placed {
            fs::rename(&self.tmp, &self.dest).map_err(fail)?;
            sync_dir(&parent_of(&self.dest));
            *placed = true;
            if let Some(l) = guard.iter_mut().find(|l| l.tmp == self.tmp) {
                l.tmp = self.dest.clone();
            }
            self.tmp = self.dest.clone();
        }
        *kept = len;
        if let Some(l) = guard.iter_mut().find(|l| l.tmp == self.tmp) {
            l.kept = Some(len);
        }
        Ok(())
    }

    /// Finishes the file: flushes it to the disk and renames it over the destination.
    pub fn commit(mut self) -> Result<()> {
        self.finish()
    }

    fn finish(&mut self) -> Result<()> {
        let name = shown_path(&self.dest);
        let Some(buffered) = self.file.take() else {
            return Ok(());
        };
        if self.direct {
            return buffered
                .into_inner()
                .map(drop)
                .map_err(|e| anyhow::anyhow!("cannot write {name}: {}", io_text(e.error())));
        }
        let mut guard = live();
        let result = match self.journal {
            // A journal in place holds its whole items only, and stays.
            Some((kept, true)) => {
                let (file, _) = buffered.into_parts();
                guard.retain(|l| l.tmp != self.tmp);
                return file
                    .set_len(kept)
                    .and_then(|()| file.sync_all())
                    .map_err(|e| anyhow::anyhow!("cannot write {name}: {}", io_text(&e)));
            }
            // A journal with no item never replaces a file.
            Some((_, false)) if fs::symlink_metadata(&self.dest).is_ok() => {
                drop(buffered.into_parts());
                guard.retain(|l| l.tmp != self.tmp);
                let _ = fs::remove_file(&self.tmp);
                return Ok(());
            }
            Some((_, false)) => {
                let (file, _) = buffered.into_parts();
                file.set_len(0).and_then(|()| file.sync_all())
            }
            None => buffered
                .into_inner()
                .map_err(io::IntoInnerError::into_error)
                .and_then(|f| f.sync_all()),
        };
        let result = result.and_then(|()| fs::rename(&self.tmp, &self.dest));
        if result.is_ok() {
            sync_dir(&parent_of(&self.dest));
        }
        guard.retain(|l| l.tmp != self.tmp);
        drop(guard);
        if let Err(e) = result {
            let _ = fs::remove_file(&self.tmp);
            bail!("cannot write {name}: {}", io_text(&e));
        }
        Ok(())
    }
}

impl Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.as_mut().expect("not committed").write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.as_mut().expect("not committed").flush()
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        let Some(file) = self.file.take() else {
            return;
        };
        if self.direct {
            // Nothing to remove or rename; unwritten bytes stay unwritten.
            let _ = file.into_parts();
            return;
        }
        // Unwritten bytes stay unwritten: they are not a whole item.
        let (file, _) = file.into_parts();
        let mut guard = live();
        if let Some(i) = guard.iter().position(|l| l.tmp == self.tmp) {
            let l = guard.swap_remove(i);
            if let (Some(kept), true) = (l.kept, !l.dir) {
                // A journal in place: cut back to its whole items.
                let _ = file.set_len(kept).and_then(|()| file.sync_all());
            } else {
                drop(file);
                keep_or_remove(&l);
            }
        }
    }
}

/// A temporary folder `.fanorona-tmp-PID-N` inside a destination folder, for outputs made of
/// several files: they are written there, then moved into the destination with
/// [`TempDir::move_into_place`]. Dropped (an error) or interrupted, it is removed with what it
/// holds, and the destination keeps its files as they were.
pub struct TempDir {
    path: PathBuf,
    dest: PathBuf,
}

impl TempDir {
    /// Makes a temporary folder in `dest` (made too, if missing).
    pub fn new_in(dest: impl AsRef<Path>) -> Result<TempDir> {
        let dest = dest.as_ref().to_owned();
        let name = shown_path(&dest);
        fs::create_dir_all(&dest)
            .map_err(|e| anyhow::anyhow!("cannot make the folder {name}: {}", io_text(&e)))?;
        remove_stale(&dest, std::ffi::OsStr::new(""));
        let path = dest.join(format!(
            ".fanorona-tmp-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let mut guard = live();
        fs::create_dir(&path)
            .map_err(|e| anyhow::anyhow!("cannot write in {name}: {}", io_text(&e)))?;
        guard.push(Live {
            tmp: path.clone(),
            dir: true,
            kept: None,
        });
        Ok(TempDir { path, dest })
    }

    /// The temporary folder.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Moves every file of the temporary folder into the destination (replacing files of the
    /// same names, each by one rename), removes the temporary folder, and returns where a
    /// path inside the temporary folder went.
    pub fn move_into_place(self) -> Result<impl Fn(&Path) -> PathBuf> {
        let name = shown_path(&self.dest);
        let fail = |e: io::Error| anyhow::anyhow!("cannot write in {name}: {}", io_text(&e));
        {
            let _guard = live();
            for entry in fs::read_dir(&self.path).map_err(fail)? {
                let entry = entry.map_err(fail)?;
                // Each file is on the disk before its name is: a power cut never leaves an
                // empty file under a finished name.
                if entry.file_type().map_err(fail)?.is_file() {
                    File::open(entry.path())
                        .and_then(|f| f.sync_all())
                        .map_err(fail)?;
                }
                fs::rename(entry.path(), self.dest.join(entry.file_name())).map_err(fail)?;
            }
            sync_dir(&self.dest);
        }
        let (tmp, dest) = (self.path.clone(), self.dest.clone());
        drop(self);
        Ok(move |p: &Path| match p.strip_prefix(&tmp) {
            Ok(rest) => dest.join(rest),
            Err(_) => p.to_owned(),
        })
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let mut guard = live();
        let _ = fs::remove_dir_all(&self.path);
        guard.retain(|l| l.tmp != self.path);
    }
}

/// An error and its causes as one line, `what: why: why`, leaving out a cause whose text is
/// already there (a library's error often repeats its source's text) and the `(os error N)`
/// numbers, with control characters escaped.
pub fn error_text(err: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in err.chain() {
        let bare = strip_os_error(&cause.to_string());
        if bare.is_empty() || text.contains(&bare) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&bare);
    }
    clip_middle(&sanitize(&text), MAX_ERROR_CHARS)
}

/// The longest error message printed, in characters: a message quoting a huge argument (a
/// `--fen` or `--play` of 100 000 characters) keeps its start and its end, where the reason is.
pub const MAX_ERROR_CHARS: usize = 1000;

/// `text` if it has at most `max` characters; otherwise its first and last characters with a
/// note of how many were left out in between.
pub fn clip_middle(text: &str, max: usize) -> String {
    let count = text.chars().count();
    if count <= max {
        return text.to_owned();
    }
    let (head, tail) = (max * 7 / 10, max / 5);
    let start: String = text.chars().take(head).collect();
    let end: String = text.chars().skip(count - tail).collect();
    format!(
        "{start} [... {} characters left out ...] {end}",
        count - head - tail
    )
}

/// `text` without its ` (os error N)` parts (for messages that carry an I/O error as text).
pub fn without_os_error(text: &str) -> String {
    strip_os_error(text)
}

/// `text` without its ` (os error N)` parts.
fn strip_os_error(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(" (os error ") {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        rest = match rest.find(')') {
            Some(j) => &rest[j + 1..],
            None => "",
        };
    }
    out.push_str(rest);
    out
}

/// An I/O error as words, without the `(os error N)` suffix.
pub fn io_text(e: &io::Error) -> String {
    strip_os_error(&e.to_string())
}

/// Standard output or a file, as a command's `--out`/OUTPUT option says (`-` or none is
/// standard output). A file is written as an [`OutputFile`]; call [`Output::finish`] on
/// success.
pub enum Output {
    /// Standard output, buffered.
    Stdout(BufWriter<Stdout>),
    /// A file.
    File(OutputFile),
}

impl Output {
    /// Opens `path` (`None` or `-` is standard output).
    pub fn open(path: Option<&str>) -> Result<Output> {
        match path {
            None | Some("-") => Ok(Output::Stdout(BufWriter::with_capacity(1 << 16, stdout()))),
            Some(p) => Ok(Output::File(OutputFile::create(p)?)),
        }
    }

    /// Finishes: flushes standard output, or commits the file.
    pub fn finish(self) -> Result<()> {
        match self {
            Output::Stdout(mut w) => w.flush().context("cannot write standard output"),
            Output::File(f) => f.commit(),
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Output::Stdout(w) => w.write(buf),
            Output::File(f) => f.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Output::Stdout(w) => w.write_all(buf),
            Output::File(f) => f.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::Stdout(w) => w.flush(),
            Output::File(f) => f.flush(),
        }
    }
}

/// Writes `bytes` to `dest` as an [`OutputFile`]: all of it, or nothing.
pub fn write_file(dest: impl AsRef<Path>, bytes: &[u8]) -> Result<()> {
    let dest = dest.as_ref();
    let mut f = OutputFile::create(dest)?;
    f.write_all(bytes)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {}", shown_path(dest), io_text(&e)))?;
    f.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("fanorona-output-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn leftovers(dir: &Path) -> Vec<String> {
        fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("fanorona-tmp"))
            .collect()
    }

    #[test]
    fn a_dropped_file_leaves_the_destination_alone() {
        let dir = scratch("drop");
        let dest = dir.join("out.txt");
        fs::write(&dest, "old").unwrap();
        {
            let mut f = OutputFile::create(&dest).unwrap();
            f.write_all(b"new but unfinished").unwrap();
            f.flush().unwrap();
        }
        assert_eq!(fs::read_to_string(&dest).unwrap(), "old");
        assert!(leftovers(&dir).is_empty());
        let mut f = OutputFile::create(&dest).unwrap();
        f.write_all(b"new").unwrap();
        f.commit().unwrap();
        assert_eq!(fs::read_to_string(&dest).unwrap(), "new");
        assert!(leftovers(&dir).is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_journal_keeps_whole_items() {
        let dir = scratch("journal");
        let dest = dir.join("games.fgn");
        {
            let mut f = OutputFile::journal(&dest).unwrap();
            f.append(b"game 1\n").unwrap();
            f.write_all(b"half a ga").unwrap();
        }
        assert_eq!(fs::read_to_string(&dest).unwrap(), "game 1\n");
        assert!(leftovers(&dir).is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_journal_is_in_place_from_its_first_item_and_an_empty_one_replaces_nothing() {
        let dir = scratch("journal-place");
        let dest = dir.join("games.fgn");
        fs::write(&dest, "old games\n").unwrap();
        // No item: the file stays as it was, committed or dropped.
        OutputFile::journal(&dest).unwrap().commit().unwrap();
        drop(OutputFile::journal(&dest).unwrap());
        assert_eq!(fs::read_to_string(&dest).unwrap(), "old games\n");
        assert!(leftovers(&dir).is_empty());
        // Each item is in the destination as soon as it is appended, with no temporary file.
        let mut f = OutputFile::journal(&dest).unwrap();
        f.append(b"game 1\n").unwrap();
        assert_eq!(fs::read_to_string(&dest).unwrap(), "game 1\n");
        assert!(leftovers(&dir).is_empty());
        f.append(b"game 2\n").unwrap();
        assert_eq!(fs::read_to_string(&dest).unwrap(), "game 1\ngame 2\n");
        f.commit().unwrap();
        assert_eq!(fs::read_to_string(&dest).unwrap(), "game 1\ngame 2\n");
        // A journal with no item where there was no file makes an empty one.
        let fresh = dir.join("new.fgn");
        OutputFile::journal(&fresh).unwrap().commit().unwrap();
        assert_eq!(fs::read_to_string(&fresh).unwrap(), "");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn links_are_the_same_file() {
        let dir = scratch("same");
        let a = dir.join("a.fgn");
        fs::write(&a, "x").unwrap();
        let a_str = a.to_str().unwrap();
        let sym = dir.join("sym.fgn");
        std::os::unix::fs::symlink(&a, &sym).unwrap();
        let hard = dir.join("hard.fgn");
        fs::hard_link(&a, &hard).unwrap();
        let other = dir.join("other.fgn");
        fs::write(&other, "x").unwrap();
        assert!(refuse_same_file(&[a_str], a_str).is_err());
        assert!(refuse_same_file(&[a_str], sym.to_str().unwrap()).is_err());
        assert!(refuse_same_file(&[a_str], hard.to_str().unwrap()).is_err());
        assert!(refuse_same_file(&[a_str], other.to_str().unwrap()).is_ok());
        assert!(refuse_same_file(&[a_str], dir.join("new").to_str().unwrap()).is_ok());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(shown("a\u{1b}[31mb.fgn"), "a\\x1b[31mb.fgn");
        assert_eq!(shown("-"), "<stdin>");
        assert_eq!(shown("plain é.fgn"), "plain é.fgn");
        assert_eq!(sanitize("two\nlines"), "two\nlines");
        assert_eq!(sanitize("bell\u{7}"), "bell\\x07");
    }

    /// Files are written only here, whole or not at all: no command opens one for writing
    /// by itself (println! and friends are kept out by clippy's print lints in main.rs).
    #[test]
    fn files_are_written_only_through_this_module() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut dirs = vec![src];
        let mut offenders = Vec::new();
        while let Some(dir) = dirs.pop() {
            for entry in fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                    continue;
                }
                if path.file_name().is_some_and(|n| n == "output.rs") {
                    continue;
                }
                let text = fs::read_to_string(&path).unwrap();
                for bad in ["fs::write(", "File::create(", "OpenOptions::new("] {
                    if text.contains(bad) {
                        offenders.push(format!("{}: {bad}", path.display()));
                    }
                }
            }
        }
        assert!(
            offenders.is_empty(),
            "write files with output::OutputFile or output::write_file: {offenders:?}"
        );
    }

    #[test]
    fn long_messages_keep_their_start_and_end() {
        assert_eq!(clip_middle("short", 10), "short");
        let long = format!("in --fen \"{}\": too many ranks", "9/".repeat(5000));
        let clipped = clip_middle(&long, 100);
        assert!(clipped.starts_with("in --fen \"9/9/"), "{clipped}");
        assert!(clipped.ends_with("\": too many ranks"), "{clipped}");
        assert!(
            clipped.contains("[... 9937 characters left out ...]"),
            "{clipped}"
        );
        // Characters, not bytes: no split inside a multi-byte character.
        assert_eq!(
            clip_middle(&"é".repeat(20), 10)
                .chars()
                .filter(|&c| c == 'é')
                .count(),
            9
        );
    }

    #[test]
    fn os_error_numbers_are_left_out() {
        let e = io::Error::from_raw_os_error(2);
        assert!(!io_text(&e).contains("os error"));
    }
}
