//! Mesh tops for `xdie gen`: every topology file in the `topologies/` folder beside the CSR
//! folder is loaded (and checked) by the golden model's mesh loader and rendered as
//! `rtl/gen/xdie_mesh_<name>.sv`. A CSR set without such a folder (a variant written elsewhere)
//! has no mesh tops. The tops are not in rtl/xdie.f (the die filelist): lint one with
//! `verilator --lint-only -Wall rtl/lint.vlt -f rtl/xdie.f rtl/gen/xdie_mesh_<name>.sv
//! --top-module xdie_mesh_<name>`.

use std::path::Path;
use xdie_csr::Csrs;
use xdie_gen::emit::sv_mesh::{render, MeshLink, MeshTop};
use xdie_gen::emit::OutFile;
use xdie_model::mesh::Mesh;
use xdie_model::topology::AddrView;
use xdie_model::Layout;

/// The plain description the emitter takes.
pub fn describe(m: &Mesh) -> MeshTop {
    let dies = m.dies();
    let index = |d| dies.iter().position(|x| *x == d).unwrap_or(usize::MAX);
    MeshTop {
        name: m
            .path
            .file_stem()
            .map_or_else(|| "mesh".into(), |s| s.to_string_lossy().into_owned()),
        source: format!(
            "topologies/{}",
            m.path
                .file_name()
                .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
        ),
        description: m.description.clone(),
        chip_id_view: m.view == AddrView::ChipId,
        dies: dies.iter().map(|d| (d.chip, d.die)).collect(),
        links: m
            .links
            .iter()
            .map(|l| MeshLink {
                a: (index(l.a.die), l.a.port),
                b: (index(l.b.die), l.b.port),
                latency: l.latency,
                width: l.width,
            })
            .collect(),
    }
}

/// Mesh tops of every `*.yaml` in `<csrs>/../topologies`, in file-name order.
pub fn render_beside(csrs_dir: &Path, csrs: &Csrs) -> Result<Vec<OutFile>, String> {
    let dir = match csrs_dir.parent() {
        Some(p) if p.as_os_str().is_empty() => Path::new(".").join("topologies"),
        Some(p) => p.join("topologies"),
        None => return Ok(Vec::new()),
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Ok(Vec::new());
    };
    let mut paths: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    paths.sort();
    let layout = Layout::new(csrs);
    let mut out = Vec::new();
    for p in paths {
        let mesh = xdie_model::mesh::load(&p, &layout).map_err(|e| e.to_string())?;
        out.push(render(csrs, &describe(&mesh)).map_err(|e| e.to_string())?);
    }
    Ok(out)
}
