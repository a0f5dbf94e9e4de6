//! Finds the line of a key path in a JSON or YAML text.
//!
//! serde tells us the path of a bad value but, for checks made after parsing (overlaps, reset
//! widths, ...), not its line. This module re-reads the text with a position-keeping YAML parser
//! (JSON is a subset of YAML's flow style, so one parser serves both) and records the line of
//! every key path in the same notation serde_path_to_error prints: `a.b[2].c`.

use std::collections::HashMap;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::Marker;

/// Line numbers (1-based) of every key path of one document.
#[derive(Debug, Default, Clone)]
pub struct LineIndex {
    lines: HashMap<String, usize>,
    duplicate: Option<DuplicateKey>,
}

/// A key written twice in one mapping. serde keeps one of the two silently or, for struct
/// fields, blames the whole mapping at the wrong line; this names the second key where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateKey {
    /// Key path of the duplicate, in serde_path_to_error's notation.
    pub key: String,
    /// Line of the second occurrence.
    pub line: usize,
    /// Line of the first occurrence.
    pub first_line: usize,
}

impl DuplicateKey {
    /// What an error about it says (the CSR loader and the scenario reader say the same).
    pub fn message(&self) -> String {
        let name = self.key.rsplit('.').next().unwrap_or(&self.key);
        format!(
            "duplicate key `{name}`: given twice in one mapping (first on line {})",
            self.first_line
        )
    }
}

/// Where `key` of the input file `path` is, for checks made after loading (the generator's
/// name checks): the file is read again, and the line is left out when it cannot be.
pub fn locate(path: &std::path::Path, key: &str) -> crate::Location {
    let line = crate::limits::read_text(path)
        .ok()
        .and_then(|text| LineIndex::new(&text).line_of(key));
    crate::Location {
        file: path.to_path_buf(),
        key: key.to_string(),
        line,
    }
}

impl LineIndex {
    /// Index `text`. Of a text the parser rejects, the keys before the error are indexed (so a
    /// syntax error can be given the key it is in, [`LineIndex::key_at`]) and no duplicate is
    /// reported: serde reports the syntax error itself, with its own position.
    pub fn new(text: &str) -> Self {
        let mut builder = Builder::default();
        let mut parser = Parser::new_from_str(text);
        if parser.load(&mut builder, false).is_err() {
            return LineIndex {
                lines: builder.lines,
                duplicate: None,
            };
        }
        LineIndex {
            lines: builder.lines,
            duplicate: builder.duplicate,
        }
    }

    /// The innermost key written at or before `line`: where a syntax error that serde gives no
    /// key for is (None before the first key).
    pub fn key_at(&self, line: usize) -> Option<String> {
        self.lines
            .iter()
            .filter(|(k, l)| !k.is_empty() && **l <= line)
            .max_by(|a, b| {
                a.1.cmp(b.1)
                    .then(a.0.len().cmp(&b.0.len()))
                    .then(b.0.cmp(a.0))
            })
            .map(|(k, _)| k.clone())
    }

    /// The first key (in text order) written twice in the same mapping, if any.
    pub fn duplicate(&self) -> Option<&DuplicateKey> {
        self.duplicate.as_ref()
    }

    /// The line of `key`, or of its nearest ancestor that has one.
    pub fn line_of(&self, key: &str) -> Option<usize> {
        let mut key = key;
        loop {
            if let Some(line) = self.lines.get(key) {
                return Some(*line);
            }
            let cut = key.rfind(['.', '['])?;
            key = &key[..cut];
        }
    }
}

/// Most errors one file reports ([`deserialize_all`]).
pub const MAX_ERRORS: usize = 20;

/// One error of a file: the key path, its line and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyError {
    pub key: String,
    pub line: Option<usize>,
    pub message: String,
}

/// serde's message for a location the caller already gives: without serde_yaml's own
/// " at line L column C" and its `path: ` prefix (the key would be printed twice), and with the
/// nearest valid name for an unknown key or variant (`did you mean `bytes_per_rank`?`).
pub fn serde_message(msg: &str) -> String {
    let mut m = match msg.find(" at line ") {
        Some(i) => &msg[..i],
        None => msg,
    };
    // serde_yaml writes `a.b[2]: unknown field ...`: a path (no spaces) before ": ".
    if let Some(i) = m.find(": ") {
        let head = &m[..i];
        let path_like = !head.is_empty()
            && head
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-[]".contains(c));
        if path_like {
            m = &m[i + 2..];
        }
    }
    let mut out = m.to_string();
    if let Some(s) = suggestion(m) {
        out.push_str(&format!(" (did you mean `{s}`?)"));
    }
    out
}

/// For "unknown field `x`, expected one of `a`, `b`" (or a variant, or "expected `a` or `b`"):
/// the expected name nearest to `x`, if it is near enough to be a slip.
fn suggestion(msg: &str) -> Option<String> {
    let rest = msg
        .strip_prefix("unknown field `")
        .or_else(|| msg.strip_prefix("unknown variant `"))?;
    let end = rest.find('`')?;
    let given = &rest[..end];
    let expected = &rest[end..];
    let names: Vec<&str> = expected.split('`').skip(2).step_by(2).collect();
    nearest(given, &names)
}

/// The name of `names` nearest to `given` (edit distance after lower-casing and `-` as `_`),
/// when it is at most a third of the name's length away (and at least 1, 2 for long names).
pub fn nearest(given: &str, names: &[&str]) -> Option<String> {
    let norm = |s: &str| s.to_ascii_lowercase().replace('-', "_");
    let g: Vec<char> = norm(given).chars().collect();
    if g.len() > 64 {
        return None;
    }
    names
        .iter()
        .map(|n| (distance(&g, &norm(n).chars().collect::<Vec<_>>()), *n))
        .filter(|(d, n)| *d <= (n.len() / 3).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n.to_string())
}

/// Levenshtein distance, with a swap of two neighbours counted as one edit.
fn distance(a: &[char], b: &[char]) -> usize {
    let (n, m) = (a.len(), b.len());
    let mut d = vec![vec![0usize; m + 1]; n + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=n {
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[n][m]
}

/// Deserialize YAML `text` into `T`, reporting every error of the file (up to [`MAX_ERRORS`]),
/// each once with its key and line: after an error at a key, the key is taken out of the
/// document and the rest is read again. A "missing field" that an earlier error at that field
/// explains (a misspelt key, a bad value taken out) is not reported again; a syntax error (the
/// text is not YAML) stops the reading, and is given the innermost key before it.
pub fn deserialize_all<T: serde::de::DeserializeOwned>(
    text: &str,
    index: &LineIndex,
) -> Result<T, Vec<KeyError>> {
    let de = serde_yaml::Deserializer::from_str(text);
    let first = match serde_path_to_error::deserialize::<_, T>(de) {
        Ok(v) => return Ok(v),
        Err(e) => {
            let key = e.path().to_string();
            let key = if key == "." { String::new() } else { key };
            let line = e.inner().location().map(|l| l.line()).filter(|l| *l > 0);
            let key = if key.is_empty() {
                line.and_then(|l| index.key_at(l)).unwrap_or_default()
            } else {
                key
            };
            KeyError {
                line: line.or_else(|| index.line_of(&key)),
                key,
                message: serde_message(&e.inner().to_string()),
            }
        }
    };
    let mut errors = vec![first];
    let Ok(mut doc) = serde_yaml::from_str::<serde_yaml::Value>(text) else {
        return Err(errors);
    };
    // Misspelt keys are renamed in the document to the name they were taken for, so that the
    // rest of the file is read (and a required key is not reported missing); an error below a
    // renamed key is reported at the key as written. (document path, path as written)
    let mut renamed: Vec<(String, String)> = Vec::new();
    let as_written = |key: &str, renamed: &[(String, String)]| -> String {
        for (new, old) in renamed.iter().rev() {
            if key == new {
                return old.clone();
            }
            if let Some(rest) = key.strip_prefix(new.as_str()) {
                if rest.starts_with(['.', '[']) {
                    return format!("{old}{rest}");
                }
            }
        }
        key.to_string()
    };
    let mut next = errors[0].key.clone();
    let mut meant = suggested(&errors[0].message);
    // Each round renames or takes out one key, so the document runs out of them; the guard
    // bounds the rounds that report nothing.
    for _ in 0..4 * MAX_ERRORS {
        if errors.len() >= MAX_ERRORS || next.is_empty() {
            break;
        }
        let fixed = match meant.take() {
            Some(s) => match rename_at(&mut doc, &next, &s) {
                Some(new) => {
                    renamed.push((new, next.clone()));
                    true
                }
                None => remove_at(&mut doc, &next),
            },
            None => remove_at(&mut doc, &next),
        };
        if !fixed {
            break;
        }
        let e = match serde_path_to_error::deserialize::<_, T>(doc.clone()) {
            Ok(_) => break,
            Err(e) => e,
        };
        let path = e.path().to_string();
        let path = if path == "." { String::new() } else { path };
        let key = as_written(&path, &renamed);
        let message = serde_message(&e.inner().to_string());
        // A required key taken out with its bad value is not missing a second time.
        let explained = message
            .strip_prefix("missing field `")
            .and_then(|r| r.split('`').next())
            .is_some_and(|f| {
                let full = as_written(&join_key(&path, f), &renamed);
                errors.iter().any(|x| x.key == full)
            });
        if errors.iter().any(|x| x.key == key && x.message == message) {
            break;
        }
        next = path;
        if explained {
            continue;
        }
        meant = suggested(&message);
        errors.push(KeyError {
            line: index.line_of(&key),
            key,
            message,
        });
    }
    Err(errors)
}

/// The name an "unknown field" message suggests (`serde_message`'s "did you mean").
fn suggested(message: &str) -> Option<String> {
    if !message.starts_with("unknown field `") {
        return None;
    }
    let s = message.split("did you mean `").nth(1)?;
    Some(s.trim_end_matches("`?)").to_string())
}

/// Rename the key at path `key` to `to` in its mapping, unless the mapping has `to` already;
/// returns the new path.
fn rename_at(doc: &mut serde_yaml::Value, key: &str, to: &str) -> Option<String> {
    let (parent, last) = match key.rfind('.') {
        Some(i) if !key[i + 1..].contains('[') => (&key[..i], &key[i + 1..]),
        None if !key.contains('[') => ("", key),
        _ => return None,
    };
    let m = lookup(doc, parent)?.as_mapping_mut()?;
    if m.contains_key(to) {
        return None;
    }
    let v = m.remove(last)?;
    m.insert(serde_yaml::Value::String(to.to_string()), v);
    Some(join_key(parent, to))
}

impl KeyError {
    /// Its location in `file`.
    pub fn at(&self, file: &std::path::Path) -> crate::Location {
        crate::Location {
            file: file.to_path_buf(),
            key: self.key.clone(),
            line: self.line,
        }
    }
}

/// The message of the first of `errors` followed by the others, one per line, each as the CLI
/// prints an error (`error: FILE:LINE: key `K`: ...`), so that a file's errors are all shown
/// with the error types' one message.
pub fn joined_message(file: &std::path::Path, errors: &[KeyError]) -> String {
    let mut m = errors.first().map_or(String::new(), |e| e.message.clone());
    for e in errors.iter().skip(1) {
        m.push_str(&format!("\nerror: {}: {}", e.at(file), e.message));
    }
    if errors.len() >= MAX_ERRORS {
        m.push_str(&format!(
            "\nerror: {}: more errors may follow (at most {MAX_ERRORS} are reported per file)",
            file.display()
        ));
    }
    m
}

fn join_key(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_string()
    } else {
        format!("{parent}.{name}")
    }
}

/// Take the value at key path `key` (`a.b[2].c`) out of `doc`: a mapping's key is removed; an
/// element of a sequence cannot be (the later indices would shift), so false.
fn remove_at(doc: &mut serde_yaml::Value, key: &str) -> bool {
    let (parent, last) = match key.rfind('.') {
        Some(i) if !key[i + 1..].contains('[') => (&key[..i], &key[i + 1..]),
        None if !key.contains('[') => ("", key),
        _ => return false,
    };
    let Some(container) = lookup(doc, parent) else {
        return false;
    };
    match container.as_mapping_mut() {
        Some(m) => m.remove(last).is_some(),
        None => false,
    }
}

/// The value at key path `key` of `doc` (the whole document for "").
fn lookup<'a>(doc: &'a mut serde_yaml::Value, key: &str) -> Option<&'a mut serde_yaml::Value> {
    let mut cur = doc;
    if key.is_empty() {
        return Some(cur);
    }
    for part in key.split('.') {
        let (name, idx) = match part.find('[') {
            Some(i) => (&part[..i], Some(&part[i..])),
            None => (part, None),
        };
        if !name.is_empty() {
            cur = cur.as_mapping_mut()?.get_mut(name)?;
        }
        if let Some(idx) = idx {
            for n in idx.split(['[', ']']).filter(|s| !s.is_empty()) {
                let n: usize = n.parse().ok()?;
                cur = cur.as_sequence_mut()?.get_mut(n)?;
            }
        }
    }
    Some(cur)
}

/// One open container while walking the event stream.
enum Frame {
    Map {
        path: String,
        /// The key just read, waiting for its value.
        pending_key: Option<String>,
        /// Line of every key of this mapping so far.
        keys: HashMap<String, usize>,
    },
    Seq {
        path: String,
        next: usize,
    },
}

#[derive(Default)]
struct Builder {
    stack: Vec<Frame>,
    lines: HashMap<String, usize>,
    duplicate: Option<DuplicateKey>,
}

impl Builder {
    /// Path of the value that starts now, or None when the event is a mapping key.
    fn value_path(&mut self) -> Option<String> {
        match self.stack.last_mut() {
            None => Some(String::new()),
            Some(Frame::Seq { path, next }) => {
                let p = format!("{path}[{next}]");
                *next += 1;
                Some(p)
            }
            Some(Frame::Map {
                path, pending_key, ..
            }) => match pending_key.take() {
                Some(key) if path.is_empty() => Some(key),
                Some(key) => Some(format!("{path}.{key}")),
                None => None,
            },
        }
    }
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        match ev {
            Event::Scalar(text, ..) => match self.value_path() {
                Some(path) => {
                    self.lines.entry(path).or_insert(mark.line());
                }
                None => {
                    if let Some(Frame::Map {
                        path,
                        pending_key,
                        keys,
                    }) = self.stack.last_mut()
                    {
                        let full = if path.is_empty() {
                            text.clone()
                        } else {
                            format!("{path}.{text}")
                        };
                        if let Some(first) = keys.get(&text) {
                            if self.duplicate.is_none() {
                                self.duplicate = Some(DuplicateKey {
                                    key: full.clone(),
                                    line: mark.line(),
                                    first_line: *first,
                                });
                            }
                        } else {
                            keys.insert(text.clone(), mark.line());
                        }
                        // A key's line is where the key is written.
                        self.lines.insert(full, mark.line());
                        *pending_key = Some(text);
                    }
                }
            },
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                let path = self.value_path().unwrap_or_default();
                self.lines.entry(path.clone()).or_insert(mark.line());
                self.stack.push(if matches!(ev, Event::MappingStart(..)) {
                    Frame::Map {
                        path,
                        pending_key: None,
                        keys: HashMap::new(),
                    }
                } else {
                    Frame::Seq { path, next: 0 }
                });
            }
            Event::MappingEnd | Event::SequenceEnd => {
                self.stack.pop();
            }
            Event::Alias(..) => {
                self.value_path();
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_lines() {
        let idx = LineIndex::new("a: 1\nb:\n  - x: 2\n    y: 3\n  - x: 4\n");
        assert_eq!(idx.line_of("a"), Some(1));
        assert_eq!(idx.line_of("b[0].y"), Some(4));
        assert_eq!(idx.line_of("b[1].x"), Some(5));
        assert_eq!(idx.line_of("b[1].nothing"), Some(5));
    }

    #[test]
    fn duplicate_keys_are_found_at_the_second_one() {
        let idx = LineIndex::new("a: 1\nb:\n  x: 2\n  y: 3\n  x: 4\na: 5\n");
        let d = idx.duplicate().expect("duplicate");
        assert_eq!((d.key.as_str(), d.line, d.first_line), ("b.x", 5, 3));
        let idx = LineIndex::new("{\n \"A\": 1,\n \"B\": {\"A\": 2},\n \"A\": 3\n}\n");
        let d = idx.duplicate().expect("duplicate");
        assert_eq!((d.key.as_str(), d.line, d.first_line), ("A", 4, 2));
        assert!(
            LineIndex::new("a: {x: 1}\nb: {x: 2}\nc: [{x: 1}, {x: 2}]\n")
                .duplicate()
                .is_none()
        );
    }

    #[test]
    fn json_lines() {
        let idx = LineIndex::new(
            "{\n  \"A\": [\n    {\"B\": 1},\n    {\"B\": 2,\n     \"C\": 3}\n  ]\n}\n",
        );
        assert_eq!(idx.line_of("A[1].C"), Some(5));
        assert_eq!(idx.line_of("A[0].B"), Some(3));
    }
}
