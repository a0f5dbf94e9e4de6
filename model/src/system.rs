//! The system state and the firmware steps: gen, start, wait, and the engines' run.
//!
//! This module holds the state (dies, rings, legs, queued steps) and where rings sit in memory;
//! each step has its own module: `gen`, `start` (and waits), `run` (the scheduler), `land` (a
//! write at its target), `engine` (one descriptor pair), and `views` for checkers.

use crate::desc::EntryKind;
use crate::error::{ModelError, Result};
use crate::events::{Event, LegId};
use crate::layout::{Layout, Side};
use crate::mem::Mem;
use crate::topology::{AddrView, Core, DieId, Topology};
use std::collections::{BTreeMap, VecDeque};
use xdie_csr::Csrs;

mod engine;
mod gen;
mod land;
mod run;
mod start;
mod views;

pub use gen::{EngineRing, GenOutput, Leg, RingEntry};
pub use run::RunReport;
pub use start::FwStep;

/// Software choices the CSRs leave open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Descriptors per ring (every engine, side and queue).
    pub ring_len: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config { ring_len: 512 }
    }
}

fn side_idx(side: Side) -> usize {
    match side {
        Side::M2s => 0,
        Side::S2m => 1,
    }
}

const SIDES: [Side; 2] = [Side::M2s, Side::S2m];

/// One ring of one queue. Positions are absolute descriptor counts since reset; the ring
/// offset is `pos % len` and the ring id follows from `pos / len`.
#[derive(Debug, Clone, Default)]
struct Ring {
    /// Consumed by the engine.
    head: u64,
    /// Posted by a doorbell.
    tail: u64,
    /// Written by software (posted or not).
    written: u64,
    /// Handed to a start (its doorbell may still be queued behind a wait).
    claimed: u64,
    halted: bool,
    tags: BTreeMap<u64, (LegId, EntryKind)>,
}

#[derive(Debug, Default)]
struct DieState {
    mem: Mem,
    /// Every core's semaphores: `sems[tpb][sem]`.
    sems: Vec<Vec<i64>>,
    /// (engine, queue) -> [M2S, S2M]
    rings: BTreeMap<(u32, u32), [Ring; 2]>,
    /// The broadcast doorbell's engine mask and queue select.
    bcast_mask: u64,
    bcast_queue: u64,
}

/// A store a firmware context performs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FwWrite {
    /// The routed SoC address the issuing core puts on the bus.
    pub soc: u64,
    /// Where it lands.
    pub die: DieId,
    pub local: u64,
    pub bytes: Vec<u8>,
}

#[derive(Debug, Clone)]
enum Step {
    Wait {
        die: DieId,
        tpb: u64,
        sem: u64,
        value: u64,
    },
    Store {
        from: DieId,
        write: FwWrite,
    },
}

/// A gen awaiting its start: the leg and each engine's descriptor count.
type PendingGen = (LegId, Vec<(u32, u64)>);

pub struct System {
    pub layout: Layout,
    pub topology: Topology,
    pub config: Config,
    dies: BTreeMap<DieId, DieState>,
    legs: Vec<Leg>,
    /// Gens awaiting their start, per context.
    pending: BTreeMap<(Core, u64), VecDeque<PendingGen>>,
    programs: BTreeMap<(Core, u64), VecDeque<Step>>,
    events: Vec<Event>,
    /// The route tables and iATU regions: a chip-id system of several packages has them when
    /// a topology file describes it, a neighbor system always (the iATU regions make each hop
    /// consume its field of the path, `Fabric::neighbor`). Stores then travel hop by hop as on
    /// the RTL, and what the RTL refuses (DECERR) the model refuses.
    fabric: Option<crate::mesh::fabric::Fabric>,
    /// Inbound permission windows of every die (reset values unless a test changed them).
    inbound: BTreeMap<DieId, crate::inbound::InboundWindows>,
}

impl System {
    pub fn new(csrs: &Csrs, topology: Topology) -> Result<System> {
        System::with_config(csrs, topology, Config::default())
    }

    pub fn with_config(csrs: &Csrs, topology: Topology, config: Config) -> Result<System> {
        let layout = Layout::new(csrs);
        if topology.chips.is_empty() {
            return Err(ModelError::Topology("no package".into()));
        }
        let len_max = 1u64 << layout.m2s.layout.len.width.min(layout.s2m.layout.len.width);
        if config.ring_len == 0 || config.ring_len >= len_max {
            return Err(ModelError::Topology(format!(
                "ring_len {} outside 1..{len_max}",
                config.ring_len
            )));
        }
        let mut sys = System {
            layout,
            topology,
            config,
            dies: BTreeMap::new(),
            legs: Vec::new(),
            pending: BTreeMap::new(),
            programs: BTreeMap::new(),
            events: Vec::new(),
            fabric: None,
            inbound: BTreeMap::new(),
        };
        if sys.topology.view == AddrView::Neighbor {
            sys.fabric = Some(crate::mesh::fabric::Fabric::neighbor(
                &sys.topology,
                &sys.layout,
            ));
        }
        if sys.const_one_addr() + sys.layout.evt_sem.sem_bytes() > sys.layout.apertures.hbm.end() {
            return Err(ModelError::Topology(
                "rings and the constant do not fit in HBM".into(),
            ));
        }
        let one = sys.const_one_bytes();
        for die in sys.topology.dies(sys.layout.soc.dies_per_package()) {
            let b = &sys.layout.bcast;
            let mut st = DieState {
                sems: vec![vec![0; sys.layout.sem_count() as usize]; sys.layout.cores() as usize],
                bcast_mask: b.mask.reset,
                bcast_queue: b.queue.reset,
                ..DieState::default()
            };
            st.mem.write(sys.const_one_addr(), &one);
            sys.dies.insert(die, st);
        }
        Ok(sys)
    }

    fn ring_stride(&self) -> u64 {
        let bytes = self.config.ring_len * self.layout.params.desc_bytes;
        bytes.div_ceil(self.layout.ring.base_align) * self.layout.ring.base_align
    }

    /// Die-local base of the ring of (engine, side, queue), on every die: rings are packed
    /// from the HBM base, M2S and S2M of one engine side by side.
    pub fn ring_base(&self, engine: u32, side: Side, queue: u32) -> u64 {
        let idx = (engine as u64 * 2 + side_idx(side) as u64) * self.layout.queues() + queue as u64;
        let base = self
            .layout
            .apertures
            .hbm
            .base
            .div_ceil(self.layout.ring.base_align)
            * self.layout.ring.base_align;
        base + idx * self.ring_stride()
    }

    /// Die-local address of the 4-byte constant 1 every semaphore descriptor copies (written
    /// into each die's HBM at reset; a driver stores it before the first leg).
    pub fn const_one_addr(&self) -> u64 {
        self.ring_base(self.layout.engine_count(), Side::M2s, 0)
    }

    pub fn const_one_bytes(&self) -> Vec<u8> {
        let mut b = 1u64.to_le_bytes().to_vec();
        b.resize(self.layout.evt_sem.sem_bytes() as usize, 0);
        b
    }

    pub fn die_of(&self, core: Core) -> DieId {
        self.topology.die_of(core)
    }

    /// The index of `core` among its die's cores (`Topology::tpb_of`).
    pub fn tpb_of(&self, core: Core) -> u64 {
        self.topology.tpb_of(core)
    }

    /// Where a SoC address issued on `from` lands, in the system's address view: hop by hop
    /// through the route tables and iATU regions when the system has them
    /// ([`System::set_fabric`]), else as the view's decoders name the target. A store that
    /// arrives over a link must be granted by the landing die's inbound windows.
    pub fn route(&self, from: DieId, addr: u64) -> Result<(DieId, u64)> {
        self.route_access(from, addr, true)
    }

    /// As [`System::route`], for a read (`write` false) or a store.
    pub fn route_access(&self, from: DieId, addr: u64, write: bool) -> Result<(DieId, u64)> {
        let (die, local) = self.route_unchecked(from, addr, write)?;
        if self.fabric.is_none() && die != from && !self.inbound_windows(die).permits(local, write)
        {
            return Err(ModelError::Route {
                from,
                addr,
                why: format!(
                    "{die} refuses it (DECERR): no inbound window grants {} at {local:#x}",
                    if write { "a write" } else { "a read" }
                ),
            });
        }
        Ok((die, local))
    }

    /// The inbound permission windows of `die` (the reset ones unless changed).
    pub fn inbound_windows(&self, die: DieId) -> crate::inbound::InboundWindows {
        self.inbound
            .get(&die)
            .cloned()
            .unwrap_or_else(|| crate::inbound::InboundWindows::reset(&self.layout))
    }

    /// Sets the inbound permission windows of `die` (as a driver programs them), here and in
    /// the fabric when the system has one.
    pub fn set_inbound_windows(&mut self, die: DieId, w: crate::inbound::InboundWindows) {
        if let Some(f) = &mut self.fabric {
            f.inbound.insert(die, w.clone());
        }
        self.inbound.insert(die, w);
    }

    fn route_unchecked(&self, from: DieId, addr: u64, write: bool) -> Result<(DieId, u64)> {
        match &self.fabric {
            Some(f) => match f.deliver_access(&self.layout, from, addr, write) {
                crate::mesh::fabric::Delivery::Delivered { die, local, .. } => Ok((die, local)),
                crate::mesh::fabric::Delivery::DecErr { at, why } => Err(ModelError::Route {
                    from,
                    addr,
                    why: format!("{at} answers DECERR: {why}"),
                }),
            },
            None => self.topology.route(&self.layout, from, addr),
        }
    }

    /// Routes every store hop by hop through `fabric` (a chip-id system's route tables and
    /// iATU regions) from now on.
    pub fn set_fabric(&mut self, mut fabric: crate::mesh::fabric::Fabric) {
        for (die, w) in &self.inbound {
            fabric.inbound.insert(*die, w.clone());
        }
        self.fabric = Some(fabric);
    }

    pub fn fabric(&self) -> Option<&crate::mesh::fabric::Fabric> {
        self.fabric.as_ref()
    }

    /// The SoC address `from` issues to reach die-local `local` of `to`, in the system's view.
    pub fn fold(&self, from: DieId, to: DieId, local: u64) -> Result<u64> {
        self.topology.fold(&self.layout, from, to, local)
    }

    pub fn events(&self) -> &[Event] {
        &self.events
    }

    pub fn legs(&self) -> &[Leg] {
        &self.legs
    }

    fn die_mut(&mut self, die: DieId) -> Result<&mut DieState> {
        self.dies
            .get_mut(&die)
            .ok_or_else(|| ModelError::Topology(format!("{die} is not in the topology")))
    }

    /// Store bytes into partition `p` of the SBUF of core `tpb` of `die` (test setup; no
    /// event).
    pub fn fill_sbuf(
        &mut self,
        die: DieId,
        tpb: u64,
        p: u64,
        offset: u64,
        bytes: &[u8],
    ) -> Result<()> {
        let a = self.layout.sbuf_addr(tpb, p, offset);
        self.die_mut(die)?.mem.write(a, bytes);
        Ok(())
    }

    /// Overwrite die-local bytes without an event (fault injection: a corrupted descriptor).
    pub fn poke(&mut self, die: DieId, local: u64, bytes: &[u8]) -> Result<()> {
        self.die_mut(die)?.mem.write(local, bytes);
        Ok(())
    }

    pub fn read_local(&self, die: DieId, local: u64, len: u64) -> Vec<u8> {
        self.dies
            .get(&die)
            .map(|d| d.mem.read(local, len))
            .unwrap_or_else(|| vec![0; len as usize])
    }

    /// Semaphore `sem` of core `tpb`'s EVT_SEM on `die`.
    pub fn sem(&self, die: DieId, tpb: u64, sem: u64) -> i64 {
        self.dies
            .get(&die)
            .and_then(|d| d.sems.get(tpb as usize))
            .and_then(|s| s.get(sem as usize).copied())
            .unwrap_or(0)
    }
}
