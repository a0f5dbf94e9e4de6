//! One Verilated model: ports by id, clock edges, reset and FST tracing.

use crate::duts::DutKind;
use crate::ffi::bridge;
use std::fmt;
use std::path::{Path, PathBuf};

/// A row of a generated port table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PortInfo {
    pub name: &'static str,
    pub input: bool,
    pub width: u32,
    /// Storage bytes of a scalar port (1, 2, 4 or 8); 0 for ports wider than 64 bits.
    pub bytes: u32,
    pub words: u32,
}

/// A port of one DUT kind (`id` indexes its port table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Port {
    pub dut: DutKind,
    pub id: u32,
}

impl Port {
    pub fn info(self) -> &'static PortInfo {
        &self.dut.ports()[self.id as usize]
    }
}

#[derive(Debug)]
pub enum SimError {
    /// The C++ side refused (unknown kind, missing clock, unopenable trace file).
    Model(String),
    /// The DUT has no port of this name.
    NoPort { dut: &'static str, port: String },
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::Model(m) => write!(f, "model: {m}"),
            SimError::NoPort { dut, port } => write!(f, "{dut} has no port `{port}`"),
        }
    }
}

impl std::error::Error for SimError {}

/// Where a port lives inside the model; valid while the owning [`Sim`] lives.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Slot {
    ptr: *mut u8,
    bytes: u32,
    words: u32,
    mask: u64,
    /// A field of the storage (a slice of a vector port, see [`Sim::slot_bits`]): its lowest
    /// bit; `mask` is then the field's mask. 0 with `whole` for a whole port.
    shift: u32,
    whole: bool,
}

impl Slot {
    /// # Safety
    /// The owning model must be alive and `self` must be a scalar (≤ 64-bit) port or a field.
    #[inline(always)]
    pub(crate) unsafe fn write(self, v: u64) {
        let v = if self.whole {
            v & self.mask
        } else {
            // Read-modify-write: the other bits of the storage belong to other fields.
            (self.raw() & !(self.mask << self.shift)) | ((v & self.mask) << self.shift)
        };
        match self.bytes {
            1 => *self.ptr = v as u8,
            2 => *(self.ptr as *mut u16) = v as u16,
            4 => *(self.ptr as *mut u32) = v as u32,
            _ => *(self.ptr as *mut u64) = v,
        }
    }

    #[inline(always)]
    unsafe fn raw(self) -> u64 {
        match self.bytes {
            1 => u64::from(*self.ptr),
            2 => u64::from(*(self.ptr as *const u16)),
            4 => u64::from(*(self.ptr as *const u32)),
            _ => *(self.ptr as *const u64),
        }
    }

    /// # Safety
    /// As for [`Slot::write`].
    #[inline(always)]
    pub(crate) unsafe fn read(self) -> u64 {
        if self.whole {
            self.raw()
        } else {
            (self.raw() >> self.shift) & self.mask
        }
    }
}

pub struct Sim {
    dut: cxx::UniquePtr<bridge::Dut>,
    kind: DutKind,
    slots: Vec<Slot>,
    clk_rst: Option<(u32, u32)>,
    trace: Option<PathBuf>,
    /// Called before every clock cycle (see [`Sim::set_cycle_hook`]).
    hook: Option<CycleHook>,
}

/// Drives inputs before each clock cycle, e.g. a fault injector.
pub type CycleHook = Box<dyn FnMut(&mut Sim)>;

// SAFETY: a Sim owns its model and the model's own VerilatedContext; nothing in it is shared
// with another Sim (the DPI user-data table is keyed by the model's own scopes and locked by
// Verilator). Moving it to another thread between calls is therefore sound, as long as one
// thread uses it at a time, which `&mut` guarantees. The composed system (crate::system) runs
// its dies' models on a thread pool; it installs no cycle hook on them (a hook need not be Send).
unsafe impl Send for Sim {}

/// What a clocked driver (an AXI4-Lite master, a firmware loop) needs of the thing it clocks:
/// one model ([`Sim`]) or a system of models clocked together (`crate::system::System`). The
/// driver sets inputs, calls `clk_low`, samples outputs, calls `clk_high`.
pub trait Clocked {
    fn clk_low(&mut self);
    fn clk_high(&mut self);
}

impl Clocked for Sim {
    #[inline]
    fn clk_low(&mut self) {
        Sim::clk_low(self)
    }
    #[inline]
    fn clk_high(&mut self) {
        Sim::clk_high(self)
    }
}

impl Sim {
    /// A fresh model at time 0 with all state zero, untraced.
    pub fn new(kind: DutKind) -> Result<Sim, SimError> {
        Self::build(kind, false)
    }

    fn build(kind: DutKind, trace_ever_on: bool) -> Result<Sim, SimError> {
        let dut = bridge::new_dut(kind.id(), trace_ever_on)
            .map_err(|e| SimError::Model(e.what().to_string()))?;
        let mut slots = Vec::with_capacity(kind.ports().len());
        for (i, p) in kind.ports().iter().enumerate() {
            let addr = dut
                .port_addr(i as u32)
                .map_err(|e| SimError::Model(e.what().to_string()))?;
            slots.push(Slot {
                ptr: addr as *mut u8,
                bytes: p.bytes,
                words: p.words,
                mask: if p.width >= 64 {
                    u64::MAX
                } else {
                    (1u64 << p.width) - 1
                },
                shift: 0,
                whole: true,
            });
        }
        let mut sim = Sim {
            dut,
            kind,
            slots,
            clk_rst: None,
            trace: None,
            hook: None,
        };
        if let (Some(c), Some(r)) = (sim.port("clk_i"), sim.port("rst_ni")) {
            sim.clk_rst = Some((c.id, r.id));
        }
        Ok(sim)
    }

    /// A model that writes an FST trace of every edge to `path`.
    pub fn traced(kind: DutKind, path: &Path) -> Result<Sim, SimError> {
        let mut sim = Self::build(kind, true)?;
        sim.start_trace(path)?;
        Ok(sim)
    }

    pub fn kind(&self) -> DutKind {
        self.kind
    }

    /// Starts tracing from now on (run-time switch); a second call keeps the first file.
    pub fn start_trace(&mut self, path: &Path) -> Result<(), SimError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| SimError::Model(e.to_string()))?;
        }
        self.dut
            .pin_mut()
            .trace_open(&path.to_string_lossy())
            .map_err(|e| SimError::Model(e.what().to_string()))?;
        self.trace.get_or_insert_with(|| path.to_path_buf());
        Ok(())
    }

    /// Flushes and closes the trace, returning its path.
    pub fn stop_trace(&mut self) -> Option<PathBuf> {
        self.dut.pin_mut().trace_close();
        self.trace.take()
    }

    pub fn trace_path(&self) -> Option<&Path> {
        self.trace.as_deref()
    }

    /// The port called `name`.
    pub fn port(&self, name: &str) -> Option<Port> {
        self.kind
            .ports()
            .iter()
            .position(|p| p.name == name)
            .map(|i| Port {
                dut: self.kind,
                id: i as u32,
            })
    }

    pub fn require_port(&self, name: &str) -> Result<Port, SimError> {
        self.port(name).ok_or_else(|| SimError::NoPort {
            dut: self.kind.name(),
            port: name.to_string(),
        })
    }

    pub(crate) fn slot(&self, port: Port) -> Slot {
        assert_eq!(port.dut, self.kind, "port of another DUT");
        self.slots[port.id as usize]
    }

    /// Bits `[lsb, lsb + width)` of a port as a slot of their own: one die's slice of the
    /// vectors a top exposes (`tx_stall_i[d]`). The field must lie inside one
    /// 32-bit word of a wide port (or inside a scalar port).
    pub(crate) fn slot_bits(&self, port: Port, lsb: u32, width: u32) -> Slot {
        let s = self.slot(port);
        let info = port.info();
        assert!(
            width >= 1 && lsb + width <= info.width,
            "bits [{lsb}, {}) of {} ({} bits)",
            lsb + width,
            info.name,
            info.width
        );
        let (ptr, bytes, shift) = if s.bytes == 0 {
            assert!(
                lsb % 32 + width <= 32,
                "bits [{lsb}, {}) of {} cross a 32-bit word",
                lsb + width,
                info.name
            );
            // SAFETY: a VlWide port is `words` consecutive u32s; lsb / 32 < words.
            let ptr = unsafe { (s.ptr as *mut u32).add((lsb / 32) as usize) as *mut u8 };
            (ptr, 4, lsb % 32)
        } else {
            (s.ptr, s.bytes, lsb)
        };
        let mask = if width >= 64 {
            u64::MAX
        } else {
            (1u64 << width) - 1
        };
        Slot {
            ptr,
            bytes,
            words: 1,
            mask,
            shift,
            whole: shift == 0 && width == info.width,
        }
    }

    /// The 32-bit words of a port in place (least significant first), as a pointer and a
    /// count: the link wires of the composed system copy bit fields in and out of them.
    pub(crate) fn words_ptr(&self, port: Port) -> (*mut u32, usize) {
        let s = self.slot(port);
        assert!(
            s.bytes == 0 || s.bytes == 4 || s.bytes == 8,
            "{} is not stored in 32-bit words",
            port.info().name
        );
        let words = if s.bytes == 0 {
            s.words as usize
        } else {
            s.bytes as usize / 4
        };
        (s.ptr as *mut u32, words)
    }

    /// Bits `[lsb, lsb + width)` (at most 64) of a port.
    pub fn get_bits(&self, port: Port, lsb: u32, width: u32) -> u64 {
        // SAFETY: a field of the live model.
        unsafe { self.slot_bits(port, lsb, width).read() }
    }

    /// Sets bits `[lsb, lsb + width)` (at most 64) of an input, the others unchanged.
    pub fn set_bits(&mut self, port: Port, lsb: u32, width: u32, v: u64) {
        assert!(port.info().input, "{} is an output", port.info().name);
        // SAFETY: a field of the live model.
        unsafe { self.slot_bits(port, lsb, width).write(v) }
    }

    /// Sets an input from little-endian 32-bit words; bits beyond the port width are dropped.
    pub fn set(&mut self, port: Port, words: &[u32]) {
        let s = self.slot(port);
        assert!(port.info().input, "{} is an output", port.info().name);
        if s.bytes == 0 {
            let width = port.info().width;
            for i in 0..s.words as usize {
                let mut w = words.get(i).copied().unwrap_or(0);
                let top = width - 32 * i as u32;
                if top < 32 {
                    w &= (1u32 << top) - 1;
                }
                // SAFETY: a VlWide port is `words` consecutive u32s inside the live model.
                unsafe { *(s.ptr as *mut u32).add(i) = w };
            }
        } else {
            let v = u64::from(words.first().copied().unwrap_or(0))
                | (u64::from(words.get(1).copied().unwrap_or(0)) << 32);
            // SAFETY: scalar slot of the live model.
            unsafe { s.write(v) };
        }
    }

    /// The port's value as little-endian 32-bit words.
    pub fn get(&self, port: Port) -> Vec<u32> {
        let s = self.slot(port);
        if s.bytes == 0 {
            // SAFETY: a VlWide port is `words` consecutive u32s inside the live model.
            (0..s.words as usize)
                .map(|i| unsafe { *(s.ptr as *const u32).add(i) })
                .collect()
        } else {
            // SAFETY: scalar slot of the live model.
            let v = unsafe { s.read() };
            (0..s.words).map(|i| (v >> (32 * i)) as u32).collect()
        }
    }

    /// Sets an input of at most 64 bits.
    #[inline]
    pub fn set_u64(&mut self, port: Port, v: u64) {
        let s = self.slot(port);
        if s.bytes == 0 {
            self.set(port, &[v as u32, (v >> 32) as u32]);
        } else {
            // SAFETY: scalar slot of the live model.
            unsafe { s.write(v) }
        }
    }

    /// The low 64 bits of a port.
    #[inline]
    pub fn get_u64(&self, port: Port) -> u64 {
        let s = self.slot(port);
        if s.bytes == 0 {
            let w = self.get(port);
            u64::from(w[0]) | (u64::from(w.get(1).copied().unwrap_or(0)) << 32)
        } else {
            // SAFETY: scalar slot of the live model.
            unsafe { s.read() }
        }
    }

    pub fn set_by_name(&mut self, name: &str, v: u64) -> Result<(), SimError> {
        let p = self.require_port(name)?;
        self.set_u64(p, v);
        Ok(())
    }

    pub fn get_by_name(&self, name: &str) -> Result<u64, SimError> {
        Ok(self.get_u64(self.require_port(name)?))
    }

    /// From the next falling edge on, draws every bit of input `port` (at most 64 bits) anew
    /// in each cycle: 1 with probability `percent` %, from a generator seeded with `seed` (the
    /// draws run in the model's clock loop, so every way of clocking it sees them). 0 stops
    /// the draws and clears the port.
    pub fn randomize(&mut self, port: Port, percent: u32, seed: u64) -> Result<(), SimError> {
        assert_eq!(port.dut, self.kind, "port of another DUT");
        self.dut
            .pin_mut()
            .randomize(port.id, percent, seed)
            .map_err(|e| SimError::Model(e.what().to_string()))
    }

    /// Settles combinational logic after input changes.
    pub fn eval(&mut self) {
        self.dut.pin_mut().eval();
    }

    /// Falling edge: clock low, evaluate (inputs set since the last rising edge take effect). The
    /// cycle hook runs first.
    #[inline]
    pub fn clk_low(&mut self) {
        // A cycle starts here: the hook drives this cycle's inputs first.
        if self.hook.is_some() {
            self.run_hook();
        }
        self.dut.pin_mut().clk_low();
    }

    /// Rising edge: clock high, evaluate; registers update. Panics if the model stopped (see
    /// [`Sim::model_stopped`]).
    #[inline]
    pub fn clk_high(&mut self) {
        self.dut.pin_mut().clk_high();
        if self.dut.got_error() {
            self.model_stopped();
        }
    }

    /// A failed assertion (the AXI4-Lite protocol checks of rtl/assert/, any `unique case` with
    /// no match under `--assert`) or a `$stop`/`$fatal` of the RTL: the model prints its message
    /// and carries on (its context does not abort the process), so the run fails here, at the
    /// clock edge that broke the rule.
    #[cold]
    #[inline(never)]
    fn model_stopped(&self) -> ! {
        panic!(
            "the {} model stopped at simulation time {} (half cycles): an RTL assertion failed \
             (an AXI4-Lite protocol check of rtl/assert/) or the RTL called $stop or $fatal; \
             Verilator's message (`%Error: ...: Assertion failed in <instance>: <rule>`) is on \
             standard output above",
            self.kind.name(),
            self.time()
        );
    }

    /// One clock cycle: clk 0, eval, clk 1, eval (each edge dumped when tracing); the cycle hook
    /// runs first.
    #[inline]
    pub fn tick(&mut self) {
        if self.hook.is_some() {
            self.run_hook();
        }
        self.dut.pin_mut().tick(1);
        if self.dut.got_error() {
            self.model_stopped();
        }
    }

    pub fn ticks(&mut self, n: u64) {
        if self.hook.is_none() {
            // The model's loop stops at the edge that stopped the model.
            self.dut.pin_mut().tick(n);
            if self.dut.got_error() {
                self.model_stopped();
            }
            return;
        }
        for _ in 0..n {
            self.tick();
        }
    }

    /// Installs (or with `None` removes) a function that runs before every clock cycle from now
    /// on, with the model; what it sets takes effect in that cycle.
    pub fn set_cycle_hook(&mut self, hook: Option<CycleHook>) {
        self.hook = hook;
    }

    fn run_hook(&mut self) {
        if let Some(mut h) = self.hook.take() {
            h(self);
            self.hook = Some(h);
        }
    }

    /// Holds `rst_ni` low for `cycles` clock cycles, then releases it.
    pub fn reset(&mut self, cycles: u64) {
        let (_, rst) = self.clk_rst.expect("DUT without clk_i/rst_ni");
        let rst = Port {
            dut: self.kind,
            id: rst,
        };
        self.set_u64(rst, 0);
        self.ticks(cycles.max(1));
        self.set_u64(rst, 1);
    }

    /// Simulation time in half cycles.
    pub fn time(&self) -> u64 {
        self.dut.time()
    }

    /// True once the model hit `$stop`, `$fatal` or `$finish`.
    pub fn got_error(&self) -> bool {
        self.dut.got_error()
    }

    /// The bytes of a public one-dimensional array of the model (an RTL memory marked
    /// `verilator public_flat_rw`), in place: entry i is bytes `[i * entry, (i + 1) * entry)`,
    /// least significant byte first. Reading or writing it between clock edges is a backdoor
    /// access; the borrow keeps the clock from running meanwhile.
    pub fn mem_bytes(&mut self, scope: &str, var: &str) -> Result<(&mut [u8], usize), SimError> {
        let v = self
            .dut
            .mem_view(scope, var)
            .map_err(|e| SimError::Model(e.what().to_string()))?;
        let len = v.entry_bytes as usize * v.entries as usize;
        // SAFETY: the array belongs to the model `self.dut` owns and lives as long as it; the
        // returned borrow of `self` rules out any other access (and any clock edge) meanwhile.
        // Verilator stores a vector in 32-bit words, least significant first, so on a
        // little-endian host its bytes are in order.
        let bytes = unsafe { std::slice::from_raw_parts_mut(v.addr as *mut u8, len) };
        Ok((bytes, v.entry_bytes as usize))
    }

    /// Gives the memory of a public array that is all zero (a fresh model's memory: the
    /// models start at zero) back to the operating system: it reads as zeros and takes memory
    /// again only where written. Returns the bytes given back.
    ///
    /// # Safety
    /// Every byte of the array must be zero (anything else would silently become zero).
    pub unsafe fn release_zeroed(&mut self, scope: &str, var: &str) -> Result<u64, SimError> {
        self.dut
            .pin_mut()
            .release_zeroed(scope, var)
            .map_err(|e| SimError::Model(e.what().to_string()))
    }

    /// Reports the simulation-hook records of RTL scope `scope` under `id` from now on (see
    /// [`take_landed`](Self::take_landed)); `payload_words` and `strobe_words` give the record
    /// layout of the scope's hook.
    pub fn watch(
        &mut self,
        scope: &str,
        id: u32,
        payload_words: u32,
        strobe_words: u32,
    ) -> Result<(), SimError> {
        self.dut
            .pin_mut()
            .watch(scope, id, payload_words, strobe_words)
            .map_err(|e| SimError::Model(e.what().to_string()))
    }

    /// The hook records since the last call, in the order they happened: each is the watch id,
    /// the time (two words, half cycles) and the payload.
    pub fn take_landed(&mut self) -> Vec<u32> {
        self.dut.pin_mut().take_landed()
    }
}

#[cfg(not(target_endian = "little"))]
compile_error!("the memory backdoor assumes a little-endian host");
