//! AXI4-Lite master driving a DUT's `s_axil_*` slave port.
//!
//! Every cycle follows one protocol: set inputs, falling edge (combinational readies settle),
//! sample handshakes, rising edge. AW and W are presented independently after their own seeded
//! random delays, and BREADY/RREADY stall at random, so ordering freedom in the slave is
//! exercised; `Timing::FAST` turns all of that off for throughput runs.

use crate::rng::Rng;
use crate::sim::{Sim, SimError, Slot};
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
        // SAFETY: slots of the live `sim`.
        unsafe {
            p.awvalid.write(0);
            p.wvalid.write(0);
            p.arvalid.write(0);
            p.bready.write(0);
            p.rready.write(0);
        }
        Ok(AxilMaster {
            p,
            rng: Rng::new(seed),
            timing,
            timeout: 1000,
            cycles: 0,
        })
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
    pub fn write(&mut self, sim: &mut Sim, addr: u64, data: u32) -> Result<Resp, AxilError> {
        self.write_strb(sim, addr, data, 0xF)
    }

    pub fn write_strb(
        &mut self,
        sim: &mut Sim,
        addr: u64,
        data: u32,
        strb: u8,
    ) -> Result<Resp, AxilError> {
        self.write_observed(sim, addr, data, strb, |_| {})
    }

    /// A write that calls `observe` once per cycle at the sampling point (after the falling
    /// edge), so a test can watch hardware outputs while the transaction is in flight.
    pub fn write_observed<F: FnMut(&Sim)>(
        &mut self,
        sim: &mut Sim,
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

    pub fn read(&mut self, sim: &mut Sim, addr: u64) -> Result<(u32, Resp), AxilError> {
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
