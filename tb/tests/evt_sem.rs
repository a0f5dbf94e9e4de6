//! EVT_SEM: the four semaphore windows, signed wrap, and increments arriving in the same cycle
//! from the bus and from every hardware increment port.

use rstest::rstest;
use xdie_csr::{EvtSemLayout, SemOp};
use xdie_tb::block::{dut, BlockTb};
use xdie_tb::regmodel::block_of;
use xdie_tb::{harness, Ctx, DutKind, Resp};

fn evt_sem() -> (DutKind, &'static EvtSemLayout) {
    let kind = dut("xdie_evt_sem");
    let l = block_of(kind).and_then(|b| b.evt_sem());
    (kind, l.expect("evt_sem block"))
}

fn sem_addr(l: &EvtSemLayout, op: SemOp, sem: u64) -> u64 {
    l.sem_offset(op, sem)
}

fn open(ctx: &mut Ctx) -> (BlockTb, &'static EvtSemLayout) {
    let (kind, block) = evt_sem();
    (BlockTb::new(ctx, kind), block)
}

/// Every semaphore, through `op`'s window, then read back through all four windows.
#[rstest]
fn window_op_on_every_semaphore(
    #[values(SemOp::Read, SemOp::Set, SemOp::Inc, SemOp::Dec)] op: SemOp,
    #[values(1, 2)] seed: u64,
) {
    harness::run(seed, |ctx| {
        let (mut tb, block) = open(ctx);
        let count = block.sem_count();
        for sem in 0..count {
            let start = ctx.rng.next_u32();
            assert_eq!(
                tb.write(sem_addr(block, SemOp::Set, sem), start),
                Resp::Okay
            );
            let v = ctx.rng.next_u32();
            assert_eq!(
                tb.write(sem_addr(block, op, sem), v),
                Resp::Okay,
                "{op:?} write"
            );
            for w in SemOp::ALL {
                tb.check(sem_addr(block, w, sem));
            }
        }
        // Only the semaphores written were touched.
        for sem in 0..count {
            tb.check(sem_addr(block, SemOp::Read, sem));
        }
    });
}

#[rstest]
#[case::inc_past_max(i32::MAX, SemOp::Inc, 1)]
#[case::dec_past_min(i32::MIN, SemOp::Dec, 1)]
#[case::dec_below_zero(0, SemOp::Dec, 1)]
#[case::inc_minus_one(0, SemOp::Inc, -1)]
#[case::dec_minus_one(-1, SemOp::Dec, -1)]
#[case::inc_min_plus_min(i32::MIN, SemOp::Inc, i32::MIN)]
fn signed_wrap(#[case] start: i32, #[case] op: SemOp, #[case] amount: i32) {
    harness::run(7, |ctx| {
        let (mut tb, block) = open(ctx);
        let count = block.sem_count();
        for sem in [0, count / 2, count - 1] {
            tb.write(sem_addr(block, SemOp::Set, sem), start as u32);
            tb.write(sem_addr(block, op, sem), amount as u32);
            let want = match op {
                SemOp::Inc => start.wrapping_add(amount),
                _ => start.wrapping_sub(amount),
            };
            let (got, resp) = tb.read(sem_addr(block, SemOp::Read, sem));
            assert_eq!((got as i32, resp), (want, Resp::Okay), "sem {sem}");
            tb.check(sem_addr(block, SemOp::Read, sem));
        }
    });
}

/// Hardware increment ports: `<n>` ports packed into `hw_inc_{valid,idx,val}_i`.
struct HwInc {
    ports: u32,
    idx_w: u32,
    val_w: u32,
}

fn hw_inc(block: &EvtSemLayout, tb: &BlockTb) -> HwInc {
    let params = &block.params;
    let width = |n: &str| tb.sim.require_port(n).expect("hw inc port").info().width;
    let hw_inc_ports = params.hw_inc_ports;
    assert_eq!(width("hw_inc_valid_i"), hw_inc_ports);
    HwInc {
        ports: hw_inc_ports,
        idx_w: width("hw_inc_idx_i") / hw_inc_ports,
        val_w: width("hw_inc_val_i") / hw_inc_ports,
    }
}

fn pack(fields: &[u64], w: u32) -> Vec<u32> {
    let total = fields.len() as u32 * w;
    let mut words = vec![0u32; total.div_ceil(32) as usize];
    for (i, &f) in fields.iter().enumerate() {
        for b in 0..w {
            if f >> b & 1 == 1 {
                let bit = i as u32 * w + b;
                words[(bit / 32) as usize] |= 1 << (bit % 32);
            }
        }
    }
    words
}

/// The bus and every hardware port increment one semaphore in the same cycles: none is lost.
#[rstest]
fn same_cycle_increments_from_bus_and_every_port(
    #[values(0, 1, 2)] which: u64,
    #[values(21, 22)] seed: u64,
) {
    harness::run(seed, |ctx| {
        let (mut tb, block) = open(ctx);
        let hw = hw_inc(block, &tb);
        let count = block.sem_count();
        let sem = [0, count - 1, 1 + ctx.rng.below(count - 2)][which as usize];
        let start = ctx.rng.next_u32();
        tb.write(sem_addr(block, SemOp::Set, sem), start);
        let mut want = start;
        let val_mask = if hw.val_w >= 32 {
            u32::MAX
        } else {
            (1 << hw.val_w) - 1
        };
        let vals: Vec<u64> = (0..hw.ports)
            .map(|_| u64::from(ctx.rng.next_u32() & val_mask))
            .collect();
        let (valid, idx, val) = (
            tb.sim.require_port("hw_inc_valid_i").unwrap(),
            tb.sim.require_port("hw_inc_idx_i").unwrap(),
            tb.sim.require_port("hw_inc_val_i").unwrap(),
        );
        tb.sim
            .set(idx, &pack(&vec![sem; hw.ports as usize], hw.idx_w));
        tb.sim.set(val, &pack(&vals, hw.val_w));
        let all = (1u64 << hw.ports) - 1;
        for _ in 0..20 {
            let amount = ctx.rng.next_u32();
            let dec = ctx.rng.chance(30);
            tb.sim.set_u64(valid, all);
            let t0 = tb.sim.time();
            let role = if dec { SemOp::Dec } else { SemOp::Inc };
            assert_eq!(tb.write(sem_addr(block, role, sem), amount), Resp::Okay);
            tb.sim.set_u64(valid, 0);
            // The ports were valid on every rising edge the write took.
            let edges = (tb.sim.time() - t0) / 2;
            let hw_sum = vals.iter().fold(0u32, |a, v| a.wrapping_add(*v as u32));
            want = want.wrapping_add(hw_sum.wrapping_mul(edges as u32));
            want = if dec {
                want.wrapping_sub(amount)
            } else {
                want.wrapping_add(amount)
            };
            let (got, resp) = tb.read(sem_addr(block, SemOp::Read, sem));
            assert_eq!(
                (got, resp),
                (want, Resp::Okay),
                "sem {sem} after {edges} cycles"
            );
        }
        // Each port alone, too.
        for p in 0..hw.ports {
            let t0 = tb.sim.time();
            tb.sim.set_u64(valid, 1 << p);
            tb.sim.ticks(3);
            tb.sim.set_u64(valid, 0);
            let edges = (tb.sim.time() - t0) / 2;
            want = want.wrapping_add((vals[p as usize] as u32).wrapping_mul(edges as u32));
            let (got, _) = tb.read(sem_addr(block, SemOp::Read, sem));
            assert_eq!(got, want, "port {p} alone");
        }
    });
}

/// Hardware ports, the bus and the sequencer update different semaphores, and sometimes the same
/// one, in the same cycles (each source has its own bank, so nothing merges or waits except the
/// sequencer, which yields to the bus); afterwards every semaphore touched reads back the sum of
/// all updates: none is lost.
#[rstest]
fn same_cycle_updates_to_different_semaphores(#[values(41, 42)] seed: u64) {
    harness::run(seed, |ctx| {
        let (mut tb, block) = open(ctx);
        let hw = hw_inc(block, &tb);
        let params = &block.params;
        let count = block.sem_count();
        // A few semaphores, both ends included, so random picks collide often.
        let mut sems = vec![0, count - 1];
        while sems.len() < 4 {
            let s = ctx.rng.below(count);
            if !sems.contains(&s) {
                sems.push(s);
            }
        }
        let mut want = vec![0u32; sems.len()];
        for (k, &s) in sems.iter().enumerate() {
            want[k] = ctx.rng.next_u32();
            assert_eq!(
                tb.write(sem_addr(block, SemOp::Set, s), want[k]),
                Resp::Okay
            );
        }
        let val_mask = if hw.val_w >= 32 {
            u32::MAX
        } else {
            (1 << hw.val_w) - 1
        };
        let (valid, idx, val) = (
            tb.sim.require_port("hw_inc_valid_i").unwrap(),
            tb.sim.require_port("hw_inc_idx_i").unwrap(),
            tb.sim.require_port("hw_inc_val_i").unwrap(),
        );
        // Random hardware increments on random semaphores of the set: `(valid mask, picks, vals)`.
        let draw = |ctx: &mut Ctx| {
            let mask = ctx.rng.below(1 << hw.ports);
            let picks: Vec<usize> = (0..hw.ports)
                .map(|_| ctx.rng.below(sems.len() as u64) as usize)
                .collect();
            let vals: Vec<u32> = (0..hw.ports)
                .map(|_| ctx.rng.next_u32() & val_mask)
                .collect();
            (mask, picks, vals)
        };
        let apply = |want: &mut [u32], mask: u64, picks: &[usize], vals: &[u32], edges: u64| {
            for p in 0..hw.ports as usize {
                if mask >> p & 1 == 1 {
                    want[picks[p]] =
                        want[picks[p]].wrapping_add(vals[p].wrapping_mul(edges as u32));
                }
            }
        };
        // Bus INC/DEC while the hardware ports increment (held for the whole write).
        for _ in 0..24 {
            let (mask, picks, vals) = draw(ctx);
            let idxs: Vec<u64> = picks.iter().map(|&k| sems[k]).collect();
            tb.sim.set(idx, &pack(&idxs, hw.idx_w));
            tb.sim.set(
                val,
                &pack(
                    &vals.iter().map(|&v| u64::from(v)).collect::<Vec<_>>(),
                    hw.val_w,
                ),
            );
            tb.sim.set_u64(valid, mask);
            let k = ctx.rng.below(sems.len() as u64) as usize;
            let amount = ctx.rng.next_u32();
            let dec = ctx.rng.chance(40);
            let t0 = tb.sim.time();
            let op = if dec { SemOp::Dec } else { SemOp::Inc };
            assert_eq!(tb.write(sem_addr(block, op, sems[k]), amount), Resp::Okay);
            tb.sim.set_u64(valid, 0);
            let edges = (tb.sim.time() - t0) / 2;
            apply(&mut want, mask, &picks, &vals, edges);
            want[k] = if dec {
                want[k].wrapping_sub(amount)
            } else {
                want[k].wrapping_add(amount)
            };
        }
        // Sequencer increments in the same cycles as the hardware ports, one cycle at a time.
        for _ in 0..40 {
            let (mask, picks, vals) = draw(ctx);
            let idxs: Vec<u64> = picks.iter().map(|&k| sems[k]).collect();
            tb.sim.set(idx, &pack(&idxs, hw.idx_w));
            tb.sim.set(
                val,
                &pack(
                    &vals.iter().map(|&v| u64::from(v)).collect::<Vec<_>>(),
                    hw.val_w,
                ),
            );
            tb.sim.set_u64(valid, mask);
            let k = ctx.rng.below(sems.len() as u64) as usize;
            let amount = ctx.rng.next_u32();
            let s = &mut tb.sim;
            s.set_by_name("seq_subop_i", params.seq_subop_inc)
                .expect("seq_subop_i");
            s.set_by_name("seq_idx_i", sems[k]).expect("seq_idx_i");
            s.set_by_name("seq_val_i", u64::from(amount))
                .expect("seq_val_i");
            s.set_by_name("seq_valid_i", 1).expect("seq_valid_i");
            s.eval();
            let ready = s.get_by_name("seq_ready_o").expect("seq_ready_o") == 1;
            assert!(ready, "an idle bus leaves the sequencer ready for inc");
            s.tick();
            s.set_by_name("seq_valid_i", 0).expect("seq_valid_i");
            s.set_u64(valid, 0);
            s.eval();
            apply(&mut want, mask, &picks, &vals, 1);
            want[k] = want[k].wrapping_add(amount);
        }
        for (k, &s) in sems.iter().enumerate() {
            let (got, resp) = tb.read(sem_addr(block, SemOp::Read, s));
            assert_eq!((got, resp), (want[k], Resp::Okay), "sem {s}");
        }
    });
}
