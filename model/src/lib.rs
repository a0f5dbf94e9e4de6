//! xdie-model: the golden transaction-level model of xdie's SBUF-to-SBUF RDMA legs.
//!
//! Pure Rust, no cycles, no Verilator. Every offset, count, width and field position comes from
//! the parsed CSR model (`xdie_csr::load`); see [`layout::Layout`]. The protocol below is xdie's
//! reconstruction of the seed's gen/start primitives. It binds the firmware-like RTL driver of
//! the testbench as much as this model.
//!
//! # System
//! Packages × dies (the DIE field's width gives the count per package). Per die: SBUF (partition
//! p, byte b at SBUF base + p * SBUF_PARTITION_STRIDE + b, backed up to SBUF_BACKING_BYTES per
//! partition), HBM (descriptor rings and the constant 1), one EVT_SEM (signed 32-bit semaphores
//! behind READ/SET/INC/DEC windows), and SDMA_ENGINES engines, each with an M2S and an S2M queue
//! group. A core is (package chip id, core id in the package); its die is bit 1 of the core id
//! ([`topology`]). Each core runs two Q7 contexts: PRID = 2 * core id + lane; the odd lane issues
//! TX legs, the even lane RX legs. The engines of a leg (`dma_engine_mask`) are SDMA engines of
//! the TX die, on queue `queue` of each.
//!
//! # Rings
//! The ring of (engine, side, queue) lives in the HBM of the engine's die at
//! [`System::ring_base`], `Config::ring_len` descriptors long; the 4-byte constant 1 follows the
//! rings ([`System::const_one_addr`]). Software stamps each descriptor with the ring id of its
//! position: `initial_ring_id` for the first lap, advancing modulo 2^ring_id_width each time the
//! position wraps. A mismatch makes the engine log a ring-id error and halt that side.
//!
//! # rdma_desc_gen (op 8)
//! Partitions `0..partitions` are split over the mask's engines in ascending engine order,
//! contiguously and evenly: `partitions` must be a multiple of the engine count, because
//! rdma_desc_start's `num_descriptors` is one count for every engine's ring (below). For
//! each engine, one entry per partition of its share and per `max_len_code` chunk of
//! `free_dim_bytes` (LEN = chunk bytes, LEN 0 encodes max_len_code), then two semaphore entries:
//! LOCAL, then REMOTE. TX writes the M2S entries: data BUF_PTR = the source in TX's SBUF
//! (die-local: LOCAL | DIE = TX die), both semaphore entries read the constant 1 from TX HBM, the
//! REMOTE one has WRITE_BARRIER set. RX writes the matching S2M entries into the same (TX-die)
//! rings through a remap window: data BUF_PTR = the destination folded for the TX engines in
//! the system's address view ([`Topology::fold`], docs/mesh.md: die-local for the same die; in
//! a neighbor system `fold_neighbor(dst_local, rx_die)` for the other die of the package and a
//! neighbor path for a linked package; in a chip-id system `fold_chip_id(dst_local, rx_die,
//! rx_chip)` for every other die); LOCAL BUF_PTR = TX's
//! EVT_SEM INC window + 4 * local_sem (TX-die local); REMOTE BUF_PTR = RX's EVT_SEM INC window +
//! 4 * remote_sem, folded like the data. Why each side writes that ring: every core writes only
//! the ring whose doorbell it rings (TX: M2S, RX: S2M), so no doorbell ever publishes entries
//! another core wrote. The peer core is (`remote_routing_id` as chip id, `remote_core_id`).
//!
//! # rdma_desc_start (op 9)
//! `role != PRID & 1` is a hard error, and so is a PRID that is not the core's. The
//! DescriptorStream guard: `num_descriptors` must equal the descriptors the matching gen wrote
//! into each engine's ring (not the total over engines: the seed's start stores the same
//! `num_descriptors` register into the tail-increment doorbell, which advances one queue's tail
//! by that many descriptors, §4.2, and one broadcast write advances every selected queue by it,
//! §4.4), and each engine's unposted entries must equal its share's data entries + 2 plus the
//! entries of the context's later pending gens on that ring (a context may gen ahead: gens queue
//! in ring order, and a start posts the oldest one's); anything else is a hard error. RX then
//! writes, per engine, S2M RDRTP_inc = that engine's count, and right_push: a routed INC of
//! `go_sem` (1) in TX's EVT_SEM. TX waits `go_sem >= 1` and decrements it (left_pop, sequencer
//! subop wait_ge_and_dec), then writes, per engine, M2S TDRTP_inc = that engine's count: the
//! launch. With the start word's `launch` = 1
//! each side instead writes the TX die's broadcast doorbell (seed §4.4): its engine mask
//! (`dma_engine_mask`), its queue select, then the side's increment register = num_descriptors,
//! which posts that many descriptors on the queue of every engine of the mask. An engine executes a queue's pair only
//! while both rings hold posted descriptors, so a TX that fires early is held, never lost.
//!
//! # Completion and chains
//! Every engine's LOCAL entry adds 1 to TX's local_sem (local_sem rises by the number of
//! engines: source released); every engine's REMOTE entry adds 1 to RX's remote_sem after that
//! engine's data (write_barrier), so remote_sem reaches n_engines only after all data landed.
//! The next leg's start on the receiving core is preceded by wait_ge_and_dec(remote_sem,
//! n_engines) on its own EVT_SEM ([`System::wait_ge_and_dec`]).

//! # What a driver must do besides gen and start
//! Program every (engine, side, queue) ring it uses: base = [`System::ring_base`], length =
//! `Config::ring_len`, prefetch enabled; store the constant 1 (`sem_bytes` little-endian bytes)
//! at [`System::const_one_addr`] in every die's HBM. Every engine's share is the same, so the
//! doorbells may be per-engine queue registers or one broadcast write.
//! `peer_base`, when nonzero, must name the peer's die in its DIE bit (seed §2.4); the peer's
//! die otherwise comes from the topology.
//!
//! # Checking a run
//! [`System::events`] logs every landed write, doorbell, satisfied wait, ring-id error and
//! fault in order; [`check_leg`] checks one leg's invariants on any ordered list of landed
//! writes (the model's or a bus monitor's), and [`System::end_state`] gives the SBUF bytes,
//! semaphores and queue registers a scoreboard compares.

pub mod collective;
pub mod desc;
pub mod error;
pub mod events;
pub mod inbound;
pub mod layout;
mod mem;
pub mod mesh;
pub mod reduce;
pub mod rng;
pub mod route;
pub mod scenario;
pub mod soak;
pub mod state;
pub mod system;
pub mod timing;
pub mod topology;
pub mod word;

pub use desc::{Descriptor, EntryKind};
pub use error::{ModelError, Result};
pub use events::{
    check_leg, landed, Completion, Event, Landed, LegExpect, LegId, Violation, Writer,
};
pub use layout::{Layout, SemOp, Side};
pub use route::Reach;
pub use scenario::{Scenario, ScenarioError, ScenarioErrorKind};
pub use state::EndState;
pub use system::{Config, FwStep, FwWrite, GenOutput, Leg, RunReport, System};
pub use topology::{AddrView, Core, DieId, Lane, PortId, Topology};
pub use word::{GenWord, StartWord};
