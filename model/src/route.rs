//! Routed SoC addresses in the system's address view: the fold a sender applies, and where an
//! address lands, hop by hop (the rule the generated `xdie_addr_decoder` applies on every die
//! for the view it is built for; docs/mesh.md writes it down).

use crate::error::{ModelError, Result};
use crate::layout::Layout;
use crate::topology::{AddrView, DieId, Topology};

/// How the target of a write is reached from the die that issues it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Same die: LOCAL with DIE = this die, no routing bits.
    SameDie,
    /// Other die of the package: `fold_neighbor` in a neighbor system, `fold_chip_id` with the
    /// package's own chip id in a chip-id system.
    Neighbor,
    /// Another package: `fold_chip_id`, or a neighbor path (EXIT_DIE/EXIT_SENG).
    ChipId,
}

pub fn reach(from: DieId, to: DieId) -> Reach {
    if from.chip != to.chip {
        Reach::ChipId
    } else if from.die != to.die {
        Reach::Neighbor
    } else {
        Reach::SameDie
    }
}

/// C2C ports (D2D controllers) per die: the instances of the D2D aperture.
pub fn ports_per_die(l: &Layout) -> u32 {
    l.apertures.d2d.count as u32
}

/// Bits of the overlay ([53:48], the chip-id field's bits) the neighbor view leaves unnamed in
/// the typed view (PEB): xdie reserves them, an address with one set is refused.
pub(crate) fn reserved_overlay(l: &Layout) -> u128 {
    let n = &l.soc.neighbor;
    let c = &l.soc.local.cayman_id;
    let named = [&n.exit_seng, &n.exit_die, &n.neighbor_route]
        .iter()
        .fold(0u128, |m, f| m | (f.value_mask() << f.lsb));
    (c.value_mask() << c.lsb) & !named
}

impl Topology {
    /// The SoC address die `from` puts on the bus to reach die-local `local` of die `to`, in
    /// this system's view; refused when the view cannot name `to` from `from`.
    pub fn fold(&self, l: &Layout, from: DieId, to: DieId, local: u64) -> Result<u64> {
        let soc = &l.soc;
        let dies = soc.dies_per_package();
        let unroutable = |why: String| ModelError::Unroutable {
            from,
            to,
            view: self.view,
            why,
        };
        if !self.has_die(to, dies) {
            return Err(unroutable("the target die is not in the topology".into()));
        }
        if local > soc.local.local.value_mask() as u64 {
            return Err(unroutable(format!(
                "{local:#x} does not fit the {}-bit LOCAL field",
                soc.local.local.width
            )));
        }
        match (reach(from, to), self.view) {
            (Reach::SameDie, _) => Ok(soc.soc_local(to.die, local)),
            (_, AddrView::ChipId) => {
                if to.chip > soc.local.cayman_id.value_mask() as u64 {
                    return Err(unroutable(format!(
                        "chip id {:#x} does not fit the {}-bit CAYMAN_ID field",
                        to.chip, soc.local.cayman_id.width
                    )));
                }
                Ok(soc.fold_chip_id(local, to.die, to.chip))
            }
            (Reach::Neighbor, AddrView::Neighbor) => Ok(soc.fold_neighbor(local, to.die)),
            (_, AddrView::Neighbor) => self
                .neighbor_path(l, from, to)
                .map(|(exit_die, port)| {
                    let n = &soc.neighbor;
                    let a = soc.fold_neighbor(local, to.die) as u128;
                    let a = n.exit_die.set(a, u128::from(exit_die));
                    n.exit_seng.set(a, u128::from(port)) as u64
                })
                .ok_or_else(|| {
                    unroutable(
                        "no C2C port of this die or of its sibling leads to that package (the \
                         neighbor view names paths of at most one package hop)"
                            .into(),
                    )
                }),
        }
    }

    /// The shortest neighbor path to another package: (EXIT_DIE, EXIT_SENG port). Ports the
    /// EXIT_SENG field cannot name, and the sibling port, are not candidates.
    fn neighbor_path(&self, l: &Layout, from: DieId, to: DieId) -> Option<(bool, u32)> {
        let n = &l.soc.neighbor;
        let sibling = DieId {
            chip: from.chip,
            die: from.die ^ 1,
        };
        let mut best: Option<(u32, bool, u32)> = None;
        for exit_die in [false, true] {
            let exit = if exit_die { sibling } else { from };
            for port in 1..ports_per_die(l) {
                if u128::from(port) > n.exit_seng.value_mask() {
                    break;
                }
                let Some(far) = self.far_end(exit, port) else {
                    continue;
                };
                if far.die.chip != to.chip {
                    continue;
                }
                let hops = u32::from(exit_die) + 1 + u32::from(far.die.die != to.die);
                if best.is_none_or(|b| hops < b.0) {
                    best = Some((hops, exit_die, port));
                }
            }
        }
        best.map(|(_, e, p)| (e, p))
    }

    /// Where a SoC address issued on die `from` lands: the target die and its die-local
    /// address, following the address hop by hop as the decoders of this view would.
    pub fn route(&self, l: &Layout, from: DieId, addr: u64) -> Result<(DieId, u64)> {
        let a = addr as u128;
        let err = |why: String| ModelError::Route {
            from,
            addr,
            why: format!("{} view: {why}", self.view),
        };
        let soc = &l.soc;
        if addr & !soc.address.mask() != 0 {
            return Err(err("bits above the SoC address width".into()));
        }
        let (lv, nv) = (&soc.local, &soc.neighbor);
        let local = lv.local.get(a) as u64;
        let die = lv.die.get(a) as u64;
        let overlay = lv.cayman_id.get(a);
        let chip = if lv.cayman_id_valid.get(a) == 0 {
            if overlay != 0 {
                return Err(err("routing bits set without the id-valid bit".into()));
            }
            from.chip
        } else {
            match self.view {
                AddrView::ChipId => overlay as u64,
                AddrView::Neighbor => {
                    if nv.neighbor_route.get(a) == 0 {
                        return Err(err("id-valid set without NEIGHBOR_ROUTE".into()));
                    }
                    if a & reserved_overlay(l) != 0 {
                        return Err(err("a reserved overlay bit (PEB) is set".into()));
                    }
                    let mut at = from;
                    if nv.exit_die.get(a) == 1 {
                        let p = self
                            .sibling_port(at)
                            .ok_or_else(|| err(format!("{at} has no sibling link")))?;
                        at = self.far_end(at, p).map_or(at, |f| f.die);
                    }
                    let port = nv.exit_seng.get(a) as u32;
                    if port != 0 {
                        if port >= ports_per_die(l) {
                            return Err(err(format!(
                                "EXIT_SENG {port} names no C2C port (a die has {})",
                                ports_per_die(l)
                            )));
                        }
                        at = self
                            .far_end(at, port)
                            .ok_or_else(|| err(format!("port {port} of {at} is not linked")))?
                            .die;
                    }
                    at.chip
                }
            }
        };
        let to = DieId { chip, die };
        if !self.has_die(to, soc.dies_per_package()) {
            return Err(err(format!("{to} is not in the topology")));
        }
        Ok((to, local))
    }
}
