//! Rules that tie numbers in different places of `csrs/` together. Each one used to live only in
//! prose (a description in csrs/, a comment in the hand-written RTL or the datapath notes), so a
//! CSR change that broke it loaded cleanly and failed much later (a Verilator WIDTH error, a
//! stalled link, a descriptor read across two beats). Checked once everything is loaded and the
//! names the code relies on are known to exist (`cross_refs` runs first).
//!
//! One function per rule; `RULES` lists them for the schema reference.

use super::Source;
use crate::error::{Error, ErrorKind, Result};
use crate::layouts::UdmaLayout;
use crate::limits::{MAX_DATA_BYTES, MAX_LINK_CREDITS};
use crate::locate::LineIndex;
use crate::model::{Aperture, Block, Csrs, Field, Register};
use crate::roles::ApertureId;
use crate::views::SideView;

/// Every rule checked here: (name, what it requires). The schema reference prints this table, so
/// the documentation and the checks cannot disagree about which rules exist.
pub const RULES: &[(&str, &str)] = &[
    (
        "rtl_parameter_widths",
        "address_map: SBUF_PARTITIONS, SBUF_PARTITION_STRIDE, SBUF_BACKING_BYTES, SDMA_ENGINES, \
         LINK_LATENCY and LINK_CREDITS fit 32 bits (the hand-written RTL takes them as `int \
         unsigned` parameters), and LINK_CREDITS is at most 4096 (each credit is one flit of \
         receive buffer per link channel)",
    ),
    (
        "link_credits",
        "address_map: LINK_LATENCY >= 1 and LINK_CREDITS >= 2 * LINK_LATENCY + 2 (a credit is out \
         for the link round trip; the two extra cover the far side's turnaround, so the link moves \
         one flit per cycle)",
    ),
    (
        "data_beat",
        "address_map: DATA_BYTES is a power of two of at least 4 (the CSR bridge and host port \
         pick a 32-bit lane with address bits)",
    ),
    (
        "desc_bytes",
        "address_map: DESC_BYTES equals the `bytes` of every descriptor format (ring slots are \
         DESC_BYTES apart and hold one descriptor)",
    ),
    (
        "descriptor_in_one_beat",
        "DESC_BYTES is a power of two, at most DATA_BYTES, and divides ring.base_align (the \
         engine reads a descriptor from one bus beat)",
    ),
    (
        "len_code",
        "descriptors: ring.max_len_code is 2^width of every LEN field (LEN = 0 stands for one past \
         the largest LEN value)",
    ),
    (
        "udma_sides_match",
        "blocks: the udma_queue_group blocks have the same queue count and the same widths of \
         ring base, ring length, head pointer, used count, ring id and tail increment (the die \
         sizes both sides from one)",
    ),
    (
        "bcast_queue_width",
        "sdma_bcast: the `queue` field is exactly ceil(log2(queues)) bits (at least 1): it names \
         every queue of a queue group and no queue that does not exist",
    ),
    (
        "bcast_increment_width",
        "sdma_bcast: the INC fields are as wide as the queue groups' `tail_inc` field (one \
         increment value feeds both)",
    ),
    (
        "sem_seq_fields",
        "sem_seq: the `sem` field has at least ceil(log2(semaphores)) bits of the evt_sem block \
         (at least 1: it names every semaphore; a command naming one past the last is refused), \
         the `subop` field exactly its SeqSubopBits, and the `value` field is as wide as its \
         semaphore values (each slot drives the EVT_SEM sequencer port with them)",
    ),
    (
        "engines",
        "address_map: 1 <= SDMA_ENGINES <= instances of SDMA_M2S and of SDMA_S2M, and <= width of \
         the sdma_bcast `mask` field (one aperture instance and one mask bit per engine)",
    ),
    (
        "d2d_controllers",
        "profiles: the default profile's d2d_controllers equals the D2D aperture's instance \
         count; a profile with d2d_ip `none` has 0 controllers and any other at least 1",
    ),
    (
        "sbuf_geometry",
        "address_map: SBUF_PARTITION_STRIDE is a power of two; the SBUF aperture is \
         SBUF_PARTITIONS * SBUF_PARTITION_STRIDE rounded up to a power of two; \
         SBUF_BACKING_BYTES is a nonzero multiple of DATA_BYTES and at most the stride",
    ),
    (
        "host_direct",
        "address_map: HOST_DIRECT_BASE is below 2^32 and the XT_WINDOW aperture ends at or below \
         2^32 - HOST_DIRECT_BASE (firmware programs the remap windows through the direct range)",
    ),
];

/// Check every rule of `RULES`, in that order.
pub(super) fn check_constraints(
    csrs: &Csrs,
    map: &Source,
    desc: &Source,
    prof: &Source,
) -> Result<()> {
    let cx = Cx {
        csrs,
        map,
        desc,
        prof,
    };
    rtl_parameter_widths(&cx)?;
    link_credits(&cx)?;
    data_beat(&cx)?;
    desc_bytes(&cx)?;
    descriptor_in_one_beat(&cx)?;
    len_code(&cx)?;
    udma_sides_match(&cx)?;
    bcast_queue_width(&cx)?;
    bcast_increment_width(&cx)?;
    sem_seq_fields(&cx)?;
    engines(&cx)?;
    d2d_controllers(&cx)?;
    sbuf_geometry(&cx)?;
    host_direct(&cx)?;
    Ok(())
}

struct Cx<'a> {
    csrs: &'a Csrs,
    map: &'a Source,
    desc: &'a Source,
    prof: &'a Source,
}

/// A die-map parameter: its value and the key path of that value.
struct P {
    name: &'static str,
    value: u64,
    key: String,
}

impl Cx<'_> {
    fn param(&self, name: &'static str) -> Result<P> {
        let (i, p) = self
            .csrs
            .map
            .params
            .iter()
            .enumerate()
            .find(|(_, p)| p.name == name)
            .ok_or_else(|| {
                self.map.err(
                    ErrorKind::BadReference,
                    "parameters",
                    format!("missing parameter `{name}`"),
                )
            })?;
        Ok(P {
            name,
            value: p.value,
            key: format!("parameters[{i}].value"),
        })
    }

    fn bad_param(&self, p: &P, message: String) -> Error {
        self.map.err(ErrorKind::BadValue, p.key.clone(), message)
    }

    /// An aperture and its index in the map (`cross_refs` checked that it exists).
    fn aperture(&self, name: &str) -> Result<(usize, &Aperture)> {
        self.csrs
            .map
            .apertures
            .iter()
            .enumerate()
            .find(|(_, a)| a.name == name)
            .ok_or_else(|| {
                self.map.err(
                    ErrorKind::BadReference,
                    "apertures",
                    format!("missing aperture `{name}`"),
                )
            })
    }

    /// The block behind an aperture (`cross_refs` resolved it and checked its kind).
    fn block(&self, id: ApertureId) -> &Block {
        let i = self.csrs.views.apertures.get(id).block.unwrap_or(0);
        &self.csrs.blocks[i]
    }

    /// Both queue groups with their blocks, M2S first.
    fn sides(&self) -> [(&SideView, &Block); 2] {
        let v = &self.csrs.views;
        [
            (&v.m2s, self.block(ApertureId::SdmaM2s)),
            (&v.s2m, self.block(ApertureId::SdmaS2m)),
        ]
    }
}

/// The block's own file, re-indexed so that an error can name the line. Only read when a rule
/// fails.
fn block_source(b: &Block) -> Source {
    let text = crate::limits::read_text(&b.source).unwrap_or_default();
    Source {
        path: b.source.clone(),
        index: LineIndex::new(&text),
    }
}

/// Key path of the `Bits` of field `f` of register `r` (both taken from a layout of block `b`),
/// found by name in the block's top-level registers or bundles.
fn field_key(b: &Block, r: &Register, f: &Field) -> String {
    let in_regs = |regs: &[Register]| {
        regs.iter().enumerate().find_map(|(ri, x)| {
            (x.name == r.name)
                .then(|| x.fields.iter().position(|y| y.name == f.name))
                .flatten()
                .map(|fi| format!("Registers[{ri}].Fields[{fi}].Bits"))
        })
    };
    if let Some(k) = in_regs(&b.registers) {
        return k;
    }
    for (bi, bu) in b.bundles.iter().enumerate() {
        if let Some(k) = in_regs(&bu.registers) {
            return format!("Bundles[{bi}].{k}");
        }
    }
    String::new()
}

/// Key path of the `ArraySize` of the queue bundle of a queue group.
fn queue_count_key(b: &Block, l: &UdmaLayout) -> String {
    let i = b
        .bundles
        .iter()
        .position(|x| x.name == l.queue.name)
        .unwrap_or(0);
    format!("Bundles[{i}].ArraySize")
}

fn clog2(n: u64) -> u32 {
    if n <= 1 {
        0
    } else {
        64 - (n - 1).leading_zeros()
    }
}

// ---------------------------------------------------------------- rules

/// Why: xdie_die, xdie_sbuf and the link modules declare these as `int unsigned` parameters
/// with the package constants as defaults; a wider value would be cut to 32 bits without a word
/// (the package declares it `longint unsigned`, the module takes the low half). A link channel
/// holds LINK_CREDITS flits of receive buffer, so its depth is bounded like every other size.
fn rtl_parameter_widths(cx: &Cx) -> Result<()> {
    for name in [
        "SBUF_PARTITIONS",
        "SBUF_PARTITION_STRIDE",
        "SBUF_BACKING_BYTES",
        "SDMA_ENGINES",
        "LINK_LATENCY",
        "LINK_CREDITS",
    ] {
        let p = cx.param(name)?;
        if p.value > u64::from(u32::MAX) {
            return Err(cx.bad_param(
                &p,
                format!(
                    "{} {:#x} does not fit 32 bits: the RTL takes it as an `int unsigned` \
                     parameter",
                    p.name, p.value
                ),
            ));
        }
    }
    let cred = cx.param("LINK_CREDITS")?;
    if cred.value > MAX_LINK_CREDITS {
        return Err(cx.bad_param(
            &cred,
            format!(
                "LINK_CREDITS {} is more than {MAX_LINK_CREDITS} (the receive buffer of a link \
                 channel holds one flit per credit)",
                cred.value
            ),
        ));
    }
    Ok(())
}

/// Why: xdie_d2d_channel returns a credit LATENCY cycles after the pop of a flit that took
/// LATENCY cycles to arrive, so a credit is out for 2 * LATENCY cycles; fewer credits than the
/// round trip stall the sender and the link no longer moves one flit per cycle (the die map's
/// description and the link throughput test add 2 for the far die's turnaround). A latency of 0
/// has no wire stage at all and the channel's stage count underflows.
fn link_credits(cx: &Cx) -> Result<()> {
    let lat = cx.param("LINK_LATENCY")?;
    let cred = cx.param("LINK_CREDITS")?;
    if lat.value == 0 {
        return Err(cx.bad_param(&lat, "LINK_LATENCY must be at least 1 cycle".into()));
    }
    let need = 2 * u128::from(lat.value) + 2;
    if u128::from(cred.value) < need {
        return Err(cx.bad_param(
            &cred,
            format!(
                "LINK_CREDITS {} does not cover the link round trip: with LINK_LATENCY {} it must \
                 be at least 2 * LINK_LATENCY + 2 = {need} for one flit per cycle",
                cred.value, lat.value
            ),
        ));
    }
    Ok(())
}

/// Why: the CSR bridge and the host port carry a 32-bit word in lane addr[log2(DW)-1:2] of the
/// beat, and every memory indexes beats with address bits.
fn data_beat(cx: &Cx) -> Result<()> {
    let dw = cx.param("DATA_BYTES")?;
    if dw.value < 4 || !dw.value.is_power_of_two() || dw.value > MAX_DATA_BYTES {
        return Err(cx.bad_param(
            &dw,
            format!(
                "{} {} must be a power of two of at least 4 (a beat holds whole 32-bit register \
                 words) and at most {MAX_DATA_BYTES}",
                dw.name, dw.value
            ),
        ));
    }
    Ok(())
}

/// Why: the golden model and the firmware place descriptors DESC_BYTES apart in a ring, while
/// the RTL's descriptor package sizes a slot from the formats; the two must be one number.
fn desc_bytes(cx: &Cx) -> Result<()> {
    let db = cx.param("DESC_BYTES")?;
    for (i, d) in cx.csrs.descriptors.iter().enumerate() {
        if u64::from(d.bytes) != db.value {
            return Err(cx.desc.err(
                ErrorKind::BadValue,
                format!("descriptors[{i}].bytes"),
                format!(
                    "descriptor `{}` is {} bytes but address_map's DESC_BYTES is {}: a ring slot \
                     holds exactly one descriptor",
                    d.name, d.bytes, db.value
                ),
            ));
        }
    }
    Ok(())
}

/// Why: the SDMA engine reads a descriptor out of a single bus beat (it shifts the beat by the
/// descriptor's offset within it); a descriptor larger than a beat, or one a ring base could
/// place across a beat boundary, would be read half.
fn descriptor_in_one_beat(cx: &Cx) -> Result<()> {
    let db = cx.param("DESC_BYTES")?;
    let dw = cx.param("DATA_BYTES")?;
    if !db.value.is_power_of_two() || db.value > dw.value {
        return Err(cx.bad_param(
            &db,
            format!(
                "DESC_BYTES {} must be a power of two of at most DATA_BYTES ({}): the engine reads \
                 a descriptor from one bus beat",
                db.value, dw.value
            ),
        ));
    }
    let align = cx.csrs.ring.base_align;
    if align % db.value != 0 {
        return Err(cx.desc.err(
            ErrorKind::BadValue,
            "ring.base_align",
            format!(
                "base_align {align} must be a multiple of DESC_BYTES ({}) so that no descriptor \
                 crosses a bus beat",
                db.value
            ),
        ));
    }
    Ok(())
}

/// Why: LEN = 0 encodes max_len_code bytes. With a smaller code, LEN values above it would move
/// more than "the maximum"; with a larger one, lengths between 2^width and the code could not be
/// written, yet the model and the testbench cut transfers into chunks of max_len_code.
fn len_code(cx: &Cx) -> Result<()> {
    let code = cx.csrs.ring.max_len_code;
    for d in &cx.csrs.descriptors {
        let Some(len) = d.fields.iter().find(|f| f.name == "LEN") else {
            continue;
        };
        let full = 1u128 << len.width.min(127);
        if u128::from(code) != full {
            return Err(cx.desc.err(
                ErrorKind::BadValue,
                "ring.max_len_code",
                format!(
                    "max_len_code {code:#x} must be 2^{} = {full:#x}, one past the largest value \
                     of descriptor `{}`'s {}-bit LEN field (LEN 0 stands for it)",
                    len.width, d.name, len.width
                ),
            ));
        }
    }
    Ok(())
}

/// The queue-group fields the die and the engine size from one side, labelled for errors.
fn queue_fields(l: &UdmaLayout) -> [(&'static str, &Register, &Field); 7] {
    [
        (
            "ring base (low word)",
            &l.ring_base_lo,
            &l.ring_base_lo_addr,
        ),
        (
            "ring base (high word)",
            &l.ring_base_hi,
            &l.ring_base_hi_addr,
        ),
        ("ring length", &l.ring_len, &l.len),
        ("head pointer", &l.head, &l.head_offset),
        ("used count", &l.status, &l.used),
        ("head ring id", &l.head, &l.head_ring_id),
        ("tail increment", &l.tail_inc, &l.inc),
    ]
}

/// Why: the die tile sizes the engine's ports for both directions from the M2S queue group's
/// package ("both sides have the same shape"), so an S2M group of another shape fails to
/// elaborate or is silently truncated.
fn udma_sides_match(cx: &Cx) -> Result<()> {
    let [(m2s, mb), (s2m, sb)] = cx.sides();
    let (m, s) = (&m2s.layout, &s2m.layout);
    if m.queues() != s.queues() {
        return Err(block_source(sb).err(
            ErrorKind::BadValue,
            queue_count_key(sb, s),
            format!(
                "block `{}` has {} queues but `{}` has {}: both sides of an engine have the same \
                 queue count",
                sb.name,
                s.queues(),
                mb.name,
                m.queues()
            ),
        ));
    }
    for ((what, reg, f), (_, _, g)) in queue_fields(s).into_iter().zip(queue_fields(m)) {
        if f.width != g.width {
            return Err(block_source(sb).err(
                ErrorKind::BadValue,
                field_key(sb, reg, f),
                format!(
                    "the {what} field `{}` of `{}` is {} bits but {} bits in `{}`: both sides of \
                     an engine have the same shape",
                    f.name, sb.name, f.width, g.width, mb.name
                ),
            ));
        }
    }
    Ok(())
}

/// Why: the broadcast doorbell's queue index drives every queue group's `bcast_inc_queue_i`,
/// whose width is the queue index width; a narrower field cannot reach the upper queues, a wider
/// one names queues that do not exist (and fails the package top's lint with WIDTH).
fn bcast_queue_width(cx: &Cx) -> Result<()> {
    let bc = &cx.csrs.views.bcast;
    let bb = cx.block(ApertureId::SdmaBcast);
    for (side, gb) in cx.sides() {
        let n = side.layout.queues();
        let need = clog2(n).max(1);
        if bc.queue.width != need {
            return Err(block_source(bb).err(
                ErrorKind::BadValue,
                field_key(bb, &bc.queue_reg, &bc.queue),
                format!(
                    "broadcast queue field `{}` is {} bits but `{}` has {n} queues: it must be \
                     {need} bits (ceil(log2(queues)), at least 1) to name every queue and no \
                     other",
                    bc.queue.name, bc.queue.width, gb.name
                ),
            ));
        }
    }
    Ok(())
}

/// Why: one increment value from the broadcast doorbell feeds the `bcast_inc_val_i` port of
/// every queue group, which is as wide as the group's own tail increment.
fn bcast_increment_width(cx: &Cx) -> Result<()> {
    // The loader made both INC fields of the doorbell the same bits; check the M2S one.
    let bc = &cx.csrs.views.bcast;
    let bb = cx.block(ApertureId::SdmaBcast);
    for (side, gb) in cx.sides() {
        let inc = &side.layout.inc;
        if bc.inc.width != inc.width {
            return Err(block_source(bb).err(
                ErrorKind::BadValue,
                field_key(bb, &bc.m2s_inc, &bc.inc),
                format!(
                    "broadcast increment `{}` is {} bits but the tail increment of `{}` is {}: \
                     they must be equal",
                    bc.inc.name, bc.inc.width, gb.name, inc.width
                ),
            ));
        }
    }
    Ok(())
}

/// Why: every command slot drives the EVT_SEM sequencer port's index, subop and value inputs with
/// its `sem`, `subop` and `value` fields; a narrower `sem` field cannot reach every semaphore (a
/// wider one is checked by the block), a subop or value of another width fails the die's lint.
fn sem_seq_fields(cx: &Cx) -> Result<()> {
    let v = &cx.csrs.views;
    let (ss, es) = (&v.sem_seq, &v.evt_sem);
    let sb = cx.block(ApertureId::SemSeq);
    let n = es.sem_count();
    let value_w = es.window(crate::layouts::SemOp::Read).value.width;
    let (sem_need, sem_w) = (clog2(n).max(1), ss.sem.width);
    if sem_w < sem_need {
        return Err(block_source(sb).err(
            ErrorKind::BadValue,
            field_key(sb, &ss.cmd, &ss.sem),
            format!(
                "sequencer field `{}.{}` is {sem_w} bits but the evt_sem block has {n} \
                 semaphores: it needs at least {sem_need} (ceil(log2), at least 1)",
                ss.cmd.name, ss.sem.name
            ),
        ));
    }
    for (reg, f, need, why) in [
        (
            &ss.cmd,
            &ss.subop,
            es.params.seq_subop_bits,
            "the evt_sem block's SeqSubopBits".to_string(),
        ),
        (
            &ss.value_reg,
            &ss.value,
            value_w,
            "the evt_sem block's semaphore values".to_string(),
        ),
    ] {
        if f.width != need {
            return Err(block_source(sb).err(
                ErrorKind::BadValue,
                field_key(sb, reg, f),
                format!(
                    "sequencer field `{}.{}` is {} bits but must be {need}: {why}",
                    reg.name, f.name, f.width
                ),
            ));
        }
    }
    Ok(())
}

/// Why: engine e is reached through instance e of the SDMA_M2S and SDMA_S2M apertures and rung
/// by bit e of the broadcast group mask; an engine without either has no registers or no
/// doorbell (the die tile indexes them by engine).
fn engines(cx: &Cx) -> Result<()> {
    let e = cx.param("SDMA_ENGINES")?;
    if e.value == 0 {
        return Err(cx.bad_param(&e, "SDMA_ENGINES must be at least 1".into()));
    }
    for name in ["SDMA_M2S", "SDMA_S2M"] {
        let (_, ap) = cx.aperture(name)?;
        if e.value > ap.count {
            return Err(cx.bad_param(
                &e,
                format!(
                    "SDMA_ENGINES {} exceeds the {} instances of aperture {name}: every engine \
                     needs its own register block",
                    e.value, ap.count
                ),
            ));
        }
    }
    let bc = &cx.csrs.views.bcast;
    if u64::from(bc.mask.width) < e.value {
        let bb = cx.block(ApertureId::SdmaBcast);
        return Err(block_source(bb).err(
            ErrorKind::BadValue,
            field_key(bb, &bc.group, &bc.mask),
            format!(
                "broadcast mask `{}` is {} bits but address_map's SDMA_ENGINES is {}: every \
                 engine needs a mask bit",
                bc.mask.name, bc.mask.width, e.value
            ),
        ));
    }
    Ok(())
}

/// Why: the generated RTL follows the default profile, and the die tile instantiates one D2D
/// controller per instance of the D2D aperture; a profile that says otherwise describes hardware
/// that is not there. A profile without a D2D IP cannot have controllers, nor one with an IP none.
fn d2d_controllers(cx: &Cx) -> Result<()> {
    for (i, p) in cx.csrs.profiles.iter().enumerate() {
        let none = p.d2d_ip == crate::model::D2dIp::None;
        if none != (p.d2d_controllers == 0) {
            return Err(cx.prof.err(
                ErrorKind::BadValue,
                format!("profiles[{i}].d2d_controllers"),
                format!(
                    "profile `{}` has {} D2D controllers with d2d_ip {}: a profile has \
                     controllers exactly when it has a D2D IP",
                    p.name,
                    p.d2d_controllers,
                    if none { "none" } else { "set" }
                ),
            ));
        }
    }
    let i = cx.csrs.default_profile;
    let p = &cx.csrs.profiles[i];
    let (_, d2d) = cx.aperture("D2D")?;
    if u64::from(p.d2d_controllers) != d2d.count {
        return Err(cx.prof.err(
            ErrorKind::BadValue,
            format!("profiles[{i}].d2d_controllers"),
            format!(
                "the default profile `{}` has {} D2D controllers but address_map's D2D aperture \
                 has {} instances: the RTL builds one controller per instance",
                p.name, p.d2d_controllers, d2d.count
            ),
        ));
    }
    Ok(())
}

/// Why: xdie_sbuf splits an SBUF offset into partition and byte with address bits (the stride a
/// power of two), takes the offset modulo the SBUF aperture (partitions * stride rounded up to a
/// power of two), and stores only the first BACKING bytes of a partition in whole beats.
fn sbuf_geometry(cx: &Cx) -> Result<()> {
    let parts = cx.param("SBUF_PARTITIONS")?;
    let stride = cx.param("SBUF_PARTITION_STRIDE")?;
    let backing = cx.param("SBUF_BACKING_BYTES")?;
    let dw = cx.param("DATA_BYTES")?;
    if !stride.value.is_power_of_two() {
        return Err(cx.bad_param(
            &stride,
            format!(
                "SBUF_PARTITION_STRIDE {:#x} must be a power of two",
                stride.value
            ),
        ));
    }
    let (ai, sbuf) = cx.aperture("SBUF")?;
    let span = u128::from(parts.value) * u128::from(stride.value);
    let need = span.max(1).next_power_of_two();
    if u128::from(sbuf.size) != need {
        return Err(cx.map.err(
            ErrorKind::BadValue,
            format!("apertures[{ai}].size"),
            format!(
                "SBUF aperture size {:#x} must be SBUF_PARTITIONS * SBUF_PARTITION_STRIDE \
                 ({} * {:#x}) rounded up to a power of two = {need:#x}",
                sbuf.size, parts.value, stride.value
            ),
        ));
    }
    // The accumulate apertures mirror SBUF: same partition geometry, so the same span.
    for name in ["SBUF_ACC_I32", "SBUF_ACC_F32"] {
        let (ai, acc) = cx.aperture(name)?;
        if acc.size != sbuf.size {
            return Err(cx.map.err(
                ErrorKind::BadValue,
                format!("apertures[{ai}].size"),
                format!(
                    "{name} aperture size {:#x} must equal the SBUF aperture's ({:#x}): it \
                     mirrors SBUF partition by partition",
                    acc.size, sbuf.size
                ),
            ));
        }
    }
    if backing.value == 0 || backing.value % dw.value != 0 || backing.value > stride.value {
        return Err(cx.bad_param(
            &backing,
            format!(
                "SBUF_BACKING_BYTES {:#x} must be a nonzero multiple of DATA_BYTES ({}) and at \
                 most SBUF_PARTITION_STRIDE ({:#x})",
                backing.value, dw.value, stride.value
            ),
        ));
    }
    Ok(())
}

/// Why: the host port's xt address is 32 bits; addresses at or above HOST_DIRECT_BASE reach die
/// address xt - HOST_DIRECT_BASE, and firmware must reach the remap-window registers that way
/// before any window exists.
fn host_direct(cx: &Cx) -> Result<()> {
    let base = cx.param("HOST_DIRECT_BASE")?;
    let top = 1u64 << 32;
    if base.value >= top {
        return Err(cx.bad_param(
            &base,
            format!(
                "HOST_DIRECT_BASE {:#x} must be below 2^32 (xt addresses are 32 bits)",
                base.value
            ),
        ));
    }
    let (_, xt) = cx.aperture("XT_WINDOW")?;
    if xt.end() > top - base.value {
        return Err(cx.bad_param(
            &base,
            format!(
                "HOST_DIRECT_BASE {:#x} leaves only die addresses below {:#x} reachable directly, \
                 but the XT_WINDOW aperture ends at {:#x}: firmware could not program the remap \
                 windows",
                base.value,
                top - base.value,
                xt.end()
            ),
        ));
    }
    Ok(())
}
