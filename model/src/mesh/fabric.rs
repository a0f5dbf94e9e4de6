//! A store's trip through a chip-id system hop by hop, as the RTL makes it: at each die the
//! decoder of the address (docs/mesh.md: the chip-id view), then for a request that leaves the
//! die the route table's entry (valid bit, egress port), the port's link (the die's `LINKED`
//! mask), the U-turn rule (never back out of the port it came in on) and the port's iATU
//! outbound translation (a miss or a translation past the routed address is answered DECERR by
//! the port), then the die at the link's far end. The tables and iATU regions are state, as the
//! registers are: [`Fabric::new`] holds what a driver programs (`RouteTables::csr_writes` and
//! one identity region per linked port), and a test can change an entry or a region to compare
//! the model's verdicts with the RTL's.

use super::routes::RouteTables;
use super::Mesh;
use crate::inbound::InboundWindows;
use crate::route::ports_per_die;
use crate::topology::{AddrView, DieId, PortId};
use crate::Layout;
use std::collections::BTreeMap;

/// One route-table entry: VALID and PORT.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub valid: bool,
    pub port: u32,
}

/// One iATU outbound region of a port: `[base, limit]` translates to `addr - base + target`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    pub enabled: bool,
    pub base: u64,
    pub limit: u64,
    pub target: u64,
}

/// Where a store ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Delivery {
    /// It lands at die-local `local` of `die` after crossing `hops` links.
    Delivered { die: DieId, local: u64, hops: u32 },
    /// Die `at` answers it DECERR (the response travels back to the issuer).
    DecErr { at: DieId, why: String },
}

/// The programmable routing state of a chip-id system.
#[derive(Debug, Clone)]
pub struct Fabric {
    pub view: AddrView,
    /// Every die, topology order.
    pub dies: Vec<DieId>,
    /// The far end of every linked port.
    pub far: BTreeMap<PortId, PortId>,
    /// Route-table entries per die, by destination; an absent entry is invalid (its reset).
    pub entries: BTreeMap<DieId, BTreeMap<DieId, Entry>>,
    /// iATU outbound regions per port (region order: the first hit translates).
    pub iatu: BTreeMap<PortId, Vec<Region>>,
    /// Inbound permission windows per die; a die not listed has the reset windows.
    pub inbound: BTreeMap<DieId, InboundWindows>,
}

impl Fabric {
    /// The fabric of `mesh` as the driver programs it: the tables of `tables` and one identity
    /// region over the routed address space on every linked port.
    pub fn new(mesh: &Mesh, tables: &RouteTables, l: &Layout) -> Fabric {
        let far: BTreeMap<PortId, PortId> = mesh
            .port_links()
            .into_iter()
            .map(|(p, (f, _))| (p, f))
            .collect();
        let mut entries: BTreeMap<DieId, BTreeMap<DieId, Entry>> = BTreeMap::new();
        for (&(die, dest), &port) in &tables.egress {
            entries
                .entry(die)
                .or_default()
                .insert(dest, Entry { valid: true, port });
        }
        let identity = Region {
            enabled: true,
            base: 0,
            limit: l.soc.address.mask(),
            target: 0,
        };
        let iatu = far.keys().map(|&p| (p, vec![identity])).collect();
        Fabric {
            view: mesh.view,
            dies: mesh.dies(),
            far,
            entries,
            iatu,
            inbound: BTreeMap::new(),
        }
    }

    /// Sets (Some) or invalidates (None) the entry of `dest` in `die`'s table.
    pub fn set_entry(&mut self, die: DieId, dest: DieId, port: Option<u32>) {
        let e = self.entries.entry(die).or_default();
        match port {
            Some(port) => {
                e.insert(dest, Entry { valid: true, port });
            }
            None => {
                e.remove(&dest);
            }
        }
    }

    /// Where a store of SoC address `addr`, issued by a master of die `from`, ends. Only the
    /// chip-id view is modelled here (the neighbor view's paths are `Topology::route`'s).
    pub fn deliver(&self, l: &Layout, from: DieId, addr: u64) -> Delivery {
        self.deliver_access(l, from, addr, true)
    }

    /// As [`Fabric::deliver`], for a read (`write` false) or a store: a request that arrived
    /// over a link (not one of the die's own masters) lands only where an inbound window of the
    /// landing die grants it.
    pub fn deliver_access(&self, l: &Layout, from: DieId, addr: u64, write: bool) -> Delivery {
        assert_eq!(
            self.view,
            AddrView::ChipId,
            "the fabric models the chip-id view"
        );
        let soc = &l.soc;
        let lv = &soc.local;
        let mut at = from;
        let mut addr = addr;
        // The port the request arrived on at `at` (None at the issuer).
        let mut came_in: Option<u32> = None;
        let mut hops = 0u32;
        let decerr = |at: DieId, why: String| Delivery::DecErr { at, why };
        loop {
            let a = addr as u128;
            if addr & !soc.address.mask() != 0 {
                return decerr(at, "bits above the SoC address width".into());
            }
            let overlay = lv.cayman_id.get(a) as u64;
            let valid = lv.cayman_id_valid.get(a) != 0;
            if !valid && overlay != 0 {
                return decerr(at, "routing bits set without the id-valid bit".into());
            }
            let dest = DieId {
                chip: if valid { overlay } else { at.chip },
                die: lv.die.get(a) as u64,
            };
            if dest == at {
                let local = lv.local.get(a) as u64;
                if hops > 0 {
                    let granted = match self.inbound.get(&at) {
                        Some(w) => w.permits(local, write),
                        None => InboundWindows::reset(l).permits(local, write),
                    };
                    if !granted {
                        return decerr(
                            at,
                            format!("no inbound window grants {local:#x} (permission)"),
                        );
                    }
                }
                return if in_aperture(l, local) {
                    Delivery::Delivered {
                        die: at,
                        local,
                        hops,
                    }
                } else {
                    decerr(at, format!("{local:#x} is in no aperture instance"))
                };
            }
            let Some(e) = self.entries.get(&at).and_then(|t| t.get(&dest)) else {
                return decerr(at, format!("no valid route-table entry for {dest}"));
            };
            if e.port >= ports_per_die(l) {
                return decerr(at, format!("entry for {dest} names port {}", e.port));
            }
            let out = PortId {
                die: at,
                port: e.port,
            };
            let Some(&far) = self.far.get(&out) else {
                return decerr(at, format!("port {} has no link", e.port));
            };
            if came_in == Some(e.port) {
                return decerr(
                    at,
                    format!(
                        "entry for {dest} sends it back out of port {} (U-turn)",
                        e.port
                    ),
                );
            }
            let hit = self.iatu.get(&out).and_then(|rs| {
                rs.iter()
                    .find(|r| r.enabled && r.base <= addr && addr <= r.limit)
            });
            let Some(r) = hit else {
                return decerr(
                    at,
                    format!("no iATU region of port {} holds {addr:#x}", e.port),
                );
            };
            let next = addr.wrapping_sub(r.base).wrapping_add(r.target);
            if next & !soc.address.mask() != 0 {
                return decerr(
                    at,
                    format!("port {} translates past the routed address", e.port),
                );
            }
            addr = next;
            at = far.die;
            came_in = Some(far.port);
            hops += 1;
            if hops as usize > 2 * self.dies.len() {
                // The RTL would pass it around forever; no legal table does this.
                return decerr(at, "the tables send it around a loop".into());
            }
        }
    }
}

/// Whether die-local `local` lies inside one instance of one aperture of the die map (the
/// decoder's local decode; a gap between two instances of a strided aperture is in none).
pub fn in_aperture(l: &Layout, local: u64) -> bool {
    xdie_csr::ApertureId::ALL.iter().any(|&id| {
        let ap = l.apertures.get(id);
        (0..ap.count).any(|i| {
            let b = ap.instance_base(i);
            local >= b && local - b < ap.size
        })
    })
}
