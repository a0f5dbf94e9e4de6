//! AXI4-Lite master driving a DUT's `s_axil_*` slave port.
//!
//! Every cycle follows one protocol: set inputs, falling edge (combinational readies settle),
//! sample handshakes, rising edge. AW and W are presented independently after their own seeded
//! random delays, and BREADY/RREADY stall at random, so ordering freedom in the slave is
//! exercised; `Timing::FAST` turns all of that off for throughput runs.

use crate::rng::Rng;
use crate::sim::{Clocked, Sim, SimError, Slot};
use std::fmt;

/// AXI response codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resp {
    Okay,
    ExOkay,
    SlvErr,
    DecErr,
}

impl Resp {
    pub fn from_bits(b: u64) -> Resp {
        match b & 3 {
            0 => Resp::Okay,
            1 => Resp::ExOkay,
            2 => Resp::SlvErr,
            _ => Resp::DecErr,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    /// Each of AW, W and AR waits 0..=this many cycles before VALID rises.
    pub max_valid_delay: u32,
    /// Percentage of cycles BREADY/RREADY are held low.
    pub ready_stall_pct: u32,
}

impl Timing {
    /// No delays, no stalls.
    pub const FAST: Timing = Timing {
        max_valid_delay: 0,
        ready_stall_pct: 0,
    };
    /// The default for tests: short random delays and frequent stalls.
    pub const RANDOM: Timing = Timing {
        max_valid_delay: 3,
        ready_stall_pct: 30,
    };

    /// A handshake timing drawn at random (up to 3 cycles of valid delay, up to 59 % ready
    /// stalls): what a soak run gives each run's host ports.
    pub fn drawn(rng: &mut crate::Rng) -> Timing {
        Timing {
            max_valid_delay: rng.below(4) as u32,
            ready_stall_pct: rng.below(60) as u32,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AxilError {
    /// No response within the cycle budget.
    Timeout { write: bool, addr: u64, cycles: u32 },
}

impl fmt::Display for AxilError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AxilError::Timeout {
                write,
                addr,
                cycles,
            } => write!(
                f,
                "AXI4-Lite {} of {addr:#x}: no response after {cycles} cycles",
                if *write { "write" } else { "read" }
            ),
        }
    }
}

impl std::error::Error for AxilError {}

struct Ports {
    awvalid: Slot,
    awready: Slot,
    awaddr: Slot,
    wvalid: Slot,
    wready: Slot,
    wdata: Slot,
    wstrb: Slot,
    bvalid: Slot,
    bready: Slot,
    bresp: Slot,
    arvalid: Slot,
    arready: Slot,
    araddr: Slot,
    rvalid: Slot,
    rready: Slot,
    rdata: Slot,
    rresp: Slot,
}

pub struct AxilMaster {
    p: Ports,
    rng: Rng,
    timing: Timing,
    /// Cycle budget per transaction before `Timeout`.
    pub timeout: u32,
    /// Cycles spent in transactions so far.
    pub cycles: u64,
}

impl AxilMaster {
    /// A master on `sim`'s `s_axil_*` ports. It must only be used with that `sim`.
    pub fn new(sim: &mut Sim, seed: u64, timing: Timing) -> Result<AxilMaster, SimError> {
        Self::with_prefix(sim, "s_axil_", seed, timing)
    }

    /// A master on the AXI4-Lite slave whose ports are named `<prefix>awvalid_i` and so on
    /// (e.g. `h0_` for die 0's host port on the package top).
    pub fn with_prefix(
        sim: &mut Sim,
        prefix: &str,
        seed: u64,
        timing: Timing,
    ) -> Result<AxilMaster, SimError> {
        let get = |n: &str| -> Result<Slot, SimError> {
            let port = sim.require_port(&format!("{prefix}{n}"))?;
            Ok(sim.slot(port))
        };
        let p = Ports {
            awvalid: get("awvalid_i")?,
            awready: get("awready_o")?,
            awaddr: get("awaddr_i")?,
            wvalid: get("wvalid_i")?,
            wready: get("wready_o")?,
            wdata: get("wdata_i")?,
            wstrb: get("wstrb_i")?,
            bvalid: get("bvalid_o")?,
            bready: get("bready_i")?,
            bresp: get("bresp_o")?,
            arvalid: get("arvalid_i")?,
            arready: get("arready_o")?,
            araddr: get("araddr_i")?,
            rvalid: get("rvalid_o")?,
            rready: get("rready_i")?,
            rdata: get("rdata_o")?,
            rresp: get("rresp_o")?,
        };
        Ok(Self::from_ports(p, seed, timing))
    }

    fn from_ports(p: Ports, seed: u64, timing: Timing) -> AxilMaster {
        // SAFETY: slots of the live `sim`.
        unsafe {
            p.awvalid.write(0);
            p.wvalid.write(0);
            p.arvalid.write(0);
            p.bready.write(0);
            p.rready.write(0);
        }
        AxilMaster {
            p,
            rng: Rng::new(seed),
            timing,
            timeout: 1000,
            cycles: 0,
        }
    }

    pub fn set_timing(&mut self, timing: Timing) {
        self.timing = timing;
    }

    fn delay(&mut self) -> u32 {
        if self.timing.max_valid_delay == 0 || self.rng.chance(50) {
            0
        } else {
            self.rng.below(u64::from(self.timing.max_valid_delay) + 1) as u32
        }
    }

    fn ready(&mut self) -> u64 {
        u64::from(self.timing.ready_stall_pct == 0 || !self.rng.chance(self.timing.ready_stall_pct))
    }

    /// Full-word write.
    pub fn write<C: Clocked>(
        &mut self,
        sim: &mut C,
        addr: u64,
        data: u32,
    ) -> Result<Resp, AxilError> {
        self.write_strb(sim, addr, data, 0xF)
    }

    pub fn write_strb<C: Clocked>(
        &mut self,
        sim: &mut C,
        addr: u64,
        data: u32,
        strb: u8,
    ) -> Result<Resp, AxilError> {
        self.write_observed(sim, addr, data, strb, |_| {})
    }

    /// A write that calls `observe` once per cycle at the sampling point (after the falling
    /// edge), so a test can watch hardware outputs while the transaction is in flight.
    pub fn write_observed<C: Clocked, F: FnMut(&C)>(
        &mut self,
        sim: &mut C,
        addr: u64,
        data: u32,
        strb: u8,
        mut observe: F,
    ) -> Result<Resp, AxilError> {
        let (aw_at, w_at) = (self.delay(), self.delay());
        // SAFETY (all port accesses below): slots of the live `sim` this master was built on.
        unsafe {
            self.p.awaddr.write(addr);
            self.p.wdata.write(u64::from(data));
            self.p.wstrb.write(u64::from(strb));
        }
        let (mut aw, mut w) = (false, false);
        for cyc in 0..self.timeout {
            let bready = self.ready();
            let p = &self.p;
            let resp;
            let b_hs;
            unsafe {
                let awv = !aw && cyc >= aw_at;
                let wv = !w && cyc >= w_at;
                p.awvalid.write(u64::from(awv));
                p.wvalid.write(u64::from(wv));
                p.bready.write(bready);
                sim.clk_low();
                observe(sim);
                aw |= awv && p.awready.read() != 0;
                w |= wv && p.wready.read() != 0;
                b_hs = bready != 0 && p.bvalid.read() != 0;
                resp = p.bresp.read();
                sim.clk_high();
            }
            if b_hs {
                self.cycles += u64::from(cyc) + 1;
                unsafe {
                    p.awvalid.write(0);
                    p.wvalid.write(0);
                    p.bready.write(0);
                }
                return Ok(Resp::from_bits(resp));
            }
        }
        unsafe {
            self.p.awvalid.write(0);
            self.p.wvalid.write(0);
        }
        Err(AxilError::Timeout {
            write: true,
            addr,
            cycles: self.timeout,
        })
    }

    pub fn read<C: Clocked>(&mut self, sim: &mut C, addr: u64) -> Result<(u32, Resp), AxilError> {
        let ar_at = self.delay();
        // SAFETY (all port accesses below): slots of the live `sim` this master was built on.
        unsafe { self.p.araddr.write(addr) };
        let mut ar = false;
        for cyc in 0..self.timeout {
            let rready = self.ready();
            let p = &self.p;
            let (r_hs, data, resp);
            unsafe {
                let arv = !ar && cyc >= ar_at;
                p.arvalid.write(u64::from(arv));
                p.rready.write(rready);
                sim.clk_low();
                ar |= arv && p.arready.read() != 0;
                r_hs = rready != 0 && p.rvalid.read() != 0;
                data = p.rdata.read() as u32;
                resp = p.rresp.read();
                sim.clk_high();
            }
            if r_hs {
                self.cycles += u64::from(cyc) + 1;
                unsafe {
                    p.arvalid.write(0);
                    p.rready.write(0);
                }
                return Ok((data, Resp::from_bits(resp)));
            }
        }
        unsafe { self.p.arvalid.write(0) };
        Err(AxilError::Timeout {
            write: false,
            addr,
            cycles: self.timeout,
        })
    }
}

/// One AXI4-Lite transaction for [`AxilMaster::begin`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AxilOp {
    Read { addr: u64 },
    Write { addr: u64, data: u32, strb: u8 },
}

/// A transaction in flight on a stepped master.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Active {
    op: AxilOp,
    cyc: u32,
    /// Cycles before AW (or AR) and W rise.
    addr_at: u32,
    data_at: u32,
    addr_done: bool,
    data_done: bool,
    ready: u64,
    addr_valid: bool,
    data_valid: bool,
}

impl Active {
    pub(crate) fn op(&self) -> AxilOp {
        self.op
    }
}

impl AxilMaster {
    /// Starts a transaction that [`drive`](Self::drive) and [`sample`](Self::sample) carry out
    /// one clock cycle at a time, so several masters of one model share its clock: per cycle,
    /// `drive` every master, falling edge, `sample` every master, rising edge.
    pub(crate) fn begin(&mut self, op: AxilOp) -> Active {
        let (addr_at, data_at) = (self.delay(), self.delay());
        // SAFETY: slots of the live `sim` this master was built on.
        unsafe {
            match op {
                AxilOp::Read { addr } => self.p.araddr.write(addr),
                AxilOp::Write { addr, data, strb } => {
                    self.p.awaddr.write(addr);
                    self.p.wdata.write(u64::from(data));
                    self.p.wstrb.write(u64::from(strb));
                }
            }
        }
        Active {
            op,
            cyc: 0,
            addr_at,
            data_at,
            addr_done: false,
            data_done: matches!(op, AxilOp::Read { .. }),
            ready: 0,
            addr_valid: false,
            data_valid: false,
        }
    }

    /// Sets this cycle's VALID and READY inputs (before the falling edge). With nothing in
    /// flight every VALID and READY is low.
    pub(crate) fn drive(&mut self, a: Option<&mut Active>) {
        let p = &self.p;
        let Some(a) = a else {
            // SAFETY: slots of the live `sim`.
            unsafe {
                p.awvalid.write(0);
                p.wvalid.write(0);
                p.arvalid.write(0);
                p.bready.write(0);
                p.rready.write(0);
            }
            return;
        };
        let ready = self.ready();
        let p = &self.p;
        a.ready = ready;
        a.addr_valid = !a.addr_done && a.cyc >= a.addr_at;
        a.data_valid = !a.data_done && a.cyc >= a.data_at;
        // SAFETY: slots of the live `sim`.
        unsafe {
            match a.op {
                AxilOp::Read { .. } => {
                    p.arvalid.write(u64::from(a.addr_valid));
                    p.rready.write(ready);
                }
                AxilOp::Write { .. } => {
                    p.awvalid.write(u64::from(a.addr_valid));
                    p.wvalid.write(u64::from(a.data_valid));
                    p.bready.write(ready);
                }
            }
        }
    }

    /// Samples the handshakes after the falling edge; the response once it was accepted this
    /// cycle (read data, or 0 for a write).
    pub(crate) fn sample(&mut self, a: &mut Active) -> Result<Option<(u32, Resp)>, AxilError> {
        let p = &self.p;
        // SAFETY: slots of the live `sim`.
        let done = unsafe {
            match a.op {
                AxilOp::Read { .. } => {
                    a.addr_done |= a.addr_valid && p.arready.read() != 0;
                    (a.ready != 0 && p.rvalid.read() != 0)
                        .then(|| (p.rdata.read() as u32, Resp::from_bits(p.rresp.read())))
                }
                AxilOp::Write { .. } => {
                    a.addr_done |= a.addr_valid && p.awready.read() != 0;
                    a.data_done |= a.data_valid && p.wready.read() != 0;
                    (a.ready != 0 && p.bvalid.read() != 0)
                        .then(|| (0, Resp::from_bits(p.bresp.read())))
                }
            }
        };
        a.cyc += 1;
        if done.is_some() {
            self.cycles += u64::from(a.cyc);
        } else if a.cyc >= self.timeout {
            let (write, addr) = match a.op {
                AxilOp::Read { addr } => (false, addr),
                AxilOp::Write { addr, .. } => (true, addr),
            };
            return Err(AxilError::Timeout {
                write,
                addr,
                cycles: self.timeout,
            });
        }
        Ok(done)
    }
}
