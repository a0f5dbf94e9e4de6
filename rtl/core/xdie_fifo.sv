// Synchronous FIFO of DEPTH entries of DATA_W bits (any depth >= 1): valid/ready on both sides,
// the head readable while pop_valid_o is set; pushing into a full FIFO is ignored (the users that
// push without looking at push_ready_o reserve the room beforehand: link credits, the engine's
// read space). The one FIFO of the hand-written RTL: link receive buffers, the D2D port's response
// order, the crossbar's response routing, the engine's source beats and write tags.

module xdie_fifo #(
  parameter int unsigned DATA_W = 1,
  parameter int unsigned DEPTH  = 2
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              push_valid_i,
  output logic              push_ready_o,
  input  logic [DATA_W-1:0] push_data_i,
  output logic              pop_valid_o,
  input  logic              pop_ready_i,
  output logic [DATA_W-1:0] pop_data_o
);
  localparam int unsigned PW = (DEPTH > 1) ? $clog2(DEPTH) : 1;
  localparam int unsigned CW = $clog2(DEPTH + 1);
  localparam logic [PW-1:0] LAST = PW'(DEPTH - 1);
  localparam logic [CW-1:0] FULL = CW'(DEPTH);

  if (DATA_W < 1 || DEPTH < 1) begin : g_bad_param
    $error("xdie_fifo: DATA_W and DEPTH must be at least 1");
  end

  logic [DATA_W-1:0] mem_q [DEPTH];
  logic [PW-1:0] wptr_q, rptr_q;
  logic [CW-1:0] count_q;
  logic          push, pop;

  assign push_ready_o = (count_q != FULL);
  assign pop_valid_o  = (count_q != '0);
  assign pop_data_o   = mem_q[rptr_q];
  assign push         = push_valid_i && push_ready_o;
  assign pop          = pop_valid_o && pop_ready_i;

  // The pointers and the count change only with a push or a pop, which the clocked process
  // decides itself (a simulator then evaluates nothing of an idle FIFO between edges).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q  <= '0;
      rptr_q  <= '0;
      count_q <= '0;
    end else begin
      if (push) begin
        wptr_q <= (wptr_q == LAST) ? '0 : wptr_q + 1'b1;
      end
      if (pop) begin
        rptr_q <= (rptr_q == LAST) ? '0 : rptr_q + 1'b1;
      end
      if (push && !pop) begin
        count_q <= count_q + 1'b1;
      end else if (pop && !push) begin
        count_q <= count_q - 1'b1;
      end
    end
  end

  // The storage has no reset, so that it maps to RAM (an FPGA tool turns storage written in a
  // process with an asynchronous reset into flops). Verilated for the package tops, with
  // XDIE_FAST_STORAGE defined, the same process takes the reset process's sensitivity and an empty
  // reset branch: Verilator then schedules one trigger for this clock instead of two, and each
  // trigger costs it about 150 instructions per simulated cycle (docs/fpga-fit.md). The contents
  // behave the same: no push can happen in reset (the pushing side's valid is reset too).
`ifdef XDIE_FAST_STORAGE
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      // contents kept
    end else if (push) begin
      mem_q[wptr_q] <= push_data_i;
    end
  end
`else
  always_ff @(posedge clk_i) begin
    if (push) begin
      mem_q[wptr_q] <= push_data_i;
    end
  end
`endif
endmodule
