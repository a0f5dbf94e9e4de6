//! The scheduler: contexts' queued steps and engines run until nothing can move; what is left
//! over is reported.

use super::{side_idx, Step, System, SIDES};
use crate::error::{ModelError, Result};
use crate::events::{Event, Writer};
use crate::topology::{Core, DieId, Lane};

impl System {
    fn try_step(&mut self, core: Core, step: &Step) -> Result<bool> {
        match step {
            Step::Wait {
                die,
                tpb,
                sem,
                value,
            } => {
                let Some(s) = self
                    .dies
                    .get_mut(die)
                    .and_then(|st| st.sems.get_mut(*tpb as usize))
                    .and_then(|s| s.get_mut(*sem as usize))
                else {
                    return Ok(false);
                };
                if *s < *value as i64 {
                    return Ok(false);
                }
                *s -= *value as i64;
                let v = *s;
                self.events.push(Event::SemWaitDone {
                    die: *die,
                    tpb: *tpb,
                    sem: *sem,
                    value: v,
                    by: core,
                });
                Ok(true)
            }
            Step::Store { from, write } => {
                let (die, local) = self.route(*from, write.soc)?;
                let mut v = [0u8; 8];
                v[..write.bytes.len().min(8)]
                    .copy_from_slice(&write.bytes[..write.bytes.len().min(8)]);
                if !self.doorbell(die, local, u64::from_le_bytes(v), core) {
                    self.land(die, local, write.bytes.clone(), Writer::Firmware { core });
                }
                Ok(true)
            }
        }
    }
    /// Run every context's queued steps and every engine until nothing can move. Contexts go
    /// first each round; engines then execute one pair per queue, dies, engines and queues in
    /// ascending order.
    pub fn run(&mut self) -> Result<RunReport> {
        loop {
            let mut progress = false;
            let keys: Vec<(Core, u64)> = self.programs.keys().copied().collect();
            for key in keys {
                while let Some(step) = self.programs.get(&key).and_then(|p| p.front()).cloned() {
                    if !self.try_step(key.0, &step)? {
                        break;
                    }
                    if let Some(p) = self.programs.get_mut(&key) {
                        p.pop_front();
                    }
                    progress = true;
                }
            }
            let queues: Vec<(DieId, u32, u32)> = self
                .dies
                .iter()
                .flat_map(|(d, st)| st.rings.keys().map(move |(e, q)| (*d, *e, *q)))
                .collect();
            for (d, e, q) in queues {
                progress |= self.try_pair(d, e, q)?;
            }
            if !progress {
                break;
            }
        }
        Ok(self.report())
    }

    fn report(&self) -> RunReport {
        let mut r = RunReport::default();
        for ((core, lane), p) in &self.programs {
            if let Some(Step::Wait { sem, value, .. }) = p.front() {
                r.blocked.push(format!(
                    "{core} PRID {} waits sem {sem} >= {value}",
                    core.prid(if *lane == 1 { Lane::Tx } else { Lane::Rx })
                ));
            }
        }
        for (d, st) in &self.dies {
            for ((e, q), rings) in &st.rings {
                for side in SIDES {
                    let ring = &rings[side_idx(side)];
                    if ring.tail > ring.head {
                        r.stranded.push(format!(
                            "{d} engine {e} {} queue {q}: {} posted descriptors unserved{}",
                            side.as_str(),
                            ring.tail - ring.head,
                            if ring.halted { " (halted)" } else { "" }
                        ));
                    }
                }
            }
        }
        r
    }

    /// `run`, then insist that every context finished and every posted descriptor was served.
    pub fn run_to_completion(&mut self) -> Result<()> {
        let r = self.run()?;
        if r.blocked.is_empty() && r.stranded.is_empty() {
            Ok(())
        } else {
            Err(ModelError::Stalled(
                r.blocked
                    .into_iter()
                    .chain(r.stranded)
                    .collect::<Vec<_>>()
                    .join("; "),
            ))
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunReport {
    /// Contexts stopped at a wait that never became true.
    pub blocked: Vec<String>,
    /// Rings with posted descriptors the engine could not serve (no partner entry, halted).
    pub stranded: Vec<String>,
}
