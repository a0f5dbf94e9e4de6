// xbus crossbar with one shared request path and one shared response path: xdie_xbar's ports,
// parameters and ordering rules at a fraction of its area, for FPGA builds (sizing profile key
// shared_crossbar). xdie_xbar gives every slave its own multiplexer of all masters' requests and
// every master its own multiplexer of all slaves' read data, both as wide as a beat; here there
// is one of each, so the area no longer grows with masters x slaves x beat width.
//
// Requests: one round-robin arbiter over all masters picks, each cycle, one master whose request
// may issue (the one-slave-at-a-time rule and OUTSTANDING, as in xdie_xbar) and whose target
// slave has room: its request register is empty or its slave takes the request in it in this
// cycle, no other grant to it is under way, and its order FIFO is not full. In the next cycle the picked master's request moves through one
// multiplexer into that slave's request register (the master sees ready then: it holds its
// request until ready, as on any xbus port; with M_REG the master's request register of this
// crossbar holds it instead, and the master sees ready when that register takes it), which
// presents it to the slave until the slave takes it. A request therefore waits only for its own slave, never behind another slave's: the
// same dependencies as in xdie_xbar (docs/mesh.md: deadlock freedom).
//
// Responses: per slave, the order FIFO of its requests' masters names the master of its next
// response, as in xdie_xbar. One round-robin arbiter over the slaves picks, each cycle, one
// slave with a response whose master's response register will be empty in the next cycle and
// to which no response is moving; in the next cycle that slave sees ready and its response moves
// through one multiplexer into the master's register, which presents it to the master until the
// master takes it. A response therefore waits only for its own master.
//
// Per master, the requests in flight (accepted and not yet answered to the master) are counted;
// they are all at one slave, which answers in order, so every master sees its responses in
// order. Valid and data towards slaves and masters come from registers, and every ready this
// crossbar drives is a decode of flops, so any slave and master may be connected.
//
// Timing: both ways, the arbitration (address decode, issue rules and room, round robin) ends
// in the grant's flops, and the wide multiplexer's select and every wide register's enable are
// flops, so arbitration and the wide data paths are separate paths. The round robins use
// xdie_rr_arbiter's SELECT form (no carry chains). With M_REG each master's request is
// registered before it is arbitrated, so a master's logic does not reach the arbitration either.
// The cost is latency and rate: a request reaches its slave two cycles after it is first
// presented (granted, then transferred into the slave's register; three with M_REG), a
// response its master two cycles after the slave presents it; the die
// accepts at most one request and returns one response per cycle, a slave receives at most one
// request and a master one response every two cycles (a port is granted again in its
// transfer's cycle at the earliest: its register is free then if the port takes what it holds).

module xdie_xbar_shared #(
  parameter int unsigned NM          = 3,
  parameter int unsigned NS          = 3,
  parameter int unsigned OUTSTANDING = 4,
  // Masters that read: only these get response data (a write-only master's is zero).
  parameter logic [NM-1:0] READERS   = '1,
  // Each master's request (with its slave select) taken into a register of the crossbar before
  // it is arbitrated, so that the arbitration and the request multiplexer start at flops and a
  // master's own logic (and the die's address decode in front of the select) ends at them: a
  // cycle more latency, the same rates (the register takes the next request in the cycle its
  // request transfers). The FPGA profiles' sizing key timing_registers; the default is the form
  // those builds use.
  parameter bit            M_REG     = 1'b1,
  localparam int unsigned SW         = (NS > 1) ? $clog2(NS) : 1,
  localparam int unsigned DATA_BYTES = xdie_xbus_pkg::DATA_BYTES,
  localparam int unsigned ADDR_W     = xdie_xbus_pkg::ADDR_W
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // masters
  input  logic [NM-1:0]     m_req_valid_i,
  output logic [NM-1:0]     m_req_ready_o,
  input  logic [NM-1:0]     m_req_write_i,
  input  logic [SW*NM-1:0]  m_sel_i,        // bit planes, as xdie_xbar's
  output logic [NM-1:0]     m_rsp_valid_o,
  input  logic [NM-1:0]     m_rsp_ready_i,
  output logic [NM*2-1:0]   m_rsp_err_o,
  // slaves
  output logic [NS-1:0]     s_req_valid_o,
  input  logic [NS-1:0]     s_req_ready_i,
  output logic [NS-1:0]     s_req_write_o,
  input  logic [NS-1:0]     s_rsp_valid_i,
  output logic [NS-1:0]     s_rsp_ready_o,
  input  logic [NS*2-1:0]   s_rsp_err_i,
  // wide fields, one element per port (see xdie_xbar)
  input  `XDIE_PORT_ARRAY(ADDR_W, m_req_addr_i, NM),
  input  `XDIE_PORT_ARRAY(DATA_BYTES*8, m_req_wdata_i, NM),
  input  `XDIE_PORT_ARRAY(DATA_BYTES, m_req_wstrb_i, NM),
  output `XDIE_PORT_ARRAY(DATA_BYTES*8, m_rsp_rdata_o, NM),
  output `XDIE_PORT_ARRAY(ADDR_W, s_req_addr_o, NS),
  output `XDIE_PORT_ARRAY(DATA_BYTES*8, s_req_wdata_o, NS),
  output `XDIE_PORT_ARRAY(DATA_BYTES, s_req_wstrb_o, NS),
  input  `XDIE_PORT_ARRAY(DATA_BYTES*8, s_rsp_rdata_i, NS)
);

  if (NM < 1 || NS < 1 || OUTSTANDING < 1) begin : g_bad_param
    $error("xdie_xbar_shared: NM, NS and OUTSTANDING must be at least 1");
  end

  localparam int unsigned MW = (NM > 1) ? $clog2(NM) : 1;
  localparam int unsigned CW = $clog2(OUTSTANDING + 1);
  localparam int unsigned DW = DATA_BYTES * 8;
  localparam logic [CW-1:0] MAX_OUT = CW'(OUTSTANDING);
  localparam int unsigned PW = (OUTSTANDING > 1) ? $clog2(OUTSTANDING) : 1;
  localparam logic [PW-1:0] LAST = PW'(OUTSTANDING - 1);

  // Port selects and decodes are written as loops over constant indices: an indexed write
  // (x[i] = v) or a slice at a variable offset that is not a power of two (i * ADDR_W) makes
  // yosys compute the offset with an adder, a carry chain on the path.

  // Each master's slave index in one piece (the port holds them as bit planes): wiring only.
  logic [NM*SW-1:0] m_sel;
  for (genvar m = 0; m < NM; m++) begin : g_sel
    for (genvar b = 0; b < SW; b++) begin : g_bit
      assign m_sel[m*SW + b] = m_sel_i[b*NM + m];
    end
  end

  // ---------------------------------------------------------------- master requests
  // The requests the arbitration sees (valid, write, select) and the multiplexer moves: the
  // masters' own or, with M_REG, a register per master. A register takes its master's request
  // when it is empty or its request transfers in this cycle (the grant's one-hot flop), so the
  // master's ready is a decode of flops either way.
  logic [NM-1:0]         pg_m_oh_q;
  logic [NM-1:0]         valid, write;
  logic [NM*SW-1:0]      sel;
  logic [NM*ADDR_W-1:0]  addr;
  logic [NM*DW-1:0]      wdata;
  logic [NM*DATA_BYTES-1:0] wstrb;
  for (genvar m = 0; m < NM; m++) begin : g_mreq
    if (M_REG) begin : g_reg
      logic                  valid_q, write_q;
      logic [SW-1:0]         sel_q;
      logic [ADDR_W-1:0]     addr_q;
      logic [DW-1:0]         wdata_q;
      logic [DATA_BYTES-1:0] wstrb_q;
      logic                  take;
      assign take = !valid_q || pg_m_oh_q[m];
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          valid_q <= 1'b0;
        end else if (take) begin
          valid_q <= m_req_valid_i[m];
        end
      end
      // Data without reset: read only with the valid.
      always_ff @(posedge clk_i) begin
        if (take) begin
          write_q <= m_req_write_i[m];
          sel_q   <= m_sel[m*SW +: SW];
          addr_q  <= `XDIE_PORT(m_req_addr_i, m, ADDR_W);
          wdata_q <= `XDIE_PORT(m_req_wdata_i, m, DW);
          wstrb_q <= `XDIE_PORT(m_req_wstrb_i, m, DATA_BYTES);
        end
      end
      assign m_req_ready_o[m] = take;
      assign valid[m]         = valid_q;
      assign write[m]         = write_q;
      assign sel[m*SW +: SW]  = sel_q;
      assign addr[m*ADDR_W +: ADDR_W]             = addr_q;
      assign wdata[m*DW +: DW]                    = wdata_q;
      assign wstrb[m*DATA_BYTES +: DATA_BYTES]    = wstrb_q;
    end else begin : g_direct
      // The granted master still presents the same request (a master holds it until ready).
      assign m_req_ready_o[m] = pg_m_oh_q[m];
      assign valid[m]         = m_req_valid_i[m];
      assign write[m]         = m_req_write_i[m];
      assign sel[m*SW +: SW]  = m_sel[m*SW +: SW];
      assign addr[m*ADDR_W +: ADDR_W]             = `XDIE_PORT(m_req_addr_i, m, ADDR_W);
      assign wdata[m*DW +: DW]                    = `XDIE_PORT(m_req_wdata_i, m, DW);
      assign wstrb[m*DATA_BYTES +: DATA_BYTES]    = `XDIE_PORT(m_req_wstrb_i, m, DATA_BYTES);
    end
  end

  // ---------------------------------------------------------------- request arbitration
  // Cycle t picks a master (the grant); cycle t+1 moves its request (the transfer). Every
  // select and enable of the wide request path therefore comes from a flop.
  logic [NS-1:0]    rq_valid_q, rq_write_q;
  logic [NS-1:0]    fifo_ready;
  // The grant made last cycle, which transfers in this one: its master and slave as indices
  // (the wide multiplexer's select, the order FIFO's entry, the master's current slave) and,
  // for the arbitration, as one-hot vectors that are zero without a grant. The vectors are
  // flops of their own, not a decode of the indices, so the arbitration's loop runs neither
  // through a decode nor through the index flops' fanout into the multiplexer (timing).
  logic [MW-1:0]    pg_m_q;
  logic [SW-1:0]    pg_s_q;
  logic [NS-1:0]    pg_s_oh_q;
  logic [NM*CW-1:0] cnt_q;
  logic [NM*SW-1:0] cur_q;

  // Slave s can be granted a request: no grant to it is transferring, its register is empty or
  // its slave takes the request in it this cycle (so it is empty in the transfer's cycle), and
  // its order FIFO has room. A slave therefore takes at most one request every two cycles;
  // different slaves overlap. (The slave's ready reaches only the grant's flops: every output
  // of this module comes from flops or from a decode of them.)
  logic [NS-1:0] room;
  always_comb begin
    for (int s = 0; s < NS; s++) begin
      room[s] = (!rq_valid_q[s] || s_req_ready_i[s]) && !pg_s_oh_q[s] && fifo_ready[s];
    end
  end

  logic [NM-1:0] cand;
  always_comb begin
    for (int m = 0; m < NM; m++) begin
      logic [SW-1:0] t;
      logic [CW-1:0] c;
      t       = sel[m*SW +: SW];
      c       = cnt_q[m*CW +: CW];
      cand[m] = valid[m] && (32'(t) < NS) && room[t] && !pg_m_oh_q[m] &&
                ((c == '0) || ((cur_q[m*SW +: SW] == t) && (c != MAX_OUT)));
    end
  end

  logic          q_any;
  logic [MW-1:0] q_pick, q_last_q;

  xdie_rr_arbiter #(.N(NM), .SELECT(1'b1)) u_req_arb (
    .req_i(cand), .last_i(q_last_q), .valid_o(q_any), .idx_o(q_pick)
  );

  // The picked master's slave.
  logic [SW-1:0] q_sel;
  always_comb begin
    q_sel = '0;
    for (int m = 0; m < NM; m++) begin
      if (32'(q_pick) == m) begin
        q_sel = sel[m*SW +: SW];
      end
    end
  end

  // ---------------------------------------------------------------- request transfer
  logic [NS-1:0] x_load;
  assign x_load = pg_s_oh_q;

  // The one request multiplexer, selected by a flop.
  logic [ADDR_W-1:0]     x_addr;
  logic [DW-1:0]         x_wdata;
  logic [DATA_BYTES-1:0] x_wstrb;
  logic                  x_write;
  always_comb begin
    x_addr  = '0;
    x_wdata = '0;
    x_wstrb = '0;
    x_write = 1'b0;
    for (int m = 0; m < NM; m++) begin
      if (32'(pg_m_q) == m) begin
        x_addr  = addr[m*ADDR_W +: ADDR_W];
        x_wdata = wdata[m*DW +: DW];
        x_wstrb = wstrb[m*DATA_BYTES +: DATA_BYTES];
        x_write = write[m];
      end
    end
  end

  for (genvar s = 0; s < NS; s++) begin : g_rq
    logic [ADDR_W-1:0]     addr_q;
    logic [DW-1:0]         wdata_q;
    logic [DATA_BYTES-1:0] wstrb_q;
    // Data registers without reset, loaded from the multiplexer in every cycle their slave's
    // register is empty (the transfer's cycle is one of them; the slave reads them only with
    // the valid), so their enable is a flop, not the grant.
    always_ff @(posedge clk_i) begin
      if (!rq_valid_q[s]) begin
        addr_q        <= x_addr;
        wdata_q       <= x_wdata;
        wstrb_q       <= x_wstrb;
        rq_write_q[s] <= x_write;
      end
    end
    assign `XDIE_PORT(s_req_addr_o, s, ADDR_W)      = addr_q;
    assign `XDIE_PORT(s_req_wdata_o, s, DW)         = wdata_q;
    assign `XDIE_PORT(s_req_wstrb_o, s, DATA_BYTES) = wstrb_q;
  end
  assign s_req_valid_o = rq_valid_q;
  assign s_req_write_o = rq_write_q;

  // ---------------------------------------------------------------- response order per slave
  // Per slave, a FIFO of its requests' masters (LUT-RAM) and, in flops, its head as a one-hot
  // vector of masters (zero when empty): the response arbitration starts at flops, not at a
  // RAM read and a lookup by master index.
  logic [NS*NM-1:0] head_oh;
  logic [NS-1:0]    r_take;   // slave s's response moves into its master's register

  for (genvar s = 0; s < NS; s++) begin : g_order
    logic [MW-1:0] ids_q [OUTSTANDING];
    logic [PW-1:0] wptr_q, rptr_q, rnext;
    logic [CW-1:0] count_q;
    logic [NM-1:0] next_oh, oh_q;
    logic          push, pop;

    assign push          = x_load[s];
    assign pop           = r_take[s];
    assign fifo_ready[s] = (count_q != MAX_OUT);
    assign rnext         = (rptr_q == LAST) ? '0 : rptr_q + 1'b1;
    always_comb begin
      for (int m = 0; m < NM; m++) begin
        next_oh[m] = 32'(ids_q[rnext]) == m;
      end
    end

    always_ff @(posedge clk_i) begin
      if (push) begin
        ids_q[wptr_q] <= pg_m_q;
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        wptr_q  <= '0;
        rptr_q  <= '0;
        count_q <= '0;
        oh_q    <= '0;
      end else begin
        if (push) begin
          wptr_q <= (wptr_q == LAST) ? '0 : wptr_q + 1'b1;
        end
        if (pop) begin
          rptr_q <= rnext;
        end
        if (push && !pop) begin
          count_q <= count_q + 1'b1;
        end else if (pop && !push) begin
          count_q <= count_q - 1'b1;
        end
        // The head after a pop is the next entry, or the one pushed now, or none; a push
        // into an empty FIFO is the head.
        if (pop) begin
          oh_q <= (count_q != CW'(1)) ? next_oh : (push ? pg_m_oh_q : '0);
        end else if (push && count_q == '0) begin
          oh_q <= pg_m_oh_q;
        end
      end
    end
    assign head_oh[s*NM +: NM] = oh_q;
  end

  // ---------------------------------------------------------------- response arbitration
  // As for requests, cycle t picks a slave (the grant) and cycle t+1 moves its response (the
  // transfer): the slave sees ready then, and its master's register loads. The grant decides
  // from flops and the masters' readies only, and the transfer is unconditional, so the wide
  // response path's select and enables are flops too.
  logic [NM-1:0]   rs_valid_q;
  logic [NM*2-1:0] rs_err_q;
  // The grant made last cycle, which transfers in this one: its slave as an index (the wide
  // multiplexer's select, the round robin's last pick) and as a one-hot vector, zero without a
  // grant, in flops of its own (as for requests).
  logic [SW-1:0]   rg_s_q;
  logic [NS-1:0]   rg_oh_q;

  // The transfer: from slave rg_s_q (its FIFO head is still the response's master) to that
  // master.
  logic [NM-1:0] r_load;
  always_comb begin
    r_take = rg_oh_q;
    r_load = '0;
    for (int s = 0; s < NS; s++) begin
      if (r_take[s]) begin
        r_load = head_oh[s*NM +: NM];
      end
    end
  end
  assign s_rsp_ready_o = r_take;

  // Slave s can be granted: it presents a response, no transfer from it is under way, and its
  // head's master has a register that is empty or is read in this cycle (so it is empty in the
  // transfer's cycle). A master's requests in flight are all at one slave (the
  // one-slave-at-a-time rule; its count falls to zero only when every response has reached
  // it), so only the transferring slave's head can be the transfer's master: excluding that
  // slave also keeps a second response from being granted to the master before the first
  // lands. A master therefore receives at most one response every two cycles; different
  // masters overlap.
  logic [NM-1:0] m_ok;
  logic [NS-1:0] r_cand;
  assign m_ok = ~rs_valid_q | m_rsp_ready_i;
  always_comb begin
    for (int s = 0; s < NS; s++) begin
      r_cand[s] = s_rsp_valid_i[s] && !r_take[s] && ((head_oh[s*NM +: NM] & m_ok) != '0);
    end
  end

  logic          r_any;
  logic [SW-1:0] r_pick;

  xdie_rr_arbiter #(.N(NS), .SELECT(1'b1)) u_rsp_arb (
    .req_i(r_cand), .last_i(rg_s_q), .valid_o(r_any), .idx_o(r_pick)
  );

  // The one response multiplexer, selected by a flop: the transferring slave's data, loaded into
  // every reading master's register that is empty (the transfer's master's is; the others'
  // contents are not valid), so the data registers' enables are flops.
  logic [DW-1:0] r_rdata;
  logic [1:0]    r_err;
  always_comb begin
    r_rdata = '0;
    r_err   = '0;
    for (int s = 0; s < NS; s++) begin
      if (32'(rg_s_q) == s) begin
        r_rdata = `XDIE_PORT(s_rsp_rdata_i, s, DW);
        r_err   = s_rsp_err_i[s*2 +: 2];
      end
    end
  end

  for (genvar m = 0; m < NM; m++) begin : g_rs
    if (READERS[m]) begin : g_reader
      logic [DW-1:0] rdata_q;
      always_ff @(posedge clk_i) begin
        if (!rs_valid_q[m]) begin
          rdata_q <= r_rdata;
        end
      end
      assign `XDIE_PORT(m_rsp_rdata_o, m, DW) = rdata_q;
    end else begin : g_writer
      assign `XDIE_PORT(m_rsp_rdata_o, m, DW) = '0;
    end
  end
  assign m_rsp_valid_o = rs_valid_q;
  assign m_rsp_err_o   = rs_err_q;

  // ---------------------------------------------------------------- state
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rq_valid_q <= '0;
      pg_m_q     <= '0;
      pg_s_q     <= '0;
      pg_m_oh_q  <= '0;
      pg_s_oh_q  <= '0;
      rs_valid_q <= '0;
      rs_err_q   <= '0;
      rg_s_q     <= '0;
      rg_oh_q    <= '0;
      cnt_q      <= '0;
      cur_q      <= '0;
      q_last_q   <= '0;
    end else begin
      for (int m = 0; m < NM; m++) begin
        pg_m_oh_q[m] <= q_any && 32'(q_pick) == m;
      end
      for (int s = 0; s < NS; s++) begin
        pg_s_oh_q[s] <= q_any && 32'(q_sel) == s;
      end
      if (q_any) begin
        pg_m_q   <= q_pick;
        pg_s_q   <= q_sel;
        q_last_q <= q_pick;
      end
      for (int s = 0; s < NS; s++) begin
        if (x_load[s]) begin
          rq_valid_q[s] <= 1'b1;
        end else if (s_req_ready_i[s]) begin
          rq_valid_q[s] <= 1'b0;
        end
      end
      for (int m = 0; m < NM; m++) begin
        if (!rs_valid_q[m]) begin
          rs_err_q[m*2 +: 2] <= r_err;
        end
        if (r_load[m]) begin
          rs_valid_q[m] <= 1'b1;
        end else if (m_rsp_ready_i[m]) begin
          rs_valid_q[m] <= 1'b0;
        end
        // pg_m_oh_q: master m's request transfers in this cycle.
        cnt_q[m*CW +: CW] <= cnt_q[m*CW +: CW] + CW'(pg_m_oh_q[m]) -
                             CW'(rs_valid_q[m] && m_rsp_ready_i[m]);
        if (pg_m_oh_q[m]) begin
          cur_q[m*SW +: SW] <= pg_s_q;
        end
      end
      for (int s = 0; s < NS; s++) begin
        rg_oh_q[s] <= r_any && 32'(r_pick) == s;
      end
      if (r_any) begin
        rg_s_q <= r_pick;
      end
    end
  end

endmodule
