//! Every way a firmware step or a model setup can be refused.

use crate::topology::{AddrView, Core, DieId};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// The CSR model lacks something the golden model reads (a name, a role, a parameter).
    #[error("csrs: {0}")]
    Csrs(String),
    #[error("topology: {0}")]
    Topology(String),
    #[error("core {0} is not in the topology")]
    UnknownCore(Core),
    #[error("{word}: field `{field}` value {value:#x} does not fit in {bytes} byte(s)")]
    FieldOverflow {
        word: String,
        field: String,
        value: u64,
        bytes: u32,
    },
    #[error("{word}: expected sub-opcode {expected}, found {found}")]
    WrongSubOpcode {
        word: String,
        expected: u64,
        found: u64,
    },
    #[error("{word}: a word is {expected} bytes, got {found}")]
    WordLength {
        word: String,
        expected: usize,
        found: usize,
    },
    #[error("role {0} is neither 0 (RX) nor 1 (TX)")]
    BadRole(u64),
    #[error("launch {0} is neither 0 (one doorbell per engine) nor 1 (broadcast doorbell)")]
    BadLaunch(u64),
    #[error("impossible transfer: {0}")]
    Impossible(String),
    #[error("partitions {partitions} out of range 1..={max}")]
    PartitionsOutOfRange { partitions: u64, max: u64 },
    #[error(
        "partitions {partitions} do not split evenly over the {engines} engines of the mask: \
         num_descriptors is one tail increment for every engine's ring, so every engine moves \
         the same number of partitions"
    )]
    UnevenSplit { partitions: u64, engines: u64 },
    #[error(
        "{which} range [{offset:#x}, {offset:#x}+{len:#x}) of every partition leaves the {backing:#x} \
         bytes SBUF backs per partition"
    )]
    OutsideSbufBacking {
        which: &'static str,
        offset: u64,
        len: u64,
        backing: u64,
    },
    #[error(
        "dma_engine_mask {mask:#x} names engine {engine}, but a die has {engines} SDMA engines"
    )]
    MissingEngine {
        mask: u64,
        engine: u32,
        engines: u32,
    },
    #[error("queue {queue} out of range (each engine side has {queues} queues)")]
    QueueOutOfRange { queue: u64, queues: u64 },
    #[error("semaphore {sem} out of range (EVT_SEM has {count})")]
    SemOutOfRange { sem: u64, count: u64 },
    #[error("{view} view cannot route from {from} to {to}: {why}")]
    Unroutable {
        from: DieId,
        to: DieId,
        view: AddrView,
        why: String,
    },
    #[error("core {core}: PRID {prid} does not belong to this core (PRID = 2 * core id + lane)")]
    PridNotOfCore { core: Core, prid: u64 },
    #[error("core {core}: role {role} does not match PRID {prid} parity {parity}")]
    RoleParity {
        core: Core,
        prid: u64,
        role: u64,
        parity: u64,
    },
    #[error("core {core}: rdma_desc_start for role {role} without a matching rdma_desc_gen")]
    StartWithoutGen { core: Core, role: u64 },
    #[error("core {core}: rdma_desc_start {what} differs from its rdma_desc_gen")]
    StartMismatch { core: Core, what: &'static str },
    #[error("DescriptorStream wrote {wrote} descriptors, expected {expected} (engine {engine:?})")]
    DescriptorCount {
        engine: Option<u32>,
        wrote: u64,
        expected: u64,
    },
    #[error("the TX and RX rdma_desc_gen of one leg disagree on {0}")]
    LegMismatch(&'static str),
    #[error(
        "ring {die} engine {engine} {side} queue {queue} holds {len} descriptors; {need} needed"
    )]
    RingFull {
        die: DieId,
        engine: u32,
        side: &'static str,
        queue: u32,
        len: u64,
        need: u64,
    },
    #[error("address {addr:#x} from {from}: {why}")]
    Route { from: DieId, addr: u64, why: String },
    #[error("run ended with work left: {0}")]
    Stalled(String),
}

pub type Result<T> = std::result::Result<T, ModelError>;
