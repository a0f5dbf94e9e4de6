//! The expected end state of a run, in the form the RTL scoreboard compares: SBUF bytes of every
//! range a leg touched (sources and destinations), every nonzero semaphore, and the pointers and
//! ring ids of every queue a leg used.

use crate::layout::Side;
use crate::system::System;
use crate::topology::DieId;
use std::collections::BTreeSet;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SbufBytes {
    pub die: DieId,
    /// The core of `die` whose SBUF holds the bytes.
    pub tpb: u64,
    pub partition: u64,
    pub offset: u64,
    /// Die-local address of the first byte.
    pub local: u64,
    pub bytes: Vec<u8>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SemValue {
    pub die: DieId,
    /// The core of `die` whose EVT_SEM holds it: its index on the die, and its id.
    pub tpb: u64,
    pub core: u64,
    pub sem: u64,
    pub value: i64,
}

/// Register view of one queue: offsets (`pos % ring_len`) and ring ids as the head/tail
/// registers report them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueEnd {
    pub die: DieId,
    pub engine: u32,
    pub side: Side,
    pub queue: u32,
    pub head: u64,
    pub head_ring_id: u64,
    pub tail: u64,
    pub tail_ring_id: u64,
    pub used: u64,
    pub halted: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndState {
    pub sbuf: Vec<SbufBytes>,
    pub sems: Vec<SemValue>,
    pub queues: Vec<QueueEnd>,
}

impl EndState {
    pub fn capture(sys: &System) -> EndState {
        let l = &sys.layout;
        let mut ranges = BTreeSet::new();
        for leg in sys.legs() {
            for p in 0..leg.partitions {
                ranges.insert((leg.rx_die, leg.rx_tpb, p, leg.dst_addr, leg.free_dim_bytes));
                if let Some(src) = leg.src_addr {
                    ranges.insert((leg.tx_die, leg.tx_tpb, p, src, leg.free_dim_bytes));
                }
            }
        }
        let sbuf = ranges
            .into_iter()
            .map(|(die, tpb, partition, offset, n)| {
                let local = l.sbuf_addr(tpb, partition, offset);
                SbufBytes {
                    die,
                    tpb,
                    partition,
                    offset,
                    local,
                    bytes: sys.read_local(die, local, n),
                }
            })
            .collect();
        EndState {
            sbuf,
            sems: sys.sems_view(),
            queues: sys.rings_view(),
        }
    }
}
