// Clock gate: clk_o follows clk_i in cycles whose enable was set, and stays low otherwise.
//
// The enable is sampled on the falling edge, so it is stable for the whole high phase and clk_o
// cannot glitch: the flop form of a latch-based integrated clock gate (a simulator evaluates a
// flop only on its clock edges, where a latch on !clk_i would be evaluated too late). Logic on
// clk_o therefore sees a rising edge exactly in the cycles whose enable was high before the
// falling edge that precedes it. The enable is forced on during reset, so a reset that releases
// with the enable low still leaves the domain clocked once.
//
// ENABLE = 0 passes the clock through: an FPGA build keeps one clock tree (FPGA tools handle
// a gated clock badly), and an ASIC flow substitutes its library's gate cell for this module.

module xdie_clock_gate #(
  parameter bit ENABLE = 1'b1
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic en_i,
  output logic clk_o
);
  if (ENABLE) begin : g_gate
    logic en_q;

    always_ff @(negedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        en_q <= 1'b1;
      end else begin
        en_q <= en_i;
      end
    end

    assign clk_o = clk_i & en_q;
  end else begin : g_pass
    logic unused_en;
    assign unused_en = ^{rst_ni, en_i};
    assign clk_o = clk_i;
  end
endmodule
