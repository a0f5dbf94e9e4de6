//! rdma_desc_gen: validate a gen word, split the leg over its engines and write this side's
//! ring entries on the TX die.

use super::{side_idx, FwWrite, System};
use crate::desc::{Descriptor, EntryKind};
use crate::error::{ModelError, Result};
use crate::events::LegId;
use crate::layout::{SemOp, Side};
use crate::topology::{Core, DieId, Lane};
use crate::word::GenWord;
use xdie_csr::AccDtype;

/// One leg: what both gens asked for and how it was split.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leg {
    pub id: LegId,
    pub tx: Core,
    pub rx: Core,
    pub tx_die: DieId,
    pub rx_die: DieId,
    /// The TX and the RX core's index among their die's cores: whose SBUF and EVT_SEM the leg
    /// reads, writes and counts into (local_sem: TX's; remote_sem: RX's).
    pub tx_tpb: u64,
    pub rx_tpb: u64,
    pub queue: u32,
    pub mask: u64,
    pub partitions: u64,
    pub free_dim_bytes: u64,
    pub src_addr: Option<u64>,
    pub dst_addr: u64,
    /// The lane type the RX side adds the data into its SBUF as (its gen's `accumulate`);
    /// None for a plain write. Known once the RX side generated.
    pub accumulate: Option<AccDtype>,
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

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenOutput {
    pub leg: LegId,
    pub role: Lane,
    /// Destination (partition 0, byte dst_addr) as the TX engines address it.
    pub dst_soc: u64,
    pub engines: Vec<EngineRing>,
    /// The descriptor stores, in order.
    pub writes: Vec<FwWrite>,
    /// Descriptors each engine's ring holds for this leg (every engine the same): the value
    /// rdma_desc_start's num_descriptors must carry, the tail increment of every doorbell.
    pub num_descriptors: u64,
}

impl System {
    /// Checks a gen word's geometry; returns its queue, its engines and its accumulate lane type
    /// (None: a plain write).
    fn check_geometry(&self, w: &GenWord) -> Result<(u32, Vec<u32>, Option<AccDtype>)> {
        let l = &self.layout;
        if w.partitions == 0 || w.partitions > l.params.sbuf_partitions {
            return Err(ModelError::PartitionsOutOfRange {
                partitions: w.partitions,
                max: l.params.sbuf_partitions,
            });
        }
        if w.free_dim_bytes == 0 {
            return Err(ModelError::Impossible("free_dim_bytes is 0".into()));
        }
        for (which, off) in [("source", w.src_addr), ("destination", w.dst_addr)] {
            if off
                .checked_add(w.free_dim_bytes)
                .is_none_or(|e| e > l.params.sbuf_backing_bytes)
            {
                return Err(ModelError::OutsideSbufBacking {
                    which,
                    offset: off,
                    len: w.free_dim_bytes,
                    backing: l.params.sbuf_backing_bytes,
                });
            }
        }
        let Some(acc) = l.acc_codes.decode(w.accumulate) else {
            return Err(ModelError::Impossible(format!(
                "accumulate code {} is none of {}",
                w.accumulate,
                l.acc_codes.describe()
            )));
        };
        if let Some(dtype) = acc {
            let lane = dtype.lane_bytes();
            if w.role == Lane::Rx as u64
                && (!w.dst_addr.is_multiple_of(lane)
                    || !w.free_dim_bytes.is_multiple_of(lane)
                    || !l.ring.max_len_code.is_multiple_of(lane))
            {
                return Err(ModelError::Impossible(format!(
                    "accumulate as {}: dst_addr {:#x} and free_dim_bytes {:#x} must be \
                     multiples of the {lane}-byte lane",
                    dtype.name(),
                    w.dst_addr,
                    w.free_dim_bytes
                )));
            }
        }
        if w.dma_engine_mask == 0 {
            return Err(ModelError::Impossible("dma_engine_mask is 0".into()));
        }
        if let Some(engine) =
            (0..64u32).find(|&e| e >= l.engine_count() && (w.dma_engine_mask >> e) & 1 == 1)
        {
            return Err(ModelError::MissingEngine {
                mask: w.dma_engine_mask,
                engine,
                engines: l.engine_count(),
            });
        }
        if w.queue >= l.queues() {
            return Err(ModelError::QueueOutOfRange {
                queue: w.queue,
                queues: l.queues(),
            });
        }
        for sem in [w.local_sem, w.remote_sem] {
            if sem >= l.sem_count() {
                return Err(ModelError::SemOutOfRange {
                    sem,
                    count: l.sem_count(),
                });
            }
        }
        let engines: Vec<u32> = (0..l.engine_count())
            .filter(|e| (w.dma_engine_mask >> e) & 1 == 1)
            .collect();
        if !w.partitions.is_multiple_of(engines.len() as u64) {
            return Err(ModelError::UnevenSplit {
                partitions: w.partitions,
                engines: engines.len() as u64,
            });
        }
        Ok((w.queue as u32, engines, acc))
    }

    /// Partitions split over the engines in mask order, contiguously and evenly (the caller
    /// checked that the engine count divides the partitions).
    fn split(partitions: u64, engines: &[u32]) -> Vec<(u32, std::ops::Range<u64>)> {
        let take = partitions / engines.len() as u64;
        engines
            .iter()
            .zip(0u64..)
            .map(|(&e, i)| (e, i * take..(i + 1) * take))
            .collect()
    }

    pub(super) fn chunks(&self, free: u64) -> u64 {
        free.div_ceil(self.layout.ring.max_len_code)
    }

    pub(super) fn role(v: u64) -> Result<Lane> {
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
            if role == Lane::Rx {
                leg.accumulate = cand.accumulate;
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
        let (queue, engines, accumulate) = self.check_geometry(w)?;
        let peer_die = self.die_of(peer).die;
        if w.peer_base != 0 && self.layout.soc.local.die.get(w.peer_base as u128) as u64 != peer_die
        {
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
        let (tx_tpb, rx_tpb) = (self.topology.tpb_of(tx), self.topology.tpb_of(rx));
        let l = &self.layout;
        // Where partition 0's data lands (an accumulating RX side: the aperture that adds).
        let dst_local = match accumulate.filter(|_| role == Lane::Rx) {
            Some(dtype) => l.sbuf_acc_addr(dtype, rx_tpb, 0, w.dst_addr),
            None => l.sbuf_addr(rx_tpb, 0, w.dst_addr),
        };
        let dst_soc = self.topology.fold(l, tx_die, rx_die, dst_local)?;
        let shares = Self::split(w.partitions, &engines);
        let cand = Leg {
            id: 0,
            tx,
            rx,
            tx_die,
            rx_die,
            tx_tpb,
            rx_tpb,
            queue,
            mask: w.dma_engine_mask,
            partitions: w.partitions,
            free_dim_bytes: w.free_dim_bytes,
            src_addr: (role == Lane::Tx).then_some(w.src_addr),
            dst_addr: w.dst_addr,
            accumulate: accumulate.filter(|_| role == Lane::Rx),
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
                    let off = c * l.ring.max_len_code;
                    let len = (w.free_dim_bytes - off).min(l.ring.max_len_code);
                    let buf_ptr = match role {
                        Lane::Tx => l
                            .soc
                            .soc_local(tx_die.die, l.sbuf_addr(tx_tpb, p, w.src_addr + off)),
                        Lane::Rx => {
                            // An accumulating leg lands in the lane type's aperture, which
                            // adds into the same SBUF bytes.
                            let local = match accumulate {
                                Some(dtype) => l.sbuf_acc_addr(dtype, rx_tpb, p, w.dst_addr + off),
                                None => l.sbuf_addr(rx_tpb, p, w.dst_addr + off),
                            };
                            self.topology.fold(l, tx_die, rx_die, local)?
                        }
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
            let one = l.soc.soc_local(tx_die.die, self.const_one_addr());
            let sem = |kind, buf_ptr, write_barrier| {
                (
                    kind,
                    Descriptor {
                        len: l.evt_sem.sem_bytes(),
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
                    let local = l
                        .soc
                        .soc_local(tx_die.die, l.sem_addr(tx_tpb, SemOp::Inc, w.local_sem));
                    let remote = self.topology.fold(
                        l,
                        tx_die,
                        rx_die,
                        l.sem_addr(rx_tpb, SemOp::Inc, w.remote_sem),
                    )?;
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
                let slot = base + (pos % len) * self.layout.params.desc_bytes;
                self.die_mut(tx_die)?.mem.write(slot, &bytes);
                out.writes.push(FwWrite {
                    soc: self.topology.fold(&self.layout, issuer, tx_die, slot)?,
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
            out.num_descriptors = entries.len() as u64;
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
}
