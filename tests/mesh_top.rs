//! Mesh tops (`rtl/gen/xdie_mesh_<topology>.sv`, rendered by `xdie gen` from topologies/): each
//! holds one die per die of the topology with its identity and linked ports and one link per
//! link (compared with the model's loaded topology, not with numbers written here), and the
//! systems the testbench can simulate lint clean under the project's one lint configuration.

mod common;

use common::*;
use std::process::Command;

fn topologies() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(repo().join("topologies"))
        .expect("topologies/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .map(|p| p.file_stem().expect("stem").to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn every_mesh_top_follows_its_topology() {
    let csrs = xdie_csr::load(&repo().join("csrs")).expect("csrs");
    let l = xdie_model::Layout::new(&csrs);
    let chip_w = l.soc.local.cayman_id.width;
    for name in topologies() {
        let m = xdie_model::mesh::load(&repo().join(format!("topologies/{name}.yaml")), &l)
            .expect("loads");
        // The module (and file) name: the file stem with anything but letters and digits as `_`.
        let stem = name.replace(|c: char| !c.is_ascii_alphanumeric(), "_");
        let text = std::fs::read_to_string(repo().join(format!("rtl/gen/xdie_mesh_{stem}.sv")))
            .unwrap_or_else(|e| panic!("mesh top of {name}: {e}; run `xdie gen`"));
        let dies = m.dies();
        assert!(text.contains(&format!("localparam int unsigned N     = {},", dies.len())));
        assert_eq!(
            text.matches("xdie_d2d_link #(").count(),
            m.links.len(),
            "{name}: links"
        );
        // Die identities, die 0 last in the concatenation.
        let chips: Vec<String> = dies
            .iter()
            .rev()
            .map(|d| format!("{chip_w}'h{:x}", d.chip))
            .collect();
        assert!(
            text.contains(&format!("CHIP = {{{}}};", chips.join(", "))),
            "{name}: chip ids"
        );
        let view = match m.view {
            xdie_model::AddrView::ChipId => "VIEW_CHIP_ID",
            xdie_model::AddrView::Neighbor => "VIEW_NEIGHBOR",
        };
        assert!(
            text.contains(&format!("xdie_soc_addr_pkg::{view};")),
            "{name}: view"
        );
    }
}

/// Verilator lint of the mesh tops small enough to simulate (mesh64's 128 dies are the model's).
#[test]
fn mesh_tops_lint_clean() {
    for name in ["package", "ring4"] {
        let top = format!("xdie_mesh_{name}");
        let o = Command::new("verilator")
            .current_dir(repo())
            .args(["--lint-only", "-Wall", "rtl/lint.vlt", "-f", "rtl/xdie.f"])
            .arg(format!("rtl/gen/{top}.sv"))
            .args(["--top-module", &top])
            .output()
            .expect("verilator on PATH");
        assert!(
            o.status.success(),
            "{top}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}
