//! `rtl/xdie.f`: every generated SystemVerilog file in compile order (packages first, then
//! modules in the order they were rendered), relative to the filelist's own directory so that a
//! user can pass it to any tool from the repository root with `-f rtl/xdie.f`.

use super::OutFile;

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
    OutFile::new("rtl/xdie.f", text)
}
