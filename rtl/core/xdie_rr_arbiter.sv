// Round-robin pick among N requesters: the first requester after last_i, wrapping around, so the
// one served last has the lowest priority. Combinational; the user keeps last_i (the index it
// served last) and decides when a pick counts as served. Shared by the crossbar (per slave) and
// the SDMA engine (queues).
//
// Two ascending passes (indices above last_i, then from 0) compare indices instead of rotating
// the request vector: yosys builds a shifter for a variable part-select.

module xdie_rr_arbiter #(
  parameter int unsigned N = 2,
  localparam int unsigned IDX_W = (N > 1) ? $clog2(N) : 1
) (
  input  logic [N-1:0]     req_i,
  input  logic [IDX_W-1:0] last_i,
  output logic             valid_o,
  output logic [IDX_W-1:0] idx_o
);
  if (N < 1) begin : g_bad_param
    $error("xdie_rr_arbiter: N must be at least 1");
  end

  always_comb begin
    valid_o = 1'b0;
    idx_o   = '0;
    for (int unsigned i = 0; i < N; i++) begin
      if (!valid_o && req_i[i] && (IDX_W'(i) > last_i)) begin
        valid_o = 1'b1;
        idx_o   = IDX_W'(i);
      end
    end
    for (int unsigned i = 0; i < N; i++) begin
      if (!valid_o && req_i[i]) begin
        valid_o = 1'b1;
        idx_o   = IDX_W'(i);
      end
    end
  end
endmodule
