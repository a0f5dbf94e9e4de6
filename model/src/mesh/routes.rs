//! Per-die route tables: for every destination (CAYMAN_ID, die), the C2C port a die sends a
//! request (or a response) out of. Deadlock freedom by up*/down* routing, which holds on any
//! connected topology with one channel per direction per network:
//!
//! - The dies are ordered by (BFS level from die 0 of the first package, die index in file
//!   order). A channel (one direction of a link) is *up* when it leads to a smaller key,
//!   *down* otherwise. A legal path takes zero or more up channels, then zero or more down ones.
//! - Destination-based tables cannot know how a packet arrived, so the table of die u for
//!   destination t takes the down channel of a shortest down-only path when one exists (a packet
//!   that arrived on a down channel always finds one: its previous die chose that channel on a
//!   shortest down path), and otherwise the up channel with the shortest continuation. Up
//!   channels strictly decrease the key and down paths strictly shorten, so every path ends.
//! - A channel dependency runs from the channel a packet holds to the next it asks for. Legal
//!   paths never turn from down to up, and each of up->up and down->down follows the key
//!   strictly one way, so the channel dependency graph has no cycle (checked by
//!   [`RouteTables::dependency_cycle`], computed from the tables, not assumed).
//! - Requests and responses travel on separate channels of each link (the link's write and
//!   response channels). A request depends on response channels only at its target, which turns
//!   it into a response; a response never waits for a request channel, because its requester
//!   sinks it unconditionally (a master issues only while it has room for the response). So the
//!   combined graph (request channels, response channels, request->response at targets) is
//!   acyclic when each network's is, and the check covers the combined graph.
//!
//! The price of up*/down* is path length: a pair whose shortest path turns from down to up (on
//! a ring, the pairs across the link farthest from the root) takes a longer legal path.
//! [`RouteTables::stretch`] reports it.

use super::Mesh;
use crate::topology::{DieId, PortId};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// The route tables of a system.
#[derive(Debug, Clone)]
pub struct RouteTables {
    /// Dies in mesh order.
    pub dies: Vec<DieId>,
    /// (die, destination) -> egress port; no entry for a die's own address.
    pub egress: BTreeMap<(DieId, DieId), u32>,
    /// BFS level of every die (the up*/down* order's first key).
    pub level: BTreeMap<DieId, u32>,
    /// The channel every (die, port) feeds: the die at the other end.
    pub far: BTreeMap<PortId, DieId>,
}

/// A network a channel belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Net {
    Request,
    Response,
}

/// One direction of one link in one network: the port it leaves through.
pub type Channel = (Net, PortId);

impl RouteTables {
    /// Computes the tables of `mesh` (a loaded mesh is connected, so every pair has a route).
    pub fn compute(mesh: &Mesh) -> RouteTables {
        let dies = mesh.dies();
        let far: BTreeMap<PortId, DieId> = mesh
            .port_links()
            .into_iter()
            .map(|(p, (f, _))| (p, f.die))
            .collect();
        let out = |d: DieId| {
            far.range(
                PortId { die: d, port: 0 }..=PortId {
                    die: d,
                    port: u32::MAX,
                },
            )
            .map(|(p, f)| (p.port, *f))
            .collect::<Vec<_>>()
        };
        // BFS levels from the root.
        let mut level = BTreeMap::from([(dies[0], 0u32)]);
        let mut q = VecDeque::from([dies[0]]);
        while let Some(d) = q.pop_front() {
            let l = level[&d];
            for (_, f) in out(d) {
                if let std::collections::btree_map::Entry::Vacant(e) = level.entry(f) {
                    e.insert(l + 1);
                    q.push_back(f);
                }
            }
        }
        let pos: BTreeMap<DieId, usize> = dies.iter().enumerate().map(|(i, d)| (*d, i)).collect();
        let key = |d: DieId| (level.get(&d).copied().unwrap_or(u32::MAX), pos[&d]);
        let up = |from: DieId, to: DieId| key(to) < key(from);
        let mut order = dies.clone();
        order.sort_by_key(|d| key(*d));
        let mut egress = BTreeMap::new();
        for &t in &dies {
            // Shortest down-only distance to t, backwards from t.
            let mut down: BTreeMap<DieId, u32> = BTreeMap::from([(t, 0)]);
            let mut q = VecDeque::from([t]);
            while let Some(v) = q.pop_front() {
                for (_, u) in out(v) {
                    // u -> v is down when v has the larger key.
                    if !up(u, v) && !down.contains_key(&u) {
                        down.insert(u, down[&v] + 1);
                        q.push_back(u);
                    }
                }
            }
            // Path length under the rule, in key order (up channels lead to smaller keys).
            let mut len: BTreeMap<DieId, u32> = BTreeMap::new();
            for &u in &order {
                if let Some(&dd) = down.get(&u) {
                    len.insert(u, dd);
                    if u != t {
                        let (p, _) = out(u)
                            .into_iter()
                            .find(|(_, v)| !up(u, *v) && down.get(v) == Some(&(dd - 1)))
                            .expect("a down path has a next hop");
                        egress.insert((u, t), p);
                    }
                } else if let Some((p, l)) = out(u)
                    .into_iter()
                    .filter(|(_, v)| up(u, *v))
                    .filter_map(|(p, v)| len.get(&v).map(|l| (p, *l)))
                    .min_by_key(|(p, l)| (*l, *p))
                {
                    len.insert(u, l + 1);
                    egress.insert((u, t), p);
                }
            }
        }
        RouteTables {
            dies,
            egress,
            level,
            far,
        }
    }

    /// The register writes that program die `die`'s route table (the route-table block of
    /// `csrs/`): (die-local address, value) for every other die of the system, in destination
    /// order. Entries of destinations outside the system stay invalid (their reset value), so a
    /// request for a die the system does not have is answered DECERR.
    pub fn csr_writes(&self, die: DieId, l: &xdie_csr::Views) -> Vec<(u64, u32)> {
        self.dies
            .iter()
            .filter_map(|&t| {
                let port = *self.egress.get(&(die, t))?;
                Some((
                    l.route_reg(t.chip, t.die),
                    l.route.entry_value(u64::from(port)),
                ))
            })
            .collect()
    }

    /// The dies a packet from `s` to `t` visits, `s` first, following the tables (None if the
    /// tables loop or stop early: a bug the tests look for).
    pub fn path(&self, s: DieId, t: DieId) -> Option<Vec<DieId>> {
        let mut p = vec![s];
        let mut at = s;
        while at != t {
            let port = *self.egress.get(&(at, t))?;
            at = *self.far.get(&PortId { die: at, port })?;
            p.push(at);
            if p.len() > self.dies.len() {
                return None;
            }
        }
        Some(p)
    }

    /// The channels (egress ports) of the path from `s` to `t`.
    pub fn channels(&self, s: DieId, t: DieId) -> Option<Vec<PortId>> {
        let p = self.path(s, t)?;
        Some(
            p.windows(2)
                .map(|w| PortId {
                    die: w[0],
                    port: self.egress[&(w[0], t)],
                })
                .collect(),
        )
    }

    /// Shortest path lengths in the link graph from `s` (no routing rule).
    pub fn distances(&self, s: DieId) -> BTreeMap<DieId, u32> {
        let mut d = BTreeMap::from([(s, 0u32)]);
        let mut q = VecDeque::from([s]);
        while let Some(u) = q.pop_front() {
            for (_, v) in self.far.range(
                PortId { die: u, port: 0 }..=PortId {
                    die: u,
                    port: u32::MAX,
                },
            ) {
                if !d.contains_key(v) {
                    d.insert(*v, d[&u] + 1);
                    q.push_back(*v);
                }
            }
        }
        d
    }

    /// (pairs, pairs on a shortest path of the link graph, extra hops over all pairs, worst
    /// extra hops of one pair).
    pub fn stretch(&self) -> (usize, usize, u64, u32) {
        let (mut pairs, mut minimal, mut extra, mut worst) = (0, 0, 0u64, 0u32);
        for &s in &self.dies {
            let d = self.distances(s);
            for &t in &self.dies {
                if s == t {
                    continue;
                }
                pairs += 1;
                let hops = self.path(s, t).map_or(u32::MAX, |p| p.len() as u32 - 1);
                let x = hops.saturating_sub(d[&t]);
                if x == 0 {
                    minimal += 1;
                }
                extra += u64::from(x);
                worst = worst.max(x);
            }
        }
        (pairs, minimal, extra, worst)
    }

    /// The channel dependency graph of every request path, every response path, and each
    /// request's hand-over to its response at the target.
    pub fn dependencies(&self) -> BTreeMap<Channel, BTreeSet<Channel>> {
        let mut g: BTreeMap<Channel, BTreeSet<Channel>> = BTreeMap::new();
        for &s in &self.dies {
            for &t in &self.dies {
                if s == t {
                    continue;
                }
                let (Some(req), Some(rsp)) = (self.channels(s, t), self.channels(t, s)) else {
                    continue;
                };
                for (net, path) in [(Net::Request, &req), (Net::Response, &rsp)] {
                    for w in path.windows(2) {
                        g.entry((net, w[0])).or_default().insert((net, w[1]));
                    }
                    for c in path {
                        g.entry((net, *c)).or_default();
                    }
                }
                if let (Some(last), Some(first)) = (req.last(), rsp.first()) {
                    g.entry((Net::Request, *last))
                        .or_default()
                        .insert((Net::Response, *first));
                }
            }
        }
        g
    }

    /// A cycle of the channel dependency graph, if there is one (Kahn's algorithm; what is left
    /// when no channel without predecessors remains lies on or behind a cycle).
    pub fn dependency_cycle(&self) -> Option<Vec<Channel>> {
        let g = self.dependencies();
        let mut indeg: BTreeMap<Channel, usize> = g.keys().map(|c| (*c, 0)).collect();
        for succ in g.values() {
            for c in succ {
                *indeg.entry(*c).or_default() += 1;
            }
        }
        let mut q: VecDeque<Channel> = indeg
            .iter()
            .filter(|(_, n)| **n == 0)
            .map(|(c, _)| *c)
            .collect();
        let mut done = 0;
        while let Some(c) = q.pop_front() {
            done += 1;
            for s in g.get(&c).into_iter().flatten() {
                let n = indeg.get_mut(s).expect("indexed");
                *n -= 1;
                if *n == 0 {
                    q.push_back(*s);
                }
            }
        }
        (done < indeg.len()).then(|| {
            indeg
                .into_iter()
                .filter(|(_, n)| *n > 0)
                .map(|(c, _)| c)
                .collect()
        })
    }
}
