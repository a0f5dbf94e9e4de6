//! CSR variants: the shipped csrs/ with one dimension changed (queues per UDMA group,
//! semaphores (the sequencer slots' SEM field follows), the EVT_SEM INC and DEC windows swapped,
//! engines per die, beat width, inbound permission windows per die). For each,
//! the CSRs load, `xdie gen` renders them, and the package top built from the variant's RTL
//! (generated rtl/gen plus this repository's rtl/core) elaborates lint-clean under
//! `verilator --lint-only -Wall`. That is the claim "change a CSR file and everything follows":
//! no hand-written file is edited for any variant.
//!
//! Full cosimulation of a variant (every testbench test, the worked example included, against
//! the variant's reference models) is the ignored test `cosimulate_a_variant`:
//! `cargo test --release --test variants -- --ignored` (it builds a second set of Verilator
//! models in target/variant, about as long as a clean build).

mod common;
#[path = "../tb/build/filelist.rs"]
mod filelist;

use common::*;
use rstest::rstest;
use serde_json::Value as Json;
use serde_yaml::Value as Yaml;
use std::path::Path;
use std::process::Command;

fn edit_json(file: &Path, f: impl FnOnce(&mut Json)) {
    let mut v: Json =
        serde_json::from_str(&std::fs::read_to_string(file).expect("read")).expect("json");
    f(&mut v);
    std::fs::write(file, serde_json::to_string_pretty(&v).expect("json")).expect("write");
}

fn edit_yaml(file: &Path, f: impl FnOnce(&mut Yaml)) {
    let mut v: Yaml =
        serde_yaml::from_str(&std::fs::read_to_string(file).expect("read")).expect("yaml");
    f(&mut v);
    std::fs::write(file, serde_yaml::to_string(&v).expect("yaml")).expect("write");
}

fn num(v: &Json) -> u64 {
    match v {
        Json::Number(n) => n.as_u64().expect("unsigned"),
        Json::String(s) => u64::from_str_radix(s.trim_start_matches("0x"), 16).expect("hex"),
        other => panic!("not a number: {other}"),
    }
}

fn hex(v: u64) -> Json {
    Json::String(format!("0x{v:X}"))
}

/// Bits needed to index `n` things (at least 1).
fn index_bits(n: u64) -> u32 {
    (64 - (n.max(2) - 1).leading_zeros()).max(1)
}

fn bundles_with_role<'a>(block: &'a mut Json, roles: &'a [&str]) -> Vec<&'a mut Json> {
    block["Bundles"]
        .as_array_mut()
        .expect("Bundles")
        .iter_mut()
        .filter(|b| roles.contains(&b["Role"].as_str().unwrap_or("")))
        .collect()
}

/// The aperture of the address map whose `block` is `block`.
fn aperture<'a>(map: &'a mut Yaml, block: &str) -> &'a mut Yaml {
    map["apertures"]
        .as_sequence_mut()
        .expect("apertures")
        .iter_mut()
        .find(|a| a["block"].as_str() == Some(block))
        .unwrap_or_else(|| panic!("no aperture of block {block}"))
}

fn set_param(csrs: &Path, name: &str, value: u64) {
    edit_yaml(&csrs.join("address_map.yaml"), |m| {
        let p = m["parameters"]
            .as_sequence_mut()
            .expect("parameters")
            .iter_mut()
            .find(|p| p["name"].as_str() == Some(name))
            .unwrap_or_else(|| panic!("no parameter {name}"));
        p["value"] = Yaml::from(value);
    });
}

/// Grow a block to hold its bundles (a power of two), and its aperture(s) with it.
fn fit_block(csrs: &Path, block: &str) -> u64 {
    let mut size = 0;
    edit_json(&csrs.join(format!("blocks/{block}.json")), |b| {
        let end = b["Bundles"]
            .as_array()
            .expect("Bundles")
            .iter()
            .map(|x| num(&x["AddressOffset"]) + num(&x["ArraySize"]) * num(&x["BundleSizeInBytes"]))
            .max()
            .unwrap_or(0);
        size = num(&b["SizeInBytes"]).max(end.next_power_of_two());
        b["SizeInBytes"] = hex(size);
    });
    edit_yaml(&csrs.join("address_map.yaml"), |m| {
        let a = aperture(m, block);
        let old = a["size"].as_u64().expect("size");
        a["size"] = Yaml::from(old.max(size));
        // One instance per core: the instances move apart when one grows past their stride.
        if let Some(stride) = a["stride"].as_u64() {
            a["stride"] = Yaml::from(stride.max(size));
        }
    });
    size
}

/// `n` queues in both UDMA groups; the broadcast doorbell's QUEUE field follows, and the S2M
/// apertures move up when the M2S ones grow into them.
fn queues(csrs: &Path, n: u64) {
    for side in ["udma_m2s", "udma_s2m"] {
        edit_json(&csrs.join(format!("blocks/{side}.json")), |b| {
            for q in bundles_with_role(b, &["queue"]) {
                q["ArraySize"] = Json::from(n);
            }
        });
    }
    let size = fit_block(csrs, "udma_m2s").max(fit_block(csrs, "udma_s2m"));
    edit_yaml(&csrs.join("address_map.yaml"), |m| {
        let m2s = aperture(m, "udma_m2s")["base"].as_u64().expect("base");
        let s2m = aperture(m, "udma_s2m");
        let base = s2m["base"].as_u64().expect("base");
        s2m["base"] = Yaml::from(base.max(m2s + size));
    });
    edit_json(&csrs.join("blocks/sdma_bcast.json"), |b| {
        let regs = b["Registers"].as_array_mut().expect("Registers");
        resize_fields(regs, "queue", index_bits(n));
    });
}

/// Every field with role `role` of `regs` gets `width` bits from its own LSB up.
fn resize_fields(regs: &mut [Json], role: &str, width: u32) {
    for r in regs {
        for f in r["Fields"].as_array_mut().expect("Fields") {
            if f["Role"].as_str() == Some(role) {
                let lsb: u32 = f["Bits"]
                    .as_str()
                    .and_then(|s| s.split(':').nth(1))
                    .and_then(|s| s.parse().ok())
                    .expect("Bits msb:lsb");
                f["Bits"] = Json::String(format!("{}:{lsb}", lsb + width - 1));
            }
        }
    }
}

const SEM_WINDOWS: [&str; 4] = ["sem_read", "sem_set", "sem_inc", "sem_dec"];

/// `n` semaphores in each EVT_SEM window; windows that no longer fit their spacing are laid out
/// again, each aligned to its own size, and the block and its aperture grow to hold them.
fn semaphores(csrs: &Path, n: u64) {
    edit_json(&csrs.join("blocks/evt_sem.json"), |b| {
        let mut ws = bundles_with_role(b, &SEM_WINDOWS);
        let first = ws
            .iter()
            .map(|w| num(&w["AddressOffset"]))
            .min()
            .expect("windows");
        let spacing = (n * num(&ws[0]["BundleSizeInBytes"])).next_power_of_two();
        let old_spacing = num(&ws[1]["AddressOffset"]) - num(&ws[0]["AddressOffset"]);
        for (k, w) in ws.iter_mut().enumerate() {
            w["ArraySize"] = Json::from(n);
            if spacing > old_spacing {
                w["AddressOffset"] = hex(first.next_multiple_of(spacing) + k as u64 * spacing);
            }
        }
    });
    fit_block(csrs, "evt_sem");
    // The sequencer slots name a semaphore with exactly its index bits.
    edit_json(&csrs.join("blocks/sem_seq.json"), |b| {
        for slot in bundles_with_role(b, &["slot"]) {
            let regs = slot["Registers"].as_array_mut().expect("Registers");
            resize_fields(regs, "sem", index_bits(n));
        }
    });
}

fn swap_inc_dec(csrs: &Path) {
    edit_json(&csrs.join("blocks/evt_sem.json"), |b| {
        let ws = bundles_with_role(b, &["sem_inc", "sem_dec"]);
        let [inc, dec] = <[&mut Json; 2]>::try_from(ws).expect("one INC and one DEC window");
        let off = inc["AddressOffset"].clone();
        inc["AddressOffset"] = dec["AddressOffset"].clone();
        dec["AddressOffset"] = off;
    });
}

/// `n` inbound permission windows (the default windows stay; `n` holds them all).
fn inbound_windows(csrs: &Path, n: u64) {
    edit_json(&csrs.join("blocks/d2d_inbound.json"), |b| {
        for w in bundles_with_role(b, &["window"]) {
            w["ArraySize"] = Json::from(n);
        }
    });
}

#[derive(Debug, Clone, Copy)]
enum Variant {
    Queues(u64),
    Semaphores(u64),
    SwapIncDec,
    Engines(u64),
    DataBytes(u64),
    InboundWindows(u64),
    /// Cores per die: the count of every per-core aperture.
    Cores(u64),
    /// The cosimulated one: 8 queues and 128 semaphores.
    Small,
}

fn apply(csrs: &Path, v: Variant) {
    match v {
        Variant::Queues(n) => queues(csrs, n),
        Variant::Semaphores(n) => semaphores(csrs, n),
        Variant::SwapIncDec => swap_inc_dec(csrs),
        Variant::Engines(n) => set_param(csrs, "SDMA_ENGINES", n),
        Variant::DataBytes(n) => set_param(csrs, "DATA_BYTES", n),
        Variant::InboundWindows(n) => inbound_windows(csrs, n),
        Variant::Cores(n) => edit_yaml(&csrs.join("address_map.yaml"), |m| {
            let aps = m["apertures"].as_sequence_mut().expect("apertures");
            for name in ["SBUF", "EVT_SEM", "SBUF_ACC_I32", "SBUF_ACC_F32"] {
                let a = aps
                    .iter_mut()
                    .find(|a| a["name"].as_str() == Some(name))
                    .unwrap_or_else(|| panic!("no aperture {name}"));
                a["count"] = Yaml::from(n);
            }
        }),
        Variant::Small => {
            queues(csrs, 8);
            semaphores(csrs, 128);
        }
    }
}

/// The variant took effect: its typed views show the changed dimension.
fn check_applied(c: &xdie_csr::Csrs, v: Variant) {
    let views = &c.views;
    let evt = c
        .blocks
        .iter()
        .find_map(|b| b.evt_sem())
        .expect("an EVT_SEM block");
    match v {
        Variant::Queues(n) => assert_eq!(views.queues(), n),
        Variant::Semaphores(n) => {
            assert_eq!(evt.sem_count(), n);
            assert_eq!(1u64 << views.sem_seq.sem.width, n.next_power_of_two());
        }
        Variant::SwapIncDec => {
            use xdie_csr::SemOp;
            assert!(evt.sem_offset(SemOp::Inc, 0) > evt.sem_offset(SemOp::Dec, 0));
        }
        Variant::Engines(n) => assert_eq!(u64::from(views.params.sdma_engines), n),
        Variant::DataBytes(n) => assert_eq!(u64::from(views.params.data_bytes), n),
        Variant::InboundWindows(n) => {
            assert_eq!(views.inbound.windows(), n);
            assert_eq!(views.inbound_reset().len() as u64, n);
        }
        Variant::Cores(n) => assert_eq!(views.cores(), n),
        Variant::Small => {
            assert_eq!(views.queues(), 8);
            assert_eq!(evt.sem_count(), 128);
            assert_eq!(1u64 << views.sem_seq.sem.width, 128);
        }
    }
}

/// Write the variant's design tree under `root`: csrs/, everything `xdie gen` renders, and this
/// repository's hand-written RTL and lint configuration.
fn design(root: &Path, v: Variant) -> xdie_csr::Csrs {
    let csrs = root.join("csrs");
    let _ = std::fs::remove_dir_all(root);
    copy_dir(&repo().join("csrs"), &csrs);
    apply(&csrs, v);
    let c =
        xdie_csr::load(&csrs).unwrap_or_else(|e| panic!("{v:?}: the variant does not load: {e}"));
    check_applied(&c, v);
    gen_into(&csrs, root);
    copy_dir(&repo().join("rtl/core"), &root.join("rtl/core"));
    copy_dir(&repo().join("rtl/sim"), &root.join("rtl/sim"));
    std::fs::copy(
        repo().join(filelist::LINT_CONFIG),
        root.join(filelist::LINT_CONFIG),
    )
    .expect("copy the lint configuration");
    c
}

#[rstest]
#[case::queues_8(Variant::Queues(8))]
#[case::queues_32(Variant::Queues(32))]
#[case::semaphores_128(Variant::Semaphores(128))]
#[case::semaphores_512(Variant::Semaphores(512))]
#[case::inc_dec_swapped(Variant::SwapIncDec)]
#[case::engines_8(Variant::Engines(8))]
#[case::beat_16_bytes(Variant::DataBytes(16))]
#[case::beat_64_bytes(Variant::DataBytes(64))]
#[case::inbound_windows_10(Variant::InboundWindows(10))]
#[case::inbound_windows_16(Variant::InboundWindows(16))]
#[case::cores_2(Variant::Cores(2))]
fn variant_generates_and_the_package_top_elaborates_lint_clean(#[case] v: Variant) {
    let s = Scratch::new("variant");
    design(&s.path, v);
    // The package top, and the die node every composed system is made of (outside the
    // filelist: a simulation top).
    for (top, extra) in [
        ("xdie_pkg_top", None),
        ("xdie_die_node", Some("rtl/sim/xdie_die_node.sv")),
    ] {
        let o = Command::new("verilator")
            .current_dir(&s.path)
            .args([
                "--lint-only",
                "-Wall",
                filelist::LINT_CONFIG,
                "-f",
                filelist::FILELIST,
            ])
            .args(extra)
            .args(["--top-module", top])
            .output()
            .expect("run verilator (install it with `cargo xtask setup`)");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(
            o.status.success() && !text.contains("%Warning") && !text.contains("%Error"),
            "{v:?}: {top} does not lint clean:\n{text}"
        );
    }
}

/// Every testbench test (register blocks against the variant's reference models, the engines,
/// the package top and the worked example) on the RTL of the 8-queue, 128-semaphore variant.
#[test]
#[ignore = "builds a second set of Verilator models (minutes); run with --ignored"]
fn cosimulate_a_variant() {
    let root = repo().join("target/variant/design");
    design(&root, Variant::Small);
    let o = Command::new(env!("CARGO"))
        .current_dir(repo())
        .args([
            "test",
            "--release",
            "-p",
            "xdie-tb",
            "--features",
            "package",
        ])
        .env("XDIE_DESIGN_ROOT", &root)
        .env("CARGO_TARGET_DIR", repo().join("target/variant/target"))
        .status()
        .expect("run cargo");
    assert!(
        o.success(),
        "the testbench failed on the variant (its design is in {})",
        root.display()
    );
}
