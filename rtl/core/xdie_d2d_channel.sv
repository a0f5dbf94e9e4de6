// One credit-flow-controlled direction of the die-to-die link: sender credit counter, the wire
// (LATENCY cycles for flits and for returned credits) and the receiver's FIFO of CREDITS flits.
//
// Timing: a flit pushed in cycle t is at the receive FIFO head in cycle t + LATENCY (the last of
// the LATENCY stages is the FIFO write). A pop in cycle t is a credit the sender can spend again
// in cycle t + LATENCY. A credit is out for 2 * LATENCY cycles, so CREDITS >= 2 * LATENCY keeps
// one flit per cycle going. Bring-up: after reset the receiver advertises its CREDITS buffers
// over the credit wire (like a PCIe InitFC); until that arrives the sender has no credits and
// up_o is 0. The sender may push only while tx_credit_o is 1; flits are never dropped.

module xdie_d2d_channel #(
  // Flit bits.
  parameter int unsigned DATA_W  = 1,
  parameter int unsigned LATENCY = 1,
  parameter int unsigned CREDITS = 4,
  localparam int unsigned CW     = $clog2(CREDITS + 1)
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  // Sender
  input  logic          tx_valid_i,
  input  logic [DATA_W-1:0] tx_data_i,
  output logic          tx_credit_o,
  output logic [CW-1:0] credits_o,
  output logic          up_o,
  // Receiver
  output logic          rx_valid_o,
  input  logic          rx_ready_i,
  output logic [DATA_W-1:0] rx_data_o
);
  if (DATA_W < 1 || LATENCY < 1 || CREDITS < 1) begin : g_bad_param
    $error("xdie_d2d_channel: DATA_W, LATENCY and CREDITS must be at least 1");
  end

  localparam int unsigned STAGES = LATENCY - 1;
  localparam logic [CW-1:0] CREDITS_INIT = CW'(CREDITS);

  // ---- Sender credits
  logic [CW-1:0] credits_d, credits_q;
  logic          up_d, up_q;
  logic          send;
  // Credit wire output: a returned credit, or the receiver's initial advertisement.
  logic          ret_arrive, adv_arrive;

  // ---- Receiver
  logic          adv_q;
  logic          rx_pop;
  logic          flit_arrive;
  logic [DATA_W-1:0]  flit_arrive_data;
  // The credits guarantee room for every arriving flit, so the FIFO's ready is not needed.
  logic          unused_fifo_ready;

  assign tx_credit_o = up_q && (credits_q != '0);
  assign credits_o   = credits_q;
  assign up_o        = up_q;
  assign send        = tx_valid_i && tx_credit_o;

  always_comb begin
    credits_d = credits_q;
    up_d      = up_q;
    if (adv_arrive) begin
      credits_d = CREDITS_INIT;
      up_d      = 1'b1;
    end else begin
      unique case ({send, ret_arrive})
        2'b10:   credits_d = credits_q - 1'b1;
        2'b01:   credits_d = credits_q + 1'b1;
        default: credits_d = credits_q;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      credits_q <= '0;
      up_q      <= 1'b0;
      adv_q     <= 1'b1;
    end else begin
      credits_q <= credits_d;
      up_q      <= up_d;
      adv_q     <= 1'b0;
    end
  end

  // ---- The wire: STAGES stages each way; the FIFO write and the credit counter are the last
  // stage. The one-bit strobes (flit valid, returned credit, advertisement) are shift registers
  // of flops: they need a reset. The flit data is a memory of STAGES entries used as a delay
  // line: a rotating slot is written (when a flit is sent) and read in the same cycle, and the
  // read returns what that slot got STAGES cycles earlier, which is valid exactly when the
  // strobe says a flit arrives. On an FPGA that is LUT-RAM instead of STAGES x DATA_W flops; in
  // simulation one word moves per flit instead of the whole line per cycle.
  if (STAGES == 0) begin : g_direct
    assign flit_arrive      = send;
    assign flit_arrive_data = tx_data_i;
    assign ret_arrive       = rx_pop;
    assign adv_arrive       = adv_q;
  end else begin : g_wire
    localparam int unsigned SW = (STAGES > 1) ? $clog2(STAGES) : 1;
    localparam logic [SW-1:0] SLOT_LAST = SW'(STAGES - 1);
    logic [STAGES-1:0] fv_q, rv_q, av_q;
    logic [SW-1:0]     slot_q;
    logic [DATA_W-1:0] fd_q [STAGES];
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        fv_q   <= '0;
        rv_q   <= '0;
        av_q   <= '0;
        slot_q <= '0;
      end else begin
        fv_q   <= STAGES'({fv_q, send});
        rv_q   <= STAGES'({rv_q, rx_pop});
        av_q   <= STAGES'({av_q, adv_q});
        slot_q <= (slot_q == SLOT_LAST) ? '0 : slot_q + 1'b1;
      end
    end
    // Flit data needs no reset: it is qualified by fv_q.
    always_ff @(posedge clk_i) begin
      if (send) fd_q[slot_q] <= tx_data_i;
    end
    assign flit_arrive      = fv_q[STAGES-1];
    assign flit_arrive_data = fd_q[slot_q];
    assign ret_arrive       = rv_q[STAGES-1];
    assign adv_arrive       = av_q[STAGES-1];
  end

  xdie_fifo #(
    .DATA_W(DATA_W),
    .DEPTH (CREDITS)
  ) u_rx_fifo (
    .clk_i,
    .rst_ni,
    .push_valid_i(flit_arrive),
    .push_ready_o(unused_fifo_ready),
    .push_data_i (flit_arrive_data),
    .pop_valid_o (rx_valid_o),
    .pop_ready_i (rx_ready_i),
    .pop_data_o  (rx_data_o)
  );
  assign rx_pop = rx_valid_o && rx_ready_i;
endmodule
