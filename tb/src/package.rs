//! Firmware-level driver of the package top (`xdie_pkg_top`): two dies, each reached through its
//! host port the way its Q7 firmware would, with die-local addresses sent through the host
//! port's direct window.
//!
//! Every address, offset, field position and descriptor layout comes from the CSR model; the
//! driver keeps a software copy of each ring it built (tail and tail ring id), like firmware.

use crate::axil::{AxilError, AxilMaster, Resp, Timing};
use crate::duts::DutKind;
use crate::faults::{Injector, LinkStats};
use crate::regmodel::views;
use crate::sim::{Port, Sim, SimError};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;
use xdie_csr::{Field, Views};

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
    /// The die-to-die link stayed down longer than a run can wait for it.
    LinkDown {
        since: u64,
        cycles: u64,
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
            PkgError::LinkDown { since, cycles } => write!(
                f,
                "the die-to-die link has been down for {cycles} cycles (since cycle {since} of \
                 the legs): the legs that need it cannot finish, and none is reported done"
            ),
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

pub use xdie_csr::Side;

fn v() -> &'static Views {
    views()
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
            tail_id: u64::from(v().ring.initial_ring_id),
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
    pub(crate) host: [AxilMaster; 2],
    idle: [Port; 2],
    err: [Port; 2],
    rings: BTreeMap<(u32, Side, u64, u64), Ring>,
    /// Cycle budget of every wait.
    pub budget: u64,
    /// What the link went through while faults were injected (see [`Package::inject_faults`]).
    link: Option<Rc<RefCell<LinkStats>>>,
}

/// Cycles a run waits for a link that is down before it gives up: well beyond any spell a
/// scenario means to survive (a test holds the link down for 10,000 cycles).
pub const LINK_DOWN_LIMIT: u64 = 200_000;

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
            link: None,
        };
        for h in &mut pkg.host {
            h.timeout = 10_000;
        }
        pkg.wait_link()?;
        Ok(pkg)
    }

    /// From the next cycle on, the link suffers `faults` (random draws from `seed`); cycle 0 of
    /// the faults' schedule is the next cycle.
    pub fn inject_faults(&mut self, faults: xdie_model::scenario::Faults, seed: u64) -> Result<()> {
        let port = self.sim.require_port("link_fault_i")?;
        let health = vec![
            self.sim.require_port("d0_link_health_o")?,
            self.sim.require_port("d1_link_health_o")?,
        ];
        // Both flits carry the beat's data in their low bits: a flipped bit drawn below it hits
        // payload in either.
        let flit_bits = 8 * v().params.data_bytes as u32;
        self.link = Some(Injector::install(
            &mut self.sim,
            port,
            health,
            flit_bits,
            faults,
            seed,
        ));
        // A host access across a link that is down waits; let the link's own limit speak first.
        for h in &mut self.host {
            h.timeout = h.timeout.max(LINK_DOWN_LIMIT as u32 + 10_000);
        }
        Ok(())
    }

    /// Stops injecting faults; returns what the link went through.
    pub fn stop_faults(&mut self) -> Option<LinkStats> {
        self.sim.set_cycle_hook(None);
        if let Ok(p) = self.sim.require_port("link_fault_i") {
            let zero = vec![0u32; p.info().width.div_ceil(32) as usize];
            self.sim.set(p, &zero);
        }
        self.link.take().map(|s| s.borrow().clone())
    }

    /// An error once the link has been down for [`LINK_DOWN_LIMIT`] cycles while faults are
    /// injected.
    pub fn check_link(&self) -> Result<()> {
        if let Some(st) = &self.link {
            let st = st.borrow();
            if let Some(since) = st.down_since {
                let cycles = st.cycles - since;
                if cycles >= LINK_DOWN_LIMIT {
                    return Err(PkgError::LinkDown { since, cycles });
                }
            }
        }
        Ok(())
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
        let base = v().params.host_direct_base;
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
        let iatu = &v().iatu;
        for die in 0..2 {
            let status = v().iatu_top_reg(0, &iatu.link_status);
            let mask = iatu.link_up.reg_mask();
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
        let peer = u64::from(1 - die);
        let (v, l) = (v(), &v().iatu);
        let soc = &v.soc;
        let local_max = soc.local.local.value_mask() as u64;
        let base = soc.fold_neighbor(0, peer);
        let limit = soc.fold_neighbor(local_max, peer);
        let target = soc.soc_local(peer, 0);
        for (reg, value) in [
            (&l.base_lo, base as u32),
            (&l.base_hi, (base >> 32) as u32),
            (&l.limit_lo, limit as u32),
            (&l.limit_hi, (limit >> 32) as u32),
            (&l.target_lo, target as u32),
            (&l.target_hi, (target >> 32) as u32),
        ] {
            self.write32(die, v.iatu_reg(0, region, reg), value)?;
        }
        self.write32(die, v.iatu_reg(0, region, &l.ctrl), l.enable.reg_mask())
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
            let base = v().soc.soc_local(u64::from(die), v().hbm_addr(at));
            let sv = v().side(side);
            let l = &sv.layout;
            let reg = |r| sv.queue_reg(e, q, r);
            self.write32(die, reg(&l.ring_base_lo), base as u32)?;
            self.write32(die, reg(&l.ring_base_hi), (base >> 32) as u32)?;
            self.write32(die, reg(&l.ring_len), field_value(&l.len, len))?;
            let cfg = self.read32(die, reg(&l.cfg))?;
            self.write32(die, reg(&l.cfg), cfg | l.enable.reg_mask())?;
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
        let ring_bytes = slots * u64::from(v().m2s_desc.format.bytes);
        let at = base + 2 * (e * v().queues() + q) * ring_bytes;
        self.setup_queue(die, e, q, slots, at, at + ring_bytes)
    }

    pub fn ring(&self, die: u32, side: Side, e: u64, q: u64) -> &Ring {
        &self.rings[&(die, side, e, q)]
    }

    /// Writes one descriptor at the tail of a ring (not announced yet).
    fn post(&mut self, die: u32, side: Side, e: u64, q: u64, word: u128) -> Result<()> {
        let d = v().desc(side);
        let ring = self.rings.get_mut(&(die, side, e, q)).expect("ring set up");
        let word = d.ring_id.set(word, u128::from(ring.tail_id));
        let bytes_per = u64::from(d.format.bytes);
        let at = ring.base + ring.tail * bytes_per;
        ring.tail += 1;
        ring.unrung += 1;
        if ring.tail == ring.len {
            ring.tail = 0;
            ring.tail_id = (ring.tail_id + 1) & ((1 << v().ring.ring_id_width) - 1);
        }
        let local = v().soc.local_of(at);
        let bytes = word.to_le_bytes();
        for (i, chunk) in bytes[..bytes_per as usize].chunks(4).enumerate() {
            let v = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
            self.write32(die, local + 4 * i as u64, v)?;
        }
        Ok(())
    }

    /// Writes the M2S and S2M descriptors of one copy at the tails of queue `q` of engine `e`.
    pub fn post_copy(&mut self, die: u32, e: u64, q: u64, c: Copy) -> Result<()> {
        let max = v().ring.max_len_code;
        assert!(c.len >= 1 && c.len <= max, "copy length {}", c.len);
        let code = u128::from(v().len_code(c.len));
        let (m, s) = (&v().m2s_desc, &v().s2m_desc);
        let mut w = m.len.set(0, code);
        w = m.buf_ptr.set(w, u128::from(c.src));
        if let Some(barrier) = &m.write_barrier {
            w = barrier.set(w, u128::from(c.write_barrier));
        }
        self.post(die, Side::M2s, e, q, w)?;
        let ws = s.len.set(0, code);
        let ws = s.buf_ptr.set(ws, u128::from(c.dst));
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
        let sv = v().side(side);
        let data = field_value(&sv.layout.inc, n);
        let local = sv.doorbell(e, q);
        let xt = Self::xt(local)?;
        match self.host[die as usize].write_observed(&mut self.sim, xt, data, 0xF, observe)? {
            Resp::Okay => Ok(()),
            resp => Err(PkgError::Resp { die, local, resp }),
        }
    }

    /// The hardware head of a ring (descriptor index).
    pub fn head(&mut self, die: u32, side: Side, e: u64, q: u64) -> Result<u64> {
        let sv = v().side(side);
        let word = self.read32(die, sv.queue_reg(e, q, &sv.layout.head))?;
        Ok(field_of(&sv.layout.head_offset, word))
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

/// `value` placed in field `f` of a 32-bit register (truncated to the field).
pub fn field_value(f: &Field, value: u64) -> u32 {
    (value << f.lsb) as u32 & f.reg_mask()
}

/// Field `f` of a 32-bit register word.
pub fn field_of(f: &Field, word: u32) -> u64 {
    u64::from((word & f.reg_mask()) >> f.lsb)
}
