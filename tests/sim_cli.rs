//! `xdie sim` from the outside: the worked example's report, the JSON fields, and the exit
//! status and message of a bad scenario.

mod common;

use common::*;
use serde_json::Value;
use xdie_model::scenario::Scenario;

fn sim_json(scenario: &str, extra: &[&str]) -> Value {
    let o = run(xdie()
        .current_dir(repo())
        .args(["sim", "--json", scenario])
        .args(extra));
    assert!(
        o.status.success(),
        "xdie sim {scenario} failed:\n{}",
        stderr(&o)
    );
    serde_json::from_str(&stdout(&o)).unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", stdout(&o)))
}

/// Semaphore `index` of package core `core` on die `die` in a JSON report.
fn sem_of(report: &Value, die: u64, core: u64, index: u64) -> Option<i64> {
    report["semaphores"].as_array()?.iter().find_map(|s| {
        (s["die"].as_u64() == Some(die)
            && s["core"].as_u64() == Some(core)
            && s["index"].as_u64() == Some(index))
        .then(|| s["value"].as_i64())
        .flatten()
    })
}

#[test]
fn worked_example_report_on_the_model() {
    let r = sim_json("scenarios/worked-example.yaml", &["--model-only"]);
    let sc = Scenario::load(&repo().join("scenarios/worked-example.yaml")).expect("scenario");
    let csrs = xdie_csr::load(&repo().join("csrs")).expect("csrs");
    let model = sc.run_model(&csrs, 1).expect("model");
    let (l, m) = (&sc.legs[0], &model.legs[0]);
    assert_eq!(r["pass"], Value::Bool(true));
    assert_eq!(r["legs"][0]["dst_soc"], format!("{:#x}", m.dst_soc));
    // From the field positions: byte dst_addr of core 7's SBUF aperture, folded onto die 1.
    let v = &csrs.views;
    let want = v
        .soc
        .fold_neighbor(v.sbuf_addr(m.rx_tpb, 0, l.dst_addr), m.rx_die.die);
    assert_eq!(r["legs"][0]["dst_soc"], format!("{want:#x}"));
    assert_eq!(r["bytes"].as_u64(), Some(l.bytes()));
    let n = l.n_engines() as i64;
    assert_eq!(sem_of(&r, m.tx_die.die, l.tx.id, l.local_sem), Some(n));
    assert_eq!(sem_of(&r, m.rx_die.die, l.rx.id, l.remote_sem), Some(n));
    assert_eq!(
        r["semaphores"].as_array().map(Vec::len),
        Some(2),
        "no other semaphore moved"
    );
    for key in [
        "cycles",
        "link_peak_bytes_per_cycle",
        "link_utilization",
        "legs",
        "semaphores",
    ] {
        assert!(r.get(key).is_some(), "JSON lacks `{key}`");
    }
}

/// On a topology the link figures follow the route tables: the busiest direction of the
/// cross-package leg is a channel of its path and carries at least the leg's payload.
#[test]
fn cross_package_link_figures_follow_the_route_tables() {
    let r = sim_json("scenarios/cross-package.yaml", &["--model-only"]);
    let sc = Scenario::load(&repo().join("scenarios/cross-package.yaml")).expect("scenario");
    let csrs = xdie_csr::load(&repo().join("csrs")).expect("csrs");
    let model = sc.run_model(&csrs, 1).expect("model");
    let mesh = model.mesh.as_ref().expect("a topology");
    let tables = xdie_model::mesh::routes::RouteTables::compute(mesh);
    let (l, m) = (&sc.legs[0], &model.legs[0]);
    let path: Vec<String> = tables
        .channels(m.tx_die, m.rx_die)
        .expect("a path")
        .iter()
        .map(|c| c.to_string())
        .collect();
    assert!(path.len() > 1, "a multi-hop leg");
    let busiest = r["link_busiest"].as_str().expect("link_busiest");
    assert!(
        path.iter().any(|c| c == busiest),
        "{busiest} is not on {path:?}"
    );
    assert!(r["link_bytes"].as_u64().expect("link_bytes") >= l.bytes());
}

#[test]
fn every_shipped_scenario_passes_on_the_model() {
    for e in std::fs::read_dir(repo().join("scenarios")).expect("scenarios/") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "yaml") {
            let rel = format!(
                "scenarios/{}",
                p.file_name().unwrap_or_default().to_string_lossy()
            );
            let r = sim_json(&rel, &["--model-only"]);
            assert_eq!(r["pass"], Value::Bool(true), "{rel}");
        }
    }
}

#[test]
fn bad_scenario_exits_2_naming_file_key_and_line() {
    let s = Scratch::new("sim-bad");
    let good = std::fs::read_to_string(repo().join("scenarios/same-die.yaml")).expect("read");
    let bad = good.replace("    queue: 1", "    queue: 1\n    speed: fast");
    let line = line_at(&bad, bad.find("speed:").expect("edited"));
    let file = s.join("bad.yaml");
    std::fs::write(&file, bad).expect("write");
    let o = run(xdie().current_dir(repo()).arg("sim").arg(&file));
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    let want = format!("{}:{line}: key `legs[0].speed`", file.display());
    assert!(err.contains(&want), "{err}");
    assert!(stdout(&o).is_empty(), "a bad scenario prints no report");
}

#[test]
fn impossible_transfer_exits_2_with_the_models_reason() {
    let s = Scratch::new("sim-impossible");
    let good = std::fs::read_to_string(repo().join("scenarios/same-die.yaml")).expect("read");
    let bad = good.replace("partitions: 8", "partitions: 100000");
    let line = line_at(&bad, bad.find("partitions: 100000").expect("edited"));
    let file = s.join("impossible.yaml");
    std::fs::write(&file, bad).expect("write");
    let o = run(xdie().current_dir(repo()).arg("sim").arg(&file));
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains(&format!(":{line}: key `legs[0].partitions`")),
        "{err}"
    );
    assert!(err.contains("out of range"), "{err}");
}

/// CSRs whose RTL differs from the RTL the testbench's models were built from: the RTL side
/// refuses (exit 2, before simulating anything) instead of silently running the compiled-in
/// RTL, while `--model-only` still runs them. Needs no new Verilator build.
#[test]
fn other_csrs_than_the_built_rtl_exit_2_unless_model_only() {
    let (_s, csrs) = csrs_copy("sim-other-csrs");
    let f = csrs.join("blocks/sdma_bcast.json");
    let text = std::fs::read_to_string(&f).expect("read");
    let edited = text.replacen("\"Description\": \"", "\"Description\": \"Edited. ", 1);
    assert_ne!(text, edited, "the block has a description to edit");
    std::fs::write(&f, edited).expect("write");
    // The edit reaches the generated RTL (so the refusal is about a real difference).
    let rtl = |dir: &std::path::Path| -> Vec<(std::path::PathBuf, String)> {
        let c = xdie_csr::load(dir).expect("csrs load");
        xdie_gen::emit::render_all(&c)
            .expect("render")
            .into_iter()
            .filter(|o| o.path.starts_with("rtl"))
            .map(|o| (o.path, o.contents))
            .collect()
    };
    assert_ne!(
        rtl(&repo().join("csrs")),
        rtl(&csrs),
        "the edit changes rtl/"
    );

    let scenario = "scenarios/worked-example.yaml";
    let o = run(xdie()
        .current_dir(repo())
        .args(["sim", scenario, "--csrs"])
        .arg(&csrs));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains(&format!(
            "the RTL model was built from other CSRs than {}",
            csrs.display()
        )),
        "{err}"
    );
    assert!(err.contains("--model-only"), "{err}");
    assert!(stdout(&o).is_empty(), "a refused run prints no report");

    let o = run(xdie()
        .current_dir(repo())
        .args(["sim", scenario, "--model-only", "--csrs"])
        .arg(&csrs));
    assert!(o.status.success(), "{}", stderr(&o));
}

/// On the RTL the report names its driver: the reference C firmware of every context.
#[test]
fn rtl_report_says_the_firmware_drove_it() {
    let r = sim_json("scenarios/same-die.yaml", &[]);
    assert_eq!(r["rtl_ran"], Value::Bool(true), "{r}");
    assert_eq!(r["rtl"], "PASS", "{r}");
    assert_eq!(r["driver"], "firmware");
    assert!(r["fw_accesses"].as_u64().is_some_and(|n| n > 0), "{r}");
    // The simulation speed is reported (a figure, so only its presence is checked).
    assert!(
        r["transfer_cycles_per_second"]
            .as_f64()
            .is_some_and(|s| s > 0.0),
        "{r}"
    );
    // One package runs on the package top: one model, one thread.
    assert_eq!(r["rtl_system"], "package top", "{r}");
    assert_eq!(
        (r["rtl_models"].as_u64(), r["threads"].as_u64()),
        (Some(1), Some(1))
    );
}

/// A topology's scenario runs on the system composed from it: one model per die, on the
/// threads asked for; a thread count of 0 is refused before anything runs.
#[test]
fn a_topology_runs_composed_on_the_threads_asked_for() {
    let r = sim_json("scenarios/cross-package.yaml", &["--threads", "2"]);
    let csrs = xdie_csr::load(&repo().join("csrs")).expect("csrs");
    let sc = Scenario::load(&repo().join("scenarios/cross-package.yaml")).expect("scenario");
    let dies = sc
        .mesh(&csrs)
        .expect("topology")
        .expect("names one")
        .dies()
        .len();
    assert_eq!(r["rtl"], "PASS", "{r}");
    assert_eq!(r["rtl_system"], "composed system", "{r}");
    assert_eq!(r["rtl_models"].as_u64(), Some(dies as u64), "{r}");
    assert_eq!(r["threads"].as_u64(), Some(2), "{r}");
    let o = run(xdie().current_dir(repo()).args([
        "sim",
        "scenarios/cross-package.yaml",
        "--threads",
        "0",
    ]));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--threads"), "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
}

/// A collective scenario reports its cycles next to the analytic bound: ring all-gather
/// (N-1)*S/B and all-reduce 2*(N-1)/N*S/B, B the width of the topology's links.
#[test]
fn collectives_report_cycles_and_bound() {
    let csrs = xdie_csr::load(&repo().join("csrs")).expect("csrs");
    for (file, factor) in [
        ("scenarios/allgather-ring8.yaml", None),
        ("scenarios/allreduce-ring8-fp32.yaml", Some(())),
    ] {
        let r = sim_json(file, &["--model-only"]);
        let sc = Scenario::load(&repo().join(file)).expect("scenario");
        let c = sc.collective.as_ref().expect("collective");
        let mesh = sc.mesh(&csrs).expect("topology").expect("a topology");
        let b = mesh.links.iter().map(|l| l.width).min().expect("links") as f64;
        let (n, s) = (c.ranks.len() as f64, c.bytes_per_rank as f64);
        let bound = match factor {
            None => (n - 1.0) * s / b,
            Some(()) => 2.0 * (n - 1.0) / n * s / b,
        };
        let col = &r["collectives"][0];
        assert_eq!(col["kind"], c.kind.name(), "{r}");
        let got = col["bound_cycles"].as_f64().expect("bound_cycles");
        assert!(
            (got - bound).abs() < 1e-6,
            "{file}: bound {got}, want {bound}"
        );
        let cycles = col["cycles"].as_u64().expect("cycles") as f64;
        let ratio = col["bound_ratio"].as_f64().expect("bound_ratio");
        assert!((ratio - cycles / bound).abs() < 1e-9, "{col}");
        assert!(
            cycles >= bound,
            "{file}: {cycles} cycles beat the bound {bound}"
        );
        assert_eq!(col["cycles_from"], "model estimate", "{col}");
    }
}

/// `--timeline` draws one lane per rank of a collective, a bar per leg.
#[test]
fn timeline_has_a_lane_per_rank_and_a_bar_per_leg() {
    let dir = Scratch::new("timeline");
    let out = dir.join("t.svg");
    let file = "scenarios/allgather-ring8.yaml";
    let o = run(xdie()
        .current_dir(repo())
        .args(["sim", file, "--model-only", "--timeline"])
        .arg(&out));
    assert!(o.status.success(), "{}", stderr(&o));
    let svg = std::fs::read_to_string(&out).expect("timeline written");
    let sc = Scenario::load(&repo().join(file)).expect("scenario");
    let c = sc.collective.as_ref().expect("collective");
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    for (i, r) in c.ranks.iter().enumerate() {
        let label = format!(">{i} chip {:#x} core {}<", r.chip, r.id);
        assert!(svg.contains(&label), "no lane `{label}`");
    }
    for l in &sc.legs {
        assert!(
            svg.contains(&format!("<title>{}</title>", l.name)),
            "no bar of {}",
            l.name
        );
    }
}
