//! Shipped scenarios on the package top, driven by the reference C firmware of every context and
//! checked by the scoreboard against the golden model (descriptor rings first). Built only with the `package` feature:
//! `cargo test --release -p xdie-tb --features package --test scenarios`.
#![cfg(feature = "package")]

use rstest::rstest;
use std::path::PathBuf;
use xdie_model::scenario::{LaunchMode, Scenario};
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
/// of dst_addr onto the peer die (from the field positions), local_sem on the TX die and
/// remote_sem on the RX die rose by the engine count, and the link was at least 90 % busy.
#[test]
fn worked_example_on_the_rtl() {
    harness::run(1, |ctx| {
        let sc = scenario("worked-example.yaml");
        let leg = &sc.legs[0];
        let model = sc
            .run_model(csrs(), ctx.seed)
            .unwrap_or_else(|e| panic!("{e}"));
        let run = &model.legs[0];
        assert_eq!(
            run.dst_soc,
            views().soc.fold_neighbor(leg.dst_addr, run.rx_die.die)
        );
        let out = check(&sc, ctx.seed);
        let engines = leg.dma_engine_mask.count_ones() as i64;
        let sem = |die: DieId, s: u64| {
            out.sems
                .iter()
                .find(|v| v.die == die && v.sem == s)
                .map_or(0, |v| v.value)
        };
        assert_eq!(sem(run.tx_die, leg.local_sem), engines);
        assert_eq!(sem(run.rx_die, leg.remote_sem), engines);
        let peak = views().params.data_bytes as f64;
        let utilization = leg.bytes() as f64 / out.transfer_cycles as f64 / peak;
        assert!(utilization >= 0.9, "link utilization {utilization:.3}");
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
