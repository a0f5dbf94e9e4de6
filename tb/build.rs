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

/// Tops built only with the crate's `package` feature: tens of megabytes of model source that
/// every other test would otherwise wait for. They are verilated without module inlining (the
/// many identical engines and queue groups then share one class each) and compiled as separate
/// units at a lower optimization level.
const PACKAGE_TOPS: &[&str] = &["xdie_pkg_top"];

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
/// Runtime sources the models need (`VM_GLOBAL_FAST` of an FST-traced model).
const RUNTIME: &[&str] = &[
    "verilated.cpp",
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
    mdir: PathBuf,
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
    let lib_dir = out.join("lib");
    fs::create_dir_all(&lib_dir).expect("create lib dir");

    let duts = verilate_all(&repo, &filelist, &out, &names);

    let mut link_order = Vec::new();
    for d in &duts {
        link_order.push(compile_model(d, &vinc, &lib_dir));
    }
    let runtime = compile_runtime(&vinc, &lib_dir);

    let gen_dir = out.join("gen");
    fs::create_dir_all(&gen_dir).expect("create gen dir");
    write_if_changed(&gen_dir.join("xdie_tb_duts.inc"), &cpp_tables(&duts));
    write_if_changed(&out.join("duts.rs"), &rust_tables(&duts));

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
    cxx_flags(&mut shim);
    shim.compile("xdie_tb_shim");

    // Static archives resolve left to right: shim, then models, then the runtime they all use.
    println!("cargo:rustc-link-search=native={}", lib_dir.display());
    println!("cargo:rustc-link-lib=static=xdie_tb_shim");
    for lib in link_order.iter().chain(std::iter::once(&runtime)) {
        println!("cargo:rustc-link-lib=static={lib}");
    }
    println!("cargo:rustc-link-lib=z");
    println!("cargo:rustc-link-lib=stdc++");
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

/// Runs Verilator for every DUT, two at a time (the machines have two cores).
fn verilate_all(repo: &Path, filelist: &Path, out: &Path, names: &[String]) -> Vec<Dut> {
    let mut duts = Vec::new();
    for chunk in names.chunks(2) {
        let handles: Vec<_> = chunk
            .iter()
            .map(|name| {
                let (repo, filelist, out, name) = (
                    repo.to_path_buf(),
                    filelist.to_path_buf(),
                    out.to_path_buf(),
                    name.clone(),
                );
                std::thread::spawn(move || verilate(&repo, &filelist, &out, &name))
            })
            .collect();
        for h in handles {
            duts.push(h.join().expect("verilator thread"));
        }
    }
    duts
}

fn verilate(repo: &Path, filelist: &Path, out: &Path, name: &str) -> Dut {
    let mdir = out.join("vl").join(name);
    fs::create_dir_all(&mdir).expect("create -Mdir");
    let res = Command::new("verilator")
        .current_dir(repo)
        .args(["--cc", "--no-timing", "--trace-fst", "-f"])
        .arg(filelist)
        .args(PACKAGE_TOPS.contains(&name).then_some("-fno-inline"))
        .args(["--top-module", name, "-Mdir"])
        .arg(&mdir)
        .output()
        .expect("run verilator");
    let stderr = String::from_utf8_lossy(&res.stderr);
    for line in stderr.lines().filter(|l| l.starts_with("%Warning")) {
        println!("cargo:warning={name}: {line}");
    }
    if !res.status.success() {
        panic!("verilator failed on {name}:\n{stderr}");
    }
    let header = mdir.join(format!("V{name}.h"));
    let text = fs::read_to_string(&header)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", header.display()));
    Dut {
        name: name.to_string(),
        ports: parse_ports(&text),
        mdir,
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

/// Compiles one model as a single translation unit; skipped when its sources did not change.
fn compile_model(d: &Dut, vinc: &Path, lib_dir: &Path) -> String {
    let mk_path = d.mdir.join(format!("V{}_classes.mk", d.name));
    let mk = fs::read_to_string(&mk_path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", mk_path.display()));
    let mut unit = String::new();
    let mut hasher = DefaultHasher::new();
    CXX_FLAGS.hash(&mut hasher);
    for var in [
        "VM_CLASSES_FAST",
        "VM_CLASSES_SLOW",
        "VM_SUPPORT_FAST",
        "VM_SUPPORT_SLOW",
    ] {
        for f in mk_list(&mk, var) {
            let file = format!("{f}.cpp");
            let body = fs::read(d.mdir.join(&file)).expect("generated model source");
            body.hash(&mut hasher);
            writeln!(unit, "#include \"{file}\"").unwrap();
        }
    }
    let lib = format!("xdie_model_{}", d.name);
    let stamp = d.mdir.join("xdie_unit.hash");
    let hash = format!("{:016x}", hasher.finish());
    let archive = lib_dir.join(format!("lib{lib}.a"));
    if archive.exists() && fs::read_to_string(&stamp).ok().as_deref() == Some(hash.as_str()) {
        return lib;
    }
    let unit_path = d.mdir.join("xdie_unit.cpp");
    fs::write(&unit_path, &unit).expect("write model unit");
    let build = |files: &[PathBuf], opt: u32| {
        let mut b = cc::Build::new();
        b.files(files)
            .include(&d.mdir)
            .include(vinc)
            .include(vinc.join("vltstd"))
            .opt_level(opt)
            .cargo_metadata(false)
            .out_dir(lib_dir);
        cxx_flags(&mut b);
        b
    };
    if PACKAGE_TOPS.contains(&d.name.as_str()) {
        // One unit per model file, compiled in parallel without debug info: the evaluation code at
        // -O1, the construction and trace code (run once, or only when tracing) at -O0.
        let (mut fast, mut slow) = (Vec::new(), Vec::new());
        for line in unit.lines() {
            if let Some(f) = line
                .strip_prefix("#include \"")
                .and_then(|r| r.strip_suffix('"'))
            {
                let once = f.contains("Slow") || f.contains("Trace");
                (if once { &mut slow } else { &mut fast }).push(d.mdir.join(f));
            }
        }
        let objects = build(&slow, 0).debug(false).compile_intermediates();
        let mut b = build(&fast, 1);
        b.debug(false).objects(objects).compile(&lib);
    } else {
        build(&[unit_path], 2).compile(&lib);
    }
    fs::write(&stamp, hash).expect("write stamp");
    lib
}

/// The Verilator runtime, compiled once per build directory and reused by every model.
fn compile_runtime(vinc: &Path, lib_dir: &Path) -> String {
    let lib = "xdie_verilated".to_string();
    let archive = lib_dir.join(format!("lib{lib}.a"));
    let stamp = lib_dir.join("xdie_verilated.stamp");
    let version = Command::new("verilator")
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    let key = format!("{version}{CXX_FLAGS:?}{DEFINES:?}");
    if archive.exists() && fs::read_to_string(&stamp).ok().as_deref() == Some(key.as_str()) {
        return lib;
    }
    let mut b = cc::Build::new();
    for f in RUNTIME {
        b.file(vinc.join(f));
    }
    b.include(vinc)
        .include(vinc.join("vltstd"))
        .opt_level(2)
        .cargo_metadata(false)
        .out_dir(lib_dir);
    cxx_flags(&mut b);
    b.compile(&lib);
    fs::write(&stamp, key).expect("write stamp");
    lib
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
