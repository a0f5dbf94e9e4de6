//! Verilates every DUT module of the committed filelist and links the models into this crate.
//!
//! The DUT list, the model sources and the port tables are all derived: modules come from the
//! files `rtl/xdie.f` names, model sources from Verilator's own `V<top>_classes.mk`, ports from
//! the `VL_IN*`/`VL_OUT*` declarations of `V<top>.h`. Nothing here names a generated file or a
//! port by hand, so a module or port added to a template needs no edit in this crate.
//!
//! One module per job: `filelist` reads the list (shared with the root crate's RTL checks),
//! `verilate` runs Verilator and reads its output, `compile` builds the archives, `cache` keeps
//! them content-addressed across builds, `glue` writes the C++ and Rust port tables.

#[path = "build/cache.rs"]
mod cache;
#[path = "build/compile.rs"]
mod compile;
#[path = "build/filelist.rs"]
mod filelist;
#[path = "build/fingerprint.rs"]
mod fingerprint;
#[path = "build/glue.rs"]
mod glue;
#[path = "build/verilate.rs"]
mod verilate;

use std::env;
use std::fs;
use std::path::{Path, PathBuf};

use cache::{model_cache, model_hash, prune_cache, touch};
use compile::{
    compile_model, compile_runtime, cxx_flags, package_compiler_is_clang, MODEL_CXX_ENV,
    RUNTIME_LIB,
};
use glue::{cpp_tables, rust_tables, write_if_changed};
use verilate::{parse_ports, verilate, verilator_root, PortDecl};

/// The shared AXI4-Lite front-end is instantiated by every block, never simulated alone; a die
/// is simulated inside the package top or the die node (alone it would double the largest
/// model's build). The FIFO and the round-robin arbiter are leaf primitives tested through the
/// modules that use them (D2D port, SBUF, crossbar, SDMA engine), the two halves of a link
/// channel through the channel and the link: no test drives them alone, so a model of each would
/// only cost build time.
const NOT_A_DUT: &[&str] = &[
    "xdie_axil_regif",
    "xdie_die",
    "xdie_fifo",
    "xdie_rr_arbiter",
    "xdie_d2d_sender",
    "xdie_d2d_receiver",
];

/// The large models: tens of megabytes of model source each. They are verilated with the
/// simulation hooks of the RTL (`XDIE_SIM_HOOKS`: the memories' backdoor and the write monitors)
/// and compiled as one unit per model file. Module inlining is limited to modules instantiated
/// once per parent and small ones (`--inline-mult 1`): the many identical engines and queue
/// groups keep one class each (a small model to build), while the crossbar, decoders and FIFOs
/// melt into their parent, whose port copies would otherwise run every cycle (docs/fpga-fit.md
/// has the instruction counts). Variables start at zero (`--x-initial 0`): no test randomizes
/// the initial state, and the default per-word random-reset calls over the 136 MB SBUF took as
/// many instructions as the worked example's transfer.
///
/// The package top (two dies and their link, in the filelist) runs the single-package scenarios;
/// the die node (`rtl/sim/xdie_die_node.sv`, one die with its ends of its links, outside the
/// filelist: a simulation top, not a part of the die) is instanced once per die of any topology
/// by the composed system (src/system.rs), so no topology needs a model of its own.
///
/// The die node is built twice, once per address view (a system routes in one view and the die's
/// decoders are built for it, docs/mesh.md): `xdie_die_node` for the chip-id view and
/// `xdie_die_node_neighbor` (`NODE_VARIANTS`) for the neighbor view.
const PACKAGE_TOPS: &[&str] = &["xdie_pkg_top", "xdie_die_node", "xdie_die_node_neighbor"];

/// Models of a module built with a define of their own: (model name, module, define). The model
/// is the module verilated under Verilator's `--prefix V<model>`, so its classes, files and
/// archive are its own while its scopes (`TOP.<module>...`) are the module's; it is built
/// whenever the module is.
const NODE_VARIANTS: &[(&str, &str, &str)] = &[(
    "xdie_die_node_neighbor",
    "xdie_die_node",
    "XDIE_NODE_VIEW=xdie_soc_addr_pkg::VIEW_NEIGHBOR",
)];

fn variant(name: &str) -> Option<&'static (&'static str, &'static str, &'static str)> {
    NODE_VARIANTS.iter().find(|v| v.0 == name)
}

/// The crate feature each large model needs (`CARGO_FEATURE_<NAME>`; `None`: always built) and
/// the source file it adds to the filelist, if any.
const TOP_FEATURES: &[(&str, Option<&str>, Option<&str>)] = &[
    ("xdie_pkg_top", Some("PACKAGE"), None),
    ("xdie_die_node", None, Some("rtl/sim/xdie_die_node.sv")),
];

fn top_feature(
    name: &str,
) -> Option<&'static (&'static str, Option<&'static str>, Option<&'static str>)> {
    TOP_FEATURES.iter().find(|t| t.0 == name)
}

/// The environment variable that asks for waveforms: at run time it makes the harness trace
/// every model (tb/src/harness.rs), at build time it makes this script verilate the package tops
/// with `--trace-fst`. Without it the package tops are built untraced: Verilator's trace support
/// costs them a few per cent of their instructions per cycle (it marks activity in every process
/// and keeps signals it could otherwise fold away) and its code (a third of the package top's
/// C++, a large part of their build. The small block models
/// are always traced: they cost seconds. The model cache keeps a model's last two builds, so
/// switching between the traced and the untraced package model costs a verilation, not a
/// compile, once both are built.
const TRACE_ENV: &str = "XDIE_TRACE";

/// Whether `name` is verilated with `--trace-fst` in this build (see `TRACE_ENV`).
fn traced(name: &str) -> bool {
    !PACKAGE_TOPS.contains(&name) || env::var(TRACE_ENV).is_ok_and(|v| v == "1")
}

/// The define that makes the crossbar's per-port fields unpacked arrays (see `xdie_xbar`): the
/// form Verilator simulates fastest, for the package tops. The crossbar's own model keeps the
/// default packed ports, which the port tables bind as flat vectors.
const UNPACKED_PORTS_DEFINE: &str = "XDIE_UNPACKED_PORTS";

/// The define that gives the FIFOs' storage process the reset process's sensitivity (see
/// `xdie_fifo`): one Verilator trigger per gated clock instead of two, for the package tops.
const FAST_STORAGE_DEFINE: &str = "XDIE_FAST_STORAGE";

/// The AXI4-Lite protocol checks (rtl/assert/, outside the filelist: never synthesized): the
/// checker and the file that binds it to every AXI4-Lite port of the die. Every model is verilated
/// with them and `--assert`, so every cosimulation checks the protocol on every AXI4-Lite link its
/// RTL has (a model without such a port simply has no checker). A broken rule stops the model
/// (Verilator's `$error`), and the testbench fails the run (tb/src/sim.rs). They are this
/// repository's files even for another design root: they name only the modules and ports of the
/// hand-written RTL.
const ASSERT_FILES: &[&str] = &[
    "rtl/assert/xdie_axil_check.sv",
    "rtl/assert/xdie_axil_bind.sv",
];

/// `XDIE_ASSERT=0` builds the models without the protocol checks (`ASSERT_FILES`), to measure
/// what they cost (README, "Tests"); any other value, or none, builds them in.
const ASSERT_ENV: &str = "XDIE_ASSERT";

/// Whether this build verilates the protocol checks (see `ASSERT_ENV`).
fn asserts_on() -> bool {
    env::var(ASSERT_ENV).map_or(true, |v| v != "0")
}

/// The define that turns on the RTL's simulation hooks. Several models of one link may have
/// them (the package top and the die node): the hooks are DPI imports, one C function each that the
/// shim implements once, and every call finds its model and record layout through the calling
/// scope (`svGetScope` and the scope's user data, set per model instance by `Dut::watch`).
const HOOKS_DEFINE: &str = "XDIE_SIM_HOOKS";

struct Dut {
    name: String,
    /// Verilator's output directory (headers for the shim).
    mdir: PathBuf,
    /// Directory holding the model's static archive.
    lib_dir: PathBuf,
    lib: String,
    ports: Vec<PortDecl>,
    /// Verilated with `--trace-fst` (see `traced`).
    traced: bool,
}

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    // The design the models are built from: this repository, or (for cosimulating a CSR variant)
    // a tree that `xdie gen --csrs DIR --out ROOT` wrote, with rtl/core and rtl/lint.vlt beside
    // it. The reference models then read ROOT/csrs, so RTL and expectations always agree.
    println!("cargo:rerun-if-env-changed=XDIE_DESIGN_ROOT");
    println!("cargo:rerun-if-env-changed={TRACE_ENV}");
    println!("cargo:rerun-if-env-changed={ASSERT_ENV}");
    println!("cargo:rerun-if-env-changed={MODEL_CXX_ENV}");
    let repo = match env::var_os("XDIE_DESIGN_ROOT") {
        Some(root) => PathBuf::from(root),
        None => manifest
            .parent()
            .expect("tb/ lives in the repository root")
            .to_path_buf(),
    };
    println!(
        "cargo:rustc-env=XDIE_CSRS_DIR={}",
        repo.join("csrs").display()
    );
    let out = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));
    let filelist = repo.join(filelist::FILELIST);

    println!("cargo:rerun-if-changed={}", filelist.display());
    println!("cargo:rerun-if-changed={}", repo.join("rtl").display());
    // Whether the models carry the checks, for the tests that need them (tests/protocol_checks.rs).
    println!(
        "cargo:rustc-env=XDIE_TB_PROTOCOL_CHECKS={}",
        u8::from(asserts_on())
    );
    let checks: Vec<String> = if asserts_on() {
        ASSERT_FILES
            .iter()
            .map(|f| manifest.parent().expect("repository root").join(f))
            .inspect(|f| println!("cargo:rerun-if-changed={}", f.display()))
            .map(|f| f.display().to_string())
            .collect()
    } else {
        Vec::new()
    };
    println!("cargo:rerun-if-changed=csrc");
    println!("cargo:rerun-if-changed=src/ffi.rs");

    let mut features = Vec::new();
    for feature in TOP_FEATURES.iter().filter_map(|t| t.1) {
        println!("cargo:rerun-if-env-changed=CARGO_FEATURE_{feature}");
        if env::var_os(format!("CARGO_FEATURE_{feature}")).is_some() {
            features.push(feature);
        }
    }
    let vroot = verilator_root();
    let vinc = vroot.join("include");
    let cache = model_cache(&out);
    fs::create_dir_all(&cache).expect("create model cache");

    // RTL that does not verilate (a CSR edit left rtl/ stale, a typo in rtl/core) must not stop
    // the build: `xdie gen`, which repairs it, lives in the same binary as `xdie sim`. The crate
    // then builds with no models and says why (`xdie_tb::RTL_UNAVAILABLE`), and every test or
    // command that needs a model reports that reason.
    let duts = match design_modules(&repo, &filelist, &out, &features)
        .and_then(|names| build_models(&repo, &filelist, &out, &cache, &vinc, &names, &checks))
    {
        Ok(duts) => {
            write_if_changed(
                &out.join("rtl_unavailable.rs"),
                "pub const RTL_UNAVAILABLE: Option<&str> = None;\n",
            );
            duts
        }
        Err(e) => {
            let first = e.lines().find(|l| l.starts_with('%')).unwrap_or(e.as_str());
            println!("cargo:warning=the RTL does not verilate, so no models were built: {first}");
            write_if_changed(
                &out.join("rtl_unavailable.rs"),
                &format!("pub const RTL_UNAVAILABLE: Option<&str> = Some({e:?});\n"),
            );
            Vec::new()
        }
    };
    let runtime_dir = compile_runtime(&vinc, &cache);

    let gen_dir = out.join("gen");
    fs::create_dir_all(&gen_dir).expect("create gen dir");
    write_if_changed(&gen_dir.join("xdie_tb_duts.inc"), &cpp_tables(&duts));
    write_if_changed(&out.join("duts.rs"), &rust_tables(&duts));

    // Only the shim lives here; an archive left by an older build would shadow the cache's.
    let lib_dir = out.join("lib");
    let _ = fs::remove_dir_all(&lib_dir);
    fs::create_dir_all(&lib_dir).expect("create lib dir");
    let mut shim = cxx_build::bridge("src/ffi.rs");
    shim.file("csrc/shim.cc")
        .include(&gen_dir)
        .include(&vinc)
        .include(vinc.join("vltstd"))
        .opt_level(2)
        .cargo_metadata(false)
        .out_dir(&lib_dir);
    for d in &duts {
        shim.include(&d.mdir);
    }
    // The shim implements the hooks' DPI imports once, against the prototypes of the first
    // hooked model (every hooked model declares the same ones: the same RTL hooks).
    if let Some(d) = duts
        .iter()
        .find(|d| PACKAGE_TOPS.contains(&d.name.as_str()))
    {
        shim.define("XDIE_TB_HOOKS", None).define(
            "XDIE_TB_HOOKS_DPI_H",
            Some(format!("\"V{}__Dpi.h\"", d.name).as_str()),
        );
    }
    cxx_flags(&mut shim);
    shim.compile("xdie_tb_shim");

    // The reference firmware (fw/), against the headers generated from the design's csrs/, once
    // per address view (the package top routes in the neighbor view, the composed systems in the chip-id
    // view; firmware compiles against one view), warnings as errors. The chip-id build's public
    // functions are renamed with a prefix (`FW_CHIP_ID_PREFIX`, see `fw_renames`) so both link
    // into one binary; the HAL they call is shared. Like RTL that does not verilate, firmware
    // that does not compile against stale headers must not stop the build (`xdie gen` repairs
    // the headers): the crate then says why (`xdie_tb::FW_UNAVAILABLE`) and the firmware-driven
    // runs report it.
    let fw = manifest.parent().expect("repository root").join("fw");
    println!("cargo:rerun-if-changed={}", fw.display());
    println!("cargo:rerun-if-changed={}", repo.join("include").display());
    println!("cargo:rustc-check-cfg=cfg(xdie_fw_built)");
    let renames = fw_renames(&fw);
    let mut fw_built: Result<(), String> = Ok(());
    for (view, lib, rename) in [
        ("XDIE_VIEW_NEIGHBOR", "xdie_fw", false),
        ("XDIE_VIEW_CHIP_ID", "xdie_fw_chip_id", true),
    ] {
        let mut b = cc::Build::new();
        b.file(fw.join("src/xdie_fw.c"))
            .include(fw.join("include"))
            .include(repo.join("include"))
            .define("XDIE_SYSTEM_VIEW", view)
            .flag("-std=c11")
            .flag("-ffreestanding")
            .warnings(true)
            .extra_warnings(true)
            .warnings_into_errors(true)
            .opt_level(2)
            .cargo_metadata(false)
            .out_dir(&lib_dir);
        if rename {
            for f in &renames {
                b.define(f, format!("{FW_CHIP_ID_PREFIX}{f}").as_str());
            }
        }
        if let Err(e) = b.try_compile(lib) {
            fw_built = Err(format!("{view}: {e}"));
            break;
        }
    }
    match &fw_built {
        Ok(()) => {
            println!("cargo:rustc-cfg=xdie_fw_built");
            write_if_changed(
                &out.join("fw_unavailable.rs"),
                "pub const FW_UNAVAILABLE: Option<&str> = None;\n",
            );
        }
        Err(e) => {
            println!("cargo:warning=fw/ does not compile, so the firmware is not linked: {e}");
            let why = format!(
                "fw/ does not compile against include/ (regenerate with `xdie gen` and rebuild): {e}"
            );
            write_if_changed(
                &out.join("fw_unavailable.rs"),
                &format!("pub const FW_UNAVAILABLE: Option<&str> = Some({why:?});\n"),
            );
        }
    }

    // Static archives resolve left to right: shim, then models, then the runtime they all use.
    println!("cargo:rustc-link-search=native={}", lib_dir.display());
    println!("cargo:rustc-link-lib=static=xdie_tb_shim");
    if fw_built.is_ok() {
        println!("cargo:rustc-link-lib=static=xdie_fw");
        println!("cargo:rustc-link-lib=static=xdie_fw_chip_id");
    }
    for d in &duts {
        println!("cargo:rustc-link-search=native={}", d.lib_dir.display());
        println!("cargo:rustc-link-lib=static={}", d.lib);
    }
    println!("cargo:rustc-link-search=native={}", runtime_dir.display());
    println!("cargo:rustc-link-lib=static={RUNTIME_LIB}");
    println!("cargo:rustc-link-lib=z");
    println!("cargo:rustc-link-lib=stdc++");
    if package_compiler_is_clang() && duts.iter().any(|d| PACKAGE_TOPS.contains(&d.name.as_str())) {
        println!("cargo:rustc-link-lib=atomic");
    }
}

/// Prefix of the chip-id firmware build's public functions (tb/src/fw.rs links them by it).
const FW_CHIP_ID_PREFIX: &str = "chip_id_";

/// The firmware's public functions: every `xdie_fw_*` name the header declares as a function.
fn fw_renames(fw: &Path) -> Vec<String> {
    let header = fw.join("include/xdie_fw.h");
    let text = fs::read_to_string(&header)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", header.display()));
    let mut names = Vec::new();
    for (i, _) in text.match_indices("xdie_fw_") {
        let name: String = text[i..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let rest = text[i + name.len()..].trim_start();
        if rest.starts_with('(') && !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// Verilator's arguments for one top, after `-f <filelist>`; `checks` are the protocol checks'
/// files (none: built without them, see `ASSERT_ENV`).
fn verilator_args(name: &str, checks: &[String]) -> Vec<String> {
    let mut args = Vec::new();
    let module = variant(name).map_or(name, |v| v.1);
    if let Some((_, _, Some(file))) = top_feature(module) {
        args.push(file.to_string());
    }
    if let Some((_, _, define)) = variant(name) {
        args.push(format!("+define+{define}"));
        args.extend(["--prefix".to_string(), format!("V{name}")]);
    }
    if !checks.is_empty() {
        args.push("--assert".to_string());
        args.extend(checks.iter().cloned());
    }
    if PACKAGE_TOPS.contains(&name) {
        args.extend(["--inline-mult", "1", "--x-initial", "0"].map(String::from));
        args.push(format!("+define+{HOOKS_DEFINE}"));
        args.push(format!("+define+{UNPACKED_PORTS_DEFINE}"));
        args.push(format!("+define+{FAST_STORAGE_DEFINE}"));
    }
    args.extend(["--top-module".to_string(), module.to_string()]);
    args
}

/// Builds (or finds in the cache) every model, two at a time (the machines have two cores; the
/// compiler runs of one model share the jobserver's tokens besides), and returns them in the
/// order of `names`.
/// The files of the filelist (their fingerprint recorded for `xdie sim --csrs`) and the modules
/// to build a model of.
fn design_modules(
    repo: &Path,
    filelist: &Path,
    out: &Path,
    features: &[&str],
) -> Result<Vec<String>, String> {
    let wanted = |m: &str| {
        top_feature(m)
            .and_then(|t| t.1)
            .is_none_or(|f| features.contains(&f))
    };
    let mut sources: Vec<PathBuf> = filelist::read(repo)?
        .into_iter()
        .map(|f| repo.join(f))
        .collect();
    // The large models outside the filelist that this build simulates.
    sources.extend(
        TOP_FEATURES
            .iter()
            .filter(|t| t.1.is_none_or(|f| features.contains(&f)))
            .filter_map(|t| t.2)
            .map(|f| repo.join(f)),
    );
    for s in &sources {
        println!("cargo:rerun-if-changed={}", s.display());
    }
    let mut names = Vec::new();
    for s in &sources {
        let text =
            fs::read_to_string(s).map_err(|e| format!("cannot read {}: {e}", s.display()))?;
        names.extend(
            filelist::declares(&text)
                .modules
                .into_iter()
                .filter(|m| !NOT_A_DUT.contains(&m.as_str()))
                .filter(|m| wanted(m)),
        );
    }
    let variants = NODE_VARIANTS
        .iter()
        .filter(|v| names.iter().any(|n| n == v.1))
        .map(|v| v.0.to_string())
        .collect::<Vec<_>>();
    names.extend(variants);
    fingerprint::write_fingerprint(
        repo,
        &[&[filelist.to_path_buf()], &sources[..]].concat(),
        out,
    );
    Ok(names)
}

fn build_models(
    repo: &Path,
    filelist: &Path,
    out: &Path,
    cache: &Path,
    vinc: &Path,
    names: &[String],
    checks: &[String],
) -> Result<Vec<Dut>, String> {
    // Verilate every model first (seconds each): RTL that does not verilate is reported before
    // minutes go into compiling the others. The package top takes longest, so it starts first.
    let mut work: Vec<usize> = (0..names.len()).collect();
    work.sort_by_key(|&i| !PACKAGE_TOPS.contains(&names[i].as_str()));
    let mdir = |name: &str| out.join("vl").join(name);
    in_two_threads(&work, |i| {
        let m = mdir(&names[i]);
        let _ = fs::remove_dir_all(&m);
        verilate(
            repo,
            filelist,
            &m,
            &names[i],
            traced(&names[i]),
            &verilator_args(&names[i], checks),
        )
    })
    .into_iter()
    .collect::<Result<Vec<()>, String>>()?;
    Ok(in_two_threads(&work, |i| {
        build_model(cache, vinc, &names[i], mdir(&names[i]))
    }))
}

/// `job(i)` for every `i` of `work`, two at a time (the machine's cores); results in `i` order.
fn in_two_threads<T: Send>(work: &[usize], job: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(&i) = work.get(k) else { break };
                let r = job(i);
                done.lock().expect("results").push((i, r));
            });
        }
    });
    let mut done = done.into_inner().expect("results");
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// Takes a verilated model's compiled archive from the cache (minutes saved) when Verilator's
/// output is one the cache has compiled before, and compiles it into the cache otherwise.
fn build_model(cache: &Path, vinc: &Path, name: &str, mdir: PathBuf) -> Dut {
    let entry = format!("{name}-{:016x}", model_hash(name, &mdir));
    let dir = cache.join(&entry);
    let lib = format!("xdie_model_{name}");
    if !dir.join("complete").exists() {
        let tmp = cache.join(format!("{entry}.partial"));
        let _ = fs::remove_dir_all(&tmp);
        fs::create_dir_all(&tmp).expect("create cache entry");
        let t0 = std::time::Instant::now();
        compile_model(name, &mdir, vinc, &tmp, &lib);
        // How long the compile took (wall clock, this machine), for the build-time figures.
        fs::write(
            tmp.join("compile-seconds"),
            format!("{:.1}\n", t0.elapsed().as_secs_f64()),
        )
        .expect("record compile time");
        fs::write(tmp.join("complete"), "").expect("mark cache entry");
        let _ = fs::remove_dir_all(&dir);
        fs::rename(&tmp, &dir).expect("publish cache entry");
    }
    touch(&dir);
    prune_cache(cache, name, &entry);
    let header = mdir.join(format!("V{name}.h"));
    let text = fs::read_to_string(&header)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", header.display()));
    Dut {
        name: name.to_string(),
        traced: traced(name),
        ports: parse_ports(&text),
        mdir,
        lib_dir: dir,
        lib,
    }
}
