//! `xdie route TOPOLOGY`: the per-die route tables of a topology file (destination (CAYMAN_ID,
//! die) -> egress C2C port), the rule that makes them deadlock-free (up*/down*, docs/mesh.md),
//! how far the paths are from the shortest, and the computed channel dependency check.

use clap::Args;
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;
use xdie_model::mesh::routes::RouteTables;
use xdie_model::Layout;

#[derive(Args)]
pub struct RouteArgs {
    /// Topology file (topologies/*.yaml).
    topology: PathBuf,
    /// Directory of the CSR descriptions.
    #[arg(long, default_value = "csrs")]
    csrs: PathBuf,
    /// Print a JSON report instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(a: &RouteArgs) -> ExitCode {
    let csrs = match xdie_csr::load(&a.csrs) {
        Ok(c) => c,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let l = Layout::new(&csrs);
    let m = match xdie_model::mesh::load(&a.topology, &l) {
        Ok(m) => m,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let rt = RouteTables::compute(&m);
    let (pairs, minimal, extra, worst) = rt.stretch();
    let cycle = rt.dependency_cycle();
    let channels = rt.dependencies().len();
    let root = rt.dies[0];
    let hops = |s, t| rt.path(s, t).map_or(0, |p| p.len() - 1);
    if a.json {
        let dies: Vec<_> = rt
            .dies
            .iter()
            .map(|&d| {
                let routes: Vec<_> = rt
                    .dies
                    .iter()
                    .filter(|t| **t != d)
                    .map(|&t| {
                        json!({"chip": t.chip, "die": t.die, "port": rt.egress.get(&(d, t)),
                               "hops": hops(d, t)})
                    })
                    .collect();
                json!({"chip": d.chip, "die": d.die, "package": m.name_of(d.chip),
                       "level": rt.level.get(&d), "routes": routes})
            })
            .collect();
        let report = json!({
            "topology": a.topology.display().to_string(),
            "description": m.description,
            "view": m.view.name(),
            "rule": "up*/down*",
            "root": {"chip": root.chip, "die": root.die},
            "links": m.links.len(),
            "pairs": pairs,
            "minimal_pairs": minimal,
            "extra_hops": extra,
            "worst_extra_hops": worst,
            "channels": channels,
            "acyclic": cycle.is_none(),
            "dies": dies,
        });
        outln!("{report:#}");
    } else {
        outln!(
            "{} ({} view): {}, {} dies, {} links",
            crate::printable::path(&a.topology),
            m.view,
            crate::printable::text(&m.description),
            rt.dies.len(),
            m.links.len()
        );
        outln!(
            "rule: up*/down* from {root} (docs/mesh.md); requests and responses on separate \
             channels"
        );
        outln!(
            "paths: {pairs} pairs, {minimal} on a shortest path of the link graph, {extra} extra \
             hops in all, worst {worst}"
        );
        for &d in &rt.dies {
            outln!(
                "{d} ({}.{}, level {}):",
                m.name_of(d.chip),
                d.die,
                rt.level.get(&d).copied().unwrap_or(0)
            );
            for &t in rt.dies.iter().filter(|t| **t != d) {
                if let Some(p) = rt.egress.get(&(d, t)) {
                    outln!("  -> {t}: port {p} ({} hops)", hops(d, t));
                }
            }
        }
        match &cycle {
            None => outln!("channel dependency graph: {channels} channels, acyclic"),
            Some(c) => outln!(
                "channel dependency graph: {channels} channels, CYCLE through {} channels",
                c.len()
            ),
        }
    }
    if cycle.is_some() {
        errln!(
            "error: the route tables of {} can deadlock",
            crate::printable::path(&a.topology)
        );
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
