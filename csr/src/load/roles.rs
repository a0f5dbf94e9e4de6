//! Roles the templates of each block kind look up by name, checked so that a template never
//! meets a missing one; the kind-specific shape rules live in their own modules.

use super::{evt_sem, sdma_bcast, udma, Source};
use crate::error::{ErrorKind, Result};
use crate::model::{Block, BlockKind};

/// What the templates of each block kind rely on. Checked here so that a template never meets a
/// missing role.
struct RoleNeeds {
    bundles: &'static [&'static str],
    /// (bundle role or "" for top-level, register role, field roles)
    registers: &'static [(&'static str, &'static str, &'static [&'static str])],
}

fn role_needs(kind: &BlockKind) -> RoleNeeds {
    match kind {
        BlockKind::EvtSem(_) => RoleNeeds {
            bundles: &["event", "sem_read", "sem_set", "sem_inc", "sem_dec"],
            registers: &[],
        },
        BlockKind::UdmaQueueGroup { .. } => RoleNeeds {
            bundles: &["queue"],
            registers: &[
                ("queue", "cfg", &["enable"]),
                ("queue", "status", &["used", "overrun", "full"]),
                ("queue", "ring_base_lo", &["addr"]),
                ("queue", "ring_base_hi", &["addr"]),
                ("queue", "ring_len", &["len"]),
                ("queue", "head", &["offset", "ring_id"]),
                ("queue", "tail_inc", &["inc"]),
                ("queue", "tail", &["offset", "ring_id"]),
                ("queue", "sw_ctrl", &["rst_tail", "rst_head", "rst_q"]),
                ("", "err_log", &["overrun", "ring_id_err"]),
            ],
        },
        BlockKind::SdmaBcast => RoleNeeds {
            bundles: &[],
            registers: &[
                ("", "group", &["mask"]),
                ("", "queue", &["queue"]),
                ("", "m2s_inc", &[]),
                ("", "s2m_inc", &[]),
            ],
        },
        BlockKind::Iatu => RoleNeeds {
            bundles: &["region"],
            registers: &[
                ("region", "ctrl", &["enable"]),
                ("region", "base_lo", &[]),
                ("region", "base_hi", &[]),
                ("region", "limit_lo", &[]),
                ("region", "limit_hi", &[]),
                ("region", "target_lo", &[]),
                ("region", "target_hi", &[]),
                ("", "link_status", &["link_up", "credits"]),
            ],
        },
        BlockKind::RemapWindows => RoleNeeds {
            bundles: &["window"],
            registers: &[
                ("window", "ctrl", &["valid", "mode"]),
                ("window", "xt_addr", &[]),
                ("window", "soc_lo", &[]),
                ("window", "soc_hi", &[]),
                ("window", "u_mask", &[]),
                ("window", "l_mask", &[]),
                ("window", "mask", &[]),
                ("window", "match", &[]),
                ("window", "replace_lo", &[]),
                ("window", "replace_hi", &[]),
            ],
        },
    }
}

pub(super) fn check_roles(src: &Source, block: &Block) -> Result<()> {
    let needs = role_needs(&block.kind);
    // A missing role is reported at the nearest thing that should hold it: the register for a
    // field role, the bundle for a register role, the block's bundle list for a bundle role.
    let missing = |key: String, what: String| {
        src.err(
            ErrorKind::BadReference,
            key,
            format!("a {} block needs {what}", block.kind.as_str()),
        )
    };
    for role in needs.bundles {
        if block.bundle_by_role(role).is_none() {
            return Err(missing(
                "Bundles".into(),
                format!("a bundle with Role \"{role}\""),
            ));
        }
    }
    for (bundle_role, reg_role, field_roles) in needs.registers {
        let (list_key, regs) = if bundle_role.is_empty() {
            ("Registers".to_string(), &block.registers)
        } else {
            let i = block
                .bundles
                .iter()
                .position(|b| b.role.as_deref() == Some(*bundle_role))
                .unwrap_or(0);
            (
                format!("Bundles[{i}].Registers"),
                &block.bundles[i].registers,
            )
        };
        let where_ = if bundle_role.is_empty() {
            "at the top level".to_string()
        } else {
            format!("in its \"{bundle_role}\" bundle")
        };
        let Some(ri) = regs
            .iter()
            .position(|r| r.role.as_deref() == Some(*reg_role))
        else {
            return Err(missing(
                list_key,
                format!("a register with Role \"{reg_role}\" {where_}"),
            ));
        };
        let reg = &regs[ri];
        for f in *field_roles {
            if reg.field_by_role(f).is_none() {
                return Err(missing(
                    format!("{list_key}[{ri}].Fields"),
                    format!("a field with Role \"{f}\" in register `{}`", reg.name),
                ));
            }
        }
    }
    if let BlockKind::EvtSem(_) = block.kind {
        evt_sem::check_shape(src, block)?;
    }
    if let BlockKind::UdmaQueueGroup { .. } = block.kind {
        udma::check_shape(src, block)?;
    }
    if let BlockKind::SdmaBcast = block.kind {
        sdma_bcast::check_shape(src, block)?;
    }
    Ok(())
}
