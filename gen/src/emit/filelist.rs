//! `rtl/xdie.f`: every SystemVerilog file in compile order: generated packages first, then the
//! generated modules in render order, then the hand-written datapath files listed in
//! `templates/rtl_handwritten.f` (they import the generated packages and instantiate the
//! generated blocks). Paths are relative to the repository root, so a user passes it to any
//! tool from there with `-f rtl/xdie.f`.

use super::OutFile;

/// The hand-written files, one path per line (comments start with `#`).
const HANDWRITTEN: &str = include_str!("../../templates/rtl_handwritten.f");

pub fn render(files: &[OutFile]) -> OutFile {
    let mut sv: Vec<&OutFile> = files
        .iter()
        .filter(|f| f.path.extension().is_some_and(|e| e == "sv"))
        .collect();
    // Packages must be compiled before the modules that import them. Stable sort keeps the
    // render order otherwise.
    sv.sort_by_key(|f| !f.path.to_string_lossy().ends_with("_pkg.sv"));
    let mut text = format!("// {}\n", super::DO_NOT_EDIT);
    for f in sv {
        text.push_str(&format!("{}\n", f.path.display()));
    }
    for line in handwritten() {
        text.push_str(line);
        text.push('\n');
    }
    OutFile::new("rtl/xdie.f", text)
}

/// Hand-written RTL files in compile order.
pub fn handwritten() -> impl Iterator<Item = &'static str> {
    HANDWRITTEN
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}
