//! Properties every generated register block must have, checked against the reference model
//! built from csrs/. Each test covers every block (derived from the filelist and csrs/).

use rstest::rstest;
use xdie_tb::block::{register_blocks, BlockTb};
use xdie_tb::regmodel::{csrs, Expect};
use xdie_tb::{harness, Resp};

#[test]
fn every_csr_block_is_simulated() {
    let simulated: Vec<&str> = register_blocks().iter().map(|k| k.name()).collect();
    for b in &csrs().blocks {
        let module = format!("xdie_{}", b.name);
        assert!(
            simulated.contains(&module.as_str()),
            "block {} has no module {module} in rtl/xdie.f",
            b.name
        );
    }
}

#[test]
fn reset_values_match_the_model() {
    harness::run(0x5eed_0001, |ctx| {
        for kind in register_blocks() {
            let mut tb = BlockTb::new(ctx, kind);
            let offsets: Vec<u64> = tb.model.regs().iter().map(|r| r.offset).collect();
            for off in offsets {
                let expect = tb.model.reset_value(off);
                tb.check_against(off, expect);
            }
        }
    });
}

#[rstest]
fn unmapped_and_unaligned_offsets_answer_slverr(#[values(1, 2)] seed: u64) {
    harness::run(seed, |ctx| {
        for kind in register_blocks() {
            let mut tb = BlockTb::new(ctx, kind);
            let unmapped = tb.model.unmapped_offsets(&mut ctx.rng, 24);
            for off in unmapped {
                assert_eq!(
                    tb.write(off, ctx.rng.next_u32()),
                    Resp::SlvErr,
                    "{}: write {off:#x}",
                    tb.name()
                );
                tb.check_against(off, Expect::SlvErr);
            }
            let n = tb.model.regs().len() as u64;
            for _ in 0..24 {
                let reg = tb.model.regs()[ctx.rng.below(n) as usize].offset;
                let off = reg + 1 + ctx.rng.below(3);
                assert_eq!(
                    tb.write(off, ctx.rng.next_u32()),
                    Resp::SlvErr,
                    "{}: write {off:#x}",
                    tb.name()
                );
                tb.check_against(off, Expect::SlvErr);
                // A refused write must not have changed the aligned register.
                tb.check(reg);
            }
        }
    });
}

#[rstest]
fn random_register_sequences_match_the_model(#[values(11, 12, 13)] seed: u64) {
    harness::run(seed, |ctx| {
        for kind in register_blocks() {
            let mut tb = BlockTb::new(ctx, kind);
            let regs: Vec<u64> = tb.model.regs().iter().map(|r| r.offset).collect();
            for _ in 0..1500 {
                let off = *ctx.rng.pick(&regs);
                if ctx.rng.chance(55) {
                    match tb.model.writable(off) {
                        Some(true) => {
                            let strb = if ctx.rng.chance(70) {
                                0xF
                            } else {
                                (1 + ctx.rng.below(15)) as u8
                            };
                            let data = ctx.rng.next_u32();
                            assert_eq!(
                                tb.write_strb(off, data, strb),
                                Resp::Okay,
                                "{}: write {off:#x}",
                                tb.name()
                            );
                        }
                        Some(false) => {
                            let data = ctx.rng.next_u32();
                            assert_eq!(
                                tb.write(off, data),
                                Resp::Okay,
                                "{}: write {off:#x}",
                                tb.name()
                            );
                        }
                        None => {}
                    }
                } else {
                    tb.check(off);
                }
            }
            for off in regs {
                tb.check(off);
            }
        }
    });
}
