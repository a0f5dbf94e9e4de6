//! The scenario scoreboard: first the descriptor rings the firmware wrote, byte for byte against
//! the rings the model's gens wrote (read through the HBM backdoor); then the RTL's end state
//! against the golden model's `EndState` (SBUF ranges of both dies, read through the memories' backdoor; every semaphore; every used
//! queue's head, tail and used count), checks guard words around each destination, and runs
//! the model's leg checker on the write monitor's log of the run (an accumulating leg's
//! destination taken in SBUF, where the RTL's sums land).

use crate::driver::{Driver, FwStore, Progress};
use crate::hooks::MonWrite;
use crate::package::{field_of, PkgError};
use crate::regmodel::views;
use xdie_model::events::{check_leg, Landed, Writer};
use xdie_model::layout::SemOp;
use xdie_model::state::SemValue;
use xdie_model::system::System;
use xdie_model::DieId;

pub struct Board {
    pub mismatches: Vec<String>,
    /// Every nonzero semaphore of the RTL.
    pub sems: Vec<SemValue>,
}

fn word_at(sys: &System, die: DieId, local: u64) -> u32 {
    let b = sys.read_local(die, local, 4);
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

pub(crate) fn compare(
    d: &mut Driver,
    progress: &mut dyn FnMut(Progress),
) -> Result<Board, PkgError> {
    let model = d.model;
    let sys = &model.sys;
    let end = sys.end_state();
    let mut mis: Vec<String> = Vec::new();

    // Descriptor rings: every used ring of every die, whole.
    let desc_bytes = sys.layout.params.desc_bytes;
    let ring_bytes = sys.config.ring_len * desc_bytes;
    for q in &end.queues {
        let base = sys.ring_base(q.engine, q.side, q.queue);
        let want = sys.read_local(q.die, base, ring_bytes);
        let got = d.pkg.peek(d.die(q.die), base, ring_bytes)?;
        if let Some(i) = got.iter().zip(&want).position(|(a, b)| a != b) {
            let slot = i as u64 / desc_bytes;
            let at = (slot * desc_bytes) as usize..((slot + 1) * desc_bytes) as usize;
            mis.push(format!(
                "{} engine {} {} queue {} ring slot {slot} (byte {}): RTL {:02x?}, model {:02x?}",
                q.die,
                q.engine,
                q.side.as_str(),
                q.queue,
                i as u64 % desc_bytes,
                &got[at.clone()],
                &want[at]
            ));
        }
    }

    // SBUF ranges: sources and destinations of both dies.
    let total: u64 = end.sbuf.iter().map(|r| r.bytes.len() as u64).sum();
    let mut done = 0;
    for r in &end.sbuf {
        let die = d.die(r.die);
        let got = d.pkg.peek(die, r.local, r.bytes.len() as u64)?;
        if let Some(i) = got.iter().zip(&r.bytes).position(|(a, b)| a != b) {
            mis.push(format!(
                "SBUF {} partition {} byte {:#x}: RTL {:#04x}, model {:#04x}",
                r.die,
                r.partition,
                r.offset + i as u64,
                got[i],
                r.bytes[i]
            ));
        }
        done += got.len() as u64;
        progress(Progress {
            phase: "read back",
            done,
            total,
        });
    }

    // Guard words on both sides of every destination range stay as the model has them.
    let backing = sys.layout.params.sbuf_backing_bytes;
    for leg in sys.legs() {
        for p in 0..leg.partitions {
            let start = leg.dst_addr;
            let end_b = leg.dst_addr + leg.free_dim_bytes;
            let mut guards = Vec::new();
            if start >= 4 {
                guards.push(((start - 4) & !3, start));
            }
            if end_b.div_ceil(4) * 4 + 4 <= backing {
                guards.push((end_b.div_ceil(4) * 4, end_b.div_ceil(4) * 4 + 4));
            }
            for (off, _) in guards {
                let a = sys.layout.sbuf_addr(leg.rx_tpb, p, off);
                let lo = sys.layout.sbuf_addr(leg.rx_tpb, p, start);
                let hi = sys.layout.sbuf_addr(leg.rx_tpb, p, end_b);
                let mask = (0..4u64)
                    .filter(|i| a + i < lo || a + i >= hi)
                    .fold(0u32, |m, i| m | (0xff << (8 * i)));
                let want = word_at(sys, leg.rx_die, a);
                let rx = d.die(leg.rx_die);
                let got = d.pkg.peek(rx, a, 4)?;
                let got = u32::from_le_bytes([got[0], got[1], got[2], got[3]]);
                if got & mask != want & mask {
                    mis.push(format!(
                        "guard word {a:#x} next to partition {p}'s destination on {}: RTL {got:#x}, \
                         model {want:#x} (a write left its destination)",
                        leg.rx_die
                    ));
                }
            }
        }
    }

    // Every semaphore of every core of every die.
    let mut sems = Vec::new();
    for (die, id) in d.pkg.dies().to_vec().into_iter().enumerate() {
        let die = die as u32;
        for (tpb, s) in
            (0..sys.layout.cores()).flat_map(|c| (0..sys.layout.sem_count()).map(move |s| (c, s)))
        {
            let a = sys.layout.sem_addr(tpb, SemOp::Read, s);
            let v = i64::from(d.pkg.read32(die, a)? as i32);
            let want = sys.sem(id, tpb, s);
            if v != want {
                mis.push(format!(
                    "semaphore {s} of core {tpb} of {id}: RTL {v}, model {want}"
                ));
            }
            if v != 0 {
                sems.push(SemValue {
                    die: id,
                    tpb,
                    core: sys.topology.core_at(id, tpb).id,
                    sem: s,
                    value: v,
                });
            }
        }
    }

    // Queue registers: head, tail (offset and ring id) and the used count.
    for q in &end.queues {
        let sv = views().side(q.side);
        let l = &sv.layout;
        let (e, i) = (u64::from(q.engine), u64::from(q.queue));
        let die = d.die(q.die);
        let head = d.pkg.read32(die, sv.queue_reg(e, i, &l.head))?;
        let tail = d.pkg.read32(die, sv.queue_reg(e, i, &l.tail))?;
        let status = d.pkg.read32(die, sv.queue_reg(e, i, &l.status))?;
        let got = [
            ("head", field_of(&l.head_offset, head), q.head),
            (
                "head ring id",
                field_of(&l.head_ring_id, head),
                q.head_ring_id,
            ),
            ("tail", field_of(&l.tail_offset, tail), q.tail),
            (
                "tail ring id",
                field_of(&l.tail_ring_id, tail),
                q.tail_ring_id,
            ),
            ("used", field_of(&l.used, status), q.used),
        ];
        for (what, rtl, want) in got {
            if rtl != want {
                mis.push(format!(
                    "{} engine {e} {} queue {i} {what}: RTL {rtl}, model {want}",
                    q.die,
                    q.side.as_str()
                ));
            }
        }
    }

    // The model's invariants on what the monitor saw land, in order. The model logs an
    // accumulating leg's data where it was sent (an accumulate aperture); the monitor sees the
    // sums land in SBUF, at the same offset from the SBUF base.
    // A leg's invariants read only the writes on its two dies (data and remote_sem on the RX
    // die, local_sem on the TX die; the monitor tags no write with a leg), so each leg is checked
    // against that part of the log, in the same order: a system of a hundred dies and
    // thousands of legs would otherwise scan the whole log once per leg.
    let log = landed_log(&d.writes, &d.stores, d.pkg.dies());
    let mut of_pair: std::collections::HashMap<(DieId, DieId), Vec<Landed>> =
        std::collections::HashMap::new();
    for leg in sys.legs() {
        if let Some(mut expect) = sys.leg_expect(leg.id) {
            if let Some(dtype) = leg.accumulate {
                let acc = sys.layout.acc_aperture(dtype).base;
                for r in &mut expect.dst {
                    r.0 = r.0 - acc + sys.layout.apertures.sbuf.base;
                }
            }
            let (tx, rx) = (expect.tx_die, expect.rx_die);
            let part = of_pair.entry((tx, rx)).or_insert_with(|| {
                log.iter()
                    .filter(|w| w.die == tx || w.die == rx)
                    .cloned()
                    .collect()
            });
            if let Err(v) = check_leg(part, &expect) {
                mis.push(format!("the RTL broke an invariant: {v}"));
            }
        }
    }
    Ok(Board {
        mismatches: mis,
        sems,
    })
}

/// The monitor's writes as the model's landed-write log. A write that lands where one of the
/// driver's own stores was going while that store was in flight is the store (firmware); every
/// other write is DMA traffic of unknown origin, which the checker attributes by address.
fn landed_log(writes: &[MonWrite], stores: &[FwStore], dies: &[DieId]) -> Vec<Landed> {
    // The stores by (die, first byte), so that a write looks only at the stores that could hold
    // it (a write inside a store starts at most `longest - 1` bytes after the store's first);
    // the first such store in the driver's order, as a search of the whole list would find.
    let longest = stores.iter().map(|s| s.len).max().unwrap_or(0);
    let mut by_start: std::collections::HashMap<(u32, u64), Vec<usize>> =
        std::collections::HashMap::new();
    for (i, s) in stores.iter().enumerate() {
        by_start.entry((s.die, s.local)).or_default().push(i);
    }
    writes
        .iter()
        .map(|w| {
            let end = w.local + w.bytes.len() as u64;
            let store = (0..longest.min(w.local + 1))
                .filter_map(|back| by_start.get(&(w.die, w.local - back)))
                .flatten()
                .copied()
                .filter(|&i| {
                    let s = &stores[i];
                    end <= s.local + s.len && (s.cycles.0..=s.cycles.1).contains(&w.cycle)
                })
                .min()
                .map(|i| &stores[i]);
            Landed {
                die: dies[w.die as usize],
                local: w.local,
                bytes: w.bytes.clone(),
                by: store.map_or(Writer::Unknown, |s| Writer::Firmware { core: s.core }),
            }
        })
        .collect()
}
