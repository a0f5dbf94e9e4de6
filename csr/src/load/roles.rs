//! Roles each block kind's behaviour is tied to, checked before its layout is resolved
//! (`layouts`) so that a missing one is reported where it should be; the kind-specific shape
//! rules live in their own modules.

use super::block::{Kind, KindName, Shape};
use super::{evt_sem, sdma_bcast, sem_seq, udma, Source};
use crate::error::{ErrorKind, Result};
use crate::roles::{BundleRole as B, FieldRole as F, RegRole as R};

/// What the templates of each block kind rely on. Checked here so that a template never meets a
/// missing role.
struct RoleNeeds {
    bundles: &'static [B],
    /// (bundle role or None for top-level, register role, field roles)
    registers: &'static [(Option<B>, R, &'static [F])],
}

/// The triggers of a link_health block, one field each in its raw, mask and status registers.
pub(crate) const HEALTH_TRIGGERS: &[F] = &[
    F::CrcErr,
    F::Replay,
    F::LinkDown,
    F::LinkUp,
    F::CreditTimeout,
];

fn role_needs(kind: KindName) -> RoleNeeds {
    const Q: Option<B> = Some(B::Queue);
    const REGION: Option<B> = Some(B::Region);
    const WIN: Option<B> = Some(B::Window);
    const SLOT: Option<B> = Some(B::Slot);
    const ROUTE: Option<B> = Some(B::Route);
    match kind {
        KindName::EvtSem => RoleNeeds {
            bundles: &[B::Event, B::SemRead, B::SemSet, B::SemInc, B::SemDec],
            registers: &[],
        },
        KindName::UdmaQueueGroup => RoleNeeds {
            bundles: &[B::Queue],
            registers: &[
                (Q, R::Cfg, &[F::Enable]),
                (Q, R::Status, &[F::Used, F::Overrun, F::Full]),
                (Q, R::RingBaseLo, &[F::Addr]),
                (Q, R::RingBaseHi, &[F::Addr]),
                (Q, R::RingLen, &[F::Len]),
                (Q, R::Head, &[F::Offset, F::RingId]),
                (Q, R::TailInc, &[F::Inc]),
                (Q, R::Tail, &[F::Offset, F::RingId]),
                (Q, R::SwCtrl, &[F::RstTail, F::RstHead, F::RstQ]),
                (None, R::ErrLog, &[F::Overrun, F::RingIdErr]),
            ],
        },
        KindName::SdmaBcast => RoleNeeds {
            bundles: &[],
            registers: &[
                (None, R::Group, &[F::Mask]),
                (None, R::Queue, &[F::Queue]),
                (None, R::M2sInc, &[]),
                (None, R::S2mInc, &[]),
            ],
        },
        KindName::Iatu => RoleNeeds {
            bundles: &[B::Region],
            registers: &[
                (REGION, R::Ctrl, &[F::Enable]),
                (REGION, R::BaseLo, &[]),
                (REGION, R::BaseHi, &[]),
                (REGION, R::LimitLo, &[]),
                (REGION, R::LimitHi, &[]),
                (REGION, R::TargetLo, &[]),
                (REGION, R::TargetHi, &[]),
                (None, R::LinkStatus, &[F::LinkUp, F::Credits]),
            ],
        },
        KindName::RemapWindows => RoleNeeds {
            bundles: &[B::Window],
            registers: &[
                (WIN, R::Ctrl, &[F::Valid, F::Mode]),
                (WIN, R::XtAddr, &[]),
                (WIN, R::SocLo, &[]),
                (WIN, R::SocHi, &[]),
                (WIN, R::UMask, &[]),
                (WIN, R::LMask, &[]),
                (WIN, R::Mask, &[]),
                (WIN, R::Match, &[]),
                (WIN, R::ReplaceLo, &[]),
                (WIN, R::ReplaceHi, &[]),
            ],
        },
        KindName::SemSeq => RoleNeeds {
            bundles: &[B::Slot],
            registers: &[
                (SLOT, R::Value, &[F::Value]),
                (SLOT, R::Cmd, &[F::Sem, F::Subop]),
                (SLOT, R::Status, &[F::Busy, F::Err]),
            ],
        },
        KindName::RouteTable => RoleNeeds {
            bundles: &[B::Route],
            registers: &[(ROUTE, R::Entry, &[F::Valid, F::Port])],
        },
        KindName::InboundWindows => RoleNeeds {
            bundles: &[B::Window],
            registers: &[
                (None, R::ErrStatus, &[F::Valid, F::Write, F::Port]),
                (None, R::ErrAddrLo, &[F::Addr]),
                (None, R::ErrAddrHi, &[F::Addr]),
                (None, R::ErrCount, &[F::Count]),
                (None, R::ErrCtrl, &[F::Enable, F::CountClear]),
                (WIN, R::Ctrl, &[F::Enable, F::Read, F::Write]),
                (WIN, R::BaseLo, &[]),
                (WIN, R::BaseHi, &[]),
                (WIN, R::MaskLo, &[]),
                (WIN, R::MaskHi, &[]),
            ],
        },
        KindName::LinkHealth => RoleNeeds {
            bundles: &[],
            registers: &[
                (None, R::IntrRaw, HEALTH_TRIGGERS),
                (None, R::IntrMask, HEALTH_TRIGGERS),
                (None, R::IntrStatus, HEALTH_TRIGGERS),
                (None, R::CrcThreshold, &[F::Value]),
                (None, R::CreditTimeout, &[F::Value]),
                (None, R::FlitCrcCount, &[F::Count]),
                (None, R::DllpCrcCount, &[F::Count]),
                (None, R::ReplayCount, &[F::Count]),
                (None, R::CounterClear, &[F::FlitCrc, F::DllpCrc, F::Replay]),
            ],
        },
    }
}

/// The bundle roles a block of `kind` must hold, and its required registers as (bundle role or
/// "" for the top level, register role, field roles), spelled as in `csrs/`: the table
/// `check_roles` checks, for the schema reference.
pub(crate) fn required_roles(kind: KindName) -> (Vec<&'static str>, Vec<RoleRow>) {
    let needs = role_needs(kind);
    let bundles = needs.bundles.iter().map(|b| b.as_str()).collect();
    let registers = needs
        .registers
        .iter()
        .map(|(b, r, fields)| {
            (
                b.map_or("", B::as_str),
                r.as_str(),
                fields.iter().map(|f| f.as_str()).collect(),
            )
        })
        .collect();
    (bundles, registers)
}

/// (bundle role or "", register role, field roles) of one required register.
pub(crate) type RoleRow = (&'static str, &'static str, Vec<&'static str>);

pub(super) fn check_roles(src: &Source, block: &Shape) -> Result<()> {
    let needs = role_needs(block.kind.name());
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
        if block.bundle_by_role(*role).is_none() {
            return Err(missing(
                "Bundles".into(),
                format!("a bundle with Role \"{role}\""),
            ));
        }
    }
    for (bundle_role, reg_role, field_roles) in needs.registers {
        let (list_key, regs, where_) = match bundle_role {
            None => (
                "Registers".to_string(),
                block.registers,
                "at the top level".to_string(),
            ),
            Some(br) => {
                let i = block
                    .bundles
                    .iter()
                    .position(|b| b.role == Some(*br))
                    .unwrap_or(0);
                (
                    format!("Bundles[{i}].Registers"),
                    block.bundles[i].registers.as_slice(),
                    format!("in its \"{br}\" bundle"),
                )
            }
        };
        let Some(ri) = regs.iter().position(|r| r.role == Some(*reg_role)) else {
            return Err(missing(
                list_key,
                format!("a register with Role \"{reg_role}\" {where_}"),
            ));
        };
        let reg = &regs[ri];
        for f in *field_roles {
            if reg.field_by_role(*f).is_none() {
                return Err(missing(
                    format!("{list_key}[{ri}].Fields"),
                    format!("a field with Role \"{f}\" in register `{}`", reg.name),
                ));
            }
        }
    }
    match block.kind {
        Kind::EvtSem(_) => evt_sem::check_shape(src, block),
        Kind::UdmaQueueGroup { .. } => udma::check_shape(src, block),
        Kind::SdmaBcast => sdma_bcast::check_shape(src, block),
        Kind::SemSeq => sem_seq::check_shape(src, block),
        Kind::Iatu
        | Kind::RemapWindows
        | Kind::RouteTable
        | Kind::LinkHealth
        | Kind::InboundWindows { .. } => Ok(()),
    }
}
