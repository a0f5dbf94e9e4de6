//! rdma_desc_start and sequencer waits: check a start against its gen and queue the context's
//! firmware steps (doorbells, go semaphore, waits) for `run`.

use super::{side_idx, FwWrite, Step, System};
use crate::error::{ModelError, Result};
use crate::layout::{SemOp, Side};
use crate::topology::{Core, Lane};
use crate::word::StartWord;

/// What a start makes a context do, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FwStep {
    /// Sequencer port of the context's own EVT_SEM: wait until sem >= value, subtract it.
    WaitGeDec { sem: u64, value: u64, subop: u64 },
    /// A 32-bit store (doorbell or semaphore window).
    Store(FwWrite),
}

impl System {
    /// rdma_desc_start on context `prid` of `core`. Checks PRID parity and the DescriptorStream
    /// count at once; the steps themselves run (in order, after earlier steps of the context)
    /// during `run`.
    pub fn start(&mut self, core: Core, prid: u64, w: &StartWord) -> Result<Vec<FwStep>> {
        self.topology.check_core(core)?;
        if prid / 2 != core.id {
            return Err(ModelError::PridNotOfCore { core, prid });
        }
        if w.role > 1 {
            return Err(ModelError::BadRole(w.role));
        }
        if prid & 1 != w.role {
            return Err(ModelError::RoleParity {
                core,
                prid,
                role: w.role,
                parity: prid & 1,
            });
        }
        let role = Self::role(w.role)?;
        if w.launch > 1 {
            return Err(ModelError::BadLaunch(w.launch));
        }
        if w.go_sem >= self.layout.sem_count() {
            return Err(ModelError::SemOutOfRange {
                sem: w.go_sem,
                count: self.layout.sem_count(),
            });
        }
        if w.go_sem == w.local_sem {
            // Both live in TX's EVT_SEM: right_push would count as a source release.
            return Err(ModelError::Impossible(format!(
                "go_sem {} is local_sem too",
                w.go_sem
            )));
        }
        let key = (core, w.role);
        let Some((leg_id, counts)) = self.pending.get(&key).and_then(|q| q.front()).cloned() else {
            return Err(ModelError::StartWithoutGen { core, role: w.role });
        };
        let leg = self.legs[leg_id].clone();
        if leg.mask != w.dma_engine_mask {
            return Err(ModelError::StartMismatch {
                core,
                what: "dma_engine_mask",
            });
        }
        if leg.queue as u64 != w.queue {
            return Err(ModelError::StartMismatch {
                core,
                what: "queue",
            });
        }
        let side = match role {
            Lane::Tx => Side::M2s,
            Lane::Rx => Side::S2m,
        };
        // num_descriptors is each engine's count (seed 4.2: one tail increment per doorbell);
        // gen gave every engine the same share.
        let per_engine = counts.first().map_or(0, |&(_, n)| n);
        if w.num_descriptors != per_engine {
            return Err(ModelError::DescriptorCount {
                engine: None,
                wrote: w.num_descriptors,
                expected: per_engine,
            });
        }
        // The stream guard: what sits unposted in each ring must be exactly the entries of the
        // context's pending gens, this leg's share first (gens queue in ring order, so a
        // context may write the descriptors of later legs before this start posts its own).
        let chunks = self.chunks(leg.free_dim_bytes);
        let queued = &self.pending[&key];
        for (e, parts) in &leg.shares {
            let later: u64 = queued
                .iter()
                .skip(1)
                .filter(|(id, _)| {
                    let l = &self.legs[*id];
                    l.tx_die == leg.tx_die && l.queue == leg.queue
                })
                .flat_map(|(_, c)| c.iter().filter(|(ce, _)| ce == e).map(|&(_, n)| n))
                .sum();
            let expected = (parts.end - parts.start) * chunks + 2 + later;
            let wrote = self
                .dies
                .get(&leg.tx_die)
                .and_then(|d| d.rings.get(&(*e, leg.queue)))
                .map_or(0, |r| r[side_idx(side)].written - r[side_idx(side)].claimed);
            if wrote != expected {
                return Err(ModelError::DescriptorCount {
                    engine: Some(*e),
                    wrote,
                    expected,
                });
            }
        }
        if let Some(q) = self.pending.get_mut(&key) {
            q.pop_front();
        }
        for &(e, n) in &counts {
            if let Some(r) = self
                .dies
                .get_mut(&leg.tx_die)
                .and_then(|d| d.rings.get_mut(&(e, leg.queue)))
            {
                r[side_idx(side)].claimed += n;
            }
        }

        let me = self.die_of(core);
        let l = &self.layout;
        let mut steps = Vec::new();
        let mut fw = Vec::new();
        let store = |local: u64, value: u64| -> Result<FwWrite> {
            let mut bytes = value.to_le_bytes().to_vec();
            bytes.truncate(4);
            Ok(FwWrite {
                soc: self.topology.fold(l, me, leg.tx_die, local)?,
                die: leg.tx_die,
                local,
                bytes,
            })
        };
        let doorbells: Vec<FwWrite> = match w.launch {
            0 => counts
                .iter()
                .map(|&(e, n)| store(l.side(side).doorbell(e.into(), leg.queue.into()), n))
                .collect::<Result<_>>()?,
            1 => {
                // Seed 4.4: the die's broadcast doorbell, engine mask and queue first.
                let b = &l.bcast;
                let base = l.apertures.sdma_bcast.base;
                let inc = match side {
                    Side::M2s => &b.m2s_inc,
                    Side::S2m => &b.s2m_inc,
                };
                vec![
                    store(base + b.group.offset, leg.mask << b.mask.lsb)?,
                    store(
                        base + b.queue_reg.offset,
                        u64::from(leg.queue) << b.queue.lsb,
                    )?,
                    store(base + inc.offset, per_engine << b.inc.lsb)?,
                ]
            }
            v => return Err(ModelError::BadLaunch(v)),
        };
        match role {
            Lane::Rx => {
                for d in doorbells {
                    fw.push(FwStep::Store(d.clone()));
                    steps.push(Step::Store { from: me, write: d });
                }
                // right_push: go_sem lives in the TX core's EVT_SEM.
                let go = store(l.sem_addr(leg.tx_tpb, SemOp::Inc, w.go_sem), 1)?;
                fw.push(FwStep::Store(go.clone()));
                steps.push(Step::Store {
                    from: me,
                    write: go,
                });
            }
            Lane::Tx => {
                fw.push(FwStep::WaitGeDec {
                    sem: w.go_sem,
                    value: 1,
                    subop: l.evt_sem.params.seq_subop_wait_ge_dec,
                });
                steps.push(Step::Wait {
                    die: me,
                    tpb: leg.tx_tpb,
                    sem: w.go_sem,
                    value: 1,
                });
                for d in doorbells {
                    fw.push(FwStep::Store(d.clone()));
                    steps.push(Step::Store { from: me, write: d });
                }
            }
        }
        self.programs.entry(key).or_default().extend(steps);
        Ok(fw)
    }

    /// A sequencer wait_ge_and_dec on the context's own die, queued behind its earlier steps.
    pub fn wait_ge_and_dec(&mut self, core: Core, lane: Lane, sem: u64, value: u64) -> Result<()> {
        self.topology.check_core(core)?;
        if sem >= self.layout.sem_count() {
            return Err(ModelError::SemOutOfRange {
                sem,
                count: self.layout.sem_count(),
            });
        }
        let die = self.die_of(core);
        let tpb = self.topology.tpb_of(core);
        self.programs
            .entry((core, lane as u64))
            .or_default()
            .push_back(Step::Wait {
                die,
                tpb,
                sem,
                value,
            });
        Ok(())
    }
}
