//! Shipped scenarios on the package top, driven like firmware and checked by the scoreboard
//! against the golden model. Built only with the `package` feature:
//! `cargo test --release -p xdie-tb --features package --test scenarios`.
#![cfg(feature = "package")]

use rstest::rstest;
use std::path::PathBuf;
use xdie_model::scenario::Scenario;
use xdie_model::DieId;
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
#[case("chain.yaml")]
fn scenario_matches_the_model_on_the_rtl(#[case] name: &str) {
    harness::run(7, |ctx| {
        check(&scenario(name), ctx.seed);
    });
}

#[test]
fn a_scenario_of_two_packages_is_not_for_the_package_top() {
    let sc = scenario("cross-package.yaml");
    let model = sc.run_model(csrs(), 1).unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(
        driver::run(&sc, &model, 1, None, &mut |_| {}),
        Err(RtlError::NotAvailable(_))
    ));
}
