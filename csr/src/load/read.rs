//! Finding and parsing one input file: JSON or YAML by extension, with the key path and line of
//! a syntax error.

use super::Source;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::locate::{DuplicateKey, LineIndex};
use serde::de::DeserializeOwned;
use std::path::{Path, PathBuf};

const EXTENSIONS: [&str; 3] = ["json", "yaml", "yml"];

/// How the message of a file that is not there starts (the block reader tells it from a file
/// that is there but unreadable).
pub(super) const MISSING: &str = "missing:";

/// Find `dir/stem.{json,yaml,yml}`, parse it with serde (path-tracking), and index its lines.
pub(super) fn read<T: DeserializeOwned>(
    dir: &Path,
    stem: &str,
    sources: &mut Vec<PathBuf>,
) -> Result<(Source, T)> {
    let found: Vec<PathBuf> = EXTENSIONS
        .iter()
        .map(|ext| dir.join(format!("{stem}.{ext}")))
        .filter(|p| p.exists())
        .collect();
    let path = match found.as_slice() {
        [one] => one.clone(),
        [] => {
            return Err(Error {
                kind: ErrorKind::Io,
                at: Location {
                    file: dir.join(format!("{stem}.yaml")),
                    key: String::new(),
                    line: None,
                },
                message: format!(
                    "{MISSING} expected {stem}.json or {stem}.yaml in {}",
                    dir.display()
                ),
            })
        }
        many => {
            return Err(Error {
                kind: ErrorKind::DuplicateName,
                at: Location {
                    file: many[1].clone(),
                    key: String::new(),
                    line: None,
                },
                message: format!(
                    "{stem} is described twice ({} and this file)",
                    many[0].display()
                ),
            })
        }
    };
    let text = crate::limits::read_text(&path)
        .and_then(|t| crate::limits::check_depth(&t).map(|()| t))
        .map_err(|e| Error {
            kind: ErrorKind::Io,
            at: Location {
                file: path.clone(),
                key: String::new(),
                line: e.line,
            },
            message: e.message,
        })?;
    sources.push(path.clone());
    let index = LineIndex::new(&text);
    // Before serde: it keeps one of two equal keys silently, or blames the whole mapping.
    if let Some(d) = index.duplicate() {
        return Err(duplicate_key(&path, d));
    }
    let is_json = path.extension().is_some_and(|e| e == "json");
    let value = if is_json {
        let mut de = serde_json::Deserializer::from_str(&text);
        serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let (line, msg) = (e.inner().line(), strip_position(&e.inner().to_string()));
            syntax_error(&path, e.path().to_string(), Some(line), msg)
        })?
    } else {
        let de = serde_yaml::Deserializer::from_str(&text);
        serde_path_to_error::deserialize(de).map_err(|e| {
            let line = e.inner().location().map(|l| l.line());
            let msg = strip_position(&e.inner().to_string());
            syntax_error(&path, e.path().to_string(), line, msg)
        })?
    };
    Ok((Source { path, index }, value))
}

/// A key written twice in one mapping, at the second one.
fn duplicate_key(path: &Path, d: &DuplicateKey) -> Error {
    syntax_error(path, d.key.clone(), Some(d.line), d.message())
}

fn syntax_error(path: &Path, key: String, line: Option<usize>, message: String) -> Error {
    let key = if key == "." { String::new() } else { key };
    Error {
        kind: ErrorKind::Syntax,
        at: Location {
            file: path.to_path_buf(),
            key,
            line: line.filter(|l| *l > 0),
        },
        message,
    }
}

/// serde's message without what the location already says (`xdie_csr::locate::serde_message`:
/// its position, serde_yaml's path prefix), with the nearest valid name for a misspelt key.
fn strip_position(msg: &str) -> String {
    crate::locate::serde_message(msg)
}
