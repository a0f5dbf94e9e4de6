//! Issue 10, class 4 across names: CSR names that are valid and unique in their own scope can
//! still meet once the generator joins them (`<block>_<reg>_<field>`, upper- or lower-cased) or
//! meet a name the generator or the hand-written RTL declares. Each case is refused with exit 2
//! at the file, key and line of one of the two names, the error naming the other; `--out` is
//! left untouched. Cases are made by renaming names of the shipped csrs/ to what another name
//! joins to; the names come from the loaded model, not from literals.

mod common;

use common::*;
use std::path::Path;
use xdie_csr::{Csrs, Error, ErrorKind};
use xdie_gen::emit::{names, render_all, RenderError};

fn load(dir: &Path) -> Csrs {
    xdie_csr::load(dir).unwrap_or_else(|e| panic!("the edit itself must load: {e}"))
}

/// The error rendering `dir` gives; it must be a name collision.
fn collision(dir: &Path) -> Error {
    match render_all(&load(dir)) {
        Err(RenderError::Input(e)) => {
            assert_eq!(e.kind, ErrorKind::DuplicateName, "{e}");
            assert!(e.at.line.is_some(), "no line: {e}");
            e
        }
        Err(e) => panic!("not an input error: {e}"),
        Ok(_) => panic!("{}: rendered", dir.display()),
    }
}

/// The error blames (file, line) or names it as the other source.
fn blames(e: &Error, file: &Path, line: usize) -> bool {
    (e.at.file == file && e.at.line == Some(line))
        || e.message.contains(&format!("{}:{line}:", file.display()))
}

/// Rename block `old` to `new`: the map's reference, the file and its `Name`.
fn rename_block(csrs: &Path, old: &str, new: &str) -> (std::path::PathBuf, usize) {
    edit(
        &csrs.join("address_map.yaml"),
        &format!("block: {old}\n"),
        &format!("block: {new}\n"),
    );
    let from = csrs.join(format!("blocks/{old}.json"));
    let to = csrs.join(format!("blocks/{new}.json"));
    std::fs::rename(&from, &to).expect("rename block file");
    let line = edit(
        &to,
        &format!("\"Name\": \"{old}\""),
        &format!("\"Name\": \"{new}\""),
    );
    (to, line)
}

/// A block whose name nothing but the map refers to (no other block's file is named after it).
fn spare_block(c: &Csrs) -> String {
    c.blocks
        .iter()
        .find(|b| b.bcast().is_some())
        .expect("a broadcast block")
        .name
        .clone()
}

#[test]
fn a_register_named_like_a_bundle_register_joined() {
    let (_s, csrs) = csrs_copy("names-reg");
    let c = load(&csrs);
    let (b, bundle, top) = c
        .blocks
        .iter()
        .find_map(|b| {
            let bu = b.bundles.first()?;
            let top = b.registers.iter().find(|r| r.role.is_none())?;
            Some((b, bu, top))
        })
        .expect("a block with a bundle and a register without role");
    let joined = format!("{}_{}", bundle.name, bundle.registers[0].name);
    let line = edit(
        &b.source,
        &format!("\"Name\": \"{}\"", top.name),
        &format!("\"Name\": \"{joined}\""),
    );
    let e = collision(&csrs);
    assert!(blames(&e, &b.source, line), "{e}");
    assert!(e.to_string().contains("Bundles[0]"), "{e}");
}

#[test]
fn a_block_named_like_an_aperture_constant() {
    let (_s, csrs) = csrs_copy("names-block-ap");
    let c = load(&csrs);
    let ap = &c.map.apertures[0];
    let old = spare_block(&c);
    // XDIE_<BLOCK>_SIZE of block `ap_<aperture>` is the aperture's XDIE_AP_<APERTURE>_SIZE.
    let (file, line) = rename_block(&csrs, &old, &format!("ap_{}", ap.name.to_lowercase()));
    let e = collision(&csrs);
    assert!(blames(&e, &file, line), "{e}");
    assert!(e.to_string().contains("apertures[0].name"), "{e}");
    assert!(e.message.contains("C headers"), "{e}");
}

#[test]
fn a_block_named_like_a_hand_written_module_or_another_package() {
    for (i, new) in [
        names::hand_written_modules()[0]
            .strip_prefix("xdie_")
            .expect("prefix")
            .to_string(),
        "PKG".to_string(),
    ]
    .iter()
    .enumerate()
    {
        let (_s, csrs) = csrs_copy(&format!("names-module{i}"));
        let c = load(&csrs);
        let old = spare_block(&c);
        // The second case: `<other block>_pkg`, whose module file is the other's package file.
        let other = c.blocks.iter().find(|b| b.name != old).expect("two blocks");
        let new = if new == "PKG" {
            format!("{}_pkg", other.name)
        } else {
            new.clone()
        };
        let (file, line) = rename_block(&csrs, &old, &new);
        let e = collision(&csrs);
        assert!(blames(&e, &file, line), "{new}: {e}");
    }
}

#[test]
fn fold_arguments_clash_with_no_generated_name() {
    let c = load(&repo().join("csrs"));
    let fold = &c.soc.folds[0];
    let arg = fold.args.last().expect("an argument").clone();
    let view = &c.soc.views[0];
    let setter = format!(
        "{}_set_{}",
        view.name.to_lowercase(),
        view.fields[0].name.to_lowercase()
    );
    for bad in ["uint64_t", "a", &setter, "XDIE_SOC_ADDR_WIDTH"] {
        let (_s, csrs) = csrs_copy("names-fold");
        let file = csrs.join("soc_address.yaml");
        let text = std::fs::read_to_string(&file).expect("read");
        let re = |t: &str| -> String {
            // Whole-word replacement of the argument.
            let mut out = String::new();
            let mut rest = t;
            while let Some(i) = rest.find(&arg) {
                let before = rest[..i].chars().last().or(out.chars().last());
                let after = rest[i + arg.len()..].chars().next();
                let word =
                    |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
                out.push_str(&rest[..i]);
                out.push_str(if word(before) || word(after) {
                    &arg
                } else {
                    bad
                });
                rest = &rest[i + arg.len()..];
            }
            out + rest
        };
        let edited = re(&text);
        assert_ne!(edited, text, "{bad}");
        std::fs::write(&file, &edited).expect("write");
        let e = collision(&csrs);
        assert!(
            e.at.key.starts_with("folds[") && e.at.key.contains(".args["),
            "{bad}: {e}"
        );
        assert!(e.message.contains(&format!("`{bad}`")), "{bad}: {e}");
    }
}

#[test]
fn the_command_line_refuses_and_leaves_out_untouched() {
    let (s, csrs) = csrs_copy("names-cli");
    let c = load(&csrs);
    let old = spare_block(&c);
    let new = format!("ap_{}", c.map.apertures[0].name.to_lowercase());
    let (file, line) = rename_block(&csrs, &old, &new);
    let out = s.join("out");
    gen_into(&repo().join("csrs"), &out);
    let before = snapshot(&out);
    let o = run(xdie()
        .args(["gen", "--csrs"])
        .arg(&csrs)
        .arg("--out")
        .arg(&out));
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(
        err.contains(&format!("{}:{line}: key `Name`", file.display()))
            || err.contains(&format!("{}:{line}:", file.display())),
        "{err}"
    );
    assert!(snapshot(&out) == before, "--out changed");
}

/// The generator's list of hand-written modules is the modules of rtl/core/.
#[test]
fn the_hand_written_module_list_is_rtl_core() {
    let mut found = Vec::new();
    for e in std::fs::read_dir(repo().join("rtl/core")).expect("rtl/core") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "sv") {
            let text = std::fs::read_to_string(&p).expect("read");
            found.extend(names::sv_units(&text));
        }
    }
    found.sort();
    let mut listed = names::hand_written_modules();
    listed.sort();
    assert_eq!(found, listed);
}
