//! The address view is a property of the system: in a chip-id system every CAYMAN_ID and both
//! dies are reachable from every die; in a neighbor system the sibling die and the packages one
//! C2C link away (from this die or its sibling) are, and nothing else. Each fold is routed back
//! hop by hop and must land where it was aimed.

use xdie_model::{AddrView, DieId, PortId, Topology};

fn csrs() -> xdie_csr::Csrs {
    xdie_csr::load(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../csrs"))
        .expect("csrs/ loads")
}

#[test]
fn chip_id_system_reaches_every_chip_id_and_die() {
    let csrs = csrs();
    let l = xdie_model::Layout::new(&csrs);
    let n = l.soc.local.cayman_id.value_mask() as u64 + 1;
    let chips: Vec<u64> = (0..n).collect();
    let topo = Topology::packages(&chips).with_view(AddrView::ChipId);
    let local = l.sbuf_addr(0, 3, 0x40);
    let dies = topo.dies(l.soc.dies_per_package());
    assert_eq!(dies.len() as u64, 2 * n);
    for from in [dies[0], dies[dies.len() - 1], DieId { chip: 0x12, die: 0 }] {
        for &to in &dies {
            let a = topo.fold(&l, from, to, local).expect("fold");
            assert_eq!(
                topo.route(&l, from, a).expect("route"),
                (to, local),
                "{from} -> {to}"
            );
        }
    }
}

#[test]
fn neighbor_system_reaches_sibling_and_linked_packages_only() {
    let csrs = csrs();
    let l = xdie_model::Layout::new(&csrs);
    // Three packages in a line: 0x12 die 1 port 1 <-> 0x13 die 0 port 1; 0x13 die 1 port 2 <->
    // 0x14 die 0 port 2.
    let mut topo = Topology::packages(&[0x12, 0x13, 0x14]).with_view(AddrView::Neighbor);
    let mut link = |a: (u64, u64, u32), b: (u64, u64, u32)| {
        let pa = PortId {
            die: DieId {
                chip: a.0,
                die: a.1,
            },
            port: a.2,
        };
        let pb = PortId {
            die: DieId {
                chip: b.0,
                die: b.1,
            },
            port: b.2,
        };
        topo.links.insert(pa, pb);
        topo.links.insert(pb, pa);
    };
    link((0x12, 1, 1), (0x13, 0, 1));
    link((0x13, 1, 2), (0x14, 0, 2));
    let local = l.sbuf_addr(0, 0, 0x100);
    let d = |chip, die| DieId { chip, die };
    let n = &l.soc.neighbor;
    // The worked example: the sibling through fold_neighbor.
    let a = topo
        .fold(&l, d(0x12, 0), d(0x12, 1), local)
        .expect("sibling");
    assert_eq!(a, l.soc.fold_neighbor(local, 1));
    // One hop (die 1 leaves through port 1) and two hops (die 0 crosses first).
    for (from, exit_die) in [(d(0x12, 1), 0), (d(0x12, 0), 1)] {
        for to in [d(0x13, 0), d(0x13, 1)] {
            let a = topo.fold(&l, from, to, local).expect("linked package");
            assert_eq!(n.exit_die.get(a as u128), exit_die, "{from} -> {to}");
            assert_eq!(n.exit_seng.get(a as u128), 1);
            assert_eq!(topo.route(&l, from, a).expect("route"), (to, local));
        }
    }
    // Two packages away: not expressible.
    let e = topo.fold(&l, d(0x12, 0), d(0x14, 0), local).unwrap_err();
    assert!(
        matches!(e, xdie_model::ModelError::Unroutable { .. }),
        "{e}"
    );
    // A chip-id fold is not a neighbor address: NEIGHBOR_ROUTE clear is refused, set is a path.
    let chip_fold = l.soc.fold_chip_id(local, 0, 0x3);
    assert!(topo.route(&l, d(0x12, 0), chip_fold).is_err());
}

/// A scenario names its view; a cross-package leg in a neighbor system with no link between the
/// packages is refused at the leg's `rx`, with the line.
#[test]
fn scenario_view_is_the_systems() {
    let csrs = csrs();
    let text = "packages: [0x1, 0x2]\nview: neighbor\nlegs:\n  - name: x\n    tx: {chip: 0x1, core: 0}\n    rx: {chip: 0x2, core: 2}\n    dma_engine_mask: 0b1\n    partitions: 1\n    free_dim_bytes: 0x40\n    src_addr: 0x0\n    dst_addr: 0x0\n    local_sem: 1\n    remote_sem: 2\n    go_sem: 0\n    queue: 0\n";
    let path = std::path::Path::new("v.yaml");
    let sc = xdie_model::Scenario::parse(path, text).expect("parses");
    assert_eq!(sc.topology().view, AddrView::Neighbor);
    let e = sc.run_model(&csrs, 1).err().expect("refused");
    assert_eq!(e.at.key, "legs[0].rx", "{e}");
    assert_eq!(e.at.line, Some(6), "{e}");
    // The same leg in a chip-id system runs.
    let sc = xdie_model::Scenario::parse(path, &text.replace("view: neighbor", "view: chip_id"))
        .expect("parses");
    sc.run_model(&csrs, 1).expect("runs");
}
