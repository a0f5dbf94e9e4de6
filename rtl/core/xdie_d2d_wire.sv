// One wire of the die-to-die link: a word entering in cycle t leaves in cycle t + STAGES
// (STAGES = 0: the same cycle). Faults (xdie_d2d_pkg::wire_fault_t) act on the word as it enters:
// a dropped word never leaves, a flipped one leaves with one bit inverted.
//
// The valid strobe is a shift register of flops (it needs a reset). The words are a memory of
// STAGES entries used as a delay line: a rotating slot is written (when a word enters) and read in
// the same cycle, and the read returns what that slot got STAGES cycles earlier, which is valid
// exactly when the strobe says so. On an FPGA that is LUT-RAM instead of STAGES x W flops; in
// simulation one word moves per word sent instead of the whole line per cycle.

module xdie_d2d_wire #(
  parameter int unsigned W      = 1,
  parameter int unsigned STAGES = 0
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic                      valid_i,
  input  logic [W-1:0]              data_i,
  input  xdie_d2d_pkg::wire_fault_t fault_i,
  output logic                      valid_o,
  output logic [W-1:0]              data_o
);
  if (W < 1) begin : g_bad_param
    $error("xdie_d2d_wire: W must be at least 1");
  end

  localparam int unsigned FBW = xdie_d2d_pkg::FLIP_BIT_W;
  logic enter;
  assign enter = valid_i && !fault_i.drop;

  // The word with the fault's flip applied: a one-hot mask of the flipped bit (a shift past the
  // word's end leaves it zero). Called only for a word that enters, so a simulation does not
  // build the mask every cycle.
  function automatic logic [W-1:0] faulted(input logic [W-1:0] d, input logic flip,
                                           input logic [FBW-1:0] flip_bit);
    faulted = flip ? d ^ (W'(1) << flip_bit) : d;
  endfunction

  if (STAGES == 0) begin : g_direct
    // No stage: nothing is clocked.
    logic unused_clock;
    assign unused_clock = ^{clk_i, rst_ni};
    assign valid_o = enter;
    assign data_o  = faulted(data_i, fault_i.flip, fault_i.flip_bit);
  end else begin : g_line
    localparam int unsigned SW = (STAGES > 1) ? $clog2(STAGES) : 1;
    localparam logic [SW-1:0] SLOT_LAST = SW'(STAGES - 1);
    logic [STAGES-1:0] v_q;
    logic [SW-1:0]     slot_q;
    logic [W-1:0]      d_q [STAGES];
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        v_q    <= '0;
        slot_q <= '0;
      end else begin
        v_q    <= STAGES'({v_q, enter});
        slot_q <= (slot_q == SLOT_LAST) ? '0 : slot_q + 1'b1;
      end
    end
    // Words need no reset: they are qualified by v_q.
    always_ff @(posedge clk_i) begin
      if (enter) d_q[slot_q] <= faulted(data_i, fault_i.flip, fault_i.flip_bit);
    end
    assign valid_o = v_q[STAGES-1];
    assign data_o  = d_q[slot_q];
  end
endmodule
