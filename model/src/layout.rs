//! Every number the model uses, read once from the parsed CSR model: aperture bases, SBUF
//! geometry, EVT_SEM windows, queue doorbells, descriptor formats, ring rules, SoC fields, folds.

use crate::error::{ModelError, Result};
use xdie_csr::{Aperture, BitField, Block, Bundle, Csrs, DescFormat, Fold, Register, SocAddress};

fn missing(what: impl Into<String>) -> ModelError {
    ModelError::Csrs(what.into())
}

/// One window of EVT_SEM: 256 four-byte registers over one semaphore array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SemOp {
    Read,
    Set,
    Inc,
    Dec,
}

#[derive(Debug, Clone)]
pub struct SemWindow {
    pub op: SemOp,
    pub offset: u64,
    pub count: u64,
    pub stride: u64,
}

/// The doorbell of one side of the SDMA engines.
#[derive(Debug, Clone)]
pub struct SideLayout {
    pub aperture: Aperture,
    pub queue: Bundle,
    pub tail_inc: Register,
    pub ring_len_width: u32,
}

impl SideLayout {
    /// Die-local address of the tail-increment doorbell of `queue` on `engine`.
    pub fn doorbell(&self, engine: u32, queue: u32) -> u64 {
        self.aperture.instance_base(engine as u64)
            + self.queue.reg_offset(queue as u64, &self.tail_inc)
    }
}

#[derive(Debug, Clone)]
pub struct Layout {
    pub soc: SocAddress,
    pub sbuf: Aperture,
    pub sbuf_partitions: u64,
    pub sbuf_stride: u64,
    pub sbuf_backing: u64,
    pub hbm: Aperture,
    pub evt_sem: Aperture,
    pub sem_windows: Vec<SemWindow>,
    pub sem_count: u64,
    /// Bytes of one semaphore register (the DMA semaphore copies move this many bytes).
    pub sem_bytes: u64,
    pub subop_wait_ge_dec: u64,
    pub subop_inc: u64,
    pub engines: u32,
    pub queues: u32,
    pub m2s: SideLayout,
    pub s2m: SideLayout,
    pub desc_bytes: u64,
    pub m2s_desc: DescFormat,
    pub s2m_desc: DescFormat,
    pub initial_ring_id: u64,
    pub ring_id_width: u32,
    pub ring_base_align: u64,
    pub max_len: u64,
    pub dies_per_package: u64,
    pub fold_neighbor: Fold,
    pub fold_chip_id: Fold,
    pub f_local: BitField,
    pub f_die: BitField,
    pub f_chip: BitField,
    pub f_valid: BitField,
    pub f_neighbor_route: BitField,
}

fn param(csrs: &Csrs, name: &str) -> Result<u64> {
    csrs.map
        .param(name)
        .ok_or_else(|| missing(format!("address map parameter {name}")))
}

fn aperture(csrs: &Csrs, name: &str) -> Result<Aperture> {
    csrs.map
        .aperture(name)
        .cloned()
        .ok_or_else(|| missing(format!("aperture {name}")))
}

fn soc_field(soc: &SocAddress, view: &str, field: &str) -> Result<BitField> {
    soc.field(view, field)
        .cloned()
        .ok_or_else(|| missing(format!("SoC address field {view}.{field}")))
}

fn side(csrs: &Csrs, ap_name: &str) -> Result<SideLayout> {
    let ap = aperture(csrs, ap_name)?;
    let block: &Block = csrs
        .aperture_block(&ap)
        .ok_or_else(|| missing(format!("block of aperture {ap_name}")))?;
    let queue = block
        .bundle_by_role("queue")
        .cloned()
        .ok_or_else(|| missing(format!("{}: queue bundle", block.name)))?;
    let tail_inc = queue
        .reg_by_role("tail_inc")
        .cloned()
        .ok_or_else(|| missing(format!("{}: tail_inc register", block.name)))?;
    let ring_len_width = queue
        .reg_by_role("ring_len")
        .and_then(|r| r.field_by_role("len"))
        .map(|f| f.width)
        .ok_or_else(|| missing(format!("{}: ring_len.len field", block.name)))?;
    Ok(SideLayout {
        aperture: ap,
        queue,
        tail_inc,
        ring_len_width,
    })
}

impl Layout {
    pub fn new(csrs: &Csrs) -> Result<Layout> {
        let soc = csrs.soc.clone();
        let evt_sem = aperture(csrs, "EVT_SEM")?;
        let evt_block = csrs
            .aperture_block(&evt_sem)
            .ok_or_else(|| missing("block of aperture EVT_SEM"))?;
        let xdie_csr::BlockKind::EvtSem(params) = &evt_block.kind else {
            return Err(missing("aperture EVT_SEM is not an evt_sem block"));
        };
        let mut sem_windows = Vec::new();
        for (role, op) in [
            ("sem_read", SemOp::Read),
            ("sem_set", SemOp::Set),
            ("sem_inc", SemOp::Inc),
            ("sem_dec", SemOp::Dec),
        ] {
            let b = evt_block
                .bundle_by_role(role)
                .ok_or_else(|| missing(format!("evt_sem bundle {role}")))?;
            sem_windows.push(SemWindow {
                op,
                offset: b.offset,
                count: b.count,
                stride: b.stride,
            });
        }
        let inc = &sem_windows[2];
        let m2s = side(csrs, "SDMA_M2S")?;
        let s2m = side(csrs, "SDMA_S2M")?;
        let engines = param(csrs, "SDMA_ENGINES")? as u32;
        if m2s.aperture.count < engines as u64 || s2m.aperture.count < engines as u64 {
            return Err(missing(
                "SDMA apertures have fewer instances than SDMA_ENGINES",
            ));
        }
        let desc = |n: &str| {
            csrs.descriptor(n)
                .cloned()
                .ok_or_else(|| missing(format!("descriptor format {n}")))
        };
        let fold = |n: &str| {
            soc.fold(n)
                .cloned()
                .ok_or_else(|| missing(format!("fold {n}")))
        };
        let f_die = soc_field(&soc, "local", "DIE")?;
        Ok(Layout {
            sbuf: aperture(csrs, "SBUF")?,
            sbuf_partitions: param(csrs, "SBUF_PARTITIONS")?,
            sbuf_stride: param(csrs, "SBUF_PARTITION_STRIDE")?,
            sbuf_backing: param(csrs, "SBUF_BACKING_BYTES")?,
            hbm: aperture(csrs, "HBM")?,
            sem_count: inc.count,
            sem_bytes: inc.stride,
            sem_windows,
            evt_sem,
            subop_wait_ge_dec: params.seq_subop_wait_ge_dec,
            subop_inc: params.seq_subop_inc,
            engines,
            queues: m2s.queue.count.min(s2m.queue.count) as u32,
            m2s,
            s2m,
            desc_bytes: param(csrs, "DESC_BYTES")?,
            m2s_desc: desc("m2s")?,
            s2m_desc: desc("s2m")?,
            initial_ring_id: csrs.ring.initial_ring_id as u64,
            ring_id_width: csrs.ring.ring_id_width,
            ring_base_align: csrs.ring.base_align,
            max_len: csrs.ring.max_len_code,
            dies_per_package: 1u64 << f_die.width,
            fold_neighbor: fold("fold_neighbor")?,
            fold_chip_id: fold("fold_chip_id")?,
            f_local: soc_field(&soc, "local", "LOCAL")?,
            f_die,
            f_chip: soc_field(&soc, "local", "CAYMAN_ID")?,
            f_valid: soc_field(&soc, "local", "CAYMAN_ID_VALID")?,
            f_neighbor_route: soc_field(&soc, "neighbor", "NEIGHBOR_ROUTE")?,
            soc,
        })
    }

    pub fn side(&self, side: Side) -> &SideLayout {
        match side {
            Side::M2s => &self.m2s,
            Side::S2m => &self.s2m,
        }
    }

    pub fn window(&self, op: SemOp) -> &SemWindow {
        // `new` pushed one window per op, in this order.
        let i = match op {
            SemOp::Read => 0,
            SemOp::Set => 1,
            SemOp::Inc => 2,
            SemOp::Dec => 3,
        };
        &self.sem_windows[i]
    }

    /// Die-local address of semaphore `sem` in window `op`.
    pub fn sem_addr(&self, op: SemOp, sem: u64) -> u64 {
        let w = self.window(op);
        self.evt_sem.base + w.offset + sem * w.stride
    }

    /// Die-local address of byte `offset` of SBUF partition `p`.
    pub fn sbuf_addr(&self, p: u64, offset: u64) -> u64 {
        self.sbuf.base + p * self.sbuf_stride + offset
    }

    /// A die-local address seen from the same die: LOCAL and DIE set, no routing bits.
    pub fn die_local(&self, die: u64, local: u64) -> u64 {
        let a = self.f_local.set(0, local as u128);
        self.f_die.set(a, die as u128) as u64
    }

    /// Ring id of absolute descriptor position `pos` of a ring of `len` descriptors.
    pub fn ring_id(&self, pos: u64, len: u64) -> u64 {
        (self.initial_ring_id + pos / len) & ((1u64 << self.ring_id_width) - 1)
    }

    /// LEN code of a descriptor moving `bytes` bytes (max_len is encoded as 0).
    pub fn len_code(&self, bytes: u64) -> u64 {
        if bytes == self.max_len {
            0
        } else {
            bytes
        }
    }

    pub fn len_bytes(&self, code: u64) -> u64 {
        if code == 0 {
            self.max_len
        } else {
            code
        }
    }

    /// Where a die-local address lands.
    pub fn decode_local(&self, local: u64) -> Option<Target> {
        if local >= self.sbuf.base && local < self.sbuf.end() {
            let off = local - self.sbuf.base;
            return Some(Target::Sbuf {
                partition: off / self.sbuf_stride,
                offset: off % self.sbuf_stride,
            });
        }
        if local >= self.hbm.base && local < self.hbm.end() {
            return Some(Target::Hbm);
        }
        if local >= self.evt_sem.base && local < self.evt_sem.end() {
            let off = local - self.evt_sem.base;
            for w in &self.sem_windows {
                if off >= w.offset && off < w.offset + w.count * w.stride {
                    let rel = off - w.offset;
                    return Some(Target::Sem {
                        op: w.op,
                        sem: rel / w.stride,
                        aligned: rel.is_multiple_of(w.stride),
                    });
                }
            }
            return Some(Target::OtherRegister);
        }
        None
    }
}

pub use xdie_csr::Side;

/// What a die-local address selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Sbuf {
        partition: u64,
        offset: u64,
    },
    Hbm,
    Sem {
        op: SemOp,
        sem: u64,
        aligned: bool,
    },
    /// A register the model does not emulate (events, SDMA CSRs reached by a DMA write).
    OtherRegister,
}
