//! Packages, dies and cores.
//!
//! A core is named by its package's chip id and its physical core id inside the package. The die
//! of a core is one bit of its id: the host rule "the d2d peer of seng s is s ^ 2" (seed §7.2)
//! makes bit 1 the die bit, so cores 0, 1, 4, 5 sit on die 0 and 2, 3, 6, 7 on die 1 of an
//! eight-core package. The seed's example core 5 (die 0) and its peer 7 (die 1) follow.

use crate::error::{ModelError, Result};
use std::fmt;

/// One die of one package.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DieId {
    pub chip: u64,
    pub die: u64,
}

impl fmt::Display for DieId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "chip {:#x} die {}", self.chip, self.die)
    }
}

/// A core: chip id of its package and its physical id inside the package.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Core {
    pub chip: u64,
    pub id: u64,
}

impl fmt::Display for Core {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "core {} of chip {:#x}", self.id, self.chip)
    }
}

/// The two Q7 contexts of a core.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    /// Even PRID: issues RX legs.
    Rx = 0,
    /// Odd PRID: issues TX legs.
    Tx = 1,
}

impl Core {
    /// PRID of one of this core's contexts: 2 * core id + lane.
    pub fn prid(&self, lane: Lane) -> u64 {
        2 * self.id + lane as u64
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topology {
    /// Chip ids of the packages, in mesh order.
    pub chips: Vec<u64>,
    pub cores_per_package: u64,
    /// Bit of the core id that names its die.
    pub die_bit: u32,
}

impl Topology {
    /// One package of eight cores, die = core id bit 1 (seed §7.2).
    pub fn package(chip: u64) -> Topology {
        Topology::packages(&[chip])
    }

    pub fn packages(chips: &[u64]) -> Topology {
        Topology {
            chips: chips.to_vec(),
            cores_per_package: 8,
            die_bit: 1,
        }
    }

    pub fn die_of(&self, core: Core) -> DieId {
        DieId {
            chip: core.chip,
            die: (core.id >> self.die_bit) & 1,
        }
    }

    pub fn check_core(&self, core: Core) -> Result<()> {
        if self.chips.contains(&core.chip) && core.id < self.cores_per_package {
            Ok(())
        } else {
            Err(ModelError::UnknownCore(core))
        }
    }

    /// Every die, packages in order.
    pub fn dies(&self, dies_per_package: u64) -> Vec<DieId> {
        self.chips
            .iter()
            .flat_map(|&chip| (0..dies_per_package).map(move |die| DieId { chip, die }))
            .collect()
    }
}
