//! UDMA queue group: the doorbell registers move queue state the generic rules cannot see.
//!
//! Until the doorbell semantics are modelled here, the registers that depend on them read as
//! `Unknown` and are not written by random sequences; everything else is plain.

use super::{Expect, Reg, Special};
use xdie_gen::Block;

/// Queue register roles whose value hardware derives from the doorbells.
const DERIVED: &[&str] = &["status", "head", "tail", "tail_inc", "sw_ctrl"];
/// Top-level registers hardware sets.
const HW_SET: &[&str] = &["err_log"];

pub(crate) struct Udma;

impl Udma {
    pub(crate) fn new(_block: &Block) -> Udma {
        Udma
    }
}

impl Special for Udma {
    fn claims(&self, reg: &Reg) -> bool {
        let role = reg.role.as_deref().unwrap_or("");
        match reg.bundle_role.as_deref() {
            Some("queue") => DERIVED.contains(&role),
            None => HW_SET.contains(&role),
            Some(_) => false,
        }
    }

    fn writable(&self, _reg: &Reg) -> bool {
        false
    }

    fn write(&mut self, _reg: &Reg, _data: u32) {}

    fn read(&self, _reg: &Reg) -> Expect {
        Expect::Unknown
    }

    fn reset(&mut self) {}
}
