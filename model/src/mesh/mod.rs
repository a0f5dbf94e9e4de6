//! Systems of many packages: a topology description (`topologies/*.yaml`: packages with their
//! CAYMAN_IDs, two dies each, C2C ports per die, links die.port <-> die.port, the address view,
//! link latency and width), its loader with file/line/key errors ([`load`]), and the per-die
//! route tables computed from it ([`routes`]). docs/mesh.md says what is decided and why.

pub mod fabric;
mod load;
pub use load::parse;
pub mod routes;

pub use load::{MeshError, MeshErrorKind, MAX_LINKS, MAX_TOPOLOGY_PACKAGES};

use crate::topology::{AddrView, DieId, PortId, Topology};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// One package of the system.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Package {
    pub name: String,
    pub cayman_id: u64,
}

/// A C2C link between two ports, with its own latency and width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Link {
    pub a: PortId,
    pub b: PortId,
    /// Cycles a flit takes to cross.
    pub latency: u64,
    /// Bytes per cycle.
    pub width: u64,
}

impl Link {
    /// True when both ends are dies of one package.
    pub fn is_sibling(&self) -> bool {
        self.a.die.chip == self.b.die.chip
    }
}

/// A loaded, validated topology.
#[derive(Debug, Clone)]
pub struct Mesh {
    pub path: PathBuf,
    pub description: String,
    pub view: AddrView,
    pub packages: Vec<Package>,
    pub dies_per_package: u64,
    pub ports_per_die: u32,
    pub links: Vec<Link>,
}

impl Mesh {
    /// Every die, packages in file order.
    pub fn dies(&self) -> Vec<DieId> {
        self.packages
            .iter()
            .flat_map(|p| {
                (0..self.dies_per_package).map(move |die| DieId {
                    chip: p.cayman_id,
                    die,
                })
            })
            .collect()
    }

    /// The package name of a chip id (for messages).
    pub fn name_of(&self, chip: u64) -> &str {
        self.packages
            .iter()
            .find(|p| p.cayman_id == chip)
            .map_or("?", |p| p.name.as_str())
    }

    /// Each linked port and its link, both directions.
    pub fn port_links(&self) -> BTreeMap<PortId, (PortId, Link)> {
        let mut m = BTreeMap::new();
        for l in &self.links {
            m.insert(l.a, (l.b, *l));
            m.insert(l.b, (l.a, *l));
        }
        m
    }

    /// The golden model's view of this system (packages of eight cores, die = core id bit 1).
    pub fn topology(&self) -> Topology {
        let chips: Vec<u64> = self.packages.iter().map(|p| p.cayman_id).collect();
        let mut t = Topology::packages(&chips).with_view(self.view);
        t.links = self
            .port_links()
            .into_iter()
            .map(|(p, (far, _))| (p, far))
            .collect();
        t
    }
}

pub use load::load;
