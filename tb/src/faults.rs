//! Fault injection on the die-to-die link's wires, and the link's health as the RTL reports it.
//!
//! The link (`xdie_d2d_link`) takes an `xdie_d2d_pkg::link_fault_t` per cycle: per channel, in the
//! order a2b_req, b2a_req, a2b_rsp, b2a_rsp from the MSB, the flit wire then the DLLP wire, each
//! `{drop, flip, flip_bit}` from the MSB. Each die reports an `xdie_d2d_pkg::health_t`: from the
//! MSB `up`, then two bits each of flit CRC errors, DLLP CRC errors and replays. Widths come from
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
    pub crc_errors: u32,
    pub replays: u32,
}

impl Health {
    pub fn decode(port: Port, v: u64) -> Health {
        let w = port.info().width;
        assert_eq!(w, 7, "{}: up and three 2-bit fields", port.info().name);
        Health {
            up: (v >> 6) & 1 != 0,
            crc_errors: ((v >> 2) & 0xf).count_ones(),
            replays: (v & 3).count_ones(),
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
        let down = self.faults.down_at(c);
        let (mut flips, mut drops) = (0, 0);
        for chan in 0..CHANNELS.len() {
            for wire in [Wire::Flit, Wire::Dllp] {
                let lost = match wire {
                    Wire::Flit => self.faults.drop,
                    Wire::Dllp => self.faults.drop + self.faults.lost_credits,
                };
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
        for &h in &self.health {
            let hv = Health::decode(h, sim.get_u64(h));
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
