//! The soak generator draws scenarios the model accepts: over many seeds every drawn scenario
//! passes the model's checks and runs, and the draws cover what a soak run should (chains,
//! broadcast launches, same-die and cross-die legs, several engines).
mod common;
use common::*;
use xdie_model::soak::random_scenario;

#[test]
fn drawn_scenarios_pass_the_models_checks_and_cover_the_space() {
    let csrs = csrs();
    let (mut chains, mut bcast, mut same_die, mut cross, mut multi) = (0, 0, 0, 0, 0);
    let mut legs = 0;
    for seed in 0..200u64 {
        let s = random_scenario(&csrs, 0x12, 6, seed, 0.0).unwrap_or_else(|e| panic!("{e}"));
        let run = s
            .scenario
            .run_model(&csrs, seed)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{}", s.text));
        legs += s.scenario.legs.len();
        for (l, r) in s.scenario.legs.iter().zip(&run.legs) {
            chains += usize::from(l.after.is_some());
            bcast += usize::from(l.launch == xdie_model::scenario::LaunchMode::Broadcast);
            same_die += usize::from(r.tx_die == r.rx_die);
            cross += usize::from(r.tx_die != r.rx_die);
            multi += usize::from(l.dma_engine_mask.count_ones() > 1);
        }
    }
    eprintln!(
        "{legs} legs: {chains} chained, {bcast} broadcast, {same_die} same-die, {cross} cross-die, \
         {multi} with several engines"
    );
    assert!(legs >= 200 * 4, "too few legs drawn: {legs}");
    for (what, n) in [
        ("chained", chains),
        ("broadcast", bcast),
        ("same-die", same_die),
        ("cross-die", cross),
        ("multi-engine", multi),
    ] {
        assert!(n > legs / 20, "only {n} {what} legs of {legs}");
    }
}
