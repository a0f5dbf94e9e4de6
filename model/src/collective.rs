//! Collectives compiled into legs (docs/collectives.md).
//!
//! A scenario's `collective: {kind, ranks, bytes_per_rank, dtype, ...}` becomes an ordinary list
//! of legs with `after` chains, so the model, the testbench's driver and the C firmware run it
//! exactly as they run hand-written legs. This module holds the description, the compiler, the
//! input data, the check of the result and the analytic bound.
//!
//! # Buffers
//! Every rank has one buffer of `partitions` SBUF partitions (from partition 0), `width` bytes
//! of each at byte `offset`. Chunk `c` of `N` is the same slice of every partition:
//! `[offset + c * width / N, offset + (c + 1) * width / N)`. A leg moves one chunk (or one
//! engine's share of it, below) from a rank's buffer to the same place in another rank's.
//!
//! # Streams
//! Each leg uses one SDMA engine. A rank's legs to one peer on engine `e` (its queue is the
//! rank's slot on its die) form a *stream*: one ring pair, executed in order, each leg adding
//! exactly one increment to its semaphores. A step of a ring algorithm is `engines` legs, one
//! per stream `e`, each moving `1/engines` of the chunk. The legs of one stream share their
//! three semaphores (go_sem and local_sem on the sender's die, remote_sem on the receiver's):
//! the reuse rule of [`crate::scenario`] (`check_semaphores`) allows exactly this.
//!
//! With `split: partitions` a step is one leg per rank over all `engines` instead: the gen gives
//! each engine `partitions / engines` partitions at the chunk's whole width, so a step writes a
//! third of the descriptors (with four engines: a quarter of the data descriptors, the same
//! semaphore entries) and the firmware gens and starts once per step.
//! Such a leg's engines finish at different times, so its semaphores are its own (three per step
//! on every die; [`Split`]).
//!
//! # Algorithms
//! - all_gather (ring): `bytes_per_rank` S is each rank's contribution, its buffer holds N * S
//!   and rank r's own data is chunk r. Step k = 0..N-2: rank r sends chunk (r - k) mod N to rank
//!   r + 1, after the step k - 1 leg into r.
//! - reduce_scatter (ring): S is the whole buffer. Step k: rank r sends chunk (r - k) mod N to
//!   r + 1, which adds it into its own chunk (the accumulate aperture of `dtype`), after the step
//!   k - 1 leg into r. Rank r ends holding chunk (r + 1) mod N reduced over all ranks.
//! - all_reduce: reduce_scatter, then all_gather of the reduced chunks (rank r starts with chunk
//!   (r + 1) mod N), its first step after the last reduce-scatter leg into r.
//! - all_to_all (direct): S is the input buffer; block j goes to rank j, which stores the block
//!   of rank i as block i of its output buffer (the `width` bytes after the input). One leg per
//!   ordered pair (the own block too, as a copy between the core's two contexts), all at once,
//!   queue = destination rank's slot.
//! - broadcast (pipelined ring from `root`): S is the buffer, split into N chunks; chunk m goes
//!   root -> root + 1 -> ... one hop after another, each hop after the previous hop of that chunk.
//!
//! # Reduction order
//! Chunk c is reduced along the ring starting at rank c: v = in[c]; then, at each rank
//! c + i (i = 1..N-1), v = in[c + i] + v, the add the accumulate aperture does (old + incoming).

use crate::reduce::{add_lane, AccDtype};
use crate::rng::Rng;
use crate::scenario::{Fill, LaunchMode, LegSpec};
use crate::topology::{Core, DieId, Topology};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The collectives a scenario can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    AllGather,
    AllToAll,
    ReduceScatter,
    AllReduce,
    Broadcast,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::AllGather => "all_gather",
            Kind::AllToAll => "all_to_all",
            Kind::ReduceScatter => "reduce_scatter",
            Kind::AllReduce => "all_reduce",
            Kind::Broadcast => "broadcast",
        }
    }
}

/// The element type: what the input data looks like, and how a reduction adds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dtype {
    Int32,
    Fp32,
}

impl Dtype {
    pub fn acc(self) -> AccDtype {
        match self {
            Dtype::Int32 => AccDtype::I32,
            Dtype::Fp32 => AccDtype::F32,
        }
    }

    pub fn name(self) -> &'static str {
        self.acc().name()
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawRank {
    chip: u64,
    core: u64,
}

/// `collective:` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCollective {
    kind: Kind,
    ranks: Vec<RawRank>,
    bytes_per_rank: u64,
    dtype: Dtype,
    /// SBUF partitions of every buffer (from partition 0).
    #[serde(default)]
    partitions: Option<u64>,
    /// Engines (streams) per step: engines first_engine .. first_engine + engines - 1.
    #[serde(default)]
    engines: Option<u64>,
    #[serde(default)]
    first_engine: Option<u64>,
    /// Byte offset of every buffer in its partitions.
    #[serde(default)]
    offset: Option<u64>,
    /// First semaphore the compiler hands out on every die.
    #[serde(default)]
    sem_base: Option<u64>,
    /// The broadcasting rank (index into `ranks`).
    #[serde(default)]
    root: Option<u64>,
    /// How a ring step's chunk is split over the engines.
    #[serde(default)]
    split: Option<Split>,
}

/// How a step of a ring collective (all-gather, reduce-scatter, all-reduce) splits its chunk
/// over the `engines`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Split {
    /// One single-engine leg per engine, each a slice of the chunk's width in every partition:
    /// streams whose legs share three semaphores over all steps (any number of steps).
    #[default]
    Width,
    /// One leg per step over all engines, each engine `partitions / engines` of the partitions
    /// at the chunk's whole width (the gen's own split): with four engines a quarter of the data
    /// descriptors (one per partition, not one per partition and engine) and a third of all, one
    /// gen and one start per step. Its engines finish at different times, so the leg's semaphores serve
    /// that step only: three per step on every die.
    Partitions,
}

/// Default partitions of a buffer.
pub const DEFAULT_PARTITIONS: u64 = 16;
/// Default engines (streams) per step.
pub const DEFAULT_ENGINES: u64 = 4;
/// Most ranks of one collective.
pub const MAX_RANKS: usize = 256;
/// Most partitions of a collective's buffer before the die's own count is known (the CSR
/// loader's largest array; the die's `SBUF_PARTITIONS` is checked when the model runs).
pub const MAX_PARTITIONS: u64 = 1 << 16;
/// Largest buffer offset before the die's SBUF is known (the die's backing is checked when the
/// model runs).
pub const MAX_OFFSET: u64 = 1 << 40;
/// Largest `sem_base` before the die's semaphore count is known (checked when the model runs).
pub const MAX_SEM_BASE: u64 = 1 << 16;

/// What a generated leg is in its collective.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LegRole {
    /// "rs", "ag", "a2a" or "bc".
    pub phase: &'static str,
    pub step: u64,
    pub from: usize,
    pub to: usize,
    pub chunk: u64,
    /// The stream's engine offset (0..engines).
    pub stream: u64,
}

/// A checked collective and the legs it compiles to.
#[derive(Debug, Clone)]
pub struct Collective {
    pub kind: Kind,
    pub ranks: Vec<Core>,
    pub bytes_per_rank: u64,
    pub dtype: Dtype,
    pub partitions: u64,
    pub engines: u64,
    pub first_engine: u64,
    pub offset: u64,
    pub sem_base: u64,
    pub root: usize,
    pub split: Split,
    /// One per compiled leg, in leg order.
    pub roles: Vec<LegRole>,
}

/// A problem with `collective:`: the key below `collective` and the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CollectiveError {
    pub key: String,
    pub message: String,
}

fn err(key: &str, message: String) -> CollectiveError {
    CollectiveError {
        key: if key.is_empty() {
            "collective".into()
        } else {
            format!("collective.{key}")
        },
        message,
    }
}

/// The die of a core (the model's rule: bit 1 of the core id, `Topology::die_of`).
fn die_of(core: Core) -> DieId {
    Topology::package(core.chip).die_of(core)
}

/// The core's index on its die (`Topology::tpb_of`).
fn tpb_of(core: Core) -> u64 {
    Topology::package(core.chip).tpb_of(core)
}

impl Collective {
    pub(crate) fn from_raw(raw: RawCollective) -> Result<Collective, CollectiveError> {
        let ranks: Vec<Core> = raw
            .ranks
            .iter()
            .map(|r| Core {
                chip: r.chip,
                id: r.core,
            })
            .collect();
        let n = ranks.len();
        if !(2..=MAX_RANKS).contains(&n) {
            return Err(err(
                "ranks",
                format!("{n} ranks; a collective has 2..={MAX_RANKS}"),
            ));
        }
        for (i, r) in ranks.iter().enumerate() {
            if let Some(j) = ranks[..i].iter().position(|q| q == r) {
                return Err(err(
                    &format!("ranks[{i}]"),
                    format!("{r} is rank {j} already"),
                ));
            }
        }
        let partitions = raw.partitions.unwrap_or(DEFAULT_PARTITIONS);
        let engines = raw.engines.unwrap_or(DEFAULT_ENGINES);
        // Bounds that need no CSRs, so that no product below can overflow; the die's own
        // (partitions, engines, semaphores) are checked against the CSRs before the model runs
        // (`Scenario::run_model`). docs/limits.md lists them.
        if partitions == 0 || partitions > MAX_PARTITIONS {
            return Err(err(
                "partitions",
                format!("{partitions} partitions; a buffer has 1..={MAX_PARTITIONS}"),
            ));
        }
        if engines == 0 || engines > 64 {
            return Err(err(
                "engines",
                format!("{engines} engines; give 1..=64 (and at most the die's engines)"),
            ));
        }
        let first_engine = raw.first_engine.unwrap_or(0);
        // Checked: a huge first_engine must not wrap around and pass.
        if first_engine.checked_add(engines).is_none_or(|end| end > 64) {
            return Err(err(
                "first_engine",
                format!(
                    "first_engine {first_engine} + {engines} engines passes engine 63: engines \
                     are bits of a 64-bit mask (and at most the die's engines)"
                ),
            ));
        }
        let offset = raw.offset.unwrap_or(0);
        if offset > MAX_OFFSET {
            return Err(err(
                "offset",
                format!("offset {offset:#x} is past any SBUF partition (at most {MAX_OFFSET:#x})"),
            ));
        }
        let sem_base = raw.sem_base.unwrap_or(0);
        if sem_base > MAX_SEM_BASE {
            return Err(err(
                "sem_base",
                format!(
                    "sem_base {sem_base} is past any die's semaphores (at most {MAX_SEM_BASE})"
                ),
            ));
        }
        let root = raw.root.unwrap_or(0);
        if root >= n as u64 {
            return Err(err(
                "root",
                format!("root {root}: there are {n} ranks (root is an index into `ranks`, 0..{n})"),
            ));
        }
        if raw.root.is_some() && raw.kind != Kind::Broadcast {
            return Err(err("root", format!("{} has no root", raw.kind.name())));
        }
        let split = raw.split.unwrap_or_default();
        if split == Split::Partitions {
            if matches!(raw.kind, Kind::AllToAll | Kind::Broadcast) {
                return Err(err(
                    "split",
                    format!(
                        "{} has no ring steps to split by partitions (give `width`)",
                        raw.kind.name()
                    ),
                ));
            }
            if !partitions.is_multiple_of(engines) {
                return Err(err(
                    "split",
                    format!("{partitions} partitions do not split evenly over {engines} engines"),
                ));
            }
        }
        // A rank's buffer (all-gather: N chunks of S; all-to-all: input and output) is bounded
        // before any product of it is taken, so no offset below can wrap around.
        let buffer = match raw.kind {
            Kind::AllGather => raw.bytes_per_rank.checked_mul(n as u64),
            Kind::AllToAll => raw.bytes_per_rank.checked_mul(2),
            _ => Some(raw.bytes_per_rank),
        };
        if buffer.is_none_or(|b| b > crate::scenario::MAX_SCENARIO_BYTES) {
            return Err(err(
                "bytes_per_rank",
                format!(
                    "bytes_per_rank {:#x}: a rank's buffer would be past {:#x} bytes, the most \
                     a scenario moves (the model holds every byte in memory)",
                    raw.bytes_per_rank,
                    crate::scenario::MAX_SCENARIO_BYTES
                ),
            ));
        }
        let mut c = Collective {
            kind: raw.kind,
            ranks,
            bytes_per_rank: raw.bytes_per_rank,
            dtype: raw.dtype,
            partitions,
            engines,
            first_engine,
            offset,
            sem_base,
            root: root as usize,
            split,
            roles: Vec::new(),
        };
        // Every leg moves whole lanes of every partition, split evenly over the streams. The
        // bounds above keep this product within 2^40.
        let lane = c.dtype.acc().lane_bytes();
        let unit = partitions * (c.pieces() * c.streams()) * lane;
        let per = match c.kind {
            Kind::AllGather => "bytes_per_rank (each rank's chunk)",
            _ => "bytes_per_rank (the buffer of N chunks)",
        };
        if c.bytes_per_rank == 0 || !c.bytes_per_rank.is_multiple_of(unit) {
            return Err(err(
                "bytes_per_rank",
                format!(
                    "{per} {:#x} must be a nonzero multiple of partitions ({partitions}) * \
                     chunks ({}) * streams ({}) * {lane}-byte lanes = {unit:#x}",
                    c.bytes_per_rank,
                    c.pieces(),
                    c.streams()
                ),
            ));
        }
        // The leg count from the sizes alone, before any leg is made: a 256-rank ring with 64
        // engines would be millions of legs (and gigabytes) before a later check refused it.
        let legs = c.leg_count();
        if legs > crate::scenario::MAX_COMPILED_LEGS as u64 {
            return Err(err(
                if c.kind == Kind::AllToAll || c.streams() == 1 {
                    "ranks"
                } else {
                    "engines"
                },
                format!(
                    "{} of {n} ranks with {} engine(s) per step compiles to {legs} legs; at most \
                     {} (fewer ranks or engines)",
                    c.kind.name(),
                    c.streams(),
                    crate::scenario::MAX_COMPILED_LEGS
                ),
            ));
        }
        c.roles = c.plan();
        debug_assert_eq!(c.roles.len() as u64, legs);
        Ok(c)
    }

    /// Legs the collective compiles to, computed from its sizes (`plan` makes exactly these).
    pub fn leg_count(&self) -> u64 {
        let n = self.n();
        let ring = (n - 1) * n * self.streams();
        match self.kind {
            Kind::AllGather | Kind::ReduceScatter => ring,
            Kind::AllReduce => 2 * ring,
            Kind::AllToAll => n * n,
            Kind::Broadcast => n * (n - 1) * self.engines,
        }
    }

    pub fn n(&self) -> u64 {
        self.ranks.len() as u64
    }

    /// Legs per rank and step of a ring phase: one per engine, or one over all engines.
    pub fn streams(&self) -> u64 {
        match self.split {
            Split::Width => self.engines,
            Split::Partitions => 1,
        }
    }

    /// Chunks `bytes_per_rank` is split into (1 for all-gather, whose S is one chunk).
    fn pieces(&self) -> u64 {
        match self.kind {
            Kind::AllGather => 1,
            _ => self.n(),
        }
    }

    /// Bytes of one chunk in one partition.
    pub fn chunk_width(&self) -> u64 {
        self.bytes_per_rank / self.pieces() / self.partitions
    }

    /// Bytes of a rank's (input) buffer in one partition: N chunks.
    pub fn width(&self) -> u64 {
        self.chunk_width() * self.n()
    }

    /// Byte of partition where chunk `c`'s stream `e` share starts, in the buffer at `base`.
    fn at(&self, base: u64, c: u64, e: u64) -> u64 {
        base + c * self.chunk_width() + e * self.chunk_width() / self.streams()
    }

    /// Where all-to-all's output buffer starts.
    fn out_base(&self) -> u64 {
        self.offset + self.width()
    }

    /// Rank `r` + `k` around the ring.
    fn ring(&self, r: usize, k: i64) -> usize {
        (r as i64 + k).rem_euclid(self.n() as i64) as usize
    }

    /// The legs, in an order where every `after` names an earlier leg and every stream's legs
    /// come in the order they run.
    fn plan(&self) -> Vec<LegRole> {
        let n = self.ranks.len();
        let mut out = Vec::new();
        let ring_phase = |out: &mut Vec<LegRole>, phase, first: i64| {
            for k in 0..n as u64 - 1 {
                for r in 0..n {
                    for e in 0..self.streams() {
                        out.push(LegRole {
                            phase,
                            step: k,
                            from: r,
                            to: self.ring(r, 1),
                            chunk: self.ring(r, first - k as i64) as u64,
                            stream: e,
                        });
                    }
                }
            }
        };
        match self.kind {
            Kind::AllGather => ring_phase(&mut out, "ag", 0),
            Kind::ReduceScatter => ring_phase(&mut out, "rs", 0),
            Kind::AllReduce => {
                ring_phase(&mut out, "rs", 0);
                ring_phase(&mut out, "ag", 1);
            }
            Kind::AllToAll => {
                for r in 0..n {
                    for j in 0..n {
                        out.push(LegRole {
                            phase: "a2a",
                            step: 0,
                            from: r,
                            to: j,
                            chunk: j as u64,
                            stream: 0,
                        });
                    }
                }
            }
            Kind::Broadcast => {
                for m in 0..n as u64 {
                    for i in 0..n - 1 {
                        for e in 0..self.engines {
                            out.push(LegRole {
                                phase: "bc",
                                step: i as u64,
                                from: self.ring(self.root, i as i64),
                                to: self.ring(self.root, i as i64 + 1),
                                chunk: m,
                                stream: e,
                            });
                        }
                    }
                }
            }
        }
        out
    }

    fn leg_name(&self, r: &LegRole) -> String {
        match self.kind {
            Kind::AllToAll => format!("a2a-r{}-to-r{}", r.from, r.to),
            Kind::Broadcast => format!("bc-c{}-r{}-e{}", r.chunk, r.from, r.stream),
            _ => format!("{}-s{}-r{}-e{}", r.phase, r.step, r.from, r.stream),
        }
    }

    /// Each rank's slot on its die (its queue): ranks of one die take queues 0, 1, ...
    fn slots(&self) -> Vec<u64> {
        let mut seen: BTreeMap<DieId, u64> = BTreeMap::new();
        self.ranks
            .iter()
            .map(|&c| {
                let s = seen.entry(die_of(c)).or_default();
                *s += 1;
                *s - 1
            })
            .collect()
    }

    /// The legs of the collective.
    pub fn compile(&self) -> Vec<LegSpec> {
        let n = self.ranks.len();
        let slots = self.slots();
        let dies_with = |d: DieId| self.ranks.iter().filter(|&&c| die_of(c) == d).count() as u64;
        // Semaphores, handed out per die from sem_base.
        let mut next: BTreeMap<DieId, u64> = BTreeMap::new();
        let mut alloc = |core: Core| {
            let s = next.entry(die_of(core)).or_insert(self.sem_base);
            *s += 1;
            *s - 1
        };
        let mut legs: Vec<LegSpec> = Vec::new();
        if self.kind == Kind::AllToAll {
            let bw = self.chunk_width();
            for role in &self.roles {
                let (tx, rx) = (self.ranks[role.from], self.ranks[role.to]);
                let mask = (u64::MAX >> (64 - self.engines)) << self.first_engine;
                legs.push(LegSpec {
                    name: self.leg_name(role),
                    tx,
                    rx,
                    dma_engine_mask: mask,
                    partitions: self.partitions,
                    free_dim_bytes: bw,
                    src_addr: self.offset + role.to as u64 * bw,
                    dst_addr: self.out_base() + role.from as u64 * bw,
                    local_sem: alloc(tx),
                    remote_sem: alloc(rx),
                    go_sem: alloc(tx),
                    // One queue per (destination, sender slot) on the sender's die.
                    queue: role.to as u64 * dies_with(die_of(tx)) + slots[role.from],
                    after: None,
                    launch: LaunchMode::PerEngine,
                    accumulate: None,
                });
            }
            return legs;
        }
        // Ring streams: rank r's stream e to its successor.
        let mut go = vec![vec![0; self.engines as usize]; n];
        let mut local = go.clone();
        let mut recv = go.clone();
        // Split by width: three semaphores per stream, shared by its legs over all steps (split
        // by partitions allocates per leg, below).
        if self.split == Split::Width {
            for (r, &core) in self.ranks.iter().enumerate() {
                for e in 0..self.engines as usize {
                    go[r][e] = alloc(core);
                    local[r][e] = alloc(core);
                    recv[r][e] = alloc(core);
                }
            }
        }
        // The leg of each (phase, step, sender, stream), to resolve `after`.
        let mut index: BTreeMap<(&str, u64, usize, u64), usize> = BTreeMap::new();
        // For broadcast: (chunk, sender, stream).
        let mut bindex: BTreeMap<(u64, usize, u64), usize> = BTreeMap::new();
        let share = self.chunk_width() / self.streams();
        let all = (u64::MAX >> (64 - self.engines)) << self.first_engine;
        for role in &self.roles {
            let tx = self.ranks[role.from];
            let e = role.stream as usize;
            // Split by partitions: the leg's own semaphores (its engines' increments arrive out
            // of step with the next step's); by width: its stream's.
            let (mask, local_sem, remote_sem, go_sem) = match self.split {
                Split::Width => (
                    1u64 << (self.first_engine + role.stream),
                    local[role.from][e],
                    recv[role.to][e],
                    go[role.from][e],
                ),
                Split::Partitions => {
                    let rx = self.ranks[role.to];
                    (all, alloc(tx), alloc(rx), alloc(tx))
                }
            };
            let after = match (self.kind, role.phase, role.step) {
                (Kind::Broadcast, _, 0) => None,
                (Kind::Broadcast, _, _) => bindex
                    .get(&(role.chunk, self.ring(role.from, -1), role.stream))
                    .copied(),
                (_, "ag", 0) if self.kind == Kind::AllReduce => index
                    .get(&("rs", self.n() - 2, self.ring(role.from, -1), role.stream))
                    .copied(),
                (_, _, 0) => None,
                (_, phase, k) => index
                    .get(&(phase, k - 1, self.ring(role.from, -1), role.stream))
                    .copied(),
            };
            let at = self.at(self.offset, role.chunk, role.stream);
            let i = legs.len();
            index.insert((role.phase, role.step, role.from, role.stream), i);
            bindex.insert((role.chunk, role.from, role.stream), i);
            legs.push(LegSpec {
                name: self.leg_name(role),
                tx,
                rx: self.ranks[role.to],
                dma_engine_mask: mask,
                partitions: self.partitions,
                free_dim_bytes: share,
                src_addr: at,
                dst_addr: at,
                local_sem,
                remote_sem,
                go_sem,
                queue: slots[role.from],
                after,
                launch: LaunchMode::PerEngine,
                // Reduce-scatter legs add into the receiver's chunk.
                accumulate: (role.phase == "rs").then(|| self.dtype.acc()),
            });
        }
        legs
    }

    /// Every rank's input: SBUF bytes stored before the run, seeded.
    pub fn fills(&self, seed: u64) -> Vec<Fill> {
        let mut out = Vec::new();
        for (r, &core) in self.ranks.iter().enumerate() {
            let (lo, len) = match self.kind {
                Kind::AllGather => (self.at(self.offset, r as u64, 0), self.chunk_width()),
                Kind::Broadcast if r != self.root => continue,
                _ => (self.offset, self.width()),
            };
            for p in 0..self.partitions {
                out.push(Fill {
                    die: die_of(core),
                    tpb: tpb_of(core),
                    partition: p,
                    offset: lo,
                    bytes: self.data(seed, r, p, len),
                });
            }
        }
        out
    }

    /// `len` bytes of random lanes of rank `r`, partition `p`. fp32 lanes mix ordinary values
    /// with signed zeros, subnormals, huge magnitudes, infinities and NaNs.
    fn data(&self, seed: u64, r: usize, p: u64, len: u64) -> Vec<u8> {
        let mut rng = Rng::new(
            seed ^ (r as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
                ^ p.wrapping_mul(0xd1b5_4a32_d192_ed03),
        );
        let mut out = Vec::with_capacity(len as usize);
        for _ in 0..len / 4 {
            let x = rng.next_u32();
            let lane = match self.dtype {
                Dtype::Int32 => x,
                Dtype::Fp32 => {
                    let sign = x & 0x8000_0000;
                    let mant = rng.next_u32() & 0x007f_ffff;
                    let exp: u32 = match rng.below(100) {
                        0..=49 => 110 + rng.below(36) as u32,  // around 1.0
                        50..=59 => 0,                          // zeros and subnormals
                        60..=74 => 240 + rng.below(15) as u32, // near the largest finite
                        75..=97 => 1 + rng.below(254) as u32,  // anywhere
                        _ => 255,                              // infinities and NaNs
                    };
                    let mant = match (exp, rng.below(4)) {
                        (0, 0) | (255, 0..=2) => 0, // signed zero, infinity
                        _ => mant,
                    };
                    sign | (exp << 23) | mant
                }
            };
            out.extend_from_slice(&lane.to_le_bytes());
        }
        out
    }

    /// The buffer region of rank `r` the result defines, and the expected bytes of each
    /// partition, from the inputs (`fills`) in the model's arithmetic.
    pub fn expected(&self, seed: u64) -> Vec<(usize, u64, u64, Vec<u8>)> {
        let n = self.ranks.len();
        let cw = self.chunk_width();
        let dt = self.dtype.acc();
        let mut out = Vec::new();
        for p in 0..self.partitions {
            let input: Vec<Vec<u8>> = (0..n)
                .map(|r| match self.kind {
                    Kind::AllGather => self.data(seed, r, p, cw),
                    _ => self.data(seed, r, p, self.width()),
                })
                .collect();
            let chunk = |r: usize, c: u64| -> &[u8] {
                match self.kind {
                    Kind::AllGather => &input[r][..],
                    _ => &input[r][(c * cw) as usize..((c + 1) * cw) as usize],
                }
            };
            let reduced = |c: u64| -> Vec<u8> {
                let mut v = chunk(c as usize, c).to_vec();
                for i in 1..n as i64 {
                    let r = self.ring(c as usize, i);
                    let mut acc = chunk(r, c).to_vec();
                    for (a, b) in acc.chunks_exact_mut(4).zip(v.chunks_exact(4)) {
                        let s = add_lane(
                            dt,
                            u32::from_le_bytes([a[0], a[1], a[2], a[3]]),
                            u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
                        );
                        a.copy_from_slice(&s.to_le_bytes());
                    }
                    v = acc;
                }
                v
            };
            match self.kind {
                Kind::AllGather => {
                    let all: Vec<u8> = (0..n).flat_map(|c| chunk(c, 0).to_vec()).collect();
                    for r in 0..n {
                        out.push((r, p, self.offset, all.clone()));
                    }
                }
                Kind::ReduceScatter => {
                    for r in 0..n {
                        let c = self.ring(r, 1) as u64;
                        out.push((r, p, self.at(self.offset, c, 0), reduced(c)));
                    }
                }
                Kind::AllReduce => {
                    let all: Vec<u8> = (0..n as u64).flat_map(reduced).collect();
                    for r in 0..n {
                        out.push((r, p, self.offset, all.clone()));
                    }
                }
                Kind::AllToAll => {
                    for q in 0..n {
                        let got: Vec<u8> =
                            (0..n).flat_map(|i| chunk(i, q as u64).to_vec()).collect();
                        out.push((q, p, self.out_base(), got));
                    }
                }
                Kind::Broadcast => {
                    for r in 0..n {
                        out.push((r, p, self.offset, input[self.root].clone()));
                    }
                }
            }
        }
        out
    }

    /// The analytic bound in cycles for links of `link_bytes` bytes per cycle: ring
    /// all-gather (N-1) * S / B, reduce-scatter (N-1)/N * S / B, all-reduce 2 (N-1)/N * S / B,
    /// broadcast S / B (the root sends every byte once); all-to-all: None (the caller uses the
    /// busiest link's load).
    pub fn bound_cycles(&self, link_bytes: u64) -> Option<f64> {
        let (n, s, b) = (
            self.n() as f64,
            self.bytes_per_rank as f64,
            link_bytes as f64,
        );
        match self.kind {
            Kind::AllGather => Some((n - 1.0) * s / b),
            Kind::ReduceScatter => Some((n - 1.0) / n * s / b),
            Kind::AllReduce => Some(2.0 * (n - 1.0) / n * s / b),
            Kind::Broadcast => Some(s / b),
            Kind::AllToAll => None,
        }
    }
}
