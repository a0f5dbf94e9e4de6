// Thin C++ side of the Rust harness: owns one Verilated model and its context, exposes port
// storage addresses (Rust reads and writes ports in place) and the clock/trace operations.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "rust/cxx.h"

class VerilatedContext;
class VerilatedModel;
class VerilatedFstC;

namespace xdie_tb {

struct BenchParams;
struct BenchResult;
struct MemView;

// One row of a model's port table, generated from the VL_IN*/VL_OUT* lines of V<top>.h.
struct PortDesc {
  const char* name;
  uint32_t width;
  uint32_t bytes;  // 1, 2, 4, 8; 0 for VlWide storage
  uint32_t words;
  bool input;
};

// Type-erased operations of one generated model class.
struct ModelOps {
  const char* name;
  const PortDesc* ports;
  uint32_t nports;
  VerilatedModel* (*create)(VerilatedContext*);
  void (*eval)(VerilatedModel*);
  void (*trace)(VerilatedModel*, VerilatedFstC*);
  void (*final_)(VerilatedModel*);
  void (*destroy)(VerilatedModel*);
  void (*bind)(VerilatedModel*, void**);
};

class Dut {
 public:
  Dut(const ModelOps* ops, bool trace_ever_on);
  ~Dut();
  Dut(const Dut&) = delete;
  Dut& operator=(const Dut&) = delete;

  size_t port_addr(uint32_t port) const;
  void eval();
  void clk_low();
  void clk_high();
  void tick(uint64_t n);
  // From the next falling edge on, every bit of input `port` (at most 64 bits) is drawn anew
  // each cycle, 1 with probability `percent` %, from a generator seeded with `seed`; percent 0
  // stops the draws and clears the port.
  void randomize(uint32_t port, uint32_t percent, uint64_t seed);
  void trace_open(rust::Str path);
  void trace_close();
  uint64_t time() const;
  bool got_error() const;

  // Simulation hooks (models verilated with XDIE_SIM_HOOKS; see tb/src/hooks.rs).
  MemView mem_view(rust::Str scope, rust::Str var) const;
  // Gives the whole pages of an all-zero public array back to the operating system (they read
  // as zeros again, and take memory only once written); returns the bytes given back.
  uint64_t release_zeroed(rust::Str scope, rust::Str var);
  void watch(rust::Str scope, uint32_t id, uint32_t payload_words, uint32_t strobe_words);
  rust::Vec<uint32_t> take_landed();
  static constexpr uint32_t kMaxPayloadWords = 64;
  // Called by the DPI imports: one monitor record of the watched scope `w`.
  struct Watch {
    Dut* dut;
    uint32_t id;
    uint32_t payload_words;
    uint32_t strobe_words;
    const void* scope;
  };
  void record(const Watch& w, const uint32_t* payload);

 private:
  void dump();
  const ModelOps* ops_;
  std::unique_ptr<VerilatedContext> ctx_;
  VerilatedModel* model_ = nullptr;
  std::unique_ptr<VerilatedFstC> tfp_;
  std::vector<void*> ports_;
  struct RandomInput {
    uint32_t port;
    uint32_t percent;
    uint64_t state;
  };
  std::vector<RandomInput> random_;
  void draw_random();
  uint8_t* clk_ = nullptr;
  std::vector<std::unique_ptr<Watch>> watches_;
  std::vector<uint32_t> landed_;
};

std::unique_ptr<Dut> new_dut(uint32_t kind, bool trace_ever_on);
// CPU time the calling thread has used, in nanoseconds (a rate over it ignores time the thread
// spent waiting for a core, which wall-clock rates on a shared machine do not).
uint64_t thread_cpu_ns();
BenchResult cpp_axil_bench(uint32_t kind, const BenchParams& p);

}  // namespace xdie_tb
