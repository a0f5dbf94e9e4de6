//! What a write does where it lands: a doorbell posts descriptors; anything else is stored in
//! SBUF, HBM or a semaphore window, or logged as a fault.

use super::{side_idx, System, SIDES};
use crate::events::{Event, Landed, Writer};
use crate::layout::{SemOp, Side, Target};
use crate::topology::{Core, DieId};

impl System {
    /// Apply a write at its target, log it. Faults are logged, not returned: the hardware logs
    /// them and carries on.
    pub(super) fn land(&mut self, die: DieId, local: u64, bytes: Vec<u8>, by: Writer) {
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
            Some(Target::Sbuf {
                partition, offset, ..
            }) if partition < l.params.sbuf_partitions
                && offset + n <= l.params.sbuf_backing_bytes =>
            {
                st.mem.write(local, &bytes);
                None
            }
            Some(Target::SbufAcc {
                dtype,
                core,
                partition,
                offset,
            }) if partition < l.params.sbuf_partitions
                && offset + n <= l.params.sbuf_backing_bytes
                && offset.is_multiple_of(dtype.lane_bytes())
                && n.is_multiple_of(dtype.lane_bytes()) =>
            {
                // Read-modify-write of the SBUF bytes the aperture mirrors.
                let at = l.sbuf_addr(core, partition, offset);
                let mut acc = st.mem.read(at, n);
                crate::reduce::accumulate(dtype, &mut acc, &bytes);
                st.mem.write(at, &acc);
                None
            }
            Some(Target::Hbm) if local + n <= l.apertures.hbm.end() => {
                st.mem.write(local, &bytes);
                None
            }
            Some(Target::Sem {
                core,
                op,
                sem,
                aligned,
            }) if aligned && n == l.evt_sem.sem_bytes() => {
                let mut b = [0u8; 4];
                let k = bytes.len().min(4);
                b[..k].copy_from_slice(&bytes[..k]);
                let v = i32::from_le_bytes(b);
                if let Some(s) = st
                    .sems
                    .get_mut(core as usize)
                    .and_then(|s| s.get_mut(sem as usize))
                {
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

    pub(super) fn doorbell(&mut self, die: DieId, local: u64, value: u64, by: Core) -> bool {
        // The broadcast doorbell (seed 4.4): mask and queue registers, and one increment per
        // side that posts `value` on that queue of every engine of the mask.
        let b = &self.layout.bcast;
        let base = self.layout.apertures.sdma_bcast.base;
        let field = |f: &xdie_csr::Field| (value >> f.lsb) & ((1u64 << f.width) - 1);
        if local == base + b.group.offset || local == base + b.queue_reg.offset {
            let (mask, queue) = (field(&b.mask), field(&b.queue));
            let is_group = local == base + b.group.offset;
            if let Some(st) = self.dies.get_mut(&die) {
                if is_group {
                    st.bcast_mask = mask;
                } else {
                    st.bcast_queue = queue;
                }
            }
            return true;
        }
        let incs = [
            (Side::M2s, base + b.m2s_inc.offset),
            (Side::S2m, base + b.s2m_inc.offset),
        ];
        let n = field(&b.inc);
        for (side, at) in incs {
            if local != at {
                continue;
            }
            let Some(st) = self.dies.get(&die) else {
                return false;
            };
            let (mask, q) = (st.bcast_mask, st.bcast_queue);
            if n != 0 {
                for e in (0..self.layout.engine_count()).filter(|e| (mask >> e) & 1 == 1) {
                    let db = self.layout.side(side).doorbell(e.into(), q);
                    self.doorbell(die, db, n, by);
                }
            }
            return true;
        }
        for side in SIDES {
            let sl = self.layout.side(side);
            for e in 0..self.layout.engine_count() {
                for q in 0..self.layout.queue_count() {
                    if sl.doorbell(e.into(), q.into()) != local {
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
}
