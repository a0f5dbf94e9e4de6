//! The static cxx bridge to the C++ shim. Deliberately small: ports are read and written in
//! place through the addresses `port_addr` returns, so a clock edge is the only per-cycle call.

#[cxx::bridge(namespace = "xdie_tb")]
pub(crate) mod bridge {
    /// Workload of the register benchmark (see `bench`).
    struct BenchParams {
        writes: u64,
        sems: u32,
        inc_base: u32,
        read_base: u32,
        stride: u32,
        seed: u64,
    }

    /// A public one-dimensional array of the model, in place.
    struct MemView {
        addr: usize,
        entry_bytes: u32,
        entries: u64,
    }

    struct BenchResult {
        cycles: u64,
        txns: u64,
        seconds: f64,
        mismatches: u64,
    }

    unsafe extern "C++" {
        include!("xdie-tb/csrc/shim.h");

        type Dut;

        fn new_dut(kind: u32, trace_ever_on: bool) -> Result<UniquePtr<Dut>>;
        fn port_addr(self: &Dut, port: u32) -> Result<usize>;
        fn eval(self: Pin<&mut Dut>);
        fn clk_low(self: Pin<&mut Dut>);
        fn clk_high(self: Pin<&mut Dut>);
        fn tick(self: Pin<&mut Dut>, n: u64);
        fn randomize(self: Pin<&mut Dut>, port: u32, percent: u32, seed: u64) -> Result<()>;
        fn trace_open(self: Pin<&mut Dut>, path: &str) -> Result<()>;
        fn trace_close(self: Pin<&mut Dut>);
        fn time(self: &Dut) -> u64;
        fn got_error(self: &Dut) -> bool;
        fn mem_view(self: &Dut, scope: &str, var: &str) -> Result<MemView>;
        fn release_zeroed(self: Pin<&mut Dut>, scope: &str, var: &str) -> Result<u64>;
        fn watch(
            self: Pin<&mut Dut>,
            scope: &str,
            id: u32,
            payload_words: u32,
            strobe_words: u32,
        ) -> Result<()>;
        fn take_landed(self: Pin<&mut Dut>) -> Vec<u32>;

        fn cpp_axil_bench(kind: u32, p: &BenchParams) -> Result<BenchResult>;
        fn thread_cpu_ns() -> u64;
    }
}

// The model is only ever driven from the thread that owns its `Sim`; moving it between threads
// is fine because it holds no thread-local state (one VerilatedContext per model).
unsafe impl Send for bridge::Dut {}
