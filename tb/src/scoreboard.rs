//! The scenario scoreboard: compares the RTL's end state with the golden model's `EndState`
//! (SBUF ranges of both dies, every semaphore, every used queue's head, tail and used count),
//! checks guard words around each destination, and runs the model's leg checker on a log made
//! from what was read back (the package top has no write-port monitor to sample).

use crate::driver::{Driver, Progress};
use crate::package::{field_mask, reg_local, Package, PkgError};
use xdie_model::events::{check_leg, Landed, Writer};
use xdie_model::layout::SemOp;
use xdie_model::state::SemValue;
use xdie_model::system::{Leg, System};
use xdie_model::{DieId, Side};

/// Result of one ordering probe: a leg's last data words, read the moment its remote_sem was
/// first seen complete.
#[derive(Debug, Clone)]
pub struct Probe {
    pub leg: usize,
    pub late: Vec<String>,
}

pub struct Board {
    pub mismatches: Vec<String>,
    /// Every nonzero semaphore of the RTL.
    pub sems: Vec<SemValue>,
}

fn word_at(sys: &System, die: DieId, local: u64) -> u32 {
    let b = sys.read_local(die, local, 4);
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

/// Reads the last data word of each engine's share of `leg` on the RX die.
pub(crate) fn probe_leg(
    pkg: &mut Package,
    sys: &System,
    leg: &Leg,
    index: usize,
) -> Result<Probe, PkgError> {
    let mut late = Vec::new();
    for (e, parts) in &leg.shares {
        if parts.is_empty() {
            continue;
        }
        let p = parts.end - 1;
        let last = sys
            .layout
            .sbuf_addr(p, leg.dst_addr + leg.free_dim_bytes - 1)
            & !3;
        let want = word_at(sys, leg.rx_die, last);
        let got = pkg.read32(leg.rx_die.die as u32, last)?;
        // Bytes of the word outside the destination are not the leg's: compare only its own.
        let lo = sys.layout.sbuf_addr(p, leg.dst_addr).max(last);
        let mask = (0..4u64)
            .filter(|i| last + i >= lo)
            .fold(0u32, |m, i| m | (0xff << (8 * i)));
        if got & mask != want & mask {
            late.push(format!(
                "engine {e}: word {last:#x} of partition {p} read {got:#x} (expected {want:#x}) \
                 when remote_sem was already complete"
            ));
        }
    }
    Ok(Probe { leg: index, late })
}

fn field(v: u32, mask: u32) -> u64 {
    u64::from((v & mask) >> mask.trailing_zeros())
}

pub(crate) fn compare(
    d: &mut Driver,
    progress: &mut dyn FnMut(Progress),
) -> Result<Board, PkgError> {
    let model = d.model;
    let sys = &model.sys;
    let end = sys.end_state();
    let mut mis: Vec<String> = Vec::new();

    // SBUF ranges: sources and destinations of both dies.
    let total: u64 = end.sbuf.iter().map(|r| r.bytes.len() as u64).sum();
    let mut done = 0;
    let mut got_ranges = Vec::new();
    for r in &end.sbuf {
        let got = d
            .pkg
            .read_bytes(r.die.die as u32, r.local, r.bytes.len() as u64)?;
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
        got_ranges.push((r.die, r.local, got));
    }

    // Guard words on both sides of every destination range stay as the model has them.
    let backing = sys.layout.sbuf_backing;
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
                let a = sys.layout.sbuf_addr(p, off);
                let lo = sys.layout.sbuf_addr(p, start);
                let hi = sys.layout.sbuf_addr(p, end_b);
                let mask = (0..4u64)
                    .filter(|i| a + i < lo || a + i >= hi)
                    .fold(0u32, |m, i| m | (0xff << (8 * i)));
                let want = word_at(sys, leg.rx_die, a);
                let got = d.pkg.read32(leg.rx_die.die as u32, a)?;
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

    // Every semaphore of both dies.
    let mut sems = Vec::new();
    for die in 0..2u32 {
        let id = DieId {
            chip: d.chip,
            die: u64::from(die),
        };
        for s in 0..sys.layout.sem_count {
            let a = sys.layout.sem_addr(SemOp::Read, s);
            let v = i64::from(d.pkg.read32(die, a)? as i32);
            let want = sys.sem(id, s);
            if v != want {
                mis.push(format!("semaphore {s} of {id}: RTL {v}, model {want}"));
            }
            if v != 0 {
                sems.push(SemValue {
                    die: id,
                    sem: s,
                    value: v,
                });
            }
        }
    }

    // Queue registers: head, tail (offset and ring id) and the used count.
    for q in &end.queues {
        let ap = match q.side {
            Side::M2s => "SDMA_M2S",
            Side::S2m => "SDMA_S2M",
        };
        let (e, i) = (u64::from(q.engine), u64::from(q.queue));
        let die = q.die.die as u32;
        let head = d.pkg.read32(die, reg_local(ap, e, "queue", i, "head"))?;
        let tail = d.pkg.read32(die, reg_local(ap, e, "queue", i, "tail"))?;
        let status = d.pkg.read32(die, reg_local(ap, e, "queue", i, "status"))?;
        let got = [
            (
                "head",
                field(head, field_mask(ap, "queue", "head", "offset")),
                q.head,
            ),
            (
                "head ring id",
                field(head, field_mask(ap, "queue", "head", "ring_id")),
                q.head_ring_id,
            ),
            (
                "tail",
                field(tail, field_mask(ap, "queue", "tail", "offset")),
                q.tail,
            ),
            (
                "tail ring id",
                field(tail, field_mask(ap, "queue", "tail", "ring_id")),
                q.tail_ring_id,
            ),
            (
                "used",
                field(status, field_mask(ap, "queue", "status", "used")),
                q.used,
            ),
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

    // Ordering probes taken during the run.
    for p in &d.probes {
        for l in &p.late {
            mis.push(format!("leg {}: {l}", p.leg));
        }
    }

    // The model's leg checker on the end-state log: each destination range as read, then each
    // semaphore's rise (its final value plus what the driver's waits took) as unit increments.
    let mut log: Vec<Landed> = Vec::new();
    for leg in sys.legs() {
        let Some(expect) = sys.leg_expect(leg.id) else {
            continue;
        };
        for &(local, n) in &expect.dst {
            if let Some((_, l0, bytes)) = got_ranges.iter().find(|(die, l0, b)| {
                *die == leg.rx_die && *l0 <= local && local + n <= l0 + b.len() as u64
            }) {
                let off = (local - l0) as usize;
                log.push(Landed {
                    die: leg.rx_die,
                    local,
                    bytes: bytes[off..off + n as usize].to_vec(),
                    by: Writer::Engine {
                        die: leg.tx_die,
                        engine: 0,
                        queue: leg.queue,
                        leg: Some(leg.id),
                        kind: None,
                    },
                });
            }
        }
        for (die, addr, sem) in [
            (expect.rx_die, expect.remote_sem_addr, leg.remote_sem),
            (expect.tx_die, expect.local_sem_addr, leg.local_sem),
        ] {
            let rtl = sems
                .iter()
                .find(|v| v.die == die && v.sem == sem)
                .map_or(0, |v| v.value);
            let taken: i64 = d
                .consumed
                .iter()
                .filter(|((dd, s), _)| u64::from(*dd) == die.die && *s == sem)
                .map(|(_, v)| v)
                .sum();
            for _ in 0..(rtl + taken).max(0) {
                log.push(Landed {
                    die,
                    local: addr,
                    bytes: 1i32.to_le_bytes().to_vec(),
                    by: Writer::Engine {
                        die: leg.tx_die,
                        engine: 0,
                        queue: leg.queue,
                        leg: Some(leg.id),
                        kind: None,
                    },
                });
            }
        }
        if let Err(v) = check_leg(&log, &expect) {
            mis.push(format!("RTL end state breaks an invariant: {v}"));
        }
        log.clear();
    }
    Ok(Board {
        mismatches: mis,
        sems,
    })
}
