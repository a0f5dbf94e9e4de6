//! `xdie route` from the outside: the JSON tables of a shipped topology agree with the model's
//! (every die has a port for every other die, the path each table walk takes ends at the
//! destination, the dependency check passes), and a bad topology exits 2 naming file and line.

mod common;

use common::*;
use serde_json::Value;
use std::collections::BTreeMap;

#[test]
fn ring_tables_reach_every_die() {
    let o = run(xdie()
        .current_dir(repo())
        .args(["route", "--json", "topologies/ring4.yaml"]));
    assert!(o.status.success(), "{}", stderr(&o));
    let r: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(r["acyclic"], Value::Bool(true));
    assert_eq!(r["view"], "chip_id");
    let dies = r["dies"].as_array().expect("dies");
    // Table walk: (chip, die) -> port, and the link ends from the model's mesh.
    let csrs = xdie_csr::load(&repo().join("csrs")).expect("csrs");
    let l = xdie_model::Layout::new(&csrs);
    let m = xdie_model::mesh::load(&repo().join("topologies/ring4.yaml"), &l).expect("ring4");
    let far = m.topology().links;
    let mut table = BTreeMap::new();
    for d in dies {
        let (c, di) = (
            d["chip"].as_u64().expect("chip"),
            d["die"].as_u64().expect("die"),
        );
        let routes = d["routes"].as_array().expect("routes");
        assert_eq!(routes.len(), dies.len() - 1);
        for t in routes {
            let key = (
                c,
                di,
                t["chip"].as_u64().expect("chip"),
                t["die"].as_u64().expect("die"),
            );
            table.insert(key, t["port"].as_u64().expect("port") as u32);
        }
    }
    for &(c, d, tc, td) in table.keys() {
        let (mut at, mut n) = (xdie_model::DieId { chip: c, die: d }, 0);
        while (at.chip, at.die) != (tc, td) {
            let port = table[&(at.chip, at.die, tc, td)];
            at = far[&xdie_model::PortId { die: at, port }].die;
            n += 1;
            assert!(n <= dies.len(), "table walk loops");
        }
    }
}

#[test]
fn bad_topology_exits_2_with_file_and_line() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("route_cli");
    std::fs::create_dir_all(&dir).expect("dir");
    let f = dir.join("bad.yaml");
    std::fs::write(
        &f,
        "view: chip_id\npackages:\n  - {name: a, cayman_id: 1}\nlinks:\n  - {a: a.0.0, b: a.7.0}\n",
    )
    .expect("write");
    let o = run(xdie().current_dir(repo()).arg("route").arg(&f));
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let e = stderr(&o);
    assert!(e.contains("bad.yaml:5: key `links[0].b`"), "{e}");
}
