// Read-modify-write of the SBUF accumulate apertures, between the SBUF mapping (xdie_sbuf) and
// the memory (xdie_mem): a plain read or write passes through unchanged; an accumulate beat
// (s_req_acc_i with a write) goes to the memory as a read of the same beat, and when that read's
// response comes back, the old beat and the operand enter the add pipeline, whose sum is written
// through the memory's second write port (m_wr_*); the accumulate is answered with its read's
// response (see "responses" below). Lanes are 4-byte little-endian words (int32
// or binary32); a lane is added only when all its strobes are set, a lane without strobes keeps
// its bytes (xdie_sbuf refuses a beat with a partly strobed lane before it gets here). int32
// lanes add modulo 2^32, fp32 lanes with xdie_fp32_add (docs/collectives.md, Arithmetic).
//
// The add pipeline (docs/fpga-fit.md, "The SBUF accumulate path"): the response and operand
// are registered first (operand stage), so the memory's read data meets no logic before a flop;
// then ADD_LATENCY stages of addition (the fp32 adder's six; the int32 sum is one carry chain,
// made in the first and carried beside the fp32 stages so both leave together); the last stage
// drives the write port. A sum lands ADD_LATENCY + 1 edges after the edge its response passed.
//
// Hazards. An accumulate is pending from its acceptance until its sum is in the memory: while
// its read is at the memory, while it is in the add pipeline and in the cycle the sum is written
// (the memory reads before it writes, so a read at that edge would see the old beat). A request
// (of any kind) to the beat of a pending accumulate waits until the sum has landed, so it reads
// the sum, adds to it, or overwrites it in program order: no add is ever lost. (The memory has
// one array write port and gives it to the sums first: a plain write waits there while a sum
// is written.) Requests to other beats flow: one beat per cycle for plain reads and writes,
// and for a stream of accumulates to distinct beats (one read at the memory and one sum write
// per cycle, on the memory's two ports). Back-to-back accumulates to one beat take
// ADD_LATENCY + 2 + DEPTH cycles each (a collective's legs add each beat once per step).
//
// Reads of their own (r_*, m_rd_*): the memory's read port R (xdie_mem) serves the SBUF's reads
// beside port A's writes and accumulate reads, so that a die can send (read) and receive (write
// or accumulate) a beat in the same cycle. They pass through here only to meet the same hazard:
// a read of a pending accumulate's beat waits until the sum has landed. Their responses go
// straight from the memory to the SBUF mapping.
//
// DEPTH is the number of requests in flight at the memory this block allows: for full
// throughput, the cycles from a request's acceptance by the memory to its response (xdie_mem with
// LATENCY 1 needs 1, and 2 with its request register, REQ_REG). Responses come back in order.

module xdie_sbuf_acc #(
  // Bytes of the memory behind (its beat index width)
  parameter int unsigned BYTES = 16 * xdie_xbus_pkg::DATA_BYTES,
  parameter int unsigned DEPTH = 1,
  // 1: the add pipeline runs on a clock of its own, enabled while it holds an accumulate or one
  // enters it (xdie_clock_gate), so a simulator skips it in plain traffic; 0 (FPGA): one clock.
  parameter bit          CLOCK_GATE = 1'b0,
  localparam int unsigned DATA_BYTES = xdie_xbus_pkg::DATA_BYTES,
  localparam int unsigned ADDR_W     = xdie_xbus_pkg::ADDR_W
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // from the SBUF mapping
  input  logic            s_req_valid_i,
  output logic            s_req_ready_o,
  input  logic            s_req_write_i,
  input  logic            s_req_acc_i,   // accumulate (a write into an accumulate aperture)
  input  logic            s_req_fp_i,    // with s_req_acc_i: fp32 lanes, else int32 lanes
  input  logic [ADDR_W-1:0]   s_req_addr_i,
  input  logic [DATA_BYTES*8-1:0] s_req_wdata_i,
  input  logic [DATA_BYTES-1:0]   s_req_wstrb_i,
  output logic            s_rsp_valid_o,
  input  logic            s_rsp_ready_i,
  output logic [DATA_BYTES*8-1:0] s_rsp_rdata_o,
  output xdie_xbus_pkg::resp_e s_rsp_err_o,
  // to the memory: requests (port A) ...
  output logic            m_req_valid_o,
  input  logic            m_req_ready_i,
  output logic            m_req_write_o,
  output logic [ADDR_W-1:0]   m_req_addr_o,
  output logic [DATA_BYTES*8-1:0] m_req_wdata_o,
  output logic [DATA_BYTES-1:0]   m_req_wstrb_o,
  input  logic            m_rsp_valid_i,
  output logic            m_rsp_ready_o,
  input  logic [DATA_BYTES*8-1:0] m_rsp_rdata_i,
  input  xdie_xbus_pkg::resp_e m_rsp_err_i,
  // ... and the sums (port B: writes without a response)
  output logic            m_wr_valid_o,
  output logic [ADDR_W-1:0]   m_wr_addr_o,
  output logic [DATA_BYTES*8-1:0] m_wr_wdata_o,
  output logic [DATA_BYTES-1:0]   m_wr_wstrb_o,
  // reads of their own: from the SBUF mapping's read side to the memory's port R
  input  logic            r_req_valid_i,
  output logic            r_req_ready_o,
  input  logic [ADDR_W-1:0]   r_req_addr_i,
  output logic            m_rd_valid_o,
  input  logic            m_rd_ready_i,
  output logic [ADDR_W-1:0]   m_rd_addr_o
);

  // A lane is an int32 or binary32 word.
  localparam int unsigned LANE_BYTES = 4;
  localparam int unsigned LW    = LANE_BYTES * 8;
  localparam int unsigned LANES = DATA_BYTES / LANE_BYTES;
  localparam int unsigned DW    = DATA_BYTES * 8;
  localparam int unsigned OW    = $clog2(DATA_BYTES);
  localparam int unsigned WORDS = BYTES / DATA_BYTES;
  localparam int unsigned IW    = (WORDS > 1) ? $clog2(WORDS) : 1;
  localparam int unsigned PW    = (DEPTH > 1) ? $clog2(DEPTH) : 1;
  localparam int unsigned CW    = $clog2(DEPTH + 1);

  if (DEPTH < 1 || DATA_BYTES % LANE_BYTES != 0 || BYTES < DATA_BYTES || OW + IW > ADDR_W) begin : g_bad_param
    $error("xdie_sbuf_acc: DEPTH at least 1, DATA_BYTES whole lanes, BYTES at least one beat and addressable");
  end

  // ---------------------------------------------------------------- requests in flight
  // In order of acceptance; e_* hold per entry whether it accumulates, its lane type, beat,
  // operand and added lanes (the operand only for an accumulate).
  logic [DEPTH-1:0]       e_valid_q, e_acc_q, e_fp_q;
  logic [DEPTH*IW-1:0]    e_idx_q;
  logic [DEPTH*DW-1:0]    e_data_q;
  logic [DEPTH*LANES-1:0] e_lanes_q;
  logic [PW-1:0]          wptr_q, rptr_q;
  logic [CW-1:0]          count_q;

  logic [IW-1:0]    idx, r_idx;
  logic [LANES-1:0] lanes;
  logic             acc, push, pop, head_acc, head_fp, hazard, r_hazard, room;
  logic [IW-1:0]    head_idx;
  logic [LANES-1:0] head_lanes;
  logic [DW-1:0]    head_data;

  assign idx   = s_req_addr_i[OW +: IW];
  assign r_idx = r_req_addr_i[OW +: IW];
  assign acc = s_req_acc_i && s_req_write_i;
  for (genvar l = 0; l < LANES; l++) begin : g_lane_en
    assign lanes[l] = &s_req_wstrb_i[l*LANE_BYTES +: LANE_BYTES];
  end

  // The beat and byte offset are all the memory needs; the bits above its array are zero.
  logic unused_addr;
  assign unused_addr = ^{s_req_addr_i[ADDR_W-1:OW+IW], s_req_addr_i[OW-1:0],
                         r_req_addr_i[ADDR_W-1:OW+IW], r_req_addr_i[OW-1:0]};

  assign head_acc   = e_acc_q[rptr_q];
  assign head_fp    = e_fp_q[rptr_q];
  assign head_idx   = e_idx_q[rptr_q*IW +: IW];
  assign head_lanes = e_lanes_q[rptr_q*LANES +: LANES];
  assign head_data  = e_data_q[rptr_q*DW +: DW];

  // ---------------------------------------------------------------- add pipeline
  // Stage 0 holds the operands (old beat and incoming beat); stages 1..ADD_LATENCY add; the last
  // drives the write port. p_* hold per stage whether it carries an accumulate, its beat, lanes
  // and lane type: the pending beats the hazard check compares against.
  localparam int unsigned ADD_LATENCY = 6;
  localparam int unsigned STAGES      = 1 + ADD_LATENCY;
  localparam int unsigned WB          = STAGES - 1;

  logic [STAGES-1:0]       p_valid_q, p_fp_q;
  logic [STAGES*IW-1:0]    p_idx_q;
  logic [STAGES*LANES-1:0] p_lanes_q;
  logic [DW-1:0]           old_q, opd_q, fp_sum;
  logic [ADD_LATENCY*DW-1:0] int_sum_q;  // stage k at [(k-1)*DW +: DW]

  // A pending accumulate on the requested beat (port A's request: hazard; port R's: r_hazard):
  // in flight at the memory or in the pipeline.
  always_comb begin
    hazard   = 1'b0;
    r_hazard = 1'b0;
    for (int j = 0; j < DEPTH; j++) begin
      if (e_valid_q[j] && e_acc_q[j]) begin
        hazard   = hazard || (e_idx_q[j*IW +: IW] == idx);
        r_hazard = r_hazard || (e_idx_q[j*IW +: IW] == r_idx);
      end
    end
    // (Skipped when the pipeline is empty, as it is in plain traffic: simulation.)
    if (p_valid_q != '0) begin
      for (int k = 0; k < STAGES; k++) begin
        if (p_valid_q[k]) begin
          hazard   = hazard || (p_idx_q[k*IW +: IW] == idx);
          r_hazard = r_hazard || (p_idx_q[k*IW +: IW] == r_idx);
        end
      end
    end
  end

  // ---------------------------------------------------------------- responses
  // In order, passing through: an accumulate is answered as its read's response passes (with
  // the memory's response), ADD_LATENCY + 1 edges before its sum lands. No bus master can see
  // the difference: every later request to that beat waits for the sum (the hazard above). An
  // answer that waited for the sum instead would hold every response behind it for as long
  // (responses stay in order), and a die that sends (SBUF reads) while it receives accumulates
  // (a reduction ring) then ran at about half its rate (docs/fpga-fit.md, "The SBUF
  // accumulate path").
  logic enter;

  assign s_rsp_valid_o = m_rsp_valid_i;
  assign m_rsp_ready_o = s_rsp_ready_i;
  assign s_rsp_rdata_o = m_rsp_rdata_i;
  assign s_rsp_err_o   = m_rsp_err_i;
  assign pop           = m_rsp_valid_i && s_rsp_ready_i;
  assign enter         = pop && head_acc;

  assign room = (count_q != CW'(DEPTH)) || pop;

  assign m_req_valid_o = s_req_valid_i && room && !hazard;
  assign s_req_ready_o = m_req_ready_i && room && !hazard;
  assign m_req_write_o = s_req_write_i && !acc;
  assign m_req_addr_o  = s_req_addr_i;
  assign m_req_wdata_o = s_req_wdata_i;
  assign m_req_wstrb_o = acc ? '0 : s_req_wstrb_i;
  assign push          = s_req_valid_i && s_req_ready_o;

  assign m_rd_valid_o  = r_req_valid_i && !r_hazard;
  assign r_req_ready_o = m_rd_ready_i && !r_hazard;
  assign m_rd_addr_o   = r_req_addr_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      e_valid_q <= '0;
      e_acc_q   <= '0;
      e_fp_q    <= '0;
      wptr_q    <= '0;
      rptr_q    <= '0;
      count_q   <= '0;
    end else begin
      if (pop) begin
        e_valid_q[rptr_q] <= 1'b0;
        rptr_q <= (32'(rptr_q) == DEPTH - 1) ? '0 : rptr_q + 1'b1;
      end
      if (push) begin
        e_valid_q[wptr_q] <= 1'b1;
        e_acc_q[wptr_q]   <= acc;
        e_fp_q[wptr_q]    <= s_req_fp_i;
        wptr_q <= (32'(wptr_q) == DEPTH - 1) ? '0 : wptr_q + 1'b1;
      end
      if (push != pop) begin
        count_q <= push ? count_q + 1'b1 : count_q - 1'b1;
      end
    end
  end

  // Beat, operand and lanes of an accumulate presented while the entry at the write pointer is
  // free or freed (e_valid_q says whether an entry holds a request): the enable is not the
  // acceptance, whose hazard compare would otherwise drive the enables of 256 data flops
  // (timing), and plain traffic loads nothing (simulation).
  always_ff @(posedge clk_i) begin
    if (s_req_valid_i && acc && (!e_valid_q[wptr_q] || pop)) begin
      e_idx_q[wptr_q*IW +: IW]          <= idx;
      e_lanes_q[wptr_q*LANES +: LANES]  <= lanes;
      e_data_q[wptr_q*DW +: DW]         <= s_req_wdata_i;
    end
  end

  // ---------------------------------------------------------------- the pipeline's clock
  logic add_clk;

  xdie_clock_gate #(.ENABLE(CLOCK_GATE)) u_add_gate (
    .clk_i, .rst_ni, .en_i(enter || (p_valid_q != '0)), .clk_o(add_clk)
  );

  always_ff @(posedge add_clk or negedge rst_ni) begin
    if (!rst_ni) begin
      p_valid_q <= '0;
    end else begin
      p_valid_q <= {p_valid_q[STAGES-2:0], enter};
    end
  end

  always_ff @(posedge add_clk) begin
    if (enter) begin
      p_idx_q[0 +: IW]      <= head_idx;
      p_lanes_q[0 +: LANES] <= head_lanes;
      p_fp_q[0]             <= head_fp;
      old_q                 <= m_rsp_rdata_i;
      opd_q                 <= head_data;
    end
    // A stage loads only when the one before it carries an accumulate.
    for (int k = 1; k < STAGES; k++) begin
      if (p_valid_q[k-1]) begin
        p_idx_q[k*IW +: IW]         <= p_idx_q[(k-1)*IW +: IW];
        p_lanes_q[k*LANES +: LANES] <= p_lanes_q[(k-1)*LANES +: LANES];
        p_fp_q[k]                   <= p_fp_q[k-1];
      end
    end
  end

  // ---------------------------------------------------------------- the adders
  // int32: the sum in stage 1, carried to the last stage.
  always_ff @(posedge add_clk) begin
    if (p_valid_q[0] && !p_fp_q[0]) begin
      for (int l = 0; l < LANES; l++) begin
        int_sum_q[l*LW +: LW] <= old_q[l*LW +: LW] + opd_q[l*LW +: LW];
      end
    end
    for (int k = 2; k <= ADD_LATENCY; k++) begin
      if (p_valid_q[k-1] && !p_fp_q[k-1]) begin
        int_sum_q[(k-1)*DW +: DW] <= int_sum_q[(k-2)*DW +: DW];
      end
    end
  end

  // fp32: one adder per lane, fed from stage 0, its sum on the last stage.
  logic [LANES-1:0] fp_valid;
  for (genvar l = 0; l < LANES; l++) begin : g_add
    xdie_fp32_add #(.LATENCY(ADD_LATENCY)) u_fp (
      .clk_i(add_clk),
      .rst_ni,
      .en_i(p_valid_q[0] && p_fp_q[0]),
      .a_i(old_q[l*LW +: LW]),
      .b_i(opd_q[l*LW +: LW]),
      .valid_o(fp_valid[l]),
      .y_o(fp_sum[l*LW +: LW])
    );
  end

  // The adders' own valid flags repeat p_valid_q && p_fp_q of the last stage.
  logic unused_fp_valid;
  assign unused_fp_valid = ^fp_valid;

  assign m_wr_valid_o = p_valid_q[WB];
  assign m_wr_addr_o  = ADDR_W'({p_idx_q[WB*IW +: IW], OW'(0)});
  assign m_wr_wdata_o = p_fp_q[WB] ? fp_sum : int_sum_q[(ADD_LATENCY-1)*DW +: DW];
  for (genvar l = 0; l < LANES; l++) begin : g_wr_strb
    assign m_wr_wstrb_o[l*LANE_BYTES +: LANE_BYTES] = {LANE_BYTES{p_lanes_q[WB*LANES + l]}};
  end

endmodule
