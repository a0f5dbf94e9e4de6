//! `xdie fold`: compute a routed SoC address from the folds in csrs/, or decode one.

use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct FoldArgs {
    /// Directory of the CSR descriptions.
    #[arg(long, default_value = "csrs")]
    csrs: PathBuf,
    /// Die-local destination address (hex).
    #[arg(long, value_parser = parse_hex)]
    local: Option<u64>,
    /// Destination die.
    #[arg(long)]
    die: Option<u64>,
    /// Use the neighbor fold (other die of this package).
    #[arg(long, conflicts_with = "chip_id")]
    neighbor: bool,
    /// Use the chip-id fold with this package id (hex).
    #[arg(long, value_parser = parse_hex)]
    chip_id: Option<u64>,
    /// Decode a routed address (hex) in both views.
    #[arg(long, value_parser = parse_hex, conflicts_with_all = ["local", "neighbor", "chip_id"])]
    decode: Option<u64>,
}

fn parse_hex(s: &str) -> Result<u64, String> {
    let t = s
        .trim_start_matches("0x")
        .trim_start_matches("0X")
        .replace('_', "");
    u64::from_str_radix(&t, 16).map_err(|e| format!("`{s}` is not a hex number: {e}"))
}

pub fn run(a: &FoldArgs) -> ExitCode {
    let csrs = match xdie_csr::load(&a.csrs) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let soc = &csrs.soc;
    if let Some(addr) = a.decode {
        if addr & !soc.mask() != 0 {
            eprintln!(
                "error: {addr:#x} has bits above the {}-bit SoC address",
                soc.width
            );
            return ExitCode::from(2);
        }
        for view in &soc.views {
            println!("{} view:", view.name);
            for f in &view.fields {
                println!(
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
    let (Some(local), Some(die)) = (a.local, a.die) else {
        eprintln!(
            "error: give --local HEX --die N with --neighbor or --chip-id HEX, or --decode HEX"
        );
        return ExitCode::from(2);
    };
    let folds = &csrs.views.soc;
    let (fold, args) = match (a.neighbor, a.chip_id) {
        (true, None) => (&folds.fold_neighbor, vec![local, die]),
        (false, Some(chip)) => (&folds.fold_chip_id, vec![local, die, chip]),
        _ => {
            eprintln!("error: give exactly one of --neighbor and --chip-id HEX");
            return ExitCode::from(2);
        }
    };
    // Refuse arguments that do not fit their fields instead of silently truncating them.
    for (arg, value) in fold.args.iter().zip(&args) {
        for step in fold
            .steps
            .iter()
            .filter(|s| s.source == xdie_csr::FoldSource::Arg(arg.clone()))
        {
            if (*value as u128) > step.field.value_mask() {
                eprintln!(
                    "error: {arg} = {value:#x} does not fit the {}-bit field {}",
                    step.field.width, step.field.name
                );
                return ExitCode::from(2);
            }
        }
    }
    let routed = soc.apply_fold(fold, &args);
    for step in &fold.steps {
        println!(
            "  {:<16} [{:>2}:{:<2}] = {:#x}",
            step.field.name,
            step.field.msb(),
            step.field.lsb,
            step.field.get(routed as u128)
        );
    }
    println!("{routed:#x}");
    ExitCode::SUCCESS
}
