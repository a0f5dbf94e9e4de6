//! Registers of a block file (top-level or inside a bundle) and their fields.

use super::checks::{distinct_fields, unique_names, FieldSpan};
use super::Source;
use crate::error::{ErrorKind, Result};
use crate::model::{Access, Field, Register};
use crate::raw;
use crate::roles::{FieldRole, RegRole};

/// A role spelled in a block file, parsed into its enum; an unknown spelling is an error at
/// `key`.
pub(super) fn parse_role<T: Copy>(
    src: &Source,
    key: &str,
    what: &str,
    role: Option<&str>,
    parse: fn(&str) -> Option<T>,
    spellings: fn() -> String,
) -> Result<Option<T>> {
    let Some(role) = role else { return Ok(None) };
    parse(role).map(Some).ok_or_else(|| {
        src.err(
            ErrorKind::BadReference,
            key,
            format!("unknown {what} role `{role}` (one of {})", spellings()),
        )
    })
}

/// `"hi:lo"` or `"bit"` → (hi, lo), hi >= lo. Digits only (no sign, no spaces inside).
fn parse_bits(s: &str) -> Option<(u32, u32)> {
    let num = |t: &str| {
        let t = t.trim();
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        t.parse::<u32>().ok()
    };
    let (hi, lo) = match s.split_once(':') {
        Some((h, l)) => (num(h)?, num(l)?),
        None => {
            let b = num(s)?;
            (b, b)
        }
    };
    (hi >= lo).then_some((hi, lo))
}

fn build_register(src: &Source, key: &str, r: raw::RawRegister) -> Result<Register> {
    if !r.address_offset.0.is_multiple_of(4) {
        return Err(src.err(
            ErrorKind::BadValue,
            format!("{key}.AddressOffset"),
            format!(
                "register `{}` offset {:#x} is not 4-byte aligned",
                r.name, r.address_offset.0
            ),
        ));
    }
    let mut fields = Vec::new();
    for (i, f) in r.fields.into_iter().enumerate() {
        let k = format!("{key}.Fields[{i}]");
        let (hi, lo) = parse_bits(&f.bits).ok_or_else(|| {
            src.err(
                ErrorKind::BadValue,
                format!("{k}.Bits"),
                format!(
                    "`{}` is not a bit range (write \"hi:lo\" with hi >= lo, or \"bit\")",
                    f.bits
                ),
            )
        })?;
        if hi > 31 {
            return Err(src.err(
                ErrorKind::OutOfRange,
                format!("{k}.Bits"),
                format!(
                    "field `{}` [{}] extends past the 32-bit register `{}`",
                    f.name, f.bits, r.name
                ),
            ));
        }
        // hi <= 31, so neither can wrap.
        let (lsb, width) = (lo, hi - lo + 1);
        let access = Access::parse(&f.access).ok_or_else(|| {
            src.err(
                ErrorKind::BadValue,
                format!("{k}.Access"),
                format!("unknown access `{}` (one of {})", f.access, Access::ALL),
            )
        })?;
        let reset = f.reset.map(|n| n.0).unwrap_or(0);
        if width < 64 && reset >> width != 0 {
            return Err(src.err(
                ErrorKind::ResetTooWide,
                format!("{k}.Reset"),
                format!(
                    "reset {reset:#x} does not fit the {width}-bit field `{}`",
                    f.name
                ),
            ));
        }
        let role = parse_role(
            src,
            &format!("{k}.Role"),
            "field",
            f.role.as_deref(),
            FieldRole::parse,
            FieldRole::spellings,
        )?;
        fields.push(Field {
            name: f.name,
            lsb,
            width,
            access,
            reset,
            description: f.description,
            role,
        });
    }
    if fields.is_empty() {
        return Err(src.err(
            ErrorKind::BadValue,
            format!("{key}.Fields"),
            format!("register `{}` has no fields", r.name),
        ));
    }
    let spans: Vec<FieldSpan> = fields
        .iter()
        .enumerate()
        .map(|(i, f)| FieldSpan {
            name_key: format!("{key}.Fields[{i}].Name"),
            pos_key: format!("{key}.Fields[{i}].Bits"),
            name: &f.name,
            start: f.lsb as u128,
            end: f.lsb as u128 + f.width as u128,
        })
        .collect();
    distinct_fields(src, "field", &spans)?;
    let role = parse_role(
        src,
        &format!("{key}.Role"),
        "register",
        r.role.as_deref(),
        RegRole::parse,
        RegRole::spellings,
    )?;
    Ok(Register {
        name: r.name,
        offset: r.address_offset.0,
        description: r.description,
        role,
        fields,
    })
}

pub(super) fn build_registers(
    src: &Source,
    key: &str,
    raw: Vec<raw::RawRegister>,
) -> Result<Vec<Register>> {
    let regs = raw
        .into_iter()
        .enumerate()
        .map(|(i, r)| build_register(src, &format!("{key}[{i}]"), r))
        .collect::<Result<Vec<_>>>()?;
    unique_names(
        src,
        "register",
        regs.iter()
            .enumerate()
            .map(|(i, r)| (format!("{key}[{i}].Name"), r.name.as_str())),
    )?;
    Ok(regs)
}
