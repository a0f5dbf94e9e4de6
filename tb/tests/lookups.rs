//! Address lookups of the iATU and the remap windows against the reference lookups, with the
//! tables programmed over AXI4-Lite from random (seeded) contents.

use rstest::rstest;
use xdie_csr::{Bundle, RegRole};
use xdie_tb::block::{dut, BlockTb};
use xdie_tb::{harness, lookup, Ctx, Resp};

/// Writes every register of every instance of `b` with values `gen` picks by register role.
fn program(
    tb: &mut BlockTb,
    ctx: &mut Ctx,
    b: &Bundle,
    gen: &dyn Fn(&mut Ctx, Option<RegRole>) -> u32,
) {
    for i in 0..b.count {
        for r in &b.registers {
            let v = gen(ctx, r.role);
            assert_eq!(tb.write(b.reg_offset(i, r), v), Resp::Okay);
        }
    }
}

#[rstest]
fn iatu_lookup(#[values(71, 72, 73)] seed: u64) {
    harness::run(seed, |ctx| {
        let mut tb = BlockTb::new(ctx, dut("xdie_d2d_iatu"));
        // Bases and limits close together so that regions overlap and miss.
        let hi = ctx.rng.next_u32() & 3;
        let region = &tb.model.block.iatu().expect("iatu layout").region;
        program(&mut tb, ctx, region, &|ctx, role| match role {
            Some(RegRole::BaseHi | RegRole::LimitHi) => hi + (ctx.rng.below(2) as u32),
            Some(RegRole::BaseLo | RegRole::LimitLo) => ctx.rng.next_u32(),
            Some(RegRole::Ctrl) => {
                if ctx.rng.chance(80) {
                    u32::MAX
                } else {
                    0
                }
            }
            _ => ctx.rng.next_u32(),
        });
        let (a_in, hit, region, a_out) = (
            tb.sim.require_port("lookup_addr_i").unwrap(),
            tb.sim.require_port("lookup_hit_o").unwrap(),
            tb.sim.require_port("lookup_region_o").unwrap(),
            tb.sim.require_port("lookup_addr_o").unwrap(),
        );
        let mut hits = 0;
        for _ in 0..2000 {
            let addr =
                (u64::from(hi + ctx.rng.below(2) as u32) << 32) | u64::from(ctx.rng.next_u32());
            tb.sim.set_u64(a_in, addr);
            tb.sim.eval();
            let got =
                (tb.sim.get_u64(hit) != 0).then(|| (tb.sim.get_u64(region), tb.sim.get_u64(a_out)));
            let want = lookup::iatu(&tb.model, addr);
            assert_eq!(got, want, "iATU lookup of {addr:#x}");
            hits += usize::from(want.is_some());
        }
        assert!(hits > 0, "stimulus never hit a region");
    });
}

#[rstest]
fn remap_window_lookup(#[values(81, 82, 83)] seed: u64) {
    harness::run(seed, |ctx| {
        let mut tb = BlockTb::new(ctx, dut("xdie_remap_windows"));
        // Contiguous masks keep hits likely: high bits select, low bits pass through.
        let split = |ctx: &mut Ctx| {
            let k = 8 + ctx.rng.below(20) as u32;
            (u32::MAX << k, !(u32::MAX << k))
        };
        let window = &tb.model.block.remap().expect("remap layout").window;
        program(&mut tb, ctx, window, &|ctx, role| match role {
            Some(RegRole::Ctrl) => ctx.rng.next_u32() | u32::from(ctx.rng.chance(80)),
            Some(RegRole::UMask | RegRole::Mask) => split(ctx).0,
            Some(RegRole::LMask) => split(ctx).1,
            Some(RegRole::XtAddr | RegRole::Match) => ctx.rng.next_u32() & 0xF000_0000,
            _ => ctx.rng.next_u32(),
        });
        let soc_out = tb.sim.require_port("soc_addr_o").unwrap();
        let soc_width = soc_out.info().width;
        let (x_in, hit, win) = (
            tb.sim.require_port("xt_addr_i").unwrap(),
            tb.sim.require_port("hit_o").unwrap(),
            tb.sim.require_port("win_o").unwrap(),
        );
        let mut hits = 0;
        for _ in 0..2000 {
            let x = ctx.rng.next_u32();
            tb.sim.set_u64(x_in, u64::from(x));
            tb.sim.eval();
            let got =
                (tb.sim.get_u64(hit) != 0).then(|| (tb.sim.get_u64(win), tb.sim.get_u64(soc_out)));
            let want = lookup::remap(&tb.model, x, soc_width);
            assert_eq!(got, want, "remap of xt {x:#010x}");
            hits += usize::from(want.is_some());
        }
        assert!(hits > 0, "stimulus never hit a window");
    });
}

/// The lookup follows every write, in any order and through byte strobes: random registers of
/// random windows written one at a time (control too, so a window's mode changes after its rule
/// words were written, and some words stay unwritten for a while), each write followed by
/// lookups against the reference.
#[rstest]
fn remap_window_lookup_follows_each_write(#[values(91, 92)] seed: u64) {
    harness::run(seed, |ctx| {
        let mut tb = BlockTb::new(ctx, dut("xdie_remap_windows"));
        let window = tb.model.block.remap().expect("remap layout").window.clone();
        let soc_out = tb.sim.require_port("soc_addr_o").unwrap();
        let soc_width = soc_out.info().width;
        let (x_in, hit, win) = (
            tb.sim.require_port("xt_addr_i").unwrap(),
            tb.sim.require_port("hit_o").unwrap(),
            tb.sim.require_port("win_o").unwrap(),
        );
        // Few windows and few distinct high bits, so that writes often change a winner.
        let windows = window.count.min(4);
        let mut hits = 0;
        for _ in 0..400 {
            let i = ctx.rng.below(windows);
            let r = &window.registers[ctx.rng.below(window.registers.len() as u64) as usize];
            let k = 24 + ctx.rng.below(6) as u32;
            let v = match r.role {
                Some(RegRole::UMask | RegRole::Mask) => u32::MAX << k,
                Some(RegRole::LMask) => !(u32::MAX << k),
                Some(RegRole::XtAddr | RegRole::Match) => ctx.rng.next_u32() & 0xC000_0000,
                _ => ctx.rng.next_u32(),
            };
            let strb = if ctx.rng.chance(30) {
                1 + ctx.rng.below(15) as u8
            } else {
                0xF
            };
            assert_eq!(tb.write_strb(window.reg_offset(i, r), v, strb), Resp::Okay);
            for _ in 0..8 {
                let x = ctx.rng.next_u32();
                tb.sim.set_u64(x_in, u64::from(x));
                tb.sim.eval();
                let got = (tb.sim.get_u64(hit) != 0)
                    .then(|| (tb.sim.get_u64(win), tb.sim.get_u64(soc_out)));
                let want = lookup::remap(&tb.model, x, soc_width);
                assert_eq!(
                    got, want,
                    "remap of xt {x:#010x} after a write to window {i}"
                );
                hits += usize::from(want.is_some());
            }
        }
        assert!(hits > 0, "stimulus never hit a window");
    });
}
