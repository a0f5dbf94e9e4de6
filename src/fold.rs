//! `xdie fold`: compute a routed SoC address in one address view, or decode one.
//!
//! A system routes in one view (seed §2.2; docs/mesh.md), so a fold names the view it is made
//! for (`--view`, default: the neighbor view of the single-package topology, the package top)
//! and a fold that view cannot express is refused: the chip-id fold in a neighbor system, the
//! neighbor fold in a chip-id system.

use crate::numbers;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use xdie_model::AddrView;

#[derive(Args)]
pub struct FoldArgs {
    /// Directory of the CSR descriptions.
    #[arg(long, default_value = "csrs")]
    csrs: PathBuf,
    /// Address view of the system: chip-id or neighbor (the single package's view when
    /// omitted; with --decode, both views are printed when omitted).
    #[arg(long, value_parser = parse_view)]
    view: Option<AddrView>,
    /// Die-local destination address (hex).
    #[arg(long, value_parser = numbers::hex)]
    local: Option<u64>,
    /// Destination die.
    #[arg(long, value_parser = numbers::number)]
    die: Option<u64>,
    /// Use the neighbor fold (other die of this package); neighbor view only.
    #[arg(long, conflicts_with = "chip_id")]
    neighbor: bool,
    /// Neighbor view: leave the package through this C2C port (EXIT_SENG) instead.
    #[arg(long, requires = "neighbor", value_parser = numbers::number)]
    exit_port: Option<u64>,
    /// Neighbor view: cross to the sibling die before leaving through --exit-port (EXIT_DIE).
    #[arg(long, requires = "exit_port")]
    exit_die: bool,
    /// Use the chip-id fold with this package id (hex); chip-id view only.
    #[arg(long, value_parser = numbers::hex)]
    chip_id: Option<u64>,
    /// Topology file: fold in its view from --from to --to (PACKAGE.DIE names), with the path
    /// its links allow.
    #[arg(long, requires_all = ["from", "to", "local"], conflicts_with_all = ["view", "die", "neighbor", "chip_id", "decode"])]
    topology: Option<PathBuf>,
    /// With --topology: the issuing die, PACKAGE.DIE.
    #[arg(long, requires = "topology")]
    from: Option<String>,
    /// With --topology: the target die, PACKAGE.DIE.
    #[arg(long, requires = "topology")]
    to: Option<String>,
    /// Decode a routed address (hex).
    #[arg(long, value_parser = numbers::hex, conflicts_with_all = ["local", "neighbor", "chip_id"])]
    decode: Option<u64>,
}

fn parse_view(s: &str) -> Result<AddrView, String> {
    AddrView::parse(s).ok_or_else(|| {
        format!(
            "`{s}` is no address view (one of: {})",
            AddrView::ALL.map(|v| v.name().replace('_', "-")).join(", ")
        )
    })
}

fn fail(msg: String) -> ExitCode {
    errln!("error: {msg}");
    ExitCode::from(2)
}

pub fn run(a: &FoldArgs) -> ExitCode {
    let csrs = match xdie_csr::load(&a.csrs) {
        Ok(c) => c,
        Err(e) => return fail(e.to_string()),
    };
    let soc = &csrs.soc;
    let sv = &csrs.views.soc;
    let csr_view = |v: AddrView| match v {
        AddrView::ChipId => &sv.local.name,
        AddrView::Neighbor => &sv.neighbor.name,
    };
    if let Some(addr) = a.decode {
        if addr & !soc.mask() != 0 {
            return fail(format!(
                "{addr:#x} has bits above the {}-bit SoC address",
                soc.width
            ));
        }
        for view in soc
            .views
            .iter()
            .filter(|v| a.view.is_none_or(|s| csr_view(s) == &v.name))
        {
            outln!("{} view:", view.name);
            for f in &view.fields {
                outln!(
                    "  {:<16} [{:>2}:{:<2}] = {:#x}",
                    f.name,
                    f.msb(),
                    f.lsb,
                    f.get(addr as u128)
                );
            }
        }
        return ExitCode::SUCCESS;
    }
    if let (Some(t), Some(from), Some(to), Some(local)) = (&a.topology, &a.from, &a.to, a.local) {
        return fold_in_topology(&csrs, t, from, to, local);
    }
    let (Some(local), Some(die)) = (a.local, a.die) else {
        return fail(
            "give --local HEX --die N with --neighbor or --chip-id HEX, or --decode HEX".into(),
        );
    };
    let view = a.view.unwrap_or(AddrView::Neighbor);
    let (fold, args) = match (a.neighbor, a.chip_id, view) {
        (true, None, AddrView::Neighbor) => (&sv.fold_neighbor, vec![local, die]),
        (false, Some(chip), AddrView::ChipId) => (&sv.fold_chip_id, vec![local, die, chip]),
        (true, None, AddrView::ChipId) => {
            return fail(
                "the chip-id view has no neighbor fold: its firmware reaches the other die of \
                 the package with --chip-id OWN_CHIP"
                    .into(),
            )
        }
        (false, Some(chip), AddrView::Neighbor) => {
            return fail(format!(
                "the neighbor view cannot name chip id {chip:#x}: its [{}:{}] is a route, not a \
                 chip id; use --view chip-id in a chip-id system, or --neighbor --exit-port P \
                 for the package behind port P",
                sv.local.cayman_id.msb(),
                sv.local.cayman_id.lsb
            ))
        }
        _ => return fail("give exactly one of --neighbor and --chip-id HEX".into()),
    };
    // Refuse arguments that do not fit their fields instead of silently truncating them.
    // `args` follows the order of the options that give them.
    let options = ["--local", "--die", "--chip-id"];
    for ((arg, value), option) in fold.args.iter().zip(&args).zip(options) {
        for step in fold
            .steps
            .iter()
            .filter(|s| s.source == xdie_csr::FoldSource::Arg(arg.clone()))
        {
            if (*value as u128) > step.field.value_mask() {
                return fail(format!(
                    "{option} {value:#x}: {arg} = {value:#x} does not fit the {}-bit field {}",
                    step.field.width, step.field.name
                ));
            }
        }
    }
    let mut routed = soc.apply_fold(fold, &args);
    let mut fields: Vec<&xdie_csr::BitField> = fold.steps.iter().map(|s| &s.field).collect();
    if let Some(port) = a.exit_port {
        // The off-package neighbor form (docs/mesh.md): port 0 is the sibling link, which
        // EXIT_DIE names; EXIT_SENG names ports 1.. of the exit die.
        let n = &sv.neighbor;
        let ports = csrs.views.apertures.d2d.count;
        if port == 0 || port >= ports || u128::from(port) > n.exit_seng.value_mask() {
            return fail(format!(
                "--exit-port {port}: a die has C2C ports 1..{} besides its sibling link (port 0)",
                ports - 1
            ));
        }
        let r = n.exit_die.set(routed as u128, u128::from(a.exit_die));
        routed = n.exit_seng.set(r, u128::from(port)) as u64;
        fields.extend([&n.exit_seng, &n.exit_die]);
        fields.sort_by_key(|f| f.lsb);
        fields.dedup_by_key(|f| f.lsb);
    }
    outln!("{} view:", csr_view(view));
    for f in fields {
        outln!(
            "  {:<16} [{:>2}:{:<2}] = {:#x}",
            f.name,
            f.msb(),
            f.lsb,
            f.get(routed as u128)
        );
    }
    outln!("{routed:#x}");
    ExitCode::SUCCESS
}

/// `--topology`: the fold the system's view gives from one die to another, checked by routing
/// it back hop by hop over the topology's links.
fn fold_in_topology(
    csrs: &xdie_csr::Csrs,
    path: &std::path::Path,
    from: &str,
    to: &str,
    local: u64,
) -> ExitCode {
    let l = xdie_model::Layout::new(csrs);
    let m = match xdie_model::mesh::load(path, &l) {
        Ok(m) => m,
        Err(e) => return fail(e.to_string()),
    };
    let die = |s: &str| -> Result<xdie_model::DieId, String> {
        let (pkg, d) = s
            .split_once('.')
            .ok_or_else(|| format!("`{s}` is not PACKAGE.DIE"))?;
        let chip = m
            .packages
            .iter()
            .find(|p| p.name == pkg)
            .ok_or_else(|| format!("{} has no package `{pkg}`", path.display()))?
            .cayman_id;
        let die = numbers::number(d)
            .ok()
            .filter(|d| *d < m.dies_per_package)
            .ok_or_else(|| {
                format!(
                    "`{d}` is not a die of a package (0..{})",
                    m.dies_per_package
                )
            })?;
        Ok(xdie_model::DieId { chip, die })
    };
    let (f, t) = match (die(from), die(to)) {
        (Ok(f), Ok(t)) => (f, t),
        (Err(e), _) | (_, Err(e)) => return fail(e),
    };
    let topo = m.topology();
    let routed = match topo.fold(&l, f, t, local) {
        Ok(a) => a,
        Err(e) => return fail(e.to_string()),
    };
    match topo.route(&l, f, routed) {
        Ok((at, _)) if at == t => {}
        other => {
            return fail(format!(
                "internal: {routed:#x} routes to {other:?}, not {t}"
            ))
        }
    }
    let sv = &csrs.views.soc;
    let fields: Vec<&xdie_csr::BitField> = match m.view {
        AddrView::ChipId => vec![
            &sv.local.local,
            &sv.local.die,
            &sv.local.cayman_id,
            &sv.local.cayman_id_valid,
        ],
        AddrView::Neighbor => vec![
            &sv.neighbor.local,
            &sv.neighbor.die,
            &sv.neighbor.exit_seng,
            &sv.neighbor.exit_die,
            &sv.neighbor.neighbor_route,
            &sv.neighbor.id_valid,
        ],
    };
    outln!("{} view: {f} -> {t}", m.view);
    for x in fields {
        outln!(
            "  {:<16} [{:>2}:{:<2}] = {:#x}",
            x.name,
            x.msb(),
            x.lsb,
            x.get(routed as u128)
        );
    }
    outln!("{routed:#x}");
    ExitCode::SUCCESS
}
