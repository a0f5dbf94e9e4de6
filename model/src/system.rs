//! The system state and the firmware steps: gen, start, wait, and the engines' run.

use crate::desc::{Descriptor, EntryKind};
use crate::error::{ModelError, Result};
use crate::events::{Event, Landed, LegExpect, LegId, Writer};
use crate::layout::{Layout, SemOp, Side, Target};
use crate::mem::Mem;
use crate::route::{reach, Reach};
use crate::topology::{Core, DieId, Lane, Topology};
use crate::word::{GenWord, StartWord};
use std::collections::{BTreeMap, VecDeque};
use xdie_gen::Csrs;

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
    sems: Vec<i64>,
    /// (engine, queue) -> [M2S, S2M]
    rings: BTreeMap<(u32, u32), [Ring; 2]>,
}

/// One leg: what both gens asked for and how it was split.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leg {
    pub id: LegId,
    pub tx: Core,
    pub rx: Core,
    pub tx_die: DieId,
    pub rx_die: DieId,
    pub queue: u32,
    pub mask: u64,
    pub partitions: u64,
    pub free_dim_bytes: u64,
    pub src_addr: Option<u64>,
    pub dst_addr: u64,
    pub local_sem: u64,
    pub remote_sem: u64,
    /// Each engine and the partitions it moves, in mask order.
    pub shares: Vec<(u32, std::ops::Range<u64>)>,
    generated: [bool; 2],
}

impl Leg {
    pub fn n_engines(&self) -> u64 {
        self.shares.len() as u64
    }
}

/// One entry a gen wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RingEntry {
    pub kind: EntryKind,
    pub desc: Descriptor,
    pub bytes: Vec<u8>,
    /// Absolute ring position (offset = pos % ring_len).
    pub pos: u64,
    /// Die-local address of the slot on the TX die.
    pub slot: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineRing {
    pub engine: u32,
    pub queue: u32,
    pub side: Side,
    pub entries: Vec<RingEntry>,
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

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenOutput {
    pub leg: LegId,
    pub role: Lane,
    /// Destination (partition 0, byte dst_addr) as the TX engines address it.
    pub dst_soc: u64,
    pub engines: Vec<EngineRing>,
    /// The descriptor stores, in order.
    pub writes: Vec<FwWrite>,
    /// All engines together: the value rdma_desc_start's num_descriptors must carry.
    pub num_descriptors: u64,
}

/// What a start makes a context do, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FwStep {
    /// Sequencer port of the context's own EVT_SEM: wait until sem >= value, subtract it.
    WaitGeDec { sem: u64, value: u64, subop: u64 },
    /// A 32-bit store (doorbell or semaphore window).
    Store(FwWrite),
}

#[derive(Debug, Clone)]
enum Step {
    Wait { die: DieId, sem: u64, value: u64 },
    Store { from: DieId, write: FwWrite },
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
}

impl System {
    pub fn new(csrs: &Csrs, topology: Topology) -> Result<System> {
        System::with_config(csrs, topology, Config::default())
    }

    pub fn with_config(csrs: &Csrs, topology: Topology, config: Config) -> Result<System> {
        let layout = Layout::new(csrs)?;
        if topology.chips.is_empty() {
            return Err(ModelError::Topology("no package".into()));
        }
        let len_max = 1u64 << layout.m2s.ring_len_width.min(layout.s2m.ring_len_width);
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
        };
        if sys.const_one_addr() + sys.layout.sem_bytes > sys.layout.hbm.end() {
            return Err(ModelError::Topology(
                "rings and the constant do not fit in HBM".into(),
            ));
        }
        let one = sys.const_one_bytes();
        for die in sys.topology.dies(sys.layout.dies_per_package) {
            let mut st = DieState {
                sems: vec![0; sys.layout.sem_count as usize],
                ..DieState::default()
            };
            st.mem.write(sys.const_one_addr(), &one);
            sys.dies.insert(die, st);
        }
        Ok(sys)
    }

    fn ring_stride(&self) -> u64 {
        let bytes = self.config.ring_len * self.layout.desc_bytes;
        bytes.div_ceil(self.layout.ring_base_align) * self.layout.ring_base_align
    }

    /// Die-local base of the ring of (engine, side, queue), on every die: rings are packed
    /// from the HBM base, M2S and S2M of one engine side by side.
    pub fn ring_base(&self, engine: u32, side: Side, queue: u32) -> u64 {
        let idx =
            (engine as u64 * 2 + side_idx(side) as u64) * self.layout.queues as u64 + queue as u64;
        let base = self.layout.hbm.base.div_ceil(self.layout.ring_base_align)
            * self.layout.ring_base_align;
        base + idx * self.ring_stride()
    }

    /// Die-local address of the 4-byte constant 1 every semaphore descriptor copies (written
    /// into each die's HBM at reset; a driver stores it before the first leg).
    pub fn const_one_addr(&self) -> u64 {
        self.ring_base(self.layout.engines, Side::M2s, 0)
    }

    pub fn const_one_bytes(&self) -> Vec<u8> {
        let mut b = 1u64.to_le_bytes().to_vec();
        b.resize(self.layout.sem_bytes as usize, 0);
        b
    }

    pub fn die_of(&self, core: Core) -> DieId {
        self.topology.die_of(core)
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

    /// Store bytes into SBUF partition `p` of `die` (test setup; no event).
    pub fn fill_sbuf(&mut self, die: DieId, p: u64, offset: u64, bytes: &[u8]) -> Result<()> {
        let a = self.layout.sbuf_addr(p, offset);
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

    pub fn sem(&self, die: DieId, sem: u64) -> i64 {
        self.dies
            .get(&die)
            .and_then(|d| d.sems.get(sem as usize).copied())
            .unwrap_or(0)
    }

    // ------------------------------------------------------------------ gen

    fn check_geometry(&self, w: &GenWord) -> Result<(u32, Vec<u32>)> {
        let l = &self.layout;
        if w.partitions == 0 || w.partitions > l.sbuf_partitions {
            return Err(ModelError::PartitionsOutOfRange {
                partitions: w.partitions,
                max: l.sbuf_partitions,
            });
        }
        if w.free_dim_bytes == 0 {
            return Err(ModelError::Impossible("free_dim_bytes is 0".into()));
        }
        for (which, off) in [("source", w.src_addr), ("destination", w.dst_addr)] {
            if off
                .checked_add(w.free_dim_bytes)
                .is_none_or(|e| e > l.sbuf_backing)
            {
                return Err(ModelError::OutsideSbufBacking {
                    which,
                    offset: off,
                    len: w.free_dim_bytes,
                    backing: l.sbuf_backing,
                });
            }
        }
        if w.dma_engine_mask == 0 {
            return Err(ModelError::Impossible("dma_engine_mask is 0".into()));
        }
        if let Some(engine) =
            (0..64u32).find(|&e| e >= l.engines && (w.dma_engine_mask >> e) & 1 == 1)
        {
            return Err(ModelError::MissingEngine {
                mask: w.dma_engine_mask,
                engine,
                engines: l.engines,
            });
        }
        if w.queue >= l.queues as u64 {
            return Err(ModelError::QueueOutOfRange {
                queue: w.queue,
                queues: l.queues as u64,
            });
        }
        for sem in [w.local_sem, w.remote_sem] {
            if sem >= l.sem_count {
                return Err(ModelError::SemOutOfRange {
                    sem,
                    count: l.sem_count,
                });
            }
        }
        let engines = (0..l.engines)
            .filter(|e| (w.dma_engine_mask >> e) & 1 == 1)
            .collect();
        Ok((w.queue as u32, engines))
    }

    /// Partitions split over the engines in mask order: contiguous, the first `p % n` engines
    /// take one more.
    fn split(partitions: u64, engines: &[u32]) -> Vec<(u32, std::ops::Range<u64>)> {
        let n = engines.len() as u64;
        let mut start = 0;
        engines
            .iter()
            .enumerate()
            .map(|(i, &e)| {
                let take = partitions / n + u64::from((i as u64) < partitions % n);
                let r = start..start + take;
                start += take;
                (e, r)
            })
            .collect()
    }

    fn chunks(&self, free: u64) -> u64 {
        free.div_ceil(self.layout.max_len)
    }

    fn role(v: u64) -> Result<Lane> {
        match v {
            0 => Ok(Lane::Rx),
            1 => Ok(Lane::Tx),
            _ => Err(ModelError::BadRole(v)),
        }
    }

    fn find_or_add_leg(&mut self, cand: Leg, role: Lane) -> Result<LegId> {
        let side = side_idx(match role {
            Lane::Tx => Side::M2s,
            Lane::Rx => Side::S2m,
        });
        if let Some(leg) = self.legs.iter_mut().find(|l| {
            l.tx == cand.tx
                && l.rx == cand.rx
                && l.queue == cand.queue
                && l.mask == cand.mask
                && !l.generated[side]
        }) {
            let same = [
                ("partitions", leg.partitions == cand.partitions),
                ("free_dim_bytes", leg.free_dim_bytes == cand.free_dim_bytes),
                ("dst_addr", leg.dst_addr == cand.dst_addr),
                ("local_sem", leg.local_sem == cand.local_sem),
                ("remote_sem", leg.remote_sem == cand.remote_sem),
            ];
            if let Some((what, _)) = same.iter().find(|(_, ok)| !ok) {
                return Err(ModelError::LegMismatch(what));
            }
            leg.generated[side] = true;
            if cand.src_addr.is_some() {
                leg.src_addr = cand.src_addr;
            }
            return Ok(leg.id);
        }
        let id = self.legs.len();
        let mut leg = cand;
        leg.id = id;
        leg.generated[side] = true;
        self.legs.push(leg);
        Ok(id)
    }

    /// rdma_desc_gen on `core`: validate, split, write this side's ring entries into the rings of
    /// the TX die (TX: M2S, RX: S2M).
    pub fn gen(&mut self, core: Core, w: &GenWord) -> Result<GenOutput> {
        self.topology.check_core(core)?;
        let role = Self::role(w.role)?;
        let peer = Core {
            chip: w.remote_routing_id,
            id: w.remote_core_id,
        };
        self.topology.check_core(peer)?;
        let (queue, engines) = self.check_geometry(w)?;
        let peer_die = self.die_of(peer).die;
        if w.peer_base != 0 && self.layout.f_die.get(w.peer_base as u128) as u64 != peer_die {
            return Err(ModelError::Impossible(format!(
                "peer_base {:#x} names another die than the peer's die {peer_die}",
                w.peer_base
            )));
        }
        let (tx, rx) = match role {
            Lane::Tx => (core, peer),
            Lane::Rx => (peer, core),
        };
        let (tx_die, rx_die) = (self.die_of(tx), self.die_of(rx));
        let l = &self.layout;
        let dst_soc = l.fold_for(tx_die, rx_die, l.sbuf_addr(0, w.dst_addr))?;
        let shares = Self::split(w.partitions, &engines);
        let cand = Leg {
            id: 0,
            tx,
            rx,
            tx_die,
            rx_die,
            queue,
            mask: w.dma_engine_mask,
            partitions: w.partitions,
            free_dim_bytes: w.free_dim_bytes,
            src_addr: (role == Lane::Tx).then_some(w.src_addr),
            dst_addr: w.dst_addr,
            local_sem: w.local_sem,
            remote_sem: w.remote_sem,
            shares: shares.clone(),
            generated: [false; 2],
        };
        let side = match role {
            Lane::Tx => Side::M2s,
            Lane::Rx => Side::S2m,
        };

        // Build every entry first so a full ring refuses the whole gen.
        let chunks = self.chunks(w.free_dim_bytes);
        let mut plan: Vec<(u32, Vec<(EntryKind, Descriptor)>)> = Vec::new();
        for (e, parts) in &shares {
            let mut list = Vec::new();
            for p in parts.clone() {
                for c in 0..chunks {
                    let off = c * l.max_len;
                    let len = (w.free_dim_bytes - off).min(l.max_len);
                    let buf_ptr = match role {
                        Lane::Tx => l.die_local(tx_die.die, l.sbuf_addr(p, w.src_addr + off)),
                        Lane::Rx => l.fold_for(tx_die, rx_die, l.sbuf_addr(p, w.dst_addr + off))?,
                    };
                    list.push((
                        EntryKind::Data {
                            partition: p,
                            chunk: c,
                        },
                        Descriptor {
                            len,
                            ring_id: 0,
                            write_barrier: false,
                            buf_ptr,
                        },
                    ));
                }
            }
            let one = l.die_local(tx_die.die, self.const_one_addr());
            let sem = |kind, buf_ptr, write_barrier| {
                (
                    kind,
                    Descriptor {
                        len: l.sem_bytes,
                        ring_id: 0,
                        write_barrier,
                        buf_ptr,
                    },
                )
            };
            match role {
                Lane::Tx => {
                    list.push(sem(EntryKind::LocalSem, one, false));
                    list.push(sem(EntryKind::RemoteSem, one, true));
                }
                Lane::Rx => {
                    let local = l.die_local(tx_die.die, l.sem_addr(SemOp::Inc, w.local_sem));
                    let remote =
                        l.fold_for(tx_die, rx_die, l.sem_addr(SemOp::Inc, w.remote_sem))?;
                    list.push(sem(EntryKind::LocalSem, local, false));
                    list.push(sem(EntryKind::RemoteSem, remote, false));
                }
            }
            plan.push((*e, list));
        }
        let len = self.config.ring_len;
        for (e, list) in &plan {
            let ring = self
                .dies
                .get(&tx_die)
                .and_then(|d| d.rings.get(&(*e, queue)))
                .map(|r| &r[side_idx(side)]);
            let (head, written) = ring.map_or((0, 0), |r| (r.head, r.written));
            let need = written - head + list.len() as u64;
            if need > len {
                return Err(ModelError::RingFull {
                    die: tx_die,
                    engine: *e,
                    side: side.as_str(),
                    queue,
                    len,
                    need,
                });
            }
        }

        let leg_id = self.find_or_add_leg(cand, role)?;
        let mut out = GenOutput {
            leg: leg_id,
            role,
            dst_soc,
            engines: Vec::new(),
            writes: Vec::new(),
            num_descriptors: 0,
        };
        let mut counts = Vec::new();
        let issuer = self.die_of(core);
        for (e, list) in plan {
            let base = self.ring_base(e, side, queue);
            let mut entries = Vec::new();
            for (kind, mut desc) in list {
                let st = self.die_mut(tx_die)?;
                let ring = &mut st.rings.entry((e, queue)).or_default()[side_idx(side)];
                let pos = ring.written;
                ring.written += 1;
                ring.tags.insert(pos, (leg_id, kind));
                desc.ring_id = self.layout.ring_id(pos, len);
                let bytes = self.layout.encode_desc(side, &desc)?;
                let slot = base + (pos % len) * self.layout.desc_bytes;
                self.die_mut(tx_die)?.mem.write(slot, &bytes);
                out.writes.push(FwWrite {
                    soc: self.layout.fold_for(issuer, tx_die, slot)?,
                    die: tx_die,
                    local: slot,
                    bytes: bytes.clone(),
                });
                entries.push(RingEntry {
                    kind,
                    desc,
                    bytes,
                    pos,
                    slot,
                });
            }
            counts.push((e, entries.len() as u64));
            out.num_descriptors += entries.len() as u64;
            out.engines.push(EngineRing {
                engine: e,
                queue,
                side,
                entries,
            });
        }
        self.pending
            .entry((core, role as u64))
            .or_default()
            .push_back((leg_id, counts));
        Ok(out)
    }

    // ------------------------------------------------------------------ start

    /// rdma_desc_start on context `prid` of `core`. Checks PRID parity and the DescriptorStream
    /// count at once; the steps themselves run (in order, after earlier steps of the context)
    /// during `run`.
    pub fn start(&mut self, core: Core, prid: u64, w: &StartWord) -> Result<Vec<FwStep>> {
        self.topology.check_core(core)?;
        if prid / 2 != core.id {
            return Err(ModelError::PridNotOfCore { core, prid });
        }
        if w.role > 1 {
            return Err(ModelError::BadRole(w.role));
        }
        if prid & 1 != w.role {
            return Err(ModelError::RoleParity {
                core,
                prid,
                role: w.role,
                parity: prid & 1,
            });
        }
        let role = Self::role(w.role)?;
        if w.go_sem >= self.layout.sem_count {
            return Err(ModelError::SemOutOfRange {
                sem: w.go_sem,
                count: self.layout.sem_count,
            });
        }
        if w.go_sem == w.local_sem {
            // Both live in TX's EVT_SEM: right_push would count as a source release.
            return Err(ModelError::Impossible(format!(
                "go_sem {} is local_sem too",
                w.go_sem
            )));
        }
        let key = (core, w.role);
        let Some((leg_id, counts)) = self.pending.get(&key).and_then(|q| q.front()).cloned() else {
            return Err(ModelError::StartWithoutGen { core, role: w.role });
        };
        let leg = self.legs[leg_id].clone();
        if leg.mask != w.dma_engine_mask {
            return Err(ModelError::StartMismatch {
                core,
                what: "dma_engine_mask",
            });
        }
        if leg.queue as u64 != w.queue {
            return Err(ModelError::StartMismatch {
                core,
                what: "queue",
            });
        }
        let side = match role {
            Lane::Tx => Side::M2s,
            Lane::Rx => Side::S2m,
        };
        let total: u64 = counts.iter().map(|(_, n)| n).sum();
        if w.num_descriptors != total {
            return Err(ModelError::DescriptorCount {
                engine: None,
                wrote: w.num_descriptors,
                expected: total,
            });
        }
        // The stream guard: what sits unposted in each ring must be exactly this leg's share.
        let chunks = self.chunks(leg.free_dim_bytes);
        for (e, parts) in &leg.shares {
            let expected = (parts.end - parts.start) * chunks + 2;
            let wrote = self
                .dies
                .get(&leg.tx_die)
                .and_then(|d| d.rings.get(&(*e, leg.queue)))
                .map_or(0, |r| r[side_idx(side)].written - r[side_idx(side)].claimed);
            if wrote != expected {
                return Err(ModelError::DescriptorCount {
                    engine: Some(*e),
                    wrote,
                    expected,
                });
            }
        }
        if let Some(q) = self.pending.get_mut(&key) {
            q.pop_front();
        }
        for &(e, n) in &counts {
            if let Some(r) = self
                .dies
                .get_mut(&leg.tx_die)
                .and_then(|d| d.rings.get_mut(&(e, leg.queue)))
            {
                r[side_idx(side)].claimed += n;
            }
        }

        let me = self.die_of(core);
        let l = &self.layout;
        let mut steps = Vec::new();
        let mut fw = Vec::new();
        let store = |local: u64, value: u64| -> Result<FwWrite> {
            let mut bytes = value.to_le_bytes().to_vec();
            bytes.truncate(4);
            Ok(FwWrite {
                soc: l.fold_for(me, leg.tx_die, local)?,
                die: leg.tx_die,
                local,
                bytes,
            })
        };
        let doorbells: Vec<FwWrite> = counts
            .iter()
            .map(|&(e, n)| store(l.side(side).doorbell(e, leg.queue), n))
            .collect::<Result<_>>()?;
        match role {
            Lane::Rx => {
                for d in doorbells {
                    fw.push(FwStep::Store(d.clone()));
                    steps.push(Step::Store { from: me, write: d });
                }
                let go = store(l.sem_addr(SemOp::Inc, w.go_sem), 1)?;
                fw.push(FwStep::Store(go.clone()));
                steps.push(Step::Store {
                    from: me,
                    write: go,
                });
            }
            Lane::Tx => {
                fw.push(FwStep::WaitGeDec {
                    sem: w.go_sem,
                    value: 1,
                    subop: l.subop_wait_ge_dec,
                });
                steps.push(Step::Wait {
                    die: me,
                    sem: w.go_sem,
                    value: 1,
                });
                for d in doorbells {
                    fw.push(FwStep::Store(d.clone()));
                    steps.push(Step::Store { from: me, write: d });
                }
            }
        }
        self.programs.entry(key).or_default().extend(steps);
        Ok(fw)
    }

    /// A sequencer wait_ge_and_dec on the context's own die, queued behind its earlier steps.
    pub fn wait_ge_and_dec(&mut self, core: Core, lane: Lane, sem: u64, value: u64) -> Result<()> {
        self.topology.check_core(core)?;
        if sem >= self.layout.sem_count {
            return Err(ModelError::SemOutOfRange {
                sem,
                count: self.layout.sem_count,
            });
        }
        let die = self.die_of(core);
        self.programs
            .entry((core, lane as u64))
            .or_default()
            .push_back(Step::Wait { die, sem, value });
        Ok(())
    }

    // ------------------------------------------------------------------ run

    /// Apply a write at its target, log it. Faults are logged, not returned: the hardware logs
    /// them and carries on.
    fn land(&mut self, die: DieId, local: u64, bytes: Vec<u8>, by: Writer) {
        let l = &self.layout;
        let n = bytes.len() as u64;
        let target = l.decode_local(local);
        let Some(st) = self.dies.get_mut(&die) else {
            self.events.push(Event::Fault {
                die,
                what: format!("write to {local:#x}: die not in the topology"),
            });
            return;
        };
        let fault = match target {
            Some(Target::Sbuf { partition, offset })
                if partition < l.sbuf_partitions && offset + n <= l.sbuf_backing =>
            {
                st.mem.write(local, &bytes);
                None
            }
            Some(Target::Hbm) if local + n <= l.hbm.end() => {
                st.mem.write(local, &bytes);
                None
            }
            Some(Target::Sem { op, sem, aligned }) if aligned && n == l.sem_bytes => {
                let mut b = [0u8; 4];
                let k = bytes.len().min(4);
                b[..k].copy_from_slice(&bytes[..k]);
                let v = i32::from_le_bytes(b);
                if let Some(s) = st.sems.get_mut(sem as usize) {
                    let cur = *s as i32;
                    *s = match op {
                        SemOp::Inc => cur.wrapping_add(v),
                        SemOp::Dec => cur.wrapping_sub(v),
                        SemOp::Set => v,
                        SemOp::Read => cur,
                    } as i64;
                }
                None
            }
            _ => Some(format!(
                "write of {n} bytes to {local:#x} hits nothing backed"
            )),
        };
        match fault {
            Some(what) => self.events.push(Event::Fault { die, what }),
            None => self.events.push(Event::Landed(Landed {
                die,
                local,
                bytes,
                by,
            })),
        }
    }

    fn doorbell(&mut self, die: DieId, local: u64, value: u64, by: Core) -> bool {
        for side in SIDES {
            let sl = self.layout.side(side);
            for e in 0..self.layout.engines {
                for q in 0..self.layout.queues {
                    if sl.doorbell(e, q) != local {
                        continue;
                    }
                    let Some(st) = self.dies.get_mut(&die) else {
                        return false;
                    };
                    let ring = &mut st.rings.entry((e, q)).or_default()[side_idx(side)];
                    if ring.tail + value > ring.head + self.config.ring_len {
                        self.events.push(Event::Fault {
                            die,
                            what: format!(
                                "{} doorbell of engine {e} queue {q} overruns",
                                side.as_str()
                            ),
                        });
                        return true;
                    }
                    ring.tail += value;
                    self.events.push(Event::Doorbell {
                        die,
                        engine: e,
                        side,
                        queue: q,
                        n: value,
                        by,
                    });
                    return true;
                }
            }
        }
        false
    }

    fn try_step(&mut self, core: Core, step: &Step) -> Result<bool> {
        match step {
            Step::Wait { die, sem, value } => {
                let Some(st) = self.dies.get_mut(die) else {
                    return Ok(false);
                };
                let s = &mut st.sems[*sem as usize];
                if *s < *value as i64 {
                    return Ok(false);
                }
                *s -= *value as i64;
                let v = *s;
                self.events.push(Event::SemWaitDone {
                    die: *die,
                    sem: *sem,
                    value: v,
                    by: core,
                });
                Ok(true)
            }
            Step::Store { from, write } => {
                let (die, local) = self.layout.route(*from, write.soc)?;
                let mut v = [0u8; 8];
                v[..write.bytes.len().min(8)]
                    .copy_from_slice(&write.bytes[..write.bytes.len().min(8)]);
                if !self.doorbell(die, local, u64::from_le_bytes(v), core) {
                    self.land(die, local, write.bytes.clone(), Writer::Firmware { core });
                }
                Ok(true)
            }
        }
    }

    /// Execute the pair at the heads of one queue. Returns false when it cannot run.
    fn try_pair(&mut self, die: DieId, e: u32, q: u32) -> Result<bool> {
        let len = self.config.ring_len;
        let Some(rings) = self.dies.get(&die).and_then(|d| d.rings.get(&(e, q))) else {
            return Ok(false);
        };
        let ready = rings.iter().all(|r| r.tail > r.head && !r.halted);
        if !ready {
            return Ok(false);
        }
        let heads = [rings[0].head, rings[1].head];
        let tag = rings[0].tags.get(&heads[0]).copied();
        let partner = rings[1].tags.get(&heads[1]).copied();
        if tag.is_some() && partner.is_some() && tag != partner {
            // Two legs' gens interleaved on one queue: the hardware pairs by position anyway.
            self.events.push(Event::Fault {
                die,
                what: format!(
                    "engine {e} queue {q}: M2S entry {tag:?} paired with S2M entry {partner:?}"
                ),
            });
        }
        let mut descs = Vec::new();
        let mut bad = false;
        for side in SIDES {
            let i = side_idx(side);
            let slot = self.ring_base(e, side, q) + (heads[i] % len) * self.layout.desc_bytes;
            let bytes = self.read_local(die, slot, self.layout.desc_bytes);
            let d = self.layout.decode_desc(side, &bytes)?;
            let expected = self.layout.ring_id(heads[i], len);
            if d.ring_id != expected {
                self.events.push(Event::RingIdError {
                    die,
                    engine: e,
                    side,
                    queue: q,
                    found: d.ring_id,
                    expected,
                });
                if let Some(r) = self
                    .dies
                    .get_mut(&die)
                    .and_then(|d| d.rings.get_mut(&(e, q)))
                {
                    r[i].halted = true;
                }
                bad = true;
            }
            descs.push(d);
        }
        if bad {
            return Ok(true);
        }
        let (m, s) = (descs[0], descs[1]);
        match self.layout.route(die, m.buf_ptr) {
            Ok((sd, sl)) => {
                let data = self.read_local(sd, sl, m.len);
                match self.layout.route(die, s.buf_ptr) {
                    Ok((dd, dl)) => self.land(
                        dd,
                        dl,
                        data,
                        Writer::Engine {
                            die,
                            engine: e,
                            queue: q,
                            leg: tag.map(|t| t.0),
                            kind: tag.map(|t| t.1),
                        },
                    ),
                    Err(err) => self.events.push(Event::Fault {
                        die,
                        what: err.to_string(),
                    }),
                }
            }
            Err(err) => self.events.push(Event::Fault {
                die,
                what: err.to_string(),
            }),
        }
        if let Some(r) = self
            .dies
            .get_mut(&die)
            .and_then(|d| d.rings.get_mut(&(e, q)))
        {
            r[0].head += 1;
            r[1].head += 1;
        }
        Ok(true)
    }

    /// Run every context's queued steps and every engine until nothing can move. Contexts go
    /// first each round; engines then execute one pair per queue, dies, engines and queues in
    /// ascending order.
    pub fn run(&mut self) -> Result<RunReport> {
        loop {
            let mut progress = false;
            let keys: Vec<(Core, u64)> = self.programs.keys().copied().collect();
            for key in keys {
                while let Some(step) = self.programs.get(&key).and_then(|p| p.front()).cloned() {
                    if !self.try_step(key.0, &step)? {
                        break;
                    }
                    if let Some(p) = self.programs.get_mut(&key) {
                        p.pop_front();
                    }
                    progress = true;
                }
            }
            let queues: Vec<(DieId, u32, u32)> = self
                .dies
                .iter()
                .flat_map(|(d, st)| st.rings.keys().map(move |(e, q)| (*d, *e, *q)))
                .collect();
            for (d, e, q) in queues {
                progress |= self.try_pair(d, e, q)?;
            }
            if !progress {
                break;
            }
        }
        Ok(self.report())
    }

    fn report(&self) -> RunReport {
        let mut r = RunReport::default();
        for ((core, lane), p) in &self.programs {
            if let Some(Step::Wait { sem, value, .. }) = p.front() {
                r.blocked.push(format!(
                    "{core} PRID {} waits sem {sem} >= {value}",
                    core.prid(if *lane == 1 { Lane::Tx } else { Lane::Rx })
                ));
            }
        }
        for (d, st) in &self.dies {
            for ((e, q), rings) in &st.rings {
                for side in SIDES {
                    let ring = &rings[side_idx(side)];
                    if ring.tail > ring.head {
                        r.stranded.push(format!(
                            "{d} engine {e} {} queue {q}: {} posted descriptors unserved{}",
                            side.as_str(),
                            ring.tail - ring.head,
                            if ring.halted { " (halted)" } else { "" }
                        ));
                    }
                }
            }
        }
        r
    }

    /// `run`, then insist that every context finished and every posted descriptor was served.
    pub fn run_to_completion(&mut self) -> Result<()> {
        let r = self.run()?;
        if r.blocked.is_empty() && r.stranded.is_empty() {
            Ok(())
        } else {
            Err(ModelError::Stalled(
                r.blocked
                    .into_iter()
                    .chain(r.stranded)
                    .collect::<Vec<_>>()
                    .join("; "),
            ))
        }
    }

    // ------------------------------------------------------------------ expectations

    /// The checker's view of a leg.
    pub fn leg_expect(&self, id: LegId) -> Option<LegExpect> {
        let leg = self.legs.get(id)?;
        let l = &self.layout;
        Some(LegExpect {
            id,
            tx_die: leg.tx_die,
            rx_die: leg.rx_die,
            dst: (0..leg.partitions)
                .map(|p| (l.sbuf_addr(p, leg.dst_addr), leg.free_dim_bytes))
                .collect(),
            remote_sem_addr: l.sem_addr(SemOp::Inc, leg.remote_sem),
            local_sem_addr: l.sem_addr(SemOp::Inc, leg.local_sem),
            n_engines: leg.n_engines(),
        })
    }

    /// Whether `reach` from TX to RX of a leg crosses a die or a package.
    pub fn leg_reach(&self, id: LegId) -> Option<Reach> {
        self.legs.get(id).map(|l| reach(l.tx_die, l.rx_die))
    }

    pub fn end_state(&self) -> crate::state::EndState {
        crate::state::EndState::capture(self)
    }

    pub(crate) fn rings_view(&self) -> Vec<crate::state::QueueEnd> {
        let len = self.config.ring_len;
        let mut out = Vec::new();
        for (d, st) in &self.dies {
            for ((e, q), rings) in &st.rings {
                for side in SIDES {
                    let r = &rings[side_idx(side)];
                    out.push(crate::state::QueueEnd {
                        die: *d,
                        engine: *e,
                        side,
                        queue: *q,
                        head: r.head % len,
                        head_ring_id: self.layout.ring_id(r.head, len),
                        tail: r.tail % len,
                        tail_ring_id: self.layout.ring_id(r.tail, len),
                        used: r.tail - r.head,
                        halted: r.halted,
                    });
                }
            }
        }
        out
    }

    pub(crate) fn sems_view(&self) -> Vec<crate::state::SemValue> {
        let mut out = Vec::new();
        for (d, st) in &self.dies {
            for (i, &v) in st.sems.iter().enumerate() {
                if v != 0 {
                    out.push(crate::state::SemValue {
                        die: *d,
                        sem: i as u64,
                        value: v,
                    });
                }
            }
        }
        out
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunReport {
    /// Contexts stopped at a wait that never became true.
    pub blocked: Vec<String>,
    /// Rings with posted descriptors the engine could not serve (no partner entry, halted).
    pub stranded: Vec<String>,
}
