//! Topology files and route tables: every shipped topology loads; its tables reach every pair,
//! follow the up*/down* rule with the shortest paths that rule allows, and give an acyclic
//! channel dependency graph (requests, responses and the hand-over between them), computed from
//! the tables. Bad topology files are refused with the file, key and line.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};
use xdie_model::mesh::routes::RouteTables;
use xdie_model::mesh::{self, MeshErrorKind};
use xdie_model::{DieId, Layout};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn layout() -> Layout {
    Layout::new(&xdie_csr::load(&root().join("csrs")).expect("csrs/ loads"))
}

fn shipped() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("topologies"))
        .expect("topologies/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    v.sort();
    v
}

/// Shortest path length from `s` to `t` under the rule, found by a search over (die, may still
/// go up) states, independently of the table construction: up channels only before any down
/// channel, and a die with a down-only path to `t` must take a down channel.
fn rule_shortest(rt: &RouteTables, s: DieId, t: DieId) -> Option<u32> {
    let pos: BTreeMap<DieId, usize> = rt.dies.iter().enumerate().map(|(i, d)| (*d, i)).collect();
    let key = |d: &DieId| (rt.level[d], pos[d]);
    let mut adj: BTreeMap<DieId, Vec<DieId>> = BTreeMap::new();
    for (p, v) in &rt.far {
        adj.entry(p.die).or_default().push(*v);
    }
    let out = |u: DieId| -> Vec<DieId> { adj.get(&u).cloned().unwrap_or_default() };
    // Dies with a down-only path to t: closure backwards over down channels.
    let mut down_ok = BTreeSet::from([t]);
    loop {
        let add: Vec<DieId> = rt
            .dies
            .iter()
            .filter(|u| !down_ok.contains(u))
            .filter(|u| {
                out(**u)
                    .iter()
                    .any(|v| key(v) > key(u) && down_ok.contains(v))
            })
            .copied()
            .collect();
        if add.is_empty() {
            break;
        }
        down_ok.extend(add);
    }
    let mut seen = BTreeSet::from([(s, true)]);
    let mut q = VecDeque::from([(s, true, 0u32)]);
    while let Some((u, may_up, n)) = q.pop_front() {
        if u == t {
            return Some(n);
        }
        for v in out(u) {
            let is_up = key(&v) < key(&u);
            if is_up && (!may_up || down_ok.contains(&u)) {
                continue;
            }
            if !is_up && !down_ok.contains(&v) {
                continue;
            }
            if seen.insert((v, may_up && is_up)) {
                q.push_back((v, may_up && is_up, n + 1));
            }
        }
    }
    None
}

#[test]
fn shipped_topologies_route_every_pair_minimally_without_deadlock() {
    let l = layout();
    let files = shipped();
    assert!(files.len() >= 4, "{files:?}");
    for f in files {
        let m = mesh::load(&f, &l).unwrap_or_else(|e| panic!("{e}"));
        let rt = RouteTables::compute(&m);
        let pos: BTreeMap<DieId, usize> =
            rt.dies.iter().enumerate().map(|(i, d)| (*d, i)).collect();
        let key = |d: &DieId| (rt.level[d], pos[d]);
        for &s in &rt.dies {
            for &t in &rt.dies {
                let p = rt
                    .path(s, t)
                    .unwrap_or_else(|| panic!("{}: no route {s} -> {t}", f.display()));
                // Legal: never an up channel after a down channel.
                let ups: Vec<bool> = p.windows(2).map(|w| key(&w[1]) < key(&w[0])).collect();
                assert!(
                    !ups.windows(2).any(|w| !w[0] && w[1]),
                    "{}: {s} -> {t} turns down then up: {p:?}",
                    f.display()
                );
                assert_eq!(
                    Some(p.len() as u32 - 1),
                    rule_shortest(&rt, s, t),
                    "{}: {s} -> {t} is not the shortest path the rule allows",
                    f.display()
                );
            }
        }
        assert_eq!(
            rt.dependency_cycle(),
            None,
            "{}: channel dependency cycle",
            f.display()
        );
        // The model folds and routes every pair the view can name.
        let topo = m.topology();
        let local = l.sbuf_addr(0, 1, 0x20);
        for &s in &rt.dies {
            for &t in &rt.dies {
                // A chip-id system names every die; a neighbor system its sibling and the
                // packages one C2C link from it or its sibling (all of them in the shipped
                // neighbor topologies).
                let a = topo
                    .fold(&l, s, t, local)
                    .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
                assert_eq!(topo.route(&l, s, a).expect("route"), (t, local));
            }
        }
    }
}

/// The check can fail: routing every packet one way around the ring (each die forwards to the
/// next die of the ring) is a cycle of channel dependencies.
#[test]
fn one_way_ring_routing_has_a_dependency_cycle() {
    let l = layout();
    let m = mesh::load(&root().join("topologies/ring4.yaml"), &l).expect("ring4");
    let mut rt = RouteTables::compute(&m);
    let next = |d: DieId| -> u32 {
        // Die 0 crosses to its sibling; die 1 leaves for the next package.
        if d.die == 0 {
            0
        } else {
            1
        }
    };
    let dies = rt.dies.clone();
    for &u in &dies {
        for &t in &dies {
            if u != t {
                rt.egress.insert((u, t), next(u));
            }
        }
    }
    assert!(rt.path(dies[0], dies[dies.len() - 1]).is_some());
    assert!(rt.dependency_cycle().is_some());
}

fn bad(text: &str) -> Box<mesh::MeshError> {
    mesh::parse(Path::new("t.yaml"), text, &layout()).expect_err("refused")
}

const GOOD: &str = "view: chip_id\npackages:\n  - {name: a, cayman_id: 1}\n  - {name: b, cayman_id: 2}\nlinks:\n  - {a: a.0.0, b: a.1.0}\n  - {a: b.0.0, b: b.1.0}\n  - {a: a.1.1, b: b.0.1}\n";

#[test]
fn good_text_loads() {
    let m = mesh::parse(Path::new("t.yaml"), GOOD, &layout()).expect("loads");
    assert_eq!(m.dies().len(), 4);
    assert_eq!(m.links.len(), 3);
}

#[test]
fn bad_topologies_name_file_key_and_line() {
    let l = layout();
    let chip_max = l.soc.local.cayman_id.value_mask() as u64;
    let ports = xdie_model::route::ports_per_die(&l);
    let cases: Vec<(String, MeshErrorKind, &str, usize)> = vec![
        (
            GOOD.replace("view: chip_id", "view: chip_id\nspeed: 3"),
            MeshErrorKind::Syntax,
            "",
            2,
        ),
        (
            GOOD.replace("view: chip_id", "view: sideways"),
            MeshErrorKind::Syntax,
            "view",
            1,
        ),
        (
            GOOD.replace("cayman_id: 2", "cayman_id: 1"),
            MeshErrorKind::Duplicate,
            "packages[1].cayman_id",
            4,
        ),
        (
            GOOD.replace("cayman_id: 2", &format!("cayman_id: {}", chip_max + 1)),
            MeshErrorKind::BadValue,
            "packages[1].cayman_id",
            4,
        ),
        (
            GOOD.replace("a: a.1.1", "a: c.1.1"),
            MeshErrorKind::BadValue,
            "links[2].a",
            8,
        ),
        (
            GOOD.replace("b: b.0.1", &format!("b: b.0.{ports}")),
            MeshErrorKind::BadValue,
            "links[2].b",
            8,
        ),
        (
            GOOD.replace("b: b.0.1", "b: b.0.0"),
            MeshErrorKind::Duplicate,
            "links[2].b",
            8,
        ),
        (
            GOOD.replace("  - {a: b.0.0, b: b.1.0}\n", ""),
            MeshErrorKind::BadTopology,
            "packages[1]",
            4,
        ),
        (
            GOOD.replace("  - {a: a.1.1, b: b.0.1}\n", ""),
            MeshErrorKind::BadTopology,
            "links",
            5,
        ),
        (
            GOOD.replace("view: chip_id", "view: neighbor")
                .replace("a.0.0, b: a.1.0", "a.0.2, b: a.1.0"),
            MeshErrorKind::BadTopology,
            "links[0]",
            6,
        ),
        (
            GOOD.replace("b: b.0.1}", "b: b.0.1, latency: 0}"),
            MeshErrorKind::BadValue,
            "links[2].latency",
            8,
        ),
        // A repeated key is blamed at its second line, before serde keeps one copy.
        (
            GOOD.replace("view: chip_id\n", "view: chip_id\nview: neighbor\n"),
            MeshErrorKind::Syntax,
            "view",
            2,
        ),
        (
            GOOD.replace(
                "{name: b, cayman_id: 2}",
                "{name: b, cayman_id: 2, name: c}",
            ),
            MeshErrorKind::Syntax,
            "",
            4,
        ),
        // Nesting is bounded before the parser recurses.
        (
            GOOD.replace("view: chip_id", &format!("view: {}", "[".repeat(10_000))),
            MeshErrorKind::Syntax,
            "",
            1,
        ),
    ];
    for (text, kind, key, line) in cases {
        let e = bad(&text);
        assert_eq!(e.kind, kind, "{e}\n{text}");
        if !key.is_empty() {
            assert_eq!(e.at.key, key, "{e}");
        }
        assert_eq!(e.at.line, Some(line), "{e}");
        assert!(e.to_string().starts_with("t.yaml:"), "{e}");
    }
}

/// The driver's route-table writes hold, for every other die of the system, exactly the egress
/// port of the tables: decoded back from the register address (route aperture, entry stride)
/// and the VALID/PORT field positions of csrs/, and followed hop by hop they reach every target.
#[test]
fn route_table_writes_decode_back_to_the_tables() {
    let l = layout();
    let ap = &l.apertures.route;
    let bundle = &l.route.route;
    let dies_per_pkg = l.soc.dies_per_package();
    let field = |v: u32, f: &xdie_csr::Field| (u64::from(v) >> f.lsb) & ((1u64 << f.width) - 1);
    for path in shipped() {
        let m = mesh::load(&path, &l).expect("loads");
        let rt = RouteTables::compute(&m);
        // (die, destination) -> port, as the registers say
        let mut regs: BTreeMap<(DieId, DieId), u32> = BTreeMap::new();
        for &d in &rt.dies {
            for (addr, value) in rt.csr_writes(d, &l) {
                assert!(
                    addr >= ap.base && addr < ap.base + ap.size,
                    "{addr:#x} outside ROUTE"
                );
                let rel = addr - ap.base - bundle.offset - l.route.entry.offset;
                assert_eq!(rel % bundle.stride, 0, "{addr:#x} is not an entry");
                let idx = rel / bundle.stride;
                assert!(idx < bundle.count);
                let t = DieId {
                    chip: idx / dies_per_pkg,
                    die: idx % dies_per_pkg,
                };
                assert_eq!(
                    field(value, &l.route.valid),
                    1,
                    "{}: entry {t} of {d} not valid",
                    path.display()
                );
                let port = field(value, &l.route.port) as u32;
                assert!(
                    regs.insert((d, t), port).is_none(),
                    "entry {t} of {d} written twice"
                );
            }
        }
        let want: BTreeSet<(DieId, DieId)> = rt
            .dies
            .iter()
            .flat_map(|&s| {
                rt.dies
                    .iter()
                    .filter(move |&&t| t != s)
                    .map(move |&t| (s, t))
            })
            .collect();
        assert_eq!(
            regs.keys().copied().collect::<BTreeSet<_>>(),
            want,
            "{}",
            path.display()
        );
        // Hop by hop through the registers' ports and the links.
        for &(s, t) in &want {
            let mut at = s;
            let mut hops = 0;
            while at != t {
                let port = regs[&(at, t)];
                at = rt.far[&xdie_model::PortId { die: at, port }];
                hops += 1;
                assert!(
                    hops <= rt.dies.len(),
                    "{}: {s} -> {t} loops",
                    path.display()
                );
            }
        }
    }
}

/// The hop-by-hop fabric (route tables and iATU regions as the driver programs them) delivers a
/// store from every die to every die of each chip-id topology, over the tables' path, and
/// refuses what the RTL refuses: a destination whose entry is invalid, an entry naming a port
/// without a link, an entry that sends a forwarded store back out of the port it arrived on,
/// a port whose iATU region is off, routing bits without the id-valid bit.
#[test]
fn fabric_delivers_along_the_tables_and_refuses_what_the_rtl_refuses() {
    use xdie_model::mesh::fabric::{Delivery, Fabric};
    let l = layout();
    let soc = &l.soc;
    let local = l.sbuf_addr(0, 3, 0x80);
    for path in shipped() {
        let m = mesh::load(&path, &l).expect("loads");
        if m.view != xdie_model::AddrView::ChipId {
            continue;
        }
        let rt = RouteTables::compute(&m);
        let f = Fabric::new(&m, &rt, &l);
        for &s in &rt.dies {
            for &t in &rt.dies {
                let addr = soc.fold_chip_id(local, t.die, t.chip);
                let hops = rt.path(s, t).expect("a path").len() as u32 - 1;
                assert_eq!(
                    f.deliver(&l, s, addr),
                    Delivery::Delivered {
                        die: t,
                        local,
                        hops
                    },
                    "{}: {s} -> {t}",
                    path.display()
                );
            }
        }
        let refused = |f: &Fabric, s: DieId, addr: u64, what: &str| {
            assert!(
                matches!(f.deliver(&l, s, addr), Delivery::DecErr { .. }),
                "{}: {what}: {:?}",
                path.display(),
                f.deliver(&l, s, addr)
            );
        };
        let s = rt.dies[0];
        // A die two or more hops away, the next die on its path and the port it arrives on.
        let Some(&t) = rt
            .dies
            .iter()
            .find(|&&t| rt.path(s, t).is_some_and(|p| p.len() >= 3))
        else {
            continue;
        };
        let addr = soc.fold_chip_id(local, t.die, t.chip);
        let next = rt.path(s, t).expect("path")[1];
        let out = xdie_model::PortId {
            die: s,
            port: rt.egress[&(s, t)],
        };
        let arrived = m.port_links()[&out].0;
        let mut g = f.clone();
        g.set_entry(s, t, None);
        refused(&g, s, addr, "invalid entry");
        let unlinked = (0..m.ports_per_die).find(|&p| {
            !m.port_links()
                .contains_key(&xdie_model::PortId { die: s, port: p })
        });
        if let Some(p) = unlinked {
            let mut g = f.clone();
            g.set_entry(s, t, Some(p));
            refused(&g, s, addr, "unlinked port");
        }
        let mut g = f.clone();
        g.set_entry(next, t, Some(arrived.port));
        refused(&g, s, addr, "U-turn");
        let mut g = f.clone();
        g.iatu.get_mut(&out).expect("linked")[0].enabled = false;
        refused(&g, s, addr, "iATU region off");
        let bare = soc.soc_local(t.die, local) as u128;
        refused(
            &f,
            s,
            soc.local.cayman_id.set(bare, 1) as u64,
            "routing bits without id-valid",
        );
    }
}

/// The neighbor view, hop by hop (`Fabric::neighbor`): on pair-neighbor.yaml every die's fold of
/// every other die is delivered there after as many hops as the path form names (one, two or
/// three), and each hop's iATU region is the one that consumes its field. The package top's one
/// region refuses what its RTL refuses and the view's decoders alone would let through: the
/// EXIT_DIE form naming the issuing die, a package exit, and the plain address of the other die.
#[test]
fn neighbor_fabric_delivers_every_path_form_and_refuses_outside_the_regions() {
    use xdie_model::mesh::fabric::{Delivery, Fabric};
    let l = layout();
    let soc = &l.soc;
    let local = l.sbuf_addr(0, 2, 0x40);
    let m = mesh::load(&root().join("topologies/pair-neighbor.yaml"), &l).expect("loads");
    assert_eq!(m.view, xdie_model::AddrView::Neighbor);
    let t = m.topology();
    let f = Fabric::neighbor(&t, &l);
    let mut by_hops = BTreeSet::new();
    for s in m.dies() {
        for d in m.dies() {
            let addr = t
                .fold(&l, s, d, local)
                .expect("every die names every other");
            let hops = match f.deliver(&l, s, addr) {
                Delivery::Delivered {
                    die,
                    local: at,
                    hops,
                } => {
                    assert_eq!((die, at), (d, local), "{s} -> {d} ({addr:#x})");
                    hops
                }
                other => panic!("{s} -> {d} ({addr:#x}): {other:?}"),
            };
            // The path form's length: EXIT_DIE, a package exit, then DIE if it is not the die
            // the path arrived on.
            let nv = &soc.neighbor;
            let a = addr as u128;
            let want = if s == d {
                0
            } else if s.chip == d.chip {
                1
            } else {
                let exit_die = nv.exit_die.get(a) as u32;
                let exit = DieId {
                    chip: s.chip,
                    die: s.die ^ u64::from(exit_die),
                };
                let port = nv.exit_seng.get(a) as u32;
                let arrived = t.far_end(exit, port).expect("the exit is linked").die;
                exit_die + 1 + u32::from(arrived != d)
            };
            assert_eq!(hops, want, "{s} -> {d} ({addr:#x})");
            by_hops.insert(hops);
        }
    }
    assert_eq!(
        by_hops,
        BTreeSet::from([0, 1, 2, 3]),
        "pair-neighbor has every form"
    );
    // The package top (one package, neighbor view): the one region of port 0.
    let top = xdie_model::Topology::package(0x12);
    let f = Fabric::neighbor(&top, &l);
    for (p, rs) in &f.iatu {
        assert_eq!(rs.len(), 1, "{p:?}: the package top's one region");
    }
    for s in top.dies(soc.dies_per_package()) {
        let other = s.die ^ 1;
        let inside = soc.fold_neighbor(local, other);
        assert!(
            matches!(
                f.deliver(&l, s, inside),
                Delivery::Delivered { hops: 1, .. }
            ),
            "{s}: the in-package form"
        );
        let nv = &soc.neighbor;
        let outside = [
            (
                "EXIT_DIE naming the issuing die",
                soc.fold_neighbor(local, s.die),
                true,
            ),
            (
                "a package exit after EXIT_DIE",
                nv.exit_seng.set(inside as u128, 1) as u64,
                false,
            ),
            (
                "the plain address of the other die",
                soc.soc_local(other, local),
                true,
            ),
        ];
        for (what, addr, decoders_route_it) in outside {
            match f.deliver(&l, s, addr) {
                Delivery::DecErr { .. } => {}
                other => panic!("{s}: {what} ({addr:#x}): {other:?}"),
            }
            // The decoders alone name a die for most of them: only the iATU regions refuse it.
            assert_eq!(
                top.route(&l, s, addr).is_ok(),
                decoders_route_it,
                "{s}: {what}: the view's decoders alone"
            );
            // And the system (what the engines and host stores go through) refuses it too.
            let sys = xdie_model::System::new(
                &xdie_csr::load(&root().join("csrs")).expect("csrs"),
                top.clone(),
            )
            .expect("system");
            let err = sys.route(s, addr).expect_err(what);
            assert!(err.to_string().contains("DECERR"), "{what}: {err}");
        }
    }
}
