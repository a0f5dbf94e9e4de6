//! The model's timing estimate of a scenario: a fluid schedule of its legs (docs/collectives.md).
//!
//! The golden model has no cycles; this estimate gives a collective a cycle count where no RTL
//! runs (a 64-package mesh, a build without Verilator). Each leg is a flow of its payload bytes
//! over the link channels of its route (the route tables of a topology; the die-to-die link of
//! a package). Every channel carries at most its link's width in bytes per cycle, every leg at
//! most one beat (DATA_BYTES) per cycle per engine; concurrent legs share channels max-min
//! fairly. A leg starts when the leg it follows (`after`) completed and the earlier legs of its
//! rings finished their data; it completes one link latency per hop after its last byte left.
//! Descriptor fetch, firmware and semaphore round trips cost nothing here, so the estimate is
//! an optimistic figure of the algorithm's data movement, not of the RTL.

use crate::mesh::routes::RouteTables;
use crate::scenario::{ModelRun, Scenario};
use crate::topology::DieId;
use std::collections::BTreeMap;

/// One leg's place in time, in cycles from the first launch.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Span {
    pub start: f64,
    /// Its last byte left (the rings are free for the next leg).
    pub data_end: f64,
    /// Its last byte (and its remote_sem) landed.
    pub end: f64,
}

/// The schedule of every leg and the busiest channel's load.
#[derive(Debug, Clone)]
pub struct Estimate {
    pub spans: Vec<Span>,
    /// Last completion.
    pub cycles: f64,
    /// Payload bytes over the busiest channel and that channel's width (bytes per cycle).
    pub busiest_bytes: u64,
    pub busiest_width: u64,
    /// The narrowest link width the legs use (bytes per cycle).
    pub link_width: u64,
}

struct Flow {
    bytes: f64,
    channels: Vec<usize>,
    cap: f64,
    latency: f64,
    after: Option<usize>,
    /// The leg before it on any of its rings.
    ring_prev: Option<usize>,
}

/// Estimates `run`'s legs of `sc`.
pub fn estimate(sc: &Scenario, run: &ModelRun) -> Estimate {
    let l = &run.sys.layout;
    let tables = run.mesh.as_ref().map(RouteTables::compute);
    let ports = run.mesh.as_ref().map(|m| m.port_links());
    let mut chan_ids: BTreeMap<String, usize> = BTreeMap::new();
    let mut chan_width: Vec<f64> = Vec::new();
    let mut chan_bytes: Vec<u64> = Vec::new();
    let mut last_on_ring: BTreeMap<(DieId, u32, u64), usize> = BTreeMap::new();
    let mut flows = Vec::new();
    for (i, (spec, leg)) in sc.legs.iter().zip(&run.legs).enumerate() {
        let (s, t) = (leg.tx_die, leg.rx_die);
        // (channel name, width, latency) of every hop.
        let hops: Vec<(String, u64, u64)> = if s == t {
            Vec::new()
        } else {
            match (&tables, &ports) {
                (Some(tb), Some(pl)) => tb
                    .channels(s, t)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|p| {
                        let (w, lat) = pl
                            .get(&p)
                            .map_or((l.params.data_bytes, l.params.link_latency), |(_, k)| {
                                (k.width, k.latency)
                            });
                        (p.to_string(), w, lat)
                    })
                    .collect(),
                _ => vec![(
                    format!("{s} -> {t}"),
                    l.params.data_bytes,
                    l.params.link_latency,
                )],
            }
        };
        let mut channels = Vec::new();
        let mut latency = 0.0;
        for (name, w, lat) in hops {
            let next = chan_ids.len();
            let id = *chan_ids.entry(name).or_insert(next);
            if id == chan_width.len() {
                chan_width.push(w as f64);
                chan_bytes.push(0);
            }
            chan_bytes[id] += spec.bytes();
            channels.push(id);
            latency += lat as f64;
        }
        let mut ring_prev = None;
        for e in (0..64u32).filter(|e| (spec.dma_engine_mask >> e) & 1 == 1) {
            if let Some(p) = last_on_ring.insert((s, e, spec.queue), i) {
                ring_prev = Some(ring_prev.map_or(p, |q: usize| q.max(p)));
            }
        }
        flows.push(Flow {
            bytes: spec.bytes() as f64,
            channels,
            cap: (spec.n_engines() * l.params.data_bytes) as f64,
            latency,
            after: spec.after,
            ring_prev,
        });
    }
    let spans = schedule(&flows, &chan_width);
    let busiest = (0..chan_bytes.len()).max_by_key(|&c| chan_bytes[c]);
    Estimate {
        cycles: spans.iter().map(|s| s.end).fold(0.0, f64::max),
        spans,
        busiest_bytes: busiest.map_or(0, |c| chan_bytes[c]),
        busiest_width: busiest.map_or(l.params.data_bytes, |c| chan_width[c] as u64),
        link_width: chan_width
            .iter()
            .map(|&w| w as u64)
            .min()
            .unwrap_or(l.params.data_bytes),
    }
}

/// Max-min fair rates of the active flows (progressive filling).
fn rates(flows: &[Flow], active: &[usize], width: &[f64]) -> Vec<f64> {
    let mut rate = vec![0.0; active.len()];
    let mut frozen = vec![false; active.len()];
    let mut left: Vec<f64> = width.to_vec();
    loop {
        let mut users = vec![0usize; width.len()];
        for (k, &f) in active.iter().enumerate() {
            if !frozen[k] {
                for &c in &flows[f].channels {
                    users[c] += 1;
                }
            }
        }
        let mut inc = f64::INFINITY;
        for (k, &f) in active.iter().enumerate() {
            if !frozen[k] {
                inc = inc.min(flows[f].cap - rate[k]);
            }
        }
        for c in 0..width.len() {
            if users[c] > 0 {
                inc = inc.min(left[c] / users[c] as f64);
            }
        }
        if !inc.is_finite() {
            break;
        }
        for (k, &f) in active.iter().enumerate() {
            if !frozen[k] {
                rate[k] += inc;
                for &c in &flows[f].channels {
                    left[c] -= inc;
                }
            }
        }
        let mut any = false;
        for (k, &f) in active.iter().enumerate() {
            if frozen[k] {
                continue;
            }
            let full = flows[f].cap - rate[k] <= 1e-9
                || flows[f].channels.iter().any(|&c| left[c] <= 1e-9);
            if full {
                frozen[k] = true;
                any = true;
            }
        }
        if !any || frozen.iter().all(|&f| f) {
            break;
        }
    }
    rate
}

fn schedule(flows: &[Flow], width: &[f64]) -> Vec<Span> {
    let n = flows.len();
    let mut span: Vec<Option<Span>> = vec![None; n];
    let mut start: Vec<Option<f64>> = vec![None; n];
    let mut left: Vec<f64> = flows.iter().map(|f| f.bytes).collect();
    // The flows each flow's completion may release.
    let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, f) in flows.iter().enumerate() {
        for p in [f.after, f.ring_prev].into_iter().flatten() {
            dependents[p].push(i);
        }
    }
    // Flows whose start time is known, earliest first (times as ordered bits: all >= 0).
    let mut ready: std::collections::BinaryHeap<std::cmp::Reverse<(u64, usize)>> =
        std::collections::BinaryHeap::new();
    let start_time = |i: usize, span: &[Option<Span>]| -> Option<f64> {
        let dep = match flows[i].after {
            None => 0.0,
            Some(a) => span[a]?.end,
        };
        let ring = match flows[i].ring_prev {
            None => 0.0,
            Some(p) => span[p]?.data_end,
        };
        Some(dep.max(ring))
    };
    let mut queued = vec![false; n];
    for (i, q) in queued.iter_mut().enumerate() {
        if let Some(at) = start_time(i, &span) {
            ready.push(std::cmp::Reverse((at.to_bits(), i)));
            *q = true;
        }
    }
    let mut active: Vec<usize> = Vec::new();
    let mut t = 0.0f64;
    let mut done = 0;
    while done < n {
        while let Some(&std::cmp::Reverse((bits, i))) = ready.peek() {
            if f64::from_bits(bits) > t + 1e-9 {
                break;
            }
            ready.pop();
            start[i] = Some(t);
            active.push(i);
        }
        let next_start = ready
            .peek()
            .map_or(f64::INFINITY, |r| f64::from_bits(r.0 .0));
        let r = rates(flows, &active, width);
        let mut next_end = f64::INFINITY;
        for (k, &f) in active.iter().enumerate() {
            if r[k] > 0.0 {
                next_end = next_end.min(t + left[f] / r[k]);
            }
        }
        let next = next_start.min(next_end);
        if !next.is_finite() {
            // Nothing can move (a cycle of waits): leave the rest where they are.
            break;
        }
        let dt = next - t;
        t = next;
        let mut still = Vec::new();
        let mut finished = Vec::new();
        for (k, &f) in active.iter().enumerate() {
            left[f] -= r[k] * dt;
            if left[f] <= 1e-6 * flows[f].bytes.max(1.0) {
                span[f] = Some(Span {
                    start: start[f].unwrap_or(t),
                    data_end: t,
                    end: t + flows[f].latency,
                });
                done += 1;
                finished.push(f);
            } else {
                still.push(f);
            }
        }
        active = still;
        for f in finished {
            for &d in &dependents[f] {
                if !queued[d] {
                    if let Some(at) = start_time(d, &span) {
                        ready.push(std::cmp::Reverse((at.to_bits(), d)));
                        queued[d] = true;
                    }
                }
            }
        }
    }
    span.into_iter()
        .map(|s| {
            s.unwrap_or(Span {
                start: t,
                data_end: t,
                end: t,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flow(bytes: f64, channels: Vec<usize>, after: Option<usize>) -> Flow {
        Flow {
            bytes,
            channels,
            cap: 1e9,
            latency: 0.0,
            after,
            ring_prev: None,
        }
    }

    #[test]
    fn two_flows_share_a_channel() {
        let f = [flow(100.0, vec![0], None), flow(100.0, vec![0], None)];
        let s = schedule(&f, &[10.0]);
        // Both at 5 B/cycle: 20 cycles each.
        assert!((s[0].end - 20.0).abs() < 1e-6 && (s[1].end - 20.0).abs() < 1e-6);
    }

    #[test]
    fn a_chain_runs_after() {
        let f = [flow(100.0, vec![0], None), flow(50.0, vec![1], Some(0))];
        let s = schedule(&f, &[10.0, 10.0]);
        assert!((s[1].start - 10.0).abs() < 1e-6 && (s[1].end - 15.0).abs() < 1e-6);
    }
}
