//! Compiling Verilator's C++ into static archives: the models and the runtime they share.

use std::collections::hash_map::DefaultHasher;
use std::fs;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use crate::cache::{prune_cache, touch};
use crate::verilate::{mk_list, verilator_version};
use crate::PACKAGE_TOPS;

/// Flags of Verilator's own makefile (`CFG_CXXFLAGS_NO_UNUSED` and the model defines).
pub const CXX_FLAGS: &[&str] = &[
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
/// Optimisation level of a package top's evaluation code (its construction and trace code is
/// built at -O0, see `compile_model`). Part of the model cache's key. -O3 ran 1.5 % fewer
/// instructions than -O2 (docs/fpga-fit.md), within the noise of the wall clock: not worth it.
pub const PACKAGE_OPT: u32 = 2;

/// Extra flags of a package top's evaluation code: on an x86-64 build host with the x86-64-v3
/// extensions (AVX2 and the rest), code for them. The model runs where it is built; AVX2 moves
/// a 256-bit beat (the `VlWide<8>` copies between ports) in one instruction, and the package
/// top's instructions per simulated cycle fall by about 5 % (docs/fpga-fit.md).
pub fn package_flags() -> Vec<&'static str> {
    #[cfg(target_arch = "x86_64")]
    {
        let v3 = std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("fma")
            && std::is_x86_feature_detected!("f16c")
            && std::is_x86_feature_detected!("lzcnt")
            && std::is_x86_feature_detected!("movbe");
        if v3 {
            return vec!["-march=x86-64-v3"];
        }
    }
    Vec::new()
}
/// Environment variable naming the C++ compiler of the package tops (a command such as
/// `clang++-16` or `g++`; `default` keeps the cc crate's choice).
pub const MODEL_CXX_ENV: &str = "XDIE_MODEL_CXX";

/// The C++ compiler of the package tops and its version line (part of the model cache's key):
/// `XDIE_MODEL_CXX` when set, else clang++ when the build host has it, else None (the cc crate's
/// choice, as for every other model). clang's code for Verilator's output runs the package top's
/// cycles in about 14 % fewer instructions than gcc 12's and about 1.4 times faster
/// (docs/fpga-fit.md), and only the package tops run long enough for that to matter.
pub fn package_compiler() -> Option<(String, String)> {
    static CHOICE: std::sync::OnceLock<Option<(String, String)>> = std::sync::OnceLock::new();
    CHOICE
        .get_or_init(|| {
            let wanted = std::env::var(MODEL_CXX_ENV).ok().filter(|v| !v.is_empty());
            let cmd = match wanted.as_deref() {
                Some("default") => return None,
                Some(cmd) => cmd.to_string(),
                None => "clang++".to_string(),
            };
            let version = std::process::Command::new(&cmd)
                .arg("--version")
                .output()
                .ok()
                .filter(|o| o.status.success())
                .map(|o| {
                    let text = String::from_utf8_lossy(&o.stdout);
                    text.lines().next().unwrap_or_default().to_string()
                });
            match (version, wanted) {
                (Some(v), _) => Some((cmd, v)),
                (None, None) => None,
                (None, Some(_)) => panic!("{MODEL_CXX_ENV}={cmd}: `{cmd} --version` does not run"),
            }
        })
        .clone()
}

/// Whether the package tops' compiler is clang, whose code calls libatomic for the runtime's
/// atomics where gcc's inlines them.
pub fn package_compiler_is_clang() -> bool {
    package_compiler().is_some_and(|(_, version)| version.contains("clang"))
}

pub const DEFINES: &[(&str, &str)] = &[
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

pub fn cxx_flags(b: &mut cc::Build) {
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
pub fn compile_model(name: &str, mdir: &Path, vinc: &Path, out: &Path, lib: &str) {
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
    let package = PACKAGE_TOPS.contains(&name);
    let build = |files: &[PathBuf], opt: u32| {
        let mut b = cc::Build::new();
        if let Some((cmd, _)) = package_compiler().filter(|_| package) {
            b.compiler(cmd);
        }
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
    if package {
        let (slow, fast): (Vec<PathBuf>, Vec<PathBuf>) =
            files.iter().map(|f| mdir.join(f)).partition(|f| {
                let f = f.to_string_lossy();
                f.contains("Slow") || f.contains("Trace")
            });
        let objects = build(&slow, 0).compile_intermediates();
        let mut fast_build = build(&fast, PACKAGE_OPT);
        for f in package_flags() {
            fast_build.flag_if_supported(f);
        }
        fast_build.objects(objects).compile(lib);
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
pub const RUNTIME_LIB: &str = "xdie_verilated";

pub fn compile_runtime(vinc: &Path, cache: &Path) -> PathBuf {
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
