//! `descriptors.*`: ring descriptor formats and ring rules.

use super::checks::{bit_fields, unique_names};
use super::Source;
use crate::error::{ErrorKind, Result};
use crate::model::{DescFormat, RingRules};
use crate::raw;

/// Largest descriptor: a descriptor is read from one bus beat (`constraints::data_beat` bounds
/// the beat), and its bit positions must stay far inside u32.
const MAX_DESC_BYTES: u32 = 1024;

pub(super) fn build_descriptors(
    src: &Source,
    raw: raw::DescFile,
) -> Result<(Vec<DescFormat>, RingRules)> {
    let mut out = Vec::new();
    for (i, d) in raw.descriptors.into_iter().enumerate() {
        if d.bytes == 0 || d.bytes % 4 != 0 || d.bytes > MAX_DESC_BYTES {
            return Err(src.err(
                ErrorKind::BadValue,
                format!("descriptors[{i}].bytes"),
                format!(
                    "descriptor size {} must be a nonzero multiple of 4 bytes, at most \
                     {MAX_DESC_BYTES}",
                    d.bytes
                ),
            ));
        }
        let fields = bit_fields(
            src,
            &format!("descriptors[{i}].fields"),
            "descriptor",
            d.bytes * 8,
            d.fields,
        )?;
        out.push(DescFormat {
            name: d.name,
            description: d.description,
            bytes: d.bytes,
            fields,
        });
    }
    unique_names(
        src,
        "descriptor",
        out.iter()
            .enumerate()
            .map(|(i, d)| (format!("descriptors[{i}].name"), d.name.as_str())),
    )?;
    let r = raw.ring;
    if r.ring_id_width == 0 || r.ring_id_width > 8 || r.initial_ring_id >> r.ring_id_width != 0 {
        return Err(src.err(
            ErrorKind::BadValue,
            "ring.initial_ring_id",
            "initial_ring_id must fit ring_id_width (1..=8 bits)",
        ));
    }
    if !r.base_align.0.is_power_of_two() {
        return Err(src.err(
            ErrorKind::BadValue,
            "ring.base_align",
            "base_align must be a power of two",
        ));
    }
    Ok((
        out,
        RingRules {
            initial_ring_id: r.initial_ring_id,
            ring_id_width: r.ring_id_width,
            base_align: r.base_align.0,
            max_len_code: r.max_len_code.0,
        },
    ))
}
