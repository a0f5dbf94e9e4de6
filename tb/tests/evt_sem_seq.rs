//! EVT_SEM sequencer port (inc, wait_ge_and_dec, unknown subops) and event flags, driven
//! against the subop codes and offsets of the model.

use xdie_csr::{EvtSemLayout, EvtSemParams, SemOp};
use xdie_tb::block::{dut, BlockTb};
use xdie_tb::regmodel::block_of;
use xdie_tb::{harness, Ctx, Resp};

fn open(ctx: &mut Ctx) -> (BlockTb, &'static EvtSemLayout, &'static EvtSemParams) {
    let kind = dut("xdie_evt_sem");
    let l = block_of(kind)
        .and_then(|b| b.evt_sem())
        .expect("evt_sem block");
    (BlockTb::new(ctx, kind), l, &l.params)
}

fn addr(l: &EvtSemLayout, op: SemOp, i: u64) -> u64 {
    l.sem_offset(op, i)
}

/// Offset of event flag `i`'s register.
fn event(l: &EvtSemLayout, i: u64) -> u64 {
    l.events.reg_offset(i, &l.event_reg)
}

fn sem(tb: &mut BlockTb, l: &EvtSemLayout, i: u64) -> i32 {
    let (v, resp) = tb.read(addr(l, SemOp::Read, i));
    assert_eq!(resp, Resp::Okay);
    v as i32
}

/// Presents one sequencer request for up to two cycles, as the sequencer slots do, and reports
/// whether it was taken on a rising edge; the request is withdrawn afterwards. A wait is decided
/// from the value read in the cycle before, so it is never taken in its first cycle; any other
/// command is taken in its first cycle (the bus is idle here).
fn seq_try(tb: &mut BlockTb, subop: u64, idx: u64, val: i32) -> bool {
    let wait = {
        let l = block_of(dut("xdie_evt_sem"))
            .and_then(|b| b.evt_sem())
            .expect("evt_sem block");
        subop == l.params.seq_subop_wait_ge_dec
    };
    let s = &mut tb.sim;
    s.set_by_name("seq_subop_i", subop).expect("seq_subop_i");
    s.set_by_name("seq_idx_i", idx).expect("seq_idx_i");
    s.set_by_name("seq_val_i", u64::from(val as u32))
        .expect("seq_val_i");
    s.set_by_name("seq_valid_i", 1).expect("seq_valid_i");
    let mut taken = false;
    for cycle in 0..2 {
        s.eval();
        let ready = s.get_by_name("seq_ready_o").expect("seq_ready_o") == 1;
        assert!(
            !(wait && ready && cycle == 0),
            "a wait taken in its first cycle on the port"
        );
        assert!(
            wait || (ready && cycle == 0),
            "subop {subop} not taken in its first cycle"
        );
        s.tick();
        if ready {
            taken = true;
            break;
        }
    }
    s.set_by_name("seq_valid_i", 0).expect("seq_valid_i");
    s.eval();
    taken
}

#[test]
fn seq_inc_adds_at_once() {
    harness::run(31, |ctx| {
        let (mut tb, block, p) = open(ctx);
        let n = block.sem_count();
        for i in [0, n / 2, n - 1] {
            let start = ctx.rng.next_u32() as i32;
            let v = ctx.rng.next_u32() as i32;
            tb.write(addr(block, SemOp::Set, i), start as u32);
            assert!(
                seq_try(&mut tb, p.seq_subop_inc, i, v),
                "inc must be accepted"
            );
            assert_eq!(sem(&mut tb, block, i), start.wrapping_add(v));
        }
    });
}

#[test]
fn seq_wait_ge_and_dec_blocks_until_reached() {
    harness::run(32, |ctx| {
        let (mut tb, block, p) = open(ctx);
        let n = block.sem_count();
        let i = 1 + ctx.rng.below(n - 1);
        tb.write(addr(block, SemOp::Set, i), (-3i32) as u32);
        for _ in 0..4 {
            assert!(!seq_try(&mut tb, p.seq_subop_wait_ge_dec, i, 2), "-3 >= 2?");
        }
        assert_eq!(sem(&mut tb, block, i), -3, "a refused wait changes nothing");
        tb.write(addr(block, SemOp::Inc, i), 4);
        assert!(!seq_try(&mut tb, p.seq_subop_wait_ge_dec, i, 2), "1 >= 2?");
        tb.write(addr(block, SemOp::Inc, i), 1);
        assert!(seq_try(&mut tb, p.seq_subop_wait_ge_dec, i, 2), "2 >= 2");
        assert_eq!(sem(&mut tb, block, i), 0);
        // Signed: a negative threshold passes at once.
        assert!(seq_try(&mut tb, p.seq_subop_wait_ge_dec, i, -5));
        assert_eq!(sem(&mut tb, block, i), 5);
    });
}

#[test]
fn unknown_subop_is_accepted_ignored_and_flagged() {
    harness::run(33, |ctx| {
        let (mut tb, block, p) = open(ctx);
        let unknown = (0..1u64 << p.seq_subop_bits)
            .find(|c| *c != p.seq_subop_inc && *c != p.seq_subop_wait_ge_dec)
            .expect("a free code");
        tb.write(addr(block, SemOp::Set, 0), 9);
        assert!(seq_try(&mut tb, unknown, 0, 1));
        assert_eq!(tb.sim.get_by_name("seq_err_o").expect("seq_err_o"), 1);
        tb.sim.tick();
        assert_eq!(tb.sim.get_by_name("seq_err_o").expect("seq_err_o"), 0);
        assert_eq!(sem(&mut tb, block, 0), 9);
    });
}

#[test]
fn event_flags_drive_event_o() {
    harness::run(34, |ctx| {
        let (mut tb, block, _) = open(ctx);
        let evt = &block.events;
        let f = &block.event_flag;
        let i = ctx.rng.below(evt.count);
        let bit = |tb: &BlockTb| {
            let words = tb.sim.get(tb.sim.require_port("event_o").expect("event_o"));
            words[(i / 32) as usize] >> (i % 32) & 1
        };
        assert_eq!(bit(&tb), 0);
        // A strobe that misses the flag's byte leaves it alone.
        let other = !(1u8 << (f.lsb / 8)) & 0xF;
        tb.write_strb(event(block, i), 1 << f.lsb, other);
        assert_eq!(bit(&tb), 0);
        tb.write(event(block, i), 1 << f.lsb);
        assert_eq!(bit(&tb), 1);
        tb.check(event(block, i));
        tb.write(event(block, i), 0);
        assert_eq!(bit(&tb), 0);
    });
}
