//! UDMA queue groups (M2S and S2M): doorbells, ring wrap and ring ids, 24-bit masking, overrun,
//! q_sw_ctrl resets. Offsets and fields come from csrs/ by role; expectations from the
//! reference model (`regmodel::udma`).

use rstest::rstest;
use xdie_csr::{FieldRole, Register, UdmaLayout};
use xdie_tb::block::{dut, BlockTb};
use xdie_tb::regmodel::block_of;
use xdie_tb::{harness, Ctx, HwEvent, Resp};

#[derive(Clone, Copy)]
struct Q {
    l: &'static UdmaLayout,
    q: u64,
}

impl Q {
    fn off(&self, r: &Register) -> u64 {
        self.l.queue_reg(self.q, r)
    }
}

fn open(ctx: &mut Ctx, side: &str, which: u64) -> (BlockTb, Q) {
    let kind = dut(&format!("xdie_udma_{side}"));
    let l = block_of(kind).and_then(|b| b.udma()).expect("udma block");
    let n = l.queues();
    let q = [0, n - 1, 1 + ctx.rng.below(n - 2)][which as usize];
    (BlockTb::new(ctx, kind), Q { l, q })
}

/// Every queue register of this queue and the engine error log match the model.
fn check_queue(tb: &mut BlockTb, q: &Q) {
    let l = q.l;
    for r in [
        &l.status,
        &l.head,
        &l.tail,
        &l.tail_inc,
        &l.ring_len,
        &l.cfg,
        &l.sw_ctrl,
    ] {
        tb.check(q.off(r));
    }
    tb.check(l.err_log.offset);
}

/// Pulses the engine's head-increment input for queue `q` for one cycle.
fn pop(tb: &mut BlockTb, q: &Q) {
    let valid = tb
        .sim
        .require_port("hw_head_inc_valid_i")
        .expect("head increment port");
    let idx = tb
        .sim
        .require_port("hw_head_inc_idx_i")
        .expect("head increment queue port");
    tb.sim.set_u64(idx, q.q);
    tb.sim.set_u64(valid, 1);
    tb.sim.tick();
    tb.sim.set_u64(valid, 0);
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
        assert_eq!(tb.write(q.off(&q.l.ring_len), len), Resp::Okay);
        let mut used = 0u32;
        // Enough traffic to wrap the ring many times (ring ids wrap too).
        for _ in 0..60 {
            let free = len - used;
            if free > 0 {
                let n = 1 + ctx.rng.below(u64::from(free)) as u32;
                assert_eq!(tb.write(q.off(&q.l.tail_inc), n), Resp::Okay);
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
        let mask = q.l.inc.reg_mask();
        tb.write(q.off(&q.l.ring_len), mask);
        for _ in 0..20 {
            let junk = ctx.rng.next_u32() & !mask;
            let n = ctx.rng.below(8) as u32;
            assert_eq!(tb.write(q.off(&q.l.tail_inc), junk | n), Resp::Okay);
            check_queue(&mut tb, &q);
        }
        // Only bits above the field: no increment at all.
        tb.write(q.off(&q.l.tail_inc), (mask << 1) & !mask);
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
        tb.write(q.off(&q.l.ring_len), len);
        tb.write(q.off(&q.l.tail_inc), len - 1);
        check_queue(&mut tb, &q);
        // Two more than the one free slot: refused whole.
        tb.write(q.off(&q.l.tail_inc), 2);
        check_queue(&mut tb, &q);
        let overrun = q.l.overrun.reg_mask();
        let (status, _) = tb.read(q.off(&q.l.status));
        assert_ne!(status & overrun, 0, "queue OVERRUN must be set");
        // The remaining slot is still usable and fills the ring.
        tb.write(q.off(&q.l.tail_inc), 1);
        let (status, _) = tb.read(q.off(&q.l.status));
        assert_ne!(status & q.l.full.reg_mask(), 0, "ring must be full");
        check_queue(&mut tb, &q);
        // err_log OVERRUN is write-1-to-clear.
        let err = &q.l.err_log;
        let bit = q.l.err_overrun.reg_mask();
        let (log, _) = tb.read(err.offset);
        assert_ne!(log & bit, 0, "err_log OVERRUN must be set");
        tb.write(err.offset, bit);
        check_queue(&mut tb, &q);
    });
}

#[rstest]
fn sw_ctrl_resets(
    #[values(FieldRole::RstTail, FieldRole::RstHead, FieldRole::RstQ)] what: FieldRole,
    #[values("m2s", "s2m")] side: &str,
    #[values(61, 62)] seed: u64,
) {
    harness::run(seed, |ctx| {
        let (mut tb, q) = open(ctx, side, 2);
        let len = 3 + ctx.rng.below(10) as u32;
        tb.write(q.off(&q.l.ring_len), len);
        let cfg = ctx.rng.next_u32();
        tb.write(q.off(&q.l.cfg), cfg);
        tb.write(q.off(&q.l.tail_inc), len - 1);
        for _ in 0..ctx.rng.below(u64::from(len - 1)) {
            pop(&mut tb, &q);
        }
        tb.write(q.off(&q.l.tail_inc), len + 1);
        check_queue(&mut tb, &q);
        let bit =
            q.l.sw_ctrl
                .field_by_role(what)
                .expect("reset field")
                .reg_mask();
        assert_eq!(tb.write(q.off(&q.l.sw_ctrl), bit), Resp::Okay);
        check_queue(&mut tb, &q);
        // Other queues are untouched.
        let other = Q {
            q: (q.q + 1) % q.l.queues(),
            ..q
        };
        check_queue(&mut tb, &other);
    });
}
