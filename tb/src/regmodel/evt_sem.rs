//! EVT_SEM: four windows (READ, SET, INC, DEC) onto one array of signed 32-bit semaphores.

use super::{Expect, Reg, Regs, Special};
use xdie_csr::{BundleRole, EvtSemLayout, SemOp};

pub(crate) struct EvtSem {
    sems: Vec<u32>,
    resets: Vec<u32>,
}

impl EvtSem {
    pub(crate) fn new(layout: &EvtSemLayout) -> EvtSem {
        let read = layout.window(SemOp::Read);
        let resets = vec![read.reg.reset(); read.bundle.count as usize];
        EvtSem {
            sems: resets.clone(),
            resets,
        }
    }
}

impl Special for EvtSem {
    fn claims(&self, reg: &Reg) -> bool {
        matches!(
            reg.bundle_role,
            Some(
                BundleRole::SemRead | BundleRole::SemSet | BundleRole::SemInc | BundleRole::SemDec
            )
        )
    }

    fn writable(&self, _reg: &Reg) -> bool {
        true
    }

    fn write(&mut self, reg: &Reg, data: u32, _regs: &mut Regs) {
        let Some(i) = reg.index else { return };
        let s = &mut self.sems[i as usize];
        match reg.bundle_role {
            Some(BundleRole::SemSet) => *s = data,
            Some(BundleRole::SemInc) => *s = s.wrapping_add(data),
            Some(BundleRole::SemDec) => *s = s.wrapping_sub(data),
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
