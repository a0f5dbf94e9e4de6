//! Register packages, the EVT_SEM block and the broadcast doorbell follow the model: rendered
//! from the shipped csrs/ and from an edited copy, the outputs carry the model's numbers.

use std::path::{Path, PathBuf};
use xdie_csr::{load, Csrs, ErrorKind, SemOp};
use xdie_gen::emit::{render_all, OutFile};

fn csrs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../csrs")
}

/// A private copy of csrs/ with `evt_sem.json` passed through `edit`.
fn edited_copy(tag: &str, edit: impl Fn(&mut serde_json::Value)) -> PathBuf {
    let dst = std::env::temp_dir().join(format!("xdie-test-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dst);
    std::fs::create_dir_all(dst.join("blocks")).expect("temp dir");
    for sub in ["", "blocks"] {
        for e in std::fs::read_dir(csrs_dir().join(sub)).expect("csrs dir") {
            let p = e.expect("entry").path();
            if p.is_file() {
                std::fs::copy(&p, dst.join(sub).join(p.file_name().expect("name"))).expect("copy");
            }
        }
    }
    let path = dst.join("blocks/evt_sem.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
    edit(&mut v);
    std::fs::write(&path, serde_json::to_string_pretty(&v).expect("json")).expect("write");
    dst
}

fn file<'a>(files: &'a [OutFile], path: &str) -> &'a str {
    &files
        .iter()
        .find(|f| f.path == Path::new(path))
        .unwrap_or_else(|| panic!("{path} not rendered"))
        .contents
}

/// Value of `localparam TY NAME = VALUE;` in a package.
fn pkg_const(pkg: &str, name: &str) -> String {
    let key = format!("{name} = ");
    let at = pkg.find(&key).unwrap_or_else(|| panic!("{name} missing")) + key.len();
    pkg[at..]
        .split([';', '\n'])
        .next()
        .expect("value")
        .trim()
        .to_string()
}

fn localparam(sv: &str, name: &str) -> String {
    let line = sv
        .lines()
        .find(|l| {
            l.trim_start()
                .starts_with(&format!("localparam int unsigned {name} "))
        })
        .unwrap_or_else(|| panic!("localparam {name} missing"));
    line.split('=')
        .nth(1)
        .expect("value")
        .trim()
        .trim_end_matches(';')
        .to_string()
}

fn check_evt_sem(csrs: &Csrs) {
    let files = render_all(csrs).expect("render");
    let block = csrs
        .aperture_block(&csrs.views.apertures.evt_sem)
        .expect("evt_sem block");
    let params = &csrs.views.evt_sem.params;
    let pkg = file(&files, "rtl/gen/xdie_evt_sem_pkg.sv");
    for b in &block.bundles {
        let up = b.name.to_uppercase();
        assert_eq!(pkg_const(pkg, &format!("{up}_COUNT")), b.count.to_string());
        assert_eq!(
            pkg_const(pkg, &format!("{up}_STRIDE")),
            format!("32'h{:x}", b.stride)
        );
        let reg = &b.registers[0];
        let f = &reg.fields[0];
        let fname = format!("{up}_{}_{}", reg.name.to_uppercase(), f.name.to_uppercase());
        assert_eq!(pkg_const(pkg, &format!("{fname}_LSB")), f.lsb.to_string());
        assert_eq!(
            pkg_const(pkg, &format!("{fname}_WIDTH")),
            f.width.to_string()
        );
    }
    let sv = file(&files, "rtl/gen/xdie_evt_sem.sv");
    let sem = &csrs.views.evt_sem.window(SemOp::Read).bundle;
    let evt = &csrs.views.evt_sem.events;
    assert_eq!(localparam(sv, "N_SEM"), sem.count.to_string());
    assert_eq!(localparam(sv, "N_EVT"), evt.count.to_string());
    assert_eq!(localparam(sv, "HW"), params.hw_inc_ports.to_string());
    let iw = xdie_gen::emit::sv_regs::index_bits(sem.count);
    assert_eq!(localparam(sv, "IW"), iw.to_string());
    let idx_port = format!("input  logic [{}:0]", params.hw_inc_ports * iw - 1);
    assert!(
        sv.lines()
            .any(|l| l.contains("hw_inc_idx_i") && l.contains(&idx_port)),
        "hw_inc_idx_i is not {idx_port}"
    );
    assert!(file(&files, "rtl/xdie.f").contains("rtl/gen/xdie_evt_sem.sv"));
}

#[test]
fn evt_sem_follows_the_shipped_model() {
    check_evt_sem(&load(&csrs_dir()).expect("load"));
}

#[test]
fn evt_sem_follows_a_reduced_semaphore_count() {
    let dir = edited_copy("reduced", |v| {
        for b in v["Bundles"].as_array_mut().expect("bundles") {
            if b["Role"].as_str().is_some_and(|r| r.starts_with("sem_")) {
                b["ArraySize"] = 100.into();
            }
        }
        v["Parameters"]["HwIncPorts"] = 3.into();
    });
    let csrs = load(&dir).expect("load reduced copy");
    assert_eq!(csrs.views.sem_count(), 100);
    check_evt_sem(&csrs);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn mismatched_semaphore_windows_are_rejected() {
    let dir = edited_copy("mismatch", |v| {
        let b = v["Bundles"]
            .as_array_mut()
            .expect("bundles")
            .iter_mut()
            .find(|b| b["Role"] == "sem_dec")
            .expect("sem_dec");
        b["ArraySize"] = 8.into();
    });
    let err = load(&dir).expect_err("must fail");
    assert_eq!(err.kind, ErrorKind::BadArray);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn equal_subop_codes_are_rejected() {
    let dir = edited_copy("subop", |v| {
        let wait = v["Parameters"]["SeqSubopWaitGeDec"].clone();
        v["Parameters"]["SeqSubopInc"] = wait;
    });
    let err = load(&dir).expect_err("must fail");
    assert_eq!(err.kind, ErrorKind::BadValue);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bcast_ports_follow_the_mask_queue_and_inc_fields() {
    let csrs = load(&csrs_dir()).expect("load");
    let files = render_all(&csrs).expect("render");
    let l = &csrs.views.bcast;
    let (e, q, v) = (l.mask.width, l.queue.width, l.inc.width);
    let sv = file(&files, "rtl/gen/xdie_sdma_bcast.sv");
    for (port, w) in [
        ("m2s_inc_valid_o", e),
        ("s2m_inc_valid_o", e),
        ("inc_queue_o", q),
        ("inc_val_o", v),
    ] {
        let decl = format!("output logic [{}:0]", w - 1);
        assert!(
            sv.lines().any(|l| l.contains(port) && l.contains(&decl)),
            "{port} is not {decl}"
        );
    }
}
