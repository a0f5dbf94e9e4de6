//! The scenarios under `scenarios/` run on the model, and every class of bad scenario gets an
//! error naming the file, the key path and the line.

mod common;
use common::*;
use rstest::rstest;
use std::path::{Path, PathBuf};
use xdie_model::scenario::{Scenario, ScenarioErrorKind};
use xdie_model::*;

fn scenario_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../scenarios")
        .join(name)
}

fn run(name: &str) -> (Scenario, xdie_model::scenario::ModelRun) {
    let sc = Scenario::load(&scenario_path(name)).unwrap_or_else(|e| panic!("{e}"));
    let run = sc.run_model(&csrs(), 1).unwrap_or_else(|e| panic!("{e}"));
    (sc, run)
}

fn assert_delivered(sc: &Scenario, run: &xdie_model::scenario::ModelRun) {
    let sys = &run.sys;
    // Each leg's destination holds what its source held when the leg ran: for a chain, the
    // first leg's fill.
    for (i, l) in sc.legs.iter().enumerate() {
        let r = &run.legs[i];
        let mut src = (r.tx_die, r.tx_tpb, l.src_addr);
        let mut k = i;
        while let Some(j) = sc.legs[k].after {
            let prev = &run.legs[j];
            if (prev.rx_die, prev.rx_tpb) == (src.0, src.1) && sc.legs[j].dst_addr == src.2 {
                src = (prev.tx_die, prev.tx_tpb, sc.legs[j].src_addr);
                k = j;
            } else {
                break;
            }
        }
        for p in 0..l.partitions {
            let want = xdie_model::scenario::pattern(1, src.0, src.1, p, src.2, l.free_dim_bytes);
            let got = sys.read_local(
                r.rx_die,
                sys.layout.sbuf_addr(r.rx_tpb, p, l.dst_addr),
                l.free_dim_bytes,
            );
            assert!(got == want, "leg {} partition {p}", l.name);
        }
    }
}

#[test]
fn worked_example_folds_the_destination_and_raises_both_semaphores() {
    let (sc, run) = run("worked-example.yaml");
    let l = &sc.legs[0];
    let r = &run.legs[0];
    let lay = &run.sys.layout;
    assert_eq!(r.reach, Reach::Neighbor);
    let soc = &csrs().views.soc;
    assert_eq!(
        r.dst_soc,
        soc.fold_neighbor(lay.sbuf_addr(r.rx_tpb, 0, l.dst_addr), r.rx_die.die)
    );
    // The seed's corrected fold, of the offset alone (core 7's aperture adds its base).
    assert_eq!(
        soc.fold_neighbor(l.dst_addr, r.rx_die.die),
        0x58800000100000
    );
    assert_eq!(
        (r.tx_die.die, r.tx_tpb, r.rx_die.die, r.rx_tpb),
        (0, 3, 1, 3),
        "cores 5 and 7"
    );
    assert_eq!(l.partitions, lay.params.sbuf_partitions);
    let n = l.n_engines() as i64;
    assert_eq!(run.sys.sem(r.tx_die, r.tx_tpb, l.local_sem), n);
    assert_eq!(run.sys.sem(r.rx_die, r.rx_tpb, l.remote_sem), n);
    // Every other core's EVT_SEM is untouched.
    for die in [r.tx_die, r.rx_die] {
        for tpb in 0..lay.cores() {
            if (die, tpb) != (r.tx_die, r.tx_tpb) && (die, tpb) != (r.rx_die, r.rx_tpb) {
                for sem in 0..lay.sem_count() {
                    assert_eq!(run.sys.sem(die, tpb, sem), 0, "{die} core {tpb} sem {sem}");
                }
            }
        }
    }
    assert_delivered(&sc, &run);
}

#[rstest]
#[case("cross-package.yaml", Reach::ChipId)]
#[case("same-die.yaml", Reach::SameDie)]
#[case("chain.yaml", Reach::Neighbor)]
fn scenario_runs_on_the_model(#[case] name: &str, #[case] reach: Reach) {
    let (sc, run) = run(name);
    assert_eq!(run.legs[0].reach, reach);
    assert_delivered(&sc, &run);
}

#[test]
fn chain_consumes_the_first_legs_target() {
    let (sc, run) = run("chain.yaml");
    let (a, b) = (&sc.legs[0], &sc.legs[1]);
    assert_eq!(b.after, Some(0));
    let (ra, rb) = (&run.legs[0], &run.legs[1]);
    assert_eq!(run.sys.sem(ra.rx_die, ra.rx_tpb, a.remote_sem), 0);
    assert_eq!(
        run.sys.sem(rb.rx_die, rb.rx_tpb, b.remote_sem),
        b.n_engines() as i64
    );
}

const GOOD: &str = "packages: [0x12]
legs:
  - name: a
    tx: {chip: 0x12, core: 5}
    rx: {chip: 0x12, core: 7}
    dma_engine_mask: 0x3
    partitions: 4
    free_dim_bytes: 0x40
    src_addr: 0x0
    dst_addr: 0x100
    local_sem: 1
    remote_sem: 2
    go_sem: 3
";

/// GOOD with line `line` (1-based) replaced.
fn with_line(line: usize, text: &str) -> String {
    GOOD.lines()
        .enumerate()
        .map(|(i, l)| if i + 1 == line { text } else { l })
        .collect::<Vec<_>>()
        .join("\n")
}

fn line_of(needle: &str) -> usize {
    GOOD.lines().position(|l| l.contains(needle)).expect("line") + 1
}

fn err(text: &str) -> Box<xdie_model::ScenarioError> {
    let path = Path::new("scenarios/bad.yaml");
    let sc = match Scenario::parse(path, text) {
        Ok(sc) => sc,
        Err(e) => return e,
    };
    match sc.run_model(&csrs(), 1) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e,
    }
}

#[test]
fn good_text_runs() {
    let sc = Scenario::parse(Path::new("x.yaml"), GOOD).expect("parse");
    sc.run_model(&csrs(), 1).expect("run");
}

#[test]
fn missing_file_is_an_io_error() {
    let e = Scenario::load(Path::new("scenarios/no-such-file.yaml")).expect_err("missing");
    assert_eq!(e.kind, ScenarioErrorKind::Io);
    assert!(e.to_string().starts_with("scenarios/no-such-file.yaml"));
}

#[test]
fn unknown_key_names_file_key_and_line() {
    let n = line_of("go_sem");
    let e = err(&with_line(n, "    go_sem: 3\n    colour: red"));
    assert_eq!(e.kind, ScenarioErrorKind::Syntax);
    assert_eq!(e.at.key, "legs[0].colour");
    assert_eq!(e.at.line, Some(n + 1));
    assert!(e.message.contains("unknown field `colour`"), "{e}");
    let shown = e.to_string();
    assert!(
        shown.starts_with(&format!(
            "scenarios/bad.yaml:{}: key `legs[0].colour`",
            n + 1
        )),
        "{shown}"
    );
}

#[test]
fn wrong_type_and_missing_key_are_syntax_errors() {
    let n = line_of("partitions");
    let e = err(&with_line(n, "    partitions: many"));
    assert_eq!(e.kind, ScenarioErrorKind::Syntax);
    assert_eq!(e.at.key, "legs[0].partitions");
    assert_eq!(e.at.line, Some(n));

    let e = err(&with_line(line_of("go_sem"), ""));
    assert_eq!(e.kind, ScenarioErrorKind::Syntax);
    assert!(e.message.contains("missing field `go_sem`"), "{e}");
}

#[test]
fn after_must_name_an_earlier_leg() {
    let n = line_of("go_sem");
    let e = err(&with_line(n, "    go_sem: 3\n    after: z"));
    assert_eq!(e.kind, ScenarioErrorKind::Reference);
    assert_eq!(e.at.key, "legs[0].after");
    assert_eq!(e.at.line, Some(n + 1));
}

#[test]
fn duplicate_leg_names_are_refused() {
    let leg: String = GOOD.lines().skip(2).collect::<Vec<_>>().join("\n");
    let e = err(&format!("{GOOD}{leg}\n"));
    assert_eq!(e.kind, ScenarioErrorKind::Reference);
    assert_eq!(e.at.key, "legs[1].name");
    assert_eq!(e.at.line, Some(GOOD.lines().count() + 1));
}

#[test]
fn a_chain_wait_on_another_die_is_refused() {
    // The second leg's TX (core 5, die 0) cannot wait on a's remote_sem, which is on die 1.
    let leg: String = GOOD
        .lines()
        .skip(2)
        .collect::<Vec<_>>()
        .join("\n")
        .replace("name: a", "name: b\n    after: a")
        .replace("local_sem: 1", "local_sem: 4")
        .replace("remote_sem: 2", "remote_sem: 5")
        .replace("go_sem: 3", "go_sem: 6")
        .replace("dst_addr: 0x100", "dst_addr: 0x800");
    let e = err(&format!("{GOOD}{leg}\n"));
    assert_eq!(e.kind, ScenarioErrorKind::Reference);
    assert_eq!(e.at.key, "legs[1].after");
}

#[rstest]
#[case("partitions", "    partitions: 100000", "legs[0].partitions")]
#[case(
    "dma_engine_mask",
    "    dma_engine_mask: 0x10000",
    "legs[0].dma_engine_mask"
)]
#[case("src_addr", "    src_addr: 0x7fffffff", "legs[0].src_addr")]
#[case("remote_sem", "    remote_sem: 100000", "legs[0].remote_sem")]
#[case("rx:", "    rx: {chip: 0x12, core: 99}", "legs[0].rx")]
#[case("tx:", "    tx: {chip: 0x13, core: 5}", "legs[0].tx")]
fn impossible_transfers_carry_the_models_typed_error(
    #[case] needle: &str,
    #[case] line: &str,
    #[case] key: &str,
) {
    let n = line_of(needle);
    let e = err(&with_line(n, line));
    let ScenarioErrorKind::Model(m) = &e.kind else {
        panic!("not a model error: {e}");
    };
    assert_eq!(e.at.key, key, "{e}");
    assert_eq!(e.at.line, Some(n), "{e}");
    assert!(e.message.contains(&m.to_string()), "{e}");
}

#[test]
fn an_impossible_transfer_keeps_its_model_variant() {
    let e = err(&with_line(line_of("partitions"), "    partitions: 0"));
    assert!(matches!(
        e.kind,
        ScenarioErrorKind::Model(ModelError::PartitionsOutOfRange { .. })
    ));
    let e = err(&with_line(
        line_of("dma_engine_mask"),
        "    dma_engine_mask: 0x10000",
    ));
    assert!(matches!(
        e.kind,
        ScenarioErrorKind::Model(ModelError::MissingEngine { .. })
    ));
}

#[test]
fn an_uneven_split_is_blamed_on_partitions() {
    let n = line_of("partitions");
    let e = err(&with_line(n, "    partitions: 5"));
    assert!(
        matches!(
            e.kind,
            ScenarioErrorKind::Model(ModelError::UnevenSplit {
                partitions: 5,
                engines: 2
            })
        ),
        "{e}"
    );
    assert_eq!(e.at.key, "legs[0].partitions");
    assert_eq!(e.at.line, Some(n));
}

/// `faults:` (the RTL link's fault injection): every bad value is refused with its key and line;
/// a good block parses into the typed faults and leaves the model's run alone.
#[rstest]
#[case("  bit_flip: 1.5", "faults.bit_flip", ScenarioErrorKind::Reference)]
#[case("  drop: -0.1", "faults.drop", ScenarioErrorKind::Reference)]
#[case(
    "  lost_credits: 0.6\n  drop: 0.5",
    "faults",
    ScenarioErrorKind::Reference
)]
#[case(
    "  link_down: [{at: 10, cycles: 0}]",
    "faults.link_down[0].cycles",
    ScenarioErrorKind::Reference
)]
#[case("  bit_flips: 0.1", "faults.bit_flips", ScenarioErrorKind::Syntax)]
#[case(
    "  link_down: [{at: 10, for: 5}]",
    "faults.link_down[0].for",
    ScenarioErrorKind::Syntax
)]
fn bad_faults_are_refused_with_their_key(
    #[case] body: &str,
    #[case] key: &str,
    #[case] kind: ScenarioErrorKind,
) {
    let text = format!("{GOOD}\nfaults:\n{body}\n");
    let e = err(&text);
    assert_eq!(e.kind, kind, "{e}");
    assert_eq!(e.at.key, key, "{e}");
    // The line is the faults block's or one of its keys'.
    let block = text.lines().position(|l| l == "faults:").expect("block") + 1;
    let line = e.at.line.unwrap_or_else(|| panic!("no line: {e}"));
    assert!(line >= block && line <= text.lines().count(), "{e}");
}

#[test]
fn faults_parse_into_rates_and_spells() {
    let text = format!(
        "{GOOD}\nfaults:\n  bit_flip: 1e-3\n  drop: 2e-3\n  lost_credits: 5e-4\n  \
         link_down: [{{at: 100, cycles: 50}}, {{at: 1000}}]\n"
    );
    let sc =
        Scenario::parse(Path::new("scenarios/f.yaml"), &text).unwrap_or_else(|e| panic!("{e}"));
    let f = &sc.faults;
    assert_eq!((f.bit_flip, f.drop, f.lost_credits), (1e-3, 2e-3, 5e-4));
    assert!(!f.down_at(99) && f.down_at(100) && f.down_at(149) && !f.down_at(150));
    assert!(
        f.down_at(1000) && f.down_at(u64::MAX),
        "a spell without cycles lasts"
    );
    assert!(!f.is_none());
    let plain = Scenario::parse(Path::new("scenarios/g.yaml"), GOOD).expect("good");
    assert!(plain.faults.is_none());
    // The model's run does not depend on the faults (its link is ideal).
    let a = sc.run_model(&csrs(), 1).expect("model");
    let b = plain.run_model(&csrs(), 1).expect("model");
    assert_eq!(a.sys.end_state(), b.sys.end_state());
}
