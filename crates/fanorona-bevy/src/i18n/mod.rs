//! Texts and languages: every text the client shows comes from the Fluent message files in
//! `locales/<code>/*.ftl` (English `en`, French `fr`, Malagasy `mg`), embedded at build time.
//!
//! - [`Tr`], a resource: the current language's catalogue. `tr.get("menu-start")`,
//!   `tr.args("stones-left", &[("count", 3.into())])`, or `tr.msg(&msg)` for a [`Msg`].
//!   A missing id shows as the id itself (and a test fails).
//! - [`Msg`]: a message id with its arguments, kept by features that store a text to show
//!   later (the game's message line, a status) and rendered in the language of the moment.
//! - [`Localized`]: on a `Text` entity, the message it shows; the text is written again
//!   whenever the message or the language changes.
//! - [`LanguageChanged`]: sent when the language changes, for texts a feature builds itself.
//! - [`Language`]: the languages; the player's choice is `Settings::language` (none: the
//!   system's locale, see [`system_language`]).
//!
//! A feature adds its texts in its own file per language (`locales/en/editor.ftl`,
//! `locales/fr/editor.ftl`, `locales/mg/editor.ftl`): every `.ftl` file of a language folder is
//! loaded, with no code change. Ids are prefixed by the feature (`editor-...`).

use std::borrow::Cow;
use std::fmt;
use std::sync::OnceLock;

use bevy::prelude::*;
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use serde::{Deserialize, Serialize};

use crate::settings::Settings;

mod files {
    // i18n: not text (a file name)
    include!(concat!(env!("OUT_DIR"), "/locales.rs"));
}

/// The languages of the client.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Language {
    /// English (`en`).
    #[default]
    #[serde(rename = "en")]
    English,
    /// French (`fr`).
    #[serde(rename = "fr")]
    French,
    /// Malagasy (`mg`).
    #[serde(rename = "mg")]
    Malagasy,
}

impl Language {
    /// All languages, in the menu's order.
    pub const ALL: [Language; 3] = [Language::English, Language::French, Language::Malagasy];

    /// The language's code (ISO 639-1), also the name of its folder under `locales/`.
    pub fn code(self) -> &'static str {
        match self {
            // i18n: not text (language codes)
            Language::English => "en",
            // i18n: not text (language codes)
            Language::French => "fr",
            // i18n: not text (language codes)
            Language::Malagasy => "mg",
        }
    }

    /// The language for a code (`fr`), or for a locale such as `fr_FR.UTF-8`, `fr-CA` or
    /// `mg_MG`; `None` for a language the client does not have.
    pub fn from_locale(locale: &str) -> Option<Language> {
        let code = locale
            .split(['_', '-', '.', '@'])
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        Language::ALL.into_iter().find(|l| l.code() == code)
    }

    /// The language after this one in the menu (wrapping around).
    pub fn next(self) -> Language {
        let i = Language::ALL.iter().position(|l| *l == self).unwrap_or(0);
        Language::ALL[(i + 1) % Language::ALL.len()]
    }
}

/// The language of the system's locale: the first of `LANGUAGE` (a list, `fr:en`), `LC_ALL`,
/// `LC_MESSAGES` and `LANG` that is set (as gettext reads them), else the operating system's
/// setting; English when the client does not have that language.
pub fn system_language() -> Language {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    language_for_locale(
        // i18n: not text (environment variables)
        var("LANGUAGE").as_deref(),
        // i18n: not text (environment variables)
        var("LC_ALL")
            // i18n: not text (environment variables)
            .or_else(|| var("LC_MESSAGES"))
            // i18n: not text (environment variables)
            .or_else(|| var("LANG"))
            .or_else(sys_locale::get_locale)
            .as_deref(),
    )
}

/// The language for a locale (`fr_FR.UTF-8`) and the GNU priority list `LANGUAGE`
/// (`mg:fr`), which counts only when a locale other than `C`/`POSIX` is set (as in gettext).
pub fn language_for_locale(list: Option<&str>, locale: Option<&str>) -> Language {
    let locale = locale.filter(|l| {
        let base = l.split('.').next().unwrap_or_default();
        // i18n: not text (a locale name)
        base != "C" && base != "POSIX"
    });
    if locale.is_some()
        && let Some(language) = list
            .into_iter()
            .flat_map(|l| l.split(':'))
            .find_map(Language::from_locale)
    {
        return language;
    }
    locale
        .and_then(Language::from_locale)
        .unwrap_or(Language::English)
}

/// A value given to a message: `{ $count }` in the message file.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Arg {
    /// A whole number (plurals select on it: `1 stone`, `2 stones`).
    Int(i64),
    /// A number with this many decimals, written the language's way (`1.25`, `1,25`).
    Decimal(f64, u8),
    /// Text shown as it is: turn notation (`c1-d2A`), a point, a file name.
    Text(String),
    /// Another message, rendered in the same language (a side's name, a reason).
    Msg(Box<Msg>),
}

macro_rules! arg_from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(n: $t) -> Arg {
                Arg::Int(i64::try_from(n).unwrap_or(i64::MAX))
            }
        }
    )*};
}
arg_from_int!(i64, i32, u32, u64, usize, u8, u16, i8, i16);

impl From<&str> for Arg {
    fn from(s: &str) -> Arg {
        Arg::Text(s.to_owned())
    }
}

impl From<String> for Arg {
    fn from(s: String) -> Arg {
        Arg::Text(s)
    }
}

impl From<&String> for Arg {
    fn from(s: &String) -> Arg {
        Arg::Text(s.clone())
    }
}

impl From<Msg> for Arg {
    fn from(m: Msg) -> Arg {
        Arg::Msg(Box::new(m))
    }
}

/// A message to show: its id in the message files and its arguments. Rendered with
/// [`Tr::msg`] in the language of the moment; its `Display` is the English text (for logs
/// and tests). The default, empty message shows nothing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Msg {
    id: Cow<'static, str>,
    args: Vec<(Cow<'static, str>, Arg)>,
}

impl Msg {
    /// The message `id`, without arguments.
    pub fn new(id: impl Into<Cow<'static, str>>) -> Msg {
        Msg {
            id: id.into(),
            args: Vec::new(),
        }
    }

    /// This message with one more argument.
    #[must_use]
    pub fn with(mut self, name: &'static str, value: impl Into<Arg>) -> Msg {
        self.args.push((Cow::Borrowed(name), value.into()));
        self
    }

    /// The message's id (empty for the empty message).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The message's arguments.
    pub fn args(&self) -> &[(Cow<'static, str>, Arg)] {
        &self.args
    }

    /// The value of argument `name`.
    pub fn arg(&self, name: &str) -> Option<&Arg> {
        self.args.iter().find(|(n, _)| n == name).map(|(_, a)| a)
    }

    /// Whether this is the empty message (it shows nothing).
    pub fn is_empty(&self) -> bool {
        self.id.is_empty()
    }
}

impl fmt::Display for Msg {
    /// The English text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&Tr::english().msg(self))
    }
}

/// The catalogue of one language: every message of its files. A resource holding the
/// current language (see the module's documentation).
#[derive(Resource)]
pub struct Tr {
    language: Language,
    bundle: FluentBundle<FluentResource>,
    errors: Vec<String>,
}

impl fmt::Debug for Tr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // i18n: not text (a debug listing)
        f.debug_struct("Tr")
            // i18n: not text (a debug listing)
            .field("language", &self.language)
            .finish_non_exhaustive()
    }
}

impl Default for Tr {
    fn default() -> Self {
        Tr::new(Language::English)
    }
}

impl Tr {
    /// The catalogue of `language`, from all its message files.
    pub fn new(language: Language) -> Tr {
        let locale = language
            .code()
            .parse()
            .expect("the language codes are valid language identifiers");
        let mut bundle = FluentBundle::new_concurrent(vec![locale]);
        // No Unicode isolation marks around arguments: the UI font draws them as boxes.
        bundle.set_use_isolating(false);
        let mut errors = Vec::new();
        for (code, name, text) in files::FILES {
            if *code != language.code() {
                continue;
            }
            let resource = match FluentResource::try_new((*text).to_owned()) {
                Ok(resource) => resource,
                Err((resource, parse_errors)) => {
                    errors.extend(
                        parse_errors
                            .iter()
                            // i18n: not text (a log line)
                            .map(|e| format!("locales/{code}/{name}: {e}")),
                    );
                    resource
                }
            };
            if let Err(add_errors) = bundle.add_resource(resource) {
                errors.extend(
                    add_errors
                        .iter()
                        // i18n: not text (a log line)
                        .map(|e| format!("locales/{code}/{name}: {e}")),
                );
            }
        }
        for e in &errors {
            warn!("{e}");
        }
        Tr {
            language,
            bundle,
            errors,
        }
    }

    /// The English catalogue, built once (for `Msg`'s `Display`).
    pub fn english() -> &'static Tr {
        static ENGLISH: OnceLock<Tr> = OnceLock::new();
        ENGLISH.get_or_init(|| Tr::new(Language::English))
    }

    /// The catalogue's language.
    pub fn language(&self) -> Language {
        self.language
    }

    /// What went wrong reading the message files (none in a correct build).
    pub fn errors(&self) -> &[String] {
        &self.errors
    }

    /// Whether the catalogue has message `id`.
    pub fn has(&self, id: &str) -> bool {
        self.bundle.has_message(id)
    }

    /// The text of message `id` (the id itself when it is missing).
    pub fn get(&self, id: &str) -> String {
        self.format(id, None)
    }

    /// The text of message `id` with these arguments.
    pub fn args(&self, id: &str, args: &[(&str, Arg)]) -> String {
        let mut fluent = FluentArgs::with_capacity(args.len());
        for (name, value) in args {
            fluent.set(*name, self.value(value));
        }
        self.format(id, Some(&fluent))
    }

    /// The text of a [`Msg`] (empty for the empty message).
    pub fn msg(&self, msg: &Msg) -> String {
        if msg.is_empty() {
            return String::new();
        }
        let mut fluent = FluentArgs::with_capacity(msg.args.len());
        for (name, value) in &msg.args {
            fluent.set(name.clone(), self.value(value));
        }
        self.format(&msg.id, Some(&fluent))
    }

    fn value(&self, arg: &Arg) -> FluentValue<'static> {
        match arg {
            Arg::Int(n) => FluentValue::from(*n),
            Arg::Decimal(x, digits) => {
                let text = format!("{x:.*}", usize::from(*digits));
                FluentValue::from(match self.language {
                    // French and Malagasy write a decimal comma.
                    Language::French | Language::Malagasy => text.replace('.', ","),
                    Language::English => text,
                })
            }
            Arg::Text(s) => FluentValue::from(s.clone()),
            Arg::Msg(m) => FluentValue::from(self.msg(m)),
        }
    }

    fn format(&self, id: &str, args: Option<&FluentArgs<'_>>) -> String {
        let (text, errors) = self.format_checked(id, args);
        for e in &errors {
            debug!("message {id} ({}): {e}", self.language.code());
        }
        text
    }

    /// The text of message `id` and what went wrong resolving it (a missing message, a
    /// variable not given, a reference to a missing message).
    pub(crate) fn format_checked(
        &self,
        id: &str,
        args: Option<&FluentArgs<'_>>,
    ) -> (String, Vec<String>) {
        let Some(pattern) = self.bundle.get_message(id).and_then(|m| m.value()) else {
            // i18n: not text (a log line)
            return (id.to_owned(), vec![format!("no message {id}")]);
        };
        let mut errors = Vec::new();
        let text = self.bundle.format_pattern(pattern, args, &mut errors);
        (
            text.into_owned(),
            errors.iter().map(ToString::to_string).collect(),
        )
    }

    /// Every message id of this catalogue's files.
    pub fn ids(&self) -> Vec<String> {
        message_ids(self.language)
    }
}

/// The ids of the messages in `language`'s files, in file order.
pub fn message_ids(language: Language) -> Vec<String> {
    use fluent_syntax::ast::Entry;
    let mut ids = Vec::new();
    for (code, _, text) in files::FILES {
        if *code != language.code() {
            continue;
        }
        let resource = match fluent_syntax::parser::parse(*text) {
            Ok(r) => r,
            Err((r, _)) => r,
        };
        for entry in resource.body {
            if let Entry::Message(m) = entry {
                ids.push(m.id.name.to_owned());
            }
        }
    }
    ids
}

/// Marks a `Text` entity with the message it shows: the text is written from it whenever the
/// message changes (change the component) or the language does.
#[derive(Component, Clone, Debug, Default, PartialEq)]
#[require(Text)]
pub struct Localized(pub Msg);

impl Localized {
    /// Shows message `id`.
    pub fn new(id: impl Into<Cow<'static, str>>) -> Localized {
        Localized(Msg::new(id))
    }
}

impl From<&'static str> for Localized {
    fn from(id: &'static str) -> Localized {
        Localized::new(id)
    }
}

impl From<Msg> for Localized {
    fn from(m: Msg) -> Localized {
        Localized(m)
    }
}

/// The language changed (sent once, after [`Tr`] holds the new language).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct LanguageChanged(pub Language);

/// The systems of this module: [`Tr`] follows `Settings::language`, then the [`Localized`]
/// texts are written. Both run in `PostUpdate`, before the UI lays text out.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub struct I18nSet;

/// Switches [`Tr`] to the language of the settings, and says so.
fn follow_settings(
    settings: Option<Res<Settings>>,
    mut tr: ResMut<Tr>,
    mut changed: MessageWriter<LanguageChanged>,
) {
    let Some(settings) = settings else { return };
    let wanted = settings.language();
    if tr.language() != wanted {
        *tr = Tr::new(wanted);
        changed.write(LanguageChanged(wanted));
    }
}

/// Writes the texts of new or changed [`Localized`] entities, and of all after a change of
/// language.
fn render_localized(
    tr: Res<Tr>,
    mut texts: Query<(Ref<Localized>, &mut Text)>,
    mut last: Local<Option<Language>>,
) {
    let all = *last != Some(tr.language());
    *last = Some(tr.language());
    for (localized, mut text) in &mut texts {
        if all || localized.is_changed() {
            let value = tr.msg(&localized.0);
            if text.0 != value {
                text.0 = value;
            }
        }
    }
}

/// The UI's font: DejaVu Sans Mono, which has the letters of French (é, è, ç, ...) and of
/// Malagasy; Bevy's built-in font is a subset without them. Its license is
/// `assets/fonts/LICENSE-DejaVu.txt`.
const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansMono.ttf");

/// Makes [`FONT`] the default font of every text (when the app has text rendering).
fn use_font_with_every_letter(app: &mut App) {
    if let Some(mut fonts) = app.world_mut().get_resource_mut::<Assets<Font>>()
        && let Err(e) = fonts.insert(AssetId::default(), Font::from_bytes(FONT.to_vec()))
    {
        warn!("the UI font could not be set: {e}");
    }
}

/// The plugin: the [`Tr`] resource (in the settings' language), [`LanguageChanged`], the
/// [`Localized`] texts, and a font with every letter of the languages.
pub fn plugin(app: &mut App) {
    use_font_with_every_letter(app);
    let language = app
        .world()
        .get_resource::<Settings>()
        .map_or_else(system_language, Settings::language);
    app.insert_resource(Tr::new(language))
        .add_message::<LanguageChanged>()
        .configure_sets(PostUpdate, I18nSet.before(bevy::ui::UiSystems::Prepare))
        .add_systems(
            PostUpdate,
            (follow_settings, render_localized).chain().in_set(I18nSet),
        );
}

#[cfg(test)]
mod tests;
