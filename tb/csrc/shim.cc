#include "xdie-tb/csrc/shim.h"

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>

#include "verilated.h"
#include "verilated_fst_c.h"
#include "xdie-tb/src/ffi.rs.h"

namespace xdie_tb {

// Splitmix64: the same generator as the Rust side, so both bench loops see one workload.
static inline uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// The plain C++ reference loop of the register benchmark: the same cycle protocol as the Rust
// AXI4-Lite master in its no-stall mode (set inputs, clock low + eval, sample, clock high + eval).
template <class V>
BenchResult axil_bench(const BenchParams& p) {
  VerilatedContext ctx;
  ctx.fatalOnError(false);
  V m{&ctx, "TOP"};
  uint64_t cycles = 0;
  auto cycle = [&]() {
    m.clk_i = 0;
    m.eval();
    ctx.timeInc(1);
  };
  auto high = [&]() {
    m.clk_i = 1;
    m.eval();
    ctx.timeInc(1);
    ++cycles;
  };
  m.rst_ni = 0;
  m.s_axil_bready_i = 1;
  m.s_axil_rready_i = 1;
  m.s_axil_wstrb_i = 0xF;
  for (int i = 0; i < 4; ++i) { cycle(); high(); }
  m.rst_ni = 1;
  cycles = 0;
  std::vector<uint32_t> expect(p.sems, 0);
  uint64_t rng = p.seed;
  uint64_t mismatches = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (uint64_t n = 0; n < p.writes; ++n) {
    uint64_t r = splitmix(rng);
    uint32_t sem = static_cast<uint32_t>(r % p.sems);
    uint32_t val = static_cast<uint32_t>(r >> 32);
    expect[sem] += val;
    bool aw = false, w = false;
    m.s_axil_awaddr_i = p.inc_base + sem * p.stride;
    m.s_axil_wdata_i = val;
    for (;;) {
      m.s_axil_awvalid_i = !aw;
      m.s_axil_wvalid_i = !w;
      cycle();
      bool aw_hs = m.s_axil_awvalid_i && m.s_axil_awready_o;
      bool w_hs = m.s_axil_wvalid_i && m.s_axil_wready_o;
      bool b_hs = m.s_axil_bvalid_o;
      if (b_hs && m.s_axil_bresp_o != 0) ++mismatches;
      high();
      aw = aw || aw_hs;
      w = w || w_hs;
      if (b_hs) break;
    }
    m.s_axil_awvalid_i = 0;
    m.s_axil_wvalid_i = 0;
  }
  for (uint32_t sem = 0; sem < p.sems; ++sem) {
    m.s_axil_araddr_i = p.read_base + sem * p.stride;
    bool ar = false;
    for (;;) {
      m.s_axil_arvalid_i = !ar;
      cycle();
      bool ar_hs = m.s_axil_arvalid_i && m.s_axil_arready_o;
      bool r_hs = m.s_axil_rvalid_o;
      uint32_t data = m.s_axil_rdata_o;
      bool bad = m.s_axil_rresp_o != 0;
      high();
      ar = ar || ar_hs;
      if (r_hs) {
        if (bad || data != expect[sem]) ++mismatches;
        break;
      }
    }
    m.s_axil_arvalid_i = 0;
  }
  auto t1 = std::chrono::steady_clock::now();
  m.final();
  BenchResult res;
  res.cycles = cycles;
  res.txns = p.writes + p.sems;
  res.seconds = std::chrono::duration<double>(t1 - t0).count();
  res.mismatches = mismatches;
  return res;
}

}  // namespace xdie_tb

#include "xdie_tb_duts.inc"

namespace xdie_tb {

Dut::Dut(const ModelOps* ops, bool trace_ever_on) : ops_(ops), ctx_(new VerilatedContext) {
  // A failing assertion or $stop must fail one test, not abort every test thread.
  ctx_->fatalOnError(false);
  if (trace_ever_on) ctx_->traceEverOn(true);
  model_ = ops_->create(ctx_.get());
  ports_.assign(ops_->nports, nullptr);
  ops_->bind(model_, ports_.data());
  for (uint32_t i = 0; i < ops_->nports; ++i) {
    if (std::strcmp(ops_->ports[i].name, "clk_i") == 0) clk_ = static_cast<uint8_t*>(ports_[i]);
  }
}

Dut::~Dut() {
  if (tfp_) tfp_->close();
  ops_->final_(model_);
  tfp_.reset();
  ops_->destroy(model_);
}

size_t Dut::port_addr(uint32_t port) const {
  if (port >= ports_.size()) throw std::out_of_range("port id");
  return reinterpret_cast<size_t>(ports_[port]);
}

void Dut::eval() { ops_->eval(model_); }

void Dut::dump() {
  if (tfp_) tfp_->dump(static_cast<uint64_t>(ctx_->time()));
}

void Dut::clk_low() {
  if (clk_) *clk_ = 0;
  ops_->eval(model_);
  dump();
  ctx_->timeInc(1);
}

void Dut::clk_high() {
  if (clk_) *clk_ = 1;
  ops_->eval(model_);
  dump();
  ctx_->timeInc(1);
}

void Dut::tick(uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) {
    clk_low();
    clk_high();
  }
}

void Dut::trace_open(rust::Str path) {
  if (tfp_) return;
  ctx_->traceEverOn(true);
  tfp_.reset(new VerilatedFstC);
  ops_->trace(model_, tfp_.get());
  tfp_->open(std::string(path).c_str());
  if (!tfp_->isOpen()) {
    tfp_.reset();
    throw std::runtime_error("cannot open trace file " + std::string(path));
  }
}

void Dut::trace_close() {
  if (tfp_) {
    tfp_->close();
    tfp_.reset();
  }
}

uint64_t Dut::time() const { return ctx_->time(); }

bool Dut::got_error() const { return ctx_->gotError() || ctx_->gotFinish(); }

std::unique_ptr<Dut> new_dut(uint32_t kind, bool trace_ever_on) {
  if (kind >= gen::MODEL_COUNT) throw std::out_of_range("DUT kind");
  const ModelOps* ops = gen::MODELS[kind];
  // A DUT without clk_i is combinational: its edges only evaluate.
  return std::unique_ptr<Dut>(new Dut(ops, trace_ever_on));
}

BenchResult cpp_axil_bench(uint32_t kind, const BenchParams& p) {
  BenchResult r{};
  if (!gen::cpp_axil_bench_dispatch(kind, p, r))
    throw std::invalid_argument("DUT has no AXI4-Lite slave port");
  return r;
}

}  // namespace xdie_tb
