//! A register block under test: its model, bus master and reference model together.

use crate::axil::{AxilMaster, Resp, Timing};
use crate::duts::DutKind;
use crate::harness::Ctx;
use crate::regmodel::{block_of, Expect, RegModel};
use crate::sim::Sim;

pub struct BlockTb {
    pub sim: Sim,
    pub bus: AxilMaster,
    pub model: RegModel,
}

/// Reset cycles applied by [`BlockTb::new`].
pub const RESET_CYCLES: u64 = 3;

impl BlockTb {
    /// A reset block with a randomly stalling bus master.
    pub fn new(ctx: &mut Ctx, kind: DutKind) -> BlockTb {
        let mut sim = ctx
            .sim(kind)
            .unwrap_or_else(|e| panic!("{}: {e}", kind.name()));
        let seed = ctx.sub_seed();
        let bus = AxilMaster::new(&mut sim, seed, Timing::RANDOM)
            .unwrap_or_else(|e| panic!("{}: {e}", kind.name()));
        let model = RegModel::for_dut(kind)
            .unwrap_or_else(|| panic!("{} implements no block of csrs/", kind.name()));
        sim.reset(RESET_CYCLES);
        BlockTb { sim, bus, model }
    }

    pub fn name(&self) -> &'static str {
        self.sim.kind().name()
    }

    pub fn write(&mut self, offset: u64, data: u32) -> Resp {
        self.write_strb(offset, data, 0xF)
    }

    pub fn write_strb(&mut self, offset: u64, data: u32, strb: u8) -> Resp {
        let name = self.name();
        self.model.write(offset, data, strb);
        self.bus
            .write_strb(&mut self.sim, offset, data, strb)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    /// A full-word write calling `observe` at every cycle's sampling point.
    pub fn write_observed<F: FnMut(&crate::sim::Sim)>(
        &mut self,
        offset: u64,
        data: u32,
        observe: F,
    ) -> Resp {
        let name = self.name();
        self.model.write(offset, data, 0xF);
        self.bus
            .write_observed(&mut self.sim, offset, data, 0xF, observe)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    pub fn read(&mut self, offset: u64) -> (u32, Resp) {
        let name = self.name();
        self.bus
            .read(&mut self.sim, offset)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    /// Reads `offset` and asserts it matches the reference model.
    pub fn check(&mut self, offset: u64) {
        let expect = self.model.read(offset);
        self.check_against(offset, expect);
    }

    pub fn check_against(&mut self, offset: u64, expect: Expect) {
        let (data, resp) = self.read(offset);
        let reg = self
            .model
            .reg_at(offset)
            .map_or_else(|| "<unmapped>".to_string(), |r| r.name.clone());
        match expect {
            Expect::Value(v) => assert_eq!(
                (data, resp),
                (v, Resp::Okay),
                "{}: read of {reg} at {offset:#x}: got {data:#010x} {resp:?}, model says {v:#010x}",
                self.name()
            ),
            Expect::SlvErr => assert_eq!(
                resp,
                Resp::SlvErr,
                "{}: read of {offset:#x} should answer SLVERR",
                self.name()
            ),
            Expect::Unknown => assert_eq!(resp, Resp::Okay, "{}: read of {reg}", self.name()),
        }
    }
}

/// Every simulated DUT that implements a register block of `csrs/`.
pub fn register_blocks() -> Vec<DutKind> {
    DutKind::ALL
        .iter()
        .copied()
        .filter(|k| block_of(*k).is_some())
        .collect()
}

/// The DUT of module `name`.
pub fn dut(name: &str) -> DutKind {
    DutKind::ALL
        .iter()
        .copied()
        .find(|k| k.name() == name)
        .unwrap_or_else(|| match crate::RTL_UNAVAILABLE {
            Some(why) => panic!("no DUT `{name}`: the RTL did not verilate at build time:\n{why}"),
            None => panic!("no DUT `{name}` in rtl/xdie.f"),
        })
}
