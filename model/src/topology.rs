//! Packages, dies and cores.
//!
//! A core is named by its package's chip id and its physical core id inside the package. The die
//! of a core is one bit of its id: the host rule "the d2d peer of seng s is s ^ 2" (seed §7.2)
//! makes bit 1 the die bit, so cores 0, 1, 4, 5 sit on die 0 and 2, 3, 6, 7 on die 1 of an
//! eight-core package. The seed's example core 5 (die 0) and its peer 7 (die 1) follow.

use crate::error::{ModelError, Result};
use std::collections::BTreeMap;
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

/// How the routed addresses of a system name their target. The seed's two decoders
/// (`cayman_addr_decode.h`, `cayman_addr_decode_neighbor.h`, §2.2) share one include guard:
/// firmware compiles against one of them, so a system routes in one view and [53:48] is never
/// read as a chip id and as a route at once. The view is a property of the system (its topology),
/// not of an address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AddrView {
    /// The chip-id ("local") view: CAYMAN_ID names the target package, DIE its die. Every one
    /// of the 2^width chip ids is reachable.
    ChipId,
    /// The neighbor view: the overlay names a path from the issuing die (EXIT_DIE: cross to the
    /// sibling die; EXIT_SENG: leave through that C2C port), then DIE picks the die of the
    /// package reached. Only dies a few hops away are reachable.
    Neighbor,
}

impl AddrView {
    pub const ALL: [AddrView; 2] = [AddrView::ChipId, AddrView::Neighbor];

    /// The name used in topology files, scenarios and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            AddrView::ChipId => "chip_id",
            AddrView::Neighbor => "neighbor",
        }
    }

    pub fn parse(s: &str) -> Option<AddrView> {
        AddrView::ALL
            .into_iter()
            .find(|v| v.name() == s || v.name().replace('_', "-") == s)
    }
}

impl fmt::Display for AddrView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One end of a C2C link: a port (D2D controller) of a die.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PortId {
    pub die: DieId,
    pub port: u32,
}

impl fmt::Display for PortId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} port {}", self.die, self.port)
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
    /// The address view the system routes in.
    pub view: AddrView,
    /// C2C links, both directions: each connected port and the port at its other end.
    pub links: BTreeMap<PortId, PortId>,
}

/// The port of every die that reaches its sibling in the topologies `Topology::packages` builds
/// (a topology file may choose another in a chip-id system; a neighbor system needs this one,
/// see docs/mesh.md).
pub const SIBLING_PORT: u32 = 0;

impl Topology {
    /// One package of eight cores, die = core id bit 1 (seed §7.2).
    pub fn package(chip: u64) -> Topology {
        Topology::packages(&[chip])
    }

    /// Packages joined by nothing but their sibling links (port 0). One package routes in the
    /// neighbor view (the seed's worked example); several in the chip-id view, the only view in
    /// which packages with no link between them can still name each other. A topology file
    /// (`crate::mesh`) gives the links and the view explicitly.
    pub fn packages(chips: &[u64]) -> Topology {
        let view = if chips.len() == 1 {
            AddrView::Neighbor
        } else {
            AddrView::ChipId
        };
        let mut links = BTreeMap::new();
        for &chip in chips {
            let a = PortId {
                die: DieId { chip, die: 0 },
                port: SIBLING_PORT,
            };
            let b = PortId {
                die: DieId { chip, die: 1 },
                port: SIBLING_PORT,
            };
            links.insert(a, b);
            links.insert(b, a);
        }
        Topology {
            chips: chips.to_vec(),
            cores_per_package: 8,
            die_bit: 1,
            view,
            links,
        }
    }

    /// The same system routing in `view`.
    pub fn with_view(mut self, view: AddrView) -> Topology {
        self.view = view;
        self
    }

    pub fn die_of(&self, core: Core) -> DieId {
        DieId {
            chip: core.chip,
            die: (core.id >> self.die_bit) & 1,
        }
    }

    /// The index of `core` among the cores of its die (the instance of its SBUF, EVT_SEM and
    /// accumulate apertures): its id without the die bit.
    pub fn tpb_of(&self, core: Core) -> u64 {
        let low = core.id & ((1u64 << self.die_bit) - 1);
        let high = core.id >> (self.die_bit + 1);
        (high << self.die_bit) | low
    }

    /// The core with index `tpb` on `die` (the inverse of `die_of` and `tpb_of`).
    pub fn core_at(&self, die: DieId, tpb: u64) -> Core {
        let low = tpb & ((1u64 << self.die_bit) - 1);
        let high = tpb >> self.die_bit;
        Core {
            chip: die.chip,
            id: (high << (self.die_bit + 1)) | (die.die << self.die_bit) | low,
        }
    }

    pub fn check_core(&self, core: Core) -> Result<()> {
        if self.chips.contains(&core.chip) && core.id < self.cores_per_package {
            Ok(())
        } else {
            Err(ModelError::UnknownCore(core))
        }
    }

    pub fn has_die(&self, die: DieId, dies_per_package: u64) -> bool {
        self.chips.contains(&die.chip) && die.die < dies_per_package
    }

    /// Every die, packages in order.
    pub fn dies(&self, dies_per_package: u64) -> Vec<DieId> {
        self.chips
            .iter()
            .flat_map(|&chip| (0..dies_per_package).map(move |die| DieId { chip, die }))
            .collect()
    }

    /// The die at the other end of `port` of `die`, if that port is linked.
    pub fn far_end(&self, die: DieId, port: u32) -> Option<PortId> {
        self.links.get(&PortId { die, port }).copied()
    }

    /// The port of `die` whose link reaches the other die of its package, if any.
    pub fn sibling_port(&self, die: DieId) -> Option<u32> {
        self.links
            .range(
                PortId { die, port: 0 }..=PortId {
                    die,
                    port: u32::MAX,
                },
            )
            .find(|(_, far)| far.die.chip == die.chip && far.die.die != die.die)
            .map(|(p, _)| p.port)
    }
}
