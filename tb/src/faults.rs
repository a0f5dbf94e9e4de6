//! Fault injection on the die-to-die link's wires, and the link's health as the RTL reports it.
//!
//! The link (`xdie_d2d_link`) takes an `xdie_d2d_pkg::link_fault_t` per cycle: per channel, in the
//! order a2b_req, b2a_req, a2b_rsp, b2a_rsp from the MSB, the flit wire then the DLLP wire, each
//! `{drop, flip, flip_bit}` from the MSB. Each die reports an `xdie_d2d_pkg::health_t`: from the
//! MSB `up`, then one bit per channel each of flit CRC errors, DLLP CRC errors, replays and
//! credit waits. Widths come from
//! the ports (eight equal wires), nothing here restates the RTL's.

use crate::rng::Rng;
use crate::sim::{Port, Sim};
use std::cell::RefCell;
use std::rc::Rc;
use xdie_model::scenario::Faults;

/// One of the two wires of a link channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wire {
    Flit = 0,
    Dllp = 1,
}

/// The channels of a link, in the fault port's order (from the MSB).
pub const CHANNELS: [&str; 4] = ["a2b_req", "b2a_req", "a2b_rsp", "b2a_rsp"];

/// Where each wire's fault sits in the fault port.
#[derive(Debug, Clone, Copy)]
pub struct FaultLayout {
    pub port: Port,
    /// Bits of one wire's fault ({drop, flip, flip_bit}).
    pub wire_w: u32,
}

impl FaultLayout {
    pub fn new(port: Port) -> FaultLayout {
        let w = port.info().width;
        assert!(
            w % 8 == 0 && w / 8 > 2,
            "{}: eight wire faults of equal width",
            port.info().name
        );
        FaultLayout {
            port,
            wire_w: w / 8,
        }
    }

    /// A fault vector with no fault, as 32-bit words.
    pub fn clear(&self) -> Vec<u32> {
        vec![0; (8 * self.wire_w).div_ceil(32) as usize]
    }

    /// LSB of wire `wire` of channel `chan` (an index into [`CHANNELS`]).
    pub fn lsb(&self, chan: usize, wire: Wire) -> u32 {
        (7 - (chan * 2 + wire as usize) as u32) * self.wire_w
    }

    /// Sets one wire's fault in `v`: drop the word, or flip bit `flip` of it (counted from the
    /// LSB of the wire's word; a bit past its end flips nothing).
    pub fn put(&self, v: &mut [u32], chan: usize, wire: Wire, drop: bool, flip: Option<u32>) {
        let lsb = self.lsb(chan, wire);
        let bit_w = self.wire_w - 2;
        for i in 0..self.wire_w {
            set_bit(v, lsb + i, false);
        }
        if let Some(b) = flip {
            for i in 0..bit_w.min(32) {
                set_bit(v, lsb + i, (b >> i) & 1 != 0);
            }
            set_bit(v, lsb + bit_w, true);
        }
        set_bit(v, lsb + bit_w + 1, drop);
    }
}

fn set_bit(v: &mut [u32], i: u32, on: bool) {
    let (w, b) = ((i / 32) as usize, i % 32);
    v[w] = (v[w] & !(1 << b)) | (u32::from(on) << b);
}

/// One die's `health_t` in one cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Health {
    pub up: bool,
    /// CRC errors this cycle: bad flits and bad DLLPs.
    pub crc_errors: u32,
    pub replays: u32,
    /// Bad flits received (all channels).
    pub flit_crc: u32,
    /// Bad DLLPs received (all channels).
    pub dllp_crc: u32,
    /// Channels offering a flit without a send credit.
    pub credit_wait: u32,
}

/// Fields of `health_t` below `up`, from the MSB: flit CRC errors, DLLP CRC errors, replays,
/// credit waits, one bit per channel each.
const HEALTH_FIELDS: u32 = 4;

impl Health {
    pub fn decode(port: Port, v: u64) -> Health {
        let w = port.info().width;
        assert!(
            w > 1 && (w - 1) % HEALTH_FIELDS == 0,
            "{}: up and {HEALTH_FIELDS} per-channel fields",
            port.info().name
        );
        let ch = (w - 1) / HEALTH_FIELDS;
        let field = |i: u32| ((v >> ((HEALTH_FIELDS - 1 - i) * ch)) & ((1 << ch) - 1)).count_ones();
        let (flit_crc, dllp_crc) = (field(0), field(1));
        Health {
            up: (v >> (w - 1)) & 1 != 0,
            crc_errors: flit_crc + dllp_crc,
            replays: field(2),
            flit_crc,
            dllp_crc,
            credit_wait: field(3),
        }
    }
}

/// What one die's health report said during a run (what its d2d health block saw).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DieHealth {
    pub flit_crc: u64,
    pub dllp_crc: u64,
    pub replays: u64,
    /// Times the link went down and came up.
    pub downs: u64,
    pub ups: u64,
    /// The longest run of consecutive cycles with a credit wait while the link was up.
    pub longest_wait: u64,
    wait_run: u64,
    was_up: Option<bool>,
}

impl DieHealth {
    fn observe(&mut self, h: &Health) {
        self.flit_crc += u64::from(h.flit_crc);
        self.dllp_crc += u64::from(h.dllp_crc);
        self.replays += u64::from(h.replays);
        if let Some(was) = self.was_up {
            self.downs += u64::from(was && !h.up);
            self.ups += u64::from(!was && h.up);
        }
        self.was_up = Some(h.up);
        if h.up && h.credit_wait > 0 {
            self.wait_run += 1;
            self.longest_wait = self.longest_wait.max(self.wait_run);
        } else {
            self.wait_run = 0;
        }
    }
}

/// What the link went through during a run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LinkStats {
    /// Cycles the injector ran.
    pub cycles: u64,
    pub flips_injected: u64,
    pub drops_injected: u64,
    /// CRC errors the dies detected (bad flits and bad DLLPs).
    pub crc_errors: u64,
    /// Replays the dies started.
    pub replays: u64,
    /// Cycles either die saw the link down.
    pub down_cycles: u64,
    /// The injector's cycle since which the link has been down without a break, if it is down.
    pub down_since: Option<u64>,
    /// Per die (in the order of the health ports given to the injector).
    pub dies: Vec<DieHealth>,
    /// Set by the user of the handle: inject no more faults, keep counting what the dies
    /// report (words already hit are still on the wires).
    pub calm: bool,
}

/// Drives a scenario's [`Faults`] into a model's fault port every cycle and counts what the dies
/// report. Install with [`Injector::install`]; the returned handle reads the counts.
pub struct Injector {
    faults: Faults,
    layout: FaultLayout,
    health: Vec<Port>,
    /// Flipped bits are drawn below these: a flit's payload (the low bits of the flit wire's
    /// word) and a DLLP's CRC (the low bits of the DLLP wire's word).
    flit_bits: u32,
    dllp_bits: u32,
    /// This cycle's fault vector (kept to avoid an allocation per cycle).
    buf: Vec<u32>,
    rng: Rng,
    stats: Rc<RefCell<LinkStats>>,
}

/// Bits of a DLLP's CRC field, the low bits of the DLLP wire's word.
const DLLP_CRC_BITS: u32 = 16;

impl Injector {
    /// `flit_bits`: the narrowest flit of the link (a flipped flit bit is drawn below it).
    pub fn install(
        sim: &mut Sim,
        fault_port: Port,
        health: Vec<Port>,
        flit_bits: u32,
        faults: Faults,
        seed: u64,
    ) -> Rc<RefCell<LinkStats>> {
        let stats = Rc::new(RefCell::new(LinkStats::default()));
        let layout = FaultLayout::new(fault_port);
        let mut inj = Injector {
            faults,
            buf: layout.clear(),
            layout,
            health,
            flit_bits,
            dllp_bits: DLLP_CRC_BITS,
            rng: Rng::new(seed ^ 0xfa17_5eed),
            stats: Rc::clone(&stats),
        };
        sim.set_cycle_hook(Some(Box::new(move |sim: &mut Sim| inj.cycle(sim))));
        stats
    }

    /// Draws `p` (a probability) as one chance in 2^53.
    fn hit(&mut self, p: f64) -> bool {
        p > 0.0 && ((self.rng.next_u64() >> 11) as f64) < p * (1u64 << 53) as f64
    }

    fn cycle(&mut self, sim: &mut Sim) {
        let c = self.stats.borrow().cycles;
        let mut v = std::mem::take(&mut self.buf);
        v.fill(0);
        let calm = self.stats.borrow().calm;
        let down = !calm && self.faults.down_at(c);
        let (mut flips, mut drops) = (0, 0);
        for chan in 0..CHANNELS.len() {
            for wire in [Wire::Flit, Wire::Dllp] {
                let lost = match wire {
                    Wire::Flit => self.faults.drop,
                    Wire::Dllp => self.faults.drop + self.faults.lost_credits,
                };
                if calm {
                    continue;
                }
                if down || self.hit(lost) {
                    self.layout.put(&mut v, chan, wire, true, None);
                    drops += 1;
                } else if self.hit(self.faults.bit_flip) {
                    let span = match wire {
                        Wire::Flit => self.flit_bits,
                        Wire::Dllp => self.dllp_bits,
                    };
                    let b = self.rng.below(u64::from(span)) as u32;
                    self.layout.put(&mut v, chan, wire, false, Some(b));
                    flips += 1;
                }
            }
        }
        sim.set(self.layout.port, &v);
        self.buf = v;
        let mut st = self.stats.borrow_mut();
        st.cycles += 1;
        st.flips_injected += flips;
        st.drops_injected += drops;
        let mut all_up = true;
        let n = self.health.len();
        st.dies.resize(n, DieHealth::default());
        for (i, &h) in self.health.iter().enumerate() {
            let hv = Health::decode(h, sim.get_u64(h));
            st.dies[i].observe(&hv);
            st.crc_errors += u64::from(hv.crc_errors);
            st.replays += u64::from(hv.replays);
            all_up &= hv.up;
        }
        if all_up {
            st.down_since = None;
        } else {
            st.down_cycles += 1;
            st.down_since.get_or_insert(c);
        }
    }
}
