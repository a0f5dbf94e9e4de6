//! Firmware-level driver of the package top (`xdie_pkg_top`): two dies, each reached through its
//! host port the way its Q7 firmware would, with die-local addresses sent through the host
//! port's direct window.
//!
//! Every address, offset, field position and descriptor layout comes from the CSR model; the
//! driver keeps a software copy of each ring it built (tail and tail ring id), like firmware.

use crate::axil::{AxilError, AxilMaster, Resp, Timing};
use crate::duts::DutKind;
use crate::regmodel::csrs;
use crate::sim::{Port, Sim, SimError};
use std::collections::BTreeMap;
use std::fmt;
use xdie_csr::{Aperture, Block, Bundle, DescFormat};

#[derive(Debug)]
pub enum PkgError {
    /// The package top is not among the simulated DUTs.
    NoPackage,
    Sim(SimError),
    Axil(AxilError),
    /// A host-port access was answered with an error.
    Resp {
        die: u32,
        local: u64,
        resp: Resp,
    },
    /// A wait did not finish within its cycle budget.
    Timeout {
        what: String,
        cycles: u64,
    },
    /// The address cannot be reached through the host port's direct window.
    NotDirect {
        local: u64,
    },
    /// A backdoor access outside the memory the simulation backs.
    NotBacked {
        local: u64,
        len: u64,
    },
    /// A word read back differs from what was expected there.
    Mismatch {
        die: u32,
        local: u64,
        expected: u32,
        got: u32,
    },
}

impl fmt::Display for PkgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PkgError::NoPackage => write!(
                f,
                "xdie_pkg_top is not among the simulated DUTs (build with the `package` feature)"
            ),
            PkgError::Sim(e) => write!(f, "{e}"),
            PkgError::Axil(e) => write!(f, "{e}"),
            PkgError::Resp { die, local, resp } => {
                write!(f, "die {die}: host access of {local:#x} answered {resp:?}")
            }
            PkgError::Timeout { what, cycles } => {
                write!(f, "{what} did not happen within {cycles} cycles")
            }
            PkgError::NotDirect { local } => {
                write!(f, "{local:#x} is outside the host port's direct window")
            }
            PkgError::NotBacked { local, len } => write!(
                f,
                "[{local:#x}, {:#x}) is not backed by a simulated memory",
                local + len
            ),
            PkgError::Mismatch {
                die,
                local,
                expected,
                got,
            } => write!(
                f,
                "die {die} word {local:#x}: read {got:#x}, expected {expected:#x}"
            ),
        }
    }
}

impl std::error::Error for PkgError {}

impl From<SimError> for PkgError {
    fn from(e: SimError) -> Self {
        PkgError::Sim(e)
    }
}

impl From<AxilError> for PkgError {
    fn from(e: AxilError) -> Self {
        PkgError::Axil(e)
    }
}

pub type Result<T> = std::result::Result<T, PkgError>;

/// Queue-group side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Side {
    M2s,
    S2m,
}

impl From<xdie_model::Side> for Side {
    fn from(side: xdie_model::Side) -> Side {
        match side {
            xdie_model::Side::M2s => Side::M2s,
            xdie_model::Side::S2m => Side::S2m,
        }
    }
}

impl Side {
    /// The die-map aperture of this side's queue-group blocks.
    pub fn aperture(self) -> &'static str {
        match self {
            Side::M2s => "SDMA_M2S",
            Side::S2m => "SDMA_S2M",
        }
    }
    fn desc(self) -> &'static str {
        match self {
            Side::M2s => "m2s",
            Side::S2m => "s2m",
        }
    }
}

fn aperture(name: &str) -> &'static Aperture {
    csrs()
        .map
        .aperture(name)
        .unwrap_or_else(|| panic!("die map has no {name} aperture"))
}

/// A die-map parameter of csrs/ (the loader requires every one the testbench reads).
pub fn die_param(name: &str) -> u64 {
    csrs()
        .map
        .param(name)
        .unwrap_or_else(|| panic!("die map has no parameter {name}"))
}

/// Queues per UDMA queue group.
pub fn queues_per_group() -> u64 {
    csrs()
        .block("udma_m2s")
        .and_then(|b| b.bundle_by_role("queue"))
        .map(|b| b.count)
        .expect("M2S queue bundle")
}

/// Die-local base of aperture `name`.
pub fn aperture_base(name: &str) -> u64 {
    aperture(name).base
}

fn block_of_aperture(name: &str) -> &'static Block {
    csrs()
        .aperture_block(aperture(name))
        .unwrap_or_else(|| panic!("aperture {name} has no block"))
}

fn bundle(block: &'static Block, role: &str) -> &'static Bundle {
    block
        .bundle_by_role(role)
        .unwrap_or_else(|| panic!("{} has no {role} bundle", block.name))
}

/// Die-local address of register `role` of instance `i` of bundle `bundle_role` in instance
/// `inst` of the block aperture `ap`.
pub fn reg_local(ap: &str, inst: u64, bundle_role: &str, i: u64, role: &str) -> u64 {
    let b = bundle(block_of_aperture(ap), bundle_role);
    let r = b
        .reg_by_role(role)
        .unwrap_or_else(|| panic!("{bundle_role} has no {role} register"));
    aperture(ap).instance_base(inst) + b.reg_offset(i, r)
}

/// Mask of field `field` (by role) of register `role` of bundle `bundle_role` of `ap`'s block.
pub fn field_mask(ap: &str, bundle_role: &str, role: &str, field: &str) -> u32 {
    bundle(block_of_aperture(ap), bundle_role)
        .reg_by_role(role)
        .and_then(|r| r.field_by_role(field))
        .map(|f| f.reg_mask())
        .unwrap_or_else(|| panic!("{bundle_role}.{role}.{field}"))
}

fn shift_of(mask: u32) -> u32 {
    mask.trailing_zeros()
}

pub fn desc(name: &str) -> &'static DescFormat {
    csrs()
        .descriptor(name)
        .unwrap_or_else(|| panic!("no {name} descriptor"))
}

pub fn desc_set(d: &DescFormat, word: u128, field: &str, v: u128) -> u128 {
    d.field(field)
        .unwrap_or_else(|| panic!("{} has no {field}", d.name))
        .set(word, v)
}

/// SoC address of die-local `local` on die `die` (local view, no routing bits).
pub fn soc_local(die: u32, local: u64) -> u64 {
    let f = csrs()
        .soc
        .field("local", "DIE")
        .expect("local view has DIE");
    f.set(u128::from(local), u128::from(die)) as u64
}

/// The neighbor fold: `local` on `peer_die`, reached by neighbor routing.
pub fn fold_neighbor(local: u64, peer_die: u32) -> u64 {
    let soc = &csrs().soc;
    let fold = soc.fold("fold_neighbor").expect("fold_neighbor");
    soc.apply_fold(fold, &[local, u64::from(peer_die)])
}

/// The chip-id fold: `local` on `peer_die` of package `chip`.
pub fn fold_chip_id(local: u64, peer_die: u32, chip: u64) -> u64 {
    let soc = &csrs().soc;
    let fold = soc.fold("fold_chip_id").expect("fold_chip_id");
    soc.apply_fold(fold, &[local, u64::from(peer_die), chip])
}

/// Die-local address of byte `b` of SBUF partition `p`.
pub fn sbuf_local(p: u64, b: u64) -> u64 {
    aperture("SBUF").base + p * die_param("SBUF_PARTITION_STRIDE") + b
}

/// Die-local address of byte `b` of HBM.
pub fn hbm_local(b: u64) -> u64 {
    aperture("HBM").base + b
}

/// Die-local address of semaphore `sem`'s register in EVT_SEM window `role` (sem_inc, ...).
pub fn sem_local(role: &str, sem: u64) -> u64 {
    let b = bundle(block_of_aperture("EVT_SEM"), role);
    aperture("EVT_SEM").base + b.reg_offset(sem, &b.registers[0])
}

/// A ring the firmware built in HBM: where it is and where software writes next.
#[derive(Debug, Clone)]
pub struct Ring {
    pub base: u64,
    pub len: u64,
    pub tail: u64,
    pub tail_id: u64,
    /// Descriptors written and not yet announced with a doorbell.
    pub unrung: u64,
}

impl Ring {
    fn new(base: u64, len: u64) -> Ring {
        Ring {
            base,
            len,
            tail: 0,
            tail_id: u64::from(csrs().ring.initial_ring_id),
            unrung: 0,
        }
    }
}

/// One copy: `len` bytes (1..=max_len_code) from SoC address `src` to SoC address `dst`.
#[derive(Debug, Clone, Copy)]
pub struct Copy {
    pub src: u64,
    pub dst: u64,
    pub len: u64,
    pub write_barrier: bool,
}

pub struct Package {
    pub sim: Sim,
    host: [AxilMaster; 2],
    idle: [Port; 2],
    err: [Port; 2],
    rings: BTreeMap<(u32, Side, u64, u64), Ring>,
    /// Cycle budget of every wait.
    pub budget: u64,
}

impl Package {
    pub fn kind() -> Option<DutKind> {
        DutKind::ALL
            .iter()
            .copied()
            .find(|k| k.name() == "xdie_pkg_top")
    }

    /// Wraps a fresh package model: sets the chip id, resets it and waits for the link.
    pub fn new(mut sim: Sim, seed: u64, timing: Timing, chip: u64) -> Result<Package> {
        let h0 = AxilMaster::with_prefix(&mut sim, "h0_", seed, timing)?;
        let h1 = AxilMaster::with_prefix(&mut sim, "h1_", seed ^ 0x5a5a, timing)?;
        let idle = [
            sim.require_port("d0_idle_o")?,
            sim.require_port("d1_idle_o")?,
        ];
        let err = [sim.require_port("d0_err_o")?, sim.require_port("d1_err_o")?];
        sim.set_by_name("chip_id_i", chip)?;
        sim.reset(4);
        let mut pkg = Package {
            sim,
            host: [h0, h1],
            idle,
            err,
            rings: BTreeMap::new(),
            budget: 200_000,
        };
        for h in &mut pkg.host {
            h.timeout = 10_000;
        }
        pkg.wait_link()?;
        Ok(pkg)
    }

    /// Clock cycles since the model was created.
    pub fn cycle(&self) -> u64 {
        self.sim.time() / 2
    }

    /// The "every engine idle" output of a die, for observers that only see the `Sim`.
    pub fn idle_port(&self, die: u32) -> Port {
        self.idle[die as usize]
    }

    pub fn idle(&self, die: u32) -> bool {
        self.sim.get_u64(self.idle[die as usize]) != 0
    }

    /// Sticky engine errors of a die: bit 0 a read error, bit 1 a write error.
    pub fn err(&self, die: u32) -> u64 {
        self.sim.get_u64(self.err[die as usize])
    }

    fn xt(local: u64) -> Result<u64> {
        let base = csrs()
            .map
            .param("HOST_DIRECT_BASE")
            .expect("HOST_DIRECT_BASE");
        if local >= base {
            return Err(PkgError::NotDirect { local });
        }
        Ok(base + local)
    }

    /// Handshake timing of both host ports from now on.
    pub fn set_timing(&mut self, timing: Timing) {
        for h in &mut self.host {
            h.set_timing(timing);
        }
    }

    /// Host write of a 32-bit word at an xt address as the host issues it (a remap window or
    /// the direct window decides where it goes), any response.
    pub fn write_xt(&mut self, die: u32, xt: u64, data: u32, strb: u8) -> Result<Resp> {
        Ok(self.host[die as usize].write_strb(&mut self.sim, xt, data, strb)?)
    }

    /// Host write of a 32-bit word (die-local, word aligned), any response.
    pub fn write_raw(&mut self, die: u32, local: u64, data: u32, strb: u8) -> Result<Resp> {
        let xt = Self::xt(local)?;
        Ok(self.host[die as usize].write_strb(&mut self.sim, xt, data, strb)?)
    }

    pub fn write32(&mut self, die: u32, local: u64, data: u32) -> Result<()> {
        self.write_strobed(die, local, data, 0xF)
    }

    fn write_strobed(&mut self, die: u32, local: u64, data: u32, strb: u8) -> Result<()> {
        match self.write_raw(die, local, data, strb)? {
            Resp::Okay => Ok(()),
            resp => Err(PkgError::Resp { die, local, resp }),
        }
    }

    pub fn read_raw(&mut self, die: u32, local: u64) -> Result<(u32, Resp)> {
        let xt = Self::xt(local)?;
        Ok(self.host[die as usize].read(&mut self.sim, xt)?)
    }

    pub fn read32(&mut self, die: u32, local: u64) -> Result<u32> {
        match self.read_raw(die, local)? {
            (v, Resp::Okay) => Ok(v),
            (_, resp) => Err(PkgError::Resp { die, local, resp }),
        }
    }

    /// Writes `bytes` at die-local `local` (any alignment), word by word with strobes.
    pub fn write_bytes(&mut self, die: u32, local: u64, bytes: &[u8]) -> Result<()> {
        let mut at = local;
        let end = local + bytes.len() as u64;
        while at < end {
            let word = at & !3;
            let mut data = 0u32;
            let mut strb = 0u8;
            for lane in 0..4u64 {
                let a = word + lane;
                if a >= at && a < end {
                    data |= u32::from(bytes[(a - local) as usize]) << (8 * lane);
                    strb |= 1 << lane;
                }
            }
            self.write_strobed(die, word, data, strb)?;
            at = word + 4;
        }
        Ok(())
    }

    /// Reads `len` bytes from die-local `local` (any alignment).
    pub fn read_bytes(&mut self, die: u32, local: u64, len: u64) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(len as usize);
        let mut word = local & !3;
        while word < local + len {
            let v = self.read32(die, word)?;
            for lane in 0..4u64 {
                let a = word + lane;
                if a >= local && a < local + len {
                    out.push((v >> (8 * lane)) as u8);
                }
            }
            word += 4;
        }
        Ok(out)
    }

    /// Runs the clock until `cond` holds, at most the cycle budget.
    pub fn tick_until<F: FnMut(&Package) -> bool>(
        &mut self,
        what: &str,
        mut cond: F,
    ) -> Result<u64> {
        for n in 0..self.budget {
            if cond(self) {
                return Ok(n);
            }
            self.sim.tick();
        }
        Err(PkgError::Timeout {
            what: what.to_string(),
            cycles: self.budget,
        })
    }

    fn wait_link(&mut self) -> Result<()> {
        for die in 0..2 {
            let status = reg_local_top("D2D", 0, "link_status");
            let mask = top_field_mask("D2D", "link_status", "link_up");
            let mut waited = 0;
            loop {
                if self.read32(die, status)? & mask != 0 {
                    break;
                }
                self.sim.ticks(16);
                waited += 16;
                if waited > self.budget {
                    return Err(PkgError::Timeout {
                        what: format!("die {die} link up"),
                        cycles: waited,
                    });
                }
            }
        }
        Ok(())
    }

    /// Programs iATU outbound region `region` of D2D controller 0 of `die`: every neighbor-routed
    /// address of the other die translates to that die's local (DIE-field) address.
    pub fn program_iatu(&mut self, die: u32, region: u64) -> Result<()> {
        let peer = 1 - die;
        let local_w = csrs().map.local_width;
        let base = fold_neighbor(0, peer);
        let limit = fold_neighbor((1u64 << local_w) - 1, peer);
        let target = soc_local(peer, 0);
        let reg = |role: &str| reg_local("D2D", 0, "region", region, role);
        for (role, v) in [
            ("base_lo", base as u32),
            ("base_hi", (base >> 32) as u32),
            ("limit_lo", limit as u32),
            ("limit_hi", (limit >> 32) as u32),
            ("target_lo", target as u32),
            ("target_hi", (target >> 32) as u32),
        ] {
            self.write32(die, reg(role), v)?;
        }
        let en = field_mask("D2D", "region", "ctrl", "enable");
        self.write32(die, reg("ctrl"), en)
    }

    /// Builds an empty ring pair for queue `q` of engine `e` on `die`: rings of `len` slots at
    /// HBM offsets `m2s_at` and `s2m_at`, ring registers programmed, queue enabled.
    pub fn setup_queue(
        &mut self,
        die: u32,
        e: u64,
        q: u64,
        len: u64,
        m2s_at: u64,
        s2m_at: u64,
    ) -> Result<()> {
        for (side, at) in [(Side::M2s, m2s_at), (Side::S2m, s2m_at)] {
            let base = soc_local(die, hbm_local(at));
            let ap = side.aperture();
            let reg = |role: &str| reg_local(ap, e, "queue", q, role);
            self.write32(die, reg("ring_base_lo"), base as u32)?;
            self.write32(die, reg("ring_base_hi"), (base >> 32) as u32)?;
            let len_mask = field_mask(ap, "queue", "ring_len", "len");
            self.write32(
                die,
                reg("ring_len"),
                (len << shift_of(len_mask)) as u32 & len_mask,
            )?;
            let cfg = self.read32(die, reg("cfg"))?;
            self.write32(
                die,
                reg("cfg"),
                cfg | field_mask(ap, "queue", "cfg", "enable"),
            )?;
            self.rings.insert((die, side, e, q), Ring::new(base, len));
        }
        Ok(())
    }

    /// `setup_queue` with the ring pairs of every (engine, queue) packed from HBM offset `base`
    /// on: `slots`-descriptor rings, M2S then S2M, never overlapping.
    pub fn setup_packed_queue(
        &mut self,
        die: u32,
        e: u64,
        q: u64,
        slots: u64,
        base: u64,
    ) -> Result<()> {
        let ring_bytes = slots * u64::from(desc("m2s").bytes);
        let at = base + 2 * (e * queues_per_group() + q) * ring_bytes;
        self.setup_queue(die, e, q, slots, at, at + ring_bytes)
    }

    pub fn ring(&self, die: u32, side: Side, e: u64, q: u64) -> &Ring {
        &self.rings[&(die, side, e, q)]
    }

    /// Writes one descriptor at the tail of a ring (not announced yet).
    fn post(&mut self, die: u32, side: Side, e: u64, q: u64, word: u128) -> Result<()> {
        let d = desc(side.desc());
        let ring = self.rings.get_mut(&(die, side, e, q)).expect("ring set up");
        let word = desc_set(d, word, "RING_ID", u128::from(ring.tail_id));
        let at = ring.base + ring.tail * u64::from(d.bytes);
        ring.tail += 1;
        ring.unrung += 1;
        if ring.tail == ring.len {
            ring.tail = 0;
            ring.tail_id = (ring.tail_id + 1) & ((1 << csrs().ring.ring_id_width) - 1);
        }
        let local = csrs()
            .soc
            .field("local", "LOCAL")
            .expect("LOCAL")
            .get(u128::from(at)) as u64;
        let bytes = word.to_le_bytes();
        for (i, chunk) in bytes[..d.bytes as usize].chunks(4).enumerate() {
            let v = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
            self.write32(die, local + 4 * i as u64, v)?;
        }
        Ok(())
    }

    /// Writes the M2S and S2M descriptors of one copy at the tails of queue `q` of engine `e`.
    pub fn post_copy(&mut self, die: u32, e: u64, q: u64, c: Copy) -> Result<()> {
        let max = csrs().ring.max_len_code;
        assert!(c.len >= 1 && c.len <= max, "copy length {}", c.len);
        let code = u128::from(c.len % max);
        let (m, s) = (desc("m2s"), desc("s2m"));
        let mut w = desc_set(m, 0, "LEN", code);
        w = desc_set(m, w, "BUF_PTR", u128::from(c.src));
        w = desc_set(m, w, "WRITE_BARRIER", u128::from(c.write_barrier));
        self.post(die, Side::M2s, e, q, w)?;
        let mut ws = desc_set(s, 0, "LEN", code);
        ws = desc_set(s, ws, "BUF_PTR", u128::from(c.dst));
        self.post(die, Side::S2m, e, q, ws)
    }

    /// Announces the descriptors written since the last doorbell of this ring (tail increment).
    pub fn doorbell(&mut self, die: u32, side: Side, e: u64, q: u64) -> Result<()> {
        self.doorbell_observed(die, side, e, q, |_| {})
    }

    /// [`Package::doorbell`], calling `observe` once per cycle of the register write.
    pub fn doorbell_observed<F: FnMut(&Sim)>(
        &mut self,
        die: u32,
        side: Side,
        e: u64,
        q: u64,
        observe: F,
    ) -> Result<()> {
        let ring = self.rings.get_mut(&(die, side, e, q)).expect("ring set up");
        let n = std::mem::take(&mut ring.unrung);
        if n == 0 {
            return Ok(());
        }
        let ap = side.aperture();
        let inc = field_mask(ap, "queue", "tail_inc", "inc");
        let v = (n << shift_of(inc)) as u32 & inc;
        let local = reg_local(ap, e, "queue", q, "tail_inc");
        let xt = Self::xt(local)?;
        match self.host[die as usize].write_observed(&mut self.sim, xt, v, 0xF, observe)? {
            Resp::Okay => Ok(()),
            resp => Err(PkgError::Resp { die, local, resp }),
        }
    }

    /// The hardware head of a ring (descriptor index).
    pub fn head(&mut self, die: u32, side: Side, e: u64, q: u64) -> Result<u64> {
        let ap = side.aperture();
        let v = self.read32(die, reg_local(ap, e, "queue", q, "head"))?;
        let m = field_mask(ap, "queue", "head", "offset");
        Ok(u64::from((v & m) >> shift_of(m)))
    }

    /// Polls both heads of a queue until they reach the software tails (every posted pair done).
    pub fn wait_drained(&mut self, die: u32, e: u64, q: u64) -> Result<()> {
        let start = self.cycle();
        for side in [Side::M2s, Side::S2m] {
            let tail = self.ring(die, side, e, q).tail;
            loop {
                if self.head(die, side, e, q)? == tail {
                    break;
                }
                self.sim.ticks(8);
                if self.cycle() - start > self.budget {
                    return Err(PkgError::Timeout {
                        what: format!(
                            "die {die} engine {e} queue {q} {side:?} head reaching {tail}"
                        ),
                        cycles: self.budget,
                    });
                }
            }
        }
        Ok(())
    }
}

/// Die-local address of top-level register `role` of instance `inst` of aperture `ap`'s block.
pub fn reg_local_top(ap: &str, inst: u64, role: &str) -> u64 {
    let r = block_of_aperture(ap)
        .reg_by_role(role)
        .unwrap_or_else(|| panic!("{ap} block has no {role} register"));
    aperture(ap).instance_base(inst) + r.offset
}

fn top_field_mask(ap: &str, role: &str, field: &str) -> u32 {
    block_of_aperture(ap)
        .reg_by_role(role)
        .and_then(|r| r.field_by_role(field))
        .map(|f| f.reg_mask())
        .unwrap_or_else(|| panic!("{ap}.{role}.{field}"))
}
