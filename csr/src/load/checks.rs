//! Checks shared by several file kinds: unique names, non-overlapping ranges, bit fields.

use super::Source;
use crate::error::{ErrorKind, Result};
use crate::ident;
use crate::model::BitField;
use crate::raw;
use std::collections::HashMap;

/// Names must follow the identifier rule (`crate::ident`) and be unique within one scope, also
/// after case mapping (the outputs upper- or lower-case them). `items` yields (key path of the
/// name, name).
pub(super) fn unique_names<'a>(
    src: &Source,
    what: &str,
    items: impl IntoIterator<Item = (String, &'a str)>,
) -> Result<()> {
    unique_names_by(src, what, items, ident::problem)
}

/// `unique_names` with another identifier rule (view names: `ident::syntax_problem`).
pub(super) fn unique_names_by<'a>(
    src: &Source,
    what: &str,
    items: impl IntoIterator<Item = (String, &'a str)>,
    rule: fn(&str) -> Option<String>,
) -> Result<()> {
    let mut seen: HashMap<String, (String, &str)> = HashMap::new();
    for (key, name) in items {
        if let Some(why) = rule(name) {
            return Err(src.err(ErrorKind::BadValue, key, format!("bad {what} name: {why}")));
        }
        let folded = name.to_ascii_lowercase();
        if let Some((first, first_name)) = seen.get(&folded) {
            let how = if *first_name == name {
                String::new()
            } else {
                format!(" as `{first_name}`; names differing only in case collide in the outputs")
            };
            return Err(src.err(
                ErrorKind::DuplicateName,
                key,
                format!("duplicate {what} name `{name}` (first used at `{first}`{how})"),
            ));
        }
        seen.insert(folded, (key, name));
    }
    Ok(())
}

/// One name that must follow the identifier rule on its own (no scope to be unique in).
pub(super) fn ident(src: &Source, what: &str, key: &str, name: &str) -> Result<()> {
    match ident::problem(name) {
        Some(why) => Err(src.err(ErrorKind::BadValue, key, format!("bad {what} name: {why}"))),
        None => Ok(()),
    }
}

/// Half-open ranges must not intersect. `items` yields (key path, label, start, end).
pub(super) fn no_overlap(
    src: &Source,
    what: &str,
    mut items: Vec<(String, String, u128, u128)>,
) -> Result<()> {
    items.sort_by_key(|i| (i.2, i.3));
    for pair in items.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        if b.2 < a.3 {
            return Err(src.err(
                ErrorKind::Overlap,
                b.0.clone(),
                format!(
                    "{what} `{}` [{:#x}, {:#x}) overlaps `{}` [{:#x}, {:#x})",
                    b.1, b.2, b.3, a.1, a.2, a.3
                ),
            ));
        }
    }
    Ok(())
}

/// One named field of a layout: the key paths of its name and of its position, and its
/// half-open extent (in bits or bytes).
pub(super) struct FieldSpan<'a> {
    pub name_key: String,
    pub pos_key: String,
    pub name: &'a str,
    pub start: u128,
    pub end: u128,
}

/// The fields of one layout (`what` names them in errors): names unique, extents disjoint.
pub(super) fn distinct_fields(src: &Source, what: &str, fields: &[FieldSpan]) -> Result<()> {
    unique_names(
        src,
        what,
        fields.iter().map(|f| (f.name_key.clone(), f.name)),
    )?;
    no_overlap(
        src,
        what,
        fields
            .iter()
            .map(|f| (f.pos_key.clone(), f.name.to_string(), f.start, f.end))
            .collect(),
    )
}

pub(super) fn bit_fields(
    src: &Source,
    key: &str,
    what: &str,
    word_bits: u32,
    raw: Vec<raw::RawBitField>,
) -> Result<Vec<BitField>> {
    let mut out = Vec::new();
    for (i, f) in raw.into_iter().enumerate() {
        let k = format!("{key}[{i}]");
        if f.width == 0 {
            return Err(src.err(
                ErrorKind::BadValue,
                format!("{k}.width"),
                "field width is 0",
            ));
        }
        if f.lsb as u64 + f.width as u64 > word_bits as u64 {
            return Err(src.err(
                ErrorKind::OutOfRange,
                format!("{k}.width"),
                format!(
                    "field `{}` [{}:{}] extends past the {word_bits}-bit {what}",
                    f.name,
                    f.lsb as u64 + f.width as u64 - 1,
                    f.lsb
                ),
            ));
        }
        out.push(BitField {
            name: f.name,
            lsb: f.lsb,
            width: f.width,
            description: f.description,
        });
    }
    let spans: Vec<FieldSpan> = out
        .iter()
        .enumerate()
        .map(|(i, f)| FieldSpan {
            name_key: format!("{key}[{i}].name"),
            pos_key: format!("{key}[{i}].lsb"),
            name: &f.name,
            start: f.lsb as u128,
            end: f.lsb as u128 + f.width as u128,
        })
        .collect();
    distinct_fields(src, "field", &spans)?;
    Ok(out)
}
