//! Shape rules of a `udma_queue_group` block beyond the roles `role_needs` asks for: the RTL
//! template gives every register a fixed behaviour by its role, so each role's fields must have
//! the access and width that behaviour implies, and nothing may sit in the block that the
//! template would silently ignore.

use super::block::Shape;
use super::Source;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::model::{Access, Csrs, Register};
use crate::roles::{BundleRole, FieldRole as F, RegRole as R};

type RegRule = (R, Access, &'static [F]);

/// Register roles of the queue bundle, with the access their fields must have and the field
/// roles allowed (empty = any field, all of that access).
const QUEUE_REGS: &[RegRule] = &[
    (R::Cfg, Access::Rw, &[]),
    (R::RingBaseLo, Access::Rw, &[]),
    (R::RingBaseHi, Access::Rw, &[]),
    (R::RingLen, Access::Rw, &[]),
    (R::Status, Access::Ro, &[F::Used, F::Overrun, F::Full]),
    (R::Head, Access::Ro, &[F::Offset, F::RingId]),
    (R::Tail, Access::Ro, &[F::Offset, F::RingId]),
    (R::TailInc, Access::Inc, &[F::Inc]),
    (R::SwCtrl, Access::W1p, &[F::RstTail, F::RstHead, F::RstQ]),
];

/// Top-level register roles and their rules; a top-level register without a role is plain RW.
const TOP_REGS: &[RegRule] = &[(R::ErrLog, Access::W1c, &[F::Overrun, F::RingIdErr])];

/// Field roles that are single-bit flags.
const ONE_BIT: &[(R, F)] = &[
    (R::Cfg, F::Enable),
    (R::Status, F::Overrun),
    (R::Status, F::Full),
    (R::ErrLog, F::Overrun),
    (R::ErrLog, F::RingIdErr),
];

pub(super) fn check_shape(src: &Source, block: &Shape) -> Result<()> {
    let Some((bi, queue)) = block
        .bundles
        .iter()
        .enumerate()
        .find(|(_, b)| b.role == Some(BundleRole::Queue))
    else {
        return Ok(()); // role_needs already reported it
    };
    if block.bundles.len() != 1 {
        return Err(src.err(
            ErrorKind::BadReference,
            "Bundles",
            "a udma_queue_group block has exactly one bundle, the queue bundle",
        ));
    }
    if !queue.stride.is_power_of_two() {
        return Err(src.err(
            ErrorKind::BadArray,
            format!("Bundles[{bi}].BundleSizeInBytes"),
            format!(
                "queue bundle size {:#x} must be a power of two (the RTL splits the address \
                 into queue index and register offset)",
                queue.stride
            ),
        ));
    }
    let key = |j: usize| format!("Bundles[{bi}].Registers[{j}]");
    for (j, r) in queue.registers.iter().enumerate() {
        check_reg(src, &key(j), r, QUEUE_REGS)?;
    }
    for (j, r) in block.registers.iter().enumerate() {
        check_reg(src, &format!("Registers[{j}]"), r, TOP_REGS)?;
    }
    // Pointers index the ring, so they are exactly as wide as its length; `used` counts up to
    // the length.
    let field = |reg: R, role: F| {
        queue
            .reg_by_role(reg)
            .and_then(|r| r.field_by_role(role))
            .map(|f| f.width)
            .unwrap_or(0)
    };
    let len = field(R::RingLen, F::Len);
    for (reg, role) in [(R::Head, F::Offset), (R::Tail, F::Offset)] {
        if field(reg, role) != len {
            return Err(bad_width(
                src,
                &format!(
                    "{} pointer is {} bits but the ring length is {len}",
                    reg,
                    field(reg, role)
                ),
            ));
        }
    }
    if field(R::Status, F::Used) < len {
        return Err(bad_width(
            src,
            "status `used` must be at least as wide as the ring length",
        ));
    }
    if field(R::Head, F::RingId) != field(R::Tail, F::RingId) {
        return Err(bad_width(src, "head and tail ring ids differ in width"));
    }
    for &(reg, role) in ONE_BIT {
        let w = if reg == R::ErrLog {
            block
                .reg_by_role(reg)
                .and_then(|r| r.field_by_role(role))
                .map(|f| f.width)
                .unwrap_or(0)
        } else {
            field(reg, role)
        };
        if w != 1 {
            return Err(bad_width(
                src,
                &format!("`{reg}` field `{role}` must be 1 bit wide"),
            ));
        }
    }
    Ok(())
}

fn bad_width(src: &Source, msg: &str) -> Error {
    src.err(ErrorKind::BadValue, "Bundles", msg.to_string())
}

fn check_reg(src: &Source, key: &str, r: &Register, rules: &[RegRule]) -> Result<()> {
    let (access, roles): (Access, &[F]) = match r.role {
        None => (Access::Rw, &[]),
        Some(role) => match rules.iter().find(|(n, _, _)| *n == role) {
            Some((_, a, f)) => (*a, f),
            None => {
                return Err(src.err(
                    ErrorKind::BadReference,
                    format!("{key}.Role"),
                    format!("register role `{role}` means nothing in a udma_queue_group block"),
                ))
            }
        },
    };
    for (i, f) in r.fields.iter().enumerate() {
        if f.access != access {
            return Err(src.err(
                ErrorKind::BadValue,
                format!("{key}.Fields[{i}].Access"),
                format!(
                    "field `{}` of `{}` must be {} (the register's role fixes its behaviour)",
                    f.name,
                    r.name,
                    access.as_str()
                ),
            ));
        }
        if !roles.is_empty() && !f.role.is_some_and(|x| roles.contains(&x)) {
            let names: Vec<&str> = roles.iter().map(|r| r.as_str()).collect();
            return Err(src.err(
                ErrorKind::BadReference,
                format!("{key}.Fields[{i}].Role"),
                format!(
                    "field `{}` of `{}` needs one of the roles {names:?}",
                    f.name, r.name
                ),
            ));
        }
    }
    Ok(())
}

/// The ring-id fields start at the ring rules' initial id and are as wide as the rules say.
pub(super) fn check_ring_ids(csrs: &Csrs) -> Result<()> {
    for b in &csrs.blocks {
        let Some(l) = b.udma() else {
            continue;
        };
        for (reg, f) in [("head", &l.head_ring_id), ("tail", &l.tail_ring_id)] {
            if f.width != csrs.ring.ring_id_width || f.reset != u64::from(csrs.ring.initial_ring_id)
            {
                return Err(Error {
                    kind: ErrorKind::BadValue,
                    at: Location {
                        file: b.source.clone(),
                        key: format!("Bundles.{reg}.{}", f.name),
                        line: None,
                    },
                    message: format!(
                        "ring id field `{}` must be {} bits with reset {} (descriptors ring rules)",
                        f.name, csrs.ring.ring_id_width, csrs.ring.initial_ring_id
                    ),
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::error::ErrorKind;
    use serde_json::Value;
    use std::path::{Path, PathBuf};

    /// A copy of the repository's csrs/ with one edit applied to `blocks/udma_m2s.json`.
    fn edited(tag: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../csrs");
        let dst = std::env::temp_dir().join(format!("xdie-udma-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dst);
        std::fs::create_dir_all(dst.join("blocks")).expect("temp dir");
        for dir in ["", "blocks"] {
            for e in std::fs::read_dir(src.join(dir)).expect("csrs readable") {
                let p = e.expect("entry").path();
                if p.is_file() {
                    std::fs::copy(&p, dst.join(dir).join(p.file_name().expect("name")))
                        .expect("copy");
                }
            }
        }
        let file = dst.join("blocks/udma_m2s.json");
        let mut v: Value =
            serde_json::from_str(&std::fs::read_to_string(&file).expect("read")).expect("json");
        edit(&mut v);
        std::fs::write(&file, serde_json::to_string_pretty(&v).expect("json")).expect("write");
        dst
    }

    fn queue_reg<'a>(v: &'a mut Value, role: &str) -> &'a mut Value {
        let regs = v["Bundles"][0]["Registers"]
            .as_array_mut()
            .expect("registers");
        regs.iter_mut()
            .find(|r| r["Role"] == role)
            .expect("register with role")
    }

    #[test]
    fn pointer_narrower_than_ring_length_is_rejected() {
        let dir = edited("ptrw", |v| {
            let head = queue_reg(v, "head");
            let f = head["Fields"]
                .as_array_mut()
                .expect("fields")
                .iter_mut()
                .find(|f| f["Role"] == "offset")
                .expect("offset field");
            f["Bits"] = Value::from("22:0");
        });
        let e = crate::load(&dir).expect_err("must fail");
        assert_eq!(e.kind, ErrorKind::BadValue);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn non_power_of_two_queue_stride_is_rejected() {
        let dir = edited("stride", |v| {
            v["Bundles"][0]["BundleSizeInBytes"] = Value::from("0xC00");
        });
        let e = crate::load(&dir).expect_err("must fail");
        assert_eq!(e.kind, ErrorKind::BadArray);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn doorbell_with_wrong_access_is_rejected() {
        let dir = edited("acc", |v| {
            queue_reg(v, "tail_inc")["Fields"][0]["Access"] = Value::from("RW");
        });
        let e = crate::load(&dir).expect_err("must fail");
        assert_eq!(e.kind, ErrorKind::BadValue);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn repository_csrs_pass() {
        let dir = edited("none", |_| {});
        crate::load(&dir).expect("unchanged copy loads");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
