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

/// Every slot of the sequencer command block (one per context) of die `die` waits on one
/// semaphore with its own amount while increments arrive from the bus and from a slot's inc
/// commands. After each increment has had one round of the slots, the state must be the one the
/// issued commands allow: the semaphore is what was given less what the granted waits took (no
/// lost decrement, none taken twice), never below zero (no wait granted without the units for
/// it), and every wait still pending asks for more than the semaphore holds (no wait left behind
/// that could go). A command posted into a busy slot, and an unknown subop, are refused with ERR
/// and change nothing.
pub fn sequencer_slots_contend(pkg: &mut Package, die: u32, rng: &mut Rng) {
    let v = views();
    let (ss, p) = (&v.sem_seq, &v.evt_sem.params);
    let sem = rng.below(v.sem_count());
    let n = ss.slots();
    let inc_slot = n - 1;
    let waiters = n - 1;
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
    let value = |pkg: &mut Package| {
        i64::from(pkg.read32(die, v.sem_addr(SemOp::Read, sem)).expect("READ") as i32)
    };
    // One round of every slot on the port, with margin for the bus accesses in between.
    let settle = |pkg: &mut Package| pkg.sim.ticks(4 * n);

    pkg.write32(die, v.sem_addr(SemOp::Set, sem), 0)
        .expect("SET");
    let want: Vec<i64> = (0..waiters).map(|_| 1 + rng.below(3) as i64).collect();
    for (slot, w) in want.iter().enumerate() {
        post(pkg, slot as u64, p.seq_subop_wait_ge_dec, *w);
    }
    settle(pkg);
    let mut given = 0i64;
    let mut granted = vec![false; waiters as usize];
    // A command posted into a busy slot is refused: ERR, the slot keeps its wait.
    let refused = rng.below(waiters);
    pkg.write32(die, v.sem_seq_reg(refused, &ss.cmd), cmd(p.seq_subop_inc))
        .expect("CMD into a busy slot");
    let mut rounds = 0;
    loop {
        let now = value(pkg);
        let mut taken = 0;
        for slot in 0..waiters {
            let (busy, err) = status(pkg, slot);
            let i = slot as usize;
            assert_eq!(err, slot == refused, "slot {slot} ERR");
            assert!(!(granted[i] && busy), "slot {slot} busy again");
            granted[i] = !busy;
            if granted[i] {
                taken += want[i];
            } else {
                assert!(
                    want[i] > now,
                    "slot {slot} still waits for {} with the semaphore at {now}",
                    want[i]
                );
            }
        }
        assert_eq!(now, given - taken, "semaphore after {rounds} increments");
        assert!(now >= 0, "more granted than given");
        if granted.iter().all(|g| *g) {
            break;
        }
        // The next increment: from the bus (INC window) or through the inc slot.
        let a = 1 + rng.below(3) as i64;
        if rng.below(2) == 0 {
            pkg.write32(die, v.sem_addr(SemOp::Inc, sem), a as u32)
                .expect("INC");
        } else {
            post(pkg, inc_slot, p.seq_subop_inc, a);
        }
        given += a;
        settle(pkg);
        assert_eq!(status(pkg, inc_slot), (false, false), "inc slot");
        rounds += 1;
        assert!(rounds < 10 * waiters, "the waits never all went");
    }
    let total: i64 = want.iter().sum();
    assert_eq!(value(pkg), given - total);
    // An unknown subop is taken, flagged and ignored; the next command clears the flag.
    let unknown = (0..1u64 << p.seq_subop_bits)
        .find(|c| *c != p.seq_subop_inc && *c != p.seq_subop_wait_ge_dec)
        .expect("a free code");
    post(pkg, 0, unknown, 5);
    settle(pkg);
    assert_eq!(status(pkg, 0), (false, true), "unknown subop");
    assert_eq!(value(pkg), given - total);
    post(pkg, 0, p.seq_subop_inc, 2);
    settle(pkg);
    assert_eq!(status(pkg, 0), (false, false), "next command");
    assert_eq!(value(pkg), given - total + 2);
}
