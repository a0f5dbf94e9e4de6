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

/// The bus (doorbell, software reset or refused doorbell), the broadcast doorbell and the head
/// pulse change queues in the same cycles, at the same or different queues: a few queues with
/// random ring lengths, each round holding a broadcast and a head pulse on for every cycle of one
/// bus write. Fill levels are kept away from empty and full, so the result does not depend on
/// the cycle the bus write lands in, and the model applies the round as one doorbell (or reset),
/// then k broadcasts and k pulses for the k cycles of the write.
#[rstest]
fn doorbells_broadcasts_and_head_pulses_in_one_cycle(
    #[values("m2s", "s2m")] side: &str,
    #[values(71, 72)] seed: u64,
) {
    harness::run(seed, |ctx| {
        let (mut tb, q0) = open(ctx, side, 0);
        let l = q0.l;
        let n = l.queues();
        let port = |tb: &BlockTb, name: &str| tb.sim.require_port(name).expect(name);
        let (bc_valid, bc_queue, bc_val) = (
            port(&tb, "bcast_inc_valid_i"),
            port(&tb, "bcast_inc_queue_i"),
            port(&tb, "bcast_inc_val_i"),
        );
        let (pop_valid, pop_idx) = (
            port(&tb, "hw_head_inc_valid_i"),
            port(&tb, "hw_head_inc_idx_i"),
        );
        let nonempty = port(&tb, "q_nonempty_o");
        // Three distinct queues, so that the bus, broadcast and pulse collide often.
        let mut qs: Vec<u64> = Vec::new();
        while qs.len() < 3 {
            let q = ctx.rng.below(n);
            if !qs.contains(&q) {
                qs.push(q);
            }
        }
        let at = |q: u64| Q { l, q };
        // Longest bus write (cycles) the margins allow; a longer one fails the test loudly.
        const MAX_K: u64 = 32;
        // Broadcast value at most 3, bus doorbell at most 8.
        let margin = MAX_K * 3 + 8;
        let len: Vec<u64> = (0..3).map(|_| 4 * margin + 1 + ctx.rng.below(64)).collect();
        let mut used = vec![0u64; 3];
        // Ring length (again after RST_Q) and a fill to half the ring.
        let setup = |tb: &mut BlockTb, i: usize, used: &mut Vec<u64>| {
            let q = at(qs[i]);
            assert_eq!(tb.write(q.off(&l.ring_len), len[i] as u32), Resp::Okay);
            let fill = len[i] / 2 - used[i];
            assert_eq!(tb.write(q.off(&l.tail_inc), fill as u32), Resp::Okay);
            used[i] = len[i] / 2;
        };
        for i in 0..3 {
            setup(&mut tb, i, &mut used);
        }
        let rounds = 60;
        for round in 0..rounds {
            let (a, b, p) = (
                ctx.rng.below(3) as usize,
                ctx.rng.below(3) as usize,
                ctx.rng.below(3) as usize,
            );
            let kind = ctx.rng.below(8);
            let bc_on = ctx.rng.chance(80);
            let pop_on = ctx.rng.chance(80);
            let v = 1 + ctx.rng.below(3);
            // A reset or refused doorbell of queue a drops the broadcast and the pulse of its
            // own cycle: keep them off queue a in those rounds.
            let bus_plain = kind < 6;
            let bc_on = bc_on && (bus_plain || b != a);
            let pop_on = pop_on && (bus_plain || p != a);
            tb.sim.set_u64(bc_queue, qs[b]);
            tb.sim.set_u64(bc_val, v);
            tb.sim.set_u64(bc_valid, u64::from(bc_on));
            tb.sim.set_u64(pop_idx, qs[p]);
            tb.sim.set_u64(pop_valid, u64::from(pop_on));
            let qa = at(qs[a]);
            let bus_n = match kind {
                0..=5 => 1 + ctx.rng.below(8),
                _ => len[a] + 1,
            };
            let (off, data) = match kind {
                0..=6 => (qa.off(&l.tail_inc), bus_n << l.inc.lsb),
                _ => {
                    let role =
                        *ctx.rng
                            .pick(&[FieldRole::RstTail, FieldRole::RstHead, FieldRole::RstQ]);
                    let f = l.sw_ctrl.field_by_role(role).expect("reset field");
                    (qa.off(&l.sw_ctrl), u64::from(f.reg_mask()))
                }
            };
            let mut k = 0u64;
            let resp = tb.write_observed(off, data as u32, |_| k += 1);
            tb.sim.set_u64(bc_valid, 0);
            tb.sim.set_u64(pop_valid, 0);
            assert_eq!(resp, Resp::Okay, "round {round}");
            assert!(
                k <= MAX_K,
                "round {round}: the bus write took {k} cycles, the margins allow {MAX_K}"
            );
            match kind {
                0..=5 => used[a] += bus_n,
                6 => {}
                _ => {
                    // The reset's effect is in the model (write_observed); re-arm the queue.
                    used[a] = 0;
                    setup(&mut tb, a, &mut used);
                }
            }
            for _ in 0..k {
                if bc_on {
                    let inc = at(qs[b]).off(&l.tail_inc);
                    tb.model.write(inc, (v << l.inc.lsb) as u32, 0xF);
                    used[b] += v;
                }
                if pop_on {
                    tb.model.hw_event(HwEvent::HeadInc { queue: qs[p] });
                    used[p] -= 1;
                }
            }
            for i in 0..3 {
                assert!(
                    used[i] > margin && used[i] + margin < len[i],
                    "round {round}: queue {} left the fill range the test relies on",
                    qs[i]
                );
                check_queue(&mut tb, &at(qs[i]));
                let ne = (tb.sim.get_u64(nonempty) >> qs[i]) & 1;
                assert_eq!(
                    ne,
                    u64::from(used[i] != 0),
                    "round {round}: q_nonempty_o of queue {}",
                    qs[i]
                );
            }
            // Back to half full, so fill levels stay in range round after round.
            for i in 0..3 {
                let q = at(qs[i]);
                let half = len[i] / 2;
                if used[i] > half {
                    for _ in half..used[i] {
                        pop(&mut tb, &q);
                    }
                } else if used[i] < half {
                    assert_eq!(
                        tb.write(q.off(&l.tail_inc), (half - used[i]) as u32),
                        Resp::Okay
                    );
                }
                used[i] = half;
            }
        }
    });
}
