//! Generated identifiers are CSR names joined with `_` and case-mapped (`XDIE_<BLOCK>_<REG>_
//! <FIELD>_LSB`, `<VIEW>_<FIELD>_WIDTH`, `xdie_<block>_pkg`), so two names that are each valid
//! and unique in their own scope can still meet once joined (register `q_cfg` and register
//! `cfg` of bundle `q`), or meet a name the generator writes itself (aperture `W` makes
//! `AP_W`). This module reads the names each output file declares (C macros and functions, SV
//! package constants and functions, SV modules and packages, output paths) and refuses a name
//! declared twice in one namespace, naming the CSR names it came from with file, key and line.
//!
//! Emitters say where a name comes from ([`Origin`]); names without an origin are the
//! generator's own.

use super::OutFile;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use xdie_csr::{Csrs, Error, ErrorKind};

/// The CSR name a generated identifier is made from: file and key path of that name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    pub file: PathBuf,
    pub key: String,
}

impl Origin {
    pub fn new(file: &Path, key: impl Into<String>) -> Self {
        Origin {
            file: file.to_path_buf(),
            key: key.into(),
        }
    }
}

/// The input file of kind `stem` (`address_map`, `soc_address`, `descriptors`, `ext_inst`) that
/// `csrs` was loaded from.
pub fn source(csrs: &Csrs, stem: &str) -> PathBuf {
    csrs.sources
        .iter()
        .find(|p| {
            p.file_stem().is_some_and(|s| s == stem)
                && p.parent()
                    .and_then(|d| d.file_name())
                    .is_none_or(|d| d != "blocks")
        })
        .cloned()
        .unwrap_or_else(|| PathBuf::from(stem))
}

/// Where the names of one namespace come from: every origin a name was made from, in the order
/// the emitter made them.
#[derive(Debug, Default)]
pub struct Origins(HashMap<String, Vec<Origin>>);

impl Origins {
    pub fn add(&mut self, name: impl Into<String>, origin: &Origin) {
        let v = self.0.entry(name.into()).or_default();
        if !v.contains(origin) {
            v.push(origin.clone());
        }
    }
    fn of(&self, name: &str) -> &[Origin] {
        self.0.get(name).map_or(&[], |v| v.as_slice())
    }
}

/// Refuse a name declared twice in `declared` (one namespace, `what` names it in the error).
pub fn unique(what: &str, declared: &[String], origins: &Origins) -> Result<(), Error> {
    let mut count: HashMap<&str, usize> = HashMap::new();
    for n in declared {
        *count.entry(n.as_str()).or_default() += 1;
    }
    let Some(name) = declared.iter().find(|n| count[n.as_str()] > 1) else {
        return Ok(());
    };
    let from = origins.of(name);
    let (blame, other) = match from {
        [] => {
            // Two names of the generator's own: a generator bug, not bad input.
            return Err(Error {
                kind: ErrorKind::DuplicateName,
                at: xdie_csr::Location {
                    file: PathBuf::from(what),
                    key: String::new(),
                    line: None,
                },
                message: format!("the generator declares `{name}` twice"),
            });
        }
        [only] => (only, None),
        [first, second, ..] => (second, Some(first)),
    };
    let at = xdie_csr::locate::locate(&blame.file, &blame.key);
    let also = match other {
        Some(o) => {
            let l = xdie_csr::locate::locate(&o.file, &o.key);
            format!("also made from the name at {l}")
        }
        None => "also a name the generator (or the hand-written RTL of rtl/core/) declares there"
            .to_string(),
    };
    Err(Error {
        kind: ErrorKind::DuplicateName,
        at,
        message: format!(
            "this name makes `{name}` in {what}, which is {also}: names joined with `_` and \
             case-mapped meet there; rename one"
        ),
    })
}

/// Identifier at the start of `s`.
fn word(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// Names a C header declares at file scope: macros and functions.
pub fn c_declared(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let l = line.trim_start();
        if let Some(rest) = l.strip_prefix("#define ") {
            out.push(word(rest.trim_start()).to_string());
        } else if l.starts_with("static inline ") {
            if let Some(open) = l.find('(') {
                let head = l[..open].trim_end();
                let start = head.rfind(' ').map_or(0, |i| i + 1);
                out.push(head[start..].to_string());
            }
        }
    }
    out
}

/// Names an SV package declares: constants, functions, types. One declaration per line.
pub fn sv_declared(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let l = line.trim_start();
        if l.starts_with("localparam ") {
            if let Some(eq) = l.find('=') {
                let head = l[..eq].trim_end();
                let start = head.rfind([' ', ']']).map_or(0, |i| i + 1);
                out.push(head[start..].to_string());
            }
        } else if l.starts_with("function ") {
            if let Some(open) = l.find('(') {
                let head = l[..open].trim_end();
                let start = head.rfind([' ', ']']).map_or(0, |i| i + 1);
                out.push(head[start..].to_string());
            }
        } else if l.starts_with("typedef ") {
            if let Some(semi) = l.rfind(';') {
                let head = l[..semi].trim_end();
                let start = head.rfind([' ', '}']).map_or(0, |i| i + 1);
                out.push(head[start..].to_string());
            }
        }
    }
    out
}

/// Modules and packages an SV file declares (the design's one global namespace).
pub fn sv_units(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim_start();
            l.strip_prefix("module ")
                .or_else(|| l.strip_prefix("package "))
                .map(|rest| word(rest.trim_start()).to_string())
        })
        .collect()
}

/// Modules of the hand-written RTL (rtl/core/), which share the generated RTL's namespace: one
/// per file of `rtl/core/core.f`, named as its file (a test checks that against rtl/core/).
pub fn hand_written_modules() -> Vec<String> {
    super::filelist::handwritten()
        .filter_map(|path| {
            let file = path.rsplit('/').next()?;
            file.strip_suffix(".sv").map(str::to_string)
        })
        .collect()
}

/// Where the names of every namespace come from: "files" (output paths), "units" (SV modules
/// and packages), "c" (both C headers), and each SV package by its path.
fn all_origins(csrs: &Csrs) -> HashMap<String, Origins> {
    let mut m: HashMap<String, Origins> = HashMap::new();
    m.insert("c".into(), super::c_header::origins(csrs));
    m.insert(
        format!("rtl/gen/{}.sv", super::sv_soc::PKG),
        super::sv_soc::origins(csrs),
    );
    m.insert(
        format!("rtl/gen/{}.sv", super::sv_desc::PKG),
        super::sv_desc::origins(csrs),
    );
    for b in &csrs.blocks {
        let pkg = super::sv_regpkg::package(b);
        let module = format!("xdie_{}", b.name);
        m.insert(
            format!("rtl/gen/{pkg}.sv"),
            super::sv_regpkg::consts_and_origins(b).1,
        );
        let at = Origin::new(&b.source, "Name");
        let units = m.entry("units".into()).or_default();
        units.add(pkg.clone(), &at);
        units.add(module.clone(), &at);
        let files = m.entry("files".into()).or_default();
        files.add(format!("rtl/gen/{pkg}.sv"), &at);
        files.add(format!("rtl/gen/{module}.sv"), &at);
    }
    m
}

/// Every namespace of the outputs: output paths, SV modules and packages (with the
/// hand-written modules), each SV package's names, and the C headers' names (one namespace:
/// firmware includes both); and each fold's arguments against the names its generated function
/// can see.
pub fn check(csrs: &Csrs, files: &[OutFile]) -> Result<(), Error> {
    let origins = all_origins(csrs);
    let none = Origins::default();
    let of = |scope: &str| origins.get(scope).unwrap_or(&none);
    let paths: Vec<String> = files.iter().map(|f| f.path.display().to_string()).collect();
    unique("the generated files", &paths, of("files"))?;
    let mut units = hand_written_modules();
    let mut c = Vec::new();
    let mut soc_pkg = Vec::new();
    let soc_path = format!("rtl/gen/{}.sv", super::sv_soc::PKG);
    for f in files {
        let path = f.path.display().to_string();
        match f.path.extension().and_then(|e| e.to_str()) {
            Some("sv") => {
                units.extend(sv_units(&f.contents));
                if f.contents.contains("\npackage ") {
                    let declared = sv_declared(&f.contents);
                    unique(&path, &declared, of(&path))?;
                    if path == soc_path {
                        soc_pkg = declared;
                    }
                }
            }
            Some("h") => c.extend(c_declared(&f.contents)),
            _ => {}
        }
    }
    unique(
        "the SystemVerilog modules and packages",
        &units,
        of("units"),
    )?;
    unique("the C headers", &c, of("c"))?;
    // A fold's arguments are parameters of a generated function in C and in SV: a parameter
    // named like a macro, a type or a local of the body breaks it, and in SV one named like a
    // function of the package hides the setter the body calls.
    let file = source(csrs, "soc_address");
    for (i, fold) in csrs.soc.folds.iter().enumerate() {
        for (j, arg) in fold.args.iter().enumerate() {
            let clash = if c.contains(arg) {
                Some("the C headers declare it".to_string())
            } else if super::c_header::FOLD_BODY_NAMES.contains(&arg.as_str()) {
                Some("the generated C fold function uses it".to_string())
            } else if soc_pkg.contains(arg) {
                Some(format!("{soc_path} declares it"))
            } else {
                None
            };
            if let Some(why) = clash {
                return Err(Error {
                    kind: ErrorKind::DuplicateName,
                    at: xdie_csr::locate::locate(&file, &format!("folds[{i}].args[{j}]")),
                    message: format!(
                        "fold argument `{arg}` becomes a parameter of the generated fold \
                         function `{}`, but {why}; rename it",
                        fold.name
                    ),
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_are_read() {
        assert_eq!(
            c_declared("#define XDIE_A 1u\n#define XDIE_B(i) (i)\nstatic inline uint64_t xdie_f(uint64_t a)\n"),
            ["XDIE_A", "XDIE_B", "xdie_f"]
        );
        assert_eq!(
            sv_declared(
                "  localparam logic [3:0] A_B = 4'h1;\n  localparam int unsigned C = 2;\n  function automatic logic [5:0] f_g(input x);\n  typedef logic [3:0] t_t;\n"
            ),
            ["A_B", "C", "f_g", "t_t"]
        );
        assert_eq!(
            sv_units("module xdie_a (\npackage xdie_b_pkg;\n"),
            ["xdie_a", "xdie_b_pkg"]
        );
    }
}
