//! Broadcast doorbells: one write pulses the increment of the selected queue on exactly the
//! engines of the group mask, once, with the written value masked to the INC field.

use rstest::rstest;
use xdie_csr::Side;
use xdie_tb::block::{dut, BlockTb};
use xdie_tb::{harness, Resp, Sim};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pulse {
    m2s: u64,
    s2m: u64,
    queue: u64,
    val: u64,
}

#[rstest]
fn broadcast_reaches_the_masked_engines_once(
    #[values(Side::M2s, Side::S2m)] which: Side,
    #[values(91, 92, 93)] seed: u64,
) {
    harness::run(seed, |ctx| {
        let mut tb = BlockTb::new(ctx, dut("xdie_sdma_bcast"));
        let l = tb.model.block.bcast().expect("sdma_bcast layout");
        let (group, queue) = (&l.group, &l.queue_reg);
        let (inc, inc_f) = match which {
            Side::M2s => (&l.m2s_inc, &l.inc),
            Side::S2m => (&l.s2m_inc, &l.s2m_inc_field),
        };
        let (mask_f, queue_f) = (&l.mask, &l.queue);
        let inc_mask = inc_f.reg_mask();
        let port = |sim: &Sim, n: &str| sim.require_port(n).unwrap();
        let (m2s, s2m, q_o, v_o) = (
            port(&tb.sim, "m2s_inc_valid_o"),
            port(&tb.sim, "s2m_inc_valid_o"),
            port(&tb.sim, "inc_queue_o"),
            port(&tb.sim, "inc_val_o"),
        );
        for round in 0..40 {
            // Some rounds use an empty mask or a zero value: nothing may pulse.
            let mask = if round % 7 == 3 {
                0
            } else {
                ctx.rng.next_u32()
            };
            let q = ctx.rng.next_u32();
            let val = if round % 5 == 4 {
                ctx.rng.next_u32() & !inc_mask
            } else {
                ctx.rng.next_u32()
            };
            assert_eq!(tb.write(group.offset, mask), Resp::Okay);
            assert_eq!(tb.write(queue.offset, q), Resp::Okay);
            let mut pulses = Vec::new();
            let mut watch = |sim: &Sim| {
                let p = Pulse {
                    m2s: sim.get_u64(m2s),
                    s2m: sim.get_u64(s2m),
                    queue: sim.get_u64(q_o),
                    val: sim.get_u64(v_o),
                };
                if p.m2s != 0 || p.s2m != 0 {
                    pulses.push(p);
                }
            };
            assert_eq!(tb.write_observed(inc.offset, val, &mut watch), Resp::Okay);
            for _ in 0..4 {
                tb.sim.clk_low();
                watch(&tb.sim);
                tb.sim.clk_high();
            }
            let engines = (mask & mask_f.reg_mask()) >> mask_f.lsb;
            let n = val & inc_mask;
            let want = if engines == 0 || n == 0 {
                vec![]
            } else {
                let e = u64::from(engines);
                vec![Pulse {
                    m2s: if which == Side::M2s { e } else { 0 },
                    s2m: if which == Side::S2m { e } else { 0 },
                    queue: u64::from((q & queue_f.reg_mask()) >> queue_f.lsb),
                    val: u64::from(n >> inc_f.lsb),
                }]
            };
            assert_eq!(
                pulses, want,
                "round {round}: mask {mask:#x} queue {q:#x} value {val:#x}"
            );
            tb.check(group.offset);
            tb.check(queue.offset);
            tb.check(inc.offset);
        }
    });
}
