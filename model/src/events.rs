//! The event log of a run, and the invariants a run (the model's or the RTL's) must keep.
//!
//! The checkers read only landed writes (die, die-local address, bytes, optional tags), which is
//! what a bus monitor on the RTL sees, so the testbench can feed its own log through them.

use crate::desc::EntryKind;
use crate::layout::Side;
use crate::topology::{Core, DieId};

pub type LegId = usize;

/// Who issued a write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Writer {
    /// A descriptor pair of an SDMA engine; `leg`/`kind` are known to the model (a monitor that
    /// cannot tell leaves them `None`).
    Engine {
        die: DieId,
        engine: u32,
        queue: u32,
        leg: Option<LegId>,
        kind: Option<EntryKind>,
    },
    /// A firmware store (right_push, doorbells).
    Firmware { core: Core },
    /// A write a bus monitor saw land without seeing who issued it (an engine, as far as the
    /// checker is concerned: data and semaphore writes are then attributed by address).
    Unknown,
}

/// A write that reached its target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Landed {
    pub die: DieId,
    pub local: u64,
    pub bytes: Vec<u8>,
    pub by: Writer,
}

impl Landed {
    fn leg(&self) -> Option<LegId> {
        match &self.by {
            Writer::Engine { leg, .. } => *leg,
            Writer::Firmware { .. } | Writer::Unknown => None,
        }
    }
    fn engine(&self) -> Option<u32> {
        match &self.by {
            Writer::Engine { engine, .. } => Some(*engine),
            Writer::Firmware { .. } | Writer::Unknown => None,
        }
    }
    fn end(&self) -> u64 {
        self.local + self.bytes.len() as u64
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    Landed(Landed),
    /// A tail-pointer increment took effect.
    Doorbell {
        die: DieId,
        engine: u32,
        side: Side,
        queue: u32,
        n: u64,
        by: Core,
    },
    /// A sequencer wait_ge_and_dec was satisfied (the value is already decremented).
    SemWaitDone {
        die: DieId,
        /// The core (of `die`) whose EVT_SEM held the semaphore.
        tpb: u64,
        sem: u64,
        value: i64,
        by: Core,
    },
    /// A descriptor's ring id differed from the queue's: that side halts.
    RingIdError {
        die: DieId,
        engine: u32,
        side: Side,
        queue: u32,
        found: u64,
        expected: u64,
    },
    /// A write or read that decoded to nothing the model backs.
    Fault {
        die: DieId,
        what: String,
    },
}

/// What a leg must do, in the form a checker needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegExpect {
    pub id: LegId,
    pub tx_die: DieId,
    pub rx_die: DieId,
    /// Destination ranges on the RX die: (die-local start, length), one per partition.
    pub dst: Vec<(u64, u64)>,
    /// Die-local address of remote_sem's INC register on the RX die.
    pub remote_sem_addr: u64,
    /// How many earlier legs count into the same remote_sem of the same die. Legs may share a
    /// remote_sem only as one stream whose batches land in leg order (docs/collectives.md);
    /// from an untagged log this leg's increments are then the `remote_batch`-th
    /// `n_engines` of them.
    pub remote_batch: u64,
    /// Die-local address of local_sem's INC register on the TX die.
    pub local_sem_addr: u64,
    /// How many earlier legs count into the same local_sem of the same die (as
    /// `remote_batch`).
    pub local_batch: u64,
    pub n_engines: u64,
    /// Earlier legs that write some of this leg's destination bytes on the same die (a
    /// collective's later phase writing where an earlier one added), as their remote_sem
    /// completions. From an untagged log this leg's data writes are the ones that land after
    /// every one of these completions.
    pub dst_after: Vec<Completion>,
    /// Whether a later leg writes some of this leg's destination bytes: from an untagged log
    /// this leg's data writes then end with its own remote_sem completion.
    pub dst_rewritten: bool,
}

/// The increment that brings a semaphore shared as one stream to its `batch`-th target: the
/// `(batch + 1) * n`-th unit of increments landed at `addr` on the leg's RX die.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Completion {
    pub addr: u64,
    pub batch: u64,
    pub n: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("leg {leg}: {what}")]
pub struct Violation {
    pub leg: LegId,
    pub what: String,
}

fn inc_value(w: &Landed) -> i64 {
    let mut b = [0u8; 4];
    let n = w.bytes.len().min(4);
    b[..n].copy_from_slice(&w.bytes[..n]);
    i32::from_le_bytes(b) as i64
}

/// Keeps a leg's own increments of a semaphore several legs count into (one stream, see
/// [`LegExpect::remote_batch`]): when the writes are untagged, the `index`-th `n` of them in
/// landing order.
fn batch(writes: &mut Vec<(usize, &Landed)>, index: u64, n: u64) {
    if !writes.iter().any(|(_, w)| w.leg().is_none()) {
        return;
    }
    let (lo, hi) = ((index * n) as i64, ((index + 1) * n) as i64);
    let mut before = 0i64;
    writes.retain(|(_, w)| {
        let at = before;
        before += inc_value(w);
        (lo..hi).contains(&at)
    });
}

/// Position in `writes` of the increment that completes `c` on `die`, if it landed.
fn completed_at(writes: &[Landed], die: DieId, c: Completion) -> Option<usize> {
    let target = ((c.batch + 1) * c.n) as i64;
    let mut sum = 0i64;
    writes
        .iter()
        .enumerate()
        .filter(|(_, w)| !matches!(w.by, Writer::Firmware { .. }))
        .filter(|(_, w)| w.die == die && w.local == c.addr)
        .find(|(_, w)| {
            sum += inc_value(w);
            sum >= target
        })
        .map(|(i, _)| i)
}

/// Check every invariant of one leg against an ordered list of landed writes.
///
/// Firmware stores are ignored (right_push is not a completion). Engine writes tagged with
/// another leg are ignored; untagged engine writes are attributed by address and, where legs
/// share destination bytes, by when they land: between the completions of the legs that wrote
/// those bytes before ([`LegExpect::dst_after`]) and this leg's own completion (when a later
/// leg rewrites them). Legs that share a semaphore do so as one stream ([`batch`]).
pub fn check_leg(writes: &[Landed], leg: &LegExpect) -> Result<(), Violation> {
    let fail = |what: String| Violation { leg: leg.id, what };
    let mine: Vec<(usize, &Landed)> = writes
        .iter()
        .enumerate()
        .filter(|(_, w)| !matches!(w.by, Writer::Firmware { .. }))
        .filter(|(_, w)| w.leg().is_none_or(|l| l == leg.id))
        .collect();
    let in_dst = |w: &Landed| {
        w.die == leg.rx_die && leg.dst.iter().any(|&(s, n)| w.local < s + n && w.end() > s)
    };
    let own_completion = Completion {
        addr: leg.remote_sem_addr,
        batch: leg.remote_batch,
        n: leg.n_engines,
    };
    // The landing window of this leg's untagged data writes (exclusive, inclusive).
    let window_start = leg
        .dst_after
        .iter()
        .filter_map(|&c| completed_at(writes, leg.rx_die, c))
        .max();
    let window_end = if leg.dst_rewritten {
        completed_at(writes, leg.rx_die, own_completion)
    } else {
        None
    };
    let in_window =
        |i: usize| window_start.is_none_or(|s| i > s) && window_end.is_none_or(|e| i <= e);

    // Every byte lands once, inside its destination.
    let mut spans = Vec::new();
    let mut last_data = None;
    let mut last_data_of_engine = std::collections::BTreeMap::new();
    for &(i, w) in &mine {
        let tagged_data = matches!(
            w.by,
            Writer::Engine {
                kind: Some(EntryKind::Data { .. }),
                ..
            }
        );
        if !(in_dst(w) || tagged_data) || (w.leg().is_none() && !in_window(i)) {
            continue;
        }
        let inside = w.die == leg.rx_die
            && leg
                .dst
                .iter()
                .any(|&(s, n)| w.local >= s && w.end() <= s + n);
        if !inside {
            return Err(fail(format!(
                "data write [{:#x}, {:#x}) on {} leaves the destination",
                w.local,
                w.end(),
                w.die
            )));
        }
        spans.push((w.local, w.end()));
        last_data = Some(i);
        if let Some(e) = w.engine() {
            last_data_of_engine.insert(e, i);
        }
    }
    spans.sort_unstable();
    for pair in spans.windows(2) {
        if pair[1].0 < pair[0].1 {
            return Err(fail(format!(
                "bytes [{:#x}, {:#x}) landed more than once",
                pair[1].0,
                pair[0].1.min(pair[1].1)
            )));
        }
    }
    let landed: u64 = spans.iter().map(|(s, e)| e - s).sum();
    let want: u64 = leg.dst.iter().map(|&(_, n)| n).sum();
    if landed != want {
        return Err(fail(format!(
            "{landed:#x} of {want:#x} destination bytes landed"
        )));
    }

    // remote_sem reaches its target only after the last data byte; each engine's increment
    // comes after that engine's own data (write_barrier).
    let mut remote: Vec<(usize, &Landed)> = mine
        .iter()
        .filter(|(_, w)| w.die == leg.rx_die && w.local == leg.remote_sem_addr)
        .copied()
        .collect();
    batch(&mut remote, leg.remote_batch, leg.n_engines);
    let sum: i64 = remote.iter().map(|(_, w)| inc_value(w)).sum();
    if sum != leg.n_engines as i64 {
        return Err(fail(format!(
            "remote_sem rose by {sum}, expected {}",
            leg.n_engines
        )));
    }
    let mut acc = 0i64;
    for &(i, w) in &remote {
        acc += inc_value(w);
        if acc >= leg.n_engines as i64 && last_data.is_some_and(|d| d > i) {
            return Err(fail(
                "remote_sem reached its target before the last data byte landed".into(),
            ));
        }
        if let Some(e) = w.engine() {
            if last_data_of_engine.get(&e).is_some_and(|&d| d > i) {
                return Err(fail(format!(
                    "engine {e}'s remote_sem increment landed before its data"
                )));
            }
        }
    }

    // local_sem rises by the number of engines.
    let mut local: Vec<(usize, &Landed)> = mine
        .iter()
        .filter(|(_, w)| w.die == leg.tx_die && w.local == leg.local_sem_addr)
        .copied()
        .collect();
    batch(&mut local, leg.local_batch, leg.n_engines);
    let local: i64 = local.iter().map(|(_, w)| inc_value(w)).sum();
    if local != leg.n_engines as i64 {
        return Err(fail(format!(
            "local_sem rose by {local}, expected {}",
            leg.n_engines
        )));
    }
    Ok(())
}

/// The landed writes of an event log, in order.
pub fn landed(events: &[Event]) -> Vec<Landed> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Landed(l) => Some(l.clone()),
            _ => None,
        })
        .collect()
}
