//! Random scenarios for soak runs (`xdie soak`): legs with random cores, engine masks, sizes,
//! offsets, queues, launch modes and chains, drawn under the rules that keep legs running at the
//! same time independent of each other, so the golden model (which runs them one after another)
//! and the RTL (which runs them concurrently) must end in the same state:
//!
//! - every firmware context (a core's TX or RX lane) runs at most one leg;
//! - SBUF regions (source and destination offsets, in every partition) never overlap on a die;
//! - semaphores and queues are never shared;
//! - at most one broadcast launch per die (the broadcast doorbell's mask and queue registers are
//!   the die's, set and used by one context at a time);
//! - a chained leg (`after`) starts on the core its predecessor delivered to (it waits on that
//!   core's semaphore), and each leg is followed at most once.
//!
//! The scenario is produced as YAML text and parsed like a file, so it passes every check a user's
//! scenario passes, and a failing one can be saved and rerun with `xdie sim`.

use crate::rng::Rng;
use crate::scenario::{Scenario, ScenarioError};
use crate::topology::Topology;
use std::fmt::Write as _;
use std::path::Path;
use xdie_csr::Csrs;

/// Alignment of drawn sizes and offsets (bytes).
const GRAIN: u64 = 0x10;
/// Largest free-dimension length drawn (bytes per partition).
const MAX_FREE: u64 = 0x800;
/// Partitions per engine at most.
const MAX_PARTS_PER_ENGINE: u64 = 4;

/// One random scenario: its YAML text and the parsed scenario.
pub struct Soak {
    pub text: String,
    pub scenario: Scenario,
}

struct Leg {
    tx: u64,
    rx: u64,
    mask: u64,
    partitions: u64,
    free: u64,
    src: u64,
    dst: u64,
    sems: [u64; 3],
    queue: u64,
    broadcast: bool,
    after: Option<usize>,
}

/// A scenario of at most `legs` legs on package `chip`, drawn from `seed` (the same seed gives the
/// same scenario), with link faults at `fault_rate` per flit (bit flips and drops, each).
pub fn random_scenario(
    csrs: &Csrs,
    chip: u64,
    legs: usize,
    seed: u64,
    fault_rate: f64,
) -> Result<Soak, Box<ScenarioError>> {
    let v = &csrs.views;
    let topo = Topology::package(chip);
    let engines = v.engines();
    let backing = v.params.sbuf_backing_bytes;
    let mut rng = Rng::new(seed);
    let cores = topo.cores_per_package;
    let die_of = |core: u64| (core >> topo.die_bit) & 1;

    let mut tx_free: Vec<u64> = (0..cores).collect();
    let mut rx_free: Vec<u64> = (0..cores).collect();
    let mut sems = shuffled(&mut rng, v.sem_count());
    let mut queues = shuffled(&mut rng, v.queues());
    // Next free SBUF offset per die, and whether the die's broadcast doorbell is taken.
    let mut next = [0u64; 2];
    let mut bcast = [false; 2];
    let mut out: Vec<Leg> = Vec::new();
    let mut followed = Vec::new();

    for _ in 0..legs {
        if sems.len() < 3 || queues.is_empty() {
            break;
        }
        // A chain after an earlier leg a quarter of the time, when the TX context of the core
        // that leg delivered to is free.
        let chain = (!out.is_empty() && rng.chance(25))
            .then(|| rng.below(out.len() as u64) as usize)
            .filter(|&i| !followed.contains(&i));
        let tx_pool: Vec<u64> = match chain {
            Some(i) => tx_free
                .iter()
                .copied()
                .filter(|&c| c == out[i].rx)
                .collect(),
            None => tx_free.clone(),
        };
        if tx_pool.is_empty() || rx_free.is_empty() {
            continue;
        }
        let tx = *rng.pick(&tx_pool);
        let rx = *rng.pick(&rx_free);
        let (td, rd) = (die_of(tx) as usize, die_of(rx) as usize);
        // Engines: a power of two of them, at random.
        let max_log = 63 - engines.leading_zeros() as u64;
        let n = 1u64 << rng.below(max_log + 1);
        let mut mask = 0u64;
        for e in shuffled(&mut rng, engines).into_iter().take(n as usize) {
            mask |= 1 << e;
        }
        let partitions = n * (1 + rng.below(MAX_PARTS_PER_ENGINE));
        let free = GRAIN * (1 + rng.below(MAX_FREE / GRAIN));
        // Regions: source on the TX die, destination on the RX die, each after a random gap.
        let mut take = |die: usize, rng: &mut Rng| {
            let at = next[die] + GRAIN * rng.below(4);
            next[die] = at + free;
            at
        };
        let src = take(td, &mut rng);
        let dst = take(rd, &mut rng);
        if next[td] > backing || next[rd] > backing {
            break;
        }
        let broadcast = !bcast[td] && rng.chance(25);
        bcast[td] |= broadcast;
        tx_free.retain(|&c| c != tx);
        rx_free.retain(|&c| c != rx);
        if let Some(i) = chain {
            followed.push(i);
        }
        let sem = [sems.pop(), sems.pop(), sems.pop()].map(|s| s.expect("three left"));
        out.push(Leg {
            tx,
            rx,
            mask,
            partitions,
            free,
            src,
            dst,
            sems: sem,
            queue: queues.pop().expect("one left"),
            broadcast,
            after: chain,
        });
    }

    // Link backpressure on both dies' send sides, 0 to SOAK_LINK_STALL_MAX %.
    let stall = rng.below(SOAK_LINK_STALL_MAX + 1);
    let text = render(chip, seed, fault_rate, stall, &out);
    let path = format!("soak-{seed:#x}.yaml");
    let scenario = Scenario::parse(Path::new(&path), &text)?;
    Ok(Soak { text, scenario })
}

fn shuffled(rng: &mut Rng, n: u64) -> Vec<u64> {
    let mut v: Vec<u64> = (0..n).collect();
    for i in (1..v.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        v.swap(i, j);
    }
    v
}

/// The highest link backpressure (percent of cycles a die's send side is held) a soak run draws.
pub const SOAK_LINK_STALL_MAX: u64 = 30;

fn render(chip: u64, seed: u64, fault_rate: f64, stall: u64, legs: &[Leg]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Drawn by `xdie soak` from seed {seed:#x}.");
    let _ = writeln!(s, "description: \"soak run, seed {seed:#x}\"");
    let _ = writeln!(s, "packages: [{chip:#x}]");
    let _ = writeln!(s, "link_backpressure: {stall}");
    let _ = writeln!(s, "legs:");
    for (i, l) in legs.iter().enumerate() {
        let _ = writeln!(s, "  - name: l{i}");
        if let Some(a) = l.after {
            let _ = writeln!(s, "    after: l{a}");
        }
        let _ = writeln!(s, "    tx: {{chip: {chip:#x}, core: {}}}", l.tx);
        let _ = writeln!(s, "    rx: {{chip: {chip:#x}, core: {}}}", l.rx);
        let _ = writeln!(s, "    dma_engine_mask: {:#x}", l.mask);
        let _ = writeln!(s, "    partitions: {}", l.partitions);
        let _ = writeln!(s, "    free_dim_bytes: {:#x}", l.free);
        let _ = writeln!(s, "    src_addr: {:#x}", l.src);
        let _ = writeln!(s, "    dst_addr: {:#x}", l.dst);
        let _ = writeln!(s, "    local_sem: {}", l.sems[0]);
        let _ = writeln!(s, "    remote_sem: {}", l.sems[1]);
        let _ = writeln!(s, "    go_sem: {}", l.sems[2]);
        let _ = writeln!(s, "    queue: {}", l.queue);
        if l.broadcast {
            let _ = writeln!(s, "    launch: broadcast");
        }
    }
    if fault_rate > 0.0 {
        let _ = writeln!(s, "faults:");
        let _ = writeln!(s, "  bit_flip: {fault_rate:e}");
        let _ = writeln!(s, "  drop: {fault_rate:e}");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_draws_the_same_scenario() {
        let csrs =
            xdie_csr::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../csrs")).expect("csrs");
        let a = random_scenario(&csrs, 0x12, 6, 7, 0.0).expect("draw");
        let b = random_scenario(&csrs, 0x12, 6, 7, 0.0).expect("draw");
        assert_eq!(a.text, b.text);
        let c = random_scenario(&csrs, 0x12, 6, 8, 0.0).expect("draw");
        assert_ne!(a.text, c.text);
    }
}
