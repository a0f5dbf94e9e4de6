// SDMA engine: serves the paired M2S/S2M descriptor rings of one engine's queue groups and moves
// the bytes they describe from the M2S buffer to the S2M buffer over two internal-bus masters.
//
// Two stages, joined by a one-entry context register and a buffer of read beats:
// - Fetch/read stage: picks a queue round-robin (both rings enabled, both hold a posted
//   descriptor, no pair of that queue in flight, not halted), reads its M2S and S2M head
//   descriptors, checks their ring ids against the queue heads', hands the pair to the write
//   stage and issues the aligned source beat reads. A read is issued only while the beat buffer
//   has room for its response, so read responses are never refused.
// - Write stage: shifts the source beats into destination alignment and issues byte-strobed beat
//   writes, one per cycle while data and the write port allow. A write_barrier pair's first write
//   waits until every earlier write of this engine has been answered.
// A pair is complete when its last write is answered: both rings' heads then advance together.
// Only one pair per queue is in flight, because the next descriptor sits at the head that the
// completion advances; different queues overlap.
//
// Ring-id mismatch: the pair moves nothing, the side(s) whose descriptor disagrees get a
// ring-id-error pulse, and that side is halted until software empties it (a head, tail or queue
// reset leaves used = 0). A descriptor read that fails (err != OKAY) or an M2S DUMMY descriptor
// moves nothing and completes in order with the writes before it. Error responses on either port
// set a sticky bit of err_o and the engine carries on.

module xdie_sdma_engine #(
  // Source beats buffered, which is also the most reads in flight.
  parameter int unsigned RD_DEPTH = 8,
  // Writes in flight (issued, not answered).
  parameter int unsigned WR_DEPTH = 8,
  // Queue count and the widths (bits) of the queue groups' read port, from the M2S register
  // package: ring base (TDRBP low+high), head offset and head ring id. The die passes the same
  // values.
  parameter int unsigned Q        = xdie_udma_m2s_pkg::M2S_Q_COUNT,
  parameter int unsigned BW       = xdie_udma_m2s_pkg::RING_BASE_W,
  parameter int unsigned HW       = xdie_udma_m2s_pkg::M2S_Q_TDRHP_OFFSET_WIDTH,
  parameter int unsigned IDW      = xdie_udma_m2s_pkg::M2S_Q_TDRHP_RING_ID_WIDTH,
  // The queue round robin in xdie_rr_arbiter's select form (no carry chains: FPGA timing, the
  // sizing key select_arbiters) instead of the word-wide form a simulator evaluates faster
  parameter bit          SELECT_RR = 1'b0,
  // The queue pick registered before the queue groups are read (FPGA timing, the sizing key
  // timing_registers): the groups' read port is then addressed by a flop, so the round robin
  // and the groups' storage read are separate paths; a pair starts one cycle later
  parameter bit          PICK_REG  = 1'b0,
  // Bytes per bus beat (a power of two, at least one descriptor).
  localparam int unsigned DATA_BYTES = xdie_xbus_pkg::DATA_BYTES,
  localparam int unsigned ADDR_W     = xdie_xbus_pkg::ADDR_W,
  localparam int unsigned QW         = (Q > 1) ? $clog2(Q) : 1
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // Both queue groups: every queue's enable and "holds a posted descriptor"
  input  logic [Q-1:0]        m2s_enable_i,
  input  logic [Q-1:0]        m2s_nonempty_i,
  input  logic [Q-1:0]        s2m_enable_i,
  input  logic [Q-1:0]        s2m_nonempty_i,
  // Both queue groups' read port (one index for both): ring base, head, head ring id
  output logic [QW-1:0]       rd_idx_o,
  input  logic [BW-1:0]       m2s_rd_ring_base_i,
  input  logic [HW-1:0]       m2s_rd_head_i,
  input  logic [IDW-1:0]      m2s_rd_head_ring_id_i,
  input  logic [BW-1:0]       s2m_rd_ring_base_i,
  input  logic [HW-1:0]       s2m_rd_head_i,
  input  logic [IDW-1:0]      s2m_rd_head_ring_id_i,
  // A pair completed: both rings' heads of queue head_inc_idx_o advance by one
  output logic                head_inc_valid_o,
  output logic [QW-1:0]       head_inc_idx_o,
  // A fetched descriptor's ring id differed from its ring's head ring id
  output logic                m2s_ring_id_err_o,
  output logic                s2m_ring_id_err_o,
  // Read master: descriptors and source beats
  output logic                m_rd_req_valid_o,
  input  logic                m_rd_req_ready_i,
  output logic                m_rd_req_write_o,
  output logic [ADDR_W-1:0]       m_rd_req_addr_o,
  output logic [DATA_BYTES*8-1:0]     m_rd_req_wdata_o,
  output logic [DATA_BYTES-1:0]       m_rd_req_wstrb_o,
  input  logic                m_rd_rsp_valid_i,
  output logic                m_rd_rsp_ready_o,
  input  logic [DATA_BYTES*8-1:0]     m_rd_rsp_rdata_i,
  input  xdie_xbus_pkg::resp_e m_rd_rsp_err_i,
  // Write master: destination beats
  output logic                m_wr_req_valid_o,
  input  logic                m_wr_req_ready_i,
  output logic                m_wr_req_write_o,
  output logic [ADDR_W-1:0]       m_wr_req_addr_o,
  output logic [DATA_BYTES*8-1:0]     m_wr_req_wdata_o,
  output logic [DATA_BYTES-1:0]       m_wr_req_wstrb_o,
  input  logic                m_wr_rsp_valid_i,
  output logic                m_wr_rsp_ready_o,
  input  logic [DATA_BYTES*8-1:0]     m_wr_rsp_rdata_i,
  input  xdie_xbus_pkg::resp_e m_wr_rsp_err_i,
  // Sticky: [0] a read was answered with an error, [1] a write was
  output logic [1:0]          err_o,
  // No pair in flight
  output logic                idle_o,
  // Nothing of this engine changes at the next clock edge unless its inputs change: no pair in
  // any stage, no queue eligible, no pulse to deliver (a clock gate may stop the engine's clock)
  output logic                quiet_o
);
  localparam int unsigned DBW  = DATA_BYTES * 8;
  localparam int unsigned OW   = $clog2(DATA_BYTES);
  localparam int unsigned DSW  = xdie_desc_pkg::DESC_W;
  localparam int unsigned DSB  = xdie_desc_pkg::DESC_BYTES;
  localparam int unsigned LBW  = xdie_desc_pkg::LEN_BYTES_W;
  // Beat counts of one pair: up to MAX_LEN_CODE / DATA_BYTES + 1.
  localparam int unsigned CW   = LBW + 1;
  localparam int unsigned RCW  = $clog2(RD_DEPTH + 1);
  localparam int unsigned WCW  = $clog2(WR_DEPTH + 1);
  localparam logic [ADDR_W-1:0] BEAT_MASK = ~(ADDR_W'(DATA_BYTES) - ADDR_W'(1));

  if (Q < 1 || RD_DEPTH < 1 || WR_DEPTH < 1) begin : g_bad_depth
    $error("xdie_sdma_engine: Q, RD_DEPTH and WR_DEPTH must be at least 1");
  end
  if (DATA_BYTES < DSB || (DATA_BYTES & (DATA_BYTES - 1)) != 0) begin : g_bad_beat
    $error("xdie_sdma_engine: the beat (DATA_BYTES) must be a power of two of at least one descriptor");
  end
  if ((1 << xdie_udma_m2s_pkg::M2S_Q_TDRBP_LOW_ADDR_LSB) < DSB
      || (1 << xdie_udma_s2m_pkg::S2M_Q_RDRBP_LOW_ADDR_LSB) < DSB
      || (DSB & (DSB - 1)) != 0) begin : g_bad_ring_align
    $error("xdie_sdma_engine: ring bases must be aligned to a descriptor (a power of two of bytes)");
  end


  // ---------------------------------------------------------------- per-queue state
  logic [Q-1:0] busy_q, halt_m_q, halt_s_q, elig;
  logic         head_inc_valid_q;
  logic [QW-1:0] head_inc_idx_q;

  assign elig = m2s_enable_i & s2m_enable_i & m2s_nonempty_i & s2m_nonempty_i
              & ~busy_q & ~halt_m_q & ~halt_s_q;

  // Round-robin: the first eligible queue after the one served last. SELECT_RR: the pick ran
  // from the engine's state through the queue groups' read port into the crossbar in one cycle,
  // a critical path of the die on an FPGA (docs/fpga-fit.md); the select form shortens it but
  // costs a simulator more work each time eligibility changes, so it is a build choice.
  logic [QW-1:0] rr_q, pick;
  logic          pick_valid;

  xdie_rr_arbiter #(.N(Q), .SELECT(SELECT_RR)) u_rr (
    .req_i(elig), .last_i(rr_q), .valid_o(pick_valid), .idx_o(pick)
  );

  // ---------------------------------------------------------------- fetch/read stage
  typedef enum logic [2:0] {
    A_IDLE,
    A_REQ_M,
    A_REQ_S,
    A_WAIT,
    A_CHECK,
    A_READ,
    A_PICK     // PICK_REG: the picked queue's ring registers are read
  } a_state_e;

  a_state_e         a_state_q;
  logic [QW-1:0]    a_q_q;
  logic [ADDR_W-1:0]    m_desc_addr_q, s_desc_addr_q;
  logic [DSW-1:0]   desc_m_q, desc_s_q;
  logic [1:0]       desc_got_q;
  logic             desc_err_q;
  logic [ADDR_W-1:0]    rd_addr_q;
  logic [CW-1:0]    rd_left_q;
  logic [RCW-1:0]   rd_inflight_q, rd_space_q;
  logic             rd_fire, rsp_data, rsp_desc, fifo_pop;
  logic             rid_err_m_q, rid_err_s_q;

  // The pair handed to the write stage.
  logic             pend_valid_q;
  logic [QW-1:0]    pend_q_q;
  logic [ADDR_W-1:0]    pend_dst_q;
  logic [OW-1:0]    pend_so_q, pend_do_q, pend_lo_q;
  logic [CW-1:0]    pend_nrd_q, pend_nwr_q;
  logic             pend_bar_q, pend_nowr_q;
  logic             b_take;

  // Pair geometry from the two descriptors.
  logic [ADDR_W-1:0]    src, dst;
  logic [LBW-1:0]   len;
  logic [CW-1:0]    nrd, nwr;
  logic             mism_m, mism_s, nowrite;

  assign src     = ADDR_W'(xdie_desc_pkg::m2s_get_buf_ptr(desc_m_q));
  assign dst     = ADDR_W'(xdie_desc_pkg::s2m_get_buf_ptr(desc_s_q));
  assign len     = xdie_desc_pkg::m2s_len_bytes(desc_m_q);
  assign nrd     = CW'((CW'(src[OW-1:0]) + CW'(len) - CW'(1)) >> OW) + CW'(1);
  assign nwr     = CW'((CW'(dst[OW-1:0]) + CW'(len) - CW'(1)) >> OW) + CW'(1);
  // The read port shows the picked queue while idle and the pair's queue afterwards; with
  // PICK_REG always the pair's queue (a flop).
  assign rd_idx_o = (!PICK_REG && a_state_q == A_IDLE) ? pick : a_q_q;
  assign mism_m  = xdie_desc_pkg::m2s_get_ring_id(desc_m_q) != m2s_rd_head_ring_id_i;
  assign mism_s  = xdie_desc_pkg::s2m_get_ring_id(desc_s_q) != s2m_rd_head_ring_id_i;
  assign nowrite = desc_err_q || (xdie_desc_pkg::m2s_get_dummy(desc_m_q) != '0);

  // Responses come back in request order and every source read was issued before the next
  // descriptor reads, so a response is a descriptor exactly when no source read is in flight.
  assign rsp_data = m_rd_rsp_valid_i && (rd_inflight_q != '0);
  assign rsp_desc = m_rd_rsp_valid_i && (rd_inflight_q == '0);
  assign rd_fire  = m_rd_req_valid_o && m_rd_req_ready_i;

  always_comb begin
    m_rd_req_valid_o = 1'b0;
    m_rd_req_addr_o  = rd_addr_q;
    unique case (a_state_q)
      A_REQ_M: begin
        m_rd_req_valid_o = 1'b1;
        m_rd_req_addr_o  = m_desc_addr_q;
      end
      A_REQ_S: begin
        m_rd_req_valid_o = 1'b1;
        m_rd_req_addr_o  = s_desc_addr_q;
      end
      // rd_space only grows while waiting, so valid never drops before it is taken.
      A_READ: m_rd_req_valid_o = rd_space_q != '0;
      default: m_rd_req_valid_o = 1'b0;
    endcase
  end

  assign m_rd_req_write_o = 1'b0;
  assign m_rd_req_wdata_o = '0;
  assign m_rd_req_wstrb_o = '0;
  assign m_rd_rsp_ready_o = 1'b1;

  // ---------------------------------------------------------------- source beat buffer
  // A slot is reserved (rd_space) for every read issued, so a response always finds room.
  logic [DBW-1:0] fifo_head;
  logic           fifo_valid, fifo_ready;

  xdie_fifo #(.DATA_W(DBW), .DEPTH(RD_DEPTH)) u_beats (
    .clk_i, .rst_ni,
    .push_valid_i(rsp_data), .push_ready_o(fifo_ready), .push_data_i(m_rd_rsp_rdata_i),
    .pop_valid_o(fifo_valid), .pop_ready_i(fifo_pop), .pop_data_o(fifo_head)
  );

  // ---------------------------------------------------------------- write stage
  logic             b_active_q;
  logic [QW-1:0]    b_q_q;
  logic [ADDR_W-1:0]    b_dst_q;
  logic [OW-1:0]    b_sh_q, b_do_q, b_lo_q;
  logic             b_skip_q, b_first_q, b_bar_q;
  logic             b_nowr_q;
  logic [CW-1:0]    b_rd_left_q, b_wr_left_q;
  logic [DBW-1:0]   prev_q;
  logic [DATA_BYTES-1:0]    first_mask, last_mask;
  logic             need_pop, out_free, bar_block, step, wr_fire, wr_rsp, direct_done;

  // Write request register.
  logic             wq_valid_q, wq_last_q;
  logic [QW-1:0]    wq_qid_q;
  logic [ADDR_W-1:0]    wq_addr_q;
  logic [DBW-1:0]   wq_data_q;
  logic [DATA_BYTES-1:0]    wq_strb_q;

  // Writes in flight: {last write of its pair, queue}, in issue order.
  logic [WCW-1:0]   wr_out_q;
  logic [QW:0]      tag_head;
  logic             tag_ready, tag_valid;

  assign wr_fire  = m_wr_req_valid_o && m_wr_req_ready_i;
  assign wr_rsp   = m_wr_rsp_valid_i;
  assign out_free = !wq_valid_q || wr_fire;
  assign need_pop = b_rd_left_q != '0;
  assign first_mask = {DATA_BYTES{1'b1}} << b_do_q;
  assign last_mask  = {DATA_BYTES{1'b1}} >> (OW'(DATA_BYTES - 1) - b_lo_q);
  assign bar_block  = b_first_q && b_bar_q && ((wr_out_q != '0) || wq_valid_q);
  assign step     = b_active_q && !b_nowr_q && (!need_pop || fifo_valid)
                 && !bar_block && (b_skip_q || out_free);
  assign fifo_pop = step && need_pop;
  assign b_take   = !b_active_q && pend_valid_q;
  // A pair that moves nothing completes once every earlier write has been answered, so
  // completions stay in order.
  // With no write in flight no write response can arrive, so at most one pair completes per
  // cycle (the queue groups take one head pulse per cycle).
  assign direct_done = b_active_q && b_nowr_q && (wr_out_q == '0) && !wq_valid_q;

  // wr_out only falls while a write waits, so valid never drops before it is taken.
  assign m_wr_req_valid_o = wq_valid_q && (wr_out_q != WCW'(WR_DEPTH));
  assign m_wr_req_write_o = 1'b1;
  assign m_wr_req_addr_o  = wq_addr_q;
  assign m_wr_req_wdata_o = wq_data_q;
  assign m_wr_req_wstrb_o = wq_strb_q;
  assign m_wr_rsp_ready_o = 1'b1;

  // wr_out counts the tags, and a write issues only while it is below WR_DEPTH: a tag always
  // finds room, and a response always finds its tag.
  xdie_fifo #(.DATA_W(QW + 1), .DEPTH(WR_DEPTH)) u_tags (
    .clk_i, .rst_ni,
    .push_valid_i(wr_fire), .push_ready_o(tag_ready), .push_data_i({wq_last_q, wq_qid_q}),
    .pop_valid_o(tag_valid), .pop_ready_i(wr_rsp), .pop_data_o(tag_head)
  );

  // ---------------------------------------------------------------- errors and outputs
  logic [1:0] err_q;

  assign head_inc_valid_o  = head_inc_valid_q;
  assign head_inc_idx_o    = head_inc_idx_q;
  assign m2s_ring_id_err_o = rid_err_m_q;
  assign s2m_ring_id_err_o = rid_err_s_q;
  assign err_o             = err_q;
  assign idle_o            = (busy_q == '0);
  // Every term below is a reason for a flop of this engine to change at the next edge; the
  // halt terms cover a halted ring that software has just emptied (its halt bit clears).
  assign quiet_o = (a_state_q == A_IDLE) && !pick_valid && !pend_valid_q && !b_active_q
                && !wq_valid_q && (wr_out_q == '0) && (rd_inflight_q == '0) && !fifo_valid
                && !head_inc_valid_q && !rid_err_m_q && !rid_err_s_q
                && ((halt_m_q & ~m2s_nonempty_i) == '0) && ((halt_s_q & ~s2m_nonempty_i) == '0);

  // ---------------------------------------------------------------- next state
  // Both stages' next state is computed in the clocked process itself rather than in
  // combinational processes: logic that also reads the crossbar's inputs would be evaluated on
  // every clock of the die by a simulator, while this runs only on the engine's own (gated)
  // clock edges. The wide fields (descriptors, beats) are loaded only when they change.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q        <= '0;
      halt_m_q      <= '0;
      halt_s_q      <= '0;
      head_inc_valid_q <= 1'b0;
      head_inc_idx_q   <= '0;
      rr_q          <= QW'(Q - 1);
      a_state_q     <= A_IDLE;
      a_q_q         <= '0;
      m_desc_addr_q <= '0;
      s_desc_addr_q <= '0;
      desc_m_q      <= '0;
      desc_s_q      <= '0;
      desc_got_q    <= '0;
      desc_err_q    <= 1'b0;
      rd_addr_q     <= '0;
      rd_left_q     <= '0;
      rd_inflight_q <= '0;
      rd_space_q    <= RCW'(RD_DEPTH);
      rid_err_m_q   <= 1'b0;
      rid_err_s_q   <= 1'b0;
      pend_valid_q  <= 1'b0;
      pend_q_q      <= '0;
      pend_dst_q    <= '0;
      pend_so_q     <= '0;
      pend_do_q     <= '0;
      pend_lo_q     <= '0;
      pend_nrd_q    <= '0;
      pend_nwr_q    <= '0;
      pend_bar_q    <= 1'b0;
      pend_nowr_q   <= 1'b0;
      b_active_q    <= 1'b0;
      b_q_q         <= '0;
      b_dst_q       <= '0;
      b_sh_q        <= '0;
      b_do_q        <= '0;
      b_lo_q        <= '0;
      b_skip_q      <= 1'b0;
      b_first_q     <= 1'b0;
      b_bar_q       <= 1'b0;
      b_nowr_q      <= 1'b0;
      b_rd_left_q   <= '0;
      b_wr_left_q   <= '0;
      prev_q        <= '0;
      wq_valid_q    <= 1'b0;
      wq_last_q     <= 1'b0;
      wq_qid_q      <= '0;
      wq_addr_q     <= '0;
      wq_data_q     <= '0;
      wq_strb_q     <= '0;
      wr_out_q      <= '0;
      err_q         <= '0;
    end else begin
      logic [Q-1:0]      busy_d, halt_m_d, halt_s_d;
      a_state_e          a_state_d;
      logic [1:0]        desc_got_d;
      logic              desc_err_d;
      logic              pend_valid_d, b_active_d;

      // ---------------------------------------------- fetch/read stage
      busy_d       = busy_q;
      halt_m_d     = halt_m_q;
      halt_s_d     = halt_s_q;
      a_state_d    = a_state_q;
      desc_got_d   = desc_got_q;
      desc_err_d   = desc_err_q;
      pend_valid_d = pend_valid_q && !b_take;
      rid_err_m_q  <= 1'b0;
      rid_err_s_q  <= 1'b0;
      if (head_inc_valid_q) begin
        busy_d[head_inc_idx_q] = 1'b0;
      end

      // A descriptor response holds the descriptor at its address's offset in the beat. Ring
      // bases are aligned to at least a descriptor (checked above) and descriptors are DSB
      // bytes each, so the offset is a whole number of descriptors: one shifter by descriptor
      // slots serves both descriptors (the M2S one first).
      if (rsp_desc) begin
        logic [OW-1:0]  desc_off;
        logic [DSW-1:0] desc_word;
        desc_off  = ((desc_got_q == 2'd0) ? m_desc_addr_q[OW-1:0] : s_desc_addr_q[OW-1:0])
                  & ~OW'(DSB - 1);
        desc_word = DSW'(m_rd_rsp_rdata_i >> (8 * desc_off));
        if (desc_got_q == 2'd0) begin
          desc_m_q <= desc_word;
        end else begin
          desc_s_q <= desc_word;
        end
        desc_got_d = desc_got_q + 2'd1;
        desc_err_d = desc_err_q || (m_rd_rsp_err_i != xdie_xbus_pkg::RESP_OKAY);
      end

      unique case (a_state_q)
        A_IDLE: begin
          if (pick_valid) begin
            a_q_q         <= pick;
            rr_q          <= pick;
            busy_d[pick]  = 1'b1;
            a_state_d     = PICK_REG ? A_PICK : A_REQ_M;
          end
        end
        A_PICK: a_state_d = A_REQ_M;
        A_REQ_M: if (rd_fire) a_state_d = A_REQ_S;
        A_REQ_S: if (rd_fire) a_state_d = A_WAIT;
        A_WAIT:  if (desc_got_d == 2'd2) a_state_d = A_CHECK;
        A_CHECK: begin
          // A failed descriptor read carries no trustworthy ring id: it completes without
          // moving data instead of halting the queue.
          if (!desc_err_q && (mism_m || mism_s)) begin
            rid_err_m_q     <= mism_m;
            rid_err_s_q     <= mism_s;
            halt_m_d[a_q_q] = mism_m;
            halt_s_d[a_q_q] = mism_s;
            busy_d[a_q_q]   = 1'b0;
            a_state_d       = A_IDLE;
          end else if (!pend_valid_q) begin
            pend_valid_d = 1'b1;
            pend_q_q     <= a_q_q;
            pend_dst_q   <= dst & BEAT_MASK;
            pend_so_q    <= src[OW-1:0];
            pend_do_q    <= dst[OW-1:0];
            pend_lo_q    <= OW'(dst[OW-1:0] + OW'(len) - OW'(1));
            pend_nrd_q   <= nowrite ? '0 : nrd;
            pend_nwr_q   <= nwr;
            pend_bar_q   <= xdie_desc_pkg::m2s_get_write_barrier(desc_m_q) != '0;
            pend_nowr_q  <= nowrite;
            rd_addr_q    <= src & BEAT_MASK;
            rd_left_q    <= nrd;
            a_state_d    = nowrite ? A_IDLE : A_READ;
          end
        end
        A_READ: begin
          if (rd_fire) begin
            rd_addr_q <= rd_addr_q + ADDR_W'(DATA_BYTES);
            rd_left_q <= rd_left_q - CW'(1);
            if (rd_left_q == CW'(1)) begin
              a_state_d = A_IDLE;
            end
          end
        end
        default: a_state_d = A_IDLE;
      endcase

      // The picked queue's head descriptors' addresses, read from the queue groups at the pick
      // or, with PICK_REG, a cycle later at the registered pick.
      if (PICK_REG ? (a_state_q == A_PICK) : (a_state_q == A_IDLE && pick_valid)) begin
        m_desc_addr_q <= ADDR_W'(m2s_rd_ring_base_i) + ADDR_W'(m2s_rd_head_i) * ADDR_W'(DSB);
        s_desc_addr_q <= ADDR_W'(s2m_rd_ring_base_i) + ADDR_W'(s2m_rd_head_i) * ADDR_W'(DSB);
        desc_got_d    = 2'd0;
        desc_err_d    = 1'b0;
      end

      // A halted side stays halted until software empties its ring.
      busy_q       <= busy_d;
      halt_m_q     <= halt_m_d & m2s_nonempty_i;
      halt_s_q     <= halt_s_d & s2m_nonempty_i;
      a_state_q    <= a_state_d;
      desc_got_q   <= desc_got_d;
      desc_err_q   <= desc_err_d;
      pend_valid_q <= pend_valid_d;

      // Reads in flight and buffer room left (room = RD_DEPTH - in flight - buffered).
      rd_inflight_q <= rd_inflight_q + RCW'(rd_fire && (a_state_q == A_READ)) - RCW'(rsp_data);
      rd_space_q    <= rd_space_q - RCW'(rd_fire && (a_state_q == A_READ)) + RCW'(fifo_pop);

      // ---------------------------------------------- write stage
      b_active_d = b_active_q;
      if (wr_fire) begin
        wq_valid_q <= 1'b0;
      end

      if (b_take) begin
        b_active_d  = 1'b1;
        b_q_q       <= pend_q_q;
        b_dst_q     <= pend_dst_q;
        b_sh_q      <= pend_so_q - pend_do_q;
        b_do_q      <= pend_do_q;
        b_lo_q      <= pend_lo_q;
        // With so >= do the first output beat needs the second source beat too.
        b_skip_q    <= pend_so_q >= pend_do_q;
        b_first_q   <= 1'b1;
        b_bar_q     <= pend_bar_q;
        b_nowr_q    <= pend_nowr_q;
        b_rd_left_q <= pend_nrd_q;
        b_wr_left_q <= pend_nwr_q;
      end

      if (direct_done) begin
        b_active_d = 1'b0;
      end

      if (step) begin
        if (need_pop) begin
          prev_q      <= fifo_head;
          b_rd_left_q <= b_rd_left_q - CW'(1);
        end
        if (b_skip_q) begin
          b_skip_q <= 1'b0;
        end else begin
          wq_valid_q  <= 1'b1;
          wq_last_q   <= b_wr_left_q == CW'(1);
          wq_qid_q    <= b_q_q;
          wq_addr_q   <= b_dst_q;
          // Output beat k is source-stream bytes k*DATA_BYTES + (so - do) ...: the window of
          // {cur, prev} that starts sh = (so - do) mod DATA_BYTES bytes into prev, where cur is
          // the next source beat (zeros when the pair has no more). Computed only when a beat
          // is written: it is the widest operation of the engine.
          wq_data_q   <= DBW'({need_pop ? fifo_head : DBW'(0), prev_q} >> {b_sh_q, 3'b000});
          wq_strb_q   <= (b_first_q ? first_mask : '1)
                       & ((b_wr_left_q == CW'(1)) ? last_mask : '1);
          b_first_q   <= 1'b0;
          b_dst_q     <= b_dst_q + ADDR_W'(DATA_BYTES);
          b_wr_left_q <= b_wr_left_q - CW'(1);
          if (b_wr_left_q == CW'(1)) begin
            b_active_d = 1'b0;
          end
        end
      end
      b_active_q <= b_active_d;

      wr_out_q <= wr_out_q + WCW'(wr_fire) - WCW'(wr_rsp);

      // ---------------------------------------------- completions and errors
      head_inc_valid_q <= 1'b0;
      if (wr_rsp && tag_head[QW]) begin
        head_inc_valid_q <= 1'b1;
        head_inc_idx_q   <= tag_head[QW-1:0];
      end else if (direct_done) begin
        head_inc_valid_q <= 1'b1;
        head_inc_idx_q   <= b_q_q;
      end

      err_q <= err_q | {wr_rsp && (m_wr_rsp_err_i != xdie_xbus_pkg::RESP_OKAY),
                        m_rd_rsp_valid_i && (m_rd_rsp_err_i != xdie_xbus_pkg::RESP_OKAY)};
    end
  end

  // The FIFOs' room and fill are known from the counts (see the FIFOs).
  logic unused_inputs;
  // Ring-base bits above the bus address width are not addressable.
  assign unused_inputs = ^{m_wr_rsp_rdata_i, fifo_ready, tag_ready, tag_valid,
                           m2s_rd_ring_base_i, s2m_rd_ring_base_i};
endmodule
