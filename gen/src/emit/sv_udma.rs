//! The UDMA queue-group register blocks (`udma_queue_group`, one module per side): per-queue ring
//! registers, the tail doorbell with overrun refusal, the hardware-advanced head, broadcast
//! increments and the engine error log. Every offset, width, mask and reset is computed here from
//! the model; the template only arranges them.

use super::sv_regpkg::qualified;
use super::{finish, sv_hex, OutFile, DO_NOT_EDIT};
use askama::Template;
use xdie_csr::{Access, Block, Bundle, Csrs, Field, RegRole, Register};

/// A register kept as 32 flops of RW storage (only the write-mask bits ever change).
pub struct Store {
    pub name: String,
    pub offset: String,
    pub wmask: String,
    pub rmask: String,
    pub reset: String,
}

/// A mapped register of the queue bundle and how it reads back.
pub struct ReadReg {
    pub name: String,
    pub offset: String,
    pub rdata: String,
}

#[derive(Template)]
#[template(path = "sv/udma_queue_group.sv")]
pub struct UdmaTpl {
    pub header: &'static str,
    pub module: String,
    pub side: &'static str,
    pub block: String,
    pub aw: u32,
    /// Queue count and queue-index width.
    pub nq: u64,
    pub qw: u32,
    /// Width of the in-bundle relative address (queue index + register offset) and of the
    /// register offset alone.
    pub qrw: u32,
    pub row: u32,
    /// Package names of the queue bundle's first byte, last byte and instance count.
    pub q_base: String,
    pub q_last: String,
    pub q_count: String,
    /// Ring length / pointer width, used width, doorbell width, ring-id width, arithmetic width.
    pub lw: u32,
    pub uw: u32,
    pub iw: u32,
    pub idw: u32,
    pub cw: u32,
    /// Package names of those widths.
    pub lw_c: String,
    pub uw_c: String,
    pub iw_c: String,
    pub idw_c: String,
    pub base_w: u32,
    pub ring_id_init: String,
    pub q_stores: Vec<Store>,
    pub q_reads: Vec<ReadReg>,
    pub top_stores: Vec<Store>,
    // Queue register offsets and field slices the behaviour needs.
    pub off_tail_inc: String,
    pub off_sw_ctrl: String,
    pub inc_slice: String,
    pub rst_tail_bit: String,
    pub rst_head_bit: String,
    pub rst_q_bit: String,
    /// Per-queue storage that holds the ring length, the enable bit and the ring base, with
    /// the field positions and masks the template extracts them by.
    pub len_reg: String,
    pub len_lsb: String,
    pub enable_reg: String,
    pub enable_lsb: String,
    /// Reset value of the enable bit.
    pub enable_reset: String,
    pub base_hi_reg: String,
    pub base_hi_mask: String,
    pub base_lo_reg: String,
    pub base_lo_mask: String,
    // err_log.
    pub err_off: String,
    pub err_w1c_mask: String,
    pub err_ovr_mask: String,
    pub err_rie_mask: String,
    pub err_reset: String,
    pub err_rmask: String,
}

/// Bits of the ring base the engine reads: the high and the low 32-bit register side by side.
pub const RING_BASE_W: u32 = 2 * 32;

fn clog2(n: u64) -> u32 {
    if n <= 1 {
        0
    } else {
        64 - (n - 1).leading_zeros()
    }
}

fn slice(f: &Field) -> String {
    format!("[{}:{}]", f.msb(), f.lsb)
}

/// A 32-bit concatenation placing each `(field, expression)` at the field's bits, zeros between.
fn pack(parts: &mut [(&Field, String)]) -> String {
    parts.sort_by_key(|(f, _)| std::cmp::Reverse(f.lsb));
    let mut items = Vec::new();
    let mut top = 32;
    for (f, e) in parts.iter() {
        if f.msb() + 1 < top {
            items.push(sv_hex(top - f.msb() - 1, 0));
        }
        items.push(e.clone());
        top = f.lsb;
    }
    if top > 0 {
        items.push(sv_hex(top, 0));
    }
    format!("{{{}}}", items.join(", "))
}

/// Package names of a register: top-level (`bundle` None) or within one queue instance, whose
/// offset is cast to the in-queue offset width `ROW`.
fn reg_const(b: &Block, bundle: Option<&Bundle>, r: &Register, what: &str) -> String {
    match bundle {
        Some(q) => qualified(b, &[&q.name, &r.name, what]),
        None => qualified(b, &[&r.name, what]),
    }
}

fn reg_offset(b: &Block, bundle: Option<&Bundle>, r: &Register) -> String {
    let c = reg_const(b, bundle, r, "OFFSET");
    match bundle {
        Some(_) => format!("ROW'({c})"),
        None => c,
    }
}

/// The template's name for a register's storage: `<name>_q` / `<name>_d` (all queues side by
/// side for a queue register) and `sel_<name>` (the bus-addressed queue's copy).
fn store_name(r: &Register) -> String {
    format!("r_{}", r.name.to_lowercase())
}

fn store(b: &Block, bundle: Option<&Bundle>, r: &Register) -> Store {
    Store {
        name: store_name(r),
        offset: reg_offset(b, bundle, r),
        wmask: sv_hex(32, r.write_mask().into()),
        rmask: sv_hex(32, r.read_mask().into()),
        reset: reg_const(b, bundle, r, "RESET"),
    }
}

/// Package name of the width of field `f` of the queue register `r`.
fn field_width(b: &Block, q: &Bundle, r: &Register, f: &Field) -> String {
    qualified(b, &[&q.name, &r.name, &f.name, "WIDTH"])
}

/// Package name of the bit position of field `f` of the queue register `r`.
fn field_lsb(b: &Block, q: &Bundle, r: &Register, f: &Field) -> String {
    qualified(b, &[&q.name, &r.name, &f.name, "LSB"])
}

fn is_store(r: &Register) -> bool {
    use RegRole::*;
    matches!(r.role, None | Some(Cfg | RingBaseLo | RingBaseHi | RingLen))
}

fn build(csrs: &Csrs, b: &Block) -> Result<UdmaTpl, askama::Error> {
    let l = b
        .udma()
        .ok_or_else(|| askama::Error::Custom(format!("`{}` is not a udma block", b.name).into()))?;
    let side = l.side;
    let q = &l.queue;
    let aw = b.addr_bits();
    let nq = q.count;
    let qw = clog2(nq).max(1);
    let row = clog2(q.stride);
    let qrw = row + qw;

    let (len, used, inc, head_id) = (&l.len, &l.used, &l.inc, &l.head_ring_id);
    let (lw, uw, iw, idw) = (len.width, used.width, inc.width, head_id.width);
    // Wide enough for used + two doorbell values and for tail + increment without overflow.
    let cw = uw.max(iw + 1).max(lw) + 1;

    let mut q_stores = Vec::new();
    // Reads name the bus-addressed queue's fields (`sel_*`), which the template selects once.
    let mut q_reads = Vec::new();
    for r in &q.registers {
        let name = r.name.to_lowercase();
        let offset = reg_offset(b, Some(q), r);
        let rdata = if is_store(r) {
            let s = store(b, Some(q), r);
            let e = format!("sel_{} & {}", s.name, s.rmask);
            q_stores.push(s);
            e
        } else {
            match r.role {
                Some(RegRole::Status) => {
                    let mut parts = vec![
                        (&l.used, "sel_used".to_string()),
                        (&l.overrun, "sel_overrun".to_string()),
                        (&l.full, "sel_full".to_string()),
                    ];
                    pack(&mut parts)
                }
                Some(RegRole::Head) => {
                    let mut parts = vec![
                        (&l.head_offset, "sel_head".to_string()),
                        (&l.head_ring_id, "sel_head_id".to_string()),
                    ];
                    pack(&mut parts)
                }
                Some(RegRole::Tail) => {
                    let mut parts = vec![
                        (&l.tail_offset, "sel_tail".to_string()),
                        (&l.tail_ring_id, "sel_tail_id".to_string()),
                    ];
                    pack(&mut parts)
                }
                // Doorbell and pulse registers read zero.
                _ => sv_hex(32, 0),
            }
        };
        q_reads.push(ReadReg {
            name,
            offset,
            rdata,
        });
    }

    let err = &l.err_log;
    let err_w1c = err
        .fields
        .iter()
        .filter(|f| f.access == Access::W1c)
        .fold(0u32, |a, f| a | f.reg_mask());
    let top_stores = b
        .registers
        .iter()
        .filter(|r| r.role.is_none())
        .map(|r| store(b, None, r))
        .collect();

    let (lo, hi) = (&l.ring_base_lo, &l.ring_base_hi);
    let (lo_addr, hi_addr) = (&l.ring_base_lo_addr, &l.ring_base_hi_addr);
    let base_w = RING_BASE_W;

    Ok(UdmaTpl {
        header: DO_NOT_EDIT,
        module: format!("xdie_{}", b.name),
        side: side.as_str(),
        block: b.name.clone(),
        aw,
        nq,
        qw,
        qrw,
        row,
        q_base: qualified(b, &[&q.name, "BASE"]),
        q_last: qualified(b, &[&q.name, "LAST"]),
        q_count: qualified(b, &[&q.name, "COUNT"]),
        lw,
        uw,
        iw,
        idw,
        cw,
        lw_c: field_width(b, q, &l.ring_len, len),
        uw_c: field_width(b, q, &l.status, used),
        iw_c: field_width(b, q, &l.tail_inc, inc),
        idw_c: field_width(b, q, &l.head, head_id),
        base_w,
        ring_id_init: sv_hex(idw, csrs.ring.initial_ring_id.into()),
        q_stores,
        q_reads,
        top_stores,
        off_tail_inc: reg_offset(b, Some(q), &l.tail_inc),
        off_sw_ctrl: reg_offset(b, Some(q), &l.sw_ctrl),
        inc_slice: slice(inc),
        rst_tail_bit: field_lsb(b, q, &l.sw_ctrl, &l.rst_tail),
        rst_head_bit: field_lsb(b, q, &l.sw_ctrl, &l.rst_head),
        rst_q_bit: field_lsb(b, q, &l.sw_ctrl, &l.rst_q),
        len_reg: store_name(&l.ring_len),
        len_lsb: field_lsb(b, q, &l.ring_len, len),
        enable_reg: store_name(&l.cfg),
        enable_lsb: field_lsb(b, q, &l.cfg, &l.enable),
        enable_reset: sv_hex(1, (l.enable.reset & 1).into()),
        base_hi_reg: store_name(hi),
        base_hi_mask: sv_hex(32, hi_addr.reg_mask().into()),
        base_lo_reg: store_name(lo),
        base_lo_mask: sv_hex(32, lo_addr.reg_mask().into()),
        err_off: reg_offset(b, None, err),
        err_w1c_mask: sv_hex(32, err_w1c.into()),
        err_ovr_mask: sv_hex(32, l.err_overrun.reg_mask().into()),
        err_rie_mask: sv_hex(32, l.err_ring_id_err.reg_mask().into()),
        err_reset: reg_const(b, None, err, "RESET"),
        err_rmask: sv_hex(32, err.read_mask().into()),
    })
}

pub fn render(csrs: &Csrs) -> Result<Vec<OutFile>, askama::Error> {
    let mut out = Vec::new();
    for b in &csrs.blocks {
        if b.udma().is_none() {
            continue;
        }
        let t = build(csrs, b)?;
        out.push(OutFile::new(
            format!("rtl/gen/{}.sv", t.module),
            finish(t.render()?),
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;
    use xdie_csr::BlockKind;

    fn repo_csrs() -> Csrs {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../csrs");
        xdie_csr::load(&dir).expect("repository csrs/ loads")
    }

    fn udma_blocks(c: &Csrs) -> Vec<&Block> {
        c.blocks.iter().filter(|b| b.udma().is_some()).collect()
    }

    #[test]
    fn one_module_per_side_named_after_the_block() {
        let c = repo_csrs();
        let files = render(&c).expect("renders");
        let blocks = udma_blocks(&c);
        assert_eq!(files.len(), blocks.len());
        for (f, b) in files.iter().zip(&blocks) {
            assert_eq!(f.path, Path::new(&format!("rtl/gen/xdie_{}.sv", b.name)));
            assert!(f.contents.contains(&format!("module xdie_{} (", b.name)));
            assert!(f.contents.contains(DO_NOT_EDIT));
        }
    }

    #[test]
    fn offsets_and_widths_come_from_the_model() {
        let c = repo_csrs();
        for b in udma_blocks(&c) {
            let t = build(&c, b).expect("builds");
            let l = b.udma().expect("udma layout");
            let (q, inc) = (&l.queue, &l.tail_inc);
            assert_eq!(t.nq, q.count);
            let pkg_name = qualified(b, &[&q.name, &inc.name, "OFFSET"]);
            assert_eq!(t.off_tail_inc, format!("ROW'({pkg_name})"));
            assert_eq!(1u64 << t.row, q.stride);
            assert_eq!(t.iw, l.inc.width);
            assert_eq!(t.lw, l.len.width);
            assert_eq!(t.ring_id_init, sv_hex(t.idw, c.ring.initial_ring_id.into()));
            let text = t.render().expect("renders");
            let count = qualified(b, &[&q.name, "COUNT"]);
            assert!(text.contains(&format!("localparam int unsigned NQ = {count};")));
            assert!(text.contains(&format!("[{}:0]           q_enable_o", q.count - 1)));
        }
    }

    #[test]
    fn queue_count_edit_reaches_ports_and_decode() {
        let mut c = repo_csrs();
        let b = c
            .blocks
            .iter_mut()
            .find(|b| b.udma().is_some())
            .expect("a udma block");
        // The same edit in the generic bundle (package constants) and the layout (template).
        let BlockKind::UdmaQueueGroup(l) = &mut b.kind else {
            unreachable!("found by its layout")
        };
        l.queue.count /= 2;
        let count = l.queue.count;
        let name = l.queue.name.clone();
        let q = b.bundles.iter_mut().find(|q| q.name == name);
        q.expect("queue bundle").count = count;
        let b = b.clone();
        let t = build(&c, &b).expect("builds");
        assert_eq!(t.nq, count);
        assert_eq!(t.qw, clog2(count).max(1));
        assert_eq!(1u64 << t.row, b.bundles[0].stride);
        let text = t.render().expect("renders");
        assert!(text.contains(&format!("[{}:0]           q_enable_o", count - 1)));
    }

    #[test]
    fn pack_fills_gaps_with_zeros() {
        let f = |lsb, width| Field {
            name: String::new(),
            lsb,
            width,
            access: Access::Ro,
            reset: 0,
            description: String::new(),
            role: None,
        };
        let (a, b) = (f(0, 24), f(30, 2));
        let s = pack(&mut [(&a, "lo".into()), (&b, "hi".into())]);
        let gap = b.lsb - a.msb() - 1;
        assert_eq!(s, format!("{{hi, {}, lo}}", sv_hex(gap, 0)));
    }
}
