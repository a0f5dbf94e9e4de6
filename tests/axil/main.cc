// Clocks the standalone host port testbench (xdie_host_port_tb.sv) until it finishes or an
// assertion fails. Exit status 0: finished with no failure; 1: an assertion failed or the
// testbench stopped (Verilator's message is on standard output); 2: it never finished.
#include <cstdio>
#include <memory>

#include "Vxdie_host_port_tb.h"
#include "verilated.h"

int main(int argc, char** argv) {
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  ctx->fatalOnError(false);
  auto top = std::make_unique<Vxdie_host_port_tb>(ctx.get());
  for (int i = 0; i < 100000 && !ctx->gotFinish(); ++i) {
    top->clk_i = 0;
    top->eval();
    ctx->timeInc(1);
    top->clk_i = 1;
    top->eval();
    ctx->timeInc(1);
  }
  top->final();
  if (ctx->gotError()) return 1;
  if (!ctx->gotFinish()) {
    std::puts("the testbench did not finish");
    return 2;
  }
  return 0;
}
