//! The firmware-like scenario driver: replays, on the package top, exactly the firmware steps the
//! golden model ran for a scenario (its gen stores, its start doorbells and semaphore stores, its
//! waits), each through the host port of the die whose core issues it, then hands the end state
//! to the [`scoreboard`](crate::scoreboard).
//!
//! A store whose routed SoC address lands on the issuing die goes through the host port's direct
//! window; any other store (RX writing its S2M entries into the TX die's rings, its doorbells and
//! right_push) goes through remap window 0 of the issuing die, programmed with the routed SoC
//! address, so it travels the fabric, the iATU and the link like the firmware's. A
//! wait_ge_and_dec is played by polling the READ window and writing the DEC window (the host port
//! has no sequencer port).

use crate::axil::Timing;
use crate::hooks::MonWrite;
use crate::package::{Package, PkgError};
use crate::regmodel::views;
use crate::scoreboard;
use crate::sim::Sim;
use std::path::{Path, PathBuf};
use xdie_model::layout::SemOp;
use xdie_model::scenario::{ModelRun, Scenario};
use xdie_model::state::SemValue;
use xdie_model::system::{FwStep, FwWrite};
use xdie_model::topology::Core;
use xdie_model::{DieId, Side};

/// Phase and fraction done, for a progress bar.
#[derive(Debug, Clone, Copy)]
pub struct Progress<'a> {
    pub phase: &'a str,
    pub done: u64,
    pub total: u64,
}

#[derive(Debug, Clone)]
pub struct RtlOutcome {
    /// Clock cycles of the whole run (reset, setup, loading, transfer, read-back).
    pub total_cycles: u64,
    /// Cycles from the first launch doorbell to the cycle completion was observed.
    pub transfer_cycles: u64,
    /// Every nonzero semaphore read back from the RTL.
    pub sems: Vec<SemValue>,
    /// Scoreboard mismatches, first first.
    pub mismatches: Vec<String>,
    /// How landed writes were observed.
    pub monitor: &'static str,
    pub trace: Option<PathBuf>,
}

#[derive(Debug, Clone)]
pub enum RtlError {
    /// The RTL cannot run this scenario (no package top, or more packages than it holds).
    NotAvailable(String),
    /// The driver failed (bus error, timeout); the message says where.
    Driver(String),
}

impl std::fmt::Display for RtlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RtlError::NotAvailable(m) => write!(f, "not available: {m}"),
            RtlError::Driver(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for RtlError {}

impl From<PkgError> for RtlError {
    fn from(e: PkgError) -> Self {
        RtlError::Driver(e.to_string())
    }
}

/// The xt range the driver's remap window claims: the bottom of the remapped xt space, one
/// naturally aligned block of 2^WINDOW_BITS bytes (the whole HBM aperture fits in one).
const WINDOW_BITS: u32 = 24;

/// Cycles between two completion polls.
const POLL: u64 = 256;

pub(crate) struct Driver<'a> {
    pub pkg: Package,
    pub model: &'a ModelRun,
    pub chip: u64,
    /// SoC block remap window 0 of each die maps now.
    windows: [Option<u64>; 2],
    /// Every firmware store the driver made, so the monitor's log can tell them from DMA writes.
    pub stores: Vec<FwStore>,
    /// What the write monitor saw during the legs, in landing order.
    pub writes: Vec<MonWrite>,
}

/// A firmware store: where it lands and the cycles between its issue and its write response
/// (it has landed by then).
#[derive(Debug, Clone)]
pub struct FwStore {
    pub core: Core,
    pub die: u32,
    pub local: u64,
    pub len: u64,
    pub cycles: (u64, u64),
}

impl<'a> Driver<'a> {
    pub(crate) fn die(&self, d: DieId) -> u32 {
        d.die as u32
    }

    fn die_id(&self, die: u32) -> DieId {
        DieId {
            chip: self.chip,
            die: u64::from(die),
        }
    }

    /// Iatu region 0 of both dies, every ring the model used, the constant 1 in each HBM.
    fn setup(&mut self) -> Result<(), RtlError> {
        for die in 0..2 {
            self.pkg.program_iatu(die, 0)?;
        }
        let sys = &self.model.sys;
        let hbm = sys.layout.apertures.hbm.base;
        let mut queues: Vec<(u32, u32, u32)> = sys
            .end_state()
            .queues
            .iter()
            .map(|q| (q.die.die as u32, q.engine, q.queue))
            .collect();
        queues.dedup();
        for (die, e, q) in queues {
            let m2s = sys.ring_base(e, Side::M2s, q) - hbm;
            let s2m = sys.ring_base(e, Side::S2m, q) - hbm;
            self.pkg.setup_queue(
                die,
                u64::from(e),
                u64::from(q),
                sys.config.ring_len,
                m2s,
                s2m,
            )?;
        }
        let one = sys.const_one_bytes();
        for die in 0..2 {
            self.pkg.write_bytes(die, sys.const_one_addr(), &one)?;
        }
        Ok(())
    }

    fn load(&mut self, progress: &mut dyn FnMut(Progress)) -> Result<(), RtlError> {
        let total: u64 = self.model.fills.iter().map(|f| f.bytes.len() as u64).sum();
        let mut done = 0;
        for f in &self.model.fills {
            let local = self.model.sys.layout.sbuf_addr(f.partition, f.offset);
            let die = self.die(f.die);
            self.pkg.poke(die, local, &f.bytes)?;
            done += f.bytes.len() as u64;
            progress(Progress {
                phase: "load source",
                done,
                total,
            });
        }
        Ok(())
    }

    /// Points remap window 0 of `die` at the SoC block holding `soc`; returns the xt address.
    fn window(&mut self, die: u32, soc: u64) -> Result<u64, RtlError> {
        let low = (1u64 << WINDOW_BITS) - 1;
        let block = soc & !low;
        if self.windows[die as usize] != Some(block) {
            let (v, r) = (views(), &views().remap);
            let reg = |reg| v.remap_reg(0, reg);
            let first = self.windows[die as usize].is_none();
            self.pkg.write32(die, reg(&r.soc_lo), block as u32)?;
            self.pkg
                .write32(die, reg(&r.soc_hi), (block >> 32) as u32)?;
            if first {
                self.pkg.write32(die, reg(&r.xt_addr), 0)?;
                self.pkg.write32(die, reg(&r.u_mask), !(low as u32))?;
                self.pkg.write32(die, reg(&r.l_mask), low as u32)?;
                self.pkg.write32(die, reg(&r.ctrl), r.valid.reg_mask())?;
            }
            self.windows[die as usize] = Some(block);
        }
        Ok(soc & low)
    }

    /// A firmware store of `core` (on die `from`), remembered for the monitor's log.
    fn store(&mut self, core: Core, from: u32, w: &FwWrite) -> Result<(), RtlError> {
        let start = self.pkg.cycle();
        self.issue(from, w)?;
        self.stores.push(FwStore {
            core,
            die: w.die.die as u32,
            local: w.local,
            len: w.bytes.len() as u64,
            cycles: (start, self.pkg.cycle()),
        });
        Ok(())
    }

    /// Puts a firmware store on die `from`'s host port: directly when it lands there, through
    /// remap window 0 otherwise.
    fn issue(&mut self, from: u32, w: &FwWrite) -> Result<(), RtlError> {
        let (to, local) = self
            .model
            .sys
            .route(self.die_id(from), w.soc)
            .map_err(|e| RtlError::Driver(e.to_string()))?;
        if to.chip == self.chip && to.die == u64::from(from) {
            self.pkg.write_bytes(from, local, &w.bytes)?;
            return Ok(());
        }
        let mut at = 0usize;
        while at < w.bytes.len() {
            let soc = w.soc + at as u64;
            let lane = (soc & 3) as usize;
            let n = (4 - lane).min(w.bytes.len() - at);
            let mut data = 0u32;
            let mut strb = 0u8;
            for i in 0..n {
                data |= u32::from(w.bytes[at + i]) << (8 * (lane + i));
                strb |= 1 << (lane + i);
            }
            let xt = self.window(from, soc & !3)?;
            match self.pkg.write_xt(from, xt, data, strb)? {
                crate::Resp::Okay => {}
                resp => {
                    return Err(RtlError::Driver(format!(
                        "die {from}: routed store to {soc:#x} answered {resp:?}"
                    )))
                }
            }
            at += n;
        }
        Ok(())
    }

    fn sem_read(&mut self, die: u32, sem: u64) -> Result<i64, RtlError> {
        let a = self.model.sys.layout.sem_addr(SemOp::Read, sem);
        Ok(i64::from(self.pkg.read32(die, a)? as i32))
    }

    /// wait_ge_and_dec on `die`'s EVT_SEM, played by the host: poll READ, then write DEC.
    fn wait_ge_dec(&mut self, die: u32, sem: u64, value: u64) -> Result<(), RtlError> {
        let start = self.pkg.cycle();
        loop {
            let v = self.sem_read(die, sem)?;
            if v >= value as i64 {
                break;
            }

            if self.pkg.cycle() - start > self.pkg.budget {
                return Err(RtlError::Driver(format!(
                    "die {die}: semaphore {sem} stayed at {v}, below {value}, for {} cycles",
                    self.pkg.budget
                )));
            }
            self.pkg.sim.ticks(POLL / 4);
        }
        let dec = self.model.sys.layout.sem_addr(SemOp::Dec, sem);
        self.pkg.write32(die, dec, value as u32)?;
        Ok(())
    }

    fn steps(
        &mut self,
        core: Core,
        die: u32,
        steps: &[FwStep],
        first_launch: &mut Option<u64>,
        tx: bool,
    ) -> Result<(), RtlError> {
        for s in steps {
            match s {
                FwStep::WaitGeDec { sem, value, .. } => self.wait_ge_dec(die, *sem, *value)?,
                FwStep::Store(w) => {
                    if tx && first_launch.is_none() {
                        *first_launch = Some(self.pkg.cycle());
                    }
                    self.store(core, die, w)?;
                }
            }
        }
        Ok(())
    }

    /// Every leg in file order: TX gen, RX gen, RX start, the chain wait, TX start.
    fn legs(&mut self, sc: &Scenario) -> Result<u64, RtlError> {
        let mut first_launch = None;
        let model = self.model;
        for (i, l) in model.legs.iter().enumerate() {
            let (txd, rxd) = (self.die(l.tx_die), self.die(l.rx_die));
            let (txc, rxc) = (sc.legs[i].tx, sc.legs[i].rx);
            for w in &l.tx_gen.writes {
                self.store(txc, txd, w)?;
            }
            for w in &l.rx_gen.writes {
                self.store(rxc, rxd, w)?;
            }
            self.steps(rxc, rxd, &l.rx_start, &mut first_launch, false)?;
            if let Some(j) = sc.legs[i].after {
                let prev = &sc.legs[j];
                self.wait_ge_dec(txd, prev.remote_sem, prev.n_engines())?;
            }
            self.steps(txc, txd, &l.tx_start, &mut first_launch, true)?;
        }
        Ok(first_launch.unwrap_or_else(|| self.pkg.cycle()))
    }

    /// Polls every used queue's head until it reaches the model's, and every semaphore the model
    /// ends nonzero until it holds the model's value.
    fn wait_done(&mut self, progress: &mut dyn FnMut(Progress)) -> Result<Vec<String>, RtlError> {
        let end = self.model.sys.end_state();
        let total: u64 = end.queues.iter().map(|q| q.head).sum::<u64>().max(1);
        let start = self.pkg.cycle();
        let budget = self.pkg.budget;
        loop {
            let mut done = 0;
            let mut all = true;
            for q in &end.queues {
                let h = self.pkg.head(
                    q.die.die as u32,
                    q.side,
                    u64::from(q.engine),
                    u64::from(q.queue),
                )?;
                done += h.min(q.head);
                all &= h == q.head;
            }
            if all {
                for s in &end.sems {
                    let v = self.sem_read(s.die.die as u32, s.sem)?;
                    all &= v == s.value;
                }
            }
            let seen = self.pkg.take_writes();
            self.writes.extend(seen);
            progress(Progress {
                phase: "transfer",
                done,
                total,
            });
            let errs: Vec<String> = (0..2)
                .filter(|&die| self.pkg.err(die) != 0)
                .map(|die| {
                    format!(
                        "die {die}: engine error flags {:#x} (bit 0 read, bit 1 write error)",
                        self.pkg.err(die)
                    )
                })
                .collect();
            if !errs.is_empty() {
                // Let what can still finish finish, then let the scoreboard say what differs.
                self.pkg.sim.ticks(16 * POLL);
                return Ok(errs);
            }
            if all {
                return Ok(Vec::new());
            }
            if self.pkg.cycle() - start > budget {
                return Err(RtlError::Driver(format!(
                    "the run did not complete within {budget} cycles ({done} of {total} descriptors)"
                )));
            }
            self.pkg.sim.ticks(POLL);
        }
    }
}

pub const MONITOR: &str = "write monitor: the RTL's simulation hooks report every SBUF write and \
every EVT_SEM increment of both dies in the cycle it lands; that log, with the driver's own \
stores marked as firmware, goes through the model's leg checker (every byte lands once inside \
its destination, remote_sem completes only after the last data byte, local_sem rises by the \
engine count). Sources are loaded and SBUF is read back through the memories' backdoor";

pub fn run(
    sc: &Scenario,
    model: &ModelRun,
    seed: u64,
    trace: Option<&Path>,
    progress: &mut dyn FnMut(Progress),
) -> Result<RtlOutcome, RtlError> {
    if sc.packages.len() != 1 {
        return Err(RtlError::NotAvailable(format!(
            "the scenario spans {} packages; the package top holds one",
            sc.packages.len()
        )));
    }
    if let Some(why) = crate::RTL_UNAVAILABLE {
        return Err(RtlError::Driver(format!(
            "the RTL did not verilate when xdie was built (regenerate with `xdie gen` and rebuild):\n{why}"
        )));
    }
    let kind = Package::kind().ok_or_else(|| {
        RtlError::NotAvailable(
            "the package top is not built in (build with `--features package`)".into(),
        )
    })?;
    let chip = sc.packages[0];
    let sim = match trace {
        Some(p) => Sim::traced(kind, p),
        None => Sim::new(kind),
    }
    .map_err(|e| RtlError::Driver(e.to_string()))?;
    let timing = Timing {
        max_valid_delay: 1,
        ready_stall_pct: 10,
    };
    let pkg = Package::new(sim, seed, timing, chip)?;
    let mut d = Driver {
        pkg,
        model,
        chip,
        windows: [None; 2],
        stores: Vec::new(),
        writes: Vec::new(),
    };
    let bytes: u64 = sc.legs.iter().map(|l| l.bytes()).sum();
    d.pkg.budget = 1_000_000 + 64 * bytes;
    d.setup()?;
    d.load(progress)?;
    d.pkg.monitor()?;
    let t0 = d.legs(sc)?;
    let errs = d.wait_done(progress)?;
    let t1 = d.pkg.cycle();
    let seen = d.pkg.take_writes();
    d.writes.extend(seen);
    // Reading the end state back is test-bench traffic, not firmware: no random delays there.
    d.pkg.set_timing(Timing::FAST);
    let mut board = scoreboard::compare(&mut d, progress)?;
    board.mismatches.splice(0..0, errs);
    let trace = d.pkg.sim.stop_trace();
    Ok(RtlOutcome {
        total_cycles: d.pkg.cycle(),
        transfer_cycles: t1 - t0,
        sems: board.sems,
        mismatches: board.mismatches,
        monitor: MONITOR,
        trace,
    })
}
