//! Screenshots of the 3D client: finding a display, running `fanorona-3d --screenshot` under it,
//! and checking that a real PNG came out. Shared by the CI smoke test and `cargo xtask docs`.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, bail};

use crate::cargo;
use crate::cmd::{self, Cmd};

/// How long the client may take to start, render and save one screenshot: longer than the
/// longest `--timeout` a screenshot asks for (the analysis screen's 400 s, see
/// `docs::SCREENSHOTS`), so the client reports its own time-out first.
pub const TIME_LIMIT: Duration = Duration::from_secs(450);

/// Where the client can draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Display {
    /// A virtual X server started by `xvfb-run` (Linux, headless machines and CI).
    Xvfb,
    /// The display of the current session.
    Native,
}

/// Finds a display to draw on, or says why there is none.
///
/// On Linux and other Unix systems `xvfb-run` is preferred (it gives every run the same screen),
/// then `DISPLAY` or `WAYLAND_DISPLAY`. On macOS and Windows a desktop session always has a
/// display, but CI machines (`CI` set) have no GPU to draw with, so the check is skipped there.
pub fn find_display() -> Result<Display, String> {
    let env_set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
    if cfg!(any(target_os = "macos", windows)) {
        return if env_set("CI") {
            Err("no GPU display on this CI platform (the Linux job runs the check)".to_owned())
        } else {
            Ok(Display::Native)
        };
    }
    if cmd::on_path("xvfb-run") {
        Ok(Display::Xvfb)
    } else if env_set("DISPLAY") || env_set("WAYLAND_DISPLAY") {
        Ok(Display::Native)
    } else {
        Err("no display/xvfb-run (install xvfb, or set DISPLAY)".to_owned())
    }
}

/// Width and height of a picture, in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

/// The command that builds the client for screenshots.
///
/// It selects what `cargo test --workspace` selects (every member, test targets included), not
/// just `-p fanorona-bevy`: cargo unifies dependency features over the selected packages, and
/// a client built alone gets different features for shared crates (`rand`, `rustix`, ...),
/// which recompiles half of Bevy. Built this way after the `test` step, only the client's own
/// binary is new. `xtask` is left out so that the running task is never rebuilt under itself.
pub fn build_client_command() -> Cmd {
    Cmd::cargo().args([
        "build",
        "--workspace",
        "--exclude",
        "xtask",
        "--bins",
        "--tests",
    ])
}

/// Builds the client (dev profile) and returns the path of `fanorona-3d`.
pub fn build_client() -> Result<PathBuf> {
    let executables = cargo::build_executables(build_client_command())?;
    match executables
        .into_iter()
        .find(|(name, _)| name == "fanorona-3d")
    {
        Some((_, path)) => Ok(path),
        None => bail!("the build produced no `fanorona-3d` executable"),
    }
}

/// The command that makes the client save one screenshot of `size` to `out` and quit; `extra`
/// are further client arguments that pick what it shows (`--game FILE --turn N`, `--menu`).
pub fn capture_command(
    client: &Path,
    display: Display,
    out: &Path,
    size: Size,
    extra: &[&str],
) -> Cmd {
    let client_args = |c: Cmd| {
        c.arg("--screenshot")
            .arg(out)
            .arg("--size")
            .arg(size.to_string())
            .args(extra)
    };
    match display {
        Display::Native => client_args(Cmd::new(client)),
        Display::Xvfb => {
            // The virtual screen must hold the whole window.
            let screen = format!(
                "-screen 0 {}x{}x24",
                size.width.max(1280),
                size.height.max(720)
            );
            let mut c = Cmd::new("xvfb-run").args(["-a", "-s", &screen]).arg(client);
            if std::env::var_os("WGPU_BACKEND").is_none() {
                // Xvfb has no GL acceleration; Mesa's software Vulkan driver (lavapipe) works.
                c = c.env("WGPU_BACKEND", "vulkan");
            }
            client_args(c)
        }
    }
}

/// Runs the client to save a screenshot to `out` and checks the result; returns the size of
/// the saved picture.
pub fn capture(
    client: &Path,
    display: Display,
    out: &Path,
    size: Size,
    extra: &[&str],
) -> Result<Size> {
    if out.exists() {
        fs::remove_file(out).with_context(|| format!("removing the old {}", out.display()))?;
    }
    capture_command(client, display, out, size, extra).run_with_timeout(TIME_LIMIT)?;
    let saved = check_png_file(out).context("the client did not save a usable screenshot")?;
    if saved != size {
        eprintln!("note: asked for a {size} screenshot, got {saved} (display scaling?)");
    }
    Ok(saved)
}

/// Checks that `path` holds a non-empty PNG picture and returns its size.
pub fn check_png_file(path: &Path) -> Result<Size> {
    let bytes = fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    png_size(&bytes).with_context(|| format!("{} is not a usable PNG file", path.display()))
}

/// The size recorded in a PNG file's header, after checking the signature and the header chunk.
pub fn png_size(bytes: &[u8]) -> Result<Size> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if bytes.is_empty() {
        bail!("the file is empty");
    }
    if !bytes.starts_with(SIGNATURE) {
        bail!("the file does not start with the PNG signature");
    }
    // Signature (8), then the IHDR chunk: length (4), type (4), width (4), height (4), ...
    let header = bytes
        .get(8..33)
        .context("the file ends inside the PNG header")?;
    if &header[4..8] != b"IHDR" {
        bail!("the first PNG chunk is not IHDR");
    }
    let number = |at: usize| {
        u32::from_be_bytes([header[at], header[at + 1], header[at + 2], header[at + 3]])
    };
    let size = Size {
        width: number(8),
        height: number(12),
    };
    if size.width == 0 || size.height == 0 {
        bail!("the picture is {size} pixels");
    }
    Ok(size)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first 33 bytes of a PNG file of the given size (signature and IHDR chunk with a
    /// dummy CRC, which `png_size` does not check).
    fn png_header(width: u32, height: u32) -> Vec<u8> {
        let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
        bytes.extend_from_slice(&13u32.to_be_bytes());
        bytes.extend_from_slice(b"IHDR");
        bytes.extend_from_slice(&width.to_be_bytes());
        bytes.extend_from_slice(&height.to_be_bytes());
        bytes.extend_from_slice(&[8, 6, 0, 0, 0]); // 8-bit RGBA, no interlace
        bytes.extend_from_slice(&[0, 0, 0, 0]); // CRC
        bytes
    }

    #[test]
    fn reads_the_size_of_a_png() {
        assert_eq!(
            png_size(&png_header(640, 360)).unwrap(),
            Size {
                width: 640,
                height: 360
            }
        );
        assert_eq!(
            png_size(&png_header(1, 70000)).unwrap(),
            Size {
                width: 1,
                height: 70000
            }
        );
    }

    #[test]
    fn rejects_what_is_not_a_png() {
        let message = |bytes: &[u8]| png_size(bytes).unwrap_err().to_string();
        assert_eq!(message(b""), "the file is empty");
        assert_eq!(
            message(b"GIF89a........................."),
            "the file does not start with the PNG signature"
        );
        assert_eq!(
            message(&png_header(640, 360)[..20]),
            "the file ends inside the PNG header"
        );
        let mut not_ihdr = png_header(640, 360);
        not_ihdr[12..16].copy_from_slice(b"IDAT");
        assert_eq!(message(&not_ihdr), "the first PNG chunk is not IHDR");
        assert_eq!(message(&png_header(0, 360)), "the picture is 0x360 pixels");
    }

    #[test]
    fn checks_a_file_on_disk() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("shot.png");
        assert!(format!("{:#}", check_png_file(&path).unwrap_err()).contains("cannot read"));
        fs::write(&path, png_header(1280, 720)).unwrap();
        assert_eq!(check_png_file(&path).unwrap().to_string(), "1280x720");
    }

    #[test]
    fn the_xvfb_command_sizes_the_screen_and_picks_vulkan() {
        let size = Size {
            width: 640,
            height: 360,
        };
        let cmd = capture_command(
            Path::new("fanorona-3d"),
            Display::Xvfb,
            Path::new("s.png"),
            size,
            &[],
        );
        let shown = cmd.to_string();
        assert!(shown.contains("xvfb-run -a -s '-screen 0 1280x720x24' fanorona-3d --screenshot s.png --size 640x360"), "{shown}");
        let big = Size {
            width: 1920,
            height: 1080,
        };
        let cmd = capture_command(
            Path::new("c"),
            Display::Native,
            Path::new("s.png"),
            big,
            &["--menu"],
        );
        assert_eq!(
            cmd.to_string(),
            "c --screenshot s.png --size 1920x1080 --menu"
        );
        let cmd = capture_command(Path::new("c"), Display::Xvfb, Path::new("s.png"), big, &[]);
        assert!(cmd.to_string().contains("-screen 0 1920x1080x24"));
    }
}
