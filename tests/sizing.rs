//! Die sizing profiles (csrs/sizing.*): an edit of a profile flows into the generated sizing
//! package, the wrapper tops, the FuseSoC core and the docs; a bad profile is refused with the
//! file, key and line. Expected values are read back from the loaded model of the edited copy,
//! never written here.

mod common;

use common::*;
use std::path::Path;
use xdie_csr::{Csrs, Error, ErrorKind, Sizing};

fn load(csrs: &Path) -> Csrs {
    xdie_csr::load(csrs).unwrap_or_else(|e| panic!("csrs/ does not load: {e}"))
}

fn load_err(csrs: &Path) -> Error {
    match xdie_csr::load(csrs) {
        Ok(_) => panic!("the edited csrs/ loaded; expected an error"),
        Err(e) => e,
    }
}

fn read(root: &Path, rel: &str) -> String {
    std::fs::read_to_string(root.join(rel)).unwrap_or_else(|e| panic!("read {rel}: {e}"))
}

/// Set `key: value` in the profile named `name` of `sizing.yaml` (replacing the key's line when
/// the profile has it, else adding it after the name); returns the line it is on.
fn set_key(csrs: &Path, name: &str, key: &str, value: &str) -> usize {
    let file = csrs.join("sizing.yaml");
    let text = read(csrs, "sizing.yaml");
    let anchor = format!("- name: {name}\n");
    let start = text.find(&anchor).expect("profile in sizing.yaml");
    let end = text[start + 1..]
        .find("- name:")
        .map_or(text.len(), |x| start + 1 + x);
    let block = &text[start..end];
    let existing = block
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{key}:")))
        .map(|l| l.trim().to_string());
    match existing {
        Some(l) => edit_after(&file, &anchor, &l, &format!("{key}: {value}")),
        None => {
            let name_line = anchor.trim_end();
            edit_after(
                &file,
                &anchor,
                name_line,
                &format!("{name_line}\n    {key}: {value}"),
            ) + 1
        }
    }
}

/// A profile other than the default (the repository has one; the test needs one).
fn other(c: &Csrs) -> &Sizing {
    c.sizings
        .iter()
        .enumerate()
        .find(|(i, _)| *i != c.default_sizing)
        .map(|(_, s)| s)
        .expect("csrs/sizing.yaml has a profile besides the default")
}

fn assert_at(e: &Error, kind: ErrorKind, key: &str, line: usize, says: &str) {
    let shown = e.to_string();
    assert_eq!(e.kind, kind, "kind of: {shown}");
    assert_eq!(
        e.at.file.file_name().and_then(|n| n.to_str()),
        Some("sizing.yaml"),
        "file of: {shown}"
    );
    assert_eq!(e.at.key, key, "key of: {shown}");
    assert_eq!(e.at.line, Some(line), "line of: {shown}");
    assert!(e.message.contains(says), "`{shown}` should say `{says}`");
    assert!(shown.contains(&format!("sizing.yaml:{line}")), "{shown}");
}

/// Every value of a profile appears as its constant in the sizing package.
fn assert_package_has(pkg: &str, s: &Sizing) {
    for (key, value) in s.values() {
        let line = format!(
            "localparam int unsigned {}_{} = {value};",
            s.name.to_ascii_uppercase(),
            key.to_ascii_uppercase()
        );
        assert!(pkg.contains(&line), "xdie_sizing_pkg.sv lacks `{line}`");
    }
}

#[test]
fn a_profile_edit_flows_into_package_wrapper_core_and_docs() {
    let (s, csrs) = csrs_copy("sizing-edit");
    let before = load(&csrs);
    let p = other(&before).clone();
    let di = before.default_sizing;
    let i = before
        .sizings
        .iter()
        .position(|x| x.name == p.name)
        .unwrap();
    let file = csrs.join("sizing.yaml");
    let anchor = format!("name: {}", p.name);
    // One engine fewer (or more, from one) than the profile has, and a new name.
    let engines = if p.sdma_engines > 1 {
        p.sdma_engines - 1
    } else {
        p.sdma_engines + 1
    };
    set_key(&csrs, &p.name, "sdma_engines", &engines.to_string());
    let renamed = format!("{}_x", p.name);
    edit_after(&file, &anchor, &anchor, &format!("name: {renamed}"));

    let after = load(&csrs);
    let q = &after.sizings[i];
    assert_eq!(q.name, renamed);
    assert_eq!(q.sdma_engines, engines, "the edit is what the model reads");
    assert_eq!(
        after.sizings[di], before.sizings[di],
        "the default profile did not change"
    );

    let out = s.join("out");
    gen_into(&csrs, &out);
    let pkg = read(&out, "rtl/gen/xdie_sizing_pkg.sv");
    for sz in &after.sizings {
        assert_package_has(&pkg, sz);
    }
    for (key, value) in after.sizing().values() {
        let line = format!(
            "localparam int unsigned DEFAULT_{} = {value};",
            key.to_ascii_uppercase()
        );
        assert!(pkg.contains(&line), "xdie_sizing_pkg.sv lacks `{line}`");
    }
    // The wrapper is named after the profile and passes its constants.
    let top = format!("xdie_die_{renamed}");
    let wrapper = read(&out, &format!("rtl/gen/{top}.sv"));
    assert!(wrapper.contains(&format!("module {top} ")), "{wrapper}");
    let prefix = renamed.to_ascii_uppercase();
    for (key, _) in q.values() {
        let c = format!("xdie_sizing_pkg::{prefix}_{}", key.to_ascii_uppercase());
        assert!(wrapper.contains(&c), "{top} does not use {c}");
    }
    assert!(
        !out.join(format!("rtl/gen/xdie_die_{}.sv", p.name)).exists(),
        "the old name's wrapper is still generated"
    );
    // The filelist and the FuseSoC core name it; the core has a target for it.
    assert!(read(&out, "rtl/xdie.f").contains(&format!("rtl/gen/{top}.sv")));
    let core = read(&out, "xdie.core");
    assert!(
        core.contains(&format!(
            "  die_{renamed}:\n    <<: *default\n    toplevel: {top}\n"
        )),
        "{core}"
    );
    // The docs table has the new value in the profile's column.
    let docs = read(&out, "docs/register-map.md");
    let table = &docs[docs.find("## Die sizing profiles").expect("sizing section")..];
    let head = table
        .lines()
        .find(|l| l.starts_with("| Key |"))
        .expect("sizing table");
    let col = head
        .split('|')
        .position(|c| c.contains(&format!("`{renamed}`")))
        .expect("a column for the renamed profile");
    let row = table
        .lines()
        .find(|l| l.starts_with("| `sdma_engines` |"))
        .expect("sdma_engines row");
    assert_eq!(
        row.split('|').nth(col).map(str::trim),
        Some(&*engines.to_string())
    );
}

#[test]
fn keys_left_out_take_the_die_map_and_default_values() {
    let c = load(&repo().join("csrs"));
    let d = c.sizing();
    let v = &c.views;
    assert_eq!(d.sdma_engines, v.params.sdma_engines);
    assert_eq!(d.sbuf_backing_bytes, v.params.sbuf_backing_bytes);
    assert_eq!(d.link_credits, v.params.link_credits);
    assert_eq!(d.hbm_bytes, v.apertures.hbm.size);
    assert_eq!(d.d2d_controllers, v.apertures.d2d.count);
    // The switches the die map has no value for are off in the simulated die unless given: the
    // testbench simulates the word-wide arbiters and the full crossbar.
    let di = c.default_sizing;
    let (_s, csrs) = csrs_copy("sizing-switches");
    let f = csrs.join("sizing.yaml");
    // Drop the switches' lines from the default profile (the lines between its name and the
    // next profile's).
    let mut in_default = false;
    let kept: String = read(&csrs, "sizing.yaml")
        .lines()
        .filter(|l| {
            let k = l.trim_start();
            if let Some(name) = k.strip_prefix("- name:") {
                in_default = name.trim() == d.name;
            }
            let switch = ["shared_crossbar:", "select_arbiters:", "timing_registers:"]
                .iter()
                .any(|s| k.starts_with(s));
            !(in_default && switch)
        })
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&f, kept).unwrap();
    let s = &load(&csrs).sizings[di];
    assert_eq!(
        (s.shared_crossbar, s.select_arbiters, s.timing_registers),
        (0, 0, 0)
    );

    // A profile that gives nothing but its name is the default profile under another name.
    let (_s, csrs) = csrs_copy("sizing-inherit");
    let f = csrs.join("sizing.yaml");
    let mut text = read(&csrs, "sizing.yaml");
    text.push_str("  - name: bare\n");
    std::fs::write(&f, text).unwrap();
    let c = load(&csrs);
    let bare = c.sizings.iter().find(|s| s.name == "bare").expect("bare");
    assert_eq!(bare.values(), c.sizing().values());
}

#[test]
fn bad_profiles_are_refused_with_file_key_and_line() {
    let c = load(&repo().join("csrs"));
    let p = other(&c).clone();
    let i = c.sizings.iter().position(|x| x.name == p.name).unwrap();
    let di = c.default_sizing;
    let anchor = format!("name: {}", p.name);
    let max_engines = c.views.apertures.sdma_m2s.count;

    // Out of range: more engines than the register map has.
    let (_s, csrs) = csrs_copy("sizing-bad-engines");
    let line = set_key(
        &csrs,
        &p.name,
        "sdma_engines",
        &(max_engines + 1).to_string(),
    );
    let e = load_err(&csrs);
    assert_at(
        &e,
        ErrorKind::BadValue,
        &format!("profiles[{i}].sdma_engines"),
        line,
        "sdma_engines",
    );

    // HBM backing that is not whole beats.
    let (_s, csrs) = csrs_copy("sizing-bad-hbm");
    let odd = c.views.params.data_bytes + 1;
    let line = set_key(&csrs, &p.name, "hbm_bytes", &odd.to_string());
    let e = load_err(&csrs);
    assert_at(
        &e,
        ErrorKind::BadValue,
        &format!("profiles[{i}].hbm_bytes"),
        line,
        "multiple of DATA_BYTES",
    );

    // A switch (0 or 1) set to anything else.
    for key in ["select_arbiters", "timing_registers"] {
        let (_s, csrs) = csrs_copy(&format!("sizing-bad-{key}"));
        let line = set_key(&csrs, &p.name, key, "2");
        let e = load_err(&csrs);
        assert_at(
            &e,
            ErrorKind::BadValue,
            &format!("profiles[{i}].{key}"),
            line,
            key,
        );
    }

    // The default profile disagreeing with the die map.
    let (_s, csrs) = csrs_copy("sizing-bad-default");
    let line = set_key(
        &csrs,
        &c.sizing().name,
        "link_credits",
        &(c.views.params.link_credits + 1).to_string(),
    );
    let e = load_err(&csrs);
    assert_at(
        &e,
        ErrorKind::BadValue,
        &format!("profiles[{di}].link_credits"),
        line,
        "LINK_CREDITS",
    );

    // A name that would collide with the DEFAULT_* constants.
    let (_s, csrs) = csrs_copy("sizing-bad-name");
    let line = edit_after(&csrs.join("sizing.yaml"), &anchor, &anchor, "name: default");
    let e = load_err(&csrs);
    assert_at(
        &e,
        ErrorKind::BadValue,
        &format!("profiles[{i}].name"),
        line,
        "default",
    );

    // An unknown key.
    let (_s, csrs) = csrs_copy("sizing-bad-key");
    let line = edit_after(
        &csrs.join("sizing.yaml"),
        &anchor,
        &anchor,
        &format!("{anchor}\n    sdma_engine: 2"),
    ) + 1;
    let e = load_err(&csrs);
    assert_eq!(e.kind, ErrorKind::Syntax, "{e}");
    assert_eq!(e.at.line, Some(line), "{e}");
    assert!(e.to_string().contains("sdma_engine"), "{e}");
}
