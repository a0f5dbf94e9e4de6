//! What a write does where it lands: a doorbell posts descriptors; anything else is stored in
//! SBUF, HBM or a semaphore window, or logged as a fault.

use super::{side_idx, System, SIDES};
use crate::events::{Event, Landed, Writer};
use crate::layout::{SemOp, Target};
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
            Some(Target::Sbuf { partition, offset })
                if partition < l.params.sbuf_partitions
                    && offset + n <= l.params.sbuf_backing_bytes =>
            {
                st.mem.write(local, &bytes);
                None
            }
            Some(Target::Hbm) if local + n <= l.apertures.hbm.end() => {
                st.mem.write(local, &bytes);
                None
            }
            Some(Target::Sem { op, sem, aligned }) if aligned && n == l.evt_sem.sem_bytes() => {
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

    pub(super) fn doorbell(&mut self, die: DieId, local: u64, value: u64, by: Core) -> bool {
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
