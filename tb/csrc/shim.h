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
  void trace_open(rust::Str path);
  void trace_close();
  uint64_t time() const;
  bool got_error() const;

 private:
  void dump();
  const ModelOps* ops_;
  std::unique_ptr<VerilatedContext> ctx_;
  VerilatedModel* model_ = nullptr;
  std::unique_ptr<VerilatedFstC> tfp_;
  std::vector<void*> ports_;
  uint8_t* clk_ = nullptr;
};

std::unique_ptr<Dut> new_dut(uint32_t kind, bool trace_ever_on);
BenchResult cpp_axil_bench(uint32_t kind, const BenchParams& p);

}  // namespace xdie_tb
