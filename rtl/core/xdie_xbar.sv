// xbus crossbar: NM masters, NS slaves, single-beat pipelined in-order requests.
//
// Each master names its target slave with m_sel_i alongside req_valid, as bit planes: bit b of
// master m's slave index is m_sel_i[b*NM + m] (see "Bit planes" below). Every slave arbitrates
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
//
// Bit planes: the per-master state (the slave a master's requests are at, its count of requests
// in flight) is kept as bit planes too, plane b holding bit b of every master's value in one
// NM-bit word. The issue rule, the per-slave request vectors and the counters are then a few
// word-wide operations (bit-sliced arithmetic) instead of a loop over the masters with an
// indexed slice per master: a simulator evaluates all of this every cycle, for every master,
// busy or not, and NM is 37 in a die. The hardware is the same either way (the planes are just
// an ordering of the same flops and gates).
//
// The wide per-port fields (address, write data, strobes, read data) hold one element per port.
// By default each is one flat vector, port i's field at [i*W +: W], which every tool reads. With
// XDIE_UNPACKED_PORTS defined they are unpacked arrays ([N]), for simulation: Verilator keeps
// the elements apart, where a flat vector driven piece by piece from other modules' ports is
// rebuilt whole, as nested concatenations, every cycle (34 masters x 256 bits in a die). yosys
// reads neither unpacked ports nor (Debian's 0.23) multi-dimensional packed ones, hence the
// choice. The two macros below declare such a field and select one element of it in either form;
// xdie_die, which wires the crossbar, uses them too (it is compiled after this file).
`ifndef XDIE_PORT_ARRAY
`ifdef XDIE_UNPACKED_PORTS
`define XDIE_PORT_ARRAY(W, NAME, N) logic [(W)-1:0] NAME [N]
`define XDIE_PORT(NAME, I, W) NAME[I]
`else
`define XDIE_PORT_ARRAY(W, NAME, N) logic [(N)*(W)-1:0] NAME
`define XDIE_PORT(NAME, I, W) NAME[(I)*(W) +: (W)]
`endif
`endif

module xdie_xbar #(
  parameter int unsigned NM          = 3,
  parameter int unsigned NS          = 3,
  parameter int unsigned OUTSTANDING = 4,
  // Masters that read: only these get response data (a write-only master's is zero).
  parameter logic [NM-1:0] READERS   = '1,
  // Slaves that take writes: the others (a read-only slave) get zero write data and strobes,
  // which a simulator does not copy each cycle.
  parameter logic [NS-1:0] WRITTEN   = '1,
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
  input  logic [SW*NM-1:0]  m_sel_i,        // bit planes: [b*NM + m] is bit b of master m's
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
  // wide fields, one element per port (see above)
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
    $error("xdie_xbar: NM, NS and OUTSTANDING must be at least 1");
  end

  localparam int unsigned MW = (NM > 1) ? $clog2(NM) : 1;
  localparam int unsigned CW = $clog2(OUTSTANDING + 1);
  localparam logic [CW-1:0] MAX_OUT = CW'(OUTSTANDING);

  // ---------------------------------------------------------------- per-master issue state
  // Bit planes (see the header): cur_q[b*NM + m] is bit b of the slave master m issued to last,
  // cnt_q[b*NM + m] bit b of its count of requests in flight.
  logic [SW*NM-1:0] cur_q, cur_d;
  logic [CW*NM-1:0] cnt_q, cnt_d;
  // Per master: no request in flight; OUTSTANDING in flight; the request names the slave of
  // those in flight.
  logic [NM-1:0]    idle_m, full_m, same_m;
  // May master m issue its current request (to the slave it names) this cycle?
  logic [NM-1:0]    may_issue;

  always_comb begin
    idle_m = '1;
    full_m = '1;
    same_m = '1;
    for (int unsigned b = 0; b < CW; b++) begin
      idle_m = idle_m & ~cnt_q[b*NM +: NM];
      full_m = full_m & (MAX_OUT[b] ? cnt_q[b*NM +: NM] : ~cnt_q[b*NM +: NM]);
    end
    for (int unsigned b = 0; b < SW; b++) begin
      same_m = same_m & ~(cur_q[b*NM +: NM] ^ m_sel_i[b*NM +: NM]);
    end
    may_issue = m_req_valid_i & (idle_m | (same_m & ~full_m));
  end

  // ---------------------------------------------------------------- per-slave arbitration
  logic [NS-1:0]    lock_q, lock_d;     // a grant is offered and not yet accepted
  logic [NS*MW-1:0] lock_id_q, lock_id_d;
  logic [NS*MW-1:0] last_q, last_d;     // round-robin: the master granted last
  logic [NS*MW-1:0] gnt_id;
  logic [NS-1:0]    gnt_any;
  logic [NS-1:0]    fifo_full, fifo_empty;
  logic [NS-1:0]    s_acc;              // slave s accepts a request this cycle

  for (genvar s = 0; s < NS; s++) begin : g_arb
    logic [NM-1:0] req;                  // the masters that may issue to slave s
    logic          pick_valid;
    logic [MW-1:0] pick;
    // Masters whose slave index has every bit of s: one word operation per index bit.
    always_comb begin
      req = may_issue;
      for (int unsigned b = 0; b < SW; b++) begin
        req = req & (((s >> b) & 1) != 0 ? m_sel_i[b*NM +: NM] : ~m_sel_i[b*NM +: NM]);
      end
    end
    xdie_rr_arbiter #(.N(NM)) u_arb (
      .req_i(req), .last_i(last_q[s*MW +: MW]), .valid_o(pick_valid), .idx_o(pick)
    );
    // A grant offered and not yet taken stays with its master.
    assign gnt_id[s*MW +: MW] = lock_q[s] ? lock_id_q[s*MW +: MW] : pick;
    assign gnt_any[s]         = (lock_q[s] || pick_valid) && !fifo_full[s];
  end

  // The granted master's request goes to each slave.
  for (genvar s = 0; s < NS; s++) begin : g_req
    logic [MW-1:0] g;
    assign g                = gnt_id[s*MW +: MW];
    assign s_req_write_o[s] = gnt_any[s] && m_req_write_i[g];
    assign `XDIE_PORT(s_req_addr_o, s, ADDR_W) =
        gnt_any[s] ? `XDIE_PORT(m_req_addr_i, g, ADDR_W) : '0;
    if (WRITTEN[s]) begin : g_written
      assign `XDIE_PORT(s_req_wdata_o, s, DATA_BYTES*8) =
          gnt_any[s] ? `XDIE_PORT(m_req_wdata_i, g, DATA_BYTES*8) : '0;
      assign `XDIE_PORT(s_req_wstrb_o, s, DATA_BYTES) =
          gnt_any[s] ? `XDIE_PORT(m_req_wstrb_i, g, DATA_BYTES) : '0;
    end else begin : g_read_only
      assign `XDIE_PORT(s_req_wdata_o, s, DATA_BYTES*8) = '0;
      assign `XDIE_PORT(s_req_wstrb_o, s, DATA_BYTES)   = '0;
    end
  end

  always_comb begin
    lock_d        = lock_q;
    lock_id_d     = lock_id_q;
    last_d        = last_q;
    m_req_ready_o = '0;
    for (int unsigned s = 0; s < NS; s++) begin
      logic [MW-1:0] g;
      g = gnt_id[s*MW +: MW];
      s_req_valid_o[s]      = gnt_any[s];
      s_acc[s]              = gnt_any[s] && s_req_ready_i[s];
      lock_d[s]             = gnt_any[s] && !s_req_ready_i[s];
      lock_id_d[s*MW +: MW] = g;
      if (s_acc[s]) begin
        last_d[s*MW +: MW] = g;
        m_req_ready_o      = m_req_ready_o | (NM'(1) << g);
      end
    end
  end

  // ---------------------------------------------------------------- response routing
  // Per slave, the masters of its requests in flight, in order: the head owns its next response.
  logic [NS*MW-1:0] head_id;
  logic [NS-1:0]    s_pop, fifo_ready, fifo_valid;

  for (genvar s = 0; s < NS; s++) begin : g_order
    xdie_fifo #(.DATA_W(MW), .DEPTH(OUTSTANDING)) u_order (
      .clk_i, .rst_ni,
      .push_valid_i(s_acc[s]), .push_ready_o(fifo_ready[s]), .push_data_i(gnt_id[s*MW +: MW]),
      .pop_valid_o(fifo_valid[s]), .pop_ready_i(s_pop[s]), .pop_data_o(head_id[s*MW +: MW])
    );
  end
  assign fifo_full  = ~fifo_ready;
  assign fifo_empty = ~fifo_valid;

  // The head of a slave's FIFO has requests in flight there, so that slave is its current one:
  // each slave's response goes to its head master, one pass over the slaves.
  always_comb begin
    m_rsp_valid_o = '0;
    m_rsp_err_o   = '0;
    for (int unsigned s = 0; s < NS; s++) begin
      s_rsp_ready_o[s] = !fifo_empty[s] && m_rsp_ready_i[head_id[s*MW +: MW]];
      s_pop[s]         = s_rsp_valid_i[s] && s_rsp_ready_o[s];
      if (s_rsp_valid_i[s] && !fifo_empty[s]) begin
        m_rsp_valid_o                           = m_rsp_valid_o | (NM'(1) << head_id[s*MW +: MW]);
        m_rsp_err_o[head_id[s*MW +: MW]*2 +: 2] = s_rsp_err_i[s*2 +: 2];
      end
    end
  end

  // A master's requests in flight are all at the slave it issued to last (cur_q), so its
  // response data comes from there, whether or not a response is valid (a master reads data
  // only with valid). Only the masters that read (READERS) get it: a write-only master's data
  // is a constant zero, which a simulator does not copy each cycle.
  for (genvar m = 0; m < NM; m++) begin : g_rdata
    if (READERS[m]) begin : g_reader
      logic [SW-1:0] c;
      for (genvar b = 0; b < SW; b++) begin : g_bit
        assign c[b] = cur_q[b*NM + m];
      end
      assign `XDIE_PORT(m_rsp_rdata_o, m, DATA_BYTES*8) =
          (32'(c) < NS) ? `XDIE_PORT(s_rsp_rdata_i, c, DATA_BYTES*8) : '0;
    end else begin : g_writer
      assign `XDIE_PORT(m_rsp_rdata_o, m, DATA_BYTES*8) = '0;
    end
  end

  // ---------------------------------------------------------------- per-master counts
  // Bit-sliced: every master's count moves by +1 (a request accepted), -1 (a response taken) or
  // not at all, as a ripple of carry (borrow) words through the planes.
  always_comb begin
    logic [NM-1:0] acc, done, carry, borrow;
    acc    = m_req_valid_i & m_req_ready_o;
    done   = m_rsp_valid_o & m_rsp_ready_i;
    carry  = acc & ~done;
    borrow = done & ~acc;
    for (int unsigned b = 0; b < CW; b++) begin
      cnt_d[b*NM +: NM] = cnt_q[b*NM +: NM] ^ carry ^ borrow;
      carry             = carry & cnt_q[b*NM +: NM];
      borrow            = borrow & ~cnt_q[b*NM +: NM];
    end
    for (int unsigned b = 0; b < SW; b++) begin
      cur_d[b*NM +: NM] = (acc & m_sel_i[b*NM +: NM]) | (~acc & cur_q[b*NM +: NM]);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q     <= '0;
      cur_q     <= '0;
      lock_q    <= '0;
      lock_id_q <= '0;
      last_q    <= '0;
    end else begin
      cnt_q     <= cnt_d;
      cur_q     <= cur_d;
      lock_q    <= lock_d;
      lock_id_q <= lock_id_d;
      last_q    <= last_d;
    end
  end

endmodule
