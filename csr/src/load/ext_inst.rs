//! `ext_inst.*`: ExtendedInst words.

use super::checks::{distinct_fields, unique_names, FieldSpan};
use super::Source;
use crate::error::{ErrorKind, Result};
use crate::model::{ExtWord, WordField};
use crate::raw;

pub(super) fn build_words(src: &Source, raw: raw::ExtFile) -> Result<Vec<ExtWord>> {
    let mut out = Vec::new();
    for (i, w) in raw.words.into_iter().enumerate() {
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
            if f.offset + f.bytes > w.bytes {
                return Err(src.err(
                    ErrorKind::OutOfRange,
                    format!("{k}.offset"),
                    format!(
                        "field `{}` ends at byte {}, past the {}-byte word",
                        f.name,
                        f.offset + f.bytes,
                        w.bytes
                    ),
                ));
            }
            fields.push(WordField {
                name: f.name,
                offset: f.offset,
                bytes: f.bytes,
                description: f.description,
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
                end: (f.offset + f.bytes) as u128,
            })
            .collect();
        distinct_fields(src, "field", &spans)?;
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
