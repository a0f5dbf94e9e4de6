{%- import "sv/regs.sv" as regs -%}
// {{ header }}
//
// {{ side }} UDMA queue group `{{ block }}`: {{ nq }} descriptor-ring queues behind one AXI4-Lite
// slave, plus the engine error log.
//
// Per queue: RW storage (configuration, ring base, ring length); a tail that software advances
// through the doorbell register and a head that the engine advances, one descriptor per
// hw_head_inc_i pulse. Each pointer wraps modulo the ring length, and its ring id steps (modulo
// the ring-id width) on every wrap. `used` counts descriptors posted and not yet consumed.
//
// Doorbell: a write of N (and/or a broadcast increment of M to the same queue in the same cycle)
// posts N+M descriptors. A sum of 0 does nothing. A sum that would make used exceed the ring
// length is refused whole: the tail does not move, the queue's sticky overrun flag and the
// err_log overrun bit are set. The check ignores a head pulse in the same cycle, so it never
// depends on the engine's timing. A head pulse while used is 0 is ignored. An increment lands
// (tail, used count, overrun) one cycle after it is presented (see "doorbell lanes"), checked
// against the ring length of the cycle it was presented in; a read the bus issues before the
// write's response can still see the state before it, as AXI allows.
//
// Software resets (write 1, read 0): rst_q returns every register of the queue, configuration
// included, to its reset value. rst_tail and rst_head return their pointer to 0 and its ring id to
// the initial ring id, and both empty the queue (used = 0), because after either one the pointers
// no longer bracket a posted set; rst_tail also clears the overrun flag. A reset wins over a
// doorbell, broadcast or head pulse presented for that queue in the same cycle (those are
// dropped); an increment presented in the cycle before lands first.
// Software resets head and tail together (or uses rst_q) before reprogramming a ring.
//
// Storage. The per-queue registers are memories indexed by queue, written only at the index a
// cycle touches (bus, broadcast, head pulse), so an FPGA maps them to LUT-RAM and a simulator
// does no work for queues nobody touches. Memories have no reset: a valid bit per queue and
// configuration register (cleared by reset and rst_q, set by the first write) makes an unwritten
// entry read its reset value. Each memory has one writer: the tail, used count and head, which
// up to three sources change in one cycle, are kept in a bank per source with a flop per queue
// naming the bank that holds the latest value (see "queue state"). The enable, nonempty and
// overrun bits are flops (the engine sees the first two for every queue at once).
//
// The engine sees two bit vectors in parallel (q_enable_o, q_nonempty_o: enough to pick a
// queue) and reads one queue's ring base, head and head ring id through a read port it
// addresses (rd_idx_i). It pulses at most one queue's head per cycle.
//
// Bus timing: the front-end waits one cycle for the answer (xdie_axil_regif RD_WAIT). A read
// loads the addressed queue's stored values into flops in its first cycle; the second cycle
// forms the word (status's full compare, the register multiplexer) from those flops, so no path
// runs from the storage read to the read data register.

module {{ module }} (
  input  logic                  clk_i,
  input  logic                  rst_ni,
{%- call regs::axil_ports(aw, 16) %}{% endcall %}
  // Engine: one descriptor consumed from a queue's head (at most one queue per cycle)
  input  logic                  hw_head_inc_valid_i,
  input  logic [{{ qw - 1 }}:0]            hw_head_inc_idx_i,
  // Engine: a fetched descriptor's ring id differed from the head ring id
  input  logic                  hw_ring_id_err_i,
  // Broadcast doorbell
  input  logic                  bcast_inc_valid_i,
  input  logic [{{ qw - 1 }}:0]            bcast_inc_queue_i,
  input  logic [{{ iw - 1 }}:0]           bcast_inc_val_i,
  // Engine: every queue's enable bit and "holds a posted descriptor" (used != 0)
  output logic [{{ nq - 1 }}:0]           q_enable_o,
  output logic [{{ nq - 1 }}:0]           q_nonempty_o,
  // Engine read port: ring base (bits below the base address field read 0), head offset and
  // head ring id of queue rd_idx_i
  input  logic [{{ qw - 1 }}:0]            rd_idx_i,
  output logic [{{ base_w - 1 }}:0]           rd_ring_base_o,
  output logic [{{ lw - 1 }}:0]           rd_head_o,
  output logic [{{ idw - 1 }}:0]            rd_head_ring_id_o,
  // A doorbell increment is in flight: it lands at the next clock edge
  output logic                  db_pend_o
);
  localparam int unsigned NQ = {{ q_count }};
  localparam int unsigned QW = {{ qw }};
  localparam int unsigned ROW = {{ row }};
  localparam int unsigned QRW = {{ qrw }};
  localparam int unsigned LW = {{ lw_c }};
  localparam int unsigned UW = {{ uw_c }};
  localparam int unsigned IW = {{ iw_c }};
  localparam int unsigned IDW = {{ idw_c }};
  localparam int unsigned CW = {{ cw }};
  localparam logic [{{ aw }}:0] QBASE = {1'b0, {{ q_base }}};
  localparam logic [{{ aw }}:0] QEND = {1'b0, {{ q_last }}} + {{ aw + 1 }}'(1);
  localparam logic [QRW-1:0] QBASE_LOW = QRW'({{ q_base }});
  localparam logic [IDW-1:0] RING_ID_INIT = {{ ring_id_init }};

  logic                  req, req_we, req_err;
  logic [{{ aw - 1 }}:0]           req_addr, issue_addr;
  logic                   issue;
  logic [31:0]           req_wdata, req_wstrb_bits, req_rdata, wdata_m;
  logic [3:0]            req_wstrb;

  xdie_axil_regif #(
    .AW({{ aw }}),
    .RD_WAIT(1'b1)
  ) u_regif (
    .clk_i,
    .rst_ni,
    .s_awvalid_i (s_axil_awvalid_i),
    .s_awready_o (s_axil_awready_o),
    .s_awaddr_i  (s_axil_awaddr_i),
    .s_wvalid_i  (s_axil_wvalid_i),
    .s_wready_o  (s_axil_wready_o),
    .s_wdata_i   (s_axil_wdata_i),
    .s_wstrb_i   (s_axil_wstrb_i),
    .s_bvalid_o  (s_axil_bvalid_o),
    .s_bready_i  (s_axil_bready_i),
    .s_bresp_o   (s_axil_bresp_o),
    .s_arvalid_i (s_axil_arvalid_i),
    .s_arready_o (s_axil_arready_o),
    .s_araddr_i  (s_axil_araddr_i),
    .s_rvalid_o  (s_axil_rvalid_o),
    .s_rready_i  (s_axil_rready_i),
    .s_rdata_o   (s_axil_rdata_o),
    .s_rresp_o   (s_axil_rresp_o),
    .req_o       (req),
    .req_we_o    (req_we),
    .req_addr_o  (req_addr),
    .issue_o     (issue),
    .issue_addr_o(issue_addr),
    .req_wdata_o (req_wdata),
    .req_wstrb_o (req_wstrb),
    .req_rdata_i (req_rdata),
    .req_err_i   (req_err)
  );

  // Bytes without their strobe write as zero: no storage change, no doorbell, no pulse.
  assign req_wstrb_bits = { {8{req_wstrb[3]}}, {8{req_wstrb[2]}}, {8{req_wstrb[1]}}, {8{req_wstrb[0]}} };
  assign wdata_m = req_wdata & req_wstrb_bits;

  // ---------------------------------------------------------------- decode
  logic           in_q, wr, sel_we, sw_ctrl_we, rst_tail, rst_head, rst_q, any_rst;
  logic [QRW-1:0] q_rel;
  logic [QW-1:0]  q_sel;
  logic [ROW-1:0] q_off;

  // Decoded from the address being issued, one cycle ahead, and held in flops for the request's
  // cycle (timing: the request cycle starts with the queue's storage read).
  assign q_rel = issue_addr[QRW-1:0] - QBASE_LOW;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      in_q  <= 1'b0;
      q_sel <= '0;
      q_off <= '0;
    end else if (issue) begin
      in_q  <= ({1'b0, issue_addr} >= QBASE) && ({1'b0, issue_addr} < QEND);
      q_sel <= q_rel[QRW-1:ROW];
      q_off <= q_rel[ROW-1:0];
    end
  end
  assign wr    = req && req_we;

  // Only the queue the bus addresses (q_sel) can be written or reset in a cycle.
  assign sel_we     = wr && in_q;
  assign sw_ctrl_we = sel_we && (q_off == {{ off_sw_ctrl }});
  assign rst_tail   = sw_ctrl_we && wdata_m[{{ rst_tail_bit }}];
  assign rst_head   = sw_ctrl_we && wdata_m[{{ rst_head_bit }}];
  assign rst_q      = sw_ctrl_we && wdata_m[{{ rst_q_bit }}];
  assign any_rst    = rst_tail || rst_head || rst_q;

  // ---------------------------------------------------------------- queue state
  // Pointers, ring ids and used counts are memories with one writer each, so that an FPGA maps
  // them to LUT-RAM (one copy per read index) and no entry has a write select of its own:
  // - the tail and its ring id, a bank per doorbell lane (bus, broadcast);
  // - the used count, a bank per doorbell lane and one for the head pulse;
  // - the head and its ring id, written by the head pulse only.
  // A source flop per queue names the bank that holds the latest value (a live-value table) or
  // says that the value is its reset value since reset or a software reset; the head has a
  // written-since-reset bit instead. Writes of one cycle are at different queues (a broadcast to
  // the queue the bus rings joins the bus lane; a reset drops the same queue's lanes and pulse;
  // a lane that writes the pulse's queue already counts the pulse), so every write lands, and
  // the result is the same as with one flop array written in that order.
  localparam logic [1:0] SRC_RST = 2'd0, SRC_BUS = 2'd1, SRC_BC = 2'd2, SRC_POP = 2'd3;

  logic [LW-1:0]  tail_bus_m [NQ], tail_bc_m [NQ], head_m [NQ];
  logic [IDW-1:0] tail_id_bus_m [NQ], tail_id_bc_m [NQ], head_id_m [NQ];
  logic [UW-1:0]  used_bus_m [NQ], used_bc_m [NQ], used_pop_m [NQ];
  logic [1:0]     tail_src_q [NQ], used_src_q [NQ];
  // The ring length less one per queue (see ring_last), written with the length register.
  logic [LW-1:0]  len_last_m [NQ];
  logic [NQ-1:0]  head_v, overrun_q, nonempty_q, enable_q;
{%- for s in q_stores %}
  // {{ s.name }}: no reset (see above); {{ s.name }}_v marks the entries written since reset or rst_q
  logic [31:0]    {{ s.name }}_m [NQ];
  logic [NQ-1:0]  {{ s.name }}_v;
{%- endfor %}

  // Queue q's pointers and used count as the flop arrays would hold them.
  function automatic logic [LW-1:0] tail_rd(input logic [QW-1:0] q);
    unique case (tail_src_q[q])
      SRC_BUS: tail_rd = tail_bus_m[q];
      SRC_BC:  tail_rd = tail_bc_m[q];
      default: tail_rd = '0;
    endcase
  endfunction

  function automatic logic [IDW-1:0] tail_id_rd(input logic [QW-1:0] q);
    unique case (tail_src_q[q])
      SRC_BUS: tail_id_rd = tail_id_bus_m[q];
      SRC_BC:  tail_id_rd = tail_id_bc_m[q];
      default: tail_id_rd = RING_ID_INIT;
    endcase
  endfunction

  function automatic logic [UW-1:0] used_rd(input logic [QW-1:0] q);
    unique case (used_src_q[q])
      SRC_BUS: used_rd = used_bus_m[q];
      SRC_BC:  used_rd = used_bc_m[q];
      SRC_POP: used_rd = used_pop_m[q];
      default: used_rd = '0;
    endcase
  endfunction

  function automatic logic [LW-1:0] head_rd(input logic [QW-1:0] q);
    head_rd = head_v[q] ? head_m[q] : '0;
  endfunction

  function automatic logic [IDW-1:0] head_id_rd(input logic [QW-1:0] q);
    head_id_rd = head_v[q] ? head_id_m[q] : RING_ID_INIT;
  endfunction

  // A configuration register of queue q as software reads it. Bits outside the write mask keep
  // their reset value, so only the write-mask bits are read from the memory.
{%- for s in q_stores %}
  function automatic logic [31:0] {{ s.name }}_rd(input logic [QW-1:0] q);
    {{ s.name }}_rd = {{ s.name }}_v[q] ? (({{ s.name }}_m[q] & {{ s.wmask }}) | ({{ s.reset }} & ~{{ s.wmask }}))
                                        : {{ s.reset }};
  endfunction
{%- endfor %}

  function automatic logic [CW-1:0] ring_len(input logic [QW-1:0] q);
    ring_len = CW'(LW'({{ len_reg }}_rd(q) >> {{ len_lsb }}));
  endfunction

  // The ring length less one, 0 for a length of 0, of a length register's word. Kept per queue
  // beside the length (computed at the register write), so that the head pulse tests its wrap,
  // head + 1 >= len, as head >= len - 1: one carry chain after the LUT-RAM reads instead of an
  // increment and a compare in a row (timing: the pulse reads, tests and writes in one cycle).
  // The same test for every head and length, a length of 0 included.
  function automatic logic [LW-1:0] last_of(input logic [31:0] r);
    logic [LW-1:0] len;
    len     = LW'(r >> {{ len_lsb }});
    last_of = (len == '0) ? '0 : len - LW'(1);
  endfunction
{%- for s in q_stores %}
{%- if s.name == len_reg %}

  function automatic logic [LW-1:0] ring_last(input logic [QW-1:0] q);
    ring_last = {{ s.name }}_v[q] ? len_last_m[q] : last_of({{ s.reset }});
  endfunction
{%- endif %}
{%- endfor %}

  // The bus write's new value of a configuration register of the addressed queue: only the
  // write-mask bits under a strobe change.
{%- for s in q_stores %}
  function automatic logic [31:0] {{ s.name }}_wr(input logic [QW-1:0] q);
    {{ s.name }}_wr = ({{ s.name }}_rd(q) & ~({{ s.wmask }} & req_wstrb_bits)) | (wdata_m & {{ s.wmask }});
  endfunction
{%- endfor %}

  // ---------------------------------------------------------------- doorbell lanes
  // At most two queues receive an increment in a cycle: the one the bus rings (lane 0) and the
  // broadcast target (lane 1). A broadcast to the queue the bus rings in that cycle joins lane
  // 0's sum instead. The modular arithmetic exists once per lane rather than once per queue.
  //
  // Each lane has two stages (timing: the storage reads and the arithmetic are in different
  // cycles). Stage A, in the cycle the increment is presented, reads the queue's used count,
  // tail, tail ring id and ring length into the lane's operand register; what this cycle's edge
  // writes to that queue (the landing increments of stage B, the head pulse) is forwarded, so the
  // operands are the queue's state after the edge. Stage B, in the next cycle, checks for overrun
  // and computes the new tail, ring id and used count from the operand register alone, and
  // writes them. An increment therefore lands one cycle after it is presented, as if it had been
  // presented then; the head pulse of its landing cycle counts in the new used count but not in
  // the overrun check, as before. Two increments to one queue in consecutive cycles see each other
  // through the forwarding. `db_pend_o` says that an increment is in stage B (a clock gate keeps
  // the group clocked for it).
  //
  // The head pulse, the lanes' landing and the operand capture are computed by functions that
  // only the clocked processes call, into locals: they read the broadcast and engine inputs,
  // which change on the die's clock, and a simulator evaluates combinational logic whenever its
  // inputs' clock ticks, while these processes run only on the queue group's own (gated) clock
  // edges. Synthesis merges the identical copies into the logic one combinational block would
  // have.
  //
  // Results are flat vectors with named field offsets rather than structs: yosys leaves struct
  // members of a process's local variables undriven.
  //   lane (stage B): {accept, refuse, queue, new tail, new tail ring id, new used count}
  //   pop:            {live, wrap, queue, head, head ring id, used count}   (before the pulse)
  //   operands (stage A): {queue, increment, ring length, used count, tail, tail ring id}
  localparam int unsigned F_USED = 0;
  localparam int unsigned F_ID   = F_USED + UW;
  localparam int unsigned F_PTR  = F_ID + IDW;
  localparam int unsigned F_Q    = F_PTR + LW;
  localparam int unsigned F_LO   = F_Q + QW;   // lane: refuse; pop: wrap
  localparam int unsigned F_HI   = F_LO + 1;   // lane: accept; pop: live
  localparam int unsigned RES_W  = F_HI + 1;
  localparam int unsigned A_ID   = 0;
  localparam int unsigned A_PTR  = A_ID + IDW;
  localparam int unsigned A_USED = A_PTR + LW;
  localparam int unsigned A_LEN  = A_USED + UW;
  localparam int unsigned A_N    = A_LEN + LW;
  localparam int unsigned A_Q    = A_N + CW;
  localparam int unsigned A_W    = A_Q + QW;
  localparam int unsigned CW1    = CW + 1;

  logic           bus_db;
  logic [IW-1:0]  bus_val;
  // Stage A's operand register per lane (lane l at [l*A_W +: A_W]) and its valid bits.
  logic [2*A_W-1:0] a_op_q;
  logic [1:0]       a_v_q;

  assign bus_db  = sel_we && (q_off == {{ off_tail_inc }});
  assign bus_val = wdata_m{{ inc_slice }};

  // Carry-save form of x + y + z: {carries, sums}, the sum being sums + (carries << 1). A
  // compare of a sum with a third value is then one carry chain instead of two in a row.
  function automatic logic [2*CW-1:0] csa(input logic [CW-1:0] x, input logic [CW-1:0] y,
                                          input logic [CW-1:0] z);
    csa = {(x & y) | (x & z) | (y & z), x ^ y ^ z};
  endfunction

  // This cycle's head pulse at queue pop_q (pop result above).
  function automatic logic [RES_W-1:0] pulse(input logic [QW-1:0] pop_q);
    logic           live, wrap;
    logic [LW-1:0]  head;
    logic [IDW-1:0] head_id;
    logic [UW-1:0]  used;
    head    = '0;
    head_id = '0;
    used    = '0;
    wrap    = 1'b0;
    // The head pulse, unless the bus resets its queue in this cycle; a pulse on an empty queue
    // is ignored.
    live = hw_head_inc_valid_i && (32'(pop_q) < NQ) && !(any_rst && (pop_q == q_sel))
        && nonempty_q[pop_q];
    if (live) begin
      head    = head_rd(pop_q);
      head_id = head_id_rd(pop_q);
      used    = used_rd(pop_q);
      wrap    = head >= ring_last(pop_q);
    end
    pulse = {live, wrap, pop_q, head, head_id, used};
  endfunction

  // Stage A: which lanes take an increment in this cycle ({broadcast lane, bus lane}). A
  // broadcast to a queue index beyond the last queue changes nothing; a lane whose queue the
  // bus resets in this cycle is dropped, not refused; an increment of 0 does nothing.
  function automatic logic [1:0] takes();
    logic bc_same;
    bc_same = bus_db && bcast_inc_valid_i && (bcast_inc_queue_i == q_sel);
    takes = {bcast_inc_valid_i && !bc_same && (32'(bcast_inc_queue_i) < NQ)
                 && (bcast_inc_val_i != '0) && !(any_rst && (bcast_inc_queue_i == q_sel)),
             bus_db && ((bus_val != '0) || (bc_same && (bcast_inc_val_i != '0))) && !any_rst};
  endfunction

  // Stage A of a lane at queue q with increment n: its operands, as the queue stands after this
  // cycle's edge. b0, b1 and pop are this cycle's landing lanes and head pulse: a landing lane
  // at q already counts the pulse; otherwise the pulse alone changes the used count.
  function automatic logic [A_W-1:0] take(input logic [QW-1:0] q, input logic [CW-1:0] n,
                                          input logic [RES_W-1:0] pop, input logic [RES_W-1:0] b0,
                                          input logic [RES_W-1:0] b1);
    logic [UW-1:0]  used;
    logic [LW-1:0]  tail;
    logic [IDW-1:0] tail_id;
    used    = used_rd(q);
    tail    = tail_rd(q);
    tail_id = tail_id_rd(q);
    if (pop[F_HI] && (pop[F_Q +: QW] == q)) begin
      used = pop[F_USED +: UW] - UW'(1);
    end
    if (b1[F_HI] && (b1[F_Q +: QW] == q)) begin
      {tail, tail_id, used} = b1[F_USED +: LW + IDW + UW];
    end
    if (b0[F_HI] && (b0[F_Q +: QW] == q)) begin
      {tail, tail_id, used} = b0[F_USED +: LW + IDW + UW];
    end
    take = {q, n, LW'(ring_len(q)), used, tail, tail_id};
  endfunction

  // Stage B of lane l: the increment in its operand register lands. pop says whether the head
  // pulse of this cycle is at the lane's queue (the new used count includes it; the overrun
  // check does not). All three results are a carry-save sum and one carry chain:
  //   overrun   used + n > len      bit CW of used + n + ~len
  //   wrap      tail + n >= len     bit CW of tail + n + ~len + 1, whose low bits are then the
  //                                 wrapped tail
  //   new used  used + n - pop      used + n + (pop ? all ones : 0)
  // The tail stays below len and n is at most len - used when accepted, so tail + n < 2 * len
  // and one subtraction of len wraps it; used > 0 whenever the pulse is live, so the new used
  // count neither overflows nor wraps (and is not 0: an accepted lane leaves its queue
  // nonempty).
  function automatic logic [RES_W-1:0] land(input logic [A_W-1:0] a, input logic v,
                                            input logic pop);
    logic [CW-1:0]  used, n, nlen, tail, s_o, c_o, s_w, c_w, s_u, c_u;
    logic [CW1-1:0] sum_o, sum_w;
    logic           over, wrap;
    logic [LW-1:0]  new_tail, tail_sum;
    logic [IDW-1:0] new_id;
    logic [UW-1:0]  new_used;
    over     = 1'b0;
    new_tail = '0;
    new_id   = '0;
    new_used = '0;
    if (v) begin
      used     = CW'(a[A_USED +: UW]);
      n        = a[A_N +: CW];
      nlen     = CW'(a[A_LEN +: LW]);
      nlen     = ~nlen;
      tail     = CW'(a[A_PTR +: LW]);
      {c_o, s_o} = csa(used, n, nlen);
      {c_w, s_w} = csa(tail, n, nlen);
      {c_u, s_u} = csa(used, n, {CW{pop}});
      sum_o    = CW1'(s_o) + {c_o, 1'b0};
      sum_w    = CW1'(s_w) + {c_w, 1'b1};
      tail_sum = LW'(tail + n);
      over     = sum_o[CW];
      wrap     = sum_w[CW];
      new_tail = wrap ? LW'(sum_w) : tail_sum;
      new_id   = a[A_ID +: IDW] + IDW'(wrap);
      new_used = UW'(s_u + (c_u << 1));
    end
    land = {v && !over, v && over, a[A_Q +: QW], new_tail, new_id, new_used};
  endfunction

  // This cycle's head pulse and landing lanes: {pop, bus lane, broadcast lane}.
  function automatic logic [3*RES_W-1:0] step(input logic [QW-1:0] pop_q);
    logic [RES_W-1:0] pop;
    pop  = pulse(pop_q);
    step = {pop,
            land(a_op_q[0 +: A_W], a_v_q[0],
                 pop[F_HI] && (pop[F_Q +: QW] == a_op_q[A_Q +: QW])),
            land(a_op_q[A_W +: A_W], a_v_q[1],
                 pop[F_HI] && (pop[F_Q +: QW] == a_op_q[A_W + A_Q +: QW]))};
  endfunction

  assign db_pend_o = |a_v_q;

  // Block registers (outside the queue range)
  logic        top_we, top_hit;
  logic [31:0] top_rdata, err_log_q;
{%- for s in top_stores %}
  logic [31:0] {{ s.name }}_q;
{%- endfor %}

  assign top_we = wr && !in_q;

  // ---------------------------------------------------------------- next state
  // Later writes win: the head pulse, then the landing lanes (whose used count already includes
  // their queue's pulse), then the resets of the addressed queue. The memories and the lanes'
  // operand registers are written in a process without reset (a write port under an
  // asynchronous reset is not one); the source flops and the lanes' valid bits say which writes
  // count.
  always_ff @(posedge clk_i) begin
    logic [RES_W-1:0] pop, bus, bc;
    logic [1:0]       tk;
    {pop, bus, bc} = step(hw_head_inc_idx_i);
    tk = takes();
    if (pop[F_HI]) begin
      head_m[pop[F_Q +: QW]]     <= pop[F_LO] ? '0 : pop[F_PTR +: LW] + LW'(1);
      head_id_m[pop[F_Q +: QW]]  <= pop[F_ID +: IDW] + IDW'(pop[F_LO]);
      used_pop_m[pop[F_Q +: QW]] <= pop[F_USED +: UW] - UW'(1);
    end
    if (bus[F_HI]) begin
      tail_bus_m[bus[F_Q +: QW]]    <= bus[F_PTR +: LW];
      tail_id_bus_m[bus[F_Q +: QW]] <= bus[F_ID +: IDW];
      used_bus_m[bus[F_Q +: QW]]    <= bus[F_USED +: UW];
    end
    if (bc[F_HI]) begin
      tail_bc_m[bc[F_Q +: QW]]    <= bc[F_PTR +: LW];
      tail_id_bc_m[bc[F_Q +: QW]] <= bc[F_ID +: IDW];
      used_bc_m[bc[F_Q +: QW]]    <= bc[F_USED +: UW];
    end
    if (tk[0]) begin
      a_op_q[0 +: A_W] <= take(q_sel, CW'(bus_val)
                                      + ((bcast_inc_valid_i && (bcast_inc_queue_i == q_sel))
                                         ? CW'(bcast_inc_val_i) : '0),
                               pop, bus, bc);
    end
    if (tk[1]) begin
      a_op_q[A_W +: A_W] <= take(bcast_inc_queue_i, CW'(bcast_inc_val_i), pop, bus, bc);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned q = 0; q < NQ; q++) begin
        tail_src_q[q] <= SRC_RST;
        used_src_q[q] <= SRC_RST;
      end
      head_v     <= '0;
      overrun_q  <= '0;
      nonempty_q <= '0;
      a_v_q      <= '0;
      enable_q   <= {NQ{ {{- enable_reset -}} }};
{%- for s in q_stores %}
      {{ s.name }}_v <= '0;
{%- endfor %}
      err_log_q  <= {{ err_reset }};
    end else begin
      logic [RES_W-1:0] pop, bus, bc;
      logic [31:0]      err_log_d;
      {pop, bus, bc} = step(hw_head_inc_idx_i);
      a_v_q <= takes();
      // The error log: hardware sets win over a same-cycle software clear.
      err_log_d = err_log_q;
      if (top_we && (req_addr == {{ err_off }})) begin
        err_log_d = err_log_q & ~(wdata_m & {{ err_w1c_mask }});
      end
      if (bus[F_LO] || bc[F_LO]) begin
        err_log_d = err_log_d | {{ err_ovr_mask }};
      end
      if (hw_ring_id_err_i) begin
        err_log_d = err_log_d | {{ err_rie_mask }};
      end
      err_log_q <= err_log_d;
      if (pop[F_HI]) begin
        head_v[pop[F_Q +: QW]]     <= 1'b1;
        used_src_q[pop[F_Q +: QW]] <= SRC_POP;
        nonempty_q[pop[F_Q +: QW]] <= pop[F_USED +: UW] != UW'(1);
      end
      for (int unsigned l = 0; l < 2; l++) begin
        logic [RES_W-1:0] r;
        r = l == 0 ? bus : bc;
        if (r[F_HI]) begin
          tail_src_q[r[F_Q +: QW]] <= l == 0 ? SRC_BUS : SRC_BC;
          used_src_q[r[F_Q +: QW]] <= l == 0 ? SRC_BUS : SRC_BC;
          // An accepted increment leaves its queue nonempty (see land).
          nonempty_q[r[F_Q +: QW]] <= 1'b1;
        end
        if (r[F_LO]) begin
          overrun_q[r[F_Q +: QW]] <= 1'b1;
        end
      end
      if (sel_we) begin
{%- for s in q_stores %}
        if (q_off == {{ s.offset }}) begin
          {{ s.name }}_v[q_sel] <= 1'b1;
{%- if s.name == enable_reg %}
          enable_q[q_sel]     <= 1'({{ s.name }}_wr(q_sel) >> {{ enable_lsb }});
{%- endif %}
        end
{%- endfor %}
        if (rst_tail || rst_head || rst_q) begin
          used_src_q[q_sel] <= SRC_RST;
          nonempty_q[q_sel] <= 1'b0;
        end
        if (rst_tail || rst_q) begin
          tail_src_q[q_sel] <= SRC_RST;
          overrun_q[q_sel]  <= 1'b0;
        end
        if (rst_head || rst_q) begin
          head_v[q_sel] <= 1'b0;
        end
        if (rst_q) begin
          enable_q[q_sel] <= {{ enable_reset }};
{%- for s in q_stores %}
          {{ s.name }}_v[q_sel] <= 1'b0;
{%- endfor %}
        end
      end
    end
  end

  // The configuration arrays are written in a process of their own, without reset, so that
  // synthesis maps them to memories (a write port under an asynchronous reset is not one).
  always_ff @(posedge clk_i) begin
    if (sel_we) begin
{%- for s in q_stores %}
      if (q_off == {{ s.offset }}) begin
        {{ s.name }}_m[q_sel] <= {{ s.name }}_wr(q_sel);
{%- if s.name == len_reg %}
        len_last_m[q_sel] <= last_of({{ s.name }}_wr(q_sel));
{%- endif %}
      end
{%- endfor %}
    end
  end

  // ---------------------------------------------------------------- hardware outputs
  assign q_enable_o        = enable_q;
  assign q_nonempty_o      = nonempty_q;
  assign rd_ring_base_o    = { {{- base_hi_reg }}_rd(rd_idx_i) & {{ base_hi_mask }},
                              {{ base_lo_reg }}_rd(rd_idx_i) & {{ base_lo_mask -}} };
  assign rd_head_o         = head_rd(rd_idx_i);
  assign rd_head_ring_id_o = head_id_rd(rd_idx_i);

  // ---------------------------------------------------------------- readback of the addressed queue
  // First cycle of a read: the addressed queue's stored values into flops (only a bus read loads
  // them, so in other cycles nothing here is evaluated). Second cycle of any request (req2_q):
  // the word from those flops, and whether the offset is mapped.
  logic           req2_q;
  logic           sel_overrun;
  logic [LW-1:0]  sel_tail, sel_head;
  logic [IDW-1:0] sel_tail_id, sel_head_id;
  logic [UW-1:0]  sel_used;
  logic [CW-1:0]  sel_len;
{%- for s in q_stores %}
  logic [31:0]    sel_{{ s.name }};
{%- endfor %}

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) req2_q <= 1'b0;
    else         req2_q <= req;
  end

  always_ff @(posedge clk_i) begin
    if (req && !req_we && in_q) begin
      sel_tail    <= tail_rd(q_sel);
      sel_tail_id <= tail_id_rd(q_sel);
      sel_head    <= head_rd(q_sel);
      sel_head_id <= head_id_rd(q_sel);
      sel_used    <= used_rd(q_sel);
      sel_overrun <= overrun_q[q_sel];
      sel_len     <= ring_len(q_sel);
{%- for s in q_stores %}
      sel_{{ s.name }} <= {{ s.name }}_rd(q_sel);
{%- endfor %}
    end
  end

  logic           q_hit, sel_full;
  logic [31:0]    q_rdata;

  // An unconfigured ring (length 0) is not full: status reads its reset value.
  assign sel_full = (sel_len != '0) && (CW'(sel_used) == sel_len);

  always_comb begin
    q_hit   = 1'b1;
    q_rdata = '0;
    if (req2_q && in_q) begin
      unique case (q_off)
{%- for r in q_reads %}
        {{ r.offset }}: q_rdata = {{ r.rdata }};
{%- endfor %}
        default: q_hit = 1'b0;
      endcase
    end
  end

  // ---------------------------------------------------------------- block registers
  // The error log is updated in the queue state's process (it reads the lanes' refusals).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
{%- for s in top_stores %}
      {{ s.name }}_q <= {{ s.reset }};
{%- endfor %}
    end else begin
{%- for s in top_stores %}
      if (top_we && (req_addr == {{ s.offset }})) begin
        {{ s.name }}_q <= ({{ s.name }}_q & ~({{ s.wmask }} & req_wstrb_bits)) | (wdata_m & {{ s.wmask }});
      end
{%- endfor %}
    end
  end

  always_comb begin
    top_hit   = 1'b1;
    top_rdata = '0;
    if (req2_q && !in_q) begin
      unique case (req_addr)
        {{ err_off }}: top_rdata = err_log_q & {{ err_rmask }};
{%- for s in top_stores %}
        {{ s.offset }}: top_rdata = {{ s.name }}_q & {{ s.rmask }};
{%- endfor %}
        default: top_hit = 1'b0;
      endcase
    end
  end

  // ---------------------------------------------------------------- readback
  assign req_rdata = in_q ? q_rdata : top_rdata;
  assign req_err   = in_q ? !q_hit : !top_hit;
endmodule
