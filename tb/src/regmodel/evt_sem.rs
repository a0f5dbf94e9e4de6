//! EVT_SEM: four windows (READ, SET, INC, DEC) onto one array of signed 32-bit semaphores.

use super::{Expect, Reg, Regs, Special};
use xdie_csr::Block;

pub(crate) struct EvtSem {
    sems: Vec<u32>,
    resets: Vec<u32>,
}

/// Semaphore window roles, as the loader requires them.
pub const READ: &str = "sem_read";
pub const SET: &str = "sem_set";
pub const INC: &str = "sem_inc";
pub const DEC: &str = "sem_dec";

impl EvtSem {
    pub(crate) fn new(block: &Block) -> EvtSem {
        let read = block
            .bundle_by_role(READ)
            .expect("loader guarantees sem_read");
        let reset = read.registers.first().map_or(0, |r| r.reset());
        let resets = vec![reset; read.count as usize];
        EvtSem {
            sems: resets.clone(),
            resets,
        }
    }
}

impl Special for EvtSem {
    fn claims(&self, reg: &Reg) -> bool {
        matches!(reg.bundle_role.as_deref(), Some(READ | SET | INC | DEC))
    }

    fn writable(&self, _reg: &Reg) -> bool {
        true
    }

    fn write(&mut self, reg: &Reg, data: u32, _regs: &mut Regs) {
        let Some(i) = reg.index else { return };
        let s = &mut self.sems[i as usize];
        match reg.bundle_role.as_deref() {
            Some(SET) => *s = data,
            Some(INC) => *s = s.wrapping_add(data),
            Some(DEC) => *s = s.wrapping_sub(data),
            _ => {}
        }
    }

    fn read(&self, reg: &Reg, _regs: &Regs) -> Expect {
        reg.index
            .map_or(Expect::Unknown, |i| Expect::Value(self.sems[i as usize]))
    }

    fn reset(&mut self) {
        self.sems.clone_from(&self.resets);
    }
}
