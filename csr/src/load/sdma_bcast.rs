//! Shape rules of an `sdma_bcast` block beyond the roles `roles` asks for.

use super::block::Shape;
use super::Source;
use crate::error::{ErrorKind, Result};
use crate::model::{Access, Field};
use crate::roles::{FieldRole, RegRole};

/// The broadcast doorbell drives one increment value for both directions from the INC field of
/// the m2s_inc / s2m_inc registers, and stores the mask and queue fields as RW.
pub(super) fn check_shape(src: &Source, block: &Shape) -> Result<()> {
    let bad = |msg: String| Err(src.err(ErrorKind::BadValue, "Registers", msg));
    let mut inc: Option<(u32, u32)> = None;
    for role in [RegRole::M2sInc, RegRole::S2mInc] {
        let Some(reg) = block.reg_by_role(role) else {
            continue;
        };
        let incs: Vec<&Field> = reg
            .fields
            .iter()
            .filter(|f| f.access == Access::Inc)
            .collect();
        let [f] = incs.as_slice() else {
            return bad(format!(
                "register `{}` needs exactly one INC field",
                reg.name
            ));
        };
        if inc.is_some_and(|i| i != (f.lsb, f.width)) {
            return bad(format!(
                "the INC fields of the m2s_inc and s2m_inc registers must have the same bits (`{}`)",
                reg.name
            ));
        }
        inc = Some((f.lsb, f.width));
    }
    for (reg_role, field_role) in [
        (RegRole::Group, FieldRole::Mask),
        (RegRole::Queue, FieldRole::Queue),
    ] {
        let f = block
            .reg_by_role(reg_role)
            .and_then(|r| r.field_by_role(field_role));
        if f.is_some_and(|f| f.access != Access::Rw) {
            return bad(format!("the `{field_role}` field must be RW"));
        }
    }
    Ok(())
}
