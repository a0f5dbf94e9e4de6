//! One test per class of bad input (`xdie_csr::ErrorKind`). Each copies the real csrs/, changes
//! one thing by a text edit, and checks that the loader names the class, the file, the key path,
//! the line of the edit and says what is wrong. The CLI tests check that a bad input exits 2,
//! names file:line and key, and leaves a previous generation untouched.

mod common;

use common::*;
use std::path::Path;
use xdie_csr::{ApertureId, Error, ErrorKind};

fn load_err(csrs: &Path) -> Error {
    match xdie_csr::load(csrs) {
        Ok(_) => panic!(
            "the edited csrs/ in {} loaded without error",
            csrs.display()
        ),
        Err(e) => e,
    }
}

/// Assert everything an error must say. `line` is the line of the edit.
fn expect(e: &Error, kind: ErrorKind, file: &str, key: &str, line: Option<usize>, says: &str) {
    let shown = e.to_string();
    assert_eq!(e.kind, kind, "kind of: {shown}");
    assert_eq!(
        e.at.file.file_name().and_then(|n| n.to_str()),
        Some(file),
        "file of: {shown}"
    );
    assert_eq!(e.at.key, key, "key path of: {shown}");
    assert_eq!(e.at.line, line, "line of: {shown}");
    assert!(
        e.message.contains(says),
        "message of `{shown}` should contain `{says}`"
    );
    // The one-line rendering the CLI prints carries the same facts.
    if let Some(l) = line {
        assert!(shown.contains(&format!("{file}:{l}")), "{shown}");
    }
    if !key.is_empty() {
        assert!(shown.contains(key), "{shown}");
    }
}

/// Position of an aperture in address_map's list, read from the unedited copy.
fn aperture_index(csrs: &Path, id: ApertureId) -> usize {
    let c = xdie_csr::load(csrs).expect("unedited csrs/ load");
    let name = &c.views.apertures.get(id).name;
    c.map
        .apertures
        .iter()
        .position(|a| &a.name == name)
        .expect("aperture exists")
}

#[test]
fn io_unreadable_file() {
    let (_s, csrs) = csrs_copy("io");
    // Not UTF-8: the file exists but cannot be read as text.
    let f = csrs.join("profiles.yaml");
    let mut bytes = std::fs::read(&f).unwrap();
    // The bad bytes start the line after the last one: the error names that line.
    let line = bytes.iter().filter(|b| **b == b'\n').count() + 1;
    bytes.extend_from_slice(&[0xff, 0xfe, b'\n']);
    std::fs::write(&f, bytes).unwrap();
    let e = load_err(&csrs);
    expect(
        &e,
        ErrorKind::Io,
        "profiles.yaml",
        "",
        Some(line),
        "not valid UTF-8",
    );

    // A missing top-level file is an Io error too, naming what was expected.
    std::fs::remove_file(&f).unwrap();
    let e = load_err(&csrs);
    expect(&e, ErrorKind::Io, "profiles.yaml", "", None, "missing");
}

#[test]
fn syntax_unknown_keys_and_wrong_types() {
    // Unknown key in a JSON block.
    let (_s, csrs) = csrs_copy("syntax-json");
    let f = csrs.join("blocks/evt_sem.json");
    let line = edit_after(
        &f,
        "\"Name\": \"SEM_SET\", \"AddressOffset\"",
        "\"Fields\"",
        "\"Colour\": \"red\",\n         \"Fields\"",
    );
    let e = load_err(&csrs);
    expect(
        &e,
        ErrorKind::Syntax,
        "evt_sem.json",
        "Bundles[2].Registers[0].Colour",
        Some(line),
        "unknown field `Colour`",
    );

    // Unknown key in the YAML address map.
    let (_s, csrs) = csrs_copy("syntax-yaml");
    let f = csrs.join("address_map.yaml");
    let i = aperture_index(&csrs, ApertureId::SdmaBcast);
    let line = edit(
        &f,
        "    block: sdma_bcast\n",
        "    block: sdma_bcast\n    colour: red\n",
    );
    let e = load_err(&csrs);
    expect(
        &e,
        ErrorKind::Syntax,
        "address_map.yaml",
        &format!("apertures[{i}].colour"),
        Some(line + 1),
        "unknown field `colour`",
    );

    // A value of the wrong type.
    let (_s, csrs) = csrs_copy("syntax-type");
    let f = csrs.join("blocks/remap_windows.json");
    let line = edit(&f, "\"ArraySize\": 16", "\"ArraySize\": true");
    let e = load_err(&csrs);
    expect(
        &e,
        ErrorKind::Syntax,
        "remap_windows.json",
        "Bundles[0].ArraySize",
        Some(line),
        "invalid type",
    );
}

#[test]
fn overlap_registers_apertures_fields() {
    // Two registers at one offset.
    let (_s, csrs) = csrs_copy("overlap-reg");
    let f = csrs.join("blocks/udma_m2s.json");
    let line = edit(
        &f,
        "\"AddressOffset\": \"0x204\"",
        "\"AddressOffset\": \"0x200\"",
    );
    let e = load_err(&csrs);
    expect(
        &e,
        ErrorKind::Overlap,
        "udma_m2s.json",
        "Registers[1].AddressOffset",
        Some(line),
        "overlaps `err_log`",
    );

    // An aperture moved into the one below it.
    let (_s, csrs) = csrs_copy("overlap-aperture");
    let f = csrs.join("address_map.yaml");
    let line = edit(&f, "base: 0x10000000", "base: 0x0F000000");
    let e = load_err(&csrs);
    expect(
        &e,
        ErrorKind::Overlap,
        "address_map.yaml",
        "apertures[1].base",
        Some(line),
        "overlaps `SBUF[0]`",
    );

    // Two fields of one register on the same bit.
    let (_s, csrs) = csrs_copy("overlap-field");
    let f = csrs.join("blocks/remap_windows.json");
    let line = edit(&f, "\"Bits\": \"1:1\"", "\"Bits\": \"0:0\"");
    let e = load_err(&csrs);
    expect(
        &e,
        ErrorKind::Overlap,
        "remap_windows.json",
        "Bundles[0].Registers[0].Fields[1].Bits",
        Some(line),
        "overlaps `VALID`",
    );
}

#[test]
fn out_of_range_field_register_aperture() {
    // A field past bit 31 of its register.
    let (_s, csrs) = csrs_copy("range-field");
    let f = csrs.join("blocks/sdma_bcast.json");
    let line = edit(&f, "\"Bits\": \"15:0\"", "\"Bits\": \"32:0\"");
    let e = load_err(&csrs);
    expect(
        &e,
        ErrorKind::OutOfRange,
        "sdma_bcast.json",
        "Registers[0].Fields[0].Bits",
        Some(line),
        "past the 32-bit register",
    );

    // A register past the end of its bundle: the offset equals the bundle size.
    let (_s, csrs) = csrs_copy("range-register");
    let f = csrs.join("blocks/remap_windows.json");
    let text = std::fs::read_to_string(&f).unwrap();
    let stride = text
        .split("\"BundleSizeInBytes\": \"")
        .nth(1)
        .and_then(|t| t.split('"').next())
        .expect("BundleSizeInBytes");
    let line = edit(
        &f,
        "\"AddressOffset\": \"0x24\"",
        &format!("\"AddressOffset\": \"{stride}\""),
    );
    let e = load_err(&csrs);
    expect(
        &e,
        ErrorKind::OutOfRange,
        "remap_windows.json",
        "Bundles[0].Registers[9].AddressOffset",
        Some(line),
        "lies outside the",
    );

    // An aperture past the end of the die-local space: based at 2^local_width.
    let (_s, csrs) = csrs_copy("range-aperture");
    let bits = xdie_csr::load(&csrs).unwrap().map.local_width;
    let i = aperture_index(&csrs, ApertureId::XtWindow);
    let f = csrs.join("address_map.yaml");
    let line = edit(
        &f,
        "base: 0x23100000",
        &format!("base: {:#x}", 1u64 << bits),
    );
    let e = load_err(&csrs);
    expect(
        &e,
        ErrorKind::OutOfRange,
        "address_map.yaml",
        &format!("apertures[{i}].base"),
        Some(line),
        &format!("past the {bits}-bit die-local space"),
    );
}

#[test]
fn reset_too_wide() {
    let (_s, csrs) = csrs_copy("reset");
    let width = {
        let c = xdie_csr::load(&csrs).unwrap();
        c.views.bcast.queue.width
    };
    let f = csrs.join("blocks/sdma_bcast.json");
    let line = edit_after(
        &f,
        "\"Name\": \"QUEUE\"",
        "\"Reset\": \"0x0\"",
        &format!("\"Reset\": \"{:#x}\"", 1u64 << width),
    );
    let e = load_err(&csrs);
    expect(
        &e,
        ErrorKind::ResetTooWide,
        "sdma_bcast.json",
        "Registers[1].Fields[0].Reset",
        Some(line),
        &format!("does not fit the {width}-bit field `QUEUE`"),
    );
}

#[test]
fn duplicate_name() {
    let (_s, csrs) = csrs_copy("dup");
    let f = csrs.join("blocks/evt_sem.json");
    let line = edit(
        &f,
        "\"Name\": \"SEM_DEC\", \"Role\"",
        "\"Name\": \"SEM_INC\", \"Role\"",
    );
    let e = load_err(&csrs);
    expect(
        &e,
        ErrorKind::DuplicateName,
        "evt_sem.json",
        "Bundles[4].Name",
        Some(line),
        "duplicate register or bundle name `SEM_INC`",
    );
}

#[test]
fn bad_array() {
    let (_s, csrs) = csrs_copy("array");
    let f = csrs.join("blocks/evt_sem.json");
    let line = edit_after(
        &f,
        "\"Name\": \"SEM_SET\", \"Role\"",
        "\"ArraySize\": 256",
        "\"ArraySize\": 0",
    );
    let e = load_err(&csrs);
    expect(
        &e,
        ErrorKind::BadArray,
        "evt_sem.json",
        "Bundles[2].ArraySize",
        Some(line),
        "ArraySize 0",
    );
}

#[test]
fn bad_reference_missing_block_and_role() {
    // The map names a block that has no file.
    let (_s, csrs) = csrs_copy("ref-block");
    let i = aperture_index(&csrs, ApertureId::SdmaBcast);
    std::fs::remove_file(csrs.join("blocks/sdma_bcast.json")).unwrap();
    let text = std::fs::read_to_string(csrs.join("address_map.yaml")).unwrap();
    let line = line_at(&text, text.find("block: sdma_bcast").unwrap());
    let e = load_err(&csrs);
    expect(
        &e,
        ErrorKind::BadReference,
        "address_map.yaml",
        &format!("apertures[{i}].block"),
        Some(line),
        "block `sdma_bcast` has no file",
    );

    // A role spelled wrong: reported at the register's Role key.
    let (_s, csrs) = csrs_copy("ref-role-name");
    let remap = xdie_csr::load(&csrs).unwrap().views.remap;
    let k = remap
        .window
        .registers
        .iter()
        .position(|r| r.name == remap.soc_hi.name)
        .unwrap();
    let f = csrs.join("blocks/remap_windows.json");
    edit(&f, "\"Role\": \"soc_hi\"", "\"Role\": \"soc_high\"");
    let text = std::fs::read_to_string(&f).unwrap();
    let line = line_at(&text, text.find("\"Role\": \"soc_high\"").unwrap());
    let e = load_err(&csrs);
    expect(
        &e,
        ErrorKind::BadReference,
        "remap_windows.json",
        &format!("Bundles[0].Registers[{k}].Role"),
        Some(line),
        "unknown register role `soc_high`",
    );

    // A block lacks a role its template needs (the register has a role of another block kind):
    // reported at the register list of the bundle that should hold it.
    let (_s, csrs) = csrs_copy("ref-role");
    let f = csrs.join("blocks/remap_windows.json");
    edit(&f, "\"Role\": \"soc_hi\"", "\"Role\": \"tail_inc\"");
    let text = std::fs::read_to_string(&f).unwrap();
    let bundle = text.find("\"Role\": \"window\"").unwrap();
    let line = line_at(
        &text,
        bundle + text[bundle..].find("\"Registers\"").unwrap(),
    );
    let e = load_err(&csrs);
    expect(
        &e,
        ErrorKind::BadReference,
        "remap_windows.json",
        "Bundles[0].Registers",
        Some(line),
        "a register with Role \"soc_hi\"",
    );
}

#[test]
fn bad_value_unknown_access() {
    let (_s, csrs) = csrs_copy("value");
    let f = csrs.join("blocks/evt_sem.json");
    let line = edit_after(
        &f,
        "\"Name\": \"SEM_SET\", \"AddressOffset\"",
        "\"Access\": \"RW\"",
        "\"Access\": \"RWX\"",
    );
    let e = load_err(&csrs);
    expect(
        &e,
        ErrorKind::BadValue,
        "evt_sem.json",
        "Bundles[2].Registers[0].Fields[0].Access",
        Some(line),
        "unknown access `RWX`",
    );
}

// ---------------------------------------------------------------- through the CLI

/// A bad CSR edit must exit 2, say file:line and key on stderr, and leave every file of a
/// previous good generation byte-identical (no partial write, no stray temporary file).
#[test]
fn cli_bad_input_exits_2_and_keeps_outputs() {
    let (s, csrs) = csrs_copy("cli-bad");
    let out = s.join("out");
    gen_into(&csrs, &out);
    let before = snapshot(&out);
    assert!(!before.is_empty());

    let f = csrs.join("blocks/evt_sem.json");
    let line = edit_after(
        &f,
        "\"Name\": \"SEM_SET\", \"AddressOffset\"",
        "\"Access\": \"RW\"",
        "\"Access\": \"RWX\"",
    );
    let o = run(xdie()
        .args(["gen", "--csrs"])
        .arg(&csrs)
        .arg("--out")
        .arg(&out));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");
    assert!(
        err.contains(&format!("evt_sem.json:{line}")),
        "stderr: {err}"
    );
    assert!(
        err.contains("Bundles[2].Registers[0].Fields[0].Access"),
        "stderr: {err}"
    );
    assert!(!err.contains("panicked"), "stderr: {err}");
    assert_eq!(snapshot(&out), before, "a failed run changed the outputs");

    // A YAML error through the same path, with --check as well: both refuse before comparing.
    let (s2, csrs2) = csrs_copy("cli-bad-yaml");
    let out2 = s2.join("out");
    gen_into(&csrs2, &out2);
    let before2 = snapshot(&out2);
    let line = edit(&csrs2.join("soc_address.yaml"), "width: 57", "width: wide");
    for check in [false, true] {
        let mut cmd = xdie();
        cmd.args(["gen", "--csrs"])
            .arg(&csrs2)
            .arg("--out")
            .arg(&out2);
        if check {
            cmd.arg("--check");
        }
        let o = run(&mut cmd);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "stderr: {err}");
        assert!(
            err.contains(&format!("soc_address.yaml:{line}")),
            "stderr: {err}"
        );
        assert!(err.contains("width"), "stderr: {err}");
    }
    assert_eq!(snapshot(&out2), before2, "a failed run changed the outputs");
}

/// The named codes of an ExtendedInst word field (`values`): a duplicate name, a code that does
/// not fit the field, a code used twice, and a missing code the model and firmware need each
/// name the value's key and line.
#[test]
fn word_field_values() {
    let base = xdie_csr::load(&repo().join("csrs")).expect("csrs");
    let word = base
        .words
        .iter()
        .position(|w| w.name == base.views.gen_word.word.name)
        .expect("gen word");
    let acc = &base.views.gen_word.accumulate;
    let field = base.words[word]
        .fields
        .iter()
        .position(|f| f.name == acc.name)
        .expect("accumulate field");
    let at = |v: usize, key: &str| format!("words[{word}].fields[{field}].values[{v}].{key}");
    let pos = |name: &str| {
        acc.values
            .iter()
            .position(|v| v.name == name)
            .expect("a named code")
    };
    let (write, int, fp) = (
        pos(xdie_csr::AccCodes::WRITE),
        pos(xdie_csr::AccDtype::I32.name()),
        pos(xdie_csr::AccDtype::F32.name()),
    );
    let value = |v: usize| &acc.values[v];
    // A fresh copy of csrs/ with value `v` of the field rewritten to `name`/`code`: the copy (its
    // scratch guard first) and the line of the edit.
    let rewrite = |tag: &str, v: usize, name: &str, code: u64| {
        let (scratch, csrs) = csrs_copy(tag);
        let old = value(v);
        let line = edit(
            &csrs.join("ext_inst.yaml"),
            &format!("{{name: {}, value: {},", old.name, old.value),
            &format!("{{name: {name}, value: {code},"),
        );
        (scratch, csrs, line)
    };

    let (_s, csrs, line) = rewrite("values-dup-name", int, &value(write).name, value(int).value);
    expect(
        &load_err(&csrs),
        ErrorKind::DuplicateName,
        "ext_inst.yaml",
        &at(int, "name"),
        Some(line),
        &format!("duplicate value name `{}`", value(write).name),
    );

    let wide = 1u64 << (acc.bytes * 8);
    let (_s, csrs, line) = rewrite("values-wide", fp, &value(fp).name, wide);
    expect(
        &load_err(&csrs),
        ErrorKind::BadValue,
        "ext_inst.yaml",
        &at(fp, "value"),
        Some(line),
        &format!("does not fit the {}-byte field `{}`", acc.bytes, acc.name),
    );

    let (_s, csrs, line) = rewrite("values-same-code", fp, &value(fp).name, value(int).value);
    expect(
        &load_err(&csrs),
        ErrorKind::BadValue,
        "ext_inst.yaml",
        &at(fp, "value"),
        Some(line),
        &format!("share the code {}", value(int).value),
    );

    let renamed = format!("{}_lanes", value(fp).name);
    let (_s, csrs, _) = rewrite("values-missing", fp, &renamed, value(fp).value);
    // The error points at the field's `values` key.
    let text = std::fs::read_to_string(csrs.join("ext_inst.yaml")).expect("read");
    let field_at = text.find(&format!("name: {}", acc.name)).expect("field");
    let values_at = field_at + text[field_at..].find("values:").expect("values key");
    expect(
        &load_err(&csrs),
        ErrorKind::BadReference,
        "ext_inst.yaml",
        &format!("words[{word}].fields[{field}].values"),
        Some(line_at(&text, values_at)),
        &format!("needs a value `{}`", value(fp).name),
    );
}
