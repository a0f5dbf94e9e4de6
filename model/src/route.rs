//! Routed SoC addresses: the fold a sender applies, and the decode every die's fabric applies
//! (the same rule as the generated `xdie_addr_decoder`).

use crate::error::{ModelError, Result};
use crate::layout::Layout;
use crate::topology::DieId;

/// How the target of a write is reached from the die that issues it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Same die: LOCAL with DIE = this die, no routing bits.
    SameDie,
    /// Other die of the package: `fold_neighbor`.
    Neighbor,
    /// Another package: `fold_chip_id`.
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

impl Layout {
    /// Bit of the chip id that coincides with the neighbor view's NEIGHBOR_ROUTE bit, if any.
    fn chip_route_bit(&self) -> Option<u32> {
        let nr = self.soc.neighbor.neighbor_route.lsb;
        let c = &self.soc.local.cayman_id;
        (nr >= c.lsb && nr <= c.msb()).then(|| nr - c.lsb)
    }

    /// The SoC address die `from` puts on the bus to reach die-local `local` of die `to`.
    pub fn fold_for(&self, from: DieId, to: DieId, local: u64) -> Result<u64> {
        Ok(match reach(from, to) {
            Reach::SameDie => self.soc.soc_local(to.die, local),
            Reach::Neighbor => self.soc.fold_neighbor(local, to.die),
            Reach::ChipId => {
                if self
                    .chip_route_bit()
                    .is_some_and(|b| (to.chip >> b) & 1 == 1)
                    || to.chip > self.soc.local.cayman_id.value_mask() as u64
                {
                    return Err(ModelError::UnroutableChipId { chip: to.chip });
                }
                self.soc.fold_chip_id(local, to.die, to.chip)
            }
        })
    }

    /// Where a SoC address issued on die `from` lands: the target die and its die-local address.
    pub fn route(&self, from: DieId, addr: u64) -> Result<(DieId, u64)> {
        let a = addr as u128;
        let err = |why: &str| ModelError::Route {
            from,
            addr,
            why: why.into(),
        };
        let view = &self.soc.local;
        if addr & !self.soc.address.mask() != 0 {
            return Err(err("bits above the SoC address width"));
        }
        let local = view.local.get(a) as u64;
        let die = view.die.get(a) as u64;
        let chip = if view.cayman_id_valid.get(a) == 1 {
            if self.soc.neighbor.neighbor_route.get(a) == 1 {
                from.chip
            } else {
                view.cayman_id.get(a) as u64
            }
        } else if view.cayman_id.get(a) != 0 {
            return Err(err("routing bits set without the id-valid bit"));
        } else {
            from.chip
        };
        Ok((DieId { chip, die }, local))
    }
}
