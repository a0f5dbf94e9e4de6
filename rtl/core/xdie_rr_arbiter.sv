// Round-robin pick among N requesters: the first requester after last_i, wrapping around, so the
// one served last has the lowest priority. Combinational; the user keeps last_i (the index it
// served last) and decides when a pick counts as served. Shared by the crossbar (per slave) and
// the SDMA engine (queues).
//
// Word-wide arithmetic instead of a loop over the requesters: the requesters above last_i are a
// mask (2 << last_i) - 1 away, and the index of the lowest set bit of x is the number of ones of
// x ^ (x - 1), less one. A simulator evaluates this in a few operations per pick, and when no
// one requests it evaluates nothing more.

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

  logic [N-1:0] above, pool;

  always_comb begin
    valid_o = |req_i;
    above   = '0;
    pool    = '0;
    idx_o   = '0;
    if (valid_o) begin
      // Bits 0..last_i cleared; for last_i = N-1 the shift leaves zero and the mask is all ones.
      above = req_i & ~((N'(2) << last_i) - N'(1));
      pool  = (above != '0) ? above : req_i;
      idx_o = IDX_W'($countones(pool ^ (pool - N'(1))) - 1);
    end
  end
endmodule
