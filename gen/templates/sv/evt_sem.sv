{%- import "sv/regs.sv" as regs -%}
// {{ header }}
//
// Events and semaphores of block `{{ block.name }}`: {{ n_evt }} event flags and {{ n_sem }} signed
// {{ sem_w }}-bit semaphores seen through four windows (READ, SET, INC, DEC); every window reads
// back the value. A write to READ is ignored (OKAY).
//
// Write ports: 0 = bus (SET loads, INC adds, DEC subtracts), 1..{{ hw_ports }} = hardware increment
// ports, {{ hw_ports + 1 }} = sequencer (inc adds val; wait_ge_and_dec subtracts val once
// sem >= val). Every update of one cycle is applied, also when several name the same semaphore:
// the ports that share an index sum their deltas and the first of them writes
// base + sum back, where base is the stored value, or the SET value when the bus loads that
// semaphore in the same cycle (so SET + same-cycle increments = SET value + increments).
// wait_ge_and_dec compares against the stored value and its subtraction joins the same merge.
// The sequencer accepts and ignores an unknown subop or an index past the last semaphore and
// pulses seq_err_o for one cycle, one cycle after the acceptance. Hardware increments to an
// index past the last semaphore are dropped. Offsets and resets come from {{ pkg }}.

module xdie_{{ block.name }} (
  input  logic                      clk_i,
  input  logic                      rst_ni,
{%- call regs::axil_ports(aw, 20) %}{% endcall %}
  // Hardware increment ports (port p uses bits p of valid, [p*{{ sem_iw }} +: {{ sem_iw }}] of idx,
  // [p*{{ sem_w }} +: {{ sem_w }}] of val; val is signed)
  input  logic [{{ hw_ports - 1 }}:0]                hw_inc_valid_i,
  input  logic [{{ hw_ports * sem_iw - 1 }}:0]               hw_inc_idx_i,
  input  logic [{{ hw_ports * sem_w - 1 }}:0]               hw_inc_val_i,
  // Sequencer port
  input  logic                      seq_valid_i,
  output logic                      seq_ready_o,
  input  logic [{{ subop_bits - 1 }}:0]                seq_subop_i,
  input  logic [{{ sem_iw - 1 }}:0]                seq_idx_i,
  input  logic [{{ sem_w - 1 }}:0]               seq_val_i,
  output logic                      seq_err_o,
  // Event flags
  output logic [{{ n_evt - 1 }}:0]              event_o
);
  localparam int unsigned AW     = {{ aw }};
  localparam int unsigned N_EVT  = {{ n_evt }};
  localparam int unsigned EIW    = {{ evt_iw }};
  localparam int unsigned EVT_LSB = {{ evt_lsb }};
  localparam int unsigned N_SEM  = {{ n_sem }};
  localparam int unsigned IW     = {{ sem_iw }};
  localparam int unsigned SW     = {{ sem_w }};
  localparam int unsigned SEM_LSB = {{ sem_lsb }};
  localparam int unsigned HW     = {{ hw_ports }};
  // Write ports: bus, hardware ports, sequencer.
  localparam int unsigned WP     = HW + 2;
  localparam int unsigned SEQ    = HW + 1;
{% for w in windows %}
  localparam logic [AW-1:0] {{ w.tag }}_BASE = {{ w.base }};
{%- if w.check_hi %}
  localparam logic [AW-1:0] {{ w.tag }}_LAST = {{ w.last }};
{%- endif %}
  localparam logic [AW-1:0] {{ w.tag }}_OFF  = {{ w.offset }};
{%- endfor %}

  // ------------------------------------------------------------------ bus front-end
  logic          req, req_we, req_err;
  logic [AW-1:0] req_addr;
  logic [31:0]   req_wdata, req_rdata;
  logic [3:0]    req_wstrb;

  xdie_axil_regif #(.AW(AW)) u_regif (
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

  // ------------------------------------------------------------------ window decode
  // A window is hit when the address lies in its range at the register's offset within one
  // instance (windows start stride-aligned, so the offset is in the low address bits).
  logic hit_evt, hit_rd, hit_set, hit_inc, hit_dec, hit_sem;
  logic [EIW-1:0] evt_idx;
  logic [IW-1:0]  rd_idx, set_idx, inc_idx, dec_idx, bus_idx;
{% for w in windows %}
  assign hit_{{ w.tag|lower }} =
{%- if w.check_lo %} (req_addr >= {{ w.tag }}_BASE) &&{% endif %}
{%- if w.check_hi %} (req_addr <= {{ w.tag }}_LAST) &&{% endif %}
      (req_addr[{{ w.shift - 1 }}:0] == {{ w.tag }}_OFF[{{ w.shift - 1 }}:0]);
  assign {{ w.tag|lower }}_idx = {{ w.iw }}'((req_addr - {{ w.tag }}_BASE) >> {{ w.shift }});
{%- endfor %}
  assign hit_sem = hit_rd || hit_set || hit_inc || hit_dec;

  always_comb begin
    bus_idx = rd_idx;
    if (hit_set) bus_idx = set_idx;
    if (hit_inc) bus_idx = inc_idx;
    if (hit_dec) bus_idx = dec_idx;
  end

  // ------------------------------------------------------------------ storage
  logic [N_EVT-1:0] evt_q;
  // An unpacked array written only at the indices the write ports name: the simulation cost of
  // a cycle follows the number of ports, not the number of semaphores.
  logic [SW-1:0]    sem_q [N_SEM];

  // One indexed read mux per write port; the bus one is also the readback.
  logic [SW-1:0] bus_cur;
  assign bus_cur = sem_q[bus_idx];

  always_comb begin
    req_rdata = 32'h0;
    if (hit_evt) req_rdata[EVT_LSB] = evt_q[evt_idx];
    if (hit_sem) req_rdata[SEM_LSB +: SW] = bus_cur;
  end
  assign req_err = !(hit_evt || hit_sem);

  // Byte strobes select which bits a bus write carries.
  logic [31:0] strb_mask;
  always_comb begin
    for (int b = 0; b < 4; b++) strb_mask[8*b +: 8] = {8{req_wstrb[b]}};
  end

  logic          bus_wr;
  logic [SW-1:0] bus_val;
  assign bus_wr  = req && req_we;
  assign bus_val = req_wdata[SEM_LSB +: SW] & strb_mask[SEM_LSB +: SW];

  logic evt_we;
  assign evt_we = bus_wr && hit_evt && req_wstrb[EVT_LSB / 8];

  // ------------------------------------------------------------------ sequencer port
  logic seq_is_wait, seq_is_inc, seq_idx_ok, seq_accept, seq_err_d, seq_err_q;
  logic [SW-1:0] seq_cur;
  assign seq_cur     = sem_q[seq_idx_i];
  assign seq_is_wait = (seq_subop_i == {{ subop_wait }});
  assign seq_is_inc  = (seq_subop_i == {{ subop_inc }});
{%- if sem_pow2 %}
  assign seq_idx_ok  = 1'b1;
{%- else %}
  assign seq_idx_ok  = (seq_idx_i < IW'(N_SEM));
{%- endif %}
  // wait_ge_and_dec holds the sequencer until the stored value reaches val.
  assign seq_ready_o = !(seq_is_wait && seq_idx_ok) || ($signed(seq_cur) >= $signed(seq_val_i));
  assign seq_accept  = seq_valid_i && seq_ready_o;
  assign seq_err_d   = seq_accept && !(seq_idx_ok && (seq_is_wait || seq_is_inc));
  assign seq_err_o   = seq_err_q;

  // ------------------------------------------------------------------ write ports
  logic [WP-1:0]    wp_valid, wp_lead;
  logic [WP*IW-1:0] wp_idx;
  logic [WP*SW-1:0] wp_delta, wp_cur, wp_sum, wp_new;
  logic                  bus_load;
  logic [SW-1:0]         bus_load_val;

  assign bus_load     = bus_wr && hit_set;
  assign bus_load_val = (bus_cur & ~strb_mask[SEM_LSB +: SW]) | bus_val;

  always_comb begin
    wp_valid[0] = bus_wr && (hit_set || hit_inc || hit_dec);
    wp_idx[0 +: IW]   = bus_idx;
    wp_cur[0 +: SW]   = bus_cur;
    wp_delta[0 +: SW] = hit_inc ? bus_val : (hit_dec ? -bus_val : '0);
    for (int p = 1; p <= HW; p++) begin
      wp_idx[p*IW +: IW]   = hw_inc_idx_i[(p-1)*IW +: IW];
{%- if sem_pow2 %}
      wp_valid[p] = hw_inc_valid_i[p-1];
{%- else %}
      wp_valid[p] = hw_inc_valid_i[p-1] && (wp_idx[p*IW +: IW] < IW'(N_SEM));
{%- endif %}
      wp_cur[p*SW +: SW]   = sem_q[wp_idx[p*IW +: IW]];
      wp_delta[p*SW +: SW] = hw_inc_val_i[(p-1)*SW +: SW];
    end
    wp_valid[SEQ] = seq_accept && seq_idx_ok && (seq_is_wait || seq_is_inc);
    wp_idx[SEQ*IW +: IW]   = seq_idx_i;
    wp_cur[SEQ*SW +: SW]   = seq_cur;
    wp_delta[SEQ*SW +: SW] = seq_is_inc ? seq_val_i : -seq_val_i;
  end

  // Ports naming the same semaphore merge; the lowest-numbered one writes the result.
  always_comb begin
    for (int p = 0; p < WP; p++) begin
      wp_sum[p*SW +: SW] = '0;
      wp_lead[p]         = wp_valid[p];
      for (int q = 0; q < WP; q++) begin
        if (wp_valid[q] && (wp_idx[q*IW +: IW] == wp_idx[p*IW +: IW])) begin
          wp_sum[p*SW +: SW] = wp_sum[p*SW +: SW] + wp_delta[q*SW +: SW];
          if (q < p) wp_lead[p] = 1'b0;
        end
      end
      // Only the bus loads, and it is port 0, so it leads whenever it loads.
      wp_new[p*SW +: SW] = ((p == 0 && bus_load) ? bus_load_val : wp_cur[p*SW +: SW])
                           + wp_sum[p*SW +: SW];
    end
  end

  // The reset lists every semaphore: Verilator 5.006 rejects a non-blocking array write inside
  // a loop it does not unroll (BLKLOOPINIT) and yosys 0.23 does not parse '{default: ...}.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      evt_q     <= {N_EVT{ {{- evt_reset -}} }};
{%- for i in 0..n_sem %}
      sem_q[{{ i }}] <= {{ sem_reset }};
{%- endfor %}
      seq_err_q <= 1'b0;
    end else begin
      if (evt_we) evt_q[evt_idx] <= req_wdata[EVT_LSB];
      for (int p = 0; p < WP; p++) begin
        if (wp_lead[p]) sem_q[wp_idx[p*IW +: IW]] <= wp_new[p*SW +: SW];
      end
      seq_err_q <= seq_err_d;
    end
  end

  assign event_o = evt_q;
endmodule
