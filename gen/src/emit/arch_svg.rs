//! `docs/architecture.svg`: the package top as a picture, drawn from the CSR model (engine,
//! queue, semaphore, window, controller and SBUF counts, link parameters), so the README's
//! picture changes when csrs/ does. Two dies, mirrored so their D2D controllers face the link.

use super::{OutFile, DO_NOT_EDIT};
use xdie_csr::Csrs;

/// Numbers the picture shows, read from the typed views.
struct Figures {
    dies: u64,
    engines: u64,
    queues: u64,
    semaphores: u64,
    windows: u64,
    controllers: u64,
    regions: u64,
    partitions: u64,
    backing_kib: u64,
    data_bytes: u64,
    link_latency: u64,
    link_credits: u64,
}

fn figures(c: &Csrs) -> Figures {
    let v = &c.views;
    let count =
        |f: &dyn Fn(&xdie_csr::Block) -> Option<u64>| c.blocks.iter().find_map(f).unwrap_or(0);
    Figures {
        dies: v.soc.dies_per_package(),
        engines: v.engines(),
        queues: v.queues(),
        semaphores: v.sem_count(),
        windows: count(&|b| b.remap().map(|r| r.window.count)),
        controllers: v.apertures.d2d.count,
        regions: count(&|b| b.iatu().map(|i| i.region.count)),
        partitions: v.params.sbuf_partitions,
        backing_kib: v.params.sbuf_backing_bytes / 1024,
        data_bytes: v.params.data_bytes,
        link_latency: v.params.link_latency,
        link_credits: v.params.link_credits,
    }
}

struct Svg(String);

impl Svg {
    fn rect(&mut self, x: u32, y: u32, w: u32, h: u32, fill: &str) {
        self.0.push_str(&format!(
            "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" rx=\"4\" fill=\"{fill}\" stroke=\"#333\"/>\n"
        ));
    }
    /// Centered lines of text in a box.
    fn label(&mut self, x: u32, y: u32, w: u32, lines: &[String]) {
        for (i, l) in lines.iter().enumerate() {
            self.0.push_str(&format!(
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\"{}>{}</text>\n",
                x + w / 2,
                y + 17 + 15 * i as u32,
                if i == 0 { " font-weight=\"bold\"" } else { "" },
                escape(l)
            ));
        }
    }
    fn boxed(&mut self, x: u32, y: u32, w: u32, h: u32, fill: &str, lines: &[String]) {
        self.rect(x, y, w, h, fill);
        self.label(x, y, w, lines);
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

const DIE_W: u32 = 420;
const GAP: u32 = 80;
const COL: u32 = 195;

fn die(svg: &mut Svg, f: &Figures, d: u64, x0: u32) {
    svg.rect(x0, 40, DIE_W, 330, "#f7f7f7");
    svg.label(x0, 40, DIE_W, &[format!("die {d}")]);
    // Die 0 keeps its D2D column on the right, die 1 on the left: both face the link.
    let (outer, inner) = if d % 2 == 0 {
        (x0 + 10, x0 + 215)
    } else {
        (x0 + 215, x0 + 10)
    };
    let s = |t: &str| t.to_string();
    svg.boxed(
        outer,
        65,
        COL,
        40,
        "#e3f0e3",
        &[s("host port"), s("AXI4-Lite, firmware")],
    );
    svg.boxed(
        inner,
        65,
        COL,
        40,
        "#e3f0e3",
        &[s("xt remap windows"), format!("{} windows", f.windows)],
    );
    svg.boxed(
        x0 + 10,
        120,
        DIE_W - 20,
        40,
        "#dde6f5",
        &[
            s("crossbar"),
            s("masters: host port, D2D inbound, a read and a write port per engine"),
        ],
    );
    svg.boxed(
        outer,
        175,
        COL,
        95,
        "#fdf2d0",
        &[
            format!("SDMA engines × {}", f.engines),
            s("M2S + S2M queue groups"),
            format!("{} queues each", f.queues),
            s("+ broadcast doorbell"),
        ],
    );
    svg.boxed(
        inner,
        175,
        COL,
        40,
        "#f6dede",
        &[s("EVT_SEM"), format!("{} semaphores", f.semaphores)],
    );
    svg.boxed(
        inner,
        225,
        COL,
        45,
        "#e8e0f3",
        &[
            format!("D2D controllers × {}", f.controllers),
            format!("iATU, {} regions each", f.regions),
        ],
    );
    svg.boxed(
        outer,
        285,
        COL,
        70,
        "#fdf2d0",
        &[
            s("SBUF"),
            format!("{} partitions", f.partitions),
            format!("{} KiB backed each", f.backing_kib),
        ],
    );
    svg.boxed(
        inner,
        285,
        COL,
        70,
        "#eeeeee",
        &[s("HBM"), s("rings, descriptors")],
    );
}

pub fn render(c: &Csrs) -> OutFile {
    let f = figures(c);
    let width = 2 * DIE_W + GAP + 40;
    let mut svg = Svg(String::new());
    svg.0.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"430\" viewBox=\"0 0 {width} 430\" font-family=\"sans-serif\" font-size=\"12\">\n<!-- {DO_NOT_EDIT} -->\n"
    ));
    svg.rect(5, 5, width - 10, 420, "#ffffff");
    svg.label(
        5,
        5,
        width - 10,
        &[format!(
            "package top: {} dies and their die-to-die link",
            f.dies
        )],
    );
    let x1 = 20 + DIE_W + GAP;
    die(&mut svg, &f, 0, 20);
    die(&mut svg, &f, 1, x1);
    // The link joins the two D2D controller columns.
    let (a, b) = (20 + 215 + COL, x1 + 10);
    for (y, arrow) in [(240, "▶"), (255, "◀")] {
        svg.0.push_str(&format!(
            "<line x1=\"{a}\" y1=\"{y}\" x2=\"{b}\" y2=\"{y}\" stroke=\"#6a4c93\" stroke-width=\"3\"/>\n<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#6a4c93\">{arrow}</text>\n",
            (a + b) / 2,
            y - 4
        ));
    }
    svg.label(
        5,
        385,
        width - 10,
        &[
            "D2D link".to_string(),
            format!(
                "{} bytes per flit each way, {} cycles latency, {} credits per channel",
                f.data_bytes, f.link_latency, f.link_credits
            ),
        ],
    );
    svg.0.push_str("</svg>\n");
    OutFile::new("docs/architecture.svg", svg.0)
}
