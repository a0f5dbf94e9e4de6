//! UDMA queue group: doorbells and queue state.
//!
//! A tail increment of N (masked to the INC field) is refused when it would make more than
//! ring-length descriptors outstanding: the queue's OVERRUN and the engine's err_log OVERRUN
//! flags are set instead. Accepted increments advance the tail modulo the ring length and bump
//! the tail ring id on each wrap. FULL is derived (a configured ring whose every slot is used), so
//! it has no reset of its own. q_sw_ctrl RST_TAIL/RST_HEAD/RST_Q reset the tail side, head side, or the whole queue
//! including its configuration. Every field position comes from the CSR model by role.

use super::{Expect, HwEvent, Reg, Regs, Special};
use xdie_csr::{BundleRole, Csrs, Field, RegRole, UdmaLayout};

const Q: BundleRole = BundleRole::Queue;

#[derive(Clone, Copy)]
struct FieldPos {
    lsb: u32,
    mask: u64,
}

impl FieldPos {
    fn of(f: &Field) -> FieldPos {
        FieldPos {
            lsb: f.lsb,
            mask: (1u64 << f.width) - 1,
        }
    }
    fn get(self, w: u32) -> u64 {
        (u64::from(w) >> self.lsb) & self.mask
    }
    fn put(self, v: u64) -> u32 {
        ((v & self.mask) << self.lsb) as u32
    }
}

#[derive(Clone, Copy, Default)]
struct Queue {
    tail: u64,
    tail_id: u64,
    head: u64,
    head_id: u64,
    used: u64,
    overrun: bool,
}

pub(crate) struct Udma {
    queues: Vec<Queue>,
    init_id: u64,
    used: FieldPos,
    overrun: FieldPos,
    full: FieldPos,
    ptr: FieldPos,
    ring_id: FieldPos,
    inc: FieldPos,
    len: FieldPos,
    rst_tail: FieldPos,
    rst_head: FieldPos,
    rst_q: FieldPos,
    err_overrun: FieldPos,
    err_overrun_set: bool,
    /// Configuration registers RST_Q returns to reset.
    cfg_roles: Vec<RegRole>,
}

impl Udma {
    pub(crate) fn new(l: &UdmaLayout, csrs: &Csrs) -> Udma {
        let init_id = u64::from(csrs.ring.initial_ring_id);
        let cfg_roles = l
            .queue
            .registers
            .iter()
            .filter(|r| r.fields.iter().all(|f| f.access == xdie_csr::Access::Rw))
            .filter_map(|r| r.role)
            .collect();
        Udma {
            queues: vec![Udma::fresh(init_id); l.queues() as usize],
            init_id,
            used: FieldPos::of(&l.used),
            overrun: FieldPos::of(&l.overrun),
            full: FieldPos::of(&l.full),
            ptr: FieldPos::of(&l.tail_offset),
            ring_id: FieldPos::of(&l.tail_ring_id),
            inc: FieldPos::of(&l.inc),
            len: FieldPos::of(&l.len),
            rst_tail: FieldPos::of(&l.rst_tail),
            rst_head: FieldPos::of(&l.rst_head),
            rst_q: FieldPos::of(&l.rst_q),
            err_overrun: FieldPos::of(&l.err_overrun),
            err_overrun_set: false,
            cfg_roles,
        }
    }

    fn fresh(init_id: u64) -> Queue {
        Queue {
            tail_id: init_id,
            head_id: init_id,
            ..Queue::default()
        }
    }

    fn len(&self, regs: &Regs, q: u64) -> u64 {
        regs.find(Q, q, RegRole::RingLen)
            .map_or(0, |i| self.len.get(regs.value(i)))
    }
}

impl Special for Udma {
    fn claims(&self, reg: &Reg) -> bool {
        use RegRole::*;
        match reg.bundle_role {
            Some(Q) => matches!(reg.role, Some(Status | Head | Tail | TailInc | SwCtrl)),
            None => reg.role == Some(ErrLog),
            Some(_) => false,
        }
    }

    fn writable(&self, _reg: &Reg) -> bool {
        true
    }

    fn write(&mut self, reg: &Reg, data: u32, regs: &mut Regs) {
        let role = reg.role;
        if reg.bundle_role.is_none() {
            if role == Some(RegRole::ErrLog) && self.err_overrun.get(data) != 0 {
                self.err_overrun_set = false;
            }
            return;
        }
        let Some(qi) = reg.index else { return };
        let len = self.len(regs, qi);
        let init = self.init_id;
        let id_mask = self.ring_id.mask;
        let q = &mut self.queues[qi as usize];
        match role {
            Some(RegRole::TailInc) => {
                let n = self.inc.get(data);
                if n == 0 {
                    return;
                }
                if q.used + n > len {
                    q.overrun = true;
                    self.err_overrun_set = true;
                    return;
                }
                q.tail += n;
                if q.tail >= len {
                    q.tail -= len;
                    q.tail_id = (q.tail_id + 1) & id_mask;
                }
                q.used += n;
            }
            Some(RegRole::SwCtrl) => {
                let (t, h, all) = (
                    self.rst_tail.get(data) != 0,
                    self.rst_head.get(data) != 0,
                    self.rst_q.get(data) != 0,
                );
                if t || h {
                    q.used = 0;
                }
                if t {
                    q.tail = 0;
                    q.tail_id = init;
                    q.overrun = false;
                }
                if h {
                    q.head = 0;
                    q.head_id = init;
                }
                if all {
                    *q = Udma::fresh(init);
                    for &role in &self.cfg_roles {
                        if let Some(i) = regs.find(Q, qi, role) {
                            regs.restore_reset(i);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn read(&self, reg: &Reg, regs: &Regs) -> Expect {
        let role = reg.role;
        if reg.bundle_role.is_none() {
            return Expect::Value(self.err_overrun.put(u64::from(self.err_overrun_set)));
        }
        let Some(qi) = reg.index else {
            return Expect::Unknown;
        };
        let q = &self.queues[qi as usize];
        Expect::Value(match role {
            Some(RegRole::Status) => {
                self.used.put(q.used)
                    | self.overrun.put(u64::from(q.overrun))
                    | self.full.put(u64::from({
                        let len = self.len(regs, qi);
                        len != 0 && q.used == len
                    }))
            }
            Some(RegRole::Head) => self.ptr.put(q.head) | self.ring_id.put(q.head_id),
            Some(RegRole::Tail) => self.ptr.put(q.tail) | self.ring_id.put(q.tail_id),
            _ => 0,
        })
    }

    fn hw_event(&mut self, event: HwEvent, regs: &mut Regs) {
        let HwEvent::HeadInc { queue } = event;
        let len = self.len(regs, queue);
        let id_mask = self.ring_id.mask;
        let Some(q) = self.queues.get_mut(queue as usize) else {
            return;
        };
        if q.used == 0 {
            return;
        }
        q.used -= 1;
        q.head += 1;
        if q.head >= len {
            q.head = 0;
            q.head_id = (q.head_id + 1) & id_mask;
        }
    }

    fn reset(&mut self) {
        let init = self.init_id;
        self.queues.iter_mut().for_each(|q| *q = Udma::fresh(init));
        self.err_overrun_set = false;
    }
}
