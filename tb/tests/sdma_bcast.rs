//! Broadcast doorbell: a nonzero write to an increment register pulses, for exactly one cycle,
//! the valid of every engine the group mask selects, with the queue select and the value; a zero
//! write pulses nothing. Widths, offsets and fields come from the model.

use xdie_csr::Side;
use xdie_tb::block::{dut, BlockTb};
use xdie_tb::regmodel::block_of;
use xdie_tb::{harness, Resp};

/// What the pulse outputs showed after each rising edge.
#[derive(Debug, PartialEq, Eq)]
struct Pulse {
    m2s: u64,
    s2m: u64,
    queue: u64,
    val: u64,
}

/// Drives one AXI write by hand (address and data together, BREADY high) and records every
/// cycle in which a valid output was set, for `cycles` cycles from the first edge.
fn write_watching(tb: &mut BlockTb, offset: u64, data: u32, cycles: u32) -> Vec<Pulse> {
    let s = &mut tb.sim;
    let set = |s: &mut xdie_tb::sim::Sim, n: &str, v: u64| {
        s.set_by_name(n, v).unwrap_or_else(|e| panic!("{n}: {e}"))
    };
    let get =
        |s: &xdie_tb::sim::Sim, n: &str| s.get_by_name(n).unwrap_or_else(|e| panic!("{n}: {e}"));
    set(s, "s_axil_awaddr_i", offset);
    set(s, "s_axil_wdata_i", u64::from(data));
    set(s, "s_axil_wstrb_i", 0xF);
    set(s, "s_axil_bready_i", 1);
    let (mut aw, mut w) = (true, true);
    let mut seen = Vec::new();
    for _ in 0..cycles {
        set(s, "s_axil_awvalid_i", aw as u64);
        set(s, "s_axil_wvalid_i", w as u64);
        s.eval();
        let aw_done = aw && get(s, "s_axil_awready_o") == 1;
        let w_done = w && get(s, "s_axil_wready_o") == 1;
        let b_done = get(s, "s_axil_bvalid_o") == 1;
        if b_done {
            assert_eq!(get(s, "s_axil_bresp_o"), 0, "OKAY");
        }
        s.tick();
        aw &= !aw_done;
        w &= !w_done;
        let p = Pulse {
            m2s: get(s, "m2s_inc_valid_o"),
            s2m: get(s, "s2m_inc_valid_o"),
            queue: get(s, "inc_queue_o"),
            val: get(s, "inc_val_o"),
        };
        if p.m2s != 0 || p.s2m != 0 {
            seen.push(p);
        }
    }
    set(s, "s_axil_awvalid_i", 0);
    set(s, "s_axil_wvalid_i", 0);
    s.ticks(2);
    seen
}

#[test]
fn increment_writes_pulse_the_selected_engines_once() {
    harness::run(41, |ctx| {
        let kind = dut("xdie_sdma_bcast");
        let l = block_of(kind)
            .and_then(|b| b.bcast())
            .expect("sdma_bcast block");
        let mut tb = BlockTb::new(ctx, kind);
        let (group, mask_f) = (&l.group, &l.mask);
        let (queue_r, queue_f) = (&l.queue_reg, &l.queue);
        for _ in 0..4 {
            let mask = ctx.rng.next_u64() & ((1 << mask_f.width) - 1);
            let queue = ctx.rng.below(1 << queue_f.width);
            assert_eq!(
                tb.write(group.offset, (mask as u32) << mask_f.lsb),
                Resp::Okay
            );
            assert_eq!(
                tb.write(queue_r.offset, (queue as u32) << queue_f.lsb),
                Resp::Okay
            );
            for (side, r, f) in [
                (Side::M2s, &l.m2s_inc, &l.inc),
                (Side::S2m, &l.s2m_inc, &l.s2m_inc_field),
            ] {
                let role = &r.name;
                let val = 1 + ctx.rng.below((1 << f.width) - 1);
                let seen = write_watching(&mut tb, r.offset, (val as u32) << f.lsb, 12);
                let (m2s, s2m) = match side {
                    Side::M2s => (mask, 0),
                    Side::S2m => (0, mask),
                };
                let want: Vec<Pulse> = if mask == 0 {
                    vec![]
                } else {
                    vec![Pulse {
                        m2s,
                        s2m,
                        queue,
                        val,
                    }]
                };
                assert_eq!(seen, want, "{role} write of {val}");
                assert!(
                    write_watching(&mut tb, r.offset, 0, 12).is_empty(),
                    "{role}: a zero write pulses nothing"
                );
                let (data, resp) = tb.read(r.offset);
                assert_eq!((data, resp), (0, Resp::Okay), "{role} reads 0");
            }
        }
    });
}
