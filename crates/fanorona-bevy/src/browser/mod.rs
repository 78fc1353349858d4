//! The Open screen: a file browser inside the client for game records, so that any record the
//! `fanorona` command reads (FGN, JSON, JSON Lines, Boardspace `.sgf`) opens from anywhere on
//! disk without a native file dialog (which on Linux would need GTK's development packages or
//! a desktop portal, and so more than the two commands of a fresh machine's set-up).
//!
//! It lists one folder at a time: the folder above, the folders, then the record files (by
//! extension; other files and hidden ones are counted, not listed). Mouse: click a folder to
//! enter it, a record to open it, the wheel scrolls, the buttons at the top jump to the games
//! folder, the home folder and the folder the client started in. Keyboard: arrows, `PageUp`,
//! `PageDown`, `Home`, `End` move, `Enter` (or `→` on a folder) opens, `Backspace` (or `←`)
//! goes up, a letter jumps to the next entry starting with it, `Esc` closes. `O` or `Ctrl+O`
//! opens the browser from the menu and the game screen.

use std::path::{Path, PathBuf};

use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::input::mouse::{AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;

use crate::game::persist::{GamesDir, Persist, PersistStatus};
use crate::i18n::{Localized, Msg, Tr};

/// The extensions of the record files listed (compared without regard to case): those whose
/// format [`crate::game::persist::RecordFormat::from_path`] names, and `.pgn` for FGN.
// i18n: not text (file extensions)
pub const RECORD_EXTENSIONS: [&str; 6] = ["fgn", "pgn", "json", "jsonl", "ndjson", "sgf"];

/// The most entries one listing keeps (a folder with more says how many were left out).
pub const MAX_ENTRIES: usize = 5000;

/// How many entries the browser shows at once.
pub const ROWS: usize = 12;

/// Whether a file name has a record extension.
pub fn is_record(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| RECORD_EXTENSIONS.iter().any(|r| e.eq_ignore_ascii_case(r)))
}

/// What an entry of a listing is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// The folder above (`..`).
    Parent,
    /// A folder.
    Folder,
    /// A record file.
    Record,
}

/// One entry of a listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// What it is.
    pub kind: EntryKind,
    /// Its name as shown (`..` for the folder above).
    pub name: String,
    /// Its path.
    pub path: PathBuf,
}

/// The contents of one folder as the browser shows them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Listing {
    /// The folder.
    pub dir: PathBuf,
    /// The folder above, the folders, the record files, each group sorted by name.
    pub entries: Vec<Entry>,
    /// Files that are no records, hidden entries (names starting with `.`) and entries past
    /// [`MAX_ENTRIES`]: counted, not listed.
    pub left_out: usize,
    /// Why the folder could not be read, if it could not.
    pub error: Option<Msg>,
}

/// Lists `dir` for the browser. A folder that cannot be read gives a listing with only the
/// folder above and the reason.
pub fn list_dir(dir: &Path) -> Listing {
    let mut listing = Listing {
        dir: dir.to_path_buf(),
        ..Listing::default()
    };
    if let Some(parent) = dir.parent() {
        listing.entries.push(Entry {
            kind: EntryKind::Parent,
            name: "..".into(),
            path: parent.to_path_buf(),
        });
    }
    let read = match std::fs::read_dir(dir) {
        Ok(read) => read,
        Err(e) => {
            listing.error = Some(
                Msg::new("status-cannot-read")
                    .with("path", dir.display().to_string())
                    .with("error", e.to_string()),
            );
            return listing;
        }
    };
    let mut folders = Vec::new();
    let mut records = Vec::new();
    for entry in read.filter_map(Result::ok) {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if name.starts_with('.') || folders.len() + records.len() >= MAX_ENTRIES {
            listing.left_out += 1;
            continue;
        }
        // Follows symbolic links: a link to a folder is a folder.
        if path.is_dir() {
            folders.push(Entry {
                kind: EntryKind::Folder,
                name,
                path,
            });
        } else if is_record(&path) {
            records.push(Entry {
                kind: EntryKind::Record,
                name,
                path,
            });
        } else {
            listing.left_out += 1;
        }
    }
    let by_name = |a: &Entry, b: &Entry| {
        a.name
            .to_lowercase()
            .cmp(&b.name.to_lowercase())
            .then_with(|| a.name.cmp(&b.name))
    };
    folders.sort_by(by_name);
    records.sort_by(by_name);
    listing.entries.extend(folders);
    listing.entries.extend(records);
    listing
}

/// A request to the browser (from its keys, its buttons, the menu or the game screen).
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum BrowserCommand {
    /// Show the browser (in the folder used last, else the games folder, else the folder the
    /// client started in).
    Open,
    /// Hide it.
    Close,
    /// List this folder.
    Go(PathBuf),
    /// The folder above.
    Up,
    /// Move the selection by this many entries.
    Move(isize),
    /// To the first (`false`) or last (`true`) entry.
    End(bool),
    /// Scroll the rows shown by this many entries (the selection stays in sight).
    Scroll(isize),
    /// Open the entry at this index of the listing: enter a folder, open a record.
    Activate(usize),
    /// Select the next entry whose name starts with this text (case ignored).
    Jump(String),
}

/// The browser's state.
#[derive(Resource, Clone, Debug, Default)]
pub struct Browser {
    /// Whether it is shown.
    pub open: bool,
    /// The folder shown.
    pub listing: Listing,
    /// The index of the selected entry.
    pub selected: usize,
    /// The index of the first entry shown.
    pub first: usize,
    /// The last load's failure, shown until the next action.
    pub error: Option<Msg>,
    /// The folder the client started in (a place to jump to).
    pub start_dir: Option<PathBuf>,
    /// The record sent to be loaded, with the load status's serial number at that moment.
    pending: Option<(PathBuf, u64)>,
    /// The browser took this frame's keys (the game's shortcuts ignore them).
    pub took_keys: bool,
}

impl Browser {
    /// The entry selected, if any.
    pub fn selected_entry(&self) -> Option<&Entry> {
        self.listing.entries.get(self.selected)
    }

    /// Lists `dir`, selecting `select` if it is there (the folder just left, going up).
    fn go(&mut self, dir: &Path, select: Option<&Path>) {
        self.listing = list_dir(dir);
        self.selected = select
            .and_then(|s| self.listing.entries.iter().position(|e| e.path == s))
            // The first entry below `..`.
            .unwrap_or(usize::from(self.listing.entries.len() > 1));
        self.first = 0;
        self.error = None;
        self.keep_in_sight();
    }

    fn keep_in_sight(&mut self) {
        let n = self.listing.entries.len();
        self.selected = self.selected.min(n.saturating_sub(1));
        if self.selected < self.first {
            self.first = self.selected;
        }
        if self.selected >= self.first + ROWS {
            self.first = self.selected + 1 - ROWS;
        }
        self.first = self.first.min(n.saturating_sub(ROWS));
    }

    /// Applies one request; a record to open is returned.
    pub fn apply(&mut self, command: &BrowserCommand, fallback: Option<&Path>) -> Option<PathBuf> {
        match command {
            BrowserCommand::Open => {
                self.open = true;
                let dir = if self.listing.dir.as_os_str().is_empty() {
                    fallback
                        .filter(|d| d.is_dir())
                        .map(Path::to_path_buf)
                        .or_else(|| self.start_dir.clone())
                        .unwrap_or_else(|| PathBuf::from("."))
                } else {
                    self.listing.dir.clone()
                };
                let selected = self.selected_entry().map(|e| e.path.clone());
                self.go(&dir, selected.as_deref());
            }
            BrowserCommand::Close => {
                self.open = false;
                self.pending = None;
            }
            BrowserCommand::Go(dir) => self.go(dir, None),
            BrowserCommand::Up => {
                let here = self.listing.dir.clone();
                if let Some(parent) = here.parent() {
                    self.go(parent, Some(&here));
                }
            }
            BrowserCommand::Move(by) => {
                self.selected = self.selected.saturating_add_signed(*by);
                self.keep_in_sight();
            }
            BrowserCommand::End(last) => {
                self.selected = if *last {
                    self.listing.entries.len().saturating_sub(1)
                } else {
                    0
                };
                self.keep_in_sight();
            }
            BrowserCommand::Scroll(by) => {
                let n = self.listing.entries.len();
                self.first = self
                    .first
                    .saturating_add_signed(*by)
                    .min(n.saturating_sub(ROWS));
                self.selected = self
                    .selected
                    .clamp(self.first, (self.first + ROWS).min(n).saturating_sub(1));
            }
            BrowserCommand::Activate(index) => {
                let entry = self.listing.entries.get(*index)?.clone();
                self.selected = *index;
                match entry.kind {
                    EntryKind::Parent => {
                        let here = self.listing.dir.clone();
                        self.go(&entry.path, Some(&here));
                    }
                    EntryKind::Folder => self.go(&entry.path, None),
                    EntryKind::Record => {
                        self.error = None;
                        return Some(entry.path);
                    }
                }
            }
            BrowserCommand::Jump(prefix) => {
                let prefix = prefix.to_lowercase();
                let n = self.listing.entries.len();
                let found = (1..=n).map(|k| (self.selected + k) % n.max(1)).find(|&i| {
                    let e = &self.listing.entries[i];
                    e.kind != EntryKind::Parent && e.name.to_lowercase().starts_with(&prefix)
                });
                if let Some(i) = found {
                    self.selected = i;
                    self.keep_in_sight();
                }
            }
        }
        None
    }
}

/// The browser's request for a key (its logical meaning) while it is open.
pub fn key_command(key: &Key, browser: &Browser) -> Option<BrowserCommand> {
    let folder_selected = browser
        .selected_entry()
        .is_some_and(|e| e.kind != EntryKind::Record);
    Some(match key {
        Key::Escape => BrowserCommand::Close,
        Key::ArrowUp => BrowserCommand::Move(-1),
        Key::ArrowDown => BrowserCommand::Move(1),
        Key::PageUp => BrowserCommand::Move(-(ROWS as isize - 1)),
        Key::PageDown => BrowserCommand::Move(ROWS as isize - 1),
        Key::Home => BrowserCommand::End(false),
        Key::End => BrowserCommand::End(true),
        Key::Enter => BrowserCommand::Activate(browser.selected),
        Key::ArrowRight if folder_selected => BrowserCommand::Activate(browser.selected),
        Key::Backspace | Key::ArrowLeft => BrowserCommand::Up,
        Key::Character(c) if !c.trim().is_empty() => BrowserCommand::Jump(c.to_string()),
        _ => return None,
    })
}

/// Keys: `O` or `Ctrl+O` opens the browser (not while a turn is typed); while it is open,
/// every key is the browser's.
fn browser_keys(
    mut keys: MessageReader<KeyboardInput>,
    entry: Option<Res<crate::game::input::TurnEntry>>,
    mut browser: ResMut<Browser>,
    mut commands: MessageWriter<BrowserCommand>,
) {
    let was_open = browser.open;
    let typing = entry.is_some_and(|e| e.open);
    for input in keys.read() {
        if input.state != ButtonState::Pressed {
            continue;
        }
        if was_open {
            if let Some(command) = key_command(&input.logical_key, &browser) {
                commands.write(command);
            }
        } else if !typing
            && (input.key_code == KeyCode::KeyO
                || matches!(&input.logical_key, Key::Character(c) if c.eq_ignore_ascii_case("o")))
            && !input.repeat
        {
            commands.write(BrowserCommand::Open);
        }
    }
    let took = was_open;
    if browser.took_keys != took {
        browser.took_keys = took;
    }
}

/// The mouse wheel scrolls the list while the browser is open.
fn browser_scroll(
    scroll: Option<Res<AccumulatedMouseScroll>>,
    browser: Res<Browser>,
    mut commands: MessageWriter<BrowserCommand>,
    mut rest: Local<f32>,
) {
    let Some(scroll) = scroll else {
        return;
    };
    if !browser.open {
        *rest = 0.0;
        return;
    }
    let lines = match scroll.unit {
        MouseScrollUnit::Line => scroll.delta.y,
        MouseScrollUnit::Pixel => scroll.delta.y / 20.0,
    };
    *rest -= lines * 3.0;
    let whole = rest.trunc();
    if whole != 0.0 {
        *rest -= whole;
        commands.write(BrowserCommand::Scroll(whole as isize));
    }
}

/// Applies the requests; a record is handed to the loader, and the browser closes once it
/// loaded (or shows why it did not).
fn apply_commands(
    mut requests: MessageReader<BrowserCommand>,
    mut browser: ResMut<Browser>,
    dir: Option<Res<GamesDir>>,
    status: Res<PersistStatus>,
    mut persist: MessageWriter<Persist>,
) {
    let games = dir.and_then(|d| d.0.clone());
    for request in requests.read() {
        if let Some(path) = browser.apply(request, games.as_deref()) {
            browser.pending = Some((path.clone(), status.serial));
            persist.write(Persist::Load(path));
        }
    }
}

/// Follows the load of the record the browser sent: closes on success, shows the reason on
/// failure (the browser stays open).
fn follow_load(mut browser: ResMut<Browser>, status: Res<PersistStatus>) {
    let Some((_, serial)) = &browser.pending else {
        return;
    };
    if status.serial == *serial {
        return;
    }
    browser.pending = None;
    if status.error {
        browser.error = Some(status.text.clone());
    } else {
        browser.open = false;
    }
}

// ---------------------------------------------------------------- the overlay

/// The browser's overlay (present while it is open).
#[derive(Component)]
pub struct BrowserOverlay;

/// A button of the browser and what it asks.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct BrowserButton(pub BrowserCommand);

/// The row showing the entry at `first + .0`.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BrowserRow(pub usize);

#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum BrowserText {
    Folder,
    Row(usize),
    Footer,
    Error,
}

fn label(value: impl Into<String>, size: f32, color: Color) -> impl Bundle {
    (
        Text::new(value),
        TextFont::from_font_size(size),
        TextColor(color),
    )
}

fn small_button(text: &'static str, command: BrowserCommand) -> impl Bundle {
    (
        Button,
        BrowserButton(command),
        Node {
            padding: UiRect::axes(px(10.0), px(4.0)),
            border_radius: BorderRadius::all(px(6.0)),
            ..default()
        },
        BackgroundColor(crate::ui::BUTTON),
        children![(
            Localized::new(text),
            TextFont::from_font_size(15.0),
            TextColor(crate::ui::TEXT),
            Pickable::IGNORE
        )],
    )
}

/// The places to jump to: the games folder, the home folder, the folder the client started in
/// (their names are message ids).
pub fn places(games: Option<&Path>, start: Option<&Path>) -> Vec<(&'static str, PathBuf)> {
    let mut places = Vec::new();
    if let Some(games) = games.filter(|d| d.is_dir()) {
        places.push(("browser-games-folder", games.to_path_buf()));
    }
    if let Some(home) = dirs::home_dir() {
        places.push(("browser-home", home));
    }
    if let Some(start) = start {
        places.push(("browser-start-folder", start.to_path_buf()));
    }
    places
}

fn sync_overlay(
    mut commands: Commands,
    browser: Res<Browser>,
    dir: Option<Res<GamesDir>>,
    overlays: Query<Entity, With<BrowserOverlay>>,
) {
    let shown = !overlays.is_empty();
    if browser.open == shown {
        return;
    }
    if !browser.open {
        for overlay in &overlays {
            commands.entity(overlay).despawn();
        }
        return;
    }
    let games = dir.and_then(|d| d.0.clone());
    let root = commands
        .spawn((
            BrowserOverlay,
            crate::game::input::BlocksBoard,
            Interaction::None,
            // Above the menu and the game's panels.
            GlobalZIndex(30),
            Node {
                position_type: PositionType::Absolute,
                width: percent(100.0),
                height: percent(100.0),
                justify_content: JustifyContent::Center,
                align_items: AlignItems::Center,
                ..default()
            },
            BackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.8)),
        ))
        .id();
    let card = commands
        .spawn((
            Node {
                width: px(640.0),
                flex_direction: FlexDirection::Column,
                padding: UiRect::all(px(14.0)),
                row_gap: px(6.0),
                border_radius: BorderRadius::all(px(10.0)),
                ..default()
            },
            BackgroundColor(Color::srgb(0.06, 0.07, 0.09)),
            children![
                (
                    Localized::new("browser-title"),
                    TextFont::from_font_size(24.0),
                    TextColor(crate::ui::ACCENT)
                ),
                (BrowserText::Folder, label("", 15.0, crate::ui::TEXT)),
            ],
        ))
        .id();
    commands.entity(root).add_child(card);
    let place_row = commands
        .spawn(Node {
            column_gap: px(6.0),
            flex_wrap: FlexWrap::Wrap,
            row_gap: px(4.0),
            ..default()
        })
        .id();
    for (name, path) in places(games.as_deref(), browser.start_dir.as_deref()) {
        let b = commands
            .spawn(small_button(name, BrowserCommand::Go(path)))
            .id();
        commands.entity(place_row).add_child(b);
    }
    let up = commands
        .spawn(small_button("browser-up", BrowserCommand::Up))
        .id();
    commands.entity(place_row).add_child(up);
    commands.entity(card).add_child(place_row);
    let list = commands
        .spawn((
            Node {
                flex_direction: FlexDirection::Column,
                row_gap: px(1.0),
                padding: UiRect::all(px(4.0)),
                border_radius: BorderRadius::all(px(6.0)),
                ..default()
            },
            BackgroundColor(Color::srgb(0.03, 0.035, 0.045)),
        ))
        .id();
    for row in 0..ROWS {
        let r = commands
            .spawn((
                Button,
                BrowserRow(row),
                Node {
                    padding: UiRect::axes(px(8.0), px(2.0)),
                    min_height: px(22.0),
                    ..default()
                },
                BackgroundColor(Color::NONE),
                children![(
                    BrowserText::Row(row),
                    label("", 16.0, crate::ui::TEXT),
                    Pickable::IGNORE
                )],
            ))
            .id();
        commands.entity(list).add_child(r);
    }
    commands.entity(card).add_child(list);
    let error = commands
        .spawn((BrowserText::Error, label("", 15.0, ERROR)))
        .id();
    let footer = commands
        .spawn((BrowserText::Footer, label("", 14.0, DIM)))
        .id();
    let buttons = commands
        .spawn((
            Node {
                column_gap: px(6.0),
                ..default()
            },
            children![small_button("browser-cancel", BrowserCommand::Close)],
        ))
        .id();
    commands
        .entity(card)
        .add_children(&[error, footer, buttons]);
}

const DIM: Color = Color::srgb(0.65, 0.67, 0.7);
const ERROR: Color = Color::srgb(1.0, 0.45, 0.4);
const FOLDER: Color = Color::srgb(0.55, 0.80, 0.95);

/// The text of the row for `entry`, and whether it is selected.
pub fn row_text(entry: &Entry, selected: bool) -> Msg {
    let mark = if selected { "> " } else { "  " };
    match entry.kind {
        EntryKind::Parent => Msg::new("browser-parent").with("mark", mark),
        EntryKind::Folder => Msg::new("browser-folder-row")
            .with("mark", mark)
            .with("name", &entry.name),
        EntryKind::Record => Msg::new("browser-record-row")
            .with("mark", mark)
            .with("name", &entry.name),
    }
}

/// The footer: where in the listing the rows are, what was left out, the keys.
pub fn footer_text(browser: &Browser) -> Msg {
    let listing = &browser.listing;
    let n = listing.entries.len();
    let shown = if n == 0 {
        Msg::new("browser-empty")
    } else {
        Msg::new("browser-range")
            .with("first", browser.first + 1)
            .with("last", (browser.first + ROWS).min(n))
            .with("count", n)
    };
    Msg::new("browser-footer")
        .with("shown", shown)
        .with("left-out", listing.left_out)
        .with(
            "extensions",
            RECORD_EXTENSIONS
                .iter()
                .map(|e| format!(".{e}"))
                .collect::<Vec<_>>()
                .join(" "),
        )
}

fn refresh_overlay(
    tr: Res<Tr>,
    browser: Res<Browser>,
    mut texts: Query<(&BrowserText, &mut Text, &mut TextColor)>,
    mut rows: Query<(&BrowserRow, &mut Node, &Interaction, &mut BackgroundColor)>,
) {
    if !browser.open {
        return;
    }
    for (which, mut text, mut color) in &mut texts {
        let (value, wanted) = match which {
            BrowserText::Folder => (
                tr.msg(
                    &Msg::new("browser-folder")
                        .with("path", browser.listing.dir.display().to_string()),
                ),
                crate::ui::TEXT,
            ),
            BrowserText::Row(row) => match browser.listing.entries.get(browser.first + row) {
                Some(entry) => {
                    let selected = browser.first + row == browser.selected;
                    let color = if selected {
                        crate::ui::ACCENT
                    } else if entry.kind == EntryKind::Record {
                        crate::ui::TEXT
                    } else {
                        FOLDER
                    };
                    (tr.msg(&row_text(entry, selected)), color)
                }
                None => (String::new(), crate::ui::TEXT),
            },
            BrowserText::Footer => (tr.msg(&footer_text(&browser)), DIM),
            BrowserText::Error => (
                tr.msg(
                    &browser
                        .error
                        .clone()
                        .or_else(|| browser.listing.error.clone())
                        .unwrap_or_default(),
                ),
                ERROR,
            ),
        };
        if text.0 != value {
            text.0 = value;
        }
        if color.0 != wanted {
            color.0 = wanted;
        }
    }
    for (row, mut node, interaction, mut background) in &mut rows {
        let present = browser.first + row.0 < browser.listing.entries.len();
        let display = if present {
            Display::Flex
        } else {
            Display::None
        };
        if node.display != display {
            node.display = display;
        }
        let selected = browser.first + row.0 == browser.selected;
        let wanted = match interaction {
            Interaction::Pressed | Interaction::Hovered => crate::ui::BUTTON,
            Interaction::None if selected => Color::srgb(0.13, 0.14, 0.18),
            Interaction::None => Color::NONE,
        };
        if background.0 != wanted {
            background.0 = wanted;
        }
    }
}

fn press_browser_buttons(
    buttons: Query<(&Interaction, &BrowserButton), Changed<Interaction>>,
    rows: Query<(&Interaction, &BrowserRow), Changed<Interaction>>,
    browser: Res<Browser>,
    mut commands: MessageWriter<BrowserCommand>,
) {
    for (interaction, button) in &buttons {
        if *interaction == Interaction::Pressed {
            commands.write(button.0.clone());
        }
    }
    for (interaction, row) in &rows {
        let index = browser.first + row.0;
        if *interaction == Interaction::Pressed && index < browser.listing.entries.len() {
            commands.write(BrowserCommand::Activate(index));
        }
    }
}

/// System set of the browser's key handling (before the game's shortcuts).
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BrowserKeys;

/// The browser plugin.
pub fn plugin(app: &mut App) {
    app.init_resource::<Tr>()
        .insert_resource(Browser {
            start_dir: std::env::current_dir().ok(),
            ..Browser::default()
        })
        .add_message::<BrowserCommand>()
        .add_systems(
            Update,
            (
                (
                    browser_keys.run_if(resource_exists::<Messages<KeyboardInput>>),
                    browser_scroll,
                )
                    .in_set(BrowserKeys),
                press_browser_buttons,
                apply_commands,
                follow_load,
                sync_overlay,
                refresh_overlay,
            )
                .chain(),
        );
}

#[cfg(test)]
mod tests;
