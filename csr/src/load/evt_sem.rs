//! Shape rules of an `evt_sem` block beyond the roles `roles` asks for.

use super::block::Shape;
use super::Source;
use crate::error::{ErrorKind, Result};
use crate::model::Access;
use crate::roles::BundleRole;

/// The EVT_SEM template indexes its windows by address bits and keeps one storage behind the
/// four semaphore windows, so each window is one register of one field, a power-of-two stride,
/// and all semaphore windows agree on count and value field.
pub(super) fn check_shape(src: &Source, block: &Shape) -> Result<()> {
    let sem = block.bundle_by_role(BundleRole::SemRead);
    for (i, b) in block.bundles.iter().enumerate() {
        let is_sem = match b.role {
            Some(
                BundleRole::SemRead | BundleRole::SemSet | BundleRole::SemInc | BundleRole::SemDec,
            ) => true,
            Some(BundleRole::Event) => false,
            _ => continue,
        };
        let bad = |key: &str, msg: String| {
            Err(src.err(ErrorKind::BadArray, format!("Bundles[{i}].{key}"), msg))
        };
        if b.count < 2 {
            return bad(
                "ArraySize",
                format!("`{}` needs at least 2 entries", b.name),
            );
        }
        if !b.stride.is_power_of_two() {
            return bad(
                "BundleSizeInBytes",
                format!("`{}` needs a power-of-two stride", b.name),
            );
        }
        if b.offset % b.stride != 0 {
            return bad(
                "AddressOffset",
                format!("`{}` must start at a multiple of its stride", b.name),
            );
        }
        let [reg] = b.registers.as_slice() else {
            return bad(
                "Registers",
                format!("`{}` must hold exactly one register", b.name),
            );
        };
        let [field] = reg.fields.as_slice() else {
            return bad(
                "Registers[0].Fields",
                format!("register `{}` must hold exactly one field", reg.name),
            );
        };
        if !is_sem {
            if field.width != 1 || field.access != Access::Rw {
                return bad(
                    "Registers[0].Fields[0]",
                    format!("event field `{}` must be a 1-bit RW flag", field.name),
                );
            }
            continue;
        }
        let Some(sem) = sem else { continue };
        let first = &sem.registers[0].fields[0];
        if b.count != sem.count {
            return bad(
                "ArraySize",
                format!(
                    "semaphore window `{}` has {} entries but SEM_READ has {}",
                    b.name, b.count, sem.count
                ),
            );
        }
        if (field.lsb, field.width, field.reset) != (first.lsb, first.width, first.reset) {
            return bad(
                "Registers[0].Fields[0]",
                format!(
                    "semaphore window `{}` must place its value like `{}` (same bits and reset)",
                    b.name, sem.name
                ),
            );
        }
        if field.width < 2 {
            return bad(
                "Registers[0].Fields[0]",
                format!("semaphore value `{}` needs at least 2 bits", field.name),
            );
        }
    }
    Ok(())
}
