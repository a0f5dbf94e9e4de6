//! `xdie sim --timeline FILE.svg`: the legs of a scenario over time, one lane per sending core
//! (a collective's ranks in ring order), from the model's timing estimate (docs/collectives.md).
//! Per lane: one row per stream (engine) with a bar per leg (solid while its bytes leave, light
//! until they and its remote_sem landed), grey where the stream waits for the leg it follows,
//! and a strip of the lane's link use (the sending rate over the link width).

use std::collections::BTreeMap;
use std::fmt::Write;
use xdie_model::scenario::{ModelRun, Scenario};
use xdie_model::timing::Estimate;
use xdie_model::Core;

const WIDTH: f64 = 1200.0;
const LEFT: f64 = 170.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 50.0;
const ROW: f64 = 9.0;
const STRIP: f64 = 6.0;
const GAP: f64 = 6.0;

fn color(name: &str) -> &'static str {
    match name.split('-').next().unwrap_or("") {
        "rs" => "#d9822b",
        "ag" => "#2b6cb0",
        "a2a" => "#2f855a",
        "bc" => "#805ad5",
        _ => "#4a5568",
    }
}

/// Text of the SVG: well-formed XML whatever the scenario holds (`crate::printable::xml`).
fn esc(s: &str) -> String {
    crate::printable::xml(s)
}

/// The SVG text of `sc`'s legs as `est` schedules them.
pub fn svg(sc: &Scenario, run: &ModelRun, est: &Estimate) -> String {
    // Lanes: the collective's ranks in order, else every TX core in order of first leg.
    let mut lanes: Vec<Core> = match &sc.collective {
        Some(c) => c.ranks.clone(),
        None => Vec::new(),
    };
    for l in &sc.legs {
        if !lanes.contains(&l.tx) {
            lanes.push(l.tx);
        }
    }
    // Rows of a lane: its streams (engine mask, queue), in order of first use.
    let mut rows: BTreeMap<Core, Vec<(u64, u64)>> = BTreeMap::new();
    for l in &sc.legs {
        let r = rows.entry(l.tx).or_default();
        if !r.contains(&(l.dma_engine_mask, l.queue)) {
            r.push((l.dma_engine_mask, l.queue));
        }
    }
    let end = est.cycles.max(1.0);
    let x = |t: f64| LEFT + (WIDTH - LEFT - RIGHT) * t / end;
    let lane_h = |c: &Core| rows.get(c).map_or(1, |r| r.len()) as f64 * ROW + STRIP + GAP;
    let height = TOP + lanes.iter().map(lane_h).sum::<f64>() + 40.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height:.0}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let title = match &sc.collective {
        Some(c) => format!(
            "{} of {} bytes per rank ({}), {} ranks, {} legs: {:.0} cycles (model estimate)",
            c.kind.name(),
            c.bytes_per_rank,
            c.dtype.name(),
            c.ranks.len(),
            sc.legs.len(),
            est.cycles
        ),
        None => format!(
            "{}: {} legs, {:.0} cycles (model estimate)",
            sc.description,
            sc.legs.len(),
            est.cycles
        ),
    };
    let _ = writeln!(
        s,
        r#"<text x="10" y="20" font-size="14">{}</text>"#,
        esc(&title)
    );
    let _ = writeln!(
        s,
        "<text x=\"10\" y=\"36\" fill=\"#555\">solid: bytes leaving; light: until landed; grey: \
         waiting for the leg it follows; strip: link use (sending rate / link width)</text>"
    );
    // Time axis: ten ticks.
    let axis_y = height - 25.0;
    for k in 0..=10 {
        let t = end * k as f64 / 10.0;
        let _ = writeln!(
            s,
            "<line x1=\"{0:.1}\" y1=\"{TOP}\" x2=\"{0:.1}\" y2=\"{axis_y}\" stroke=\"#eee\"/>\
             <text x=\"{0:.1}\" y=\"{1:.0}\" text-anchor=\"middle\" fill=\"#555\">{2:.0}</text>",
            x(t),
            axis_y + 14.0,
            t
        );
    }
    let mut y = TOP;
    let width = est.link_width.max(1) as f64;
    for core in &lanes {
        let my_rows = rows.get(core).cloned().unwrap_or_default();
        let label = format!(
            "{} chip {:#x} core {}",
            lanes.iter().position(|c| c == core).unwrap_or(0),
            core.chip,
            core.id
        );
        let _ = writeln!(
            s,
            r#"<text x="10" y="{:.1}">{}</text>"#,
            y + ROW,
            esc(&label)
        );
        let mut last_end: BTreeMap<(u64, u64), f64> = BTreeMap::new();
        for (i, l) in sc.legs.iter().enumerate().filter(|(_, l)| l.tx == *core) {
            let sp = est.spans[i];
            let row = my_rows
                .iter()
                .position(|r| *r == (l.dma_engine_mask, l.queue))
                .unwrap_or(0);
            let ry = y + row as f64 * ROW;
            let key = (l.dma_engine_mask, l.queue);
            if let Some(&prev) = last_end.get(&key) {
                if l.after.is_some() && sp.start > prev {
                    let _ = writeln!(
                        s,
                        "<rect x=\"{:.2}\" y=\"{:.1}\" width=\"{:.2}\" height=\"{:.1}\" fill=\"#cbd5e0\"/>",
                        x(prev),
                        ry + 2.0,
                        x(sp.start) - x(prev),
                        ROW - 4.0
                    );
                }
            }
            last_end.insert(key, sp.data_end);
            let c = color(&l.name);
            let _ = writeln!(
                s,
                "<rect x=\"{:.2}\" y=\"{:.1}\" width=\"{:.2}\" height=\"{:.1}\" fill=\"{c}\" \
                 fill-opacity=\"0.35\"><title>{}</title></rect><rect x=\"{:.2}\" y=\"{:.1}\" \
                 width=\"{:.2}\" height=\"{:.1}\" fill=\"{c}\"><title>{}</title></rect>",
                x(sp.start),
                ry + 1.0,
                (x(sp.end) - x(sp.start)).max(0.5),
                ROW - 2.0,
                esc(&l.name),
                x(sp.start),
                ry + 1.0,
                (x(sp.data_end) - x(sp.start)).max(0.5),
                ROW - 2.0,
                esc(&l.name)
            );
            // Link use: the leg's average sending rate over the link width.
            let dur = sp.data_end - sp.start;
            if dur > 0.0 && run.legs[i].tx_die != run.legs[i].rx_die {
                let use_ = (l.bytes() as f64 / dur / width).min(1.0);
                let _ = writeln!(
                    s,
                    "<rect x=\"{:.2}\" y=\"{:.1}\" width=\"{:.2}\" height=\"{STRIP}\" fill=\"#1a202c\" fill-opacity=\"{:.3}\"/>",
                    x(sp.start),
                    y + my_rows.len() as f64 * ROW,
                    (x(sp.data_end) - x(sp.start)).max(0.5),
                    use_
                );
            }
        }
        y += lane_h(core);
    }
    let _ = writeln!(
        s,
        r##"<text x="{:.0}" y="{:.0}" text-anchor="end" fill="#555">cycles</text>"##,
        WIDTH - RIGHT,
        height - 2.0
    );
    s.push_str("</svg>\n");
    s
}
