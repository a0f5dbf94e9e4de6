//! The scenario driver: boots the package top, or the composed system of a scenario that names
//! its topology (crate::system: one die-node model per die; route tables, iATU, rings, the
//! constant 1, the sources), runs the reference
//! firmware (fw/) of every context the scenario uses against it ([`crate::fw`]: one thread per
//! context, every MMIO access an AXI4-Lite transaction on the host port of the context's die),
//! waits for completion and hands the end state to the [`scoreboard`](crate::scoreboard), which
//! compares the descriptor rings byte for byte with the model's first.

use crate::axil::Timing;
use crate::faults::LinkStats;
use crate::fw::{self, FwSystem, Op, Program, WaitMode};
use crate::hooks::MonWrite;
use crate::package::{Package, PkgError};
use crate::scoreboard;
use crate::sim::Sim;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use xdie_model::layout::SemOp;
use xdie_model::mesh::routes::RouteTables;
use xdie_model::scenario::{ModelRun, Scenario};
use xdie_model::state::SemValue;
use xdie_model::topology::{Core, Lane};
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
    /// Cycles from the legs' first firmware step (cycle 0 of a fault schedule) to the first
    /// launch doorbell.
    pub launch_cycle: u64,
    /// Wall-clock seconds those transfer cycles took to simulate (firmware threads included):
    /// the simulation speed of the run, a figure for the report, never a pass criterion.
    pub transfer_seconds: f64,
    /// Wall-clock seconds of the whole legs phase (the firmware's setup before the first
    /// launch, then the transfer): what `transfer_seconds` measured before it covered the
    /// transfer alone.
    pub legs_seconds: f64,
    /// Every nonzero semaphore read back from the RTL.
    pub sems: Vec<SemValue>,
    /// Scoreboard mismatches, first first.
    pub mismatches: Vec<String>,
    /// How landed writes were observed.
    pub monitor: &'static str,
    /// What drove the RTL: [`DRIVER`].
    pub driver: &'static str,
    /// MMIO accesses of all firmware contexts (each one AXI4-Lite transaction).
    pub fw_accesses: u64,
    /// Cycles those accesses took together (issue to response each).
    pub fw_bus_cycles: u64,
    /// Of those, the accesses through a remap window (to another die) and their cycles.
    pub fw_window_accesses: u64,
    pub fw_window_bus_cycles: u64,
    /// Every store the firmware made, where it landed.
    pub fw_stores: Vec<FwStore>,
    /// Per leg that follows another (`after`), in leg order: cycles from the completion of the
    /// leg it follows (the increment that brings that leg's remote_sem to its target lands) to
    /// the response of its own first launch doorbell: what launching costs between two steps.
    pub launch_gaps: Vec<(usize, i64)>,
    /// What the die-to-die link went through, when the scenario injects faults.
    pub link: Option<LinkStats>,
    pub trace: Option<PathBuf>,
    /// What ran: "package top" or "composed system", the models (one per die when composed)
    /// and the threads they ran on.
    pub rtl_system: &'static str,
    pub models: u32,
    pub threads: usize,
    /// Dies simulated.
    pub dies: u32,
}

/// The RTL is driven by the reference C firmware of every context.
pub const DRIVER: &str = "firmware";

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

/// Cycles between two completion polls.
const POLL: u64 = 256;

pub(crate) struct Driver<'a> {
    pub pkg: Package,
    pub model: &'a ModelRun,
    /// MMIO accesses the firmware made, and the cycles they took.
    pub accesses: u64,
    pub bus_cycles: u64,
    pub window_accesses: u64,
    pub window_bus_cycles: u64,
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
    /// The context of the core that stored (its PRID parity).
    pub lane: xdie_model::Lane,
    pub die: u32,
    pub local: u64,
    pub len: u64,
    pub cycles: (u64, u64),
}

impl<'a> Driver<'a> {
    /// The host port (die number of the model) of a die of the system.
    pub(crate) fn die(&self, d: DieId) -> u32 {
        self.pkg
            .index(d)
            .unwrap_or_else(|| panic!("{d} is not a die of the simulated system"))
    }

    fn dies(&self) -> u32 {
        self.pkg.dies().len() as u32
    }

    /// What the driver programs before any firmware runs: on the package top iATU region 0 of
    /// both dies (the neighbor translation); on a composed chip-id system every die's route table
    /// (the topology's tables, `RouteTables::csr_writes`) and one identity iATU region on each of
    /// its linked ports; on a composed neighbor system the iATU regions of the model's fabric
    /// (`Fabric::neighbor`, docs/mesh.md). Then every ring the model used and the constant 1 in each
    /// HBM.
    fn setup(&mut self) -> Result<(), RtlError> {
        match &self.model.mesh {
            None => {
                for die in 0..self.dies() {
                    self.pkg.program_iatu(die, 0)?;
                }
            }
            Some(mesh) => match (mesh.view, self.model.sys.fabric()) {
                // The neighbor view reads no route table: the iATU regions the model routes
                // through make each hop consume its field of the path.
                (xdie_model::AddrView::Neighbor, Some(fabric)) => {
                    self.pkg.program_iatu_regions(fabric)?
                }
                _ => self.pkg.program_mesh(&RouteTables::compute(mesh))?,
            },
        }
        let sys = &self.model.sys;
        let hbm = sys.layout.apertures.hbm.base;
        let mut queues: Vec<(u32, u32, u32)> = sys
            .end_state()
            .queues
            .iter()
            .map(|q| (self.die(q.die), q.engine, q.queue))
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
        for die in 0..self.dies() {
            self.pkg.write_bytes(die, sys.const_one_addr(), &one)?;
        }
        Ok(())
    }

    fn load(&mut self, progress: &mut dyn FnMut(Progress)) -> Result<(), RtlError> {
        let total: u64 = self.model.fills.iter().map(|f| f.bytes.len() as u64).sum();
        let mut done = 0;
        for f in &self.model.fills {
            let local = self
                .model
                .sys
                .layout
                .sbuf_addr(f.tpb, f.partition, f.offset);
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

    /// Every context's program: per leg in file order, TX: gen, the chain wait, start; RX: gen,
    /// start, with every gen moved ahead as far as the firmware holds pending gens
    /// ([`fw::max_pending`]): a context first writes the descriptors of its first legs, then per
    /// leg waits and starts, and writes the gen of a later leg after each start. So the rings
    /// hold a step's descriptors before the step may begin, and what stands between the end of
    /// one step and the launch of the next is the wait and the doorbells alone, not the dozens of
    /// descriptor stores of a gen (docs/collectives.md, "Cycles and the bound"). Each ring gets
    /// its legs' entries in the same order as before (one context writes it, in leg order), and
    /// the model's rings end the same. The words are the model's encoding
    /// (csrs/ext_inst.yaml); num_descriptors is the count the model's gen reports for each
    /// engine's ring.
    fn programs(&self, sc: &Scenario) -> Result<Vec<Program>, RtlError> {
        let csrs = crate::regmodel::csrs();
        let enc = |r: xdie_model::Result<Vec<u8>>| r.map_err(|e| RtlError::Driver(e.to_string()));
        /// One leg of one context: its gen, the chain wait before its start (TX), its start.
        struct LegOps {
            gen: Op,
            wait: Option<Op>,
            start: Op,
        }
        let mut progs: Vec<(Program, Vec<LegOps>)> = Vec::new();
        let at = |progs: &mut Vec<(Program, Vec<LegOps>)>, core: Core, lane: Lane| -> usize {
            if let Some(i) = progs
                .iter()
                .position(|p| p.0.core == core && p.0.lane == lane)
            {
                return i;
            }
            progs.push((
                Program {
                    core,
                    lane,
                    ops: Vec::new(),
                    // Waits (left_pop, the chain) and right_push through the sequencer slots.
                    wait_mode: WaitMode::Sequencer,
                },
                Vec::new(),
            ));
            progs.len() - 1
        };
        for (i, l) in sc.legs.iter().enumerate() {
            let run = &self.model.legs[i];
            let codes = &csrs.views.acc_codes;
            let n = |g: &xdie_model::GenOutput| g.num_descriptors;
            let wait = l.after.map(|j| {
                let prev = &sc.legs[j];
                Op::WaitGeDec {
                    sem: prev.remote_sem as u32,
                    value: prev.n_engines() as u32,
                }
            });
            let tx = at(&mut progs, l.tx, Lane::Tx);
            progs[tx].1.push(LegOps {
                gen: Op::Gen(enc(l.gen_word(Lane::Tx, codes).encode(csrs))?),
                wait,
                start: Op::Start(enc(l.start_word(Lane::Tx, n(&run.tx_gen)).encode(csrs))?),
            });
            let rx = at(&mut progs, l.rx, Lane::Rx);
            progs[rx].1.push(LegOps {
                gen: Op::Gen(enc(l.gen_word(Lane::Rx, codes).encode(csrs))?),
                wait: None,
                start: Op::Start(enc(l.start_word(Lane::Rx, n(&run.rx_gen)).encode(csrs))?),
            });
        }
        // A context may gen ahead only on rings no other context writes: a start's guard counts
        // the ring's unposted entries as the context's own pending gens (contexts of two cores
        // that share an engine and queue keep one gen at a time, as before).
        let mut writers: std::collections::BTreeMap<_, Vec<(Core, Lane)>> = Default::default();
        for (l, run) in sc.legs.iter().zip(&self.model.legs) {
            for (g, who) in [
                (&run.tx_gen, (l.tx, Lane::Tx)),
                (&run.rx_gen, (l.rx, Lane::Rx)),
            ] {
                for e in &g.engines {
                    let w = writers
                        .entry((run.tx_die, e.engine, e.queue, e.side))
                        .or_default();
                    if !w.contains(&who) {
                        w.push(who);
                    }
                }
            }
        }
        let shared = |who: (Core, Lane)| writers.values().any(|w| w.len() > 1 && w.contains(&who));
        let most = fw::max_pending(self.model.sys.topology.view).max(1);
        Ok(progs
            .into_iter()
            .map(|(mut p, legs)| {
                let ahead = if shared((p.core, p.lane)) { 1 } else { most };
                let mut gens: Vec<Op> = Vec::with_capacity(legs.len());
                let mut rest = Vec::with_capacity(legs.len());
                for l in legs {
                    gens.push(l.gen);
                    rest.push((l.wait, l.start));
                }
                let mut gens = gens.into_iter();
                p.ops.extend(gens.by_ref().take(ahead));
                for (wait, start) in rest {
                    p.ops.extend(wait);
                    p.ops.push(start);
                    p.ops.extend(gens.next());
                }
                p
            })
            .collect())
    }

    /// [`RtlOutcome::launch_gaps`], from the write monitor's semaphore increments and the
    /// firmware's launch doorbell stores; a leg whose completion or launch the logs do not show
    /// is left out.
    fn launch_gaps(&self, sc: &Scenario) -> Vec<(usize, i64)> {
        use std::collections::BTreeMap;
        let sys = &self.model.sys;
        // Increments of every (die, core, semaphore), in landing order.
        let mut incs: BTreeMap<(u32, u64, u64), Vec<u64>> = BTreeMap::new();
        // Each semaphore's increment address, looked up once (not per monitored write).
        let sem_of: BTreeMap<u64, (u64, u64)> = (0..sys.layout.cores())
            .flat_map(|c| (0..sys.layout.sem_count()).map(move |s| (c, s)))
            .map(|(c, s)| (sys.layout.sem_addr(c, SemOp::Inc, s), (c, s)))
            .collect();
        for w in &self.writes {
            if w.what == crate::hooks::MonKind::SemInc {
                if let Some(&(core, sem)) = sem_of.get(&w.local) {
                    let n = w
                        .bytes
                        .iter()
                        .rev()
                        .fold(0u64, |a, &b| a << 8 | u64::from(b));
                    let v = incs.entry((w.die, core, sem)).or_default();
                    v.extend(std::iter::repeat_n(w.cycle, n as usize));
                }
            }
        }
        // The increment that completes each leg: its remote_sem's, counted over the legs into it.
        let mut into: BTreeMap<(u32, u64, u64), usize> = BTreeMap::new();
        let mut done: Vec<Option<u64>> = Vec::new();
        for (l, run) in sc.legs.iter().zip(&self.model.legs) {
            let key = (self.die(run.rx_die), run.rx_tpb, l.remote_sem);
            let k = into.entry(key).or_default();
            *k += l.n_engines() as usize;
            done.push(incs.get(&key).and_then(|v| v.get(*k - 1)).copied());
        }
        // Each TX core's launch doorbells, in order: a leg's first is its launch.
        let mut launches: BTreeMap<Core, Vec<u64>> = BTreeMap::new();
        for s in &self.stores {
            if fw::is_launch(s.local) {
                launches.entry(s.core).or_default().push(s.cycles.1);
            }
        }
        let mut used: BTreeMap<Core, usize> = BTreeMap::new();
        let mut gaps = Vec::new();
        for (i, l) in sc.legs.iter().enumerate() {
            let k = used.entry(l.tx).or_default();
            let launch = launches.get(&l.tx).and_then(|v| v.get(*k)).copied();
            *k += match l.launch {
                xdie_model::scenario::LaunchMode::PerEngine => l.n_engines() as usize,
                xdie_model::scenario::LaunchMode::Broadcast => 1,
            };
            if let (Some(j), Some(at)) = (l.after, launch) {
                if let Some(prev) = done[j] {
                    gaps.push((i, at as i64 - prev as i64));
                }
            }
        }
        gaps
    }

    fn sem_read(&mut self, die: u32, tpb: u64, sem: u64) -> Result<i64, RtlError> {
        let a = self.model.sys.layout.sem_addr(tpb, SemOp::Read, sem);
        Ok(i64::from(self.pkg.read32(die, a)? as i32))
    }

    /// Runs every context's firmware to its end; returns the cycle of the first launch doorbell
    /// and when, on the wall clock, that cycle was simulated.
    fn legs(&mut self, sc: &Scenario) -> Result<(u64, Option<std::time::Instant>), RtlError> {
        if let Some(why) = crate::FW_UNAVAILABLE {
            return Err(RtlError::Driver(why.to_string()));
        }
        let progs = self.programs(sc)?;
        let model = self.model;
        let sys = &model.sys;
        // One bookkeeping for the whole system, of the firmware build of the system's view.
        let mut chips: Vec<u64> = self.pkg.dies().iter().map(|d| d.chip).collect();
        chips.sort_unstable();
        chips.dedup();
        let fw_sys = FwSystem::with_view(
            sys.topology.view,
            sys.config.ring_len,
            sys.topology.die_bit,
            &chips,
        )
        .map_err(RtlError::Driver)?;
        let budget = self.pkg.budget;
        let run = fw::run(&mut self.pkg, sys, &Arc::new(fw_sys), progs, budget)
            .map_err(RtlError::Driver)?;
        self.accesses = run.accesses;
        self.bus_cycles = run.bus_cycles;
        self.window_accesses = run.window_accesses;
        self.window_bus_cycles = run.window_bus_cycles;
        let stores: Vec<FwStore> = run
            .stores
            .into_iter()
            .map(|s| FwStore {
                core: s.core,
                lane: s.lane,
                die: self.die(s.die),
                local: s.local,
                len: 4,
                cycles: s.cycles,
            })
            .collect();
        self.stores.extend(stores);
        Ok((
            run.first_launch.unwrap_or_else(|| self.pkg.cycle()),
            run.first_launch_at,
        ))
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
                    self.die(q.die),
                    q.side,
                    u64::from(q.engine),
                    u64::from(q.queue),
                )?;
                done += h.min(q.head);
                all &= h == q.head;
            }
            if all {
                for s in &end.sems {
                    let v = self.sem_read(self.die(s.die), s.tpb, s.sem)?;
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
            let errs: Vec<String> = (0..self.dies())
                .filter(|&die| self.pkg.err(die) != 0)
                .map(|die| {
                    format!(
                        "{}: engine error flags {:#x} (bit 0 read, bit 1 write error)",
                        self.pkg.dies()[die as usize],
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
            self.pkg.check_link()?;
            if self.pkg.cycle() - start > budget {
                // Say what is still missing: a hang (a deadlock, a lost flit) ends here.
                let mut late = Vec::new();
                for q in &end.queues {
                    let h = self.pkg.head(
                        self.die(q.die),
                        q.side,
                        u64::from(q.engine),
                        u64::from(q.queue),
                    )?;
                    if h != q.head {
                        late.push(format!(
                            "{} engine {} {} queue {} head {h} of {}",
                            q.die,
                            q.engine,
                            q.side.as_str(),
                            q.queue,
                            q.head
                        ));
                    }
                }
                return Err(RtlError::Driver(format!(
                    "the run did not complete within {budget} cycles ({done} of {total} \
                     descriptors; {} queue(s) behind: {}{})",
                    late.len(),
                    late.iter().take(4).cloned().collect::<Vec<_>>().join(", "),
                    if late.len() > 4 { ", ..." } else { "" }
                )));
            }
            self.pkg.sim.ticks(POLL);
        }
    }
}

pub const MONITOR: &str = "write monitor: the RTL's simulation hooks report every SBUF write and \
every EVT_SEM increment of every die in the cycle it lands; that log, with the firmware's \
stores marked as such, goes through the model's leg checker (every byte lands once inside \
its destination, remote_sem completes only after the last data byte, local_sem rises by the \
engine count). Sources are loaded and SBUF is read back through the memories' backdoor";

/// Host-port handshakes of a scenario run: up to one cycle of valid delay, 10 % ready stalls.
pub const HOST_TIMING: Timing = Timing {
    max_valid_delay: 1,
    ready_stall_pct: 10,
};

pub fn run(
    sc: &Scenario,
    model: &ModelRun,
    seed: u64,
    trace: Option<&Path>,
    progress: &mut dyn FnMut(Progress),
) -> Result<RtlOutcome, RtlError> {
    run_timed(sc, model, seed, HOST_TIMING, trace, progress)
}

/// [`run`] with the host ports' handshake timing (random valid delays and ready stalls) given.
pub fn run_timed(
    sc: &Scenario,
    model: &ModelRun,
    seed: u64,
    timing: Timing,
    trace: Option<&Path>,
    progress: &mut dyn FnMut(Progress),
) -> Result<RtlOutcome, RtlError> {
    let opts = RunOptions {
        seed,
        timing,
        trace: trace.map(Path::to_path_buf),
        threads: crate::system::default_threads(),
    };
    run_with(sc, model, &opts, progress)
}

/// How a scenario runs on the RTL.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Seed of the host ports' random handshake timing and of the link backpressure.
    pub seed: u64,
    pub timing: Timing,
    /// FST trace of the run (a composed system writes one per die, `<stem>.die<N>.fst`).
    pub trace: Option<PathBuf>,
    /// Threads the dies of a composed system run on (no effect on the package top).
    pub threads: usize,
}

/// [`run`] with every option given.
pub fn run_with(
    sc: &Scenario,
    model: &ModelRun,
    opts: &RunOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<RtlOutcome, RtlError> {
    if let Some(why) = crate::RTL_UNAVAILABLE {
        return Err(RtlError::Driver(format!(
            "the RTL did not verilate when xdie was built (regenerate with `xdie gen` and rebuild):\n{why}"
        )));
    }
    let (seed, timing, trace) = (opts.seed, opts.timing, opts.trace.as_deref());
    // A scenario that names a topology runs on the system composed from it (one model per
    // die, any topology); one of a single package on the package top.
    let pkg = match &model.mesh {
        Some(mesh) => {
            if crate::system::node_kind_for(mesh.view).is_none() {
                return Err(RtlError::NotAvailable(format!(
                    "this build has no model of {} (the composed systems' die in the {} view)",
                    crate::system::node_name(mesh.view),
                    mesh.view
                )));
            }
            Package::composable(mesh).map_err(RtlError::NotAvailable)?;
            Package::composed(mesh, seed, timing, opts.threads, trace)?
        }
        None => {
            if sc.packages.len() != 1 {
                return Err(RtlError::NotAvailable(format!(
                    "the scenario spans {} packages; the package top holds one (name a \
                     `topology` to run on a composed system)",
                    sc.packages.len()
                )));
            }
            let kind = Package::kind().ok_or_else(|| {
                RtlError::NotAvailable(
                    "the package top is not built in (build with `--features package`)".into(),
                )
            })?;
            let sim = match trace {
                Some(p) => Sim::traced(kind, p),
                None => Sim::new(kind),
            }
            .map_err(|e| RtlError::Driver(e.to_string()))?;
            Package::new(sim, seed, timing, sc.packages[0])?
        }
    };
    let mut d = Driver {
        pkg,
        model,
        accesses: 0,
        bus_cycles: 0,
        window_accesses: 0,
        window_bus_cycles: 0,
        stores: Vec::new(),
        writes: Vec::new(),
    };
    let bytes: u64 = sc.legs.iter().map(|l| l.bytes()).sum();
    d.pkg.budget = 1_000_000 + 64 * bytes;
    d.setup()?;
    d.load(progress)?;
    d.pkg.monitor()?;
    if !sc.faults.is_none() {
        d.pkg.inject_faults(sc.faults.clone(), seed)?;
    }
    if sc.link_backpressure > 0 {
        d.pkg.stall_links(sc.link_backpressure, seed ^ 0x11_4b5a)?;
    }
    let wall = std::time::Instant::now();
    let legs_start = d.pkg.cycle();
    let (t0, launched_at) = d.legs(sc)?;
    let errs = d.wait_done(progress)?;
    let t1 = d.pkg.cycle();
    let link = d.pkg.stop_faults();
    // The wall clock of the same span as the transfer cycles: first launch to completion.
    let transfer_seconds = launched_at.unwrap_or(wall).elapsed().as_secs_f64();
    let legs_seconds = wall.elapsed().as_secs_f64();
    if sc.link_backpressure > 0 {
        d.pkg.stall_links(0, 0)?;
    }
    let seen = d.pkg.take_writes();
    d.writes.extend(seen);
    // Reading the end state back is test-bench traffic, not firmware: no random delays there.
    d.pkg.set_timing(Timing::FAST);
    let launch_gaps = d.launch_gaps(sc);
    let mut board = scoreboard::compare(&mut d, progress)?;
    board.mismatches.splice(0..0, errs);
    let trace = d.pkg.sim.stop_trace();
    Ok(RtlOutcome {
        total_cycles: d.pkg.cycle(),
        transfer_cycles: t1 - t0,
        launch_cycle: t0 - legs_start,
        transfer_seconds,
        legs_seconds,
        sems: board.sems,
        mismatches: board.mismatches,
        monitor: MONITOR,
        driver: DRIVER,
        fw_accesses: d.accesses,
        fw_bus_cycles: d.bus_cycles,
        fw_window_accesses: d.window_accesses,
        fw_window_bus_cycles: d.window_bus_cycles,
        fw_stores: d.stores.clone(),
        launch_gaps,
        link,
        trace,
        rtl_system: if d.pkg.sim.system().is_some() {
            "composed system"
        } else {
            "package top"
        },
        models: d.pkg.sim.dies_modelled(),
        threads: d.pkg.sim.system().map_or(1, |s| s.threads()),
        dies: d.pkg.dies().len() as u32,
    })
}
