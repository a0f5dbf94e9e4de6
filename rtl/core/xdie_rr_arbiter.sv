// Round-robin pick among N requesters: the first requester after last_i, wrapping around, so the
// one served last has the lowest priority. Combinational; the user keeps last_i (the index it
// served last) and decides when a pick counts as served. Shared by the crossbar (per slave) and
// the SDMA engine (queues).
//
// Word-wide arithmetic instead of a loop over the requesters: the requesters above last_i are a
// mask (2 << last_i) - 1 away, the lowest set bit of x is x & -x (one-hot), and bit b of its
// index is whether that bit lies among the positions whose index has bit b set (a constant mask
// per index bit). A simulator evaluates this in a few operations per pick, and when no one
// requests it evaluates nothing more. (Not $countones: yosys, 0.23 and 0.70 alike, folds
// $countones of a non-constant vector to 0 here, which made every pick N-1 in synthesis.)
//
// SELECT = 1 computes the same pick without arithmetic, for FPGA timing: the requesters above
// last_i through a mask decoded from last_i, and a fixed-priority select (lowest index first) of
// them and of all requesters. Both are a few LUT levels; the word-wide form has two carry chains
// (the mask and x & -x) that a synthesizer maps to adders on the path. A simulator evaluates the
// select bit by bit, so the default stays the word-wide form.

module xdie_rr_arbiter #(
  parameter int unsigned N = 2,
  parameter bit          SELECT = 1'b0,
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

  // The positions whose index has bit b set.
  function automatic logic [N-1:0] index_bit_mask(input int b);
    index_bit_mask = '0;
    for (int i = 0; i < N; i++) begin
      index_bit_mask[i] = ((i >> b) & 1) == 1;
    end
  endfunction

  if (!SELECT) begin : g_word
    logic [N-1:0] above, pool, first;

    always_comb begin
      valid_o = |req_i;
      // Bits 0..last_i cleared; for last_i = N-1 the shift leaves zero and the mask is all ones.
      above = req_i & ~((N'(2) << last_i) - N'(1));
      pool  = (above != '0) ? above : req_i;
      // The lowest requester of the pool, one-hot (zero when no one requests: index 0).
      first = pool & (~pool + N'(1));
    end

    for (genvar b = 0; b < IDX_W; b++) begin : g_idx
      localparam logic [N-1:0] MASK = index_bit_mask(b);
      assign idx_o[b] = (first & MASK) != '0;
    end
  end else begin : g_select
    logic [N-1:0]     after, above;
    logic [IDX_W-1:0] first_above, first_req;

    always_comb begin
      valid_o = |req_i;
      // The positions after last_i, decoded (no comparison, which would map to a carry chain).
      after = '0;
      for (int k = 0; k < N; k++) begin
        if (32'(last_i) == k) begin
          for (int i = k + 1; i < N; i++) begin
            after[i] = 1'b1;
          end
        end
      end
      above = req_i & after;
      // The lowest set index of each, the loop running down so that the lowest is the last
      // assignment (index 0 when none is set).
      first_above = '0;
      first_req   = '0;
      for (int i = N - 1; i >= 0; i--) begin
        if (above[i]) begin
          first_above = IDX_W'(i);
        end
        if (req_i[i]) begin
          first_req = IDX_W'(i);
        end
      end
      idx_o = (above != '0) ? first_above : first_req;
    end
  end
endmodule
