//! The generated SoC-address package and address decoder against the model, under Verilator:
//! a testbench (written here) calls the package folds and drives the decoder with addresses
//! built from the die map (every aperture instance's first and last byte, stride gaps, the
//! space past the map) under every route (neighbor fold, chip-id fold to this and another
//! package, plain addresses with and without stray overlay bits). The expected route, aperture,
//! instance and offset come from a reference decoder written from the model below.
//!
//! Needs `verilator` on PATH (CI installs it); without it the test says so and passes.

use std::path::{Path, PathBuf};
use std::process::Command;
use xdie_csr::Csrs;
use xdie_gen::emit::sv_soc::{PKG, ROUTES};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn route_code(name: &str) -> u64 {
    ROUTES.iter().position(|(n, _)| *n == name).expect("route") as u64
}

/// The decoder's rule for one view, from the model's fields: (route, aperture, instance,
/// offset). `chip_id` selects the chip-id view, else the neighbor view (docs/mesh.md).
fn reference(csrs: &Csrs, chip_id: bool, addr: u64, my_die: u64, my_chip: u64) -> [u64; 4] {
    let (l, n) = (&csrs.views.soc.local, &csrs.views.soc.neighbor);
    let a = addr as u128;
    let get = |f: &xdie_csr::BitField| f.get(a) as u64;
    let local = get(&l.local);
    let mut hit = None;
    for (i, ap) in csrs.map.apertures.iter().enumerate() {
        for n in 0..ap.count {
            let b = ap.instance_base(n);
            if local >= b && local < b + ap.size {
                hit = Some([i as u64, n, local - b]);
            }
        }
    }
    let arrived = if hit.is_some() { "LOCAL" } else { "DECERR" };
    let die_route = if get(&l.die) != my_die {
        "PEER_DIE"
    } else {
        arrived
    };
    // The overlay bits the neighbor view leaves unnamed (PEB) are reserved.
    let named = [&n.exit_seng, &n.exit_die, &n.neighbor_route]
        .iter()
        .fold(0u128, |m, f| m | (f.value_mask() << f.lsb));
    let reserved = (l.cayman_id.value_mask() << l.cayman_id.lsb) & !named;
    let ports = csrs.views.apertures.d2d.count;
    let route = if get(&l.cayman_id_valid) == 0 {
        if get(&l.cayman_id) != 0 {
            "DECERR"
        } else {
            die_route
        }
    } else if chip_id {
        if get(&l.cayman_id) != my_chip {
            "REMOTE_PKG"
        } else {
            die_route
        }
    } else if get(&n.neighbor_route) == 0 || a & reserved != 0 {
        "DECERR"
    } else if get(&n.exit_die) != 0 {
        "PEER_DIE"
    } else if get(&n.exit_seng) != 0 {
        if get(&n.exit_seng) < ports {
            "REMOTE_PKG"
        } else {
            "DECERR"
        }
    } else {
        die_route
    };
    let [ap, inst, off] = hit.unwrap_or([0, 0, 0]);
    [route_code(route), ap, inst, off]
}

/// Die-local addresses that exercise every aperture edge, the stride gaps and the unmapped space.
fn local_addresses(csrs: &Csrs) -> Vec<u64> {
    let mut v = Vec::new();
    for ap in &csrs.map.apertures {
        for n in 0..ap.count {
            let b = ap.instance_base(n);
            v.push(b);
            v.push(b + ap.size - 1);
            if ap.stride > ap.size {
                v.push(b + ap.size);
            }
        }
        v.push(ap.end());
    }
    v
}

struct Case {
    addr: u64,
    my_die: u64,
    my_chip: u64,
}

fn cases(csrs: &Csrs) -> Vec<Case> {
    let soc = &csrs.views.soc;
    let chip_f = soc.local.cayman_id.clone();
    let n = &soc.neighbor;
    let my_chip = 1u64;
    let other_chip = chip_f.value_mask() as u64 & 0x5;
    let mut out = Vec::new();
    for local in local_addresses(csrs) {
        for my_die in 0..2u64 {
            for die in 0..2u64 {
                let plain = soc.local.die.set(local as u128, die as u128) as u64;
                let stray = chip_f.set(plain as u128, other_chip as u128) as u64;
                let mut routed = vec![
                    plain,
                    stray,
                    soc.fold_neighbor(local, die),
                    soc.fold_chip_id(local, die, my_chip),
                    soc.fold_chip_id(local, die, other_chip),
                ];
                // Every overlay value under the id-valid bit: every chip id in the chip-id view,
                // every path form (and the reserved and out-of-range ones) in the neighbor view.
                if local == csrs.views.apertures.sbuf.base {
                    routed.extend(
                        (0..=chip_f.value_mask() as u64).map(|c| soc.fold_chip_id(local, die, c)),
                    );
                }
                // The two-hop neighbor form: cross to the sibling, then leave through a port.
                let two_hop = n.exit_seng.set(soc.fold_neighbor(local, die) as u128, 1) as u64;
                routed.push(two_hop);
                out.extend(routed.into_iter().map(|addr| Case {
                    addr,
                    my_die,
                    my_chip,
                }));
            }
        }
    }
    out
}

/// splitmix64 for the fold inputs.
fn random(seed: u64, n: usize) -> Vec<u64> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        })
        .collect()
}

/// The testbench reads its stimuli with $readmemh so that its size (and compile time) does not
/// grow with the number of cases: three 64-bit words per fold input, three per decode case.
fn testbench(n_folds: usize, n_cases: usize) -> String {
    let p = PKG;
    format!(
        "module tb;\n\
         logic [63:0] folds [{nf}];\n\
         logic [63:0] cases [{nc}];\n\
         logic [{p}::SOC_ADDR_W-1:0] a;\n\
         logic [{p}::LOCAL_DIE_WIDTH-1:0] die;\n\
         logic [{p}::LOCAL_CAYMAN_ID_WIDTH-1:0] chip;\n\
         logic [{p}::ROUTE_W-1:0] r, rn;\n\
         logic [{p}::AP_W-1:0] ap;\n\
         logic [{p}::INST_W-1:0] inst;\n\
         logic [{p}::OFF_W-1:0] off;\n\
         logic [{p}::AP_W-1:0] apn;\n\
         logic [{p}::INST_W-1:0] instn;\n\
         logic [{p}::OFF_W-1:0] offn;\n\
         logic [{p}::ROUTE_W-1:0] rz;\n\
         logic [{p}::AP_W-1:0] apz;\n\
         logic [{p}::INST_W-1:0] instz;\n\
         logic [{p}::OFF_W-1:0] offz;\n\
         xdie_addr_decoder #(.VIEW({p}::VIEW_CHIP_ID)) u (.valid_i(1'b1), .addr_i(a), .my_die_i(die), .my_chip_i(chip),\n\
           .route_o(r), .aperture_o(ap), .instance_o(inst), .offset_o(off));\n\
         xdie_addr_decoder #(.VIEW({p}::VIEW_NEIGHBOR)) un (.valid_i(1'b1), .addr_i(a), .my_die_i(die), .my_chip_i(chip),\n\
           .route_o(rn), .aperture_o(apn), .instance_o(instn), .offset_o(offn));\n\
         xdie_addr_decoder #(.VIEW({p}::VIEW_CHIP_ID)) uz (.valid_i(1'b0), .addr_i(a), .my_die_i(die), .my_chip_i(chip),\n\
           .route_o(rz), .aperture_o(apz), .instance_o(instz), .offset_o(offz));\n\
         initial begin\n\
           $readmemh(\"folds.hex\", folds);\n\
           $readmemh(\"cases.hex\", cases);\n\
           for (int i = 0; i < {nf}; i += 3) begin\n\
             $display(\"F %h %h\", {p}::fold_neighbor(folds[i], folds[i+1]),\n\
               {p}::fold_chip_id(folds[i], folds[i+1], folds[i+2]));\n\
           end\n\
           for (int i = 0; i < {nc}; i += 3) begin\n\
             a = cases[i]; die = cases[i+1]; chip = cases[i+2]; #1;\n\
             $display(\"D %h %h %h %h\", r, ap, inst, off);\n\
             $display(\"N %h %h %h %h\", rn, apn, instn, offn);\n\
             $display(\"Z %h %h %h %h\", rz, apz, instz, offz);\n\
           end\n\
           $finish;\n\
         end\n\
         endmodule\n",
        nf = 3 * n_folds,
        nc = 3 * n_cases,
    )
}

fn memh(words: impl IntoIterator<Item = u64>) -> String {
    words.into_iter().map(|w| format!("{w:016x}\n")).collect()
}

fn hex(s: &str) -> u64 {
    u64::from_str_radix(s, 16).unwrap_or_else(|e| panic!("`{s}` is not hex: {e}"))
}

#[test]
fn sv_package_and_decoder_match_model() {
    assert!(
        Command::new("verilator").arg("--version").output().is_ok(),
        "verilator is not on PATH: run `cargo xtask setup` (or apt-get install verilator)"
    );
    let csrs = xdie_csr::load(&root().join("csrs")).expect("csrs/ loads");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sv_soc_pkg");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut srcs = Vec::new();
    for f in xdie_gen::emit::render_all(&csrs).expect("render") {
        let name = f.path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name == format!("{PKG}.sv") || name == "xdie_addr_decoder.sv" {
            let p = dir.join(name);
            std::fs::write(&p, &f.contents).expect("write rtl");
            srcs.push(p);
        }
    }
    srcs.sort_by_key(|p| !p.to_string_lossy().ends_with("_pkg.sv"));
    let rnd = random(0x50c_add7, 96);
    let folds: Vec<[u64; 3]> = rnd
        .chunks(3)
        .map(|c| [c[0], c[1] & 3, c[2] & 0xff])
        .collect();
    let cases = cases(&csrs);
    std::fs::write(dir.join("tb.sv"), testbench(folds.len(), cases.len())).expect("write tb");
    std::fs::write(dir.join("folds.hex"), memh(folds.iter().flatten().copied())).expect("folds");
    std::fs::write(
        dir.join("cases.hex"),
        memh(cases.iter().flat_map(|c| [c.addr, c.my_die, c.my_chip])),
    )
    .expect("cases");
    // The testbench passes 64-bit words to narrower arguments on purpose (truncation must match
    // the model's SET), hence -Wno-WIDTH for this build only; the RTL itself lints clean.
    let out = Command::new("verilator")
        .args([
            "--binary",
            "-Wno-WIDTH",
            "-j",
            "1",
            "--top-module",
            "tb",
            "-Mdir",
        ])
        .arg(dir.join("obj"))
        .args(&srcs)
        .arg(dir.join("tb.sv"))
        .output()
        .expect("run verilator");
    assert!(
        out.status.success(),
        "verilator failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(dir.join("obj/Vtb"))
        .current_dir(&dir)
        .output()
        .expect("run tb");
    let text = String::from_utf8_lossy(&run.stdout);
    let soc = &csrs.views.soc;
    let mut fi = folds.iter();
    let mut ci = cases.iter();
    let (mut nfold, mut ndec) = (0, 0);
    let mut last: Option<&Case> = None;
    let mut nidle = 0;
    for line in text.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.first() {
            Some(&"F") => {
                let [d, p, c] = *fi.next().expect("fold line");
                assert_eq!(hex(w[1]), soc.fold_neighbor(d, p), "fold_neighbor {line}");
                assert_eq!(hex(w[2]), soc.fold_chip_id(d, p, c), "fold_chip_id {line}");
                nfold += 1;
            }
            Some(&"D") | Some(&"N") => {
                let chip_id = w[0] == "D";
                let c = if chip_id {
                    ci.next().expect("decode line")
                } else {
                    last.expect("a D line before each N line")
                };
                last = Some(c);
                let want = reference(&csrs, chip_id, c.addr, c.my_die, c.my_chip);
                let got = [hex(w[1]), hex(w[2]), hex(w[3]), hex(w[4])];
                assert_eq!(
                    got, want,
                    "{} view: addr {:#x} my_die {} my_chip {:#x}: [route, aperture, instance, offset]",
                    if chip_id { "chip-id" } else { "neighbor" },
                    c.addr, c.my_die, c.my_chip
                );
                ndec += 1;
            }
            // No request presented: nothing decoded.
            Some(&"Z") => {
                let got = [hex(w[1]), hex(w[2]), hex(w[3]), hex(w[4])];
                assert_eq!(
                    got,
                    [route_code("DECERR"), 0, 0, 0],
                    "decoder without valid_i: {line}"
                );
                nidle += 1;
            }
            _ => {}
        }
    }
    assert_eq!(nidle, cases.len(), "idle decoder lines missing");
    assert_eq!(
        (nfold, ndec),
        (folds.len(), 2 * cases.len()),
        "lines missing"
    );
}
