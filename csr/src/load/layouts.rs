//! Resolves each block's typed layout (`crate::layouts`) from its roles, after `roles` checked the
//! ones its kind needs. A role given twice in one scope is refused here: the layout would
//! otherwise silently pick the first.

use super::block::{Kind, Shape};
use super::Source;
use crate::error::{ErrorKind, Result};
use crate::layouts::{
    BcastLayout, EvtSemLayout, HealthLayout, HealthTrigger, IatuLayout, InboundLayout, RemapLayout,
    RouteLayout, SemOp, SemSeqLayout, SemWindow, UdmaLayout,
};
use crate::model::{Access, BlockKind, Bundle, Field, Register};
use crate::roles::{BundleRole as B, FieldRole as F, RegRole as R};

/// Registers of one scope (the top level or one bundle), for picking by role.
struct Scope<'a> {
    src: &'a Source,
    key: String,
    regs: &'a [Register],
}

impl Scope<'_> {
    fn reg(&self, role: R) -> Result<Register> {
        let mut hits = self.regs.iter().filter(|r| r.role == Some(role));
        let first = hits.next().ok_or_else(|| {
            self.src.err(
                ErrorKind::BadReference,
                self.key.clone(),
                format!("no register with Role \"{role}\""),
            )
        })?;
        if let Some(second) = hits.next() {
            return Err(self.src.err(
                ErrorKind::BadReference,
                self.key.clone(),
                format!(
                    "registers `{}` and `{}` both have Role \"{role}\"",
                    first.name, second.name
                ),
            ));
        }
        Ok(first.clone())
    }

    /// Register `role` and its fields with `fields` roles.
    fn reg_fields<const N: usize>(
        &self,
        role: R,
        fields: [F; N],
    ) -> Result<(Register, [Field; N])> {
        let r = self.reg(role)?;
        let mut out = Vec::with_capacity(N);
        for f in fields {
            out.push(field(self.src, &self.key, &r, f)?);
        }
        let out = <[Field; N]>::try_from(out).map_err(|_| {
            self.src.err(
                ErrorKind::BadReference,
                self.key.clone(),
                "internal: field count",
            )
        })?;
        Ok((r, out))
    }
}

fn field(src: &Source, key: &str, r: &Register, role: F) -> Result<Field> {
    let mut hits = r.fields.iter().filter(|f| f.role == Some(role));
    let first = hits.next().ok_or_else(|| {
        src.err(
            ErrorKind::BadReference,
            key,
            format!("register `{}` has no field with Role \"{role}\"", r.name),
        )
    })?;
    if let Some(second) = hits.next() {
        return Err(src.err(
            ErrorKind::BadReference,
            key,
            format!(
                "fields `{}` and `{}` of `{}` both have Role \"{role}\"",
                first.name, second.name, r.name
            ),
        ));
    }
    Ok(first.clone())
}

/// Width of a register that holds one number: exactly one RW field (the RTL stores and compares
/// it whole).
fn value_width(src: &Source, key: &str, r: &Register) -> Result<u32> {
    match r.fields.as_slice() {
        [f] if f.access == Access::Rw => Ok(f.width),
        _ => Err(src.err(
            ErrorKind::BadValue,
            key,
            format!(
                "register `{}` must hold exactly one RW field (its value)",
                r.name
            ),
        )),
    }
}

/// A control flag: one RW bit.
fn one_bit_rw(src: &Source, key: &str, r: &Register, f: &Field) -> Result<()> {
    if f.width != 1 || f.access != Access::Rw {
        return Err(src.err(
            ErrorKind::BadValue,
            key,
            format!("field `{}.{}` must be a single RW bit", r.name, f.name),
        ));
    }
    Ok(())
}

fn bundle<'a>(src: &'a Source, s: &'a Shape, role: B) -> Result<(Bundle, Scope<'a>)> {
    let mut hits = s
        .bundles
        .iter()
        .enumerate()
        .filter(|(_, b)| b.role == Some(role));
    let (i, first) = hits.next().ok_or_else(|| {
        src.err(
            ErrorKind::BadReference,
            "Bundles",
            format!("no bundle with Role \"{role}\""),
        )
    })?;
    if let Some((_, second)) = hits.next() {
        return Err(src.err(
            ErrorKind::BadReference,
            "Bundles",
            format!(
                "bundles `{}` and `{}` both have Role \"{role}\"",
                first.name, second.name
            ),
        ));
    }
    let scope = Scope {
        src,
        key: format!("Bundles[{i}].Registers"),
        regs: &first.registers,
    };
    Ok((first.clone(), scope))
}

fn top<'a>(src: &'a Source, s: &'a Shape) -> Scope<'a> {
    Scope {
        src,
        key: "Registers".into(),
        regs: s.registers,
    }
}

/// The only register of a window bundle and its only field (`evt_sem::check_shape` checked the
/// shape).
fn window(src: &Source, s: &Shape, role: B) -> Result<(Bundle, Register, Field)> {
    let (b, scope) = bundle(src, s, role)?;
    let (reg, field) = match b.registers.as_slice() {
        [r] => match r.fields.as_slice() {
            [f] => (r.clone(), f.clone()),
            _ => {
                return Err(src.err(
                    ErrorKind::BadArray,
                    scope.key,
                    format!("register `{}` must hold exactly one field", r.name),
                ))
            }
        },
        _ => {
            return Err(src.err(
                ErrorKind::BadArray,
                scope.key,
                format!("`{}` must hold exactly one register", b.name),
            ))
        }
    };
    Ok((b, reg, field))
}

pub(super) fn resolve_kind(src: &Source, s: &Shape) -> Result<BlockKind> {
    Ok(match s.kind {
        Kind::EvtSem(params) => {
            let (events, event_reg, event_flag) = window(src, s, B::Event)?;
            let mut windows = Vec::new();
            for op in SemOp::ALL {
                let (bundle, reg, value) = window(src, s, op.role())?;
                windows.push(SemWindow {
                    op,
                    bundle,
                    reg,
                    value,
                });
            }
            let windows = <[SemWindow; 4]>::try_from(windows)
                .map_err(|_| src.err(ErrorKind::BadReference, "Bundles", "internal: windows"))?;
            BlockKind::EvtSem(EvtSemLayout {
                params: params.clone(),
                events,
                event_reg,
                event_flag,
                windows,
            })
        }
        Kind::UdmaQueueGroup { side } => {
            let (queue, q) = bundle(src, s, B::Queue)?;
            let (cfg, [enable]) = q.reg_fields(R::Cfg, [F::Enable])?;
            let (status, [used, overrun, full]) =
                q.reg_fields(R::Status, [F::Used, F::Overrun, F::Full])?;
            let (ring_base_lo, [ring_base_lo_addr]) = q.reg_fields(R::RingBaseLo, [F::Addr])?;
            let (ring_base_hi, [ring_base_hi_addr]) = q.reg_fields(R::RingBaseHi, [F::Addr])?;
            let (ring_len, [len]) = q.reg_fields(R::RingLen, [F::Len])?;
            let (head, [head_offset, head_ring_id]) =
                q.reg_fields(R::Head, [F::Offset, F::RingId])?;
            let (tail_inc, [inc]) = q.reg_fields(R::TailInc, [F::Inc])?;
            let (tail, [tail_offset, tail_ring_id]) =
                q.reg_fields(R::Tail, [F::Offset, F::RingId])?;
            let (sw_ctrl, [rst_tail, rst_head, rst_q]) =
                q.reg_fields(R::SwCtrl, [F::RstTail, F::RstHead, F::RstQ])?;
            let (err_log, [err_overrun, err_ring_id_err]) =
                top(src, s).reg_fields(R::ErrLog, [F::Overrun, F::RingIdErr])?;
            BlockKind::UdmaQueueGroup(UdmaLayout {
                side: *side,
                queue,
                cfg,
                enable,
                status,
                used,
                overrun,
                full,
                ring_base_lo,
                ring_base_lo_addr,
                ring_base_hi,
                ring_base_hi_addr,
                ring_len,
                len,
                head,
                head_offset,
                head_ring_id,
                tail_inc,
                inc,
                tail,
                tail_offset,
                tail_ring_id,
                sw_ctrl,
                rst_tail,
                rst_head,
                rst_q,
                err_log,
                err_overrun,
                err_ring_id_err,
            })
        }
        Kind::SdmaBcast => {
            let t = top(src, s);
            let (group, [mask]) = t.reg_fields(R::Group, [F::Mask])?;
            let (queue_reg, [queue]) = t.reg_fields(R::Queue, [F::Queue])?;
            let m2s_inc = t.reg(R::M2sInc)?;
            let s2m_inc = t.reg(R::S2mInc)?;
            // `sdma_bcast::check_shape` checked each holds exactly one INC field.
            let inc_of = |r: &Register| {
                r.fields
                    .iter()
                    .find(|f| f.access == Access::Inc)
                    .cloned()
                    .ok_or_else(|| {
                        src.err(
                            ErrorKind::BadValue,
                            "Registers",
                            format!("register `{}` needs exactly one INC field", r.name),
                        )
                    })
            };
            let inc = inc_of(&m2s_inc)?;
            let s2m_inc_field = inc_of(&s2m_inc)?;
            BlockKind::SdmaBcast(BcastLayout {
                group,
                mask,
                queue_reg,
                queue,
                m2s_inc,
                s2m_inc,
                inc,
                s2m_inc_field,
            })
        }
        Kind::Iatu => {
            let (region, r) = bundle(src, s, B::Region)?;
            let (ctrl, [enable]) = r.reg_fields(R::Ctrl, [F::Enable])?;
            one_bit_rw(src, &r.key, &ctrl, &enable)?;
            // The region compares and adds base, limit and target as one number each.
            let pair = |lo: R, hi: R| -> Result<u32> {
                Ok(value_width(src, &r.key, &r.reg(lo)?)? + value_width(src, &r.key, &r.reg(hi)?)?)
            };
            let base_w = pair(R::BaseLo, R::BaseHi)?;
            for (what, w) in [
                ("limit", pair(R::LimitLo, R::LimitHi)?),
                ("target", pair(R::TargetLo, R::TargetHi)?),
            ] {
                if w != base_w {
                    return Err(src.err(
                        ErrorKind::BadValue,
                        r.key.clone(),
                        format!("the {what} is {w} bits but the base is {base_w}: they must be equally wide"),
                    ));
                }
            }
            let (link_status, [link_up, credits]) =
                top(src, s).reg_fields(R::LinkStatus, [F::LinkUp, F::Credits])?;
            BlockKind::Iatu(IatuLayout {
                ctrl,
                enable,
                base_lo: r.reg(R::BaseLo)?,
                base_hi: r.reg(R::BaseHi)?,
                limit_lo: r.reg(R::LimitLo)?,
                limit_hi: r.reg(R::LimitHi)?,
                target_lo: r.reg(R::TargetLo)?,
                target_hi: r.reg(R::TargetHi)?,
                link_status,
                link_up,
                credits,
                region,
            })
        }
        Kind::RemapWindows => {
            let (window, w) = bundle(src, s, B::Window)?;
            let (ctrl, [valid, mode]) = w.reg_fields(R::Ctrl, [F::Valid, F::Mode])?;
            one_bit_rw(src, &w.key, &ctrl, &valid)?;
            one_bit_rw(src, &w.key, &ctrl, &mode)?;
            // Every mask and the match word are compared bit for bit with the xt address.
            let xt_w = value_width(src, &w.key, &w.reg(R::XtAddr)?)?;
            for role in [R::UMask, R::LMask, R::Mask, R::Match] {
                let reg = w.reg(role)?;
                let width = value_width(src, &w.key, &reg)?;
                if width != xt_w {
                    return Err(src.err(
                        ErrorKind::BadValue,
                        w.key.clone(),
                        format!(
                            "`{}` is {width} bits but xt_addr is {xt_w}: they must be equally wide",
                            reg.name
                        ),
                    ));
                }
            }
            for role in [R::SocLo, R::SocHi, R::ReplaceLo, R::ReplaceHi] {
                value_width(src, &w.key, &w.reg(role)?)?;
            }
            BlockKind::RemapWindows(RemapLayout {
                ctrl,
                valid,
                mode,
                xt_addr: w.reg(R::XtAddr)?,
                soc_lo: w.reg(R::SocLo)?,
                soc_hi: w.reg(R::SocHi)?,
                u_mask: w.reg(R::UMask)?,
                l_mask: w.reg(R::LMask)?,
                mask: w.reg(R::Mask)?,
                match_: w.reg(R::Match)?,
                replace_lo: w.reg(R::ReplaceLo)?,
                replace_hi: w.reg(R::ReplaceHi)?,
                window,
            })
        }
        Kind::SemSeq => {
            let (slot, sl) = bundle(src, s, B::Slot)?;
            let (value_reg, [value]) = sl.reg_fields(R::Value, [F::Value])?;
            let (cmd, [sem, subop]) = sl.reg_fields(R::Cmd, [F::Sem, F::Subop])?;
            let (status, [busy, err]) = sl.reg_fields(R::Status, [F::Busy, F::Err])?;
            BlockKind::SemSeq(SemSeqLayout {
                slot,
                value_reg,
                value,
                cmd,
                sem,
                subop,
                status,
                busy,
                err,
            })
        }
        Kind::RouteTable => {
            let (route, r) = bundle(src, s, B::Route)?;
            let (entry, [valid, port]) = r.reg_fields(R::Entry, [F::Valid, F::Port])?;
            one_bit_rw(src, &r.key, &entry, &valid)?;
            if port.access != Access::Rw {
                return Err(src.err(
                    ErrorKind::BadValue,
                    r.key.clone(),
                    format!("field `{}.{}` must be RW", entry.name, port.name),
                ));
            }
            BlockKind::RouteTable(RouteLayout {
                route,
                entry,
                valid,
                port,
            })
        }
        Kind::LinkHealth => BlockKind::LinkHealth(health(src, s)?),
        Kind::InboundWindows { defaults } => BlockKind::InboundWindows(inbound(src, s, defaults)?),
    })
}

/// The link-health block: the same trigger bits in raw (RO), mask (RW) and status (W1C), one RW
/// number each for the threshold and the timeout, RO counters, W1P clears.
fn health(src: &Source, s: &Shape) -> Result<HealthLayout> {
    let t = top(src, s);
    let bad = |msg: String| src.err(ErrorKind::BadValue, t.key.clone(), msg);
    let roles = HealthTrigger::ALL.map(HealthTrigger::role);
    let (intr_raw, triggers) = t.reg_fields(R::IntrRaw, roles)?;
    let (intr_mask, mask) = t.reg_fields(R::IntrMask, roles)?;
    let (intr_status, status) = t.reg_fields(R::IntrStatus, roles)?;
    for (i, raw) in triggers.iter().enumerate() {
        for (reg, f, access) in [
            (&intr_raw, raw, Access::Ro),
            (&intr_mask, &mask[i], Access::Rw),
            (&intr_status, &status[i], Access::W1c),
        ] {
            if f.width != 1 || f.access != access {
                return Err(bad(format!(
                    "field `{}.{}` must be a single {} bit",
                    reg.name,
                    f.name,
                    access.as_str()
                )));
            }
            if f.lsb != raw.lsb {
                return Err(bad(format!(
                    "field `{}.{}` is at bit {} but `{}.{}` at bit {}: a trigger has one position",
                    reg.name, f.name, f.lsb, intr_raw.name, raw.name, raw.lsb
                )));
            }
        }
    }
    let (crc_threshold, [threshold]) = t.reg_fields(R::CrcThreshold, [F::Value])?;
    let (credit_timeout, [timeout]) = t.reg_fields(R::CreditTimeout, [F::Value])?;
    value_width(src, &t.key, &crc_threshold)?;
    value_width(src, &t.key, &credit_timeout)?;
    let (flit_crc_count, [flit_crc]) = t.reg_fields(R::FlitCrcCount, [F::Count])?;
    let (dllp_crc_count, [dllp_crc]) = t.reg_fields(R::DllpCrcCount, [F::Count])?;
    let (replay_count, [replays]) = t.reg_fields(R::ReplayCount, [F::Count])?;
    for (reg, f) in [
        (&flit_crc_count, &flit_crc),
        (&dllp_crc_count, &dllp_crc),
        (&replay_count, &replays),
    ] {
        if f.access != Access::Ro || f.width < 2 {
            return Err(bad(format!(
                "counter `{}.{}` must be RO and at least 2 bits wide",
                reg.name, f.name
            )));
        }
    }
    for (reg, f) in [(&flit_crc_count, &flit_crc), (&dllp_crc_count, &dllp_crc)] {
        if threshold.width > f.width {
            return Err(bad(format!(
                "the threshold `{}.{}` is {} bits, wider than the CRC error counter `{}.{}` ({} bits)",
                crc_threshold.name, threshold.name, threshold.width, reg.name, f.name, f.width
            )));
        }
    }
    let (counter_clear, [clear_flit_crc, clear_dllp_crc, clear_replay]) =
        t.reg_fields(R::CounterClear, [F::FlitCrc, F::DllpCrc, F::Replay])?;
    for f in [&clear_flit_crc, &clear_dllp_crc, &clear_replay] {
        if f.width != 1 || f.access != Access::W1p {
            return Err(bad(format!(
                "field `{}.{}` must be a single W1P bit",
                counter_clear.name, f.name
            )));
        }
    }
    Ok(HealthLayout {
        intr_raw,
        intr_mask,
        intr_status,
        triggers,
        crc_threshold,
        threshold,
        credit_timeout,
        timeout,
        flit_crc_count,
        flit_crc,
        dllp_crc_count,
        dllp_crc,
        replay_count,
        replays,
        counter_clear,
        clear_flit_crc,
        clear_dllp_crc,
        clear_replay,
    })
}

/// The inbound windows: one-bit RW EN/READ/WRITE, base and mask as lo/hi pairs of one width, the
/// capture (VALID W1C, WRITE and PORT RO, the address as two RO words), an RO counter, the
/// interrupt enable (RW) and the counter clear (W1P).
fn inbound(src: &Source, s: &Shape, defaults: &[String]) -> Result<InboundLayout> {
    let (window, w) = bundle(src, s, B::Window)?;
    let (ctrl, [enable, read, write]) = w.reg_fields(R::Ctrl, [F::Enable, F::Read, F::Write])?;
    for f in [&enable, &read, &write] {
        one_bit_rw(src, &w.key, &ctrl, f)?;
    }
    let pair = |lo: R, hi: R| -> Result<u32> {
        Ok(value_width(src, &w.key, &w.reg(lo)?)? + value_width(src, &w.key, &w.reg(hi)?)?)
    };
    let (base_w, mask_w) = (pair(R::BaseLo, R::BaseHi)?, pair(R::MaskLo, R::MaskHi)?);
    if base_w != mask_w {
        return Err(src.err(
            ErrorKind::BadValue,
            w.key.clone(),
            format!(
                "the mask is {mask_w} bits but the base is {base_w}: they must be equally wide"
            ),
        ));
    }
    let t = top(src, s);
    let bad = |msg: String| src.err(ErrorKind::BadValue, t.key.clone(), msg);
    let (err_status, [err_valid, err_write, err_port]) =
        t.reg_fields(R::ErrStatus, [F::Valid, F::Write, F::Port])?;
    for (f, access, one) in [
        (&err_valid, Access::W1c, true),
        (&err_write, Access::Ro, true),
        (&err_port, Access::Ro, false),
    ] {
        if f.access != access || (one && f.width != 1) {
            return Err(bad(format!(
                "field `{}.{}` must be {}{}",
                err_status.name,
                f.name,
                if one { "a single " } else { "" },
                access.as_str()
            )));
        }
    }
    let (err_addr_lo, [_]) = t.reg_fields(R::ErrAddrLo, [F::Addr])?;
    let (err_addr_hi, [_]) = t.reg_fields(R::ErrAddrHi, [F::Addr])?;
    for r in [&err_addr_lo, &err_addr_hi] {
        match r.fields.as_slice() {
            [f] if f.access == Access::Ro => {}
            _ => {
                return Err(bad(format!(
                    "register `{}` must hold exactly one RO field (the address word)",
                    r.name
                )))
            }
        }
    }
    if err_addr_lo.fields[0].lsb != 0 || err_addr_lo.fields[0].width != 32 {
        return Err(bad(format!(
            "register `{}` must hold the address's low 32 bits at bit 0",
            err_addr_lo.name
        )));
    }
    let (err_count, [count]) = t.reg_fields(R::ErrCount, [F::Count])?;
    if count.access != Access::Ro || count.width < 2 {
        return Err(bad(format!(
            "counter `{}.{}` must be RO and at least 2 bits wide",
            err_count.name, count.name
        )));
    }
    let (err_ctrl, [irq_enable, count_clear]) =
        t.reg_fields(R::ErrCtrl, [F::Enable, F::CountClear])?;
    one_bit_rw(src, &t.key, &err_ctrl, &irq_enable)?;
    if count_clear.width != 1 || count_clear.access != Access::W1p {
        return Err(bad(format!(
            "field `{}.{}` must be a single W1P bit",
            err_ctrl.name, count_clear.name
        )));
    }
    if defaults.len() as u64 > window.count {
        return Err(src.err(
            ErrorKind::BadValue,
            "Parameters.DefaultWindows",
            format!(
                "{} default windows but the block has {} (bundle `{}` ArraySize)",
                defaults.len(),
                window.count,
                window.name
            ),
        ));
    }
    Ok(InboundLayout {
        err_status,
        err_valid,
        err_write,
        err_port,
        err_addr_lo,
        err_addr_hi,
        err_count,
        count,
        err_ctrl,
        irq_enable,
        count_clear,
        ctrl,
        enable,
        read,
        write,
        base_lo: w.reg(R::BaseLo)?,
        base_hi: w.reg(R::BaseHi)?,
        mask_lo: w.reg(R::MaskLo)?,
        mask_hi: w.reg(R::MaskHi)?,
        window,
        default_names: defaults.to_vec(),
    })
}
