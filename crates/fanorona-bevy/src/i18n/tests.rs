//! Tests of the message files (every id in every language, the same variables, no parse
//! error), plurals, the system's locale and the texts that follow the language.

use std::collections::{BTreeMap, BTreeSet};

use bevy::prelude::*;
use fluent_syntax::ast;

use super::*;
use crate::settings::Settings;

/// Each message of `language`'s files with the variables it uses (`$count`), parsed from the
/// files themselves (not through [`Tr`]).
pub(crate) fn messages_with_variables(language: Language) -> BTreeMap<String, BTreeSet<String>> {
    fn inline(e: &ast::InlineExpression<&str>, out: &mut BTreeSet<String>) {
        match e {
            ast::InlineExpression::VariableReference { id } => {
                out.insert(id.name.to_owned());
            }
            ast::InlineExpression::FunctionReference { arguments, .. } => {
                for a in &arguments.positional {
                    inline(a, out);
                }
                for a in &arguments.named {
                    inline(&a.value, out);
                }
            }
            ast::InlineExpression::TermReference {
                arguments: Some(arguments),
                ..
            } => {
                for a in &arguments.positional {
                    inline(a, out);
                }
            }
            ast::InlineExpression::Placeable { expression } => expression_vars(expression, out),
            _ => {}
        }
    }
    fn expression_vars(e: &ast::Expression<&str>, out: &mut BTreeSet<String>) {
        match e {
            ast::Expression::Inline(i) => inline(i, out),
            ast::Expression::Select { selector, variants } => {
                inline(selector, out);
                for v in variants {
                    pattern(&v.value, out);
                }
            }
        }
    }
    fn pattern(p: &ast::Pattern<&str>, out: &mut BTreeSet<String>) {
        for element in &p.elements {
            if let ast::PatternElement::Placeable { expression } = element {
                expression_vars(expression, out);
            }
        }
    }
    let mut all = BTreeMap::new();
    for (code, name, text) in files::FILES {
        if *code != language.code() {
            continue;
        }
        let resource = fluent_syntax::parser::parse(*text)
            .unwrap_or_else(|(_, e)| panic!("locales/{code}/{name} does not parse: {e:?}"));
        for entry in &resource.body {
            if let ast::Entry::Message(m) = entry {
                let mut vars = BTreeSet::new();
                if let Some(value) = &m.value {
                    pattern(value, &mut vars);
                }
                for attribute in &m.attributes {
                    pattern(&attribute.value, &mut vars);
                }
                assert!(
                    all.insert(m.id.name.to_owned(), vars).is_none(),
                    "message {} is twice in the {} files",
                    m.id.name,
                    code
                );
            }
        }
    }
    all
}

#[test]
fn the_message_files_parse_and_every_language_has_every_message() {
    let english = messages_with_variables(Language::English);
    assert!(english.len() > 10, "{} English messages", english.len());
    for language in Language::ALL {
        let tr = Tr::new(language);
        assert!(tr.errors().is_empty(), "{language:?}: {:?}", tr.errors());
        let messages = messages_with_variables(language);
        let ids: BTreeSet<&String> = messages.keys().collect();
        let wanted: BTreeSet<&String> = english.keys().collect();
        let missing: Vec<_> = wanted.difference(&ids).collect();
        let extra: Vec<_> = ids.difference(&wanted).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{}: missing {missing:?}, not in English {extra:?}",
            language.code()
        );
        for (id, vars) in &english {
            assert_eq!(
                &messages[id],
                vars,
                "message {id} in {} uses other variables than in English",
                language.code()
            );
        }
    }
}

#[test]
fn every_message_resolves_in_every_language() {
    // Each message, given its variables (numbers and text both work), renders without a
    // reference to a missing message or term, and not as its id.
    for language in Language::ALL {
        let tr = Tr::new(language);
        for (id, vars) in messages_with_variables(language) {
            for value in [FluentValue::from(2), FluentValue::from("c1-d2A")] {
                let mut args = FluentArgs::new();
                for v in &vars {
                    args.set(v.clone(), value.clone());
                }
                let (text, errors) = tr.format_checked(&id, Some(&args));
                assert!(errors.is_empty(), "{id} ({}): {errors:?}", language.code());
                assert!(
                    !text.trim().is_empty(),
                    "{id} ({}) is empty",
                    language.code()
                );
            }
        }
    }
}

#[test]
fn plurals_follow_each_language() {
    let en = Tr::new(Language::English);
    assert_eq!(en.args("stones-count", &[("count", 1.into())]), "1 stone");
    assert_eq!(en.args("stones-count", &[("count", 2.into())]), "2 stones");
    assert_eq!(en.args("stones-count", &[("count", 0.into())]), "0 stones");
    let fr = Tr::new(Language::French);
    assert_eq!(fr.args("stones-count", &[("count", 1.into())]), "1 pierre");
    assert_eq!(fr.args("stones-count", &[("count", 3.into())]), "3 pierres");
    // French counts 0 as singular (CLDR: i = 0 or 1).
    assert_eq!(
        fr.args("stones-count", &[("count", 0usize.into())]),
        "0 pierre"
    );
    // Malagasy nouns have no plural.
    let mg = Tr::new(Language::Malagasy);
    assert_eq!(mg.msg(&Msg::new("stones-count").with("count", 1)), "vato 1");
    assert_eq!(mg.msg(&Msg::new("stones-count").with("count", 3)), "vato 3");
}

#[test]
fn messages_take_text_numbers_and_other_messages() {
    let fr = Tr::new(Language::French);
    assert_eq!(fr.get("side-white"), "Blanc");
    assert_eq!(Tr::new(Language::Malagasy).get("side-black"), "Mainty");
    // A nested message is rendered in the same language.
    let msg = Msg::new("side-white");
    assert_eq!(Tr::new(Language::French).msg(&msg), "Blanc");
    assert_eq!(msg.to_string(), "White", "Display is English");
    // Decimals are written the language's way.
    assert_eq!(
        format!("{:?}", en_value(&fr, &Arg::Decimal(1.25, 2))),
        format!("{:?}", FluentValue::from("1,25"))
    );
    assert_eq!(
        format!(
            "{:?}",
            en_value(&Tr::new(Language::English), &Arg::Decimal(1.25, 2))
        ),
        format!("{:?}", FluentValue::from("1.25"))
    );
    // A missing id shows as itself, so it is seen (and the tests above catch it).
    assert_eq!(fr.get("no-such-message"), "no-such-message");
    assert_eq!(fr.msg(&Msg::default()), "");
}

fn en_value(tr: &Tr, arg: &Arg) -> FluentValue<'static> {
    tr.value(arg)
}

#[test]
fn the_language_follows_the_locale() {
    assert_eq!(Language::from_locale("fr_FR.UTF-8"), Some(Language::French));
    assert_eq!(Language::from_locale("fr-CA"), Some(Language::French));
    assert_eq!(Language::from_locale("mg_MG"), Some(Language::Malagasy));
    assert_eq!(
        Language::from_locale("en_GB.UTF-8"),
        Some(Language::English)
    );
    assert_eq!(Language::from_locale("de_DE.UTF-8"), None);
    assert_eq!(Language::from_locale(""), None);
    let lang = language_for_locale;
    assert_eq!(lang(None, Some("fr_FR.UTF-8")), Language::French);
    assert_eq!(lang(None, Some("mg_MG.UTF-8")), Language::Malagasy);
    assert_eq!(lang(None, Some("de_DE.UTF-8")), Language::English);
    assert_eq!(lang(None, Some("C.UTF-8")), Language::English);
    assert_eq!(lang(None, None), Language::English);
    // GNU's LANGUAGE list comes first, its first language the client has; not with C.
    assert_eq!(
        lang(Some("de:mg:fr"), Some("fr_FR.UTF-8")),
        Language::Malagasy
    );
    assert_eq!(lang(Some("mg"), Some("C")), Language::English);
    assert_eq!(lang(Some("de"), Some("fr_FR")), Language::French);
}

#[test]
fn the_language_is_kept_in_the_settings_file() {
    let settings = Settings {
        language: Some(Language::Malagasy),
        ..Settings::default()
    };
    let json = serde_json::to_string(&settings).expect("settings serialize");
    assert!(json.contains(r#""language":"mg""#), "{json}");
    let back: Settings = serde_json::from_str(&json).expect("settings parse");
    assert_eq!(back.language(), Language::Malagasy);
    // An older file without the field follows the system.
    let old: Settings = serde_json::from_str("{}").expect("settings parse");
    assert_eq!(old.language, None);
    assert_eq!(Language::English.next(), Language::French);
    assert_eq!(Language::Malagasy.next(), Language::English);
}

#[derive(Resource, Default)]
struct Heard(Vec<Language>);

#[test]
fn localized_texts_follow_the_language() {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins).insert_resource(Settings {
        language: Some(Language::English),
        ..Settings::default()
    });
    app.add_plugins(plugin)
        .init_resource::<Heard>()
        .add_systems(
            Update,
            |mut heard: ResMut<Heard>, mut changes: MessageReader<LanguageChanged>| {
                heard.0.extend(changes.read().map(|c| c.0));
            },
        );
    let side = app.world_mut().spawn(Localized::new("side-white")).id();
    let count = app
        .world_mut()
        .spawn(Localized(Msg::new("stones-count").with("count", 3)))
        .id();
    app.update();
    let text = |app: &App, e: Entity| app.world().get::<Text>(e).expect("a text").0.clone();
    assert_eq!(text(&app, side), "White");
    assert_eq!(text(&app, count), "3 stones");
    app.world_mut().resource_mut::<Settings>().language = Some(Language::French);
    app.update();
    assert_eq!(app.world().resource::<Tr>().language(), Language::French);
    assert_eq!(text(&app, side), "Blanc");
    assert_eq!(text(&app, count), "3 pierres");
    // A changed message is written again.
    app.world_mut()
        .get_mut::<Localized>(count)
        .expect("localized")
        .0 = Msg::new("stones-count").with("count", 1);
    app.update();
    assert_eq!(text(&app, count), "1 pierre");
    app.world_mut().resource_mut::<Settings>().language = Some(Language::Malagasy);
    app.update();
    app.update();
    assert_eq!(text(&app, side), "Fotsy");
    assert_eq!(text(&app, count), "vato 1");
    assert_eq!(
        app.world().resource::<Heard>().0,
        [Language::French, Language::Malagasy]
    );
}

/// A string literal in the client's code, with what comes right before it.
#[derive(Debug)]
struct Literal {
    line: usize,
    text: String,
    /// The code just before the literal (`Msg::new(`, `.expect(`).
    before: String,
    /// Inside an attribute (`#[arg(value_name = "FILE")]`) or a macro that writes to a log
    /// or the terminal, or a test assertion.
    exempt: bool,
}

/// The string literals of a Rust file (not byte strings, not in comments), with whether they
/// are in an attribute or a log/terminal/assertion macro; and each line's comments.
fn literals(source: &str) -> (Vec<Literal>, Vec<String>) {
    const EXEMPT_MACROS: [&str; 19] = [
        "debug!",
        "info!",
        "warn!",
        "error!",
        "trace!",
        "panic!",
        "unreachable!",
        "assert!",
        "assert_eq!",
        "assert_ne!",
        "debug_assert!",
        "eprintln!",
        "println!",
        "include_str!",
        "include_bytes!",
        "include!",
        "concat!",
        "env!",
        "cfg!",
    ];
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let mut comments = vec![String::new(); source.lines().count() + 2];
    let mut line = 1;
    let mut i = 0;
    // Open brackets: (is exempt) for each, so a literal knows if an enclosing one exempts it.
    let mut stack: Vec<bool> = Vec::new();
    let mut pending_exempt = false;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied().unwrap_or('\0');
        if c == '\n' {
            line += 1;
            i += 1;
            continue;
        }
        if c == '/' && next == '/' {
            let end = chars[i..]
                .iter()
                .position(|&c| c == '\n')
                .map_or(chars.len(), |p| i + p);
            comments[line].push_str(&chars[i..end].iter().collect::<String>());
            i = end;
            continue;
        }
        if c == '/' && next == '*' {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
            continue;
        }
        if c == '#' && (next == '[' || (next == '!' && chars.get(i + 2) == Some(&'['))) {
            pending_exempt = true;
            i += 1;
            continue;
        }
        if c == '\'' {
            // A char literal ('"', '\'', 'x'), else a lifetime.
            if next == '\\' {
                let close = chars[i + 2..].iter().position(|&c| c == '\'');
                i += close.map_or(2, |p| p + 3);
                continue;
            }
            if chars.get(i + 2) == Some(&'\'') {
                i += 3;
                continue;
            }
            i += 1;
            continue;
        }
        let is_ident = |c: char| c.is_alphanumeric() || c == '_';
        let prev_ident = i > 0 && is_ident(chars[i - 1]);
        let (raw, byte, start) = match c {
            'r' if !prev_ident && (next == '"' || next == '#') => (true, false, i + 1),
            'b' if !prev_ident && next == '"' => (false, true, i + 1),
            'b' if !prev_ident && next == 'r' && matches!(chars.get(i + 2), Some('"' | '#')) => {
                (true, true, i + 2)
            }
            '"' => (false, false, i),
            _ => {
                if c == '(' || c == '[' || c == '{' {
                    let before: String = chars[i.saturating_sub(40)..i].iter().collect();
                    let before = before.trim_end();
                    let exempt = pending_exempt
                        || EXEMPT_MACROS.iter().any(|m| before.ends_with(m))
                        || stack.last().copied().unwrap_or(false);
                    pending_exempt = false;
                    stack.push(exempt);
                } else if c == ')' || c == ']' || c == '}' {
                    stack.pop();
                }
                i += 1;
                continue;
            }
        };
        // Read the literal from `start` (at `#` or `"`).
        let mut j = start;
        let mut hashes = 0;
        while chars.get(j) == Some(&'#') {
            hashes += 1;
            j += 1;
        }
        if chars.get(j) != Some(&'"') {
            i += 1;
            continue;
        }
        j += 1;
        let first_line = line;
        let mut text = String::new();
        while let Some(&ch) = chars.get(j) {
            if ch == '\n' {
                line += 1;
            }
            if !raw && ch == '\\' {
                match chars.get(j + 1) {
                    Some('n') => text.push('\n'),
                    Some('\n') => {
                        line += 1;
                        j += 2;
                        while chars.get(j).is_some_and(|c| c.is_whitespace()) {
                            if chars[j] == '\n' {
                                line += 1;
                            }
                            j += 1;
                        }
                        continue;
                    }
                    Some(other) => text.push(*other),
                    None => {}
                }
                j += 2;
                continue;
            }
            if ch == '"' && (0..hashes).all(|k| chars.get(j + 1 + k) == Some(&'#')) {
                j += 1 + hashes;
                break;
            }
            text.push(ch);
            j += 1;
        }
        if !byte {
            // What comes before, across line breaks (a call rustfmt wrapped).
            let before: String = chars[i.saturating_sub(60)..i].iter().collect();
            out.push(Literal {
                line: first_line,
                text,
                before: before.trim_end().to_owned(),
                exempt: pending_exempt || stack.last().copied().unwrap_or(false),
            });
        }
        i = j;
    }
    (out, comments)
}

/// The comment that marks a literal as not a text for people: `// i18n: not text (why)`,
/// at the end of the literal's line or on the line above.
const NOT_TEXT: &str = "i18n: not text";

/// Why a literal of the client's code is not allowed, `None` when it is fine: a text for
/// people must come from a message file (see docs/client.md, "Texts and languages").
fn literal_problem(literal: &Literal, known: &BTreeSet<String>) -> Option<String> {
    let id_call = [
        "Msg::new(",
        "Localized::new(",
        "tr.get(",
        "tr.args(",
        "tr_text(",
    ]
    .iter()
    .any(|call| literal.before.ends_with(call));
    let id_like = |t: &str| {
        !t.is_empty()
            && t.split('-').all(|part| {
                !part.is_empty()
                    && part
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
            })
    };
    if id_call {
        return (!literal.text.is_empty() && !known.contains(&literal.text))
            .then(|| format!("no message {:?} in locales/en", literal.text));
    }
    if literal.before.ends_with(".with(") {
        // A message argument's name.
        return (!id_like(&literal.text))
            .then(|| format!("{:?} is not an argument name", literal.text));
    }
    if literal.exempt || literal.before.ends_with(".expect(") {
        return None;
    }
    if known.contains(&literal.text) {
        // A message id chosen by the code (`"menu-players"` in a match).
        return None;
    }
    // Words, not counting the `{name}` placeholders of format strings.
    let mut words = String::new();
    let mut depth = 0;
    for c in literal.text.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            c if depth == 0 => words.push(c),
            _ => {}
        }
    }
    let has_word = words
        .split(|c: char| !c.is_alphabetic())
        .any(|w| w.chars().count() >= 2);
    if !has_word {
        return None;
    }
    if literal.text.contains('-') && id_like(&literal.text) {
        return Some(format!("no message {:?} in locales/en", literal.text));
    }
    Some(format!(
        "{:?} looks like a text for people: put it in locales/<code>/*.ftl and show it \
         through crate::i18n, or mark it `// {NOT_TEXT} (why)`",
        literal.text
    ))
}

/// Files that write only to the terminal, in English like the project's other command-line
/// tools: the command line's errors (`cli.rs`) and the benchmark's report (`batch.rs`).
const TERMINAL_ONLY: [&str; 2] = ["cli.rs", "batch.rs"];

/// The client's source files, without the tests and the terminal-only files.
fn client_sources() -> Vec<std::path::PathBuf> {
    fn walk(dir: &std::path::Path, src: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("the source folder")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, src, out);
            } else if path.extension().is_some_and(|e| e == "rs")
                && !path.file_name().is_some_and(|n| {
                    n == "tests.rs"
                        || n == "test_support.rs"
                        || (path.parent() == Some(&*src) && TERMINAL_ONLY.iter().any(|t| n == *t))
                })
            {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    walk(&src, &src, &mut files);
    files
}

fn problems_in(source: &str, known: &BTreeSet<String>) -> Vec<(usize, String)> {
    let (literals, comments) = literals(source);
    literals
        .iter()
        .filter(|l| {
            let marked = |line: usize| comments.get(line).is_some_and(|c| c.contains(NOT_TEXT));
            !(marked(l.line) || marked(l.line - 1))
        })
        .filter_map(|l| literal_problem(l, known).map(|p| (l.line, p)))
        .collect()
}

#[test]
fn no_text_for_people_is_written_in_the_code() {
    let known: BTreeSet<String> = messages_with_variables(Language::English)
        .into_keys()
        .collect();
    let mut problems = Vec::new();
    let files = client_sources();
    assert!(files.len() > 20, "{} source files", files.len());
    for path in files {
        let source = std::fs::read_to_string(&path).expect("a source file");
        for (line, problem) in problems_in(&source, &known) {
            problems.push(format!("{}:{line}: {problem}", path.display()));
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

#[test]
fn the_text_check_finds_texts_and_spares_the_rest() {
    let known: BTreeSet<String> = ["menu-start".to_owned()].into();
    let flagged = |source: &str| -> Vec<usize> {
        problems_in(source, &known)
            .into_iter()
            .map(|(line, _)| line)
            .collect()
    };
    // Texts for people, however they are written.
    let source = r##"
fn spawn(mut commands: Commands) {
    commands.spawn(Text::new("Start the game"));
    let label = "Quit";
    button(format!("Load {name}"), Action::Quit);
    let raw = r#"New game"#;
    set_message("game over".to_string());
    Msg::new("menu-strat");
    let id = "menu-quit-now";
}
"##;
    assert_eq!(flagged(source), [3, 4, 5, 6, 7, 8, 9]);
    // What is not a text: ids, argument names, notation, logs, attributes, expect, marked
    // lines, byte strings, char literals, comments.
    let source = r##"
#[arg(long, value_name = "FILE", help = "Some help")]
fn spawn(mut commands: Commands) {
    commands.spawn(tr_text("menu-start", 15.0, TEXT));
    Msg::new("menu-start").with("turn", "c1-d2A").with("count", 3);
    let id = if yes { "menu-start" } else { "" };
    let number = format!("{}. {}", n, "...");
    warn!("cannot save settings: {e}");
    assert_eq!(x, "Some text", "a test");
    let x = thing.expect("a thing that exists");
    let title = "Fanorona"; // i18n: not text (the game's name)
    // i18n: not text (a file name)
    let file = "Settings.json";
    let quote = '"'; let bytes = b"RIFF data";
    // "A comment with quotes"
    /* "a block comment" */
}
"##;
    assert_eq!(flagged(source), Vec::<usize>::new());
}

/// The client's plugins without Bevy's rendering, on `screen`, in English: every panel.
fn whole_ui(screen: crate::Screen, games: Option<std::path::PathBuf>) -> App {
    use crate::game::flow::{Match, Player};
    use bevy::input::keyboard::KeyboardInput;
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin))
        .insert_resource(crate::test_support::english())
        .insert_resource(crate::game::engine::MinThink(std::time::Duration::ZERO))
        .insert_resource(Match::new(
            fanorona_core::Position::standard(),
            [Player::Human, Player::Human],
            1,
        ))
        .insert_resource(crate::game::persist::GamesDir(games))
        .init_resource::<UiScale>()
        .init_state::<crate::Screen>()
        .insert_state(screen)
        .init_resource::<ButtonInput<KeyCode>>()
        .init_resource::<ButtonInput<MouseButton>>()
        .add_message::<KeyboardInput>()
        .add_plugins((
            plugin,
            crate::game::flow::plugin,
            crate::game::persist::plugin,
            crate::game::engine::plugin,
            crate::game::input::plugin,
            crate::game::export::plugin,
            crate::analysis::plugin,
            crate::analysis::review::plugin,
            crate::tutorial::plugin,
            crate::browser::plugin,
            crate::ui::plugin,
        ));
    app.update();
    app.update();
    app
}

/// Every text entity shown (not empty), with its text.
fn shown_texts(app: &mut App) -> BTreeMap<Entity, String> {
    app.world_mut()
        .query::<(Entity, &Text)>()
        .iter(app.world())
        .filter(|(_, t)| !t.0.trim().is_empty())
        .map(|(e, t)| (e, t.0.clone()))
        .collect()
}

/// Texts that are the same in every language: the game's name, and what has no word (turn
/// notation, numbers, board sizes, file names).
fn same_in_every_language(text: &str) -> bool {
    let words = text
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| w.chars().count() >= 2)
        .count();
    text == "Fanorona" || words == 0 || text.trim_start_matches(['>', ' ']).ends_with(".fgn")
}

/// Switches the language with the menu's setting (as a player does) and checks that every
/// text shown changed, and that none is an English message.
fn switch_and_check(app: &mut App, what: &str) {
    let english_messages: BTreeSet<String> = messages_with_variables(Language::English)
        .into_iter()
        .filter(|(_, vars)| vars.is_empty())
        .map(|(id, _)| Tr::english().get(&id))
        .filter(|text| !same_in_every_language(text))
        .collect();
    let english = shown_texts(app);
    assert!(english.len() > 5, "{what}: {english:?}");
    for language in [Language::French, Language::Malagasy] {
        app.world_mut()
            .write_message(crate::ui::widgets::Act::new(crate::ui::Action::Cycle(
                crate::ui::Choice::Language,
            )));
        app.update();
        app.update();
        assert_eq!(app.world().resource::<Tr>().language(), language);
        let now = shown_texts(app);
        for (entity, text) in &english {
            let new = now
                .get(entity)
                .unwrap_or_else(|| panic!("{what}: the text {text:?} disappeared in {language:?}"));
            if !same_in_every_language(text) {
                assert_ne!(
                    new, text,
                    "{what}: {text:?} is still English in {language:?}"
                );
            }
        }
        for text in now.values() {
            assert!(
                !english_messages.contains(text),
                "{what}: {text:?} is an English message in {language:?}"
            );
        }
    }
}

#[test]
fn switching_the_language_changes_every_text_of_the_menu() {
    let games = crate::test_support::temp_dir("i18n-menu");
    std::fs::write(games.join("game-1.fgn"), "[Result \"*\"]\n\n1. d2-e3A *\n")
        .expect("a saved game");
    let mut app = whole_ui(crate::Screen::Menu, Some(games));
    // The first start offers the tutorial: its texts are there too.
    switch_and_check(&mut app, "menu");
}

#[test]
fn switching_the_language_changes_every_text_of_the_game_screen() {
    use crate::game::flow::Command;
    let mut app = whole_ui(crate::Screen::Playing, None);
    for command in [Command::PlayText("d2-e3A".into()), Command::OfferDraw] {
        app.world_mut().write_message(command);
        app.update();
    }
    // The confirmation dialog too.
    app.world_mut()
        .write_message(crate::ui::widgets::Act::new(crate::ui::Action::Game(
            Command::Resign,
        )));
    app.update();
    app.update();
    assert!(
        app.world()
            .resource::<crate::ui::widgets::Confirm>()
            .0
            .is_some()
    );
    switch_and_check(&mut app, "game screen");
}

#[test]
fn switching_the_language_changes_every_text_of_the_tutorial() {
    use crate::tutorial::TutorialCommand;
    let mut app = whole_ui(crate::Screen::Menu, None);
    for command in [TutorialCommand::Start, TutorialCommand::Next] {
        app.world_mut().write_message(command);
        app.update();
        app.update();
    }
    assert_eq!(
        app.world().resource::<crate::tutorial::Tutorial>().lesson,
        1
    );
    // A wrong try in lesson 2 (a withdrawal where an approach is asked): it is explained.
    app.world_mut()
        .write_message(crate::game::flow::Command::PlayText("e2-e1W".into()));
    app.update();
    app.update();
    assert!(
        !app.world()
            .resource::<crate::tutorial::Tutorial>()
            .feedback
            .is_empty()
    );
    switch_and_check(&mut app, "tutorial");
}

#[test]
fn switching_the_language_changes_every_text_of_the_file_browser() {
    let games = crate::test_support::temp_dir("i18n-browser");
    std::fs::create_dir_all(games.join("2026")).expect("a folder");
    std::fs::write(games.join("game-1.fgn"), "[Result \"*\"]\n\n1. d2-e3A *\n")
        .expect("a saved game");
    std::fs::write(games.join("notes.txt"), "not a record").expect("a file not listed");
    let mut app = whole_ui(crate::Screen::Menu, Some(games));
    app.world_mut()
        .write_message(crate::ui::widgets::Act::new(crate::ui::Action::Browse));
    app.update();
    app.update();
    assert!(app.world().resource::<crate::browser::Browser>().open);
    switch_and_check(&mut app, "file browser");
}
