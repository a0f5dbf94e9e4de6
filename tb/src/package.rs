//! Firmware-level driver of a simulated system: the package top (`xdie_pkg_top`, two dies in one
//! model) or a composed system (crate::system: one die-node model per die of any topology file).
//! Each die is reached through its host port the way its Q7 firmware would, with die-local
//! addresses sent through the host port's direct window. Dies are numbered by host port: the
//! DIE field on the package top, the topology's die order (`Mesh::dies`) on a composed system.
//!
//! Every address, offset, field position and descriptor layout comes from the CSR model; the
//! driver keeps a software copy of each ring it built (tail and tail ring id), like firmware.

use crate::axil::{AxilError, AxilMaster, Resp, Timing};
use crate::duts::DutKind;
use crate::faults::{Injector, LinkStats};
use crate::regmodel::views;
use crate::sim::{Clocked, Port, Sim, SimError};
use crate::system::{LinkEnd, Plan, SysLink, System, SystemError};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;
use xdie_csr::{Field, Views};
use xdie_model::mesh::routes::RouteTables;
use xdie_model::mesh::Mesh;
use xdie_model::topology::SIBLING_PORT;
use xdie_model::{AddrView, DieId};

#[derive(Debug)]
pub enum PkgError {
    /// The package top is not among the simulated DUTs.
    NoPackage,
    Sim(SimError),
    /// The composed system cannot be built, or cannot do what was asked of it.
    System(String),
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
            PkgError::System(m) => write!(f, "{m}"),
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

impl From<SystemError> for PkgError {
    fn from(e: SystemError) -> Self {
        PkgError::System(e.to_string())
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

/// Bits of a port: one die's slice of a status vector.
#[derive(Debug, Clone, Copy)]
pub struct Bits {
    pub port: Port,
    pub lsb: u32,
    pub width: u32,
}

impl Bits {
    fn whole(port: Port) -> Bits {
        Bits {
            port,
            lsb: 0,
            width: port.info().width,
        }
    }

    pub fn read(&self, sim: &Sim) -> u64 {
        sim.get_bits(self.port, self.lsb, self.width)
    }
}

/// Cycles one host-port access of a multi-package system may take before it counts as lost (a
/// package top's: 10 000): a store to a die six hops away shares every link and crossbar on its
/// way with the engines' traffic.
pub const MESH_ACCESS_CYCLES: u32 = 200_000;

/// What a [`Package`] clocks: one model holding all its dies (the package top, a lone die), or
/// a composed system of one model per die.
pub enum Machine {
    One(Sim),
    Many(System),
}

impl Machine {
    /// The model die `die` lives in.
    pub fn model(&self, die: u32) -> &Sim {
        match self {
            Machine::One(s) => s,
            Machine::Many(sys) => &sys.nodes()[die as usize].sim,
        }
    }

    pub fn model_mut(&mut self, die: u32) -> &mut Sim {
        match self {
            Machine::One(s) => s,
            Machine::Many(sys) => &mut sys.node_mut(die as usize).sim,
        }
    }

    /// How many models there are: 1, or one per die.
    pub fn dies_modelled(&self) -> u32 {
        match self {
            Machine::One(_) => 1,
            Machine::Many(sys) => sys.nodes().len() as u32,
        }
    }

    /// The composed system, if this is one.
    pub fn system(&self) -> Option<&System> {
        match self {
            Machine::One(_) => None,
            Machine::Many(sys) => Some(sys),
        }
    }

    /// Falling edge (of every die); inherent so that no call reaches a die's Sim by deref.
    #[inline]
    pub fn clk_low(&mut self) {
        Clocked::clk_low(self)
    }

    /// Rising edge (of every die).
    #[inline]
    pub fn clk_high(&mut self) {
        Clocked::clk_high(self)
    }

    pub fn tick(&mut self) {
        match self {
            Machine::One(s) => s.tick(),
            Machine::Many(sys) => sys.tick(),
        }
    }

    pub fn ticks(&mut self, n: u64) {
        match self {
            Machine::One(s) => s.ticks(n),
            Machine::Many(sys) => sys.ticks(n),
        }
    }

    pub fn reset(&mut self, cycles: u64) {
        match self {
            Machine::One(s) => s.reset(cycles),
            Machine::Many(sys) => sys.reset(cycles),
        }
    }

    /// Simulation time in half cycles.
    pub fn time(&self) -> u64 {
        match self {
            Machine::One(s) => s.time(),
            Machine::Many(sys) => 2 * sys.cycle(),
        }
    }

    /// Flushes and closes the trace (every die's), returning its (the first die's) path.
    pub fn stop_trace(&mut self) -> Option<std::path::PathBuf> {
        match self {
            Machine::One(s) => s.stop_trace(),
            Machine::Many(sys) => sys.stop_trace(),
        }
    }

    /// The hook records of every model since the last call, by time (and die in one cycle).
    pub fn take_landed(&mut self) -> Vec<u32> {
        match self {
            Machine::One(s) => s.take_landed(),
            Machine::Many(sys) => {
                // Records are [id, time lo, time hi, payload...]; their lengths come from the
                // watch ids (crate::hooks). Merge the dies' logs by time, die order in a cycle.
                let mut all = Vec::new();
                for d in 0..sys.nodes().len() {
                    all.push(sys.node_mut(d).sim.take_landed());
                }
                crate::hooks::merge_landed(all)
            }
        }
    }
}

impl Clocked for Machine {
    #[inline]
    fn clk_low(&mut self) {
        match self {
            Machine::One(s) => s.clk_low(),
            Machine::Many(sys) => sys.clk_low(),
        }
    }
    #[inline]
    fn clk_high(&mut self) {
        match self {
            Machine::One(s) => s.clk_high(),
            Machine::Many(sys) => sys.clk_high(),
        }
    }
}

/// The single model of a package top or a lone die, for the tests that reach into its ports.
impl std::ops::Deref for Machine {
    type Target = Sim;
    fn deref(&self) -> &Sim {
        match self {
            Machine::One(s) => s,
            Machine::Many(_) => {
                panic!("a composed system has one model per die: use Machine::model(die)")
            }
        }
    }
}

impl std::ops::DerefMut for Machine {
    fn deref_mut(&mut self) -> &mut Sim {
        match self {
            Machine::One(s) => s,
            Machine::Many(_) => {
                panic!("a composed system has one model per die: use Machine::model_mut(die)")
            }
        }
    }
}

pub struct Package {
    pub sim: Machine,
    pub(crate) host: Vec<AxilMaster>,
    /// Every die, by host port.
    dies: Vec<DieId>,
    /// The C2C ports of each die that have a link.
    linked: Vec<Vec<u32>>,
    /// The address view the system routes in.
    pub view: AddrView,
    /// Scope of the top in the model (`TOP.<module>`; in every die's model on a composed
    /// system).
    pub(crate) top: String,
    idle: Vec<Bits>,
    err: Vec<Bits>,
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
        Self::kind_named("xdie_pkg_top")
    }

    fn kind_named(name: &str) -> Option<DutKind> {
        DutKind::ALL.iter().copied().find(|k| k.name() == name)
    }

    /// Wraps a fresh package model: sets the chip id, resets it and waits for the link.
    pub fn new(mut sim: Sim, seed: u64, timing: Timing, chip: u64) -> Result<Package> {
        let h0 = AxilMaster::with_prefix(&mut sim, "h0_", seed, timing)?;
        let h1 = AxilMaster::with_prefix(&mut sim, "h1_", seed ^ 0x5a5a, timing)?;
        let idle = vec![
            Bits::whole(sim.require_port("d0_idle_o")?),
            Bits::whole(sim.require_port("d1_idle_o")?),
        ];
        let err = vec![
            Bits::whole(sim.require_port("d0_err_o")?),
            Bits::whole(sim.require_port("d1_err_o")?),
        ];
        sim.set_by_name("chip_id_i", chip)?;
        let top = format!("TOP.{}", sim.kind().name());
        let dies = (0..2).map(|die| DieId { chip, die }).collect();
        // The package top: the sibling link on port 0 of both dies, the neighbor view.
        Self::start(
            Machine::One(sim),
            vec![h0, h1],
            dies,
            vec![vec![SIBLING_PORT]; 2],
            AddrView::Neighbor,
            top,
            idle,
            err,
        )
    }

    /// Wraps a fresh model of one die alone (`xdie_die` or a sizing profile's wrapper top,
    /// `xdie_die_<profile>`): die 0 of chip `chip`, its host port the die's AXI4-Lite slave,
    /// no D2D link (every port down), so only die-local traffic moves. This is how the
    /// testbench simulates a die built with another profile's parameters (the FPGA builds).
    pub fn die(mut sim: Sim, seed: u64, timing: Timing, chip: u64) -> Result<Package> {
        let host = AxilMaster::new(&mut sim, seed, timing)?;
        let idle = vec![Bits::whole(sim.require_port("eng_idle_o")?)];
        let err = vec![Bits::whole(sim.require_port("eng_err_o")?)];
        sim.set_by_name("my_chip_i", chip)?;
        sim.set_by_name("my_die_i", 0)?;
        let top = format!("TOP.{}", sim.kind().name());
        Self::start(
            Machine::One(sim),
            vec![host],
            vec![DieId { chip, die: 0 }],
            vec![Vec::new()],
            AddrView::Neighbor,
            top,
            idle,
            err,
        )
    }

    /// Why `mesh` cannot be composed from the die node, if it cannot: this build has no model of
    /// the node for the topology's view.
    pub fn composable(mesh: &Mesh) -> std::result::Result<(), String> {
        if crate::system::node_kind_for(mesh.view).is_some() {
            return Ok(());
        }
        Err(format!(
            "topology {} routes in the {} view; this build has no die-node model for it ({})",
            mesh.path.display(),
            mesh.view,
            crate::system::node_name(mesh.view)
        ))
    }

    /// Composes the system of `mesh` (its dies, links and view) from one die-node model per
    /// die, `threads` dies running at once (crate::system), with the dies' traces at
    /// `<trace>.die<N>.fst`; resets it and waits until every link is up. No link is stalled
    /// until [`Package::stall_links`].
    pub fn composed(
        mesh: &Mesh,
        seed: u64,
        timing: Timing,
        threads: usize,
        trace: Option<&std::path::Path>,
    ) -> Result<Package> {
        Self::composable(mesh).map_err(PkgError::System)?;
        let dies = mesh.dies();
        let index = |d: DieId| {
            dies.iter()
                .position(|x| *x == d)
                .expect("a die of the mesh")
        };
        let plan = Plan {
            view: mesh.view,
            dies: dies.iter().map(|d| (d.chip, d.die)).collect(),
            links: mesh
                .links
                .iter()
                .map(|l| SysLink {
                    a: LinkEnd {
                        die: index(l.a.die),
                        port: l.a.port,
                    },
                    b: LinkEnd {
                        die: index(l.b.die),
                        port: l.b.port,
                    },
                    latency: l.latency,
                })
                .collect(),
        };
        let node_die = format!("TOP.{}.u_die", crate::system::NODE);
        let mut sys = System::new(&plan, threads, trace, |sim| {
            crate::hooks::release_fresh_memories(sim, &node_die).map_err(|e| e.to_string())
        })
        .map_err(|e| PkgError::System(format!("{}: {e}", mesh.path.display())))?;
        let mut host = Vec::new();
        let (mut idle, mut err) = (Vec::new(), Vec::new());
        for i in 0..dies.len() {
            let sim = &mut sys.node_mut(i).sim;
            let s = seed ^ (0x5a5a * i as u64);
            host.push(AxilMaster::new(sim, s, timing)?);
            idle.push(Bits::whole(sim.require_port("idle_o")?));
            err.push(Bits::whole(sim.require_port("err_o")?));
        }
        let links = mesh.port_links();
        let linked = dies
            .iter()
            .map(|&d| {
                links
                    .keys()
                    .filter(|p| p.die == d)
                    .map(|p| p.port)
                    .collect()
            })
            .collect();
        let top = format!("TOP.{}", crate::system::NODE);
        let mut pkg = Self::start(
            Machine::Many(sys),
            host,
            dies,
            linked,
            mesh.view,
            top,
            idle,
            err,
        )?;
        // A store that crosses the ring waits at every hop behind the engines' traffic.
        for h in &mut pkg.host {
            h.timeout = MESH_ACCESS_CYCLES;
        }
        Ok(pkg)
    }

    #[allow(clippy::too_many_arguments)]
    fn start(
        mut sim: Machine,
        host: Vec<AxilMaster>,
        dies: Vec<DieId>,
        linked: Vec<Vec<u32>>,
        view: AddrView,
        top: String,
        idle: Vec<Bits>,
        err: Vec<Bits>,
    ) -> Result<Package> {
        sim.reset(4);
        let mut pkg = Package {
            sim,
            host,
            dies,
            linked,
            view,
            top,
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
        if self.sim.system().is_some() {
            return Err(PkgError::System(
                "link faults are injected on the package top's link only; a composed system's \
                 wires carry none (run the faults scenario without a topology)"
                    .into(),
            ));
        }
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
        if self.sim.system().is_some() {
            return None;
        }
        self.sim.set_cycle_hook(None);
        if let Ok(p) = self.sim.require_port("link_fault_i") {
            let zero = vec![0u32; p.info().width.div_ceil(32) as usize];
            self.sim.set(p, &zero);
        }
        self.link.take().map(|s| s.borrow().clone())
    }

    /// Stops injecting faults but keeps counting what the dies report (see
    /// [`LinkStats::calm`]); [`Package::link_stats`] reads the counts.
    pub fn calm_faults(&mut self) {
        if let Some(st) = &self.link {
            st.borrow_mut().calm = true;
        }
    }

    /// What the link has gone through so far while faults were injected.
    pub fn link_stats(&self) -> Option<LinkStats> {
        self.link.as_ref().map(|s| s.borrow().clone())
    }

    /// The link-health interrupt output of `die`.
    pub fn irq(&self, die: u32) -> Result<bool> {
        let (sim, name) = match &self.sim {
            Machine::One(s) => (s, format!("d{die}_irq_o")),
            Machine::Many(_) => (self.sim.model(die), "irq_o".to_string()),
        };
        let port = sim.require_port(&name)?;
        Ok(sim.get_u64(port) != 0)
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

    /// Every die of the model, by host port.
    pub fn dies(&self) -> &[DieId] {
        &self.dies
    }

    /// The host port (die number) of `die`.
    pub fn index(&self, die: DieId) -> Option<u32> {
        self.dies.iter().position(|d| *d == die).map(|i| i as u32)
    }

    /// The C2C ports of die `die` that have a link.
    pub fn linked(&self, die: u32) -> &[u32] {
        &self.linked[die as usize]
    }

    /// Random backpressure on every link: from the next cycle on, each port's send side is
    /// refused credit (sends nothing) in each cycle with probability `percent` % (a seeded draw
    /// per port and cycle, in each model's clock loop; on a composed system each die draws from
    /// its own generator). 0 turns it off.
    pub fn stall_links(&mut self, percent: u32, seed: u64) -> Result<()> {
        for die in 0..self.sim.dies_modelled() {
            let sim = self.sim.model_mut(die);
            let port = sim.require_port("tx_stall_i")?;
            // Die 0 (the only model of a package top) draws from `seed` itself.
            let s = seed ^ u64::from(die).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            sim.randomize(port, percent, s)?;
        }
        Ok(())
    }

    /// Clock cycles since the model was created.
    pub fn cycle(&self) -> u64 {
        self.sim.time() / 2
    }

    /// Where the "every engine idle" bit of a die is, for observers that only see the `Sim`.
    pub fn idle_bits(&self, die: u32) -> Bits {
        self.idle[die as usize]
    }

    /// Every engine of `die` idle (a lone die reports one bit per engine).
    pub fn idle(&self, die: u32) -> bool {
        let b = self.idle[die as usize];
        b.read(self.sim.model(die)) == u64::MAX >> (64 - b.width)
    }

    /// Sticky engine errors of a die: bit 0 a read error, bit 1 a write error (a lone die reports
    /// them per engine: bits 2e and 2e + 1 for engine e).
    pub fn err(&self, die: u32) -> u64 {
        self.err[die as usize].read(self.sim.model(die))
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

    /// Host write of a 32-bit word at SoC address `soc` (word aligned) from `die`, any
    /// response: remap window `window` of the die is pointed (range mode) at the block holding
    /// `soc`, and the write goes through it, so the die's crossbar routes `soc` as it routes
    /// any master's address.
    pub fn write_soc(&mut self, die: u32, window: u64, soc: u64, data: u32) -> Result<Resp> {
        let xt = self.point_window(die, window, soc)?;
        self.write_xt(die, xt, data, 0xF)
    }

    /// Host read of a 32-bit word at SoC address `soc` from `die` through remap window
    /// `window`, as `write_soc` writes one: the data and the response.
    pub fn read_soc(&mut self, die: u32, window: u64, soc: u64) -> Result<(u32, Resp)> {
        let xt = self.point_window(die, window, soc)?;
        Ok(self.host[die as usize].read(&mut self.sim, xt)?)
    }

    /// Points remap window `window` of `die` (range mode) at the block holding `soc`; returns
    /// the xt address of `soc`.
    fn point_window(&mut self, die: u32, window: u64, soc: u64) -> Result<u64> {
        let (v, r) = (v(), &v().remap);
        // The windows share the xt space below the direct window, each a power of two.
        let span = (v.params.host_direct_base / r.window.count).max(1);
        let bits = 63 - span.leading_zeros();
        let low = (1u64 << bits) - 1;
        let xt_base = window << bits;
        let block = soc & !low;
        let f = |reg: &xdie_csr::Register| reg.fields[0].clone();
        for (reg, value) in [
            (&r.soc_lo, block & 0xffff_ffff),
            (&r.soc_hi, block >> 32),
            (&r.xt_addr, xt_base),
            (&r.u_mask, !low & 0xffff_ffff),
            (&r.l_mask, low),
        ] {
            self.write32(die, v.remap_reg(window, reg), field_value(&f(reg), value))?;
        }
        self.write32(die, v.remap_reg(window, &r.ctrl), r.valid.reg_mask())?;
        Ok(xt_base | (soc & low))
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

    /// Waits until the link of every linked port of every die is up.
    fn wait_link(&mut self) -> Result<()> {
        let iatu = &v().iatu;
        for die in 0..self.dies.len() as u32 {
            for port in self.linked[die as usize].clone() {
                let status = v().iatu_top_reg(u64::from(port), &iatu.link_status);
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
                            what: format!("die {die} port {port} link up"),
                            cycles: waited,
                        });
                    }
                }
            }
        }
        Ok(())
    }

    /// What a driver programs on a composed system before any traffic: every die's route table (the
    /// writes `RouteTables::csr_writes` lists) and identity iATU region 0 on each linked port.
    pub fn program_mesh(&mut self, tables: &RouteTables) -> Result<()> {
        for die in 0..self.dies.len() as u32 {
            let id = self.dies[die as usize];
            for (local, value) in tables.csr_writes(id, v()) {
                self.write32(die, local, value)?;
            }
            self.program_iatu_identity(die, 0)?;
        }
        Ok(())
    }

    /// Programs iATU outbound region `region` of every linked D2D controller of `die` as one
    /// identity region over the whole routed address space: in the chip-id view an address
    /// names its target, so it crosses every hop unchanged (docs/mesh.md).
    pub fn program_iatu_identity(&mut self, die: u32, region: u64) -> Result<()> {
        let (v, l) = (v(), &v().iatu);
        let limit = v.soc.address.mask();
        for port in self.linked[die as usize].clone() {
            let c = u64::from(port);
            for (reg, value) in [
                (&l.base_lo, 0u32),
                (&l.base_hi, 0),
                (&l.limit_lo, limit as u32),
                (&l.limit_hi, (limit >> 32) as u32),
                (&l.target_lo, 0),
                (&l.target_hi, 0),
            ] {
                self.write32(die, v.iatu_reg(c, region, reg), value)?;
            }
            self.write32(die, v.iatu_reg(c, region, &l.ctrl), l.enable.reg_mask())?;
        }
        Ok(())
    }

    /// Programs the iATU outbound regions of `fabric` (the golden model's: `Fabric::neighbor` for a
    /// neighbor system) on every port it lists, region by region from 0, and disables nothing
    /// else (every other region keeps its reset, disabled).
    pub fn program_iatu_regions(
        &mut self,
        fabric: &xdie_model::mesh::fabric::Fabric,
    ) -> Result<()> {
        let (v, l) = (v(), &v().iatu);
        for (port, regions) in &fabric.iatu {
            let die = self.index(port.die).ok_or_else(|| {
                PkgError::System(format!("{} is not a die of this system", port.die))
            })?;
            let c = u64::from(port.port);
            for (k, r) in regions.iter().enumerate() {
                let k = k as u64;
                for (reg, value) in [
                    (&l.base_lo, r.base as u32),
                    (&l.base_hi, (r.base >> 32) as u32),
                    (&l.limit_lo, r.limit as u32),
                    (&l.limit_hi, (r.limit >> 32) as u32),
                    (&l.target_lo, r.target as u32),
                    (&l.target_hi, (r.target >> 32) as u32),
                ] {
                    self.write32(die, v.iatu_reg(c, k, reg), value)?;
                }
                let enable = if r.enabled { l.enable.reg_mask() } else { 0 };
                self.write32(die, v.iatu_reg(c, k, &l.ctrl), enable)?;
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
    pub fn doorbell_observed<F: FnMut(&Machine)>(
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
