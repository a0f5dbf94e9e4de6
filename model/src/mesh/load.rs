//! Reads and checks a topology file. Every error names the file, the key path and its line
//! (the CSR loader's location machinery, `xdie_csr::locate`); unknown keys are refused.

use super::{Link, Mesh, Package};
use crate::layout::Layout;
use crate::topology::{AddrView, DieId, PortId, SIBLING_PORT};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt;
use std::path::Path;
use xdie_csr::locate::LineIndex;
use xdie_csr::Location;

/// The classes of bad topology. Each has its own test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MeshErrorKind {
    /// The file could not be read.
    Io,
    /// Not YAML, an unknown key, a missing key or a value of the wrong type.
    Syntax,
    /// A name or CAYMAN_ID used twice, a port linked twice.
    Duplicate,
    /// A link end names no package, die or port; a value out of its range.
    BadValue,
    /// The links break a rule of the system: a package without its sibling link, a die that
    /// cannot be reached, a neighbor system whose sibling link is not on port 0.
    BadTopology,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MeshError {
    pub kind: MeshErrorKind,
    pub at: Location,
    pub message: String,
}

impl fmt::Display for MeshError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

impl std::error::Error for MeshError {}

type Result<T> = std::result::Result<T, Box<MeshError>>;

/// Most packages of a topology: a scenario's limit (`crate::scenario::MAX_PACKAGES`), since the
/// model keeps every die's state and the route tables are per pair of dies.
pub const MAX_TOPOLOGY_PACKAGES: usize = crate::scenario::MAX_PACKAGES;
/// Most links of a topology (every port of every die linked, at the largest CSR sizes, is far
/// fewer for the shipped die).
pub const MAX_LINKS: usize = 4096;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMesh {
    #[serde(default)]
    description: String,
    view: AddrView,
    /// Defaults of every link.
    #[serde(default)]
    link: RawLinkParams,
    packages: Vec<RawPackage>,
    links: Vec<RawLink>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLinkParams {
    latency: Option<u64>,
    width: Option<u64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPackage {
    name: String,
    cayman_id: u64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLink {
    /// `PACKAGE.DIE.PORT`
    a: String,
    b: String,
    latency: Option<u64>,
    width: Option<u64>,
}

struct Ctx<'a> {
    path: &'a Path,
    index: LineIndex,
}

impl Ctx<'_> {
    fn err(&self, kind: MeshErrorKind, key: String, message: String) -> Box<MeshError> {
        Box::new(MeshError {
            kind,
            at: Location {
                file: self.path.to_path_buf(),
                line: self.index.line_of(&key),
                key,
            },
            message,
        })
    }
}

/// Reads and checks the topology at `path` against the die of `layout` (CAYMAN_ID width, dies
/// per package, C2C ports per die, link defaults).
pub fn load(path: &Path, layout: &Layout) -> Result<Mesh> {
    // Bounded like a CSR file or a scenario: size, UTF-8 (with the line of a bad byte).
    let text = xdie_csr::limits::read_text(path).map_err(|e| {
        Box::new(MeshError {
            kind: MeshErrorKind::Io,
            at: Location {
                file: path.to_path_buf(),
                key: String::new(),
                line: e.line,
            },
            message: e.message,
        })
    })?;
    parse(path, &text, layout)
}

/// Parses and checks topology text; `path` names it in errors.
pub fn parse(path: &Path, text: &str, layout: &Layout) -> Result<Mesh> {
    let syntax = |key: String, line: Option<usize>, message: String| {
        Box::new(MeshError {
            kind: MeshErrorKind::Syntax,
            at: Location {
                file: path.to_path_buf(),
                key,
                line,
            },
            message,
        })
    };
    // Nesting is bounded before the parser recurses; a repeated key is blamed at its second
    // line before serde keeps one of the two silently.
    xdie_csr::limits::check_depth(text).map_err(|e| syntax(String::new(), e.line, e.message))?;
    let index = LineIndex::new(text);
    if let Some(d) = index.duplicate() {
        return Err(syntax(d.key.clone(), Some(d.line), d.message()));
    }
    // Every error serde finds, each at its key and line (xdie_csr::locate).
    let raw: RawMesh = xdie_csr::locate::deserialize_all(text, &index).map_err(|errors| {
        Box::new(MeshError {
            kind: MeshErrorKind::Syntax,
            at: errors[0].at(path),
            message: xdie_csr::locate::joined_message(path, &errors),
        })
    })?;
    let cx = Ctx { path, index };
    // Sizes first, before anything is built per package or link (docs/limits.md).
    if raw.packages.len() > MAX_TOPOLOGY_PACKAGES {
        return Err(cx.err(
            MeshErrorKind::BadValue,
            "packages".into(),
            format!(
                "{} packages; a topology has at most {MAX_TOPOLOGY_PACKAGES}",
                raw.packages.len()
            ),
        ));
    }
    if raw.links.len() > MAX_LINKS {
        return Err(cx.err(
            MeshErrorKind::BadValue,
            "links".into(),
            format!(
                "{} links; a topology has at most {MAX_LINKS}",
                raw.links.len()
            ),
        ));
    }
    let dies = layout.soc.dies_per_package();
    let ports = crate::route::ports_per_die(layout);
    let chip_max = layout.soc.local.cayman_id.value_mask() as u64;
    let p = &layout.params;
    // The link's receive buffers (LINK_CREDITS) cover 2 * latency + 2 flits for one flit per
    // cycle (the CSR loader's rule); a longer link would run below its width.
    let max_latency = p.link_credits.saturating_sub(2) / 2;
    let check_link = |key: String, latency: u64, width: u64| -> Result<()> {
        if latency == 0 || latency > max_latency {
            return Err(cx.err(
                MeshErrorKind::BadValue,
                format!("{key}.latency"),
                format!(
                    "latency {latency} outside 1..={max_latency} (LINK_CREDITS {} covers 2 * \
                     latency + 2 flits)",
                    p.link_credits
                ),
            ));
        }
        if !width.is_power_of_two() || width > p.data_bytes {
            return Err(cx.err(
                MeshErrorKind::BadValue,
                format!("{key}.width"),
                format!(
                    "width {width} bytes per cycle: a power of two up to the {}-byte bus beat",
                    p.data_bytes
                ),
            ));
        }
        Ok(())
    };
    let latency = raw.link.latency.unwrap_or(p.link_latency);
    let width = raw.link.width.unwrap_or(p.data_bytes);
    check_link("link".into(), latency, width)?;

    let mut packages: Vec<Package> = Vec::new();
    for (i, rp) in raw.packages.into_iter().enumerate() {
        if let Some(why) = xdie_csr::ident::label_problem(&rp.name) {
            return Err(cx.err(
                MeshErrorKind::BadValue,
                format!("packages[{i}].name"),
                format!("bad package name: {why}"),
            ));
        }
        // Names that differ only by case or by `-`/`_` read as one in reports and link ends.
        let fold = |n: &str| n.to_ascii_lowercase().replace('-', "_");
        if let Some(j) = packages
            .iter()
            .position(|q| q.name != rp.name && fold(&q.name) == fold(&rp.name))
        {
            return Err(cx.err(
                MeshErrorKind::Duplicate,
                format!("packages[{i}].name"),
                format!(
                    "package name `{}` differs from `{}` (packages[{j}]) only by case or `-`/`_`: \
                     give names that differ otherwise",
                    rp.name, packages[j].name
                ),
            ));
        }
        if let Some(j) = packages.iter().position(|q| q.name == rp.name) {
            return Err(cx.err(
                MeshErrorKind::Duplicate,
                format!("packages[{i}].name"),
                format!(
                    "package name `{}` is used twice (first by packages[{j}])",
                    rp.name
                ),
            ));
        }
        if let Some(j) = packages.iter().position(|q| q.cayman_id == rp.cayman_id) {
            return Err(cx.err(
                MeshErrorKind::Duplicate,
                format!("packages[{i}].cayman_id"),
                format!(
                    "CAYMAN_ID {:#x} is used twice (first by packages[{j}])",
                    rp.cayman_id
                ),
            ));
        }
        if rp.cayman_id > chip_max {
            return Err(cx.err(
                MeshErrorKind::BadValue,
                format!("packages[{i}].cayman_id"),
                format!(
                    "CAYMAN_ID {:#x} does not fit the {}-bit field (0..={chip_max:#x})",
                    rp.cayman_id, layout.soc.local.cayman_id.width
                ),
            ));
        }
        packages.push(Package {
            name: rp.name,
            cayman_id: rp.cayman_id,
        });
    }
    if packages.is_empty() {
        return Err(cx.err(
            MeshErrorKind::BadTopology,
            "packages".into(),
            "a system has at least one package".into(),
        ));
    }

    let end = |key: String, s: &str| -> Result<PortId> {
        let parts: Vec<&str> = s.split('.').collect();
        let bad = |why: String| {
            cx.err(
                MeshErrorKind::BadValue,
                key.clone(),
                format!("`{s}`: {why} (a link end is PACKAGE.DIE.PORT)"),
            )
        };
        let [pkg, die, port] = parts[..] else {
            return Err(bad("not three dot-separated parts".into()));
        };
        let chip = packages
            .iter()
            .find(|q| q.name == pkg)
            .ok_or_else(|| bad(format!("no package is named `{pkg}`")))?
            .cayman_id;
        // The loader's number rule: `+1`, `0x+1` and empty digits are no die or port.
        let die: u64 = xdie_csr::limits::parse_number(die)
            .filter(|d| *d < dies)
            .ok_or_else(|| bad(format!("die `{die}` is not 0..{dies}")))?;
        let port: u32 = xdie_csr::limits::parse_number(port)
            .and_then(|p| u32::try_from(p).ok())
            .filter(|p| *p < ports)
            .ok_or_else(|| bad(format!("port `{port}` is not 0..{ports}")))?;
        Ok(PortId {
            die: DieId { chip, die },
            port,
        })
    };
    let mut links = Vec::new();
    let mut used: BTreeMap<PortId, usize> = BTreeMap::new();
    for (i, rl) in raw.links.iter().enumerate() {
        let a = end(format!("links[{i}].a"), &rl.a)?;
        let b = end(format!("links[{i}].b"), &rl.b)?;
        for (side, pt) in [("a", a), ("b", b)] {
            if let Some(j) = used.insert(pt, i) {
                return Err(cx.err(
                    MeshErrorKind::Duplicate,
                    format!("links[{i}].{side}"),
                    format!("{pt} is already linked by links[{j}]"),
                ));
            }
        }
        if a.die == b.die {
            return Err(cx.err(
                MeshErrorKind::BadTopology,
                format!("links[{i}]"),
                format!("both ends are on {}", a.die),
            ));
        }
        let l = Link {
            a,
            b,
            latency: rl.latency.unwrap_or(latency),
            width: rl.width.unwrap_or(width),
        };
        check_link(format!("links[{i}]"), l.latency, l.width)?;
        links.push(l);
    }
    // Every package has its sibling link; a neighbor system has it on port 0 of both dies,
    // because EXIT_SENG = 0 means "no package exit" there (docs/mesh.md).
    for (i, pk) in packages.iter().enumerate() {
        let sib: Vec<(usize, &Link)> = links
            .iter()
            .enumerate()
            .filter(|(_, l)| l.a.die.chip == pk.cayman_id && l.is_sibling())
            .collect();
        let Some(&(j, l)) = sib.first() else {
            return Err(cx.err(
                MeshErrorKind::BadTopology,
                format!("packages[{i}]"),
                format!(
                    "package `{}` has no sibling link (one of the C2C ports of each die joins \
                     the two dies of the package)",
                    pk.name
                ),
            ));
        };
        if sib.len() > 1 {
            return Err(cx.err(
                MeshErrorKind::BadTopology,
                format!("links[{}]", sib[1].0),
                format!("package `{}` has a second sibling link", pk.name),
            ));
        }
        if raw.view == AddrView::Neighbor && (l.a.port != SIBLING_PORT || l.b.port != SIBLING_PORT)
        {
            return Err(cx.err(
                MeshErrorKind::BadTopology,
                format!("links[{j}]"),
                format!(
                    "a neighbor system links the two dies of a package on port {SIBLING_PORT} \
                     (EXIT_SENG 0 means no package exit)"
                ),
            ));
        }
    }
    let mesh = Mesh {
        path: path.to_path_buf(),
        description: raw.description,
        view: raw.view,
        packages,
        dies_per_package: dies,
        ports_per_die: ports,
        links,
    };
    // Every die reaches every other (the links are bidirectional).
    let all = mesh.dies();
    let adj = mesh.port_links();
    let mut seen = BTreeSet::from([all[0]]);
    let mut q = VecDeque::from([all[0]]);
    while let Some(d) = q.pop_front() {
        for (far, _) in adj
            .range(
                PortId { die: d, port: 0 }..=PortId {
                    die: d,
                    port: u32::MAX,
                },
            )
            .map(|(_, v)| v)
        {
            if seen.insert(far.die) {
                q.push_back(far.die);
            }
        }
    }
    if let Some(d) = all.iter().find(|d| !seen.contains(d)) {
        return Err(cx.err(
            MeshErrorKind::BadTopology,
            "links".into(),
            format!(
                "die {} of package `{}` cannot be reached from die 0 of package `{}`",
                d.die,
                mesh.name_of(d.chip),
                mesh.packages[0].name
            ),
        ));
    }
    Ok(mesh)
}
