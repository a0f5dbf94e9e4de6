//! Shape rules of a `sem_seq` block beyond the roles `roles` asks for.

use super::block::Shape;
use super::Source;
use crate::error::{ErrorKind, Result};
use crate::model::Access;
use crate::roles::{BundleRole, FieldRole, RegRole};

/// The template stores VALUE and the CMD fields per slot (RW, read back) and drives the STATUS
/// flags from the slot's state (one RO bit each).
pub(super) fn check_shape(src: &Source, block: &Shape) -> Result<()> {
    let Some((bi, slot)) = block
        .bundles
        .iter()
        .enumerate()
        .find(|(_, b)| b.role == Some(BundleRole::Slot))
    else {
        return Ok(());
    };
    // The template takes the slot index from the address bits above the stride.
    if !slot.stride.is_power_of_two() || slot.offset % slot.stride != 0 {
        return Err(src.err(
            ErrorKind::BadArray,
            format!("Bundles[{bi}].BundleSizeInBytes"),
            format!(
                "`{}` needs a power-of-two stride and must start at a multiple of it",
                slot.name
            ),
        ));
    }
    for (reg_role, field_role, access, one_bit) in [
        (RegRole::Value, FieldRole::Value, Access::Rw, false),
        (RegRole::Cmd, FieldRole::Sem, Access::Rw, false),
        (RegRole::Cmd, FieldRole::Subop, Access::Rw, false),
        (RegRole::Status, FieldRole::Busy, Access::Ro, true),
        (RegRole::Status, FieldRole::Err, Access::Ro, true),
    ] {
        let Some((ri, reg)) = slot
            .registers
            .iter()
            .enumerate()
            .find(|(_, r)| r.role == Some(reg_role))
        else {
            continue;
        };
        let Some((fi, f)) = reg
            .fields
            .iter()
            .enumerate()
            .find(|(_, f)| f.role == Some(field_role))
        else {
            continue;
        };
        if f.access != access || (one_bit && f.width != 1) {
            return Err(src.err(
                ErrorKind::BadValue,
                format!("Bundles[{bi}].Registers[{ri}].Fields[{fi}].Access"),
                format!(
                    "the `{field_role}` field `{}.{}` must be {}{access:?}",
                    reg.name,
                    f.name,
                    if one_bit { "a single " } else { "" }
                ),
            ));
        }
    }
    Ok(())
}
