//! The simulation hooks of the package top and the die nodes of a composed system: backdoor access to each die's SBUF and
//! HBM memories, and the write monitor that reports every SBUF write and every EVT_SEM increment
//! in the cycle it lands (the RTL's `XDIE_SIM_HOOKS` code in `xdie_mem` and `xdie_die`).
//!
//! Scope names follow the tops' hierarchy: `g_die[d].u_die` for die (host port) d on the package
//! top (`rtl/core/xdie_pkg_top.sv`), `u_die` in die d's own model on a composed system
//! (`rtl/sim/xdie_die_node.sv`), then `xdie_die`'s `u_sbuf_mem` and `u_hbm`; sizes and address
//! maps come from the CSR model.

use crate::package::{Machine, Package, PkgError, Result};
use crate::regmodel::views;
use xdie_csr::{SemOp, Target};

/// The memories a backdoor reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mem {
    Sbuf,
    Hbm,
}

/// One write the monitor saw land: die-local address and the bytes written there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MonWrite {
    /// Clock cycle since the model was created.
    pub cycle: u64,
    pub die: u32,
    pub local: u64,
    pub bytes: Vec<u8>,
    pub what: MonKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MonKind {
    /// Bytes written into SBUF (one contiguous run of a beat's strobes).
    Sbuf,
    /// A semaphore increment: `local` is the semaphore's INC-window register, `bytes` the
    /// little-endian increment.
    SemInc,
}

impl Package {
    fn die_scope(&self, die: u32) -> String {
        match self.sim {
            Machine::One(_) => format!("{}.g_die[{die}].u_die", self.top),
            Machine::Many(_) => format!("{}.u_die", self.top),
        }
    }

    fn mem_scope(&self, die: u32, mem: Mem) -> String {
        mem_scope_in(&self.die_scope(die), mem)
    }
}

/// The scope of a die's memory, below the die's scope.
fn mem_scope_in(die_scope: &str, mem: Mem) -> String {
    let inst = match mem {
        Mem::Sbuf => "u_sbuf_mem",
        Mem::Hbm => "u_hbm",
    };
    format!("{die_scope}.{inst}")
}

/// Gives the pages of the SBUF and HBM arrays of the die at `die_scope` in `sim` back to the
/// operating system while they are still all zero (right after the model is built): a system of
/// a hundred dies then holds only the memory its transfers write (a die's arrays are 150 MB),
/// and reads of the rest still see zeros.
pub(crate) fn release_fresh_memories(sim: &mut crate::Sim, die_scope: &str) -> Result<()> {
    assert_eq!(
        sim.time(),
        0,
        "a model's memories are all zero only before its first edge"
    );
    for mem in [Mem::Sbuf, Mem::Hbm] {
        let scope = mem_scope_in(die_scope, mem);
        // SAFETY: before the first clock edge every array is still zero (the models are
        // verilated with `--x-initial 0`, tb/build.rs).
        unsafe { sim.release_zeroed(&scope, MEM_VAR)? };
    }
    Ok(())
}

/// The memories' array name in `xdie_mem`.
const MEM_VAR: &str = "mem_q";

/// Bytes per beat, the memories' word size.
fn beat() -> u64 {
    views().params.data_bytes
}

/// Monitor ids: two per die.
fn sbuf_watch(die: u32) -> u32 {
    2 * die
}
fn sem_watch(die: u32) -> u32 {
    2 * die + 1
}

/// Payload words of a semaphore record: core, semaphore, increment.
const SEM_RECORD_WORDS: u32 = 3;

/// Words of a monitor record of watch `id`: id, time (two words), payload.
fn record_words(id: u32) -> usize {
    let dw = beat() as usize;
    if id % 2 == 1 {
        3 + SEM_RECORD_WORDS as usize
    } else {
        3 + 2 + dw.div_ceil(32) + dw / 4
    }
}

/// The monitor records of several models (one log per die of a composed system) as one log:
/// by time, and in die order within a cycle, so the merged log is the same on every run.
pub(crate) fn merge_landed(logs: Vec<Vec<u32>>) -> Vec<u32> {
    let mut recs: Vec<(u64, usize, &[u32])> = Vec::new();
    for (d, log) in logs.iter().enumerate() {
        let mut at = 0;
        while at + 3 <= log.len() {
            let n = record_words(log[at]).min(log.len() - at);
            let time = u64::from(log[at + 1]) | u64::from(log[at + 2]) << 32;
            recs.push((time, d, &log[at..at + n]));
            at += n;
        }
    }
    // Stable: one die's records of one cycle keep their order.
    recs.sort_by_key(|&(t, d, _)| (t, d));
    recs.into_iter()
        .flat_map(|(_, _, r)| r.iter().copied())
        .collect()
}

/// A piece of a backdoor access: `len` bytes at byte `pos` of the memory array, which are bytes
/// `[at, at + len)` of the accessed range.
struct Span {
    pos: usize,
    at: usize,
    len: usize,
}

impl Package {
    /// The pieces of die-local range `[local, local + len)` and the memory holding them. The
    /// cores' SBUFs are packed in one array, partition p of core c at `(c * PARTITIONS + p) *
    /// BACKING` (as `xdie_sbuf` maps them); bytes past a partition's backing do not exist.
    fn backdoor_spans(local: u64, len: u64) -> Result<(Mem, Vec<Span>)> {
        let v = views();
        let stride = v.params.sbuf_partition_stride;
        let backing = v.params.sbuf_backing_bytes;
        let parts = v.params.sbuf_partitions;
        let not_backed = || PkgError::NotBacked { local, len };
        if v.decode_local(local) == Some(Target::Hbm) {
            let span = Span {
                pos: (local - v.apertures.hbm.base) as usize,
                at: 0,
                len: len as usize,
            };
            return Ok((Mem::Hbm, vec![span]));
        }
        let mut spans = Vec::new();
        let mut at = 0;
        while at < len {
            let Some(Target::Sbuf {
                core,
                partition: p,
                offset: b,
            }) = v.decode_local(local + at)
            else {
                return Err(not_backed());
            };
            let n = (stride - b).min(len - at);
            if p >= parts || b + n > backing {
                return Err(not_backed());
            }
            spans.push(Span {
                pos: ((core * parts + p) * backing + b) as usize,
                at: at as usize,
                len: n as usize,
            });
            at += n;
        }
        Ok((Mem::Sbuf, spans))
    }

    /// Writes `bytes` at die-local `local` of SBUF or HBM directly into the memory array, in
    /// zero cycles.
    pub fn poke(&mut self, die: u32, local: u64, bytes: &[u8]) -> Result<()> {
        let (mem, spans) = Self::backdoor_spans(local, bytes.len() as u64)?;
        let scope = self.mem_scope(die, mem);
        let (arr, _) = self.sim.model_mut(die).mem_bytes(&scope, MEM_VAR)?;
        for s in spans {
            arr.get_mut(s.pos..s.pos + s.len)
                .ok_or(PkgError::NotBacked {
                    local,
                    len: bytes.len() as u64,
                })?
                .copy_from_slice(&bytes[s.at..s.at + s.len]);
        }
        Ok(())
    }

    /// Reads `len` bytes at die-local `local` of SBUF or HBM directly from the memory array.
    pub fn peek(&mut self, die: u32, local: u64, len: u64) -> Result<Vec<u8>> {
        let (mem, spans) = Self::backdoor_spans(local, len)?;
        let scope = self.mem_scope(die, mem);
        let (arr, _) = self.sim.model_mut(die).mem_bytes(&scope, MEM_VAR)?;
        let mut out = vec![0u8; len as usize];
        for s in spans {
            out[s.at..s.at + s.len].copy_from_slice(
                arr.get(s.pos..s.pos + s.len)
                    .ok_or(PkgError::NotBacked { local, len })?,
            );
        }
        Ok(out)
    }

    /// Starts the write monitor on every die: from the next clock edge on, every SBUF write and
    /// every EVT_SEM increment is recorded until [`take_writes`](Self::take_writes).
    pub fn monitor(&mut self) -> Result<()> {
        let dw = beat() as u32;
        let strobe_words = dw.div_ceil(32);
        for die in 0..self.dies().len() as u32 {
            let (mem, scope) = (self.mem_scope(die, Mem::Sbuf), self.die_scope(die));
            let sim = self.sim.model_mut(die);
            sim.watch(
                &mem,
                sbuf_watch(die),
                2 + strobe_words + dw / 4,
                strobe_words,
            )?;
            sim.watch(&scope, sem_watch(die), SEM_RECORD_WORDS, 0)?;
        }
        Ok(())
    }

    /// The writes the monitor saw since the last call, in the order they landed.
    pub fn take_writes(&mut self) -> Vec<MonWrite> {
        let raw = self.sim.take_landed();
        let dw = beat() as usize;
        let strobe_words = dw.div_ceil(32);
        let backing = views().params.sbuf_backing_bytes;
        let parts = views().params.sbuf_partitions;
        let mut out = Vec::new();
        let mut at = 0;
        while at + 3 <= raw.len() {
            let id = raw[at];
            let cycle = (u64::from(raw[at + 1]) | u64::from(raw[at + 2]) << 32) / 2;
            let die = id / 2;
            let p = &raw[at + 3..];
            if id % 2 == 1 {
                out.push(MonWrite {
                    cycle,
                    die,
                    local: views().sem_addr(u64::from(p[0]), SemOp::Inc, u64::from(p[1])),
                    bytes: p[2].to_le_bytes().to_vec(),
                    what: MonKind::SemInc,
                });
                at += record_words(id);
                continue;
            }
            let word = u64::from(p[0]) | u64::from(p[1]) << 32;
            let strb = &p[2..2 + strobe_words];
            let data: Vec<u8> = p[2 + strobe_words..2 + strobe_words + dw / 4]
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect();
            let lane_on = |i: usize| strb[i / 32] >> (i % 32) & 1 != 0;
            // One record per contiguous run of strobes.
            let mut i = 0;
            while i < dw {
                if !lane_on(i) {
                    i += 1;
                    continue;
                }
                let start = i;
                while i < dw && lane_on(i) {
                    i += 1;
                }
                let packed = word * dw as u64 + start as u64;
                let (row, b) = (packed / backing, packed % backing);
                out.push(MonWrite {
                    cycle,
                    die,
                    local: views().sbuf_addr(row / parts, row % parts, b),
                    bytes: data[start..i].to_vec(),
                    what: MonKind::Sbuf,
                });
            }
            at += record_words(id);
        }
        out
    }
}
