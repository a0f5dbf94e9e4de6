//! `ext_inst.*`: ExtendedInst words.

use super::checks::{distinct_fields, unique_names, FieldSpan};
use super::Source;
use crate::error::{ErrorKind, Result};
use crate::model::{ExtWord, WordField, WordValue};
use crate::raw;

/// An ExtendedInst word is one 64-byte instruction slot.
const MAX_WORD_BYTES: u32 = 64;
/// The field that carries a word's sub-opcode.
const SUB_OPCODE: &str = "sub_opcode";

pub(super) fn build_words(src: &Source, raw: raw::ExtFile) -> Result<Vec<ExtWord>> {
    let mut out: Vec<ExtWord> = Vec::new();
    for (i, w) in raw.words.into_iter().enumerate() {
        if w.bytes == 0 || w.bytes > MAX_WORD_BYTES {
            return Err(src.err(
                ErrorKind::OutOfRange,
                format!("words[{i}].bytes"),
                format!(
                    "word `{}` is {} bytes; an ExtendedInst word is 1..={MAX_WORD_BYTES} bytes",
                    w.name, w.bytes
                ),
            ));
        }
        if let Some((j, other)) = out
            .iter()
            .enumerate()
            .find(|(_, o)| o.sub_opcode == w.sub_opcode)
        {
            return Err(src.err(
                ErrorKind::DuplicateName,
                format!("words[{i}].sub_opcode"),
                format!(
                    "words `{}` and `{}` (words[{j}]) share sub-opcode {}: the decoder could not \
                     tell them apart",
                    w.name, other.name, w.sub_opcode
                ),
            ));
        }
        let mut fields = Vec::new();
        for (j, f) in w.fields.into_iter().enumerate() {
            let k = format!("words[{i}].fields[{j}]");
            if ![1, 2, 4, 8].contains(&f.bytes) {
                return Err(src.err(
                    ErrorKind::BadValue,
                    format!("{k}.bytes"),
                    "bytes must be 1, 2, 4 or 8",
                ));
            }
            if f.offset % f.bytes != 0 {
                return Err(src.err(
                    ErrorKind::BadValue,
                    format!("{k}.offset"),
                    format!(
                        "field `{}` at byte {} is not aligned to its size {}",
                        f.name, f.offset, f.bytes
                    ),
                ));
            }
            if f.offset
                .checked_add(f.bytes)
                .is_none_or(|end| end > w.bytes)
            {
                return Err(src.err(
                    ErrorKind::OutOfRange,
                    format!("{k}.offset"),
                    format!(
                        "field `{}` ends at byte {}, past the {}-byte word",
                        f.name,
                        u64::from(f.offset) + u64::from(f.bytes),
                        w.bytes
                    ),
                ));
            }
            let values = build_values(src, &k, &f.name, f.bytes, f.values)?;
            fields.push(WordField {
                name: f.name,
                offset: f.offset,
                bytes: f.bytes,
                description: f.description,
                values,
            });
        }
        let spans: Vec<FieldSpan> = fields
            .iter()
            .enumerate()
            .map(|(j, f)| FieldSpan {
                name_key: format!("words[{i}].fields[{j}].name"),
                pos_key: format!("words[{i}].fields[{j}].offset"),
                name: &f.name,
                start: f.offset as u128,
                end: f.offset as u128 + f.bytes as u128,
            })
            .collect();
        distinct_fields(src, "field", &spans)?;
        // The sub-opcode is stored in the word's own `sub_opcode` field: it must fit there.
        if let Some(f) = fields.iter().find(|f| f.name == SUB_OPCODE) {
            let bits = f.bytes * 8;
            if bits < 32 && w.sub_opcode >> bits != 0 {
                return Err(src.err(
                    ErrorKind::ResetTooWide,
                    format!("words[{i}].sub_opcode"),
                    format!(
                        "sub-opcode {} of word `{}` does not fit its {}-byte `{SUB_OPCODE}` field",
                        w.sub_opcode, w.name, f.bytes
                    ),
                ));
            }
        }
        out.push(ExtWord {
            name: w.name,
            sub_opcode: w.sub_opcode,
            bytes: w.bytes,
            description: w.description,
            fields,
        });
    }
    unique_names(
        src,
        "word",
        out.iter()
            .enumerate()
            .map(|(i, w)| (format!("words[{i}].name"), w.name.as_str())),
    )?;
    Ok(out)
}

/// A field's named codes: identifier names unique in the field, distinct codes that fit the
/// field's bytes.
fn build_values(
    src: &Source,
    key: &str,
    field: &str,
    bytes: u32,
    raw: Vec<raw::RawWordValue>,
) -> Result<Vec<WordValue>> {
    unique_names(
        src,
        "value",
        raw.iter()
            .enumerate()
            .map(|(v, r)| (format!("{key}.values[{v}].name"), r.name.as_str())),
    )?;
    let mut out: Vec<WordValue> = Vec::with_capacity(raw.len());
    for (v, r) in raw.into_iter().enumerate() {
        let vk = format!("{key}.values[{v}].value");
        let value = r.value.0;
        if bytes < 8 && value >> (bytes * 8) != 0 {
            return Err(src.err(
                ErrorKind::BadValue,
                vk,
                format!(
                    "value `{}` ({value}) does not fit the {bytes}-byte field `{field}`",
                    r.name
                ),
            ));
        }
        if let Some(other) = out.iter().find(|o| o.value == value) {
            return Err(src.err(
                ErrorKind::BadValue,
                vk,
                format!(
                    "values `{}` and `{}` of field `{field}` share the code {value}",
                    other.name, r.name
                ),
            ));
        }
        out.push(WordValue {
            name: r.name,
            value,
            description: r.description,
        });
    }
    Ok(out)
}
