//! Verilates every DUT module of the committed filelist and links the models into this crate.
//!
//! The DUT list, the model sources and the port tables are all derived: modules come from the
//! files `rtl/xdie.f` names, model sources from Verilator's own `V<top>_classes.mk`, ports from
//! the `VL_IN*`/`VL_OUT*` declarations of `V<top>.h`. Nothing here names a generated file or a
//! port by hand, so a module or port added to a template needs no edit in this crate.

use std::collections::hash_map::DefaultHasher;
use std::env;
use std::fmt::Write as _;
use std::fs;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The shared AXI4-Lite front-end is instantiated by every block, never simulated alone; a die
/// is simulated inside the package top (alone it would double the largest model's build).
const NOT_A_DUT: &[&str] = &["xdie_axil_regif", "xdie_die"];

/// Tops built only with the crate's `package` feature: tens of megabytes of model source. They
/// are verilated without module inlining (the many identical engines and queue groups then share
/// one class each), with the simulation hooks of the RTL (`XDIE_SIM_HOOKS`: the memories'
/// backdoor and the write monitors), and compiled as one unit per model file.
const PACKAGE_TOPS: &[&str] = &["xdie_pkg_top"];

/// The define that turns on the RTL's simulation hooks. Only one model of a link may have them:
/// their DPI functions are global C symbols.
const HOOKS_DEFINE: &str = "XDIE_SIM_HOOKS";

/// Flags of Verilator's own makefile (`CFG_CXXFLAGS_NO_UNUSED` and the model defines).
const CXX_FLAGS: &[&str] = &[
    "-std=gnu++17",
    "-faligned-new",
    "-fcf-protection=none",
    "-Wno-bool-operation",
    "-Wno-sign-compare",
    "-Wno-uninitialized",
    "-Wno-unused-but-set-variable",
    "-Wno-unused-parameter",
    "-Wno-unused-variable",
    "-Wno-shadow",
];
const DEFINES: &[(&str, &str)] = &[
    ("VM_COVERAGE", "0"),
    ("VM_SC", "0"),
    ("VM_TRACE", "1"),
    ("VM_TRACE_FST", "1"),
    ("VM_TRACE_VCD", "0"),
];
/// Runtime sources the models need (`VM_GLOBAL_FAST` of an FST-traced model, and the DPI
/// support of the simulation hooks).
const RUNTIME: &[&str] = &[
    "verilated.cpp",
    "verilated_dpi.cpp",
    "verilated_threads.cpp",
    "verilated_fst_c.cpp",
];

#[derive(Clone)]
struct PortDecl {
    name: String,
    input: bool,
    width: u32,
    /// Storage size in bytes for scalar ports (1, 2, 4, 8); 0 for `VlWide` ports.
    bytes: u32,
    words: u32,
}

struct Dut {
    name: String,
    /// Verilator's output directory (headers for the shim).
    mdir: PathBuf,
    /// Directory holding the model's static archive.
    lib_dir: PathBuf,
    lib: String,
    ports: Vec<PortDecl>,
}

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let repo = manifest
        .parent()
        .expect("tb/ lives in the repository root")
        .to_path_buf();
    let out = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));
    let filelist = repo.join("rtl").join("xdie.f");

    println!("cargo:rerun-if-changed={}", filelist.display());
    println!("cargo:rerun-if-changed={}", repo.join("rtl").display());
    println!("cargo:rerun-if-changed=csrc");
    println!("cargo:rerun-if-changed=src/ffi.rs");

    println!("cargo:rerun-if-env-changed=CARGO_FEATURE_PACKAGE");
    let package = env::var_os("CARGO_FEATURE_PACKAGE").is_some();
    let sources = read_filelist(&repo, &filelist);
    for s in &sources {
        println!("cargo:rerun-if-changed={}", s.display());
    }
    let names: Vec<String> = sources
        .iter()
        .flat_map(|s| module_names(s))
        .filter(|m| !NOT_A_DUT.contains(&m.as_str()))
        .filter(|m| package || !PACKAGE_TOPS.contains(&m.as_str()))
        .collect();

    let vroot = verilator_root();
    let vinc = vroot.join("include");
    let cache = model_cache(&out);
    fs::create_dir_all(&cache).expect("create model cache");

    let duts = build_models(&repo, &filelist, &out, &cache, &vinc, &names);
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
        if PACKAGE_TOPS.contains(&d.name.as_str()) {
            // The shim implements the hooks' DPI imports against this model's prototypes.
            shim.define("XDIE_TB_HOOKS", None).define(
                "XDIE_TB_HOOKS_DPI_H",
                Some(format!("\"V{}__Dpi.h\"", d.name).as_str()),
            );
        }
    }
    cxx_flags(&mut shim);
    shim.compile("xdie_tb_shim");

    // Static archives resolve left to right: shim, then models, then the runtime they all use.
    println!("cargo:rustc-link-search=native={}", lib_dir.display());
    println!("cargo:rustc-link-lib=static=xdie_tb_shim");
    for d in &duts {
        println!("cargo:rustc-link-search=native={}", d.lib_dir.display());
        println!("cargo:rustc-link-lib=static={}", d.lib);
    }
    println!("cargo:rustc-link-search=native={}", runtime_dir.display());
    println!("cargo:rustc-link-lib=static={RUNTIME_LIB}");
    println!("cargo:rustc-link-lib=z");
    println!("cargo:rustc-link-lib=stdc++");
}

/// Where verilated and compiled models are kept: `<target>/<profile>/xdie-models`, shared by
/// every build of this crate under one profile. `cargo run` and `cargo test`, or two feature
/// sets, give the build script different OUT_DIRs, and a package model costs minutes to build.
/// An entry is named by its model and a hash of everything that goes into it, so a stale entry
/// is never reused; building a new entry removes the model's older ones.
fn model_cache(out: &Path) -> PathBuf {
    // OUT_DIR is <target>/<profile>/build/<crate>-<hash>/out.
    match out.ancestors().nth(3) {
        Some(profile) if out.ancestors().nth(2).is_some_and(|b| b.ends_with("build")) => {
            profile.join("xdie-models")
        }
        _ => out.join("models"),
    }
}

fn read_filelist(repo: &Path, filelist: &Path) -> Vec<PathBuf> {
    let text = fs::read_to_string(filelist)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", filelist.display()));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with('#'))
        .filter(|l| !l.starts_with('-') && !l.starts_with('+'))
        .map(|l| repo.join(l))
        .collect()
}

/// Names of the modules (not packages or interfaces) a source file declares.
fn module_names(path: &Path) -> Vec<String> {
    let text =
        fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter_map(|l| l.trim_start().strip_prefix("module "))
        .filter_map(|rest| {
            let name: String = rest
                .trim_start()
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            (!name.is_empty()).then_some(name)
        })
        .collect()
}

fn verilator_root() -> PathBuf {
    let out = Command::new("verilator")
        .arg("--getenv")
        .arg("VERILATOR_ROOT")
        .output()
        .expect("verilator must be on PATH (Debian package `verilator`)");
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
}

fn verilator_version() -> String {
    Command::new("verilator")
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default()
}

/// Verilator's arguments for one top, after `-f <filelist>`.
fn verilator_args(name: &str) -> Vec<String> {
    let mut args = Vec::new();
    if PACKAGE_TOPS.contains(&name) {
        args.push("-fno-inline".to_string());
        args.push(format!("+define+{HOOKS_DEFINE}"));
    }
    args.extend(["--top-module".to_string(), name.to_string()]);
    args
}

/// Builds (or finds in the cache) every model, two at a time (the machines have two cores; the
/// compiler runs of one model share the jobserver's tokens besides), and returns them in the
/// order of `names`.
fn build_models(
    repo: &Path,
    filelist: &Path,
    out: &Path,
    cache: &Path,
    vinc: &Path,
    names: &[String],
) -> Vec<Dut> {
    // The package top takes longest: start it first so the small models build beside it.
    let mut work: Vec<usize> = (0..names.len()).collect();
    work.sort_by_key(|&i| !PACKAGE_TOPS.contains(&names[i].as_str()));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let built = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(&i) = work.get(k) else { break };
                let d = build_model(repo, filelist, out, cache, vinc, &names[i]);
                built.lock().expect("model list").push((i, d));
            });
        }
    });
    let mut built = built.into_inner().expect("model list");
    built.sort_by_key(|(i, _)| *i);
    built.into_iter().map(|(_, d)| d).collect()
}

/// Verilates one model into OUT_DIR (seconds), then takes its compiled archive from the cache
/// (minutes saved) when Verilator's output is one the cache has compiled before.
fn build_model(
    repo: &Path,
    filelist: &Path,
    out: &Path,
    cache: &Path,
    vinc: &Path,
    name: &str,
) -> Dut {
    let mdir = out.join("vl").join(name);
    let _ = fs::remove_dir_all(&mdir);
    verilate(repo, filelist, &mdir, name, &verilator_args(name));
    let entry = format!("{name}-{:016x}", model_hash(name, &mdir));
    let dir = cache.join(&entry);
    let lib = format!("xdie_model_{name}");
    if !dir.join("complete").exists() {
        let tmp = cache.join(format!("{entry}.partial"));
        let _ = fs::remove_dir_all(&tmp);
        fs::create_dir_all(&tmp).expect("create cache entry");
        compile_model(name, &mdir, vinc, &tmp, &lib);
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
        ports: parse_ports(&text),
        mdir,
        lib_dir: dir,
        lib,
    }
}

/// Hash of everything a model's archive is made from: Verilator's output (which is
/// deterministic), the compiler flags and how the model is compiled.
fn model_hash(name: &str, mdir: &Path) -> u64 {
    let mut h = DefaultHasher::new();
    CXX_FLAGS.hash(&mut h);
    DEFINES.hash(&mut h);
    PACKAGE_TOPS.contains(&name).hash(&mut h);
    let mut files: Vec<PathBuf> = fs::read_dir(mdir)
        .expect("read -Mdir")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "cpp" || x == "h"))
        .collect();
    files.sort();
    for f in files {
        f.file_name().hash(&mut h);
        fs::read(&f).expect("model source").hash(&mut h);
    }
    h.finish()
}

/// Older entries of a model kept besides the one in use: switching between two versions of the
/// RTL (a branch and main, an experiment and its revert) then costs no rebuild.
const KEEP_OLDER: usize = 1;

/// Removes the model's interrupted builds and all but its `KEEP_OLDER` most recently used
/// entries besides `keep`, the one in use.
fn prune_cache(cache: &Path, name: &str, keep: &str) {
    let Ok(entries) = fs::read_dir(cache) else {
        return;
    };
    let mut older = Vec::new();
    for e in entries.flatten() {
        let file = e.file_name().to_string_lossy().into_owned();
        let Some(rest) = file.strip_prefix(&format!("{name}-")) else {
            continue;
        };
        // Another model whose name extends this one (xdie_mem vs xdie_mem_x) is not ours.
        let (hash, partial) = match rest.strip_suffix(".partial") {
            Some(h) => (h, true),
            None => (rest, false),
        };
        let ours = hash.len() == 16 && hash.chars().all(|c| c.is_ascii_hexdigit());
        if !ours || file == keep || file == format!("{keep}.partial") {
            continue;
        }
        let used = fs::metadata(e.path().join("complete")).and_then(|m| m.modified());
        match (partial, used) {
            (false, Ok(t)) => older.push((t, e.path())),
            _ => {
                let _ = fs::remove_dir_all(e.path());
            }
        }
    }
    older.sort_by_key(|(used, _)| std::cmp::Reverse(*used));
    for (_, path) in older.into_iter().skip(KEEP_OLDER) {
        let _ = fs::remove_dir_all(path);
    }
}

/// Marks a cache entry as just used.
fn touch(entry: &Path) {
    let _ = fs::write(entry.join("complete"), "");
}

fn verilate(repo: &Path, filelist: &Path, mdir: &Path, name: &str, args: &[String]) {
    fs::create_dir_all(mdir).expect("create -Mdir");
    let res = Command::new("verilator")
        .current_dir(repo)
        .args(["--cc", "--no-timing", "--trace-fst", "-f"])
        .arg(filelist)
        .args(args)
        .arg("-Mdir")
        .arg(mdir)
        .output()
        .expect("run verilator");
    let stderr = String::from_utf8_lossy(&res.stderr);
    for line in stderr.lines().filter(|l| l.starts_with("%Warning")) {
        println!("cargo:warning={name}: {line}");
    }
    if !res.status.success() {
        panic!("verilator failed on {name}:\n{stderr}");
    }
}

/// Ports from the `VL_IN8(&name,msb,lsb);` style declarations of `V<top>.h`.
fn parse_ports(header: &str) -> Vec<PortDecl> {
    let mut ports = Vec::new();
    for line in header.lines() {
        let l = line.trim();
        let (input, rest) = if let Some(r) = l.strip_prefix("VL_IN") {
            (true, r)
        } else if let Some(r) = l.strip_prefix("VL_OUT") {
            (false, r)
        } else {
            continue;
        };
        let Some(open) = rest.find('(') else { continue };
        let size = &rest[..open];
        let Some(close) = rest.rfind(')') else {
            continue;
        };
        let args: Vec<&str> = rest[open + 1..close].split(',').map(str::trim).collect();
        if args.len() < 3 {
            continue;
        }
        let name = args[0].trim_start_matches('&').to_string();
        let msb: u32 = args[1].parse().expect("port msb");
        let lsb: u32 = args[2].parse().expect("port lsb");
        let width = msb - lsb + 1;
        let bytes = match size {
            "8" => 1,
            "16" => 2,
            "" | "32" => 4,
            "64" => 8,
            "W" => 0,
            other => panic!("unknown Verilator port macro VL_IN/OUT{other} for {name}"),
        };
        ports.push(PortDecl {
            name,
            input,
            width,
            bytes,
            words: width.div_ceil(32),
        });
    }
    ports
}

/// Files listed under `VAR = \` continuation lines of a Verilator makefile fragment.
fn mk_list(mk: &str, var: &str) -> Vec<String> {
    let mut items = Vec::new();
    let mut inside = false;
    for line in mk.lines() {
        let t = line.trim();
        if !inside {
            if let Some(rest) = t.strip_prefix(var) {
                if rest.trim_start().starts_with('=') || rest.trim_start().starts_with("+=") {
                    inside = t.ends_with('\\');
                    let after = rest
                        .trim_start()
                        .trim_start_matches('+')
                        .trim_start_matches('=');
                    items.extend(
                        after
                            .trim_end_matches('\\')
                            .split_whitespace()
                            .map(String::from),
                    );
                }
            }
        } else {
            inside = t.ends_with('\\');
            items.extend(
                t.trim_end_matches('\\')
                    .split_whitespace()
                    .map(String::from),
            );
        }
    }
    items
}

fn cxx_flags(b: &mut cc::Build) {
    b.cpp(true).warnings(false);
    for f in CXX_FLAGS {
        b.flag_if_supported(f);
    }
    for (k, v) in DEFINES {
        b.define(k, *v);
    }
}

/// Compiles one model into `lib<lib>.a` in `out`. A small model is one translation unit at -O2.
/// A package top is one unit per model file, built in parallel: the evaluation code at -O2, the
/// construction and trace code (run once, or only when tracing) at -O0, which halves the build.
fn compile_model(name: &str, mdir: &Path, vinc: &Path, out: &Path, lib: &str) {
    let mk_path = mdir.join(format!("V{name}_classes.mk"));
    let mk = fs::read_to_string(&mk_path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", mk_path.display()));
    let mut files = Vec::new();
    for var in [
        "VM_CLASSES_FAST",
        "VM_CLASSES_SLOW",
        "VM_SUPPORT_FAST",
        "VM_SUPPORT_SLOW",
    ] {
        files.extend(mk_list(&mk, var).into_iter().map(|f| format!("{f}.cpp")));
    }
    let build = |files: &[PathBuf], opt: u32| {
        let mut b = cc::Build::new();
        b.files(files)
            .include(mdir)
            .include(vinc)
            .include(vinc.join("vltstd"))
            .opt_level(opt)
            .debug(false)
            .cargo_metadata(false)
            .out_dir(out);
        cxx_flags(&mut b);
        b
    };
    if PACKAGE_TOPS.contains(&name) {
        let (slow, fast): (Vec<PathBuf>, Vec<PathBuf>) =
            files.iter().map(|f| mdir.join(f)).partition(|f| {
                let f = f.to_string_lossy();
                f.contains("Slow") || f.contains("Trace")
            });
        let objects = build(&slow, 0).compile_intermediates();
        build(&fast, 2).objects(objects).compile(lib);
    } else {
        let unit: String = files
            .iter()
            .map(|f| format!("#include \"{f}\"\n"))
            .collect();
        let unit_path = mdir.join("xdie_unit.cpp");
        fs::write(&unit_path, unit).expect("write model unit");
        build(&[unit_path], 2).compile(lib);
    }
}

/// The Verilator runtime every model links, cached like the models.
const RUNTIME_LIB: &str = "xdie_verilated";

fn compile_runtime(vinc: &Path, cache: &Path) -> PathBuf {
    let mut h = DefaultHasher::new();
    verilator_version().hash(&mut h);
    CXX_FLAGS.hash(&mut h);
    DEFINES.hash(&mut h);
    RUNTIME.hash(&mut h);
    let entry = format!("verilated-{:016x}", h.finish());
    let dir = cache.join(&entry);
    if dir.join("complete").exists() {
        touch(&dir);
        return dir;
    }
    let tmp = cache.join(format!("{entry}.partial"));
    let _ = fs::remove_dir_all(&tmp);
    fs::create_dir_all(&tmp).expect("create runtime dir");
    let mut b = cc::Build::new();
    for f in RUNTIME {
        b.file(vinc.join(f));
    }
    b.include(vinc)
        .include(vinc.join("vltstd"))
        .opt_level(2)
        .cargo_metadata(false)
        .out_dir(&tmp);
    cxx_flags(&mut b);
    b.compile(RUNTIME_LIB);
    fs::write(tmp.join("complete"), "").expect("mark cache entry");
    prune_cache(cache, "verilated", &entry);
    let _ = fs::remove_dir_all(&dir);
    fs::rename(&tmp, &dir).expect("publish cache entry");
    dir
}

fn write_if_changed(path: &Path, text: &str) {
    if fs::read_to_string(path).ok().as_deref() != Some(text) {
        fs::write(path, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    }
}

fn camel(name: &str) -> String {
    name.split('_')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut c = p.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// Ports every AXI4-Lite register block has; the C++ benchmark loop needs them by name.
const AXIL_PORTS: &[&str] = &[
    "clk_i",
    "rst_ni",
    "s_axil_awvalid_i",
    "s_axil_awready_o",
    "s_axil_awaddr_i",
    "s_axil_wvalid_i",
    "s_axil_wready_o",
    "s_axil_wdata_i",
    "s_axil_wstrb_i",
    "s_axil_bvalid_o",
    "s_axil_bready_i",
    "s_axil_bresp_o",
    "s_axil_arvalid_i",
    "s_axil_arready_o",
    "s_axil_araddr_i",
    "s_axil_rvalid_o",
    "s_axil_rready_i",
    "s_axil_rdata_o",
    "s_axil_rresp_o",
];

fn cpp_tables(duts: &[Dut]) -> String {
    let mut s =
        String::from("// Generated by the xdie-tb build script from Verilator's model headers.\n");
    for d in duts {
        writeln!(s, "#include \"V{}.h\"", d.name).unwrap();
    }
    s.push_str("namespace xdie_tb {\nnamespace gen {\n");
    for d in duts {
        let v = format!("V{}", d.name);
        writeln!(s, "static const PortDesc PORTS_{}[] = {{", d.name).unwrap();
        for p in &d.ports {
            writeln!(
                s,
                "  {{\"{}\", {}, {}, {}, {}}},",
                p.name, p.width, p.bytes, p.words, p.input
            )
            .unwrap();
        }
        if d.ports.is_empty() {
            s.push_str("  {\"\", 0, 0, 0, false},\n");
        }
        s.push_str("};\n");
        writeln!(
            s,
            "static void bind_{n}(VerilatedModel* b, void** p) {{\n  auto* m = static_cast<{v}*>(b);",
            n = d.name
        )
        .unwrap();
        for (i, p) in d.ports.iter().enumerate() {
            writeln!(s, "  p[{i}] = static_cast<void*>(&m->{});", p.name).unwrap();
        }
        s.push_str("  (void)m; (void)p;\n}\n");
        writeln!(
            s,
            "static const ModelOps OPS_{n} = {{\n  \"{n}\", PORTS_{n}, {np},\n  [](VerilatedContext* c) -> VerilatedModel* {{ return new {v}{{c, \"TOP\"}}; }},\n  [](VerilatedModel* m) {{ static_cast<{v}*>(m)->eval(); }},\n  [](VerilatedModel* m, VerilatedFstC* t) {{ static_cast<{v}*>(m)->trace(t, 99); }},\n  [](VerilatedModel* m) {{ static_cast<{v}*>(m)->final(); }},\n  [](VerilatedModel* m) {{ delete static_cast<{v}*>(m); }},\n  bind_{n},\n}};",
            n = d.name,
            np = d.ports.len()
        )
        .unwrap();
    }
    s.push_str("static const ModelOps* const MODELS[] = {\n");
    for d in duts {
        writeln!(s, "  &OPS_{},", d.name).unwrap();
    }
    if duts.is_empty() {
        s.push_str("  nullptr,\n");
    }
    s.push_str("};\n");
    writeln!(s, "static const uint32_t MODEL_COUNT = {};", duts.len()).unwrap();
    s.push_str(
        "static bool cpp_axil_bench_dispatch(uint32_t kind, const BenchParams& p, BenchResult& r) {\n  switch (kind) {\n",
    );
    for (i, d) in duts.iter().enumerate() {
        let has_axil = AXIL_PORTS
            .iter()
            .all(|n| d.ports.iter().any(|p| p.name == *n));
        if has_axil {
            writeln!(
                s,
                "  case {i}: r = axil_bench<V{}>(p); return true;",
                d.name
            )
            .unwrap();
        }
    }
    s.push_str("  default: return false;\n  }\n}\n}  // namespace gen\n}  // namespace xdie_tb\n");
    s
}

fn rust_tables(duts: &[Dut]) -> String {
    let mut s = String::from(
        "// Generated by the xdie-tb build script from Verilator's model headers.\n\n\
         /// Every simulatable module of the filelist, in filelist order.\n\
         #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]\n\
         pub enum DutKind {\n",
    );
    for d in duts {
        writeln!(s, "    /// `{}`", d.name).unwrap();
        writeln!(s, "    {},", camel(&d.name)).unwrap();
    }
    s.push_str("}\n\nimpl DutKind {\n    pub const ALL: &'static [DutKind] = &[\n");
    for d in duts {
        writeln!(s, "        DutKind::{},", camel(&d.name)).unwrap();
    }
    s.push_str("    ];\n\n    /// Index into the C++ model table.\n    pub fn id(self) -> u32 {\n        match self {\n");
    for (i, d) in duts.iter().enumerate() {
        writeln!(s, "            DutKind::{} => {i},", camel(&d.name)).unwrap();
    }
    s.push_str("        }\n    }\n\n    /// The SystemVerilog module name.\n    pub fn name(self) -> &'static str {\n        match self {\n");
    for d in duts {
        writeln!(
            s,
            "            DutKind::{} => \"{}\",",
            camel(&d.name),
            d.name
        )
        .unwrap();
    }
    s.push_str("        }\n    }\n\n    /// Every port, in declaration order; a port's id is its index here.\n    pub fn ports(self) -> &'static [PortInfo] {\n        match self {\n");
    for d in duts {
        writeln!(
            s,
            "            DutKind::{} => {}::PORTS,",
            camel(&d.name),
            d.name
        )
        .unwrap();
    }
    s.push_str("        }\n    }\n}\n");
    for d in duts {
        writeln!(
            s,
            "\n/// Ports of `{n}`.\n#[allow(dead_code)]\npub mod {n} {{\n    use super::{{DutKind, Port, PortInfo}};\n    pub const KIND: DutKind = DutKind::{c};\n    pub const PORTS: &[PortInfo] = &[",
            n = d.name,
            c = camel(&d.name)
        )
        .unwrap();
        for p in &d.ports {
            writeln!(
                s,
                "        PortInfo {{ name: \"{}\", input: {}, width: {}, bytes: {}, words: {} }},",
                p.name, p.input, p.width, p.bytes, p.words
            )
            .unwrap();
        }
        s.push_str("    ];\n");
        for (i, p) in d.ports.iter().enumerate() {
            writeln!(
                s,
                "    pub const {}: Port = Port {{ dut: KIND, id: {i} }};",
                p.name.to_ascii_uppercase()
            )
            .unwrap();
        }
        s.push_str("}\n");
    }
    s
}
