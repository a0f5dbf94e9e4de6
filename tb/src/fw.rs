//! The reference firmware (fw/, C, compiled into this crate by `build.rs`) running every Q7
//! context of a scenario against the package top or a composed system.
//!
//! Each context (a core's TX or RX lane) runs its program (rdma_desc_gen, waits,
//! rdma_desc_start, as 64-byte ExtendedInst words) on its own thread. The firmware's HAL calls
//! are rendezvous with the cycle loop here: a `read32`/`write32` becomes one AXI4-Lite
//! transaction on the host port of the context's die, a `wait` lets that many cycles pass. Only
//! one firmware thread runs at a time (the loop resumes one and waits until it calls the HAL
//! again or ends), in cycle order, so runs are deterministic and the firmware's shared
//! bookkeeping needs no lock; in simulated time the contexts run concurrently. Contexts of one die
//! take turns on its port (round robin), one transaction each. On the package top every port
//! moves in the same clock cycles (`lockstep`); on a composed system each die runs the
//! system's windows on its own with its contexts, stopping where one must be resumed
//! (`windowed`).
//!
//! Firmware time: computing takes no cycles; each MMIO access costs the cycles of its
//! AXI4-Lite transaction (address, data and response handshakes with the port's random valid
//! delays and ready stalls), a poll back-off `wait` costs its cycles.

use crate::axil::{Active, AxilOp, Resp};
use crate::package::Package;
use crate::regmodel::views;
use std::ffi::c_void;
use std::sync::mpsc::{channel, Receiver, RecvError, Sender, TryRecvError};
use std::sync::Arc;
use xdie_model::topology::{Core, Lane};
use xdie_model::DieId;

/// The firmware's entry points, one table per address view it was compiled for (tb/build.rs
/// compiles fw/ for the neighbor view under its own names and for the chip-id view with every
/// public function prefixed `chip_id_`).
macro_rules! fw_api {
    ($($name:ident($($arg:ident: $ty:ty),*) $(-> $ret:ty)?;)*) => {
        /// One build of the firmware: its functions.
        pub(crate) struct Api {
            $(pub $name: unsafe extern "C" fn($($ty),*) $(-> $ret)?,)*
        }

        #[cfg(xdie_fw_built)]
        mod neighbor {
            #[allow(unused_imports)]
            use std::ffi::c_void;
            extern "C" {
                $(pub fn $name($($arg: $ty),*) $(-> $ret)?;)*
            }
        }

        #[cfg(xdie_fw_built)]
        mod chip_id {
            #[allow(unused_imports)]
            use std::ffi::c_void;
            paste_chip_id! { $($name($($arg: $ty),*) $(-> $ret)?;)* }
        }

        /// Without the firmware linked (`crate::FW_UNAVAILABLE`), nothing here runs: [`run`]
        /// and [`FwSystem::new`] refuse first.
        #[cfg(not(xdie_fw_built))]
        #[allow(clippy::missing_safety_doc, unused_variables)]
        mod absent {
            #[allow(unused_imports)]
            use std::ffi::c_void;
            $(pub unsafe extern "C" fn $name($($arg: $ty),*) $(-> $ret)? {
                unreachable!("the firmware is not linked: {:?}", crate::FW_UNAVAILABLE)
            })*
        }

        #[cfg(xdie_fw_built)]
        pub(crate) const NEIGHBOR: Api = Api { $($name: neighbor::$name,)* };
        #[cfg(xdie_fw_built)]
        pub(crate) const CHIP_ID: Api = Api { $($name: chip_id::$name,)* };
        #[cfg(not(xdie_fw_built))]
        pub(crate) const NEIGHBOR: Api = Api { $($name: absent::$name,)* };
        #[cfg(not(xdie_fw_built))]
        pub(crate) const CHIP_ID: Api = Api { $($name: absent::$name,)* };
    };
}

/// The chip-id build's functions, under their prefixed link names.
macro_rules! paste_chip_id {
    ($($name:ident($($arg:ident: $ty:ty),*) $(-> $ret:ty)?;)*) => {
        extern "C" {
            $(
                #[link_name = concat!("chip_id_", stringify!($name))]
                pub fn $name($($arg: $ty),*) $(-> $ret)?;
            )*
        }
    };
}

mod c {
    use std::ffi::c_void;
    fw_api! {
        xdie_fw_system_size(n_chips: u32) -> usize;
        xdie_fw_ctx_size() -> usize;
        xdie_fw_max_pending() -> u32;
        xdie_fw_system_init(
            sys: *mut c_void,
            ring_len: u32,
            core_die_bit: u32,
            chips: *const u32,
            n_chips: u32
        ) -> i32;
        xdie_fw_ctx_init(
            ctx: *mut c_void,
            sys: *mut c_void,
            plat: *mut c_void,
            chip: u32,
            core: u32,
            prid: u32,
            window: u32
        );
        xdie_fw_ctx_options(ctx: *mut c_void, wait_mode: u32, poll_cycles: u32, max_polls: u32);
        xdie_fw_ctx_detail(ctx: *const c_void, i: u32) -> u32;
        xdie_fw_rdma_desc_gen(ctx: *mut c_void, word: *const u8) -> i32;
        xdie_fw_rdma_desc_start(ctx: *mut c_void, word: *const u8) -> i32;
        xdie_fw_wait_ge_and_dec(ctx: *mut c_void, sem: u32, value: u32) -> i32;
        xdie_fw_sem_inc(ctx: *mut c_void, core: u32, sem: u32, value: u32) -> i32;
        xdie_fw_ring_base(sys: *const c_void, engine: u32, side: u32, queue: u32) -> u64;
        xdie_fw_const_one_addr(sys: *const c_void) -> u64;
    }

    /// The firmware build of an address view.
    pub(crate) fn api(view: xdie_model::AddrView) -> &'static Api {
        match view {
            xdie_model::AddrView::Neighbor => &NEIGHBOR,
            xdie_model::AddrView::ChipId => &CHIP_ID,
        }
    }
}

/// `enum xdie_fw_status`, in order (fw/include/xdie_fw.h).
const STATUS: &[&str] = &[
    "ok",
    "not this op (sub-opcode)",
    "role is neither RX (0) nor TX (1)",
    "role differs from PRID parity",
    "geometry out of range",
    "partitions do not split evenly over the engines",
    "peer not routable in this address view",
    "ring full",
    "start without a pending gen (or too many pending gens)",
    "start differs from its gen",
    "DescriptorStream count mismatch",
    "wait budget exceeded",
    "option not supported by this firmware",
    "the sequencer slot refused the command",
    "chip id not in the firmware's system",
];

/// How a context waits on its EVT_SEM (`enum xdie_fw_wait_mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitMode {
    /// Poll READ, then write DEC; signals are INC-window stores.
    Poll = 0,
    /// The sequencer command slots (block sem_seq): the context's slot on the semaphore's die
    /// takes (semaphore, subop, value); the firmware polls the slot's STATUS.
    Sequencer = 1,
}

/// One firmware call.
#[derive(Debug, Clone)]
pub enum Op {
    /// rdma_desc_gen with this 64-byte word.
    Gen(Vec<u8>),
    /// rdma_desc_start with this 64-byte word.
    Start(Vec<u8>),
    /// wait_ge_and_dec on the context's own EVT_SEM.
    WaitGeDec { sem: u32, value: u32 },
    /// Add `value` to semaphore `sem` of the die of core `core` (of the same package).
    SemInc { core: u32, sem: u32, value: u32 },
}

/// What one context runs, in order.
#[derive(Debug, Clone)]
pub struct Program {
    pub core: Core,
    pub lane: Lane,
    pub ops: Vec<Op>,
    pub wait_mode: WaitMode,
}

/// How many gens a context of the firmware build for `view` may hold before their starts.
pub fn max_pending(view: xdie_model::AddrView) -> usize {
    if crate::FW_UNAVAILABLE.is_some() {
        return 1;
    }
    // SAFETY: plain C function without arguments.
    unsafe { (c::api(view).xdie_fw_max_pending)() as usize }
}

/// Cycles a polling wait lets pass between two reads.
pub const POLL_CYCLES: u32 = 64;

/// Zeroed, 8-byte aligned memory the C side uses as one of its structures.
struct CMem {
    ptr: *mut u64,
    words: usize,
}

impl CMem {
    fn new(bytes: usize) -> CMem {
        let words = bytes.div_ceil(8).max(1);
        let ptr = Box::into_raw(vec![0u64; words].into_boxed_slice()) as *mut u64;
        CMem { ptr, words }
    }
    fn ptr(&self) -> *mut c_void {
        self.ptr as *mut c_void
    }
}

impl Drop for CMem {
    fn drop(&mut self) {
        // SAFETY: `ptr` came from a boxed slice of `words` words and is freed once.
        unsafe {
            drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(
                self.ptr, self.words,
            )))
        };
    }
}

// SAFETY: the memory is owned; the firmware threads touch it one at a time (the rendezvous).
unsafe impl Send for CMem {}
unsafe impl Sync for CMem {}

/// The firmware's bookkeeping every context of the system shares (`struct xdie_fw_system`: the
/// positions of every ring of every die), for the firmware build of the system's address view.
/// Only the one firmware thread the loop resumed touches it at a time.
pub struct FwSystem(CMem, &'static c::Api);

impl FwSystem {
    /// The single package `chip` of a neighbor-view system (the package top).
    pub fn new(ring_len: u64, core_die_bit: u32, chip: u64) -> Result<FwSystem, String> {
        Self::with_view(
            xdie_model::AddrView::Neighbor,
            ring_len,
            core_die_bit,
            &[chip],
        )
    }

    /// The packages `chips` of a system routing in `view`.
    pub fn with_view(
        view: xdie_model::AddrView,
        ring_len: u64,
        core_die_bit: u32,
        chips: &[u64],
    ) -> Result<FwSystem, String> {
        let api = c::api(view);
        let ids: Vec<u32> = chips
            .iter()
            .map(|&c| u32::try_from(c).map_err(|_| format!("chip id {c:#x} is too large")))
            .collect::<Result<_, _>>()?;
        let ring_len =
            u32::try_from(ring_len).map_err(|_| format!("ring length {ring_len} is too large"))?;
        // SAFETY: plain C functions on memory of the size the C side asks for.
        unsafe {
            let m = CMem::new((api.xdie_fw_system_size)(ids.len() as u32));
            let rc = (api.xdie_fw_system_init)(
                m.ptr(),
                ring_len,
                core_die_bit,
                ids.as_ptr(),
                ids.len() as u32,
            );
            if rc != 0 {
                let why = STATUS.get(rc as usize).copied().unwrap_or("unknown status");
                return Err(format!("firmware system of chips {chips:#x?}: {why}"));
            }
            Ok(FwSystem(m, api))
        }
    }
    /// Where the firmware places the ring of (engine, side, queue): die-local.
    pub fn ring_base(&self, engine: u32, side: xdie_model::Side, queue: u32) -> u64 {
        let s = match side {
            xdie_model::Side::M2s => 0,
            xdie_model::Side::S2m => 1,
        };
        // SAFETY: initialized system memory.
        unsafe { (self.1.xdie_fw_ring_base)(self.0.ptr(), engine, s, queue) }
    }
    pub fn const_one_addr(&self) -> u64 {
        // SAFETY: initialized system memory.
        unsafe { (self.1.xdie_fw_const_one_addr)(self.0.ptr()) }
    }
}

enum Req {
    Read(u32),
    Write(u32, u32),
    Wait(u32),
    Done(Result<(), String>),
}

/// A firmware thread's end of the rendezvous; the C context's `plat` points at it.
struct Plat {
    req: Sender<Req>,
    resp: Receiver<u32>,
}

fn park_forever() -> ! {
    // The run was abandoned (an error elsewhere): this thread never runs firmware again.
    loop {
        std::thread::park();
    }
}

fn rendezvous(plat: *mut c_void, req: Req) -> u32 {
    // SAFETY: `plat` is the `Plat` the thread created and keeps alive while the firmware runs.
    let p = unsafe { &*(plat as *const Plat) };
    if p.req.send(req).is_err() {
        park_forever();
    }
    p.resp.recv().unwrap_or_else(|_| park_forever())
}

/// HAL read of the firmware (fw/include/xdie_fw.h).
#[no_mangle]
pub extern "C" fn xdie_hal_read32(plat: *mut c_void, xt: u32) -> u32 {
    rendezvous(plat, Req::Read(xt))
}

/// HAL write of the firmware.
#[no_mangle]
pub extern "C" fn xdie_hal_write32(plat: *mut c_void, xt: u32, value: u32) {
    rendezvous(plat, Req::Write(xt, value));
}

/// HAL wait of the firmware.
#[no_mangle]
pub extern "C" fn xdie_hal_wait(plat: *mut c_void, cycles: u32) {
    rendezvous(plat, Req::Wait(cycles));
}

fn describe(op: &Op, rc: i32, detail: [u32; 2]) -> String {
    let what = match op {
        Op::Gen(_) => "rdma_desc_gen".to_string(),
        Op::Start(_) => "rdma_desc_start".to_string(),
        Op::WaitGeDec { sem, value } => format!("wait_ge_and_dec(sem {sem}, {value})"),
        Op::SemInc { core, sem, value } => format!("sem_inc(core {core}, sem {sem}, {value})"),
    };
    let why = STATUS.get(rc as usize).copied().unwrap_or("unknown status");
    let extra = match STATUS.get(rc as usize) {
        Some(s) if s.starts_with("DescriptorStream") => {
            format!(": wrote {}, expected {}", detail[0], detail[1])
        }
        Some(s) if s.starts_with("partitions") => {
            format!(": {} partitions, {} engines", detail[0], detail[1])
        }
        _ => String::new(),
    };
    format!("{what} returned {rc} ({why}{extra})")
}

struct Thread {
    /// Place in program order (of every context of the system).
    index: usize,
    label: String,
    die: u32,
    core: Core,
    lane: Lane,
    go: Sender<u32>,
    req: Receiver<Req>,
    state: State,
}

enum State {
    /// Waiting for its turn on the host port.
    Bus(AxilOp),
    InFlight,
    Sleep(u64),
    Done,
}

/// A firmware store: where it landed and the cycles between its issue and its response.
#[derive(Debug, Clone)]
pub struct Store {
    pub core: Core,
    /// The context of the core that stored (its PRID parity).
    pub lane: Lane,
    pub die: DieId,
    pub local: u64,
    pub cycles: (u64, u64),
}

/// What the firmware did on the bus.
#[derive(Debug, Default)]
pub struct FwRun {
    pub stores: Vec<Store>,
    /// Cycle the first M2S launch doorbell store was issued.
    pub first_launch: Option<u64>,
    /// When that was, on the wall clock (the start of the transfer's simulation time).
    pub first_launch_at: Option<std::time::Instant>,
    /// MMIO accesses (reads and writes) of all contexts.
    pub accesses: u64,
    /// Cycles those accesses took, each from its issue to its response.
    pub bus_cycles: u64,
    /// Of those, the accesses through a remap window (to another die) and their cycles.
    pub window_accesses: u64,
    pub window_bus_cycles: u64,
}

/// The remap-window registers of one die as its firmware programmed them (to tell where a
/// store through a window lands).
#[derive(Debug, Clone, Copy, Default)]
struct WinShadow {
    ctrl: u32,
    xt: u32,
    u_mask: u32,
    l_mask: u32,
    soc_lo: u32,
    soc_hi: u32,
}

/// The remap windows of one die as its firmware programmed them, to tell where a store of its
/// host port lands.
struct Decoder {
    me: DieId,
    wins: Vec<WinShadow>,
}

impl Decoder {
    fn new(me: DieId) -> Decoder {
        Decoder {
            me,
            wins: vec![WinShadow::default(); views().remap.window.count as usize],
        }
    }

    /// Die and die-local address of a store of this die's host port at `xt`.
    fn target(&self, sys: &xdie_model::System, xt: u32) -> Option<(DieId, u64)> {
        let v = views();
        let base = v.params.host_direct_base;
        if u64::from(xt) >= base {
            return Some((self.me, u64::from(xt) - base));
        }
        let valid = v.remap.valid.reg_mask();
        let w = self
            .wins
            .iter()
            .find(|w| w.ctrl & valid != 0 && (xt & w.u_mask) == (w.xt & w.u_mask))?;
        let soc = ((u64::from(w.soc_hi) << 32 | u64::from(w.soc_lo)) & !u64::from(w.l_mask))
            | u64::from(xt & w.l_mask);
        sys.route(self.me, soc).ok()
    }

    /// Follows a store to one of this die's remap-window registers.
    fn snoop(&mut self, local: u64, value: u32) {
        let v = views();
        let r = &v.remap;
        for w in 0..r.window.count {
            let at = |reg| v.remap_reg(w, reg);
            let s = &mut self.wins[w as usize];
            for (reg, slot) in [
                (&r.ctrl, &mut s.ctrl),
                (&r.xt_addr, &mut s.xt),
                (&r.u_mask, &mut s.u_mask),
                (&r.l_mask, &mut s.l_mask),
                (&r.soc_lo, &mut s.soc_lo),
                (&r.soc_hi, &mut s.soc_hi),
            ] {
                if at(reg) == local {
                    *slot = value;
                }
            }
        }
    }
}

/// What one die's host port did for the firmware: its part of [`FwRun`].
struct DieLog {
    dec: Decoder,
    stores: Vec<Store>,
    first_launch: Option<u64>,
    first_launch_at: Option<std::time::Instant>,
    accesses: u64,
    bus_cycles: u64,
    window_accesses: u64,
    window_bus_cycles: u64,
}

impl DieLog {
    fn new(me: DieId) -> DieLog {
        DieLog {
            dec: Decoder::new(me),
            stores: Vec::new(),
            first_launch: None,
            first_launch_at: None,
            accesses: 0,
            bus_cycles: 0,
            window_accesses: 0,
            window_bus_cycles: 0,
        }
    }

    /// Notes an access the port begins in cycle `now` (the first launch doorbell's cycle).
    fn begin(&mut self, sys: &xdie_model::System, op: AxilOp, now: u64) {
        if let AxilOp::Write { addr, .. } = op {
            if self.first_launch.is_none() {
                if let Some((_, local)) = self.dec.target(sys, addr as u32) {
                    if is_launch(local) {
                        self.first_launch = Some(now);
                        self.first_launch_at = Some(std::time::Instant::now());
                    }
                }
            }
        }
    }

    /// Notes an access of `t` that began in `began` and was answered before cycle `end`.
    fn done(
        &mut self,
        sys: &xdie_model::System,
        t: &Thread,
        op: AxilOp,
        (began, end): (u64, u64),
        resp: Resp,
    ) -> Result<(), String> {
        self.accesses += 1;
        self.bus_cycles += end - began;
        let addr = match op {
            AxilOp::Read { addr } | AxilOp::Write { addr, .. } => addr,
        };
        if addr < views().params.host_direct_base {
            self.window_accesses += 1;
            self.window_bus_cycles += end - began;
        }
        if resp != Resp::Okay {
            return Err(format!("firmware of {}: {op:?} answered {resp:?}", t.label));
        }
        if let AxilOp::Write {
            addr, data: value, ..
        } = op
        {
            if let Some((to, local)) = self.dec.target(sys, addr as u32) {
                if to == self.dec.me {
                    self.dec.snoop(local, value);
                }
                self.stores.push(Store {
                    core: t.core,
                    lane: t.lane,
                    die: to,
                    local,
                    cycles: (began, end),
                });
            }
        }
        Ok(())
    }
}

/// The dies' logs as one: stores in the order they were answered (die order within a cycle).
fn merge(logs: Vec<DieLog>) -> FwRun {
    let mut out = FwRun::default();
    let mut stores = Vec::new();
    for (d, log) in logs.into_iter().enumerate() {
        if let Some(c) = log.first_launch {
            if out.first_launch.is_none_or(|f| c < f) {
                out.first_launch = Some(c);
                out.first_launch_at = log.first_launch_at;
            }
        }
        out.accesses += log.accesses;
        out.bus_cycles += log.bus_cycles;
        out.window_accesses += log.window_accesses;
        out.window_bus_cycles += log.window_bus_cycles;
        stores.extend(log.stores.into_iter().map(|s| (s.cycles.1, d, s)));
    }
    // Stable: one die's stores of one cycle keep their order.
    stores.sort_by_key(|(end, d, _)| (*end, *d));
    out.stores = stores.into_iter().map(|(_, _, s)| s).collect();
    out
}

/// Is die-local `local` an M2S launch doorbell (a queue's TDRTP_inc or the broadcast one)?
pub(crate) fn is_launch(local: u64) -> bool {
    let v = views();
    if local == v.apertures.sdma_bcast.base + v.bcast.m2s_inc.offset {
        return true;
    }
    let l = &v.m2s.layout;
    (0..v.engines()).any(|e| (0..l.queues()).any(|q| v.m2s.doorbell(e, q) == local))
}

/// Resumes thread `t` with `value` (the read data, or 0) in cycle `now` and takes its next
/// request.
fn resume(t: &mut Thread, value: u32, now: u64) -> Result<(), String> {
    let lost = |t: &Thread| format!("firmware of {} stopped unexpectedly", t.label);
    t.go.send(value).map_err(|_| lost(t))?;
    t.state = match next_request(t).map_err(|_| lost(t))? {
        Req::Read(xt) => State::Bus(AxilOp::Read {
            addr: u64::from(xt),
        }),
        Req::Write(xt, data) => State::Bus(AxilOp::Write {
            addr: u64::from(xt),
            data,
            strb: 0xF,
        }),
        Req::Wait(c) => State::Sleep(now + u64::from(c.max(1))),
        Req::Done(Ok(())) => State::Done,
        Req::Done(Err(m)) => return Err(format!("firmware of {}: {m}", t.label)),
    };
    Ok(())
}

/// Polls for a firmware request this many times, yielding the core between polls, before
/// sleeping until it comes.
const REQUEST_POLLS: u32 = 64;

/// The request the firmware thread `t` makes after it was resumed. It comes within microseconds
/// (the firmware computes, then calls the HAL again), so the loop first offers the core and
/// looks again a few times: a sleep and a wake-up of this thread per access cost more than the
/// firmware's step.
fn next_request(t: &Thread) -> Result<Req, RecvError> {
    for _ in 0..REQUEST_POLLS {
        match t.req.try_recv() {
            Ok(r) => return Ok(r),
            Err(TryRecvError::Empty) => std::thread::yield_now(),
            Err(TryRecvError::Disconnected) => return Err(RecvError),
        }
    }
    t.req.recv()
}

/// Runs `programs` (one per context, concurrently) to their ends on `pkg` (the package top or a
/// composed system); every context shares the bookkeeping `fw_sys`, which must list every
/// package a program runs on or names as its peer.
pub fn run(
    pkg: &mut Package,
    sys_model: &xdie_model::System,
    fw_sys: &Arc<FwSystem>,
    programs: Vec<Program>,
    budget: u64,
) -> Result<FwRun, String> {
    let threads = spawn(pkg, sys_model, fw_sys, programs)?;
    let logs: Vec<DieLog> = pkg.dies().iter().map(|&d| DieLog::new(d)).collect();
    let logs = if pkg.sim.system().is_some() {
        windowed(pkg, sys_model, threads, logs, budget)?
    } else {
        lockstep(pkg, sys_model, threads, logs, budget)?
    };
    for h in pkg.host.iter_mut() {
        h.drive(None);
    }
    Ok(merge(logs))
}

/// Starts one firmware thread per program, each waiting for its first go.
fn spawn(
    pkg: &Package,
    sys_model: &xdie_model::System,
    fw_sys: &Arc<FwSystem>,
    programs: Vec<Program>,
) -> Result<Vec<Thread>, String> {
    let windows = views().remap.window.count as usize;
    let n_dies = pkg.dies().len();
    let mut per_die = vec![0usize; n_dies];
    let mut threads = Vec::new();
    for prog in programs {
        let die_id = sys_model.die_of(prog.core);
        let die = pkg
            .index(die_id)
            .ok_or_else(|| format!("{} is not simulated", die_id))?;
        let sys = Arc::clone(fw_sys);
        let api = sys.1;
        // SAFETY: plain C function.
        let ctx_bytes = unsafe { (api.xdie_fw_ctx_size)() };
        let window = per_die[die as usize];
        per_die[die as usize] += 1;
        if window >= windows {
            return Err(format!(
                "die {die} runs more firmware contexts than it has remap windows ({windows})"
            ));
        }
        let (req_tx, req_rx) = channel();
        let (go_tx, go_rx) = channel::<u32>();
        let label = if n_dies == 2 {
            format!("core {} {:?} (die {die})", prog.core.id, prog.lane)
        } else {
            format!(
                "core {} of chip {:#x} {:?} ({die_id})",
                prog.core.id, prog.core.chip, prog.lane
            )
        };
        let (core, lane) = (prog.core, prog.lane);
        let prid = core.prid(lane) as u32;
        std::thread::Builder::new()
            .name(label.clone())
            .spawn(move || {
                let plat = Box::new(Plat {
                    req: req_tx,
                    resp: go_rx,
                });
                // Wait for the loop's first go before running any firmware.
                if plat.resp.recv().is_err() {
                    return;
                }
                let ctx = CMem::new(ctx_bytes);
                let pp = &*plat as *const Plat as *mut c_void;
                // SAFETY: memory of the size the C side asks for; `plat` outlives every call.
                unsafe {
                    (api.xdie_fw_ctx_init)(
                        ctx.ptr(),
                        sys.0.ptr(),
                        pp,
                        core.chip as u32,
                        core.id as u32,
                        prid,
                        window as u32,
                    );
                    (api.xdie_fw_ctx_options)(ctx.ptr(), prog.wait_mode as u32, POLL_CYCLES, 0);
                }
                for op in &prog.ops {
                    // SAFETY: words are 64 bytes (the op sizes), context initialized above.
                    let rc = unsafe {
                        match op {
                            Op::Gen(w) => (api.xdie_fw_rdma_desc_gen)(ctx.ptr(), w.as_ptr()),
                            Op::Start(w) => (api.xdie_fw_rdma_desc_start)(ctx.ptr(), w.as_ptr()),
                            Op::WaitGeDec { sem, value } => {
                                (api.xdie_fw_wait_ge_and_dec)(ctx.ptr(), *sem, *value)
                            }
                            Op::SemInc { core, sem, value } => {
                                (api.xdie_fw_sem_inc)(ctx.ptr(), *core, *sem, *value)
                            }
                        }
                    };
                    if rc != 0 {
                        // SAFETY: initialized context.
                        let detail = unsafe {
                            [
                                (api.xdie_fw_ctx_detail)(ctx.ptr(), 0),
                                (api.xdie_fw_ctx_detail)(ctx.ptr(), 1),
                            ]
                        };
                        let _ = plat.req.send(Req::Done(Err(describe(op, rc, detail))));
                        return;
                    }
                }
                let _ = plat.req.send(Req::Done(Ok(())));
            })
            .map_err(|e| format!("cannot start a firmware thread: {e}"))?;
        threads.push(Thread {
            index: threads.len(),
            label,
            die,
            core,
            lane,
            go: go_tx,
            req: req_rx,
            state: State::Done,
        });
    }
    Ok(threads)
}

/// The key of the context whose access goes next on a host port: of `candidates` (key, context)
/// with an access waiting, the first in program order from `rr` on, round robin over all `n`
/// contexts of the system.
fn next_in_turn<'a>(
    candidates: impl Iterator<Item = (usize, &'a Thread)>,
    rr: usize,
    n: usize,
) -> Option<usize> {
    candidates
        .filter(|(_, t)| matches!(t.state, State::Bus(_)))
        .min_by_key(|(_, t)| (t.index + n - rr) % n)
        .map(|(k, _)| k)
}

/// The contexts that have not ended, for a timeout's message.
fn still_running<'a>(threads: impl Iterator<Item = &'a Thread>) -> String {
    threads
        .filter(|t| !matches!(t.state, State::Done))
        .map(|t| t.label.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The package top: both dies live in one model, so every cycle is clocked for all of them
/// together; a cycle in which no port has an access in flight is skipped to the next wake-up.
fn lockstep(
    pkg: &mut Package,
    sys_model: &xdie_model::System,
    mut threads: Vec<Thread>,
    mut logs: Vec<DieLog>,
    budget: u64,
) -> Result<Vec<DieLog>, String> {
    let n_dies = pkg.dies().len();
    let start = pkg.cycle();
    for t in &mut threads {
        resume(t, 0, start)?;
    }
    let mut active: Vec<Option<(usize, Active, u64)>> = vec![None; n_dies];
    let mut rr = vec![0usize; n_dies];
    let n = threads.len();
    loop {
        let now = pkg.cycle();
        pkg.check_link().map_err(|e| e.to_string())?;
        for die in 0..n_dies {
            if active[die].is_some() {
                continue;
            }
            let on_die = threads
                .iter()
                .enumerate()
                .filter(|(_, t)| t.die == die as u32);
            let pick = next_in_turn(on_die, rr[die], n);
            if let Some(i) = pick {
                let State::Bus(op) = threads[i].state else {
                    unreachable!()
                };
                threads[i].state = State::InFlight;
                rr[die] = (i + 1) % n;
                logs[die].begin(sys_model, op, now);
                let a = pkg.host[die].begin(op);
                active[die] = Some((i, a, now));
            }
        }
        if active.iter().all(Option::is_none) {
            let wake = threads
                .iter()
                .filter_map(|t| match t.state {
                    State::Sleep(at) => Some(at),
                    _ => None,
                })
                .min();
            match wake {
                None if threads.iter().all(|t| matches!(t.state, State::Done)) => break,
                None => return Err("firmware contexts wait on nothing".into()),
                Some(at) if at > now => {
                    for h in pkg.host.iter_mut() {
                        h.drive(None);
                    }
                    pkg.sim.ticks(at - now)
                }
                Some(_) => {}
            }
        } else {
            for (die, slot) in active.iter_mut().enumerate() {
                pkg.host[die].drive(slot.as_mut().map(|s| &mut s.1));
            }
            pkg.sim.clk_low();
            let mut finished = vec![None; n_dies];
            for (die, slot) in active.iter_mut().enumerate() {
                if let Some((i, a, _)) = slot.as_mut() {
                    let label = &threads[*i].label;
                    finished[die] = pkg.host[die]
                        .sample(a)
                        .map_err(|e| format!("firmware of {label}: {e}"))?;
                }
            }
            pkg.sim.clk_high();
            for die in 0..n_dies {
                let Some((data, resp)) = finished[die] else {
                    continue;
                };
                let (i, a, began) = active[die].take().expect("in flight");
                let span = (began, pkg.cycle());
                logs[die].done(sys_model, &threads[i], a.op(), span, resp)?;
                resume(&mut threads[i], data, pkg.cycle())?;
            }
        }
        let now = pkg.cycle();
        for t in threads.iter_mut() {
            if matches!(t.state, State::Sleep(at) if at <= now) {
                resume(t, 0, now)?;
            }
        }
        if pkg.cycle() - start > budget {
            return Err(format!(
                "the firmware did not finish within {budget} cycles (still running: {})",
                still_running(threads.iter())
            ));
        }
    }
    Ok(logs)
}

/// One die's contexts and host port on a composed system: it runs inside the system's windows
/// on its own (crate::system::DieAgent) and stops where a context must be resumed, which the
/// coordinator in [`windowed`] does in cycle order.
struct Agent<'a> {
    host: &'a mut crate::axil::AxilMaster,
    /// This die's contexts, in program order.
    threads: Vec<Thread>,
    /// Contexts of the whole system (the round robin counts over all of them, as on the
    /// package top).
    n: usize,
    rr: usize,
    active: Option<(usize, Active, u64)>,
    /// An access answered in the last cycle: (context, access, began, end, data, response).
    finished: Option<(usize, Active, u64, u64, u32, Resp)>,
    failed: Option<String>,
    log: DieLog,
    sys_model: &'a xdie_model::System,
}

impl Agent<'_> {
    fn due_sleeper(&self, t: u64) -> bool {
        self.threads
            .iter()
            .any(|th| matches!(th.state, State::Sleep(at) if at <= t))
    }
}

impl crate::system::DieAgent for Agent<'_> {
    fn must_stop(&mut self, t: u64) -> bool {
        if self.failed.is_some() || self.finished.is_some() || self.due_sleeper(t) {
            return true;
        }
        if self.active.is_none() {
            let pick = next_in_turn(self.threads.iter().enumerate(), self.rr, self.n);
            if let Some(k) = pick {
                let State::Bus(op) = self.threads[k].state else {
                    unreachable!()
                };
                self.threads[k].state = State::InFlight;
                self.rr = (self.threads[k].index + 1) % self.n;
                self.log.begin(self.sys_model, op, t);
                let a = self.host.begin(op);
                self.active = Some((k, a, t));
            }
        }
        false
    }

    fn drive(&mut self, _: u64) {
        self.host.drive(self.active.as_mut().map(|s| &mut s.1));
    }

    fn sample(&mut self, t: u64) {
        let Some((k, a, began)) = self.active.as_mut() else {
            return;
        };
        match self.host.sample(a) {
            Err(e) => self.failed = Some(format!("firmware of {}: {e}", self.threads[*k].label)),
            Ok(Some((data, resp))) => {
                self.finished = Some((*k, *a, *began, t + 1, data, resp));
                self.active = None;
            }
            Ok(None) => {}
        }
    }
}

// SAFETY: an agent's host master holds pointers into its own die's model only, and the system
// runs each agent with that die's model on one thread at a time (System::run_agents).
unsafe impl Send for Agent<'_> {}

/// A composed system: every die runs each window of the system's lookahead on its own, with its
/// contexts' accesses on its host port, in parallel with the others; a die stops where one of its
/// contexts must be resumed (an access answered, a wait over). Contexts share the firmware's
/// bookkeeping, so they are resumed on this thread in the package top's order: by cycle, within
/// a cycle answered accesses in die order, then ended waits in program order; the dies that
/// stopped at the earliest such cycle go on, and so on until every die reaches the window's end.
/// Which die runs on which thread, and when, cannot change a result.
fn windowed(
    pkg: &mut Package,
    sys_model: &xdie_model::System,
    mut threads: Vec<Thread>,
    logs: Vec<DieLog>,
    budget: u64,
) -> Result<Vec<DieLog>, String> {
    let crate::package::Machine::Many(sys) = &mut pkg.sim else {
        unreachable!("a composed system")
    };
    let start = sys.cycle();
    for t in &mut threads {
        resume(t, 0, start)?;
    }
    let n = threads.len();
    let mut per_die: Vec<Vec<Thread>> = (0..logs.len()).map(|_| Vec::new()).collect();
    for t in threads {
        per_die[t.die as usize].push(t);
    }
    let mut agents: Vec<Agent> = pkg
        .host
        .iter_mut()
        .zip(per_die)
        .zip(logs)
        .map(|((host, threads), log)| Agent {
            host,
            threads,
            n,
            rr: 0,
            active: None,
            finished: None,
            failed: None,
            log,
            sys_model,
        })
        .collect();
    loop {
        let end = sys.window_end();
        loop {
            sys.run_agents(&mut agents, end);
            if let Some(e) = agents.iter_mut().find_map(|a| a.failed.take()) {
                return Err(e);
            }
            let now = |d: usize| sys.nodes()[d].now();
            let Some(t) = (0..agents.len()).filter(|&d| now(d) < end).map(now).min() else {
                break;
            };
            let stopped: Vec<usize> = (0..agents.len()).filter(|&d| now(d) == t).collect();
            for &d in &stopped {
                let a = &mut agents[d];
                if let Some((k, act, began, fin, data, resp)) = a.finished.take() {
                    a.log
                        .done(sys_model, &a.threads[k], act.op(), (began, fin), resp)?;
                    resume(&mut a.threads[k], data, t)?;
                }
            }
            let mut due: Vec<(usize, usize, usize)> = Vec::new();
            for &d in &stopped {
                for (k, th) in agents[d].threads.iter().enumerate() {
                    if matches!(th.state, State::Sleep(at) if at <= t) {
                        due.push((th.index, d, k));
                    }
                }
            }
            due.sort_unstable();
            for (_, d, k) in due {
                resume(&mut agents[d].threads[k], 0, t)?;
            }
        }
        sys.close_window(end);
        let all = || agents.iter().flat_map(|a| a.threads.iter());
        if all().all(|t| matches!(t.state, State::Done)) {
            break;
        }
        if sys.cycle() - start > budget {
            return Err(format!(
                "the firmware did not finish within {budget} cycles (still running: {})",
                still_running(all())
            ));
        }
    }
    Ok(agents.into_iter().map(|a| a.log).collect())
}
