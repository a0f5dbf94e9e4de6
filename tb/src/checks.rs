//! Checks and test data that more than one test uses, each on whatever model it opens (the
//! package top, a profile die alone).

use crate::package::{field_of, field_value, Package};
use crate::regmodel::views;
use crate::Rng;
use xdie_csr::SemOp;

/// `len` random bytes, never 0, so a byte that was not copied cannot pass for one that was.
pub fn pattern(rng: &mut Rng, len: u64) -> Vec<u8> {
    (0..len).map(|_| 1 + rng.below(255) as u8).collect()
}

/// fp32 lanes for an accumulate test: boundary values of the format (signed zeros, subnormals,
/// the largest finite value, infinities, NaNs, ones) mixed with random patterns.
pub fn f32_lanes(rng: &mut Rng, lanes: u64) -> Vec<u8> {
    let specials = [
        0.0f32.to_bits(),
        (-0.0f32).to_bits(),
        1,
        f32::MIN_POSITIVE.to_bits() - 1,
        f32::MIN_POSITIVE.to_bits(),
        f32::MAX.to_bits(),
        f32::INFINITY.to_bits(),
        f32::NEG_INFINITY.to_bits(),
        f32::NAN.to_bits(),
        1.0f32.to_bits(),
        (f32::EPSILON / 2.0).to_bits(),
    ];
    (0..lanes)
        .flat_map(|_| {
            let v = if rng.chance(40) {
                specials[rng.below(specials.len() as u64) as usize] ^ (rng.next_u32() & (1 << 31))
            } else {
                rng.next_u32()
            };
            v.to_le_bytes()
        })
        .collect()
}

/// Every slot of the sequencer command block of die `die` whose core is wired (the first
/// `cores` cores; slot 2c + lane is core c's) waits on semaphore `sem` of its own core's
/// EVT_SEM with its own amount, while increments arrive from the bus (each core's INC window).
/// After each increment has had one round of the slots, the state must be the one the issued
/// commands allow, per core: the semaphore is what was given less what the granted waits took
/// (no lost decrement, none taken twice, none taken from another core's semaphore), never below
/// zero, and every wait still pending asks for more than its semaphore holds. A command posted
/// into a busy slot, an unknown subop, and a command in a slot of a core that is not wired are
/// refused with ERR and change nothing; an inc through a slot adds to its own core only.
pub fn sequencer_slots_contend(pkg: &mut Package, die: u32, cores: u64, rng: &mut Rng) {
    let v = views();
    let (ss, p) = (&v.sem_seq, &v.evt_sem.params);
    let sem = rng.below(v.sem_count());
    let waiters = (2 * cores).min(ss.slots());
    let core_of = |slot: u64| slot / 2;
    let cmd = |subop: u64| field_value(&ss.sem, sem) | field_value(&ss.subop, subop);
    let post = |pkg: &mut Package, slot: u64, subop: u64, value: i64| {
        pkg.write32(die, v.sem_seq_reg(slot, &ss.value_reg), value as u32)
            .expect("VALUE");
        pkg.write32(die, v.sem_seq_reg(slot, &ss.cmd), cmd(subop))
            .expect("CMD");
    };
    let status = |pkg: &mut Package, slot: u64| {
        let w = pkg
            .read32(die, v.sem_seq_reg(slot, &ss.status))
            .expect("STATUS");
        (field_of(&ss.busy, w) == 1, field_of(&ss.err, w) == 1)
    };
    let value = |pkg: &mut Package, core: u64| {
        i64::from(
            pkg.read32(die, v.sem_addr(core, SemOp::Read, sem))
                .expect("READ") as i32,
        )
    };
    let values = |pkg: &mut Package| (0..cores).map(|c| value(pkg, c)).collect::<Vec<_>>();
    // One round of every slot on the port, with margin for the bus accesses in between.
    let settle = |pkg: &mut Package| pkg.sim.ticks(4 * ss.slots());

    for c in 0..cores {
        pkg.write32(die, v.sem_addr(c, SemOp::Set, sem), 0)
            .expect("SET");
    }
    let want: Vec<i64> = (0..waiters).map(|_| 1 + rng.below(3) as i64).collect();
    for (slot, w) in want.iter().enumerate() {
        post(pkg, slot as u64, p.seq_subop_wait_ge_dec, *w);
    }
    settle(pkg);
    let mut given = vec![0i64; cores as usize];
    let mut granted = vec![false; waiters as usize];
    // A command posted into a busy slot is refused: ERR, the slot keeps its wait.
    let refused = rng.below(waiters);
    pkg.write32(die, v.sem_seq_reg(refused, &ss.cmd), cmd(p.seq_subop_inc))
        .expect("CMD into a busy slot");
    let mut rounds = 0;
    loop {
        let now = values(pkg);
        let mut taken = vec![0i64; cores as usize];
        for slot in 0..waiters {
            let (busy, err) = status(pkg, slot);
            let (i, c) = (slot as usize, core_of(slot) as usize);
            assert_eq!(err, slot == refused, "slot {slot} ERR");
            assert!(!(granted[i] && busy), "slot {slot} busy again");
            granted[i] = !busy;
            if granted[i] {
                taken[c] += want[i];
            } else {
                assert!(
                    want[i] > now[c],
                    "slot {slot} still waits for {} with core {c}'s semaphore at {}",
                    want[i],
                    now[c]
                );
            }
        }
        for c in 0..cores as usize {
            assert_eq!(
                now[c],
                given[c] - taken[c],
                "core {c}'s semaphore, round {rounds}"
            );
            assert!(now[c] >= 0, "more granted than given on core {c}");
        }
        if granted.iter().all(|g| *g) {
            break;
        }
        // The next increment, from the bus, into a core that still has a waiter.
        let open: Vec<u64> = (0..waiters).filter(|&s| !granted[s as usize]).collect();
        let c = core_of(open[rng.below(open.len() as u64) as usize]);
        let a = 1 + rng.below(3) as i64;
        pkg.write32(die, v.sem_addr(c, SemOp::Inc, sem), a as u32)
            .expect("INC");
        given[c as usize] += a;
        settle(pkg);
        rounds += 1;
        assert!(rounds < 10 * waiters, "the waits never all went");
    }
    let mut left: Vec<i64> = given.clone();
    for slot in 0..waiters {
        left[core_of(slot) as usize] -= want[slot as usize];
    }
    assert_eq!(values(pkg), left);
    // An inc through a slot adds to the slot's own core only.
    let slot = rng.below(waiters);
    post(pkg, slot, p.seq_subop_inc, 2);
    settle(pkg);
    assert_eq!(status(pkg, slot), (false, false), "inc through slot {slot}");
    left[core_of(slot) as usize] += 2;
    assert_eq!(values(pkg), left, "after an inc through slot {slot}");
    // An unknown subop is taken, flagged and ignored; the next command clears the flag.
    let unknown = (0..1u64 << p.seq_subop_bits)
        .find(|c| *c != p.seq_subop_inc && *c != p.seq_subop_wait_ge_dec)
        .expect("a free code");
    post(pkg, 0, unknown, 5);
    settle(pkg);
    assert_eq!(status(pkg, 0), (false, true), "unknown subop");
    assert_eq!(values(pkg), left);
    // A slot of a core the die does not wire has no EVT_SEM: refused, nothing changes.
    if waiters < ss.slots() {
        post(pkg, waiters, p.seq_subop_inc, 3);
        settle(pkg);
        assert_eq!(
            status(pkg, waiters),
            (false, true),
            "slot of an absent core"
        );
        assert_eq!(values(pkg), left, "after a slot of an absent core");
    }
}

/// Who used each sequencer command slot of a system: per (die, slot) the one context (core and
/// lane) whose firmware stored into that slot's registers (VALUE or CMD of block sem_seq), from
/// the stores the driver recorded (`RtlOutcome::fw_stores`; `die` is the die's host port). An
/// error names every slot that two contexts used: a slot holds one command at a time, so two
/// contexts on one slot would overwrite each other's waits (issue 37: the slot must be keyed so
/// that no two contexts anywhere in a system share one).
pub fn sequencer_slot_owners(
    stores: &[crate::driver::FwStore],
) -> Result<std::collections::BTreeMap<(u32, u64), (xdie_model::Core, xdie_model::Lane)>, String> {
    let v = views();
    let l = &v.sem_seq;
    let mut owners = std::collections::BTreeMap::new();
    let mut clashes = Vec::new();
    for s in stores {
        let Some(slot) = (0..l.slots()).find(|&k| {
            [&l.value_reg, &l.cmd]
                .iter()
                .any(|r| v.sem_seq_reg(k, r) == s.local)
        }) else {
            continue;
        };
        let who = (s.core, s.lane);
        match owners.entry((s.die, slot)) {
            std::collections::btree_map::Entry::Vacant(e) => {
                e.insert(who);
            }
            std::collections::btree_map::Entry::Occupied(e) => {
                let first = *e.get();
                if first != who {
                    clashes.push(format!(
                        "die {} slot {slot}: {} {:?} and {} {:?}",
                        s.die, first.0, first.1, who.0, who.1
                    ));
                }
            }
        }
    }
    if clashes.is_empty() {
        Ok(owners)
    } else {
        clashes.dedup();
        Err(format!(
            "sequencer slots shared by two contexts: {}",
            clashes.join("; ")
        ))
    }
}
