//! A store's trip through a system hop by hop, as the RTL makes it: at each die the decoder of
//! the address in the system's view (docs/mesh.md), then for a request that leaves the die its
//! egress port — in the chip-id view the route table's entry (valid bit, egress port), in the
//! neighbor view port 0 (the sibling link) for the other die and port EXIT_SENG for a package
//! exit —, the port's link (the die's `LINKED` mask), the U-turn rule (never back out of the port
//! it came in on) and the port's iATU outbound translation (a miss or a translation past the
//! routed address is answered DECERR by the port), then the die at the link's far end. The tables
//! and iATU regions are state, as the registers are: [`Fabric::new`] (chip-id view) and
//! [`Fabric::neighbor`] (neighbor view) hold what a driver programs, and a test can change an
//! entry or a region to compare the model's verdicts with the RTL's.

use super::routes::RouteTables;
use super::Mesh;
use crate::inbound::InboundWindows;
use crate::route::ports_per_die;
use crate::topology::{AddrView, DieId, PortId, Topology};
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

/// The programmable routing state of a system.
#[derive(Debug, Clone)]
pub struct Fabric {
    pub view: AddrView,
    /// Every die, topology order.
    pub dies: Vec<DieId>,
    /// The far end of every linked port.
    pub far: BTreeMap<PortId, PortId>,
    /// Route-table entries per die, by destination; an absent entry is invalid (its reset).
    /// The neighbor view reads no table (none are kept).
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

    /// The fabric of a neighbor-view system as the driver programs it: no route tables, and on
    /// every linked port the iATU regions of [`neighbor_regions`], which make each hop consume
    /// its field of the path.
    pub fn neighbor(t: &Topology, l: &Layout) -> Fabric {
        let iatu = t
            .links
            .keys()
            .map(|&p| (p, neighbor_regions(t, l, p)))
            .collect();
        Fabric {
            view: AddrView::Neighbor,
            dies: t.dies(l.soc.dies_per_package()),
            far: t.links.clone(),
            entries: BTreeMap::new(),
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

    /// Where a store of SoC address `addr`, issued by a master of die `from`, ends.
    pub fn deliver(&self, l: &Layout, from: DieId, addr: u64) -> Delivery {
        self.deliver_access(l, from, addr, true)
    }

    /// As [`Fabric::deliver`], for a read (`write` false) or a store: a request that arrived
    /// over a link (not one of the die's own masters) lands only where an inbound window of the
    /// landing die grants it.
    pub fn deliver_access(&self, l: &Layout, from: DieId, addr: u64, write: bool) -> Delivery {
        let soc = &l.soc;
        let lv = &soc.local;
        let mut at = from;
        let mut addr = addr;
        // The port the request arrived on at `at` (None at the issuer).
        let mut came_in: Option<u32> = None;
        let mut hops = 0u32;
        let decerr = |at: DieId, why: String| Delivery::DecErr { at, why };
        loop {
            if addr & !soc.address.mask() != 0 {
                return decerr(at, "bits above the SoC address width".into());
            }
            let port = match self.egress(l, at, addr) {
                Err(why) => return decerr(at, why),
                Ok(Some(port)) => port,
                Ok(None) => {
                    let local = lv.local.get(addr as u128) as u64;
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
            };
            if port >= ports_per_die(l) {
                return decerr(at, format!("egress port {port} is not a port of the die"));
            }
            let out = PortId { die: at, port };
            let Some(&far) = self.far.get(&out) else {
                return decerr(at, format!("port {port} has no link"));
            };
            if came_in == Some(port) {
                return decerr(
                    at,
                    format!("it would leave by port {port}, the one it came in on (U-turn)"),
                );
            }
            let hit = self.iatu.get(&out).and_then(|rs| {
                rs.iter()
                    .find(|r| r.enabled && r.base <= addr && addr <= r.limit)
            });
            let Some(r) = hit else {
                return decerr(at, format!("no iATU region of port {port} holds {addr:#x}"));
            };
            let next = addr.wrapping_sub(r.base).wrapping_add(r.target);
            if next & !soc.address.mask() != 0 {
                return decerr(
                    at,
                    format!("port {port} translates past the routed address"),
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

    /// The decoder of die `at` and its egress selection (docs/mesh.md, xdie_addr_decoder and
    /// xdie_die): `None` when `addr` decodes on `at` itself, else the port it leaves by; an
    /// error when the decoder or the chip-id view's route table refuses it.
    fn egress(&self, l: &Layout, at: DieId, addr: u64) -> Result<Option<u32>, String> {
        let (lv, nv) = (&l.soc.local, &l.soc.neighbor);
        let a = addr as u128;
        let overlay = lv.cayman_id.get(a) as u64;
        let die = lv.die.get(a) as u64;
        // The route of the DIE field alone: local, or the other die over the sibling port.
        let by_die = if die == at.die {
            None
        } else {
            Some(crate::topology::SIBLING_PORT)
        };
        if lv.cayman_id_valid.get(a) == 0 {
            if overlay != 0 {
                return Err("routing bits set without the id-valid bit".into());
            }
            if self.view == AddrView::Neighbor {
                return Ok(by_die);
            }
        }
        match self.view {
            AddrView::ChipId => {
                let dest = DieId {
                    chip: if lv.cayman_id_valid.get(a) != 0 {
                        overlay
                    } else {
                        at.chip
                    },
                    die,
                };
                if dest == at {
                    return Ok(None);
                }
                match self.entries.get(&at).and_then(|t| t.get(&dest)) {
                    Some(e) => Ok(Some(e.port)),
                    None => Err(format!("no valid route-table entry for {dest}")),
                }
            }
            AddrView::Neighbor => {
                if nv.neighbor_route.get(a) == 0 {
                    return Err("id-valid set without NEIGHBOR_ROUTE".into());
                }
                if a & crate::route::reserved_overlay(l) != 0 {
                    return Err("a reserved overlay bit (PEB) is set".into());
                }
                if nv.exit_die.get(a) != 0 {
                    return Ok(Some(crate::topology::SIBLING_PORT));
                }
                let seng = nv.exit_seng.get(a) as u32;
                if seng != 0 {
                    if seng >= ports_per_die(l) {
                        return Err(format!(
                            "EXIT_SENG {seng} names no C2C port (a die has {})",
                            ports_per_die(l)
                        ));
                    }
                    return Ok(Some(seng));
                }
                Ok(by_die)
            }
        }
    }
}

/// The iATU outbound regions the driver programs on linked port `port` of a neighbor-view
/// system, lowest (first to hit) first: each hop's translation removes the field of the path
/// that hop took (docs/mesh.md, "Neighbor view").
///
/// - The sibling port (port 0): region 0 takes the in-package form (`fold_neighbor` of the
///   other die) to that die's plain local address (the one region of the package top). In a
///   system of several packages two more: every address with EXIT_DIE set loses EXIT_DIE (the
///   first hop of the two- and three-hop forms: what is left is EXIT_SENG and DIE), and the
///   plain address of the other die (what is left after a package hop that arrived on the wrong
///   die) crosses unchanged.
/// - A package exit (port p > 0): every address with EXIT_SENG = p and EXIT_DIE clear becomes
///   the plain address DIE|LOCAL: the package reached decodes DIE alone.
///
/// An address outside these regions is answered DECERR by the port, on the RTL and in the model.
pub fn neighbor_regions(t: &Topology, l: &Layout, port: PortId) -> Vec<Region> {
    let soc = &l.soc;
    let (lv, nv) = (&soc.local, &soc.neighbor);
    let local_max = lv.local.value_mask() as u64;
    // The routed prefix: id-valid and NEIGHBOR_ROUTE set.
    let routed = nv.neighbor_route.set(nv.id_valid.set(0, 1), 1);
    // Every address of `prefix` with the bits below `field` free.
    let span = |prefix: u128, field: &xdie_csr::BitField| {
        let below = (1u128 << field.lsb) - 1;
        (prefix as u64, (prefix | below) as u64)
    };
    let region = |(base, limit): (u64, u64), target: u64| Region {
        enabled: true,
        base,
        limit,
        target,
    };
    let Some(far) = t.links.get(&port) else {
        return Vec::new();
    };
    if port.port == crate::topology::SIBLING_PORT {
        let peer = far.die.die;
        let mut rs = vec![region(
            (
                soc.fold_neighbor(0, peer),
                soc.fold_neighbor(local_max, peer),
            ),
            soc.soc_local(peer, 0),
        )];
        if t.chips.len() > 1 {
            let exit_die = nv.exit_die.set(routed, 1);
            rs.push(region(span(exit_die, &nv.exit_die), routed as u64));
            let plain = soc.soc_local(peer, 0);
            rs.push(region((plain, soc.soc_local(peer, local_max)), plain));
        }
        rs
    } else {
        let exit = nv.exit_seng.set(routed, u128::from(port.port));
        vec![region(span(exit, &nv.exit_seng), 0)]
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
