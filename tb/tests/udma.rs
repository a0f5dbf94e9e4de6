//! UDMA queue groups (M2S and S2M): doorbells, ring wrap and ring ids, 24-bit masking, overrun,
//! q_sw_ctrl resets. Offsets and fields come from csrs/ by role; expectations from the
//! reference model (`regmodel::udma`).

use rstest::rstest;
use xdie_csr::{Block, Bundle};
use xdie_tb::block::{dut, BlockTb};
use xdie_tb::regmodel::block_of;
use xdie_tb::{harness, Ctx, HwEvent, Resp};

struct Q {
    block: &'static Block,
    bundle: &'static Bundle,
    q: u64,
}

impl Q {
    fn off(&self, role: &str) -> u64 {
        let r = self
            .bundle
            .reg_by_role(role)
            .unwrap_or_else(|| panic!("queue register role {role}"));
        self.bundle.reg_offset(self.q, r)
    }
    fn field_mask(&self, reg: &str, field: &str) -> u32 {
        self.bundle
            .reg_by_role(reg)
            .and_then(|r| r.field_by_role(field))
            .map(|f| f.reg_mask())
            .unwrap_or_else(|| panic!("{reg}.{field}"))
    }
    fn inc_mask(&self) -> u32 {
        self.bundle.reg_by_role("tail_inc").unwrap().fields[0].reg_mask()
    }
}

fn open(ctx: &mut Ctx, side: &str, which: u64) -> (BlockTb, Q) {
    let kind = dut(&format!("xdie_udma_{side}"));
    let block = block_of(kind).expect("udma block");
    let bundle = block.bundle_by_role("queue").expect("queue bundle");
    let q = [0, bundle.count - 1, 1 + ctx.rng.below(bundle.count - 2)][which as usize];
    (BlockTb::new(ctx, kind), Q { block, bundle, q })
}

/// Every queue register of this queue and the engine error log match the model.
fn check_queue(tb: &mut BlockTb, q: &Q) {
    for role in [
        "status", "head", "tail", "tail_inc", "ring_len", "cfg", "sw_ctrl",
    ] {
        tb.check(q.off(role));
    }
    let err = q.block.reg_by_role("err_log").unwrap().offset;
    tb.check(err);
}

/// Pulses the engine's head-increment input of queue `q` for one cycle.
fn pop(tb: &mut BlockTb, q: &Q) {
    let port = tb
        .sim
        .require_port("hw_head_inc_i")
        .expect("head increment port");
    let mut words = vec![0u32; port.info().words as usize];
    words[(q.q / 32) as usize] = 1 << (q.q % 32);
    tb.sim.set(port, &words);
    tb.sim.tick();
    tb.sim.set(port, &vec![0; words.len()]);
    tb.model.hw_event(HwEvent::HeadInc { queue: q.q });
}

#[rstest]
fn doorbells_wrap_the_ring_and_advance_ring_ids(
    #[values("m2s", "s2m")] side: &str,
    #[values(0, 1, 2)] which: u64,
    #[values(31, 32)] seed: u64,
) {
    harness::run(seed, |ctx| {
        let (mut tb, q) = open(ctx, side, which);
        let len = 2 + ctx.rng.below(14) as u32;
        assert_eq!(tb.write(q.off("ring_len"), len), Resp::Okay);
        let mut used = 0u32;
        // Enough traffic to wrap the ring many times (ring ids wrap too).
        for _ in 0..60 {
            let free = len - used;
            if free > 0 {
                let n = 1 + ctx.rng.below(u64::from(free)) as u32;
                assert_eq!(tb.write(q.off("tail_inc"), n), Resp::Okay);
                used += n;
            }
            check_queue(&mut tb, &q);
            let pops = ctx.rng.below(u64::from(used) + 1) as u32;
            for _ in 0..pops {
                pop(&mut tb, &q);
            }
            used -= pops;
            check_queue(&mut tb, &q);
        }
    });
}

#[rstest]
fn doorbell_value_is_masked_to_the_field(
    #[values("m2s", "s2m")] side: &str,
    #[values(41, 42)] seed: u64,
) {
    harness::run(seed, |ctx| {
        let (mut tb, q) = open(ctx, side, 2);
        let mask = q.inc_mask();
        tb.write(q.off("ring_len"), mask);
        for _ in 0..20 {
            let junk = ctx.rng.next_u32() & !mask;
            let n = ctx.rng.below(8) as u32;
            assert_eq!(tb.write(q.off("tail_inc"), junk | n), Resp::Okay);
            check_queue(&mut tb, &q);
        }
        // Only bits above the field: no increment at all.
        tb.write(q.off("tail_inc"), (mask << 1) & !mask);
        check_queue(&mut tb, &q);
    });
}

#[rstest]
fn overrun_is_refused_and_flagged(
    #[values("m2s", "s2m")] side: &str,
    #[values(0, 1, 2)] which: u64,
) {
    harness::run(51, |ctx| {
        let (mut tb, q) = open(ctx, side, which);
        let len = 4 + ctx.rng.below(8) as u32;
        tb.write(q.off("ring_len"), len);
        tb.write(q.off("tail_inc"), len - 1);
        check_queue(&mut tb, &q);
        // Two more than the one free slot: refused whole.
        tb.write(q.off("tail_inc"), 2);
        check_queue(&mut tb, &q);
        let overrun = q.field_mask("status", "overrun");
        let (status, _) = tb.read(q.off("status"));
        assert_ne!(status & overrun, 0, "queue OVERRUN must be set");
        // The remaining slot is still usable and fills the ring.
        tb.write(q.off("tail_inc"), 1);
        let (status, _) = tb.read(q.off("status"));
        assert_ne!(
            status & q.field_mask("status", "full"),
            0,
            "ring must be full"
        );
        check_queue(&mut tb, &q);
        // err_log OVERRUN is write-1-to-clear.
        let err = q.block.reg_by_role("err_log").unwrap();
        let bit = err.field_by_role("overrun").unwrap().reg_mask();
        let (log, _) = tb.read(err.offset);
        assert_ne!(log & bit, 0, "err_log OVERRUN must be set");
        tb.write(err.offset, bit);
        check_queue(&mut tb, &q);
    });
}

#[rstest]
fn sw_ctrl_resets(
    #[values("rst_tail", "rst_head", "rst_q")] what: &str,
    #[values("m2s", "s2m")] side: &str,
    #[values(61, 62)] seed: u64,
) {
    harness::run(seed, |ctx| {
        let (mut tb, q) = open(ctx, side, 2);
        let len = 3 + ctx.rng.below(10) as u32;
        tb.write(q.off("ring_len"), len);
        let cfg = ctx.rng.next_u32();
        tb.write(q.off("cfg"), cfg);
        tb.write(q.off("tail_inc"), len - 1);
        for _ in 0..ctx.rng.below(u64::from(len - 1)) {
            pop(&mut tb, &q);
        }
        tb.write(q.off("tail_inc"), len + 1);
        check_queue(&mut tb, &q);
        let bit = q.field_mask("sw_ctrl", what);
        assert_eq!(tb.write(q.off("sw_ctrl"), bit), Resp::Okay);
        check_queue(&mut tb, &q);
        // Other queues are untouched.
        let other = Q {
            q: (q.q + 1) % q.bundle.count,
            ..q
        };
        check_queue(&mut tb, &other);
    });
}
