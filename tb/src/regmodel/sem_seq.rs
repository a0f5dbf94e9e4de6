//! Sequencer command slots: a CMD write posts a command into a slot that is not busy (the slot
//! then stays busy until the sequencer port takes it) and is refused with ERR into a busy one.
//! A block tested alone has its sequencer port's ready low, so a posted command stays posted.

use super::{Expect, Reg, Regs, Special};
use xdie_csr::{BundleRole, RegRole, SemSeqLayout};

pub(crate) struct SemSeq {
    busy_bit: u32,
    err_bit: u32,
    cmd_mask: u32,
    cmd_reset: u32,
    cmds: Vec<u32>,
    busy: Vec<bool>,
    err: Vec<bool>,
}

impl SemSeq {
    pub(crate) fn new(l: &SemSeqLayout) -> SemSeq {
        let n = l.slots() as usize;
        SemSeq {
            busy_bit: l.busy.reg_mask(),
            err_bit: l.err.reg_mask(),
            cmd_mask: l.sem.reg_mask() | l.subop.reg_mask(),
            cmd_reset: l.cmd.reset(),
            cmds: vec![l.cmd.reset(); n],
            busy: vec![false; n],
            err: vec![false; n],
        }
    }
}

impl Special for SemSeq {
    fn claims(&self, reg: &Reg) -> bool {
        reg.bundle_role == Some(BundleRole::Slot)
            && matches!(reg.role, Some(RegRole::Cmd | RegRole::Status))
    }

    fn writable(&self, _reg: &Reg) -> bool {
        true
    }

    fn write(&mut self, reg: &Reg, data: u32, _regs: &mut Regs) {
        let Some(i) = reg.index.map(|i| i as usize) else {
            return;
        };
        if reg.role != Some(RegRole::Cmd) {
            return;
        }
        if self.busy[i] {
            self.err[i] = true;
        } else {
            self.cmds[i] = data & self.cmd_mask;
            self.busy[i] = true;
            self.err[i] = false;
        }
    }

    fn read(&self, reg: &Reg, _regs: &Regs) -> Expect {
        let Some(i) = reg.index.map(|i| i as usize) else {
            return Expect::Unknown;
        };
        match reg.role {
            Some(RegRole::Cmd) => Expect::Value(self.cmds[i]),
            Some(RegRole::Status) => Expect::Value(
                if self.busy[i] { self.busy_bit } else { 0 }
                    | if self.err[i] { self.err_bit } else { 0 },
            ),
            _ => Expect::Unknown,
        }
    }

    fn reset(&mut self) {
        self.cmds.iter_mut().for_each(|c| *c = self.cmd_reset);
        self.busy.iter_mut().for_each(|b| *b = false);
        self.err.iter_mut().for_each(|e| *e = false);
    }
}
