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
// depends on the engine's timing. A head pulse while used is 0 is ignored.
//
// Software resets (write 1, read 0): rst_q returns every register of the queue, configuration
// included, to its reset value. rst_tail and rst_head return their pointer to 0 and its ring id to
// the initial ring id, and both empty the queue (used = 0), because after either one the pointers
// no longer bracket a posted set; rst_tail also clears the overrun flag. A reset wins over a
// doorbell, broadcast or head pulse for that queue in the same cycle (those are dropped).
// Software resets head and tail together (or uses rst_q) before reprogramming a ring.
//
// Hardware outputs are packed vectors indexed by queue: q_ring_base_o (bits below the base
// address field read 0), q_ring_len_o, q_head_o, q_head_ring_id_o, q_used_o, q_enable_o.

module {{ module }} (
  input  logic                  clk_i,
  input  logic                  rst_ni,
{%- call regs::axil_ports(aw, 16) %}{% endcall %}
  // Engine: one pulse per descriptor fetched from a queue's head
  input  logic [{{ nq - 1 }}:0]           hw_head_inc_i,
  // Engine: a fetched descriptor's ring id differed from the head ring id
  input  logic                  hw_ring_id_err_i,
  // Broadcast doorbell
  input  logic                  bcast_inc_valid_i,
  input  logic [{{ qw - 1 }}:0]            bcast_inc_queue_i,
  input  logic [{{ iw - 1 }}:0]           bcast_inc_val_i,
  // Per-queue ring state for the engine
  output logic [{{ p_base - 1 }}:0]        q_ring_base_o,
  output logic [{{ p_len - 1 }}:0]         q_ring_len_o,
  output logic [{{ p_len - 1 }}:0]         q_head_o,
  output logic [{{ p_id - 1 }}:0]          q_head_ring_id_o,
  output logic [{{ p_used - 1 }}:0]         q_used_o,
  output logic [{{ nq - 1 }}:0]           q_enable_o
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
  localparam int unsigned BW = {{ base_w }};
  localparam logic [{{ aw }}:0] QBASE = {1'b0, {{ q_base }}};
  localparam logic [{{ aw }}:0] QEND = {1'b0, {{ q_last }}} + {{ aw + 1 }}'(1);
  localparam logic [QRW-1:0] QBASE_LOW = QRW'({{ q_base }});
  localparam logic [IDW-1:0] RING_ID_INIT = {{ ring_id_init }};

  logic                  req, req_we, req_err;
  logic [{{ aw - 1 }}:0]           req_addr;
  logic [31:0]           req_wdata, req_wstrb_bits, req_rdata, wdata_m;
  logic [3:0]            req_wstrb;

  xdie_axil_regif #(
    .AW({{ aw }})
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

  assign in_q  = ({1'b0, req_addr} >= QBASE) && ({1'b0, req_addr} < QEND);
  assign q_rel = req_addr[QRW-1:0] - QBASE_LOW;
  assign q_sel = q_rel[QRW-1:ROW];
  assign q_off = q_rel[ROW-1:0];
  assign wr    = req && req_we;

  // Only the queue the bus addresses (q_sel) can be written or reset in a cycle.
  assign sel_we     = wr && in_q;
  assign sw_ctrl_we = sel_we && (q_off == {{ off_sw_ctrl }});
  assign rst_tail   = sw_ctrl_we && wdata_m[{{ rst_tail_bit }}];
  assign rst_head   = sw_ctrl_we && wdata_m[{{ rst_head_bit }}];
  assign rst_q      = sw_ctrl_we && wdata_m[{{ rst_q_bit }}];
  assign any_rst    = rst_tail || rst_head || rst_q;

  // ---------------------------------------------------------------- queue state
  // Each per-queue field of all queues is one packed vector, queue q at [W*q +: W]. A cycle
  // changes only the queue the bus addresses, the broadcast target and the queues the engine
  // pulses, so the next-state logic below updates those slices alone instead of evaluating a
  // full copy of the queue logic for every queue.
  logic [NQ*LW-1:0]  tail_q, tail_d, head_q, head_d, ring_len;
  logic [NQ*IDW-1:0] tail_id_q, tail_id_d, head_id_q, head_id_d;
  logic [NQ*UW-1:0]  used_q, used_d;
  logic [NQ-1:0]     overrun_q, overrun_d, pop_req;
{%- for s in q_stores %}
  logic [NQ*32-1:0]  {{ s.name }}_q, {{ s.name }}_d;
{%- endfor %}

  for (genvar q = 0; q < NQ; q++) begin : g_len
    assign ring_len[LW*q +: LW] = {{ len_reg }}_q[32*q + {{ len_lsb }} +: LW];
  end

  // ---------------------------------------------------------------- doorbell lanes
  // At most two queues receive an increment in a cycle: the one the bus rings (lane 0) and the
  // broadcast target (lane 1). A broadcast to the queue the bus rings in that cycle joins lane
  // 0's sum instead. Each lane reads its queue's state, checks for overrun and computes the new
  // tail, so the modular arithmetic exists twice rather than once per queue.
  logic              bus_db, bc_same;
  logic [IW-1:0]     bus_val;
  logic [1:0]        lane_valid;
  logic [2*QW-1:0]   lane_idx;
  logic [2*CW-1:0]   lane_n;
  logic [1:0]        lane_refuse, lane_accept;
  logic [2*LW-1:0]   lane_tail;
  logic [2*IDW-1:0]  lane_tail_id;
  logic [2*UW-1:0]   lane_used;

  assign bus_db   = sel_we && (q_off == {{ off_tail_inc }});
  assign bc_same  = bus_db && bcast_inc_valid_i && (bcast_inc_queue_i == q_sel);
  assign bus_val  = wdata_m{{ inc_slice }};
  assign lane_idx = {bcast_inc_queue_i, q_sel};
  assign lane_valid = {bcast_inc_valid_i && !bc_same, bus_db};
  assign lane_n[CW-1:0]    = CW'(bus_val) + (bc_same ? CW'(bcast_inc_val_i) : '0);
  assign lane_n[2*CW-1:CW] = CW'(bcast_inc_val_i);

  for (genvar l = 0; l < 2; l++) begin : g_lane
    logic [QW-1:0] idx;
    logic [CW-1:0] n, used, len, tail_sum;
    logic [LW-1:0] tail_sub;
    logic          known, live, wrap, over, pop;

    assign idx      = lane_idx[QW*l +: QW];
    assign n        = lane_n[CW*l +: CW];
    assign used     = CW'(used_q[UW*idx +: UW]);
    assign len      = CW'(ring_len[LW*idx +: LW]);
    assign tail_sum = CW'(tail_q[LW*idx +: LW]) + n;
    assign tail_sub = LW'(tail_sum - len);
    assign wrap     = tail_sum >= len;
    assign over     = used + n > len;
    // A broadcast to a queue index beyond the last queue changes nothing. A lane whose queue is
    // reset in the same cycle is dropped, not refused.
    assign known    = {1'b0, idx} < (QW+1)'(NQ);
    assign live     = lane_valid[l] && known && (n != '0) && !(any_rst && (idx == q_sel));
    // The queue's head pulse in this cycle, which the lane's new used count includes.
    assign pop      = hw_head_inc_i[idx] && (used != '0);

    assign lane_refuse[l]           = live && over;
    assign lane_accept[l]           = live && !over;
    assign lane_tail[LW*l +: LW]    = wrap ? tail_sub : LW'(tail_sum);
    assign lane_tail_id[IDW*l +: IDW] = tail_id_q[IDW*idx +: IDW] + IDW'(wrap);
    // used + n <= len, and used > 0 whenever pop is set, so this neither overflows nor wraps.
    assign lane_used[UW*l +: UW]    = UW'(used + n - CW'(pop));
  end

  // ---------------------------------------------------------------- next state
  // Head pulses the reset of the addressed queue drops; a pulse on an empty queue is ignored
  // below.
  assign pop_req = hw_head_inc_i & ~({NQ{any_rst}} & (NQ'(1) << q_sel));

  // Later assignments win: head pulses, then the doorbell lanes (whose used count already
  // includes their queue's pulse), then the resets of the addressed queue.
  always_comb begin
    tail_d    = tail_q;
    tail_id_d = tail_id_q;
    head_d    = head_q;
    head_id_d = head_id_q;
    used_d    = used_q;
    overrun_d = overrun_q;
{%- for s in q_stores %}
    {{ s.name }}_d = {{ s.name }}_q;
    if (sel_we && (q_off == {{ s.offset }})) begin
      {{ s.name }}_d[32*q_sel +: 32] = ({{ s.name }}_q[32*q_sel +: 32] & ~({{ s.wmask }} & req_wstrb_bits)) |
                                  (wdata_m & {{ s.wmask }});
    end
{%- endfor %}
    for (int unsigned q = 0; q < NQ; q++) begin
      if (pop_req[q] && (used_q[UW*q +: UW] != '0)) begin
        if (CW'(head_q[LW*q +: LW]) + CW'(1) >= CW'(ring_len[LW*q +: LW])) begin
          head_d[LW*q +: LW]       = '0;
          head_id_d[IDW*q +: IDW] = head_id_q[IDW*q +: IDW] + IDW'(1);
        end else begin
          head_d[LW*q +: LW]       = head_q[LW*q +: LW] + LW'(1);
        end
        used_d[UW*q +: UW] = used_q[UW*q +: UW] - UW'(1);
      end
    end
    for (int unsigned l = 0; l < 2; l++) begin
      if (lane_accept[l]) begin
        tail_d[LW*lane_idx[QW*l +: QW] +: LW]       = lane_tail[LW*l +: LW];
        tail_id_d[IDW*lane_idx[QW*l +: QW] +: IDW] = lane_tail_id[IDW*l +: IDW];
        used_d[UW*lane_idx[QW*l +: QW] +: UW]       = lane_used[UW*l +: UW];
      end
      if (lane_refuse[l]) begin
        overrun_d[lane_idx[QW*l +: QW]] = 1'b1;
      end
    end
    if (rst_tail || rst_head) begin
      used_d[UW*q_sel +: UW] = '0;
    end
    if (rst_tail) begin
      tail_d[LW*q_sel +: LW]       = '0;
      tail_id_d[IDW*q_sel +: IDW] = RING_ID_INIT;
      overrun_d[q_sel]             = 1'b0;
    end
    if (rst_head) begin
      head_d[LW*q_sel +: LW]       = '0;
      head_id_d[IDW*q_sel +: IDW] = RING_ID_INIT;
    end
    if (rst_q) begin
      tail_d[LW*q_sel +: LW]       = '0;
      tail_id_d[IDW*q_sel +: IDW] = RING_ID_INIT;
      head_d[LW*q_sel +: LW]       = '0;
      head_id_d[IDW*q_sel +: IDW] = RING_ID_INIT;
      used_d[UW*q_sel +: UW]       = '0;
      overrun_d[q_sel]             = 1'b0;
{%- for s in q_stores %}
      {{ s.name }}_d[32*q_sel +: 32] = {{ s.reset }};
{%- endfor %}
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tail_q    <= '0;
      tail_id_q <= {NQ{RING_ID_INIT}};
      head_q    <= '0;
      head_id_q <= {NQ{RING_ID_INIT}};
      used_q    <= '0;
      overrun_q <= '0;
{%- for s in q_stores %}
      {{ s.name }}_q <= {NQ{ {{- s.reset -}} }};
{%- endfor %}
    end else begin
      tail_q    <= tail_d;
      tail_id_q <= tail_id_d;
      head_q    <= head_d;
      head_id_q <= head_id_d;
      used_q    <= used_d;
      overrun_q <= overrun_d;
{%- for s in q_stores %}
      {{ s.name }}_q <= {{ s.name }}_d;
{%- endfor %}
    end
  end

  // ---------------------------------------------------------------- hardware outputs
  assign q_ring_len_o     = ring_len;
  assign q_head_o         = head_q;
  assign q_head_ring_id_o = head_id_q;
  assign q_used_o         = used_q;

  for (genvar q = 0; q < NQ; q++) begin : g_out
    assign q_ring_base_o[BW*q +: BW] = { {{- base_hi_reg }}_q[32*q +: 32] & {{ base_hi_mask }},
                                        {{ base_lo_reg }}_q[32*q +: 32] & {{ base_lo_mask -}} };
    assign q_enable_o[q]             = {{ enable_reg }}_q[32*q + {{ enable_lsb }}];
  end

  // ---------------------------------------------------------------- readback of the addressed queue
  // The addressed queue's fields are selected once; the register read picks among them.
  logic           q_hit, sel_overrun, sel_full;
  logic [31:0]    q_rdata;
  logic [LW-1:0]  sel_tail, sel_head, sel_len;
  logic [IDW-1:0] sel_tail_id, sel_head_id;
  logic [UW-1:0]  sel_used;
{%- for s in q_stores %}
  logic [31:0]    sel_{{ s.name }};
{%- endfor %}

  assign sel_tail    = tail_q[LW*q_sel +: LW];
  assign sel_tail_id = tail_id_q[IDW*q_sel +: IDW];
  assign sel_head    = head_q[LW*q_sel +: LW];
  assign sel_head_id = head_id_q[IDW*q_sel +: IDW];
  assign sel_used    = used_q[UW*q_sel +: UW];
  assign sel_overrun = overrun_q[q_sel];
  assign sel_len     = ring_len[LW*q_sel +: LW];
  // An unconfigured ring (length 0) is not full: status reads its reset value.
  assign sel_full    = (sel_len != '0) && (CW'(sel_used) == CW'(sel_len));
{%- for s in q_stores %}
  assign sel_{{ s.name }} = {{ s.name }}_q[32*q_sel +: 32];
{%- endfor %}

  always_comb begin
    q_hit   = 1'b1;
    q_rdata = '0;
    unique case (q_off)
{%- for r in q_reads %}
      {{ r.offset }}: q_rdata = {{ r.rdata }};
{%- endfor %}
      default: q_hit = 1'b0;
    endcase
  end

  // ---------------------------------------------------------------- block registers
  logic        top_we, top_hit;
  logic [31:0] top_rdata, err_log_q, err_log_d;
{%- for s in top_stores %}
  logic [31:0] {{ s.name }}_q, {{ s.name }}_d;
{%- endfor %}

  assign top_we = wr && !in_q;

  always_comb begin
    // Hardware sets win over a same-cycle software clear.
    err_log_d = err_log_q;
    if (top_we && (req_addr == {{ err_off }})) begin
      err_log_d = err_log_q & ~(wdata_m & {{ err_w1c_mask }});
    end
    if (|lane_refuse) begin
      err_log_d = err_log_d | {{ err_ovr_mask }};
    end
    if (hw_ring_id_err_i) begin
      err_log_d = err_log_d | {{ err_rie_mask }};
    end
{%- for s in top_stores %}
    {{ s.name }}_d = {{ s.name }}_q;
    if (top_we && (req_addr == {{ s.offset }})) begin
      {{ s.name }}_d = ({{ s.name }}_q & ~({{ s.wmask }} & req_wstrb_bits)) | (wdata_m & {{ s.wmask }});
    end
{%- endfor %}
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      err_log_q <= {{ err_reset }};
{%- for s in top_stores %}
      {{ s.name }}_q <= {{ s.reset }};
{%- endfor %}
    end else begin
      err_log_q <= err_log_d;
{%- for s in top_stores %}
      {{ s.name }}_q <= {{ s.name }}_d;
{%- endfor %}
    end
  end

  always_comb begin
    top_hit   = 1'b1;
    top_rdata = '0;
    unique case (req_addr)
      {{ err_off }}: top_rdata = err_log_q & {{ err_rmask }};
{%- for s in top_stores %}
      {{ s.offset }}: top_rdata = {{ s.name }}_q & {{ s.rmask }};
{%- endfor %}
      default: top_hit = 1'b0;
    endcase
  end

  // ---------------------------------------------------------------- readback
  assign req_rdata = in_q ? q_rdata : top_rdata;
  assign req_err   = in_q ? !q_hit : !top_hit;
endmodule
