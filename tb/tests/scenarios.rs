//! Shipped scenarios on the package top, driven by the reference C firmware of every context and
//! checked by the scoreboard against the golden model (descriptor rings first). Built only with the `package` feature:
//! `cargo test --release -p xdie-tb --features package --test scenarios`.
#![cfg(feature = "package")]

use rstest::rstest;
use std::path::PathBuf;
use xdie_model::scenario::{Faults, LaunchMode, LinkDown, Scenario};
use xdie_model::{DieId, Side};
use xdie_tb::driver::{self, RtlError};
use xdie_tb::harness;
use xdie_tb::regmodel::{csrs, views};

fn scenario(name: &str) -> Scenario {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../scenarios")
        .join(name);
    Scenario::load(&p).unwrap_or_else(|e| panic!("{e}"))
}

fn check(sc: &Scenario, seed: u64) -> driver::RtlOutcome {
    let name = sc.path.display().to_string();
    let model = sc.run_model(csrs(), seed).unwrap_or_else(|e| panic!("{e}"));
    let out =
        driver::run(sc, &model, seed, None, &mut |_| {}).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(
        out.mismatches.is_empty(),
        "{name}: {}",
        out.mismatches.join("\n")
    );
    assert_eq!(out.sems, model.sys.end_state().sems);
    assert!(out.transfer_cycles > 0);
    assert_eq!(out.driver, "firmware");
    assert!(out.fw_accesses > 0);
    out
}

/// The seed's worked example on the RTL: the destination the report names is the neighbor fold
/// of dst_addr in core 7's SBUF aperture onto the peer die (from the field positions), local_sem
/// in core 5's EVT_SEM and remote_sem in core 7's rose by the engine count, every other core's
/// EVT_SEM is untouched, and the link was at least 90 % busy.
#[test]
fn worked_example_on_the_rtl() {
    harness::run(1, |ctx| {
        let sc = scenario("worked-example.yaml");
        let leg = &sc.legs[0];
        let model = sc
            .run_model(csrs(), ctx.seed)
            .unwrap_or_else(|e| panic!("{e}"));
        let run = &model.legs[0];
        let v = views();
        assert_eq!(
            run.dst_soc,
            v.soc
                .fold_neighbor(v.sbuf_addr(run.rx_tpb, 0, leg.dst_addr), run.rx_die.die)
        );
        let out = check(&sc, ctx.seed);
        let engines = leg.dma_engine_mask.count_ones() as i64;
        // Core 5 is core 3 of die 0 and core 7 core 3 of die 1; the RTL's semaphores (every
        // core's EVT_SEM of both dies, read back) hold exactly the leg's two.
        assert_eq!((run.tx_tpb, run.rx_tpb), (3, 3));
        let nonzero: Vec<(DieId, u64, u64, u64, i64)> = out
            .sems
            .iter()
            .filter(|s| s.value != 0)
            .map(|s| (s.die, s.core, s.tpb, s.sem, s.value))
            .collect();
        assert_eq!(
            nonzero,
            vec![
                (run.tx_die, leg.tx.id, run.tx_tpb, leg.local_sem, engines),
                (run.rx_die, leg.rx.id, run.rx_tpb, leg.remote_sem, engines)
            ]
        );
        let peak = views().params.data_bytes as f64;
        let utilization = leg.bytes() as f64 / out.transfer_cycles as f64 / peak;
        assert!(utilization >= 0.9, "link utilization {utilization:.3}");
    });
}

/// Collectives with two ranks on each die of a package (cores 0 and 1 on die 0, 2 and 3 on die
/// 1): every rank's buffer is its own core's SBUF and its semaphores its own core's EVT_SEM, on
/// the RTL as on the model (the scoreboard compares every core's semaphores of both dies).
#[rstest]
#[case::all_reduce_int32("cores4-allreduce-int32.yaml")]
#[case::all_reduce_fp32("cores4-allreduce-fp32.yaml")]
#[case::reduce_scatter("cores4-reducescatter.yaml")]
#[case::all_to_all("cores4-alltoall.yaml")]
fn collective_with_two_ranks_per_die(#[case] file: &str) {
    harness::run(5, |ctx| {
        let sc = scenario(file);
        let c = sc.collective.as_ref().expect("a collective");
        let model = sc
            .run_model(csrs(), ctx.seed)
            .unwrap_or_else(|e| panic!("{e}"));
        let dies: std::collections::BTreeSet<_> =
            c.ranks.iter().map(|&r| model.sys.die_of(r)).collect();
        assert_eq!((c.ranks.len(), dies.len()), (4, 2), "two ranks per die");
        let out = check(&sc, ctx.seed);
        // Semaphores landed in several cores of one die.
        let cores: std::collections::BTreeSet<_> =
            out.sems.iter().map(|s| (s.die, s.tpb)).collect();
        assert_eq!(cores.len(), 4, "{file}: semaphores of {cores:?}");
    });
}

/// The same-die scenario with its semaphores moved to the first word of a bus beat.
#[test]
fn same_die_leg_with_beat_aligned_semaphores() {
    harness::run(7, |ctx| {
        let beat = views().params.data_bytes / 4;
        let sc = scenario("same-die.yaml");
        let (l, r) = (sc.legs[0].local_sem, sc.legs[0].remote_sem);
        let text = std::fs::read_to_string(&sc.path)
            .expect("read")
            .replace(
                &format!("local_sem: {l}"),
                &format!("local_sem: {}", l / beat * beat),
            )
            .replace(
                &format!("remote_sem: {r}"),
                &format!("remote_sem: {}", (l / beat + 1) * beat),
            );
        let sc = Scenario::parse(&sc.path, &text).unwrap_or_else(|e| panic!("{e}"));
        check(&sc, ctx.seed);
    });
}

#[rstest]
#[case("same-die.yaml")]
fn scenario_matches_the_model_on_the_rtl(#[case] name: &str) {
    harness::run(7, |ctx| {
        check(&scenario(name), ctx.seed);
    });
}

/// An accumulating leg on the RTL against the model: leg `seed` reads a region of die 1 (its
/// source, which the run fills with random data) and, once it has landed, leg `add` adds a
/// source of die 0 into that same region through the accumulate aperture of the lane type;
/// destinations lane aligned but not beat aligned, two engines. The scoreboard compares the
/// region with the model's SBUF byte for byte and checks the leg's invariants on the sums the
/// monitor saw land.
#[rstest]
fn accumulating_leg_matches_the_model_on_the_rtl(#[values("int32", "fp32")] dtype: &str) {
    harness::run(0xacc, |ctx| {
        let text = format!(
            r#"
description: "an accumulating leg ({dtype}) into the source of an earlier leg"
packages: [0x12]
legs:
  - name: seed
    tx: {{chip: 0x12, core: 7}}
    rx: {{chip: 0x12, core: 5}}
    dma_engine_mask: 0x0003
    partitions: 4
    free_dim_bytes: 0x124
    src_addr: 0x1008
    dst_addr: 0x3000
    local_sem: 12
    remote_sem: 20
    go_sem: 3
  - name: add
    after: seed
    tx: {{chip: 0x12, core: 5}}
    rx: {{chip: 0x12, core: 7}}
    dma_engine_mask: 0x0030
    partitions: 4
    free_dim_bytes: 0x124
    src_addr: 0x5000
    dst_addr: 0x1008
    local_sem: 30
    remote_sem: 31
    go_sem: 32
    queue: 1
    accumulate: {dtype}
"#
        );
        let path = PathBuf::from(format!("accumulate-{dtype}.yaml"));
        let sc = Scenario::parse(&path, &text).unwrap_or_else(|e| panic!("{e}"));
        assert!(sc.legs[1].accumulate.is_some());
        check(&sc, ctx.seed);
    });
}

/// The chain scenario: leg `a` launches with one tail increment per engine, leg `b` with the
/// broadcast doorbell (seed 4.4). The firmware's stores show which: per side, one store to the
/// broadcast increment register of b's TX die and none to the queue doorbells b uses; a's TX
/// die got one store per engine and side on a's queue.
#[test]
fn chain_launches_per_engine_and_by_broadcast_on_the_rtl() {
    harness::run(7, |ctx| {
        let sc = scenario("chain.yaml");
        let (a, b) = (&sc.legs[0], &sc.legs[1]);
        assert_eq!(a.launch, LaunchMode::PerEngine);
        assert_eq!(b.launch, LaunchMode::Broadcast);
        let out = check(&sc, ctx.seed);
        let v = views();
        let model = sc
            .run_model(csrs(), ctx.seed)
            .unwrap_or_else(|e| panic!("{e}"));
        let stores_at = |die: DieId, local: u64| {
            out.fw_stores
                .iter()
                .filter(|s| u64::from(s.die) == die.die && s.local == local)
                .count()
        };
        let engines = |mask: u64| (0..v.engines()).filter(move |e| (mask >> e) & 1 == 1);
        let bc = v.apertures.sdma_bcast.base;
        for (leg, run) in [(a, &model.legs[0]), (b, &model.legs[1])] {
            let die = run.tx_die;
            for (side, inc) in [(Side::M2s, &v.bcast.m2s_inc), (Side::S2m, &v.bcast.s2m_inc)] {
                let per_engine: usize = engines(leg.dma_engine_mask)
                    .map(|e| stores_at(die, v.side(side).doorbell(e, leg.queue)))
                    .sum();
                let bcast = stores_at(die, bc + inc.offset);
                match leg.launch {
                    LaunchMode::PerEngine => {
                        assert_eq!(per_engine as u64, leg.n_engines(), "{} {side:?}", leg.name);
                        assert_eq!(bcast, 0, "{} {side:?}", leg.name);
                    }
                    LaunchMode::Broadcast => {
                        assert_eq!(per_engine, 0, "{} {side:?}", leg.name);
                        assert_eq!(bcast, 1, "{} {side:?}", leg.name);
                    }
                }
            }
        }
    });
}

/// Two packages that name no topology: the model runs them, the package top cannot.
#[test]
fn a_scenario_of_two_packages_is_not_for_the_package_top() {
    let cross = scenario("cross-package.yaml");
    let leg = &cross.legs[0];
    let text = format!(
        "packages: [{:#x}, {:#x}]\nlegs:\n  - name: cross\n    tx: {{chip: {:#x}, core: {}}}\n    \
         rx: {{chip: {:#x}, core: {}}}\n    dma_engine_mask: {:#x}\n    partitions: {}\n    \
         free_dim_bytes: {:#x}\n    src_addr: {:#x}\n    dst_addr: {:#x}\n    local_sem: {}\n    \
         remote_sem: {}\n    go_sem: {}\n",
        leg.tx.chip,
        leg.rx.chip,
        leg.tx.chip,
        leg.tx.id,
        leg.rx.chip,
        leg.rx.id,
        leg.dma_engine_mask,
        leg.partitions,
        leg.free_dim_bytes,
        leg.src_addr,
        leg.dst_addr,
        leg.local_sem,
        leg.remote_sem,
        leg.go_sem
    );
    let sc = Scenario::parse(&cross.path, &text).unwrap_or_else(|e| panic!("{e}"));
    assert!(sc.topology.is_none());
    let model = sc.run_model(csrs(), 1).unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(
        driver::run(&sc, &model, 1, None, &mut |_| {}),
        Err(RtlError::NotAvailable(_))
    ));
}

/// Bit flips and drops at 1e-3 per flit (and per DLLP) on every wire of the link: the worked
/// example and the chained scenario still end with every byte in place and every semaphore right
/// (`check`), and the dies saw and repaired the faults.
#[rstest]
#[case("worked-example.yaml")]
#[case("chain.yaml")]
fn scenarios_pass_over_a_faulty_link(#[case] name: &str) {
    harness::run(21, |ctx| {
        let mut sc = scenario(name);
        sc.faults = Faults {
            bit_flip: 1e-3,
            drop: 1e-3,
            ..Faults::default()
        };
        let out = check(&sc, ctx.seed);
        let link = out.link.expect("faults were injected");
        eprintln!(
            "{name} over a faulty link: {link:?}, {} transfer cycles",
            out.transfer_cycles
        );
        assert!(
            link.flips_injected + link.drops_injected > 0,
            "nothing injected"
        );
        assert!(
            link.crc_errors > 0 && link.replays > 0,
            "faults went unrepaired: {link:?}"
        );
    });
}

/// The link held down for 10,000 cycles in the middle of the worked example's transfer comes
/// back, is replayed, and the run completes exactly.
#[test]
fn a_link_down_for_10000_cycles_recovers() {
    harness::run(22, |ctx| {
        let mut sc = scenario("worked-example.yaml");
        // The transfer starts after the firmware's descriptor set-up: a fault-free run says when.
        let model = sc.run_model(csrs(), ctx.seed).expect("model");
        let clean = driver::run(&sc, &model, ctx.seed, None, &mut |_| {}).expect("clean run");
        let at = clean.launch_cycle + clean.transfer_cycles / 2;
        sc.faults.link_down = vec![LinkDown {
            at,
            cycles: Some(10_000),
        }];
        let out = check(&sc, ctx.seed);
        let link = out.link.expect("faults were injected");
        // The dies call the link down once DLLPs have been missing for a while (a few dozen
        // cycles), and up again with the first good one after the spell.
        assert!(link.down_cycles > 9_000, "{link:?}");
        assert!(
            link.replays > 0,
            "nothing replayed after the spell: {link:?}"
        );
        // Nothing crosses the link during the outage, and the link is the transfer's bottleneck:
        // the transfer takes about 10,000 cycles longer, less the idle link cycles the clean
        // transfer had (it runs the link at over 98 %).
        assert!(
            out.transfer_cycles + clean.transfer_cycles / 50 >= clean.transfer_cycles + 10_000,
            "outage at cycle {at} (launch {}, transfer {} without it, {} with it): {link:?}",
            clean.launch_cycle,
            clean.transfer_cycles,
            out.transfer_cycles
        );
    });
}

/// A link that never comes back ends the run with an error that says so, after a bounded wait.
#[test]
fn a_link_down_for_good_is_an_error_not_a_hang() {
    harness::run(23, |ctx| {
        let mut sc = scenario("chain.yaml");
        sc.faults.link_down = vec![LinkDown {
            at: 500,
            cycles: None,
        }];
        let model = sc.run_model(csrs(), ctx.seed).expect("model");
        match driver::run(&sc, &model, ctx.seed, None, &mut |_| {}) {
            Err(RtlError::Driver(m)) => assert!(m.contains("link has been down"), "{m}"),
            Err(e) => panic!("unexpected error: {e}"),
            Ok(_) => panic!("completed over a link that was down"),
        }
    });
}

/// A short soak: random scenarios (the generator `xdie soak` uses) with random host-port
/// backpressure, on the RTL and the model, end in the same state; one run with link faults.
#[test]
fn random_scenarios_match_the_model() {
    harness::run(24, |ctx| {
        for run in 0..4u64 {
            let seed = ctx.seed.wrapping_add(run);
            let faults = if run == 3 { 1e-3 } else { 0.0 };
            let soak = xdie_model::soak::random_scenario(csrs(), 0x12, 6, seed, faults)
                .unwrap_or_else(|e| panic!("{e}"));
            let model = soak
                .scenario
                .run_model(csrs(), seed)
                .unwrap_or_else(|e| panic!("{e}\n{}", soak.text));
            let timing = xdie_tb::Timing::drawn(&mut ctx.rng);
            let out = driver::run_timed(&soak.scenario, &model, seed, timing, None, &mut |_| {})
                .unwrap_or_else(|e| panic!("{e}\n{}", soak.text));
            assert!(
                out.mismatches.is_empty(),
                "seed {seed:#x}: {}\n{}",
                out.mismatches.join("\n"),
                soak.text
            );
            assert_eq!(out.sems, model.sys.end_state().sems, "{}", soak.text);
        }
    });
}
