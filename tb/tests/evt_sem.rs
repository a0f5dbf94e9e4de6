//! EVT_SEM: the four semaphore windows, signed wrap, and increments arriving in the same cycle
//! from the bus and from every hardware increment port.

use rstest::rstest;
use xdie_csr::{Block, BlockKind, Bundle};
use xdie_tb::block::{dut, BlockTb};
use xdie_tb::regmodel::block_of;
use xdie_tb::{harness, Ctx, DutKind, Resp};

const WINDOWS: [&str; 4] = ["sem_read", "sem_set", "sem_inc", "sem_dec"];

fn evt_sem() -> (DutKind, &'static Block) {
    let kind = dut("xdie_evt_sem");
    (kind, block_of(kind).expect("evt_sem block"))
}

fn window(block: &'static Block, role: &str) -> &'static Bundle {
    block
        .bundle_by_role(role)
        .unwrap_or_else(|| panic!("evt_sem has no {role} window"))
}

fn sem_addr(block: &'static Block, role: &str, sem: u64) -> u64 {
    let b = window(block, role);
    b.reg_offset(sem, &b.registers[0])
}

fn open(ctx: &mut Ctx) -> (BlockTb, &'static Block) {
    let (kind, block) = evt_sem();
    (BlockTb::new(ctx, kind), block)
}

/// Every semaphore, through `op`'s window, then read back through all four windows.
#[rstest]
fn window_op_on_every_semaphore(
    #[values("sem_read", "sem_set", "sem_inc", "sem_dec")] op: &str,
    #[values(1, 2)] seed: u64,
) {
    harness::run(seed, |ctx| {
        let (mut tb, block) = open(ctx);
        let count = window(block, "sem_read").count;
        for sem in 0..count {
            let start = ctx.rng.next_u32();
            assert_eq!(tb.write(sem_addr(block, "sem_set", sem), start), Resp::Okay);
            let v = ctx.rng.next_u32();
            assert_eq!(
                tb.write(sem_addr(block, op, sem), v),
                Resp::Okay,
                "{op} write"
            );
            for w in WINDOWS {
                tb.check(sem_addr(block, w, sem));
            }
        }
        // Only the semaphores written were touched.
        for sem in 0..count {
            tb.check(sem_addr(block, "sem_read", sem));
        }
    });
}

#[rstest]
#[case::inc_past_max(i32::MAX, "sem_inc", 1)]
#[case::dec_past_min(i32::MIN, "sem_dec", 1)]
#[case::dec_below_zero(0, "sem_dec", 1)]
#[case::inc_minus_one(0, "sem_inc", -1)]
#[case::dec_minus_one(-1, "sem_dec", -1)]
#[case::inc_min_plus_min(i32::MIN, "sem_inc", i32::MIN)]
fn signed_wrap(#[case] start: i32, #[case] op: &str, #[case] amount: i32) {
    harness::run(7, |ctx| {
        let (mut tb, block) = open(ctx);
        let count = window(block, "sem_read").count;
        for sem in [0, count / 2, count - 1] {
            tb.write(sem_addr(block, "sem_set", sem), start as u32);
            tb.write(sem_addr(block, op, sem), amount as u32);
            let want = match op {
                "sem_inc" => start.wrapping_add(amount),
                _ => start.wrapping_sub(amount),
            };
            let (got, resp) = tb.read(sem_addr(block, "sem_read", sem));
            assert_eq!((got as i32, resp), (want, Resp::Okay), "sem {sem}");
            tb.check(sem_addr(block, "sem_read", sem));
        }
    });
}

/// Hardware increment ports: `<n>` ports packed into `hw_inc_{valid,idx,val}_i`.
struct HwInc {
    ports: u32,
    idx_w: u32,
    val_w: u32,
}

fn hw_inc(block: &Block, tb: &BlockTb) -> HwInc {
    let BlockKind::EvtSem(ref params) = block.kind else {
        panic!("not an evt_sem block")
    };
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
        let count = window(block, "sem_read").count;
        let sem = [0, count - 1, 1 + ctx.rng.below(count - 2)][which as usize];
        let start = ctx.rng.next_u32();
        tb.write(sem_addr(block, "sem_set", sem), start);
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
            let role = if dec { "sem_dec" } else { "sem_inc" };
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
            let (got, resp) = tb.read(sem_addr(block, "sem_read", sem));
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
            let (got, _) = tb.read(sem_addr(block, "sem_read", sem));
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
        let BlockKind::EvtSem(ref params) = block.kind else {
            panic!("not an evt_sem block")
        };
        let count = window(block, "sem_read").count;
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
            assert_eq!(tb.write(sem_addr(block, "sem_set", s), want[k]), Resp::Okay);
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
            let vals: Vec<u32> = (0..hw.ports).map(|_| ctx.rng.next_u32() & val_mask).collect();
            (mask, picks, vals)
        };
        let apply = |want: &mut [u32], mask: u64, picks: &[usize], vals: &[u32], edges: u64| {
            for p in 0..hw.ports as usize {
                if mask >> p & 1 == 1 {
                    want[picks[p]] = want[picks[p]].wrapping_add(vals[p].wrapping_mul(edges as u32));
                }
            }
        };
        // Bus INC/DEC while the hardware ports increment (held for the whole write).
        for _ in 0..24 {
            let (mask, picks, vals) = draw(ctx);
            let idxs: Vec<u64> = picks.iter().map(|&k| sems[k]).collect();
            tb.sim.set(idx, &pack(&idxs, hw.idx_w));
            tb.sim.set(val, &pack(&vals.iter().map(|&v| u64::from(v)).collect::<Vec<_>>(), hw.val_w));
            tb.sim.set_u64(valid, mask);
            let k = ctx.rng.below(sems.len() as u64) as usize;
            let amount = ctx.rng.next_u32();
            let dec = ctx.rng.chance(40);
            let t0 = tb.sim.time();
            let role = if dec { "sem_dec" } else { "sem_inc" };
            assert_eq!(tb.write(sem_addr(block, role, sems[k]), amount), Resp::Okay);
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
            tb.sim.set(val, &pack(&vals.iter().map(|&v| u64::from(v)).collect::<Vec<_>>(), hw.val_w));
            tb.sim.set_u64(valid, mask);
            let k = ctx.rng.below(sems.len() as u64) as usize;
            let amount = ctx.rng.next_u32();
            let s = &mut tb.sim;
            s.set_by_name("seq_subop_i", params.seq_subop_inc).expect("seq_subop_i");
            s.set_by_name("seq_idx_i", sems[k]).expect("seq_idx_i");
            s.set_by_name("seq_val_i", u64::from(amount)).expect("seq_val_i");
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
            let (got, resp) = tb.read(sem_addr(block, "sem_read", s));
            assert_eq!((got, resp), (want[k], Resp::Okay), "sem {s}");
        }
    });
}
