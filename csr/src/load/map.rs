//! `address_map.*`: the die-local map, its parameters and apertures.

use super::checks::{ident, no_overlap, unique_names};
use super::Source;
use crate::error::{ErrorKind, Result};
use crate::limits::{MAX_APERTURE_COUNT, MAX_INSTANCES};
use crate::model::{Aperture, ApertureKind, Block, DieMap, Param, SocAddress};
use crate::raw::{self, Num};
use std::collections::HashMap;

pub(super) fn build_map(
    src: &Source,
    raw: raw::MapFile,
    soc: &SocAddress,
    blocks: &[Block],
    block_index: &HashMap<String, usize>,
) -> Result<DieMap> {
    ident(src, "address map", "name", &raw.name)?;
    let local = soc.views.first().and_then(|v| v.field("LOCAL"));
    if local.map(|f| f.width) != Some(raw.local_width) {
        return Err(src.err(
            ErrorKind::BadValue,
            "local_width",
            format!(
                "local_width {} differs from the width of the SoC address field LOCAL ({})",
                raw.local_width,
                local.map(|f| f.width).unwrap_or(0)
            ),
        ));
    }
    let params: Vec<Param> = raw
        .parameters
        .into_iter()
        .map(|p| Param {
            name: p.name,
            value: p.value.0,
            description: p.description,
        })
        .collect();
    unique_names(
        src,
        "parameter",
        params
            .iter()
            .enumerate()
            .map(|(i, p)| (format!("parameters[{i}].name"), p.name.as_str())),
    )?;
    let limit: u128 = 1u128 << raw.local_width;
    let mut apertures = Vec::new();
    for (i, a) in raw.apertures.into_iter().enumerate() {
        let key = format!("apertures[{i}]");
        let count = a.count.map(|n| n.0).unwrap_or(1);
        let size = a.size.0;
        if count == 0 || count > MAX_APERTURE_COUNT {
            return Err(src.err(
                ErrorKind::BadArray,
                format!("{key}.count"),
                format!("count is {count}; it must be 1..={MAX_APERTURE_COUNT}"),
            ));
        }
        if size == 0 || !size.is_power_of_two() || a.base.0 % size != 0 {
            return Err(src.err(
                ErrorKind::BadArray,
                format!("{key}.size"),
                format!(
                    "aperture `{}`: size {size:#x} must be a power of two and base {:#x} a multiple of it",
                    a.name, a.base.0
                ),
            ));
        }
        let stride = match (count, a.stride) {
            (1, None) => size,
            (_, Some(Num(s))) if s >= size && s % size == 0 => s,
            (_, None) => {
                return Err(src.err(
                    ErrorKind::BadArray,
                    format!("{key}.count"),
                    format!("aperture `{}` has count {count} but no stride", a.name),
                ))
            }
            (_, Some(Num(s))) => {
                return Err(src.err(
                    ErrorKind::BadArray,
                    format!("{key}.stride"),
                    format!("stride {s:#x} must be a multiple of the size {size:#x}"),
                ))
            }
        };
        // The last instance must end inside the die-local space; computed wide so that no
        // base, stride or count can wrap it back into range.
        let end = a.base.0 as u128 + (count as u128 - 1) * stride as u128 + size as u128;
        // (An end of exactly 2^64 would not fit the u64 the model keeps addresses in.)
        if end > limit.min(u64::MAX as u128) {
            let blame = if a.base.0 as u128 + size as u128 > limit || count == 1 {
                "base"
            } else {
                "count"
            };
            return Err(src.err(
                ErrorKind::OutOfRange,
                format!("{key}.{blame}"),
                format!(
                    "aperture `{}` ends at {end:#x}, past the {}-bit die-local space",
                    a.name, raw.local_width
                ),
            ));
        }
        let (kind, block) = match (a.kind.as_str(), &a.block) {
            ("memory", None) => (ApertureKind::Memory, None),
            ("block", Some(b)) => {
                let Some(&bi) = block_index.get(b) else {
                    return Err(src.err(
                        ErrorKind::BadReference,
                        format!("{key}.block"),
                        format!("block `{b}` was not read"),
                    ));
                };
                if blocks[bi].size > size {
                    return Err(src.err(
                        ErrorKind::OutOfRange,
                        format!("{key}.size"),
                        format!(
                            "aperture `{}` ({size:#x} bytes) is smaller than block `{b}` ({:#x} bytes)",
                            a.name, blocks[bi].size
                        ),
                    ));
                }
                (ApertureKind::Block, Some(bi))
            }
            ("memory", Some(_)) | ("block", None) => {
                return Err(src.err(
                    ErrorKind::BadValue,
                    format!("{key}.kind"),
                    "a `block` aperture names a block; a `memory` aperture does not",
                ))
            }
            (other, _) => {
                return Err(src.err(
                    ErrorKind::BadValue,
                    format!("{key}.kind"),
                    format!("unknown aperture kind `{other}` (memory or block)"),
                ))
            }
        };
        let ap = Aperture {
            name: a.name,
            base: a.base.0,
            size,
            count,
            stride,
            kind,
            block,
            description: a.description,
        };
        apertures.push(ap);
    }
    unique_names(
        src,
        "aperture",
        apertures
            .iter()
            .enumerate()
            .map(|(i, a)| (format!("apertures[{i}].name"), a.name.as_str())),
    )?;
    // Instances are checked one by one below: bound their total first.
    let total: u64 = apertures.iter().map(|a| a.count).sum();
    if total > MAX_INSTANCES {
        return Err(src.err(
            ErrorKind::BadArray,
            "apertures",
            format!("the apertures have {total} instances in all; at most {MAX_INSTANCES}"),
        ));
    }
    let mut extents = Vec::new();
    for (i, a) in apertures.iter().enumerate() {
        for n in 0..a.count {
            let label = if a.count > 1 {
                format!("{}[{n}]", a.name)
            } else {
                a.name.clone()
            };
            let b = a.instance_base(n) as u128;
            extents.push((format!("apertures[{i}].base"), label, b, b + a.size as u128));
        }
    }
    no_overlap(src, "aperture", extents)?;
    Ok(DieMap {
        name: raw.name,
        local_width: raw.local_width,
        params,
        apertures,
    })
}
