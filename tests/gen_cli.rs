//! `xdie gen` and `xdie fold` from the outside: deterministic output, the drift check CI runs,
//! a CSR edit flowing into the outputs, and folds that agree with the model.

mod common;

use common::*;
use std::path::Path;

fn model(csrs: &Path) -> xdie_csr::Csrs {
    xdie_csr::load(csrs).unwrap_or_else(|e| panic!("csrs/ does not load: {e}"))
}

#[test]
fn render_is_deterministic() {
    let csrs = model(&repo().join("csrs"));
    let a = xdie_gen::emit::render_all(&csrs).expect("render");
    let b = xdie_gen::emit::render_all(&model(&repo().join("csrs"))).expect("render");
    assert_eq!(a, b, "two renders of one model differ");
    // Paths are unique: no emitter overwrites another.
    let mut paths: Vec<_> = a.iter().map(|f| f.path.clone()).collect();
    paths.sort();
    paths.dedup();
    assert_eq!(paths.len(), a.len(), "two emitters write the same file");
}

#[test]
fn two_gen_runs_write_identical_trees() {
    let s = Scratch::new("gen-twice");
    let csrs = repo().join("csrs");
    gen_into(&csrs, &s.join("a"));
    gen_into(&csrs, &s.join("b"));
    let (a, b) = (snapshot(&s.join("a")), snapshot(&s.join("b")));
    assert!(!a.is_empty());
    assert_eq!(a, b, "two `xdie gen` runs wrote different files");
    // Running again over an up-to-date tree changes nothing.
    gen_into(&csrs, &s.join("a"));
    assert_eq!(snapshot(&s.join("a")), b);
}

/// The CI drift check: the committed rtl/, include/ and docs/ are what csrs/ generates.
#[test]
fn committed_outputs_are_up_to_date() {
    let o = run(xdie()
        .current_dir(repo())
        .args(["gen", "--check", "--csrs", "csrs", "--out", "."]));
    assert!(
        o.status.success(),
        "generated files in rtl/, include/ or docs/ are stale; run `cargo run --release -- gen` \
         and commit the result.\n{}{}",
        stdout(&o),
        stderr(&o)
    );
}

/// An edit of csrs/ makes `--check` fail and name the stale file; regenerating carries the
/// new value into the outputs.
#[test]
fn check_detects_a_csr_edit_and_gen_follows_it() {
    let (s, csrs) = csrs_copy("drift");
    let out = s.join("out");
    gen_into(&csrs, &out);
    let ok = run(xdie()
        .args(["gen", "--check", "--csrs"])
        .arg(&csrs)
        .arg("--out")
        .arg(&out));
    assert!(ok.status.success(), "{}", stderr(&ok));

    // Move the remap-window aperture to the next free slot of its own size.
    let before = model(&csrs);
    let old = &before.views.apertures.xt_window;
    let new_base = old.base + old.size;
    edit(
        &csrs.join("address_map.yaml"),
        &format!("base: {:#x}", old.base),
        &format!("base: {new_base:#x}"),
    );
    // Halve the semaphore array: every semaphore window together.
    let sems = before.views.sem_count();
    let text = std::fs::read_to_string(csrs.join("blocks/evt_sem.json")).unwrap();
    let mut edited = String::new();
    for l in text.lines() {
        if l.contains("\"Role\": \"sem_") {
            edited.push_str(&l.replace(
                &format!("\"ArraySize\": {sems}"),
                &format!("\"ArraySize\": {}", sems / 2),
            ));
        } else {
            edited.push_str(l);
        }
        edited.push('\n');
    }
    std::fs::write(csrs.join("blocks/evt_sem.json"), edited).unwrap();
    let after = model(&csrs);
    assert_eq!(after.views.apertures.xt_window.base, new_base);
    assert_eq!(after.views.sem_count(), sems / 2);
    let sem_read = &after.views.evt_sem.window(xdie_csr::SemOp::Read).bundle;

    let o = run(xdie()
        .args(["gen", "--check", "--csrs"])
        .arg(&csrs)
        .arg("--out")
        .arg(&out));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "stderr: {err}");
    assert!(err.contains("docs/register-map.md"), "stderr: {err}");
    assert!(err.contains("cargo run --release -- gen"), "stderr: {err}");

    gen_into(&csrs, &out);
    let docs = std::fs::read_to_string(out.join("docs/register-map.md")).unwrap();
    let hex = |v: u64| format!("0x{v:X}");
    assert!(
        docs.contains(&format!("| `XT_WINDOW` | {} |", hex(new_base))),
        "docs do not show the moved aperture"
    );
    let last = sem_read.offset + (sem_read.count - 1) * sem_read.stride;
    assert!(
        docs.contains(&format!("instance {} at {}", sem_read.count - 1, hex(last))),
        "docs do not show the new semaphore count"
    );
    // The C header, once generated, carries the new base too (any hex spelling).
    let include = out.join("include");
    if include.is_dir() {
        let headers: String = snapshot(&include)
            .values()
            .map(|b| {
                String::from_utf8_lossy(b)
                    .to_lowercase()
                    .replace(['_', '\''], "")
            })
            .collect();
        if headers.contains(&format!("{:x}", old.base)) {
            assert!(
                headers.contains(&format!("{new_base:x}")),
                "include/ names the old XT_WINDOW base but not the new one"
            );
        }
    }
    let ok = run(xdie()
        .args(["gen", "--check", "--csrs"])
        .arg(&csrs)
        .arg("--out")
        .arg(&out));
    assert!(ok.status.success(), "{}", stderr(&ok));
}

fn fold_cli(args: &[&str]) -> String {
    let o = run(xdie()
        .arg("fold")
        .arg("--csrs")
        .arg(repo().join("csrs"))
        .args(args));
    assert!(o.status.success(), "xdie fold {args:?}: {}", stderr(&o));
    stdout(&o)
}

fn last_line(s: &str) -> &str {
    s.lines().last().unwrap_or("").trim()
}

/// The seed's worked example: dst_local 0x100000 on die 1 through the neighbor fold.
const EX_LOCAL: u64 = 0x10_0000;
const EX_DIE: u64 = 1;
const EX_CHIP: u64 = 0x12;

#[test]
fn fold_neighbor_matches_model_and_seed() {
    let c = model(&repo().join("csrs"));
    let soc = &c.views.soc;
    let expect = soc.fold_neighbor(EX_LOCAL, EX_DIE);
    let out = fold_cli(&[
        "--local",
        &format!("{EX_LOCAL:#x}"),
        "--die",
        &EX_DIE.to_string(),
        "--neighbor",
    ]);
    assert_eq!(last_line(&out), format!("{expect:#x}"), "{out}");
    // The seed's published result, and the bits it names.
    assert_eq!(last_line(&out), "0x58800000100000");
    let n = &soc.neighbor;
    let bits = (1u64 << EX_LOCAL.trailing_zeros())
        | 1 << n.die.lsb
        | 1 << n.exit_die.lsb
        | 1 << n.neighbor_route.lsb
        | 1 << n.id_valid.lsb;
    assert_eq!(expect, bits);
}

#[test]
fn fold_chip_id_matches_model() {
    let c = model(&repo().join("csrs"));
    let soc = &c.views.soc;
    let expect = soc.fold_chip_id(EX_LOCAL, EX_DIE, EX_CHIP);
    let out = fold_cli(&[
        "--view",
        "chip-id",
        "--local",
        &format!("{EX_LOCAL:#x}"),
        "--die",
        &EX_DIE.to_string(),
        "--chip-id",
        &format!("{EX_CHIP:#x}"),
    ]);
    assert_eq!(last_line(&out), format!("{expect:#x}"), "{out}");
    let l = &soc.local;
    let get = |f: &xdie_csr::BitField| f.get(expect as u128) as u64;
    assert_eq!(
        (
            get(&l.local),
            get(&l.die),
            get(&l.cayman_id),
            get(&l.cayman_id_valid)
        ),
        (EX_LOCAL, EX_DIE, EX_CHIP, 1)
    );
}

#[test]
fn fold_decode_prints_every_field_of_both_views() {
    let c = model(&repo().join("csrs"));
    let addr = c.views.soc.fold_neighbor(EX_LOCAL, EX_DIE);
    let out = fold_cli(&["--decode", &format!("{addr:#x}")]);
    for v in &c.soc.views {
        assert!(out.contains(&format!("{} view", v.name)), "{out}");
        for f in &v.fields {
            let value = format!("= {:#x}", f.get(addr as u128));
            assert!(
                out.lines()
                    .any(|l| l.split_whitespace().next() == Some(f.name.as_str())
                        && l.trim_end().ends_with(&value)),
                "no line `{} ... {value}` in:\n{out}",
                f.name
            );
        }
    }
}

#[test]
fn fold_refuses_bad_arguments() {
    let c = model(&repo().join("csrs"));
    let die = &c.views.soc.neighbor.die;
    let o = run(xdie()
        .arg("fold")
        .arg("--csrs")
        .arg(repo().join("csrs"))
        .args(["--local", "0x0", "--die"])
        .arg((die.value_mask() + 1).to_string())
        .arg("--neighbor"));
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("does not fit"), "{}", stderr(&o));
}

/// A system routes in one view: the chip-id fold is refused in the neighbor view (the default,
/// the single package's) and the neighbor fold in the chip-id view.
#[test]
fn fold_refuses_a_fold_the_view_cannot_express() {
    for args in [
        vec!["--chip-id", "0x12"],
        vec!["--view", "neighbor", "--chip-id", "0x12"],
        vec!["--view", "chip-id", "--neighbor"],
    ] {
        let o = run(xdie()
            .arg("fold")
            .arg("--csrs")
            .arg(repo().join("csrs"))
            .args(["--local", "0x100000", "--die", "1"])
            .args(&args));
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
        assert!(stderr(&o).contains("view"), "{args:?}: {}", stderr(&o));
    }
}

/// The neighbor view's off-package form: EXIT_SENG names the C2C port, EXIT_DIE the sibling hop.
#[test]
fn fold_neighbor_exit_port_sets_the_path_fields() {
    let c = model(&repo().join("csrs"));
    let n = &c.views.soc.neighbor;
    let out = fold_cli(&[
        "--local",
        &format!("{EX_LOCAL:#x}"),
        "--die",
        "0",
        "--neighbor",
        "--exit-port",
        "2",
    ]);
    let a = u64::from_str_radix(last_line(&out).trim_start_matches("0x"), 16).expect("hex");
    let get = |f: &xdie_csr::BitField| f.get(a as u128) as u64;
    assert_eq!(
        (get(&n.exit_seng), get(&n.exit_die), get(&n.die)),
        (2, 0, 0)
    );
    assert_eq!(get(&n.neighbor_route), 1);
}

/// `--topology`: the fold comes from the system's view; in the single package (neighbor view)
/// it is the seed's worked example, and in the ring (chip-id view) it names the chip id.
#[test]
fn fold_in_a_topology_uses_its_view() {
    let c = model(&repo().join("csrs"));
    let soc = &c.views.soc;
    let pkg = repo().join("topologies/package.yaml");
    let out = fold_cli(&[
        "--topology",
        pkg.to_str().expect("utf-8"),
        "--from",
        "pkg.0",
        "--to",
        "pkg.1",
        "--local",
        &format!("{EX_LOCAL:#x}"),
    ]);
    assert_eq!(
        last_line(&out),
        format!("{:#x}", soc.fold_neighbor(EX_LOCAL, 1))
    );
    let ring = repo().join("topologies/ring4.yaml");
    let csrs = xdie_csr::load(&repo().join("csrs")).expect("csrs");
    let l = xdie_model::Layout::new(&csrs);
    let m = xdie_model::mesh::load(&ring, &l).expect("ring4");
    let p2 = &m.packages[2];
    let out = fold_cli(&[
        "--topology",
        ring.to_str().expect("utf-8"),
        "--from",
        &format!("{}.0", m.packages[0].name),
        "--to",
        &format!("{}.1", p2.name),
        "--local",
        &format!("{EX_LOCAL:#x}"),
    ]);
    assert_eq!(
        last_line(&out),
        format!("{:#x}", soc.fold_chip_id(EX_LOCAL, 1, p2.cayman_id))
    );
}
