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
    /// Index `text`. A text the parser rejects yields an empty index: serde reports the syntax
    /// error itself, with its own position.
    pub fn new(text: &str) -> Self {
        let mut builder = Builder::default();
        let mut parser = Parser::new_from_str(text);
        if parser.load(&mut builder, false).is_err() {
            return LineIndex::default();
        }
        LineIndex {
            lines: builder.lines,
            duplicate: builder.duplicate,
        }
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
