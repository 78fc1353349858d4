//! The JSON forms of game records, read game by game: a JSON array of game objects (or one
//! game object), and JSON Lines (one game object a line). Memory is bounded by the largest
//! game ([`MAX_GAME_BYTES`]), never by the file; an error inside a game names its line and
//! column in the file (section 5 of [`docs/notation.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/notation.md)).

use std::io::{self, BufRead, BufReader, Read, Write};

use fanorona_core::record::{GameRecord, Location, MAX_GAME_BYTES, Source};

use super::records::GameError;

/// How deep brackets may nest in a game object (serde_json's own limit is 128).
const MAX_DEPTH: usize = 128;

/// Where the reader is in an array document.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    /// Nothing read yet.
    Start,
    /// Inside the array; `true` before its first element.
    Array(bool),
    /// After the document's value: only white space may follow.
    Done,
}

/// Reads JSON game objects one at a time.
pub struct JsonGames<R> {
    input: BufReader<R>,
    /// JSON Lines (one game a line) rather than one JSON document.
    lines: bool,
    state: State,
    line: u64,
    column: u64,
    offset: u64,
    games: usize,
    /// The text of the game being read.
    text: Vec<u8>,
    failed: bool,
}

/// A game's text as read: its bytes, or why there are none.
enum Raw {
    /// The game's bytes and where they start.
    Game(Location),
    /// The game is longer than [`MAX_GAME_BYTES`]; it was skipped.
    TooLong(Location),
}

impl<R: Read> JsonGames<R> {
    /// A reader of a JSON document (an array of games, or one game object).
    pub fn array(input: R) -> JsonGames<R> {
        JsonGames::new(input, false)
    }

    /// A reader of JSON Lines: one game object a line; blank lines are skipped.
    pub fn lines(input: R) -> JsonGames<R> {
        JsonGames::new(input, true)
    }

    fn new(input: R, lines: bool) -> JsonGames<R> {
        JsonGames {
            input: BufReader::with_capacity(1 << 16, input),
            lines,
            state: State::Start,
            line: 1,
            column: 1,
            offset: 0,
            games: 0,
            text: Vec::new(),
            failed: false,
        }
    }

    /// Bytes consumed so far.
    pub fn bytes_read(&self) -> u64 {
        self.offset
    }

    fn location(&self) -> Location {
        Location {
            line: self.line,
            column: self.column,
            offset: self.offset,
        }
    }

    fn peek(&mut self) -> io::Result<Option<u8>> {
        loop {
            match self.input.fill_buf() {
                Ok(buf) => return Ok(buf.first().copied()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    fn bump(&mut self, b: u8) {
        self.input.consume(1);
        self.offset += 1;
        if b == b'\n' {
            self.line += 1;
            self.column = 1;
        } else if b & 0xC0 != 0x80 {
            self.column += 1;
        }
    }

    /// Skips white space (JSON's: space, tab, line feed, carriage return).
    fn skip_ws(&mut self) -> io::Result<Option<u8>> {
        while let Some(b) = self.peek()? {
            if !matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                return Ok(Some(b));
            }
            self.bump(b);
        }
        Ok(None)
    }

    /// Consumes `b` and keeps it in the game's text unless the text is already too long.
    fn keep(&mut self, b: u8, long: &mut bool) {
        self.bump(b);
        if self.text.len() < MAX_GAME_BYTES {
            self.text.push(b);
        } else {
            *long = true;
        }
    }

    /// Reads one JSON value (the next game) into `self.text`: up to the end of its brackets,
    /// or of a string or scalar.
    fn scan_value(&mut self) -> io::Result<Result<Raw, GameError>> {
        self.text.clear();
        let start = self.location();
        let mut long = false;
        let mut stack: Vec<u8> = Vec::new();
        loop {
            let Some(b) = self.peek()? else {
                return Ok(Err(self.fatal(
                    start,
                    "the input ends inside this game (truncated file?)".into(),
                )));
            };
            match b {
                b'"' => {
                    self.keep(b, &mut long);
                    loop {
                        let Some(c) = self.peek()? else {
                            return Ok(Err(self.fatal(
                                start,
                                "the input ends inside a string of this game (truncated file?)"
                                    .into(),
                            )));
                        };
                        self.keep(c, &mut long);
                        match c {
                            b'"' => break,
                            b'\\' => {
                                if let Some(e) = self.peek()? {
                                    self.keep(e, &mut long);
                                }
                            }
                            _ => {}
                        }
                    }
                }
                b'{' | b'[' => {
                    if stack.len() == MAX_DEPTH {
                        let at = self.location();
                        return Ok(Err(
                            self.fatal(at, format!("brackets nested more than {MAX_DEPTH} deep"))
                        ));
                    }
                    stack.push(if b == b'{' { b'}' } else { b']' });
                    self.keep(b, &mut long);
                }
                b'}' | b']' => {
                    if stack.last() != Some(&b) {
                        if stack.is_empty() {
                            // The end of the enclosing array: a scalar value ends here.
                            break;
                        }
                        let at = self.location();
                        return Ok(Err(self.fatal(
                            at,
                            format!("unexpected '{}': brackets do not match", char::from(b)),
                        )));
                    }
                    stack.pop();
                    self.keep(b, &mut long);
                }
                b',' | b' ' | b'\t' | b'\n' | b'\r' if stack.is_empty() => break,
                _ => self.keep(b, &mut long),
            }
            if stack.is_empty() && matches!(b, b'}' | b']' | b'"') {
                break;
            }
        }
        Ok(Ok(if long {
            Raw::TooLong(start)
        } else {
            Raw::Game(start)
        }))
    }

    /// Reads one line into `self.text` (without its line end).
    fn scan_line(&mut self) -> io::Result<Raw> {
        self.text.clear();
        let start = self.location();
        let mut long = false;
        while let Some(b) = self.peek()? {
            if b == b'\n' {
                self.bump(b);
                break;
            }
            self.keep(b, &mut long);
        }
        if self.text.last() == Some(&b'\r') {
            self.text.pop();
        }
        Ok(if long {
            Raw::TooLong(start)
        } else {
            Raw::Game(start)
        })
    }

    fn fatal(&mut self, at: Location, message: String) -> GameError {
        self.failed = true;
        GameError {
            // Raised while the next game is looked for or read: that game.
            game: self.games + 1,
            at,
            message: format!("bad JSON: {message}"),
            fatal: true,
        }
    }

    /// The next game of the input, `None` at its end.
    fn read(&mut self) -> io::Result<Option<Result<GameRecord, GameError>>> {
        if self.offset == 0 && self.state == State::Start {
            // A UTF-8 byte-order mark is skipped, as in FGN.
            self.peek()?;
            if self.input.buffer().starts_with(b"\xEF\xBB\xBF") {
                self.input.consume(3);
                self.offset = 3;
            }
        }
        let raw = if self.lines {
            loop {
                if self.peek()?.is_none() {
                    return Ok(None);
                }
                let raw = self.scan_line()?;
                if !self.text.iter().all(u8::is_ascii_whitespace) {
                    break raw;
                }
            }
        } else {
            match self.next_in_document()? {
                None => return Ok(None),
                Some(Err(e)) => return Ok(Some(Err(e))),
                Some(Ok(raw)) => raw,
            }
        };
        self.games += 1;
        let game = self.games;
        Ok(Some(match raw {
            Raw::TooLong(at) => Err(GameError {
                game,
                at,
                message: format!("the game is too long (more than {MAX_GAME_BYTES} bytes)"),
                fatal: false,
            }),
            Raw::Game(start) => match serde_json::from_slice::<GameRecord>(&self.text) {
                Ok(mut record) => {
                    let [tags, movetext] = element_starts(&self.text);
                    let mut source = Source::default();
                    source.game = game;
                    source.start = start;
                    source.end = self.location();
                    if tags.len() == record.tags.len() && movetext.len() == record.movetext.len() {
                        source.tags = locations(start, &self.text, &tags);
                        source.movetext = locations(start, &self.text, &movetext);
                    }
                    record.source = Some(source);
                    Ok(record)
                }
                Err(e) => Err(GameError {
                    game,
                    at: locate(start, &self.text, e.line(), e.column()),
                    message: format!("bad JSON game object: {}", strip_position(&e)),
                    fatal: false,
                }),
            },
        }))
    }

    /// In a JSON document, steps to the next game of the array (or the one game object).
    fn next_in_document(&mut self) -> io::Result<Option<Result<Raw, GameError>>> {
        loop {
            let b = self.skip_ws()?;
            let at = self.location();
            match (self.state, b) {
                (State::Start, None) => {
                    self.state = State::Done;
                    return Ok(Some(Err(self.fatal(
                        at,
                        "the input is empty: expected an array of game objects".into(),
                    ))));
                }
                (State::Start, Some(b'[')) => {
                    self.bump(b'[');
                    self.state = State::Array(true);
                }
                (State::Start, Some(b'{')) => {
                    self.state = State::Done;
                    return Ok(Some(self.scan_value()?));
                }
                (State::Start, Some(_)) => {
                    return Ok(Some(Err(self.fatal(
                        at,
                        "expected '[' (an array of game objects) or '{' (one game object)".into(),
                    ))));
                }
                (State::Array(_), None) => {
                    return Ok(Some(Err(self.fatal(
                        at,
                        "the input ends inside the array: no closing ']' (truncated file?)".into(),
                    ))));
                }
                (State::Array(_), Some(b']')) => {
                    self.bump(b']');
                    self.state = State::Done;
                }
                (State::Array(true), Some(_)) => {
                    self.state = State::Array(false);
                    return Ok(Some(self.scan_value()?));
                }
                (State::Array(false), Some(b',')) => {
                    self.bump(b',');
                    match self.skip_ws()? {
                        Some(b']') => {
                            let at = self.location();
                            return Ok(Some(Err(self.fatal(
                                at,
                                "a ',' before ']': expected another game object".into(),
                            ))));
                        }
                        _ => return Ok(Some(self.scan_value()?)),
                    }
                }
                (State::Array(false), Some(_)) => {
                    return Ok(Some(Err(
                        self.fatal(at, "expected ',' or ']' after a game object".into())
                    )));
                }
                (State::Done, None) => return Ok(None),
                (State::Done, Some(_)) => {
                    return Ok(Some(Err(self.fatal(
                        at,
                        "unexpected text after the end of the JSON document".into(),
                    ))));
                }
            }
        }
    }
}

impl<R: Read> Iterator for JsonGames<R> {
    type Item = Result<GameRecord, GameError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        match self.read() {
            Ok(item) => item,
            Err(e) => {
                let at = self.location();
                let mut err = self.fatal(at, String::new());
                err.message = format!("cannot read: {}", crate::output::io_text(&e));
                Some(Err(err))
            }
        }
    }
}

/// The location in the file of serde_json's `line`:`column` (from 1; column 0 is the line's
/// start) in `text`, which starts at `start`.
fn locate(start: Location, text: &[u8], line: usize, column: usize) -> Location {
    let mut line_start = 0;
    for _ in 1..line {
        match text[line_start..].iter().position(|&b| b == b'\n') {
            Some(i) => line_start += i + 1,
            None => break,
        }
    }
    let end = (line_start + column.saturating_sub(1)).min(text.len());
    let chars = text[line_start..end]
        .iter()
        .filter(|&&b| b & 0xC0 != 0x80)
        .count() as u64;
    let first_line = line <= 1;
    Location {
        line: start.line + line.saturating_sub(1) as u64,
        column: if first_line { start.column } else { 1 } + chars,
        offset: start.offset + end as u64,
    }
}

/// Where each element of the `tags` and of the `movetext` list of a game object starts: byte
/// offsets in `text` (a game object that serde_json has accepted).
fn element_starts(text: &[u8]) -> [Vec<usize>; 2] {
    let mut out = [Vec::new(), Vec::new()];
    let mut depth = 0usize;
    // The list being read (0 tags, 1 movetext) and whether an element starts next.
    let mut list: Option<usize> = None;
    let mut expect = false;
    let mut key = (0, 0);
    let mut i = 0;
    while i < text.len() {
        let b = text[i];
        if expect && !matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b']') {
            if let Some(l) = list {
                out[l].push(i);
            }
            expect = false;
        }
        match b {
            b'"' => {
                let from = i + 1;
                i += 1;
                while i < text.len() && text[i] != b'"' {
                    if text[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                if depth == 1 {
                    key = (from, i.min(text.len()));
                }
            }
            b'{' | b'[' => {
                depth += 1;
                if depth == 2 && b == b'[' {
                    list = match &text[key.0..key.1] {
                        b"tags" => Some(0),
                        b"movetext" => Some(1),
                        _ => None,
                    };
                    expect = list.is_some();
                }
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if depth < 2 {
                    list = None;
                }
            }
            b',' if depth == 2 && list.is_some() => expect = true,
            _ => {}
        }
        i += 1;
    }
    out
}

/// The locations of the byte offsets `offsets` (ascending) of `text`, which starts at `start`.
fn locations(start: Location, text: &[u8], offsets: &[usize]) -> Vec<Location> {
    let mut at = start;
    let mut done = 0;
    offsets
        .iter()
        .map(|&o| {
            for &b in &text[done..o] {
                if b == b'\n' {
                    at.line += 1;
                    at.column = 1;
                } else if b & 0xC0 != 0x80 {
                    at.column += 1;
                }
            }
            at.offset = start.offset + o as u64;
            done = o;
            at
        })
        .collect()
}

/// The longest message about a game object, in characters: serde_json quotes the offending
/// text, which may be megabytes long.
const MAX_MESSAGE: usize = 200;

/// serde_json's message without its " at line L column C" (the caller gives the place),
/// shortened to [`MAX_MESSAGE`] characters.
fn strip_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let text = match text.rfind(" at line ") {
        Some(i) => &text[..i],
        None => &text[..],
    };
    match text.char_indices().nth(MAX_MESSAGE) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_owned(),
    }
}

/// Writes records as JSON: an array of pretty-printed game objects, or JSON Lines.
pub struct JsonSink<W> {
    out: W,
    lines: bool,
    first: bool,
}

impl<W: Write> JsonSink<W> {
    /// A writer of the array form.
    pub fn array(out: W) -> JsonSink<W> {
        JsonSink {
            out,
            lines: false,
            first: true,
        }
    }

    /// A writer of JSON Lines.
    pub fn lines(out: W) -> JsonSink<W> {
        JsonSink {
            out,
            lines: true,
            first: true,
        }
    }

    /// Writes one game. `Err(Ok(message))`: this record cannot be written (nothing was
    /// written); `Err(Err(e))`: the output failed.
    pub fn write(&mut self, record: &GameRecord) -> Result<(), Result<String, io::Error>> {
        record.check_limits().map_err(|e| Ok(e.to_string()))?;
        let text = if self.lines {
            serde_json::to_string(record)
        } else {
            serde_json::to_string_pretty(record)
        }
        .map_err(|e| Ok(e.to_string()))?;
        if text.len() > MAX_GAME_BYTES {
            return Err(Ok(format!(
                "the game's JSON text is too long (more than {MAX_GAME_BYTES} bytes)"
            )));
        }
        let sep: &[u8] = match (self.lines, self.first) {
            (true, _) => b"",
            (false, true) => b"[\n",
            (false, false) => b",\n",
        };
        self.first = false;
        self.out
            .write_all(sep)
            .and_then(|()| self.out.write_all(text.as_bytes()))
            .and_then(|()| {
                if self.lines {
                    self.out.write_all(b"\n")
                } else {
                    Ok(())
                }
            })
            .map_err(Err)
    }

    /// Ends the document and flushes.
    ///
    /// # Errors
    ///
    /// The output's.
    pub fn finish(mut self) -> io::Result<W> {
        if !self.lines {
            self.out
                .write_all(if self.first { b"[]\n" } else { b"\n]\n" })?;
        }
        self.out.flush()?;
        Ok(self.out)
    }
}

#[cfg(test)]
mod fuzz;

#[cfg(test)]
mod tests {
    use super::*;

    fn games(text: &str, lines: bool) -> Vec<Result<GameRecord, GameError>> {
        if lines {
            JsonGames::lines(text.as_bytes()).collect()
        } else {
            JsonGames::array(text.as_bytes()).collect()
        }
    }

    const GAME: &str = r#"{"tags": [], "movetext": [{"turn": "f2-e3A"}], "result": "*"}"#;

    #[test]
    fn arrays_objects_and_lines() {
        let two = format!("[\n{GAME},\n  {GAME}\n]\n");
        let g = games(&two, false);
        assert_eq!(g.len(), 2);
        let first = g[0].as_ref().expect("valid");
        assert_eq!(first.turns().collect::<Vec<_>>(), ["f2-e3A"]);
        let at = first.source.as_ref().expect("located").start;
        assert_eq!((at.line, at.column, at.offset), (2, 1, 2));
        let second = g[1].as_ref().expect("valid").source.as_ref().unwrap().start;
        assert_eq!((second.line, second.column), (3, 3));
        assert_eq!(games(GAME, false).len(), 1);
        assert!(games("[]", false).is_empty());
        assert!(games(" [ ] \n", false).is_empty());
        let bom = format!("\u{FEFF}{GAME}");
        assert!(games(&bom, false)[0].is_ok());
        assert!(games(&bom, true)[0].is_ok());
        let lines = format!("{GAME}\n\n{GAME}\r\n");
        let g = games(&lines, true);
        assert_eq!(g.len(), 2);
        assert!(g.iter().all(Result::is_ok));
        assert_eq!(
            g[1].as_ref().unwrap().source.as_ref().unwrap().start.line,
            3
        );
    }

    #[test]
    fn errors_inside_a_game_name_the_file_line_and_column() {
        // Line 3, columns 28 to 33: the unknown element kind "move" (serde_json points at the
        // last byte of the offending token).
        let text = format!(
            "[\n{GAME},\n{{\"tags\": [], \"movetext\": [{{\"move\": \"f2-e3A\"}}], \"result\": \"*\"}},\n{GAME}\n]"
        );
        let g = games(&text, false);
        assert_eq!(g.len(), 3, "the bad game does not hide the next");
        let e = g[1].as_ref().expect_err("bad");
        assert_eq!(e.game, 2);
        assert!(!e.fatal);
        assert_eq!((e.at.line, e.at.column), (3, 33), "{}", e.message);
        assert!(e.message.contains("unknown variant"), "{}", e.message);
        assert!(g[2].is_ok());
        // Across lines inside a game: "2-0" is at columns 13 to 17 of line 4.
        let text = "[{\n  \"tags\": [],\n  \"movetext\": [],\n  \"result\": \"2-0\"\n}]";
        let e = games(text, false).remove(0).expect_err("bad result");
        assert_eq!((e.at.line, e.at.column), (4, 17), "{}", e.message);
        // JSON Lines: the line of the game.
        let text = format!(
            "{GAME}\n{{\"tags\": [], \"movetext\": [], \"result\": \"*\", \"extra\": 1}}\n"
        );
        let g = games(&text, true);
        let e = g[1].as_ref().expect_err("unknown field");
        assert_eq!(e.at.line, 2);
        assert!(e.message.contains("unknown field `extra`"), "{}", e.message);
    }

    #[test]
    fn validation_problems_are_at_the_element() {
        // The second turn, "c3-b4", is illegal: line 4, column 5.
        let text = "[{\"tags\": [{\"name\": \"Event\", \"value\": \"x\"}],\n \"movetext\": [\n    {\"turn\": \"f2-e3A\"}, {\"comment\": \"[, {\\\"}\"},\n    {\"turn\": \"c3-b4\"}],\n \"result\": \"*\"}]";
        let record = games(text, false).remove(0).expect("valid JSON");
        let src = record.source.as_ref().expect("located");
        assert_eq!(src.tags.len(), 1);
        assert_eq!((src.tags[0].line, src.tags[0].column), (1, 12));
        let at: Vec<(u64, u64)> = src.movetext.iter().map(|l| (l.line, l.column)).collect();
        assert_eq!(at, [(3, 5), (3, 25), (4, 5)]);
        let report = record.validate(1);
        assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
        let p = &report.problems[0];
        assert_eq!((p.at.line, p.at.column), (4, 5));
        assert_eq!(p.at.offset, text.find("{\"turn\": \"c3-b4").unwrap() as u64);
    }

    #[test]
    fn messages_quote_a_short_prefix_of_bad_input() {
        let text = format!(
            "{{\"tags\": [], \"movetext\": [{{\"{}\": 1}}], \"result\": \"*\"}}",
            "m".repeat(100_000)
        );
        let e = games(&text, true).remove(0).expect_err("unknown variant");
        assert!(e.message.len() < 300, "{}", e.message.len());
        assert!(e.message.ends_with("..."), "{}", e.message);
    }

    #[test]
    fn unknown_fields_are_refused_never_dropped() {
        for bad in [
            r#"{"tags": [], "movetext": [], "result": "*", "site": "x"}"#,
            r#"{"tags": [{"name": "A", "value": "b", "lang": "fr"}], "movetext": [], "result": "*"}"#,
            r#"{"tags": [], "movetext": [{"turn": "f2-e3A", "comment": "x"}], "result": "*"}"#,
        ] {
            let e = games(bad, false).remove(0).expect_err(bad);
            assert!(!e.fatal, "{bad}");
            let lines = games(bad, true).remove(0);
            assert!(lines.is_err(), "{bad}");
        }
    }

    #[test]
    fn broken_documents_stop_with_a_located_error() {
        // GAME is 61 bytes long.
        for (text, line, column) in [
            (String::new(), 1, 1),
            ("[".into(), 1, 2),
            (format!("[{GAME}"), 1, 63),
            (format!("[{GAME},]"), 1, 64),
            (format!("[{GAME}] x"), 1, 65),
            ("[{\"tags\": [}".into(), 1, 12),
            ("[{\"tags\": \"abc".into(), 1, 2),
            ("nul".into(), 1, 1),
        ] {
            let text = text.as_str();
            let g = games(text, false);
            let e = g.last().expect("an error").as_ref().expect_err(text);
            assert!(e.fatal, "{text}");
            assert_eq!(
                (e.at.line, e.at.column),
                (line, column),
                "{text}: {}",
                e.message
            );
        }
    }

    #[test]
    fn a_broken_document_names_the_game_being_read() {
        // The second game is cut off: the error is in game 2, not game 1.
        for text in [
            format!("[{GAME}, {{\"tags\": ["),
            format!("[{GAME}, {{\"tags\": [}}"),
            format!("[{GAME},]"),
        ] {
            let g = games(&text, false);
            assert_eq!(g.len(), 2, "{text}");
            assert!(g[0].is_ok(), "{text}");
            let e = g[1].as_ref().expect_err(&text);
            assert!(e.fatal, "{text}");
            assert_eq!(e.game, 2, "{text}: {}", e.message);
        }
        // An empty input: game 1.
        assert_eq!(games("", false)[0].as_ref().expect_err("empty").game, 1);
    }

    #[test]
    fn a_game_past_the_limit_is_skipped_in_bounded_memory() {
        let comment = "x".repeat(1 << 20);
        let big: String = (0..17)
            .map(|_| format!("{{\"comment\": \"{comment}\"}}"))
            .collect::<Vec<_>>()
            .join(",");
        let text = format!("[{{\"tags\": [], \"movetext\": [{big}], \"result\": null}}, {GAME}]");
        let mut reader = JsonGames::array(text.as_bytes());
        let e = reader.next().expect("a game").expect_err("too long");
        assert!(e.message.contains("too long"), "{}", e.message);
        assert!(!e.fatal);
        assert!(reader.text.capacity() <= 2 * MAX_GAME_BYTES);
        assert!(reader.next().expect("the next game").is_ok());
        assert!(reader.next().is_none());
    }

    #[test]
    fn the_writers_refuse_what_the_readers_would_refuse() {
        use fanorona_core::record::{Element, MAX_COMMENT};
        let comments = |n: usize| {
            GameRecord::new(
                Vec::new(),
                vec![Element::Comment("c".repeat(MAX_COMMENT)); n],
                None,
            )
        };
        // Three comments of 1 MiB of U+0001, each written `\u0001`: 18 MiB of JSON, past the
        // 16 MiB of a game line; nothing is written.
        let escaped = GameRecord::new(
            Vec::new(),
            vec![Element::Comment("\u{1}".repeat(MAX_COMMENT)); 3],
            None,
        );
        let mut sink = JsonSink::lines(Vec::new());
        let e = sink.write(&escaped).expect_err("too long");
        assert!(e.expect("not an I/O error").contains("too long"));
        // 2 MiB: written, and read back.
        sink.write(&comments(2)).expect("within the limit");
        let out = sink.finish().expect("a Vec");
        let back: Vec<GameRecord> = JsonGames::lines(&out[..])
            .map(|g| g.expect("reads back"))
            .collect();
        assert_eq!(back, [comments(2)]);
        // A text past its limit is refused before it is written.
        let mut long_turn = GameRecord::default();
        long_turn.movetext.push(Element::Turn("a".repeat(513)));
        assert!(JsonSink::lines(Vec::new()).write(&long_turn).is_err());
    }

    #[test]
    fn written_games_read_back() {
        let record = games(GAME, false).remove(0).expect("valid");
        for lines in [false, true] {
            let mut sink = if lines {
                JsonSink::lines(Vec::new())
            } else {
                JsonSink::array(Vec::new())
            };
            sink.write(&record).expect("ok");
            sink.write(&record).expect("ok");
            let out = String::from_utf8(sink.finish().expect("ok")).expect("UTF-8");
            let back: Vec<GameRecord> = games(&out, lines)
                .into_iter()
                .map(|g| g.expect("reads back"))
                .collect();
            assert_eq!(back, [record.clone(), record.clone()]);
            if lines {
                assert_eq!(out.lines().count(), 2);
            }
        }
        let empty = JsonSink::array(Vec::new()).finish().expect("ok");
        assert_eq!(empty, b"[]\n");
        assert!(games(std::str::from_utf8(&empty).unwrap(), false).is_empty());
    }
}
