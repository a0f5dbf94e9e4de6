// xbus crossbar: NM masters, NS slaves, single-beat pipelined in-order requests.
//
// Each master names its target slave with m_sel_i alongside req_valid. Every slave arbitrates
// round-robin among the masters that may issue to it and accepts at most one request per cycle;
// different slaves accept in parallel. A grant offered to a slave is held until that slave
// accepts it, so the request a slave sees never changes while it is pending.
//
// A master may have requests outstanding at one slave only: a request to another slave waits
// until every response of the current one has come back. That keeps each master's responses
// in order without reordering buffers and means only one slave ever answers a given master,
// so response routing needs no arbitration. Per slave, a FIFO of master ids (depth
// OUTSTANDING) routes the in-order responses back; each master also has at most OUTSTANDING
// requests in flight.

module xdie_xbar #(
  parameter int unsigned NM          = 3,
  parameter int unsigned NS          = 3,
  parameter int unsigned DW          = xdie_soc_addr_pkg::P_DATA_BYTES,
  parameter int unsigned AW          = xdie_soc_addr_pkg::SOC_ADDR_W,
  parameter int unsigned OUTSTANDING = 4,
  localparam int unsigned SW         = (NS > 1) ? $clog2(NS) : 1
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // masters
  input  logic [NM-1:0]     m_req_valid_i,
  output logic [NM-1:0]     m_req_ready_o,
  input  logic [NM-1:0]     m_req_write_i,
  input  logic [NM*AW-1:0]  m_req_addr_i,
  input  logic [NM*DW*8-1:0] m_req_wdata_i,
  input  logic [NM*DW-1:0]  m_req_wstrb_i,
  input  logic [NM*SW-1:0]  m_sel_i,
  output logic [NM-1:0]     m_rsp_valid_o,
  input  logic [NM-1:0]     m_rsp_ready_i,
  output logic [NM*DW*8-1:0] m_rsp_rdata_o,
  output logic [NM*2-1:0]   m_rsp_err_o,
  // slaves
  output logic [NS-1:0]     s_req_valid_o,
  input  logic [NS-1:0]     s_req_ready_i,
  output logic [NS-1:0]     s_req_write_o,
  output logic [NS*AW-1:0]  s_req_addr_o,
  output logic [NS*DW*8-1:0] s_req_wdata_o,
  output logic [NS*DW-1:0]  s_req_wstrb_o,
  input  logic [NS-1:0]     s_rsp_valid_i,
  output logic [NS-1:0]     s_rsp_ready_o,
  input  logic [NS*DW*8-1:0] s_rsp_rdata_i,
  input  logic [NS*2-1:0]   s_rsp_err_i
);

  localparam int unsigned MW = (NM > 1) ? $clog2(NM) : 1;
  localparam int unsigned CW = $clog2(OUTSTANDING + 1);
  localparam int unsigned PW = (OUTSTANDING > 1) ? $clog2(OUTSTANDING) : 1;
  localparam logic [CW-1:0] MAX_OUT = CW'(OUTSTANDING);
  localparam logic [PW-1:0] LAST_SLOT = PW'(OUTSTANDING - 1);

  // ---------------------------------------------------------------- per-master issue state
  logic [NM*CW-1:0] cnt_q, cnt_d;
  logic [NM*SW-1:0] cur_q, cur_d;
  // May master m issue its current request (to the slave it names) this cycle?
  logic [NM-1:0]    may_issue;

  always_comb begin
    for (int unsigned m = 0; m < NM; m++) begin
      may_issue[m] = m_req_valid_i[m] &&
          ((cnt_q[m*CW +: CW] == '0) ||
           ((cur_q[m*SW +: SW] == m_sel_i[m*SW +: SW]) && (cnt_q[m*CW +: CW] != MAX_OUT)));
    end
  end

  // ---------------------------------------------------------------- per-slave arbitration
  logic [NS-1:0]    lock_q, lock_d;     // a grant is offered and not yet accepted
  logic [NS*MW-1:0] lock_id_q, lock_id_d;
  logic [NS*MW-1:0] last_q, last_d;     // round-robin: the master granted last
  logic [NS*MW-1:0] gnt_id;
  logic [NS-1:0]    gnt_any;
  logic [NS-1:0]    fifo_full, fifo_empty;
  logic [NS-1:0]    s_acc;              // slave s accepts a request this cycle

  always_comb begin
    for (int unsigned s = 0; s < NS; s++) begin
      logic found;
      found = 1'b0;
      gnt_id[s*MW +: MW] = '0;
      if (lock_q[s]) begin
        found = 1'b1;
        gnt_id[s*MW +: MW] = lock_id_q[s*MW +: MW];
      end
      // Two passes give round-robin order: masters after the last grant, then from 0.
      for (int unsigned m = 0; m < NM; m++) begin
        if (!found && may_issue[m] && (m_sel_i[m*SW +: SW] == SW'(s)) &&
            (MW'(m) > last_q[s*MW +: MW])) begin
          found = 1'b1;
          gnt_id[s*MW +: MW] = MW'(m);
        end
      end
      for (int unsigned m = 0; m < NM; m++) begin
        if (!found && may_issue[m] && (m_sel_i[m*SW +: SW] == SW'(s))) begin
          found = 1'b1;
          gnt_id[s*MW +: MW] = MW'(m);
        end
      end
      gnt_any[s] = found && !fifo_full[s];
    end
  end

  always_comb begin
    s_req_valid_o = '0;
    s_req_write_o = '0;
    s_req_addr_o  = '0;
    s_req_wdata_o = '0;
    s_req_wstrb_o = '0;
    lock_d        = lock_q;
    lock_id_d     = lock_id_q;
    last_d        = last_q;
    for (int unsigned s = 0; s < NS; s++) begin
      logic [MW-1:0] g;
      g = gnt_id[s*MW +: MW];
      // Select by comparison, not by a variable part-select: yosys builds a shifter for those.
      for (int unsigned m = 0; m < NM; m++) begin
        if (g == MW'(m)) begin
          s_req_write_o[s]              = m_req_write_i[m];
          s_req_addr_o[s*AW +: AW]      = m_req_addr_i[m*AW +: AW];
          s_req_wdata_o[s*DW*8 +: DW*8] = m_req_wdata_i[m*DW*8 +: DW*8];
          s_req_wstrb_o[s*DW +: DW]     = m_req_wstrb_i[m*DW +: DW];
        end
      end
      s_req_valid_o[s]      = gnt_any[s];
      s_acc[s]              = gnt_any[s] && s_req_ready_i[s];
      lock_d[s]             = gnt_any[s] && !s_req_ready_i[s];
      lock_id_d[s*MW +: MW] = g;
      if (s_acc[s]) begin
        last_d[s*MW +: MW] = g;
      end
    end
  end

  always_comb begin
    m_req_ready_o = '0;
    for (int unsigned s = 0; s < NS; s++) begin
      for (int unsigned m = 0; m < NM; m++) begin
        if (s_acc[s] && (gnt_id[s*MW +: MW] == MW'(m))) begin
          m_req_ready_o[m] = 1'b1;
        end
      end
    end
  end

  // ---------------------------------------------------------------- response routing
  logic [NS*OUTSTANDING*MW-1:0] fifo_q, fifo_d;
  logic [NS*PW-1:0]             wptr_q, wptr_d, rptr_q, rptr_d;
  logic [NS*CW-1:0]             fcnt_q, fcnt_d;
  logic [NS*MW-1:0]             head_id;
  logic [NS-1:0]                s_pop;

  always_comb begin
    for (int unsigned s = 0; s < NS; s++) begin
      fifo_empty[s] = (fcnt_q[s*CW +: CW] == '0);
      fifo_full[s]  = (fcnt_q[s*CW +: CW] == MAX_OUT);
      head_id[s*MW +: MW] = '0;
      for (int unsigned k = 0; k < OUTSTANDING; k++) begin
        if (rptr_q[s*PW +: PW] == PW'(k)) begin
          head_id[s*MW +: MW] = fifo_q[(s*OUTSTANDING + k)*MW +: MW];
        end
      end
      s_rsp_ready_o[s] = 1'b0;
      for (int unsigned m = 0; m < NM; m++) begin
        if (!fifo_empty[s] && (head_id[s*MW +: MW] == MW'(m))) begin
          s_rsp_ready_o[s] = m_rsp_ready_i[m];
        end
      end
      s_pop[s] = s_rsp_valid_i[s] && s_rsp_ready_o[s];
    end
  end

  // A master's responses come from the one slave holding its requests; OR-ing is exact.
  always_comb begin
    m_rsp_valid_o = '0;
    m_rsp_err_o   = '0;
    // Per master: a '0 over NM*DW*8 bits is an over-8k replication to Verilator -Wall.
    for (int unsigned m = 0; m < NM; m++) begin
      m_rsp_rdata_o[m*DW*8 +: DW*8] = '0;
    end
    for (int unsigned s = 0; s < NS; s++) begin
      logic [MW-1:0] h;
      h = head_id[s*MW +: MW];
      for (int unsigned m = 0; m < NM; m++) begin
        if (s_rsp_valid_i[s] && !fifo_empty[s] && (h == MW'(m))) begin
          m_rsp_valid_o[m]              = 1'b1;
          m_rsp_rdata_o[m*DW*8 +: DW*8] = m_rsp_rdata_o[m*DW*8 +: DW*8] |
                                          s_rsp_rdata_i[s*DW*8 +: DW*8];
          m_rsp_err_o[m*2 +: 2]         = m_rsp_err_o[m*2 +: 2] | s_rsp_err_i[s*2 +: 2];
        end
      end
    end
  end

  always_comb begin
    fifo_d = fifo_q;
    wptr_d = wptr_q;
    rptr_d = rptr_q;
    fcnt_d = fcnt_q;
    for (int unsigned s = 0; s < NS; s++) begin
      if (s_acc[s]) begin
        for (int unsigned k = 0; k < OUTSTANDING; k++) begin
          if (wptr_q[s*PW +: PW] == PW'(k)) begin
            fifo_d[(s*OUTSTANDING + k)*MW +: MW] = gnt_id[s*MW +: MW];
          end
        end
        wptr_d[s*PW +: PW] = (wptr_q[s*PW +: PW] == LAST_SLOT) ? '0 : wptr_q[s*PW +: PW] + 1'b1;
      end
      if (s_pop[s]) begin
        rptr_d[s*PW +: PW] = (rptr_q[s*PW +: PW] == LAST_SLOT) ? '0 : rptr_q[s*PW +: PW] + 1'b1;
      end
      fcnt_d[s*CW +: CW] = fcnt_q[s*CW +: CW] + CW'(s_acc[s]) - CW'(s_pop[s]);
    end
  end

  // ---------------------------------------------------------------- per-master counts
  always_comb begin
    cnt_d = cnt_q;
    cur_d = cur_q;
    for (int unsigned m = 0; m < NM; m++) begin
      logic acc;
      acc = m_req_valid_i[m] && m_req_ready_o[m];
      if (acc) begin
        cur_d[m*SW +: SW] = m_sel_i[m*SW +: SW];
      end
      cnt_d[m*CW +: CW] = cnt_q[m*CW +: CW] + CW'(acc) -
                          CW'(m_rsp_valid_o[m] && m_rsp_ready_i[m]);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q     <= '0;
      cur_q     <= '0;
      lock_q    <= '0;
      lock_id_q <= '0;
      last_q    <= '0;
      fifo_q    <= '0;
      wptr_q    <= '0;
      rptr_q    <= '0;
      fcnt_q    <= '0;
    end else begin
      cnt_q     <= cnt_d;
      cur_q     <= cur_d;
      lock_q    <= lock_d;
      lock_id_q <= lock_id_d;
      last_q    <= last_d;
      fifo_q    <= fifo_d;
      wptr_q    <= wptr_d;
      rptr_q    <= rptr_d;
      fcnt_q    <= fcnt_d;
    end
  end

endmodule
