#include "xdie-tb/csrc/shim.h"

#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <ctime>
#include <stdexcept>
#include <string>

#include "svdpi.h"
#include "verilated.h"
#include "verilated_fst_c.h"
#include "verilated_syms.h"
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
  // The DPI user-data table is global and keyed by scope address: forget ours before the model
  // (and with it the scopes) goes away.
  for (auto& w : watches_) svPutUserData(const_cast<void*>(w->scope), &watches_, nullptr);
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

static void write_port(const PortDesc& d, void* at, uint64_t v) {
  switch (d.bytes) {
    case 1: *static_cast<uint8_t*>(at) = static_cast<uint8_t>(v); break;
    case 2: *static_cast<uint16_t*>(at) = static_cast<uint16_t>(v); break;
    case 4: *static_cast<uint32_t*>(at) = static_cast<uint32_t>(v); break;
    default: *static_cast<uint64_t*>(at) = v; break;
  }
}

void Dut::randomize(uint32_t port, uint32_t percent, uint64_t seed) {
  if (port >= ports_.size()) throw std::out_of_range("port id");
  const PortDesc& d = ops_->ports[port];
  if (!d.input || d.bytes == 0 || percent > 100)
    throw std::invalid_argument(std::string("cannot randomize ") + d.name +
                                " (an input of at most 64 bits, 0..100 %)");
  for (size_t i = 0; i < random_.size(); ++i) {
    if (random_[i].port == port) {
      random_.erase(random_.begin() + static_cast<long>(i));
      break;
    }
  }
  write_port(d, ports_[port], 0);
  if (percent > 0) random_.push_back(RandomInput{port, percent, seed});
}

void Dut::draw_random() {
  for (auto& r : random_) {
    const PortDesc& d = ops_->ports[r.port];
    uint64_t v = 0;
    for (uint32_t b = 0; b < d.width; ++b) {
      if (splitmix(r.state) % 100 < r.percent) v |= uint64_t{1} << b;
    }
    write_port(d, ports_[r.port], v);
  }
}

void Dut::clk_low() {
  if (clk_) *clk_ = 0;
  if (!random_.empty()) draw_random();
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
    // A failed assertion or $stop: the caller reports it (tb/src/sim.rs) at this edge.
    if (ctx_->gotError()) return;
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

// ---------------------------------------------------------------- simulation hooks

static const VerilatedScope* find_scope(VerilatedContext* ctx, rust::Str scope) {
  const std::string name(scope);
  const VerilatedScope* s = ctx->scopeFind(name.c_str());
  if (!s) throw std::invalid_argument("no scope " + name + " in this model");
  return s;
}

MemView Dut::mem_view(rust::Str scope, rust::Str var) const {
  const VerilatedScope* s = find_scope(ctx_.get(), scope);
  const std::string vname(var);
  const VerilatedVar* v = s->varFind(vname.c_str());
  if (!v) throw std::invalid_argument("no public variable " + vname + " in " + std::string(scope));
  if (v->udims() != 1) throw std::invalid_argument(vname + " is not a one-dimensional array");
  MemView m;
  m.addr = reinterpret_cast<size_t>(v->datap());
  m.entry_bytes = v->entSize();
  m.entries = static_cast<uint64_t>(v->elements(1));
  return m;
}

uint64_t Dut::release_zeroed(rust::Str scope, rust::Str var) {
  const MemView m = mem_view(scope, var);
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t begin = (m.addr + page - 1) / page * page;
  const uintptr_t end = (m.addr + m.entry_bytes * m.entries) / page * page;
  if (end <= begin) return 0;
  // Private anonymous memory (the model's heap) reads as zeros after MADV_DONTNEED.
  if (madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED) != 0)
    throw std::runtime_error("madvise failed on " + std::string(var));
  return end - begin;
}

// Key of this harness's entries in the DPI user-data table (any unique address will do).
static const int kWatchKey = 0;

void Dut::watch(rust::Str scope, uint32_t id, uint32_t payload_words, uint32_t strobe_words) {
  if (payload_words > kMaxPayloadWords || strobe_words + 2 > payload_words)
    throw std::invalid_argument("watch record layout out of range");
  const VerilatedScope* s = find_scope(ctx_.get(), scope);
  watches_.emplace_back(new Watch{this, id, payload_words, strobe_words, s});
  svPutUserData(const_cast<VerilatedScope*>(s), const_cast<int*>(&kWatchKey),
                watches_.back().get());
}

void Dut::record(const Watch& w, const uint32_t* payload) {
  const uint64_t t = ctx_->time();
  landed_.push_back(w.id);
  landed_.push_back(static_cast<uint32_t>(t));
  landed_.push_back(static_cast<uint32_t>(t >> 32));
  landed_.insert(landed_.end(), payload, payload + w.payload_words);
}

rust::Vec<uint32_t> Dut::take_landed() {
  rust::Vec<uint32_t> out;
  out.reserve(landed_.size());
  for (uint32_t x : landed_) out.push_back(x);
  landed_.clear();
  return out;
}

std::unique_ptr<Dut> new_dut(uint32_t kind, bool trace_ever_on) {
  if (kind >= gen::MODEL_COUNT) throw std::out_of_range("DUT kind");
  const ModelOps* ops = gen::MODELS[kind];
  // A DUT without clk_i is combinational: its edges only evaluate.
  return std::unique_ptr<Dut>(new Dut(ops, trace_ever_on));
}

uint64_t thread_cpu_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<uint64_t>(t.tv_sec) * 1000000000u + static_cast<uint64_t>(t.tv_nsec);
}

BenchResult cpp_axil_bench(uint32_t kind, const BenchParams& p) {
  BenchResult r{};
  if (!gen::cpp_axil_bench_dispatch(kind, p, r))
    throw std::invalid_argument("DUT has no AXI4-Lite slave port");
  return r;
}

}  // namespace xdie_tb

#ifdef XDIE_TB_HOOKS
// The DPI imports of the RTL's simulation hooks; the model's own header declares them, so a
// changed signature fails here at compile time.
#include XDIE_TB_HOOKS_DPI_H

namespace {

const xdie_tb::Dut::Watch* watched() {
  return static_cast<const xdie_tb::Dut::Watch*>(
      svGetUserData(svGetScope(), const_cast<int*>(&xdie_tb::kWatchKey)));
}

}  // namespace

// A memory record is the word index (two words), the strobe words, then the data words.
void xdie_mem_landed(unsigned long long word, const svBitVecVal* data, const svBitVecVal* strb) {
  const xdie_tb::Dut::Watch* w = watched();
  if (!w) return;
  uint32_t payload[xdie_tb::Dut::kMaxPayloadWords];
  const uint32_t strb_words = w->strobe_words;
  payload[0] = static_cast<uint32_t>(word);
  payload[1] = static_cast<uint32_t>(word >> 32);
  std::memcpy(payload + 2, strb, strb_words * 4);
  std::memcpy(payload + 2 + strb_words, data, (w->payload_words - 2 - strb_words) * 4);
  w->dut->record(*w, payload);
}

void xdie_sem_inc_landed(unsigned int core, unsigned int sem, unsigned int value) {
  const xdie_tb::Dut::Watch* w = watched();
  if (!w) return;
  const uint32_t payload[3] = {core, sem, value};
  w->dut->record(*w, payload);
}
#endif
