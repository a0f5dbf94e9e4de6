//! `rtl/xdie.f`: every SystemVerilog file in compile order: generated packages first, then the
//! hand-written packages `rtl/core/core.f` lists, then the generated modules in render order,
//! then the hand-written modules (they import the packages and instantiate the generated blocks). Paths are relative
//! to the repository root, so a user passes it to any tool from there with `-f rtl/xdie.f`.

use super::OutFile;

/// Folder of the hand-written SystemVerilog and its filelist, relative to the repository root.
pub const CORE_DIR: &str = "rtl/core";
/// The one compile-order list of both folders.
pub const FILELIST: &str = "rtl/xdie.f";
/// The lint configuration every Verilator run passes (hand-written, beside the filelist).
pub const LINT_CONFIG: &str = "rtl/lint.vlt";

/// `rtl/core/core.f`: the hand-written files in compile order, relative to `rtl/core/`, one per
/// line, `//` comments (a Verilator `-F` filelist). Compiled in, so rendering stays pure: it
/// needs no repository on disk, and a changed list rebuilds the generator.
const CORE_F: &str = include_str!("../../../rtl/core/core.f");

pub fn render(files: &[OutFile]) -> OutFile {
    let mut sv: Vec<&OutFile> = files
        .iter()
        .filter(|f| f.path.extension().is_some_and(|e| e == "sv"))
        .collect();
    // Packages must be compiled before the modules that import them. Stable sort keeps the
    // render order otherwise.
    sv.sort_by_key(|f| !f.path.to_string_lossy().ends_with("_pkg.sv"));
    // Hand-written packages (types the generated wrapper tops use too) follow the generated
    // packages, before every module; the hand-written modules come last.
    let is_pkg = |p: &str| p.ends_with("_pkg.sv");
    let (gen_pkgs, gen_mods): (Vec<&OutFile>, Vec<&OutFile>) = sv
        .into_iter()
        .partition(|f| is_pkg(&f.path.to_string_lossy()));
    let (hand_pkgs, hand_mods): (Vec<String>, Vec<String>) = handwritten().partition(|p| is_pkg(p));
    let mut text = format!("// {}\n", super::DO_NOT_EDIT);
    for f in gen_pkgs {
        text.push_str(&format!("{}\n", f.path.display()));
    }
    for path in hand_pkgs {
        text.push_str(&path);
        text.push('\n');
    }
    for f in gen_mods {
        text.push_str(&format!("{}\n", f.path.display()));
    }
    for path in hand_mods {
        text.push_str(&path);
        text.push('\n');
    }
    OutFile::new(FILELIST, text)
}

/// Hand-written RTL files in compile order, relative to the repository root.
pub fn handwritten() -> impl Iterator<Item = String> {
    CORE_F
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .map(|l| format!("{CORE_DIR}/{l}"))
}
