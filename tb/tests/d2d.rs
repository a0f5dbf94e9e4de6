//! The die-to-die link (`xdie_d2d_link`) and the D2D controller port (`xdie_d2d_port`), each
//! driven cycle by cycle with seeded random valid/ready/credit patterns on every port.
//!
//! Link without faults: every flit arrives in order, unchanged, exactly LINK_LATENCY cycles after
//! it was sent (the receive FIFO head is valid exactly when the oldest flit in flight is that
//! old), the sender's credit count is always CREDITS - sent + (pops at least LATENCY + 1 cycles
//! ago), the link layer reports no event, and with the receiver always ready the link moves one
//! flit per cycle. Link with faults (bit flips and drops on the flit and DLLP wires of every
//! channel, a link held quiet): every flit still arrives exactly once, in order, unchanged; the
//! credits never exceed the receive buffers; CRC errors and replays are reported; the link goes
//! down while quiet and comes back.
//! Port: outbound requests hitting the (modelled) iATU leave as translated request flits only
//! when a credit is offered, misses are answered DECERR with no flit sent, responses come back in
//! request order; inbound flits reach the local xbus unchanged and each xbus response becomes a
//! response flit only while a credit is offered.
//! Geometry (beat bytes, latency, credits, address width) comes from csrs/: the port widths of
//! the simulated modules are checked against it, so the RTL defaults cannot drift.

use std::collections::VecDeque;
use xdie_tb::faults::{FaultLayout, Health, Wire};
use xdie_tb::regmodel::csrs;
use xdie_tb::sim::Port;
use xdie_tb::{harness, Ctx, DutKind, Rng, Sim};

/// The bus and link geometry, from the numbers `xdie gen` writes into `xdie_xbus_pkg`
/// (`DATA_BYTES` is the die map's DATA_BYTES, `ADDR_W` the SoC address width) and the die map's
/// link parameters. Every width the test uses is derived here, once.
struct Geometry {
    /// Bytes per beat (DATA_BYTES): also the bits of a write strobe.
    dw: u32,
    /// Bits per beat (DATA_W).
    data_w: u32,
    latency: u64,
    credits: u64,
    /// Bits of a routed address (ADDR_W).
    aw: u32,
    req: ReqFlit,
    rsp: RspFlit,
}

/// Bits [lsb, lsb + width) of a flit.
#[derive(Clone, Copy, Debug)]
struct Span {
    lsb: u32,
    width: u32,
}

/// Fields of a packed struct given LSB first, each starting where the previous one ends; returns
/// their spans and the struct's width.
fn pack<const N: usize>(widths: [u32; N]) -> ([Span; N], u32) {
    let mut lsb = 0;
    let spans = widths.map(|width| {
        let s = Span { lsb, width };
        lsb += width;
        s
    });
    (spans, lsb)
}

/// `xdie_xbus_pkg::req_t` as a flit: {write, addr, wdata, wstrb}, MSB first.
struct ReqFlit {
    wstrb: Span,
    wdata: Span,
    addr: Span,
    write: Span,
    width: u32,
}

/// `xdie_xbus_pkg::rsp_t` as a flit: {rdata, err}, MSB first.
struct RspFlit {
    err: Span,
    rdata: Span,
    width: u32,
}

/// Bits of a response code (`xdie_xbus_pkg::resp_e`, the AXI encoding).
const RESP_W: u32 = 2;

fn geometry() -> Geometry {
    let c = csrs();
    let p = &c.views.params;
    let dw = p.data_bytes as u32;
    let data_w = 8 * dw;
    let aw = c.soc.width;
    let ([wstrb, wdata, addr, write], req_w) = pack([dw, data_w, aw, 1]);
    let ([err, rdata], rsp_w) = pack([RESP_W, data_w]);
    Geometry {
        dw,
        data_w,
        latency: p.link_latency,
        credits: p.link_credits,
        aw,
        req: ReqFlit {
            wstrb,
            wdata,
            addr,
            write,
            width: req_w,
        },
        rsp: RspFlit {
            err,
            rdata,
            width: rsp_w,
        },
    }
}

fn dut(name: &str) -> DutKind {
    DutKind::ALL
        .iter()
        .copied()
        .find(|k| k.name() == name)
        .unwrap_or_else(|| panic!("{name} is not in rtl/xdie.f"))
}

fn port(sim: &Sim, name: &str) -> Port {
    sim.require_port(name).unwrap_or_else(|e| panic!("{e}"))
}

/// A port checked against the width the model gives it.
fn port_w(sim: &Sim, name: &str, width: u32) -> Port {
    let p = port(sim, name);
    assert_eq!(p.info().width, width, "width of {name}");
    p
}

fn words(bits: u32) -> usize {
    bits.div_ceil(32) as usize
}

fn random_bits(rng: &mut Rng, bits: u32) -> Vec<u32> {
    let mut v: Vec<u32> = (0..words(bits)).map(|_| rng.next_u32()).collect();
    if !bits.is_multiple_of(32) {
        *v.last_mut().expect("nonempty") &= (1u32 << (bits % 32)) - 1;
    }
    v
}

fn bit(v: &[u32], i: u32) -> bool {
    (v[(i / 32) as usize] >> (i % 32)) & 1 != 0
}

/// Bits `f` of `v`, as words.
fn take(v: &[u32], f: Span) -> Vec<u32> {
    let mut out = vec![0u32; words(f.width)];
    for i in 0..f.width {
        if bit(v, f.lsb + i) {
            out[(i / 32) as usize] |= 1 << (i % 32);
        }
    }
    out
}

/// Writes `src`'s low `f.width` bits at bits `f` of `v`.
fn put(v: &mut [u32], f: Span, src: &[u32]) {
    for i in 0..f.width {
        let (w, b) = (((f.lsb + i) / 32) as usize, (f.lsb + i) % 32);
        v[w] &= !(1 << b);
        if bit(src, i) {
            v[w] |= 1 << b;
        }
    }
}

fn as_u64(v: &[u32]) -> u64 {
    u64::from(v[0]) | (u64::from(v.get(1).copied().unwrap_or(0)) << 32)
}

// ------------------------------------------------------------------------------------- link

struct Chan {
    name: &'static str,
    tx_valid: Port,
    tx_data: Port,
    tx_credit: Port,
    rx_valid: Port,
    rx_ready: Port,
    rx_data: Port,
    credits: Option<Port>,
    width: u32,
    /// Flits sent and not yet popped: (send cycle, payload).
    in_flight: VecDeque<(u64, Vec<u32>)>,
    sends: Vec<u64>,
    pops: Vec<u64>,
}

impl Chan {
    fn new(sim: &Sim, name: &'static str, tx: &str, rx: &str, kind: &str, g: &Geometry) -> Chan {
        let width = if kind == "req" {
            g.req.width
        } else {
            g.rsp.width
        };
        Chan {
            name,
            tx_valid: port(sim, &format!("{tx}_{kind}_tx_valid_i")),
            tx_data: port_w(sim, &format!("{tx}_{kind}_tx_data_i"), width),
            tx_credit: port(sim, &format!("{tx}_{kind}_tx_credit_o")),
            rx_valid: port(sim, &format!("{rx}_{kind}_rx_valid_o")),
            rx_ready: port(sim, &format!("{rx}_{kind}_rx_ready_i")),
            rx_data: port_w(sim, &format!("{rx}_{kind}_rx_data_o"), width),
            credits: (kind == "req").then(|| port(sim, &format!("{tx}_credits_o"))),
            width,
            in_flight: VecDeque::new(),
            sends: Vec::new(),
            pops: Vec::new(),
        }
    }

    /// Credits the sender should hold in cycle `c` after bring-up.
    fn expected_credits(&self, c: u64, g: &Geometry) -> u64 {
        let back = self
            .pops
            .iter()
            .filter(|&&p| p + g.latency + 1 <= c)
            .count() as u64;
        g.credits + back - self.sends.len() as u64
    }
}

struct LinkRun {
    cycles: u64,
    /// Flits popped per channel within the measured cycles.
    moved: Vec<usize>,
}

/// Runs the link for `cycles` cycles after bring-up with the given send / ready percentages and
/// checks every rule of the module comment on every cycle.
fn run_link(ctx: &mut Ctx, send_pct: u32, ready_pct: u32, cycles: u64) -> LinkRun {
    let g = geometry();
    let mut sim = ctx.sim(dut("xdie_d2d_link")).expect("link model");
    let mut chans = vec![
        Chan::new(&sim, "a2b_req", "a", "b", "req", &g),
        Chan::new(&sim, "b2a_req", "b", "a", "req", &g),
        Chan::new(&sim, "a2b_rsp", "a", "b", "rsp", &g),
        Chan::new(&sim, "b2a_rsp", "b", "a", "rsp", &g),
    ];
    let ups = [port(&sim, "a_link_up_o"), port(&sim, "b_link_up_o")];
    let health = [port(&sim, "a_health_o"), port(&sim, "b_health_o")];
    for ch in &chans {
        sim.set_u64(ch.tx_valid, 0);
        sim.set_u64(ch.rx_ready, 0);
    }
    sim.reset(2);

    // Bring-up: the receivers' advertisement takes LATENCY cycles; no credit before it.
    let mut up_after = None;
    for c in 0..=2 * g.latency {
        sim.eval();
        let up = ups.iter().all(|&p| sim.get_u64(p) == 1);
        for ch in &chans {
            let credit = sim.get_u64(ch.tx_credit);
            assert_eq!(credit, u64::from(up), "{}: credit before link up", ch.name);
            if let Some(p) = ch.credits {
                let want = if up { g.credits } else { 0 };
                assert_eq!(sim.get_u64(p), want, "{}: credits at bring-up", ch.name);
            }
        }
        if up {
            up_after = Some(c);
            break;
        }
        sim.tick();
    }
    let up_after = up_after.expect("link never came up");
    assert_eq!(
        up_after, g.latency,
        "link up after the credit advertisement crossed"
    );

    let mut moved = vec![0usize; chans.len()];
    for c in 0..cycles {
        for ch in chans.iter_mut() {
            let credit = sim.get_u64(ch.tx_credit) == 1;
            let data = random_bits(&mut ctx.rng, ch.width);
            let send = credit && ctx.rng.chance(send_pct);
            sim.set_u64(ch.tx_valid, u64::from(send));
            sim.set(ch.tx_data, &data);
            if send {
                ch.in_flight.push_back((c, data));
                ch.sends.push(c);
            }
            sim.set_u64(ch.rx_ready, u64::from(ctx.rng.chance(ready_pct)));
        }
        sim.eval();
        for (h, die) in health.iter().zip(["a", "b"]) {
            // Everything but the `up` bit (the MSB) is an event.
            let events = sim.get_u64(*h) & ((1 << (h.info().width - 1)) - 1);
            assert_eq!(
                events, 0,
                "die {die}: link-layer event without a fault in cycle {c}"
            );
        }
        for (i, ch) in chans.iter_mut().enumerate() {
            if let Some(p) = ch.credits {
                // Sampled before this cycle's send: `sends` already holds it, so exclude it.
                let sent_now = ch.sends.last() == Some(&c);
                let want = ch.expected_credits(c, &g) + u64::from(sent_now);
                assert_eq!(sim.get_u64(p), want, "{}: credits in cycle {c}", ch.name);
                assert!(want <= g.credits, "{}: more credits than buffers", ch.name);
            }
            let arrived = ch
                .in_flight
                .front()
                .is_some_and(|(s, _)| s + g.latency <= c);
            let valid = sim.get_u64(ch.rx_valid) == 1;
            assert_eq!(
                valid,
                arrived,
                "{}: receive valid in cycle {c} (oldest flit in flight sent at {:?})",
                ch.name,
                ch.in_flight.front().map(|f| f.0)
            );
            if valid {
                let got = sim.get(ch.rx_data);
                let (sent, want) = ch.in_flight.front().expect("arrived");
                assert_eq!(&got, want, "{}: flit sent in cycle {sent}", ch.name);
                if sim.get_u64(ch.rx_ready) == 1 {
                    ch.in_flight.pop_front();
                    ch.pops.push(c);
                    moved[i] += 1;
                }
            }
        }
        sim.tick();
    }
    LinkRun { cycles, moved }
}

#[test]
fn link_in_order_lossless_with_random_backpressure() {
    for (seed, send, ready) in [(1u64, 90, 30), (2, 60, 60), (3, 95, 90), (4, 30, 95)] {
        harness::run(seed, |ctx| {
            let g = geometry();
            let run = run_link(ctx, send, ready, 30 * g.credits);
            assert!(run.moved.iter().all(|&m| m > 0), "some channel never moved");
        });
    }
}

#[test]
fn link_sustains_one_flit_per_cycle() {
    harness::run(5, |ctx| {
        let g = geometry();
        assert!(
            g.credits >= 2 * g.latency + 2,
            "the die map gives fewer credits than the link round trip needs"
        );
        // The first flit needs LATENCY cycles to arrive; count over a window long enough that
        // this start-up cost alone stays below 5 %.
        let cycles = 40 * g.latency.max(1);
        let run = run_link(ctx, 100, 100, cycles);
        for m in &run.moved {
            let rate = (*m as f64) / (run.cycles - g.latency) as f64;
            eprintln!(
                "d2d link: {m} flits in {} cycles after the first arrival = {rate:.3} flit/cycle \
                 ({} bytes/cycle of {} peak), latency {} cycles",
                run.cycles - g.latency,
                rate * f64::from(g.dw),
                g.dw,
                g.latency
            );
            assert!(rate >= 0.95, "link throughput {rate:.3} below 0.95");
        }
    });
}

// ------------------------------------------------------------------------------- link faults

/// What a faulty run did.
struct FaultRun {
    cycles: u64,
    delivered: usize,
    crc_errors: u64,
    replays: u64,
    /// The link was reported down at some cycle of the quiet window, and up at the end.
    went_down: bool,
}

/// Runs the link for `cycles` cycles with random traffic and faults: each word entering any wire
/// is hit with probability `per_million` / 10^6 (half dropped, half one bit flipped); during
/// `quiet` every word on every wire is dropped. Then drains with no faults and checks that every
/// flit sent arrived exactly once, in order and unchanged.
fn run_link_faults(
    ctx: &mut Ctx,
    send_pct: u32,
    ready_pct: u32,
    per_million: u64,
    cycles: u64,
    quiet: std::ops::Range<u64>,
) -> FaultRun {
    let g = geometry();
    let mut sim = ctx.sim(dut("xdie_d2d_link")).expect("link model");
    let mut chans = vec![
        Chan::new(&sim, "a2b_req", "a", "b", "req", &g),
        Chan::new(&sim, "b2a_req", "b", "a", "req", &g),
        Chan::new(&sim, "a2b_rsp", "a", "b", "rsp", &g),
        Chan::new(&sim, "b2a_rsp", "b", "a", "rsp", &g),
    ];
    let faults = FaultLayout::new(port(&sim, "fault_i"));
    let ups = [port(&sim, "a_link_up_o"), port(&sim, "b_link_up_o")];
    let health = [port(&sim, "a_health_o"), port(&sim, "b_health_o")];
    sim.reset(2);

    let mut run = FaultRun {
        cycles: 0,
        delivered: 0,
        crc_errors: 0,
        replays: 0,
        went_down: false,
    };
    // Generous: every flit of a full buffer replayed many times over.
    let drain_limit = 200 * (2 * g.latency + 8 + g.credits);
    let mut c = 0u64;
    loop {
        let draining = c >= cycles;
        if draining && chans.iter().all(|ch| ch.in_flight.is_empty()) {
            break;
        }
        assert!(
            c < cycles + drain_limit,
            "flits still missing {drain_limit} cycles after the faults stopped: {:?}",
            chans
                .iter()
                .map(|ch| (ch.name, ch.in_flight.len()))
                .collect::<Vec<_>>()
        );
        let mut f = faults.clear();
        for (i, ch) in chans.iter().enumerate() {
            for wire in [Wire::Flit, Wire::Dllp] {
                if quiet.contains(&c) {
                    faults.put(&mut f, i, wire, true, None);
                } else if !draining && ctx.rng.below(1_000_000) < per_million {
                    // Flip a bit within the word: the flit with its sequence number and CRC,
                    // or a DLLP (a bit past a word's end flips nothing).
                    let span = match wire {
                        Wire::Flit => ch.width + 64,
                        Wire::Dllp => 64,
                    };
                    let drop = ctx.rng.chance(50);
                    let flip = (!drop).then(|| ctx.rng.below(u64::from(span)) as u32);
                    faults.put(&mut f, i, wire, drop, flip);
                }
            }
        }
        sim.set(faults.port, &f);
        for ch in chans.iter_mut() {
            let credit = sim.get_u64(ch.tx_credit) == 1;
            let data = random_bits(&mut ctx.rng, ch.width);
            let send = !draining && credit && ctx.rng.chance(send_pct);
            sim.set_u64(ch.tx_valid, u64::from(send));
            sim.set(ch.tx_data, &data);
            if send {
                ch.in_flight.push_back((c, data));
            }
            let ready = draining || ctx.rng.chance(ready_pct);
            sim.set_u64(ch.rx_ready, u64::from(ready));
        }
        sim.eval();
        for h in health {
            let hv = Health::decode(h, sim.get_u64(h));
            run.crc_errors += u64::from(hv.crc_errors);
            run.replays += u64::from(hv.replays);
        }
        if quiet.contains(&c) && ups.iter().any(|&p| sim.get_u64(p) == 0) {
            run.went_down = true;
        }
        for ch in chans.iter_mut() {
            if let Some(p) = ch.credits {
                assert!(
                    sim.get_u64(p) <= g.credits,
                    "{}: more credits than buffers in cycle {c}",
                    ch.name
                );
            }
            if sim.get_u64(ch.rx_valid) == 1 && sim.get_u64(ch.rx_ready) == 1 {
                let got = sim.get(ch.rx_data);
                let Some((sent, want)) = ch.in_flight.pop_front() else {
                    panic!(
                        "{}: a flit arrived in cycle {c} that was never sent (or twice)",
                        ch.name
                    );
                };
                assert_eq!(
                    got, want,
                    "{}: flit sent in cycle {sent}, received in cycle {c}",
                    ch.name
                );
                run.delivered += 1;
            }
        }
        sim.tick();
        c += 1;
    }
    run.cycles = c;
    assert!(
        ups.iter().all(|&p| sim.get_u64(p) == 1),
        "link not up after the drain"
    );
    run
}

#[test]
fn link_loses_nothing_under_flips_and_drops() {
    for (seed, send, ready, per_million) in [
        (11u64, 90, 60, 1_000),
        (12, 60, 90, 10_000),
        (13, 95, 95, 50_000),
        (14, 30, 30, 200_000),
    ] {
        harness::run(seed, |ctx| {
            let g = geometry();
            let run = run_link_faults(ctx, send, ready, per_million, 40 * g.credits, 0..0);
            eprintln!(
                "d2d link, faults {per_million} per million words: {} flits delivered in {} \
                 cycles, {} CRC errors, {} replays",
                run.delivered, run.cycles, run.crc_errors, run.replays
            );
            assert!(run.delivered > 0, "nothing moved");
            if per_million >= 10_000 {
                assert!(
                    run.crc_errors > 0 && run.replays > 0,
                    "faults went unnoticed"
                );
            }
        });
    }
}

#[test]
fn link_recovers_after_going_quiet() {
    harness::run(15, |ctx| {
        let g = geometry();
        let quiet = 10 * g.credits..10 * g.credits + 1_000;
        let run = run_link_faults(ctx, 80, 80, 0, 30 * g.credits, quiet);
        assert!(
            run.went_down,
            "the link was never reported down while quiet"
        );
        assert!(
            run.replays > 0,
            "nothing was replayed after the quiet spell"
        );
        assert!(run.delivered > 0, "nothing moved");
    });
}

#[test]
fn link_throughput_with_faults() {
    // A figure, not a limit: flits per cycle with every word at risk of 1e-3.
    harness::run(16, |ctx| {
        let g = geometry();
        let cycles = 200 * g.credits;
        let run = run_link_faults(ctx, 100, 100, 1_000, cycles, 0..0);
        let rate = run.delivered as f64 / 4.0 / run.cycles as f64;
        eprintln!(
            "d2d link, faults 1e-3 per word, sender always valid, receiver always ready: \
             {rate:.3} flit/cycle per channel over {} cycles, {} CRC errors, {} replays",
            run.cycles, run.crc_errors, run.replays
        );
        assert!(run.delivered > 0, "nothing moved");
    });
}

// ------------------------------------------------------------------------------------- port

/// iATU outbound region as the model sees it (the block's lookup is combinational).
struct Region {
    base: u64,
    limit: u64,
    target: u64,
}

fn lookup(regions: &[Region], addr: u64) -> Option<u64> {
    regions
        .iter()
        .find(|r| addr >= r.base && addr <= r.limit)
        .map(|r| addr.wrapping_sub(r.base).wrapping_add(r.target))
}

#[derive(Clone, Debug, PartialEq)]
struct Req {
    write: bool,
    addr: u64,
    wdata: Vec<u32>,
    wstrb: Vec<u32>,
}

impl Req {
    fn random(rng: &mut Rng, g: &Geometry, addr: u64) -> Req {
        Req {
            write: rng.chance(50),
            addr,
            wdata: random_bits(rng, g.req.wdata.width),
            wstrb: random_bits(rng, g.req.wstrb.width),
        }
    }

    /// {write, addr, wdata, wstrb}, wstrb in the low bits.
    fn flit(&self, g: &Geometry) -> Vec<u32> {
        let f = &g.req;
        let mut v = vec![0u32; words(f.width)];
        put(&mut v, f.wstrb, &self.wstrb);
        put(&mut v, f.wdata, &self.wdata);
        put(
            &mut v,
            f.addr,
            &[self.addr as u32, (self.addr >> 32) as u32],
        );
        put(&mut v, f.write, &[u32::from(self.write)]);
        v
    }

    fn of_flit(v: &[u32], g: &Geometry) -> Req {
        Req {
            wstrb: take(v, g.req.wstrb),
            wdata: take(v, g.req.wdata),
            addr: as_u64(&take(v, g.req.addr)),
            write: bit(v, g.req.write.lsb),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
struct Rsp {
    rdata: Vec<u32>,
    err: u64,
}

impl Rsp {
    fn flit(&self, g: &Geometry) -> Vec<u32> {
        let f = &g.rsp;
        let mut v = vec![0u32; words(f.width)];
        put(&mut v, f.err, &[self.err as u32]);
        put(&mut v, f.rdata, &self.rdata);
        v
    }
}

const OKAY: u64 = 0b00;
const SLVERR: u64 = 0b10;
const DECERR: u64 = 0b11;

struct PortPorts {
    s_req: [Port; 6],
    s_rsp: [Port; 4],
    iatu: [Port; 3],
    m_req: [Port; 6],
    m_rsp: [Port; 4],
    req_tx: [Port; 3],
    req_rx: [Port; 3],
    rsp_tx: [Port; 3],
    rsp_rx: [Port; 3],
    health_in: [Port; 2],
    health_out: [Port; 2],
}

fn port_ports(sim: &Sim, g: &Geometry) -> PortPorts {
    let p = |n: &str| port(sim, n);
    let w = |n: &str, width| port_w(sim, n, width);
    PortPorts {
        s_req: [
            p("s_req_valid_i"),
            p("s_req_ready_o"),
            p("s_req_write_i"),
            w("s_req_addr_i", g.aw),
            w("s_req_wdata_i", g.data_w),
            w("s_req_wstrb_i", g.dw),
        ],
        s_rsp: [
            p("s_rsp_valid_o"),
            p("s_rsp_ready_i"),
            p("s_rsp_rdata_o"),
            p("s_rsp_err_o"),
        ],
        iatu: [
            p("iatu_lookup_addr_o"),
            p("iatu_lookup_hit_i"),
            p("iatu_lookup_addr_i"),
        ],
        m_req: [
            p("m_req_valid_o"),
            p("m_req_ready_i"),
            p("m_req_write_o"),
            p("m_req_addr_o"),
            p("m_req_wdata_o"),
            p("m_req_wstrb_o"),
        ],
        m_rsp: [
            p("m_rsp_valid_i"),
            p("m_rsp_ready_o"),
            p("m_rsp_rdata_i"),
            p("m_rsp_err_i"),
        ],
        req_tx: [
            p("req_tx_valid_o"),
            w("req_tx_data_o", g.req.width),
            p("req_tx_credit_i"),
        ],
        req_rx: [
            p("req_rx_valid_i"),
            p("req_rx_ready_o"),
            w("req_rx_data_i", g.req.width),
        ],
        rsp_tx: [
            p("rsp_tx_valid_o"),
            w("rsp_tx_data_o", g.rsp.width),
            p("rsp_tx_credit_i"),
        ],
        rsp_rx: [
            p("rsp_rx_valid_i"),
            p("rsp_rx_ready_o"),
            w("rsp_rx_data_i", g.rsp.width),
        ],
        health_in: [p("link_up_i"), p("link_credits_i")],
        health_out: [p("link_up_o"), p("credits_o")],
    }
}

/// Percentages of the random patterns.
#[derive(Clone, Copy)]
struct Pattern {
    req: u32,
    miss: u32,
    s_rsp_ready: u32,
    credit: u32,
    inbound: u32,
    m_req_ready: u32,
    m_rsp: u32,
}

enum Expect {
    Decerr,
    Remote,
}

struct PortRun {
    accepted: u64,
    answered: u64,
    flits_sent: u64,
    decerrs: u64,
    inbound_done: u64,
}

/// Drives the port for `cycles` cycles. The far side is modelled as the link would behave:
/// a request flit sent in cycle s is answered by a response flit that reaches this port in cycle
/// s + 2 * LATENCY + 2 at the earliest, and a request credit spent in cycle s is back 2 * LATENCY
/// cycles later (the peer pops on arrival). `pat.credit` additionally withholds credits at random.
fn run_port(ctx: &mut Ctx, pat: Pattern, cycles: u64) -> PortRun {
    let g = geometry();
    let mut sim = ctx.sim(dut("xdie_d2d_port")).expect("port model");
    let pp = port_ports(&sim, &g);
    let iatu_w = pp.iatu[0].info().width;
    let status_w = pp.health_out[1].info().width;
    let link_cw = pp.health_in[1].info().width;
    let rng = &mut ctx.rng;

    // Two regions below 2^AW, a third whose target lies above the routed address space.
    let span = 1u64 << (g.aw - 4);
    let regions = [
        Region {
            base: span,
            limit: 2 * span - 1,
            target: 5 * span,
        },
        Region {
            base: 3 * span,
            limit: 3 * span + 0xffff,
            target: 7 * span + 0x100,
        },
        Region {
            base: 4 * span,
            limit: 4 * span + 0xffff,
            target: 1u64 << g.aw,
        },
    ];
    assert!(
        iatu_w > g.aw,
        "the third region needs lookup bits above the routed address"
    );
    let pick_addr = |rng: &mut Rng, miss: bool| -> u64 {
        if miss {
            let r = &regions[2];
            if rng.chance(50) {
                r.base + rng.below(r.limit - r.base + 1)
            } else {
                2 * span + rng.below(span)
            }
        } else {
            let r = &regions[rng.below(2) as usize];
            r.base + rng.below(r.limit - r.base + 1)
        }
    };
    let mask_aw = (1u64 << g.aw) - 1;

    sim.set_u64(pp.health_in[0], 1);
    sim.reset(2);

    // Outbound state.
    let mut pending: Option<Req> = None;
    let mut expect_flits: VecDeque<Req> = VecDeque::new();
    let mut expect_rsp: VecDeque<Expect> = VecDeque::new();
    let mut remote_rsp: VecDeque<(u64, Rsp)> = VecDeque::new();
    let mut credits = g.credits;
    let mut credit_back: VecDeque<u64> = VecDeque::new();
    let mut rsp_rx_shown = false;
    // Inbound state.
    let mut in_flits: VecDeque<Req> = VecDeque::new();
    let mut local_rsp: VecDeque<(u64, Rsp)> = VecDeque::new();
    let mut m_rsp_shown: Option<Rsp> = None;
    let mut out_rsp_flits: VecDeque<Rsp> = VecDeque::new();

    let mut run = PortRun {
        accepted: 0,
        answered: 0,
        flits_sent: 0,
        decerrs: 0,
        inbound_done: 0,
    };
    for c in 0..cycles {
        while credit_back.front().is_some_and(|&t| t <= c) {
            credit_back.pop_front();
            credits += 1;
        }
        // -- outbound request
        if pending.is_none() && rng.chance(pat.req) {
            let miss = rng.chance(pat.miss);
            let addr = pick_addr(rng, miss);
            pending = Some(Req::random(rng, &g, addr));
        }
        let [v, _, wr, ad, wd, ws] = pp.s_req;
        match &pending {
            Some(r) => {
                sim.set_u64(v, 1);
                sim.set_u64(wr, u64::from(r.write));
                sim.set_u64(ad, r.addr);
                sim.set(wd, &r.wdata);
                sim.set(ws, &r.wstrb);
            }
            None => {
                sim.set_u64(v, 0);
                let junk = random_bits(rng, g.data_w);
                sim.set(wd, &junk);
                sim.set_u64(ad, rng.next_u64());
            }
        }
        let credit_offer = credits > 0 && rng.chance(pat.credit);
        sim.set_u64(pp.req_tx[2], u64::from(credit_offer));
        let link_credits = rng.below(1 << link_cw.min(16));
        sim.set_u64(pp.health_in[1], link_credits);
        sim.set_u64(pp.s_rsp[1], u64::from(rng.chance(pat.s_rsp_ready)));
        // Response flits: once shown (FIFO head) they stay until popped.
        if !rsp_rx_shown && remote_rsp.front().is_some_and(|(t, _)| *t <= c) {
            rsp_rx_shown = true;
        }
        sim.set_u64(pp.rsp_rx[0], u64::from(rsp_rx_shown));
        if let Some((_, r)) = remote_rsp.front() {
            sim.set(pp.rsp_rx[2], &r.flit(&g));
        }
        // -- inbound
        if in_flits.len() < 4 && rng.chance(pat.inbound) {
            let a = rng.next_u64() & mask_aw;
            in_flits.push_back(Req::random(rng, &g, a));
        }
        sim.set_u64(pp.req_rx[0], u64::from(!in_flits.is_empty()));
        if let Some(f) = in_flits.front() {
            sim.set(pp.req_rx[2], &f.flit(&g));
        }
        sim.set_u64(pp.m_req[1], u64::from(rng.chance(pat.m_req_ready)));
        if m_rsp_shown.is_none() && local_rsp.front().is_some_and(|(t, _)| *t <= c) {
            m_rsp_shown = local_rsp.pop_front().map(|(_, r)| r);
        }
        sim.set_u64(pp.m_rsp[0], u64::from(m_rsp_shown.is_some()));
        if let Some(r) = &m_rsp_shown {
            sim.set(pp.m_rsp[2], &r.rdata);
            sim.set_u64(pp.m_rsp[3], r.err);
        }
        let rsp_credit = rng.chance(pat.credit);
        sim.set_u64(pp.rsp_tx[2], u64::from(rsp_credit));

        // -- iATU lookup of the registered request address, then settle again
        sim.eval();
        let la = as_u64(&sim.get(pp.iatu[0]));
        let hit = lookup(&regions, la);
        sim.set_u64(pp.iatu[1], u64::from(hit.is_some()));
        let t = hit.unwrap_or(0);
        sim.set(pp.iatu[2], &[t as u32, (t >> 32) as u32, 0, 0]);
        sim.eval();

        // -- health
        assert_eq!(sim.get_u64(pp.health_out[0]), 1, "link_up_o");
        let sat = link_credits.min((1u64 << status_w) - 1);
        assert_eq!(sim.get_u64(pp.health_out[1]), sat, "credits_o");

        // -- outbound checks
        if sim.get_u64(pp.s_req[1]) == 1 {
            if let Some(r) = pending.take() {
                match lookup(&regions, r.addr).filter(|&a| a <= mask_aw) {
                    Some(a) => {
                        expect_flits.push_back(Req { addr: a, ..r });
                        expect_rsp.push_back(Expect::Remote);
                    }
                    None => expect_rsp.push_back(Expect::Decerr),
                }
                run.accepted += 1;
            }
        }
        // A flit is offered (valid) whenever it is ready; it leaves with a credit (valid and
        // credit), else it waits, offered unchanged.
        if sim.get_u64(pp.req_tx[0]) == 1 {
            let got = Req::of_flit(&sim.get(pp.req_tx[1]), &g);
            let want = expect_flits
                .front()
                .unwrap_or_else(|| panic!("unexpected request flit in cycle {c}: {got:?}"));
            assert_eq!(&got, want, "request flit in cycle {c}");
        }
        if sim.get_u64(pp.req_tx[0]) == 1 && credit_offer {
            expect_flits.pop_front();
            credits -= 1;
            credit_back.push_back(c + 2 * g.latency);
            let err = if rng.chance(20) { SLVERR } else { OKAY };
            let rsp = Rsp {
                rdata: random_bits(rng, g.data_w),
                err,
            };
            remote_rsp.push_back((c + 2 * g.latency + 2 + rng.below(3), rsp));
            run.flits_sent += 1;
        }
        let rx_pop = rsp_rx_shown && sim.get_u64(pp.rsp_rx[1]) == 1;
        if sim.get_u64(pp.s_rsp[0]) == 1 && sim.get_u64(pp.s_rsp[1]) == 1 {
            let got = Rsp {
                rdata: sim.get(pp.s_rsp[2]),
                err: sim.get_u64(pp.s_rsp[3]),
            };
            match expect_rsp.pop_front() {
                Some(Expect::Decerr) => {
                    assert!(!rx_pop, "DECERR answer consumed a response flit");
                    let zero = vec![0u32; words(g.data_w)];
                    assert_eq!(
                        got,
                        Rsp {
                            rdata: zero,
                            err: DECERR
                        },
                        "DECERR in cycle {c}"
                    );
                    run.decerrs += 1;
                }
                Some(Expect::Remote) => {
                    assert!(
                        rx_pop,
                        "remote answer without popping its flit in cycle {c}"
                    );
                    let (_, want) = remote_rsp.front().expect("flit shown");
                    assert_eq!(&got, want, "response in cycle {c}");
                }
                None => panic!("response without a request in cycle {c}"),
            }
            run.answered += 1;
        } else {
            assert!(
                !rx_pop,
                "response flit popped without an xbus response in cycle {c}"
            );
        }
        if rx_pop {
            remote_rsp.pop_front();
            rsp_rx_shown = false;
        }

        // -- inbound checks
        let m_valid = sim.get_u64(pp.m_req[0]) == 1;
        assert_eq!(
            m_valid,
            !in_flits.is_empty(),
            "m_req_valid follows the flit FIFO"
        );
        let ready = sim.get_u64(pp.m_req[1]) == 1;
        assert_eq!(
            sim.get_u64(pp.req_rx[1]) == 1,
            ready,
            "req_rx_ready follows m_req_ready"
        );
        if m_valid {
            let f = in_flits.front().expect("valid");
            let got = Req {
                write: sim.get_u64(pp.m_req[2]) == 1,
                addr: sim.get_u64(pp.m_req[3]),
                wdata: sim.get(pp.m_req[4]),
                wstrb: sim.get(pp.m_req[5]),
            };
            assert_eq!(&got, f, "inbound request in cycle {c}");
            if ready {
                in_flits.pop_front();
                let rsp = Rsp {
                    rdata: random_bits(rng, g.data_w),
                    err: *rng.pick(&[OKAY, SLVERR, DECERR]),
                };
                let delay = if rng.chance(pat.m_rsp) {
                    1
                } else {
                    1 + rng.below(8)
                };
                local_rsp.push_back((c + delay, rsp.clone()));
                out_rsp_flits.push_back(rsp);
            }
        }
        assert_eq!(
            sim.get_u64(pp.m_rsp[1]) == 1,
            rsp_credit,
            "m_rsp_ready is the credit"
        );
        let offered = sim.get_u64(pp.rsp_tx[0]) == 1;
        assert_eq!(offered, m_rsp_shown.is_some(), "rsp_tx_valid in cycle {c}");
        // Pushed with a credit (valid and credit).
        let tx = offered && rsp_credit;
        if tx {
            let want = out_rsp_flits.pop_front().expect("response expected");
            assert_eq!(
                sim.get(pp.rsp_tx[1]),
                want.flit(&g),
                "response flit in cycle {c}"
            );
            m_rsp_shown = None;
            run.inbound_done += 1;
        }
        sim.tick();
    }
    // Everything accepted is either answered or still owed.
    assert_eq!(
        run.accepted,
        run.answered + expect_rsp.len() as u64,
        "lost or extra responses"
    );
    run
}

#[test]
fn port_random_backpressure_everywhere() {
    let pats = [
        (11u64, [70, 30, 50, 50, 60, 50, 50]),
        (12, [95, 10, 90, 80, 90, 90, 90]),
        (13, [40, 60, 20, 30, 30, 20, 10]),
    ];
    for (seed, p) in pats {
        harness::run(seed, |ctx| {
            let pat = Pattern {
                req: p[0],
                miss: p[1],
                s_rsp_ready: p[2],
                credit: p[3],
                inbound: p[4],
                m_req_ready: p[5],
                m_rsp: p[6],
            };
            let g = geometry();
            let run = run_port(ctx, pat, 40 * g.credits);
            assert!(run.decerrs > 0, "no iATU miss exercised");
            assert!(run.flits_sent > 0, "no request flit sent");
            assert!(run.inbound_done > 0, "no inbound request answered");
        });
    }
}

#[test]
fn port_decerr_on_every_miss_without_a_flit() {
    harness::run(14, |ctx| {
        let pat = Pattern {
            req: 80,
            miss: 100,
            s_rsp_ready: 70,
            credit: 100,
            inbound: 0,
            m_req_ready: 100,
            m_rsp: 100,
        };
        let run = run_port(ctx, pat, 200);
        assert_eq!(run.flits_sent, 0, "a miss sent a flit");
        assert!(run.decerrs > 0 && run.decerrs == run.answered);
    });
}

#[test]
fn port_streams_one_request_per_cycle_across_the_round_trip() {
    harness::run(15, |ctx| {
        let g = geometry();
        let pat = Pattern {
            req: 100,
            miss: 0,
            s_rsp_ready: 100,
            credit: 100,
            inbound: 100,
            m_req_ready: 100,
            m_rsp: 100,
        };
        let cycles = 40 * g.credits;
        let run = run_port(ctx, pat, cycles);
        // Two cycles of start-up (request register, first lookup); the rest should stream.
        let rate = run.flits_sent as f64 / cycles as f64;
        let rsp_rate = run.answered as f64 / cycles as f64;
        eprintln!(
            "d2d port: {} request flits, {} responses, {} inbound in {cycles} cycles: \
             {rate:.3} req flit/cycle, {rsp_rate:.3} rsp/cycle",
            run.flits_sent, run.answered, run.inbound_done
        );
        assert!(rate >= 0.95, "outbound request rate {rate:.3} below 0.95");
        assert!(
            rsp_rate >= 0.95,
            "outbound response rate {rsp_rate:.3} below 0.95"
        );
    });
}
