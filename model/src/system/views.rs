//! Read-only views for checkers: a leg's expectations, its reach, and the end state.

use super::gen::Leg;
use super::{side_idx, System, SIDES};
use crate::events::{Completion, LegExpect, LegId};
use crate::layout::SemOp;
use crate::route::{reach, Reach};

impl System {
    /// The checker's view of a leg.
    pub fn leg_expect(&self, id: LegId) -> Option<LegExpect> {
        let leg = self.legs.get(id)?;
        let l = &self.layout;
        Some(LegExpect {
            id,
            tx_die: leg.tx_die,
            rx_die: leg.rx_die,
            dst: (0..leg.partitions)
                .map(|p| {
                    let at = match leg.accumulate {
                        Some(dtype) => l.sbuf_acc_addr(dtype, leg.rx_tpb, p, leg.dst_addr),
                        None => l.sbuf_addr(leg.rx_tpb, p, leg.dst_addr),
                    };
                    (at, leg.free_dim_bytes)
                })
                .collect(),
            remote_sem_addr: l.sem_addr(leg.rx_tpb, SemOp::Inc, leg.remote_sem),
            remote_batch: self.remote_batch(leg),
            local_sem_addr: l.sem_addr(leg.tx_tpb, SemOp::Inc, leg.local_sem),
            local_batch: self.local_batch(leg),
            n_engines: leg.n_engines(),
            dst_after: self.legs[..id]
                .iter()
                .filter(|o| self.dst_overlap(o, leg))
                .map(|o| Completion {
                    addr: l.sem_addr(o.rx_tpb, SemOp::Inc, o.remote_sem),
                    batch: self.remote_batch(o),
                    n: o.n_engines(),
                })
                .collect(),
            dst_rewritten: self.legs[id + 1..].iter().any(|o| self.dst_overlap(leg, o)),
        })
    }

    /// How many earlier legs count into the same remote_sem of the same (RX) die as `leg`.
    fn remote_batch(&self, leg: &Leg) -> u64 {
        self.earlier_legs_on(leg, |o| (o.rx_die, o.rx_tpb, o.remote_sem))
    }

    /// How many earlier legs count into the same local_sem of the same (TX) die as `leg`.
    fn local_batch(&self, leg: &Leg) -> u64 {
        self.earlier_legs_on(leg, |o| (o.tx_die, o.tx_tpb, o.local_sem))
    }

    /// How many legs before `leg` have the same `semaphore` (a die and a semaphore index) as it.
    fn earlier_legs_on<K: PartialEq>(&self, leg: &Leg, semaphore: impl Fn(&Leg) -> K) -> u64 {
        let own = semaphore(leg);
        self.legs[..leg.id]
            .iter()
            .filter(|o| semaphore(o) == own)
            .count() as u64
    }

    /// Whether two legs write some of the same SBUF bytes on one die, plain or accumulating
    /// (an accumulate aperture lands where its offset points in SBUF).
    fn dst_overlap(&self, a: &Leg, b: &Leg) -> bool {
        if a.rx_die != b.rx_die {
            return false;
        }
        let layout = &self.layout;
        let spans = |leg: &Leg, of_b: bool| {
            (0..leg.partitions)
                .map(|p| {
                    let start = layout.sbuf_addr(leg.rx_tpb, p, leg.dst_addr);
                    (start, start + leg.free_dim_bytes, of_b)
                })
                .collect::<Vec<_>>()
        };
        let hull = |leg: &Leg| {
            let first = layout.sbuf_addr(leg.rx_tpb, 0, leg.dst_addr);
            let last = layout.sbuf_addr(leg.rx_tpb, leg.partitions.saturating_sub(1), leg.dst_addr);
            (first, last + leg.free_dim_bytes)
        };
        let (ha, hb) = (hull(a), hull(b));
        let empty = |leg: &Leg| leg.partitions == 0 || leg.free_dim_bytes == 0;
        if empty(a) || empty(b) || ha.1 <= hb.0 || hb.1 <= ha.0 {
            return false;
        }
        let mut all = spans(a, false);
        all.extend(spans(b, true));
        all.sort_unstable();
        // After sorting by start, two spans of different legs overlap iff some span starts
        // before the furthest end seen so far of the other leg's spans.
        let mut reach = [0u64; 2];
        all.iter().any(|&(s, e, of_b)| {
            let hit = s < reach[usize::from(!of_b)];
            reach[usize::from(of_b)] = reach[usize::from(of_b)].max(e);
            hit
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
            for (tpb, sems) in st.sems.iter().enumerate() {
                for (i, &v) in sems.iter().enumerate() {
                    if v != 0 {
                        out.push(crate::state::SemValue {
                            die: *d,
                            tpb: tpb as u64,
                            core: self.topology.core_at(*d, tpb as u64).id,
                            sem: i as u64,
                            value: v,
                        });
                    }
                }
            }
        }
        out
    }
}
