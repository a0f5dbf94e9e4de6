{%- import "sv/regs.sv" as regs -%}
// {{ header }}
//
// Events and semaphores of block `{{ block.name }}`: {{ n_evt }} event flags and {{ n_sem }} signed
// {{ sem_w }}-bit semaphores seen through four windows (READ, SET, INC, DEC); every window reads
// back the value. A write to READ is ignored (OKAY).
//
// Update sources: the bus (SET loads, INC adds, DEC subtracts), {{ hw_ports }} hardware increment
// ports (never refused) and the sequencer (inc adds val; wait_ge_and_dec subtracts val once
// sem >= val). Every update of one cycle is applied, also when several name the same semaphore.
//
// Storage: the semaphores are memories with one write port each, so FPGA tools map them to
// LUT-RAM (asynchronous read, synchronous write) instead of flops and per-entry adders. A
// semaphore's value is the sum, modulo 2^{{ sem_w }}, of one entry in each of 1 + {{ hw_ports }} banks:
//   - the main bank, written by the bus or the sequencer (one of them per cycle);
//   - one bank per hardware port, written only by that port (bank += val).
// Each port therefore owns a write port and a read-modify-write adder; no port waits for another
// and no comparator network merges same-index updates: two ports naming one semaphore in one
// cycle add into different banks, and the sum sees both. A bus SET stores (value - sum of the
// hardware banks) in the main bank, so SET plus same-cycle hardware increments reads back as the
// SET value plus the increments. Why not fewer write ports: the hardware ports have no ready (the
// die's fast increment path answers at once), so they cannot be queued behind each other without
// a pending buffer that could overflow; a bank per port costs one more LUT-RAM copy per read
// port and loses nothing.
//
// Pipeline: every bank's read-modify-write takes two cycles. In the cycle an update is presented
// its bank entry is read and registered with the amount (read stage; a bus update's is the
// second cycle of its request, from the entry read in the first); in the next cycle the adder
// runs and the sum is written (write stage). Each bank forwards its write stage: a read of the
// entry being written takes the write stage's sum instead of the memory, so back-to-back updates
// of one semaphore chain through the adder and every read (bus, sequencer compare, a port's own
// read) sees every update presented in earlier cycles, exactly as if the update had completed in
// its cycle. Updates of one cycle still land in different banks, so none is merged or lost.
//
// Reads: the bus and the sequencer share one value read port (main + every hardware bank at one
// index). Its read is registered: every cycle each bank's share at the value index is taken into
// a flop, and the next cycle sums the shares (one carry-save step and one carry chain per sum).
// The bus's front-end waits one cycle for read data (xdie_axil_regif RD_WAIT), so a bus access
// to a semaphore window takes two cycles: the shares are read in the request's first cycle and
// the second answers from them and starts the main bank's update (a read sees every update
// presented before the request's first cycle, as a write does; a read answers three cycles after
// its AR handshake, a write three cycles after its address and data). The sequencer is the only
// source with a handshake, so it yields: seq_ready_o is low in both cycles of a bus access to a
// semaphore window. wait_ge_and_dec compares against the registered value: it is taken when the
// same command (index and value) was presented in the previous cycle too, was read then, the
// semaphore took no update in that cycle, and the value read reaches val; so a wait needs two
// cycles on the port (see xdie_sem_seq). The sequencer accepts and ignores an unknown subop or an
// index past the last semaphore and pulses seq_err_o for one cycle, one cycle after the
// acceptance. Hardware increments to an index past the last semaphore are dropped.
//
// Reset: the banks are not reset (LUT-RAM has no reset). After reset a sweep writes every entry
// once, one index per cycle ({{ n_sem }} cycles): the semaphore's reset value into the main bank and 0
// into every hardware bank; the entries below the sweep pointer are initialised, and init_done_o
// rises once the pointer has passed the last semaphore. Until then nothing may update a
// semaphore: the bus is held (AXI ready low, until the front-end's first clock after the sweep:
// one cycle after init_done_o with one clock), the sequencer is not ready, and hardware
// increments are dropped, so a source of hardware increments must wait for init_done_o (the die
// holds its CSR bridge). Offsets and resets come from {{ pkg }}.

module xdie_{{ block.name }} #(
{%- call regs::bus_clock_param() %}{% endcall %}
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic                      bus_clk_i,
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
  output logic [{{ n_evt - 1 }}:0]              event_o,
  // High once the reset sweep has initialised every semaphore (see Reset above)
  output logic                      init_done_o
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
{% for w in windows %}
  localparam logic [AW-1:0] {{ w.tag }}_BASE = {{ w.base }};
{%- if w.check_hi %}
  localparam logic [AW-1:0] {{ w.tag }}_LAST = {{ w.last }};
{%- endif %}
  localparam logic [AW-1:0] {{ w.tag }}_OFF  = {{ w.offset }};
{%- endfor %}

  // ------------------------------------------------------------------ reset sweep
  // Entries below clr_idx_q are initialised; the sweep ends after the last semaphore.
  logic [IW-1:0] clr_idx_q;
  logic          init_done_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      clr_idx_q   <= '0;
      init_done_q <= 1'b0;
    end else if (!init_done_q) begin
      clr_idx_q   <= clr_idx_q + IW'(1);
      init_done_q <= (clr_idx_q == IW'(N_SEM - 1));
    end
  end
  assign init_done_o = init_done_q;

  // ------------------------------------------------------------------ bus front-end
  // No AXI handshake before the sweep has ended, so the front-end presents no request. The
  // front-end waits one cycle for the answer (RD_WAIT): a bus request reads its semaphore in its
  // first cycle (stage A) and answers and updates from registered values in its second (stage B).
{% include "sv/frontend_clock.sv" %}

  // The bus opens at the front-end's first clock after the sweep (one cycle after init_done_o
  // with one clock). A register of the front-end's clock, so that the handshakes depend on that
  // clock's registers only (see BUS_CLOCK): a bus clock that starts with a request opens the bus
  // at that request's first edge, before the request is offered here.
  logic          bus_open_q;
  always_ff @(posedge fe_clk or negedge rst_ni) begin
    if (!rst_ni) bus_open_q <= 1'b0;
    else         bus_open_q <= init_done_q;
  end

  logic          awvalid, awready, wvalid, wready, arvalid, arready;
  assign awvalid          = s_axil_awvalid_i && bus_open_q;
  assign wvalid           = s_axil_wvalid_i && bus_open_q;
  assign arvalid          = s_axil_arvalid_i && bus_open_q;
  assign s_axil_awready_o = awready && bus_open_q;
  assign s_axil_wready_o  = wready && bus_open_q;
  assign s_axil_arready_o = arready && bus_open_q;

  logic          req, req_we, req_err, issue;
  logic [AW-1:0] issue_addr;
  logic [31:0]   req_wdata, req_rdata;
  logic [3:0]    req_wstrb;

  xdie_axil_regif #(.AW(AW), .RD_WAIT(1'b1)) u_regif (
    .clk_i       (fe_clk),
    .rst_ni,
    .s_awvalid_i (awvalid),
    .s_awready_o (awready),
    .s_awaddr_i  (s_axil_awaddr_i),
    .s_wvalid_i  (wvalid),
    .s_wready_o  (wready),
    .s_wdata_i   (s_axil_wdata_i),
    .s_wstrb_i   (s_axil_wstrb_i),
    .s_bvalid_o  (s_axil_bvalid_o),
    .s_bready_i  (s_axil_bready_i),
    .s_bresp_o   (s_axil_bresp_o),
    .s_arvalid_i (arvalid),
    .s_arready_o (arready),
    .s_araddr_i  (s_axil_araddr_i),
    .s_rvalid_o  (s_axil_rvalid_o),
    .s_rready_i  (s_axil_rready_i),
    .s_rdata_o   (s_axil_rdata_o),
    .s_rresp_o   (s_axil_rresp_o),
    .req_o       (req),
    .req_we_o    (req_we),
    .req_addr_o  (),
    .issue_o     (issue),
    .issue_addr_o(issue_addr),
    .req_wdata_o (req_wdata),
    .req_wstrb_o (req_wstrb),
    .req_rdata_i (req_rdata),
    .req_err_i   (req_err)
  );

  // ------------------------------------------------------------------ window decode
  // Decoded one cycle ahead, from the address the front-end is taking into its request register,
  // into flops that hold for both cycles of the request. A window is hit when the address lies in
  // its range at the register's offset within one instance (windows start stride-aligned, so the
  // offset is in the low address bits).
  logic a_evt, a_rd, a_set, a_inc, a_dec;
  logic [EIW-1:0] a_evt_idx;
  logic [IW-1:0]  a_rd_idx, a_set_idx, a_inc_idx, a_dec_idx, a_idx;
{% for w in windows %}
  assign a_{{ w.tag|lower }} =
{%- if w.check_lo %} (issue_addr >= {{ w.tag }}_BASE) &&{% endif %}
{%- if w.check_hi %} (issue_addr <= {{ w.tag }}_LAST) &&{% endif %}
      (issue_addr[{{ w.shift - 1 }}:0] == {{ w.tag }}_OFF[{{ w.shift - 1 }}:0]);
  assign a_{{ w.tag|lower }}_idx = {{ w.iw }}'((issue_addr - {{ w.tag }}_BASE) >> {{ w.shift }});
{%- endfor %}

  always_comb begin
    a_idx = a_rd_idx;
    if (a_set) a_idx = a_set_idx;
    if (a_inc) a_idx = a_inc_idx;
    if (a_dec) a_idx = a_dec_idx;
  end

  // bus_a: the request presented this cycle (an aligned one: the front-end answers a misaligned
  // one itself) accesses a semaphore window; a flop, since it steers the value read's index.
  logic           hit_evt, hit_set, hit_inc, hit_dec, hit_sem, bus_a;
  logic [EIW-1:0] evt_idx;
  logic [IW-1:0]  bus_idx;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bus_a   <= 1'b0;
    end else begin
      bus_a   <= issue && (issue_addr[1:0] == 2'b00) && (a_rd || a_set || a_inc || a_dec);
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hit_evt <= 1'b0;
      hit_set <= 1'b0;
      hit_inc <= 1'b0;
      hit_dec <= 1'b0;
      hit_sem <= 1'b0;
      evt_idx <= '0;
      bus_idx <= '0;
    end else if (issue) begin
      hit_evt <= a_evt;
      hit_set <= a_set;
      hit_inc <= a_inc;
      hit_dec <= a_dec;
      hit_sem <= a_rd || a_set || a_inc || a_dec;
      evt_idx <= a_evt_idx;
      bus_idx <= a_idx;
    end
  end

  // ------------------------------------------------------------------ storage
  logic [N_EVT-1:0] evt_q;

  // The bus holds the value port and the main bank for both cycles of a semaphore access:
  // bus_a in its first (stage A: read), bus_b_q in its second (stage B: answer, main update).
  logic          bus_b_q;
  logic [IW-1:0] v_idx;
  assign v_idx = bus_a ? bus_idx : seq_idx_i;

  // Every bank's share of the value at v_idx is registered each cycle (sh_q, bank 0 the main
  // bank, bank 1 + p hardware port p): stage B sums the registered shares.
  logic [(HW+1)*SW-1:0] sh_d, sh_q;

  // Main bank (bus and sequencer) and its write stage: m_we_q writes m_base_q + m_add_q at
  // m_idx_q at the end of this cycle; a read of that entry takes the sum (forwarding).
  logic [SW-1:0] main_q [N_SEM];
  logic          m_we_q;
  logic [IW-1:0] m_idx_q;
  logic [SW-1:0] m_base_q, m_add_q, m_new, v_main;
  assign m_new  = m_base_q + m_add_q;
  assign v_main = (m_we_q && (m_idx_q == v_idx)) ? m_new : main_q[v_idx];
  assign sh_d[0 +: SW] = v_main;

  // Hardware banks: port p's two-stage increment and its share of the value read.
  logic [HW-1:0]    hw_we, hw_hit;
  for (genvar p = 0; p < HW; p++) begin : g_hw
    logic [SW-1:0] acc_q [N_SEM];
    logic [IW-1:0] idx;
    logic [SW-1:0] own;
    // Write stage
    logic          w_q;
    logic [IW-1:0] w_idx_q;
    logic [SW-1:0] w_base_q, w_add_q, w_new;
    assign idx = hw_inc_idx_i[p*IW +: IW];
{%- if sem_pow2 %}
    assign hw_we[p] = hw_inc_valid_i[p] && init_done_q;
{%- else %}
    assign hw_we[p] = hw_inc_valid_i[p] && init_done_q && (idx < IW'(N_SEM));
{%- endif %}
    // This port updates the semaphore the sequencer's value read names.
    assign hw_hit[p] = hw_we[p] && (idx == seq_idx_i);
    assign w_new = w_base_q + w_add_q;
    assign own   = (w_q && (w_idx_q == idx)) ? w_new : acc_q[idx];
    assign sh_d[(p+1)*SW +: SW] = (w_q && (w_idx_q == v_idx)) ? w_new : acc_q[v_idx];

    always_ff @(posedge clk_i) begin
      if (hw_we[p]) begin
        w_idx_q  <= idx;
        w_base_q <= own;
        w_add_q  <= hw_inc_val_i[p*SW +: SW];
      end
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) w_q <= 1'b0;
      else         w_q <= hw_we[p];
    end
    always_ff @(posedge clk_i) begin
      if (!init_done_q) acc_q[clr_idx_q] <= '0;
      else if (w_q)     acc_q[w_idx_q]   <= w_new;
    end
  end

  // ------------------------------------------------------------------ stage B sums
  // From the registered shares, each sum is one carry-save reduction and one carry chain (the
  // carry vector's bit 0 is free after the shift, so a +1 rides in it):
  //   v_cur  = the value (sum of all shares), for the bus read and a partial-strobe SET;
  //   v_nhw  = minus the hardware banks' share (sum of their complements + HW), for a SET;
  //   v_diff = v_cur - sq_val_q (shares + ~val + 1), for the sequencer's compare.
  logic [SW-1:0] sq_val_q;
  logic [SW-1:0] cur_s, cur_c, nhw_s, nhw_c, dif_s, dif_c;
  logic [SW-1:0] v_cur, v_nhw, v_diff;

  // One carry-save step: three addends become a sum vector and a carry vector (shifted up, its
  // bit 0 zero) with the same total modulo 2**SW, {carry, sum}. (Assigned to the function's
  // name: yosys 0.23 takes no `return`.)
  function automatic logic [2*SW-1:0] carry_save(input logic [SW-1:0] a, input logic [SW-1:0] b,
                                                 input logic [SW-1:0] c);
    logic [SW-1:0] carry;
    carry = ((a & b) | (a & c) | (b & c)) << 1;
    carry_save = {carry, a ^ b ^ c};
  endfunction

  always_comb begin
    cur_s = sh_q[0 +: SW];
    cur_c = sh_q[SW +: SW];
    for (int b = 2; b <= HW; b++) begin
      {cur_c, cur_s} = carry_save(cur_s, cur_c, sh_q[b*SW +: SW]);
    end
    {dif_c, dif_s} = carry_save(cur_s, cur_c, ~sq_val_q);
    dif_c[0] = 1'b1;
    nhw_s = ~sh_q[SW +: SW];
    nhw_c = SW'(HW);
    for (int b = 2; b <= HW; b++) begin
      {nhw_c, nhw_s} = carry_save(nhw_s, nhw_c, ~sh_q[b*SW +: SW]);
    end
  end
  assign v_cur  = cur_s + cur_c;
  assign v_diff = dif_s + dif_c;
  assign v_nhw  = nhw_s + nhw_c;

  always_comb begin
    req_rdata = 32'h0;
    if (hit_evt) req_rdata[EVT_LSB] = evt_q[evt_idx];
    if (hit_sem) req_rdata[SEM_LSB +: SW] = v_cur;
  end
  assign req_err = !(hit_evt || hit_sem);

  // Byte strobes select which bits a bus write carries.
  logic [31:0] strb_mask;
  always_comb begin
    for (int b = 0; b < 4; b++) strb_mask[8*b +: 8] = {8{req_wstrb[b]}};
  end

  logic [SW-1:0] bus_val;
  assign bus_val = req_wdata[SEM_LSB +: SW] & strb_mask[SEM_LSB +: SW];

  logic evt_we;
  assign evt_we = req && req_we && hit_evt && req_wstrb[EVT_LSB / 8];

  // ------------------------------------------------------------------ sequencer port
  // wait_ge_and_dec is decided from registered values: in the cycle a command is presented its
  // semaphore's shares are read (sh_q, with sq_* naming the command), and the next cycle takes a
  // wait presented again with the same index and value if that value reaches it and nothing
  // updated the semaphore in between (sq_dirty_q); otherwise the read of this cycle is the next
  // try. So a wait needs two cycles on the port. inc and unknown subops are taken at once.
  logic seq_is_wait, seq_is_inc, seq_idx_ok, seq_accept, seq_err_d, seq_err_q;
  logic seq_free, seq_same, seq_ge, seq_upd;
  logic          sq_wait_q, sq_dirty_q;
  logic [IW-1:0] sq_idx_q;
  assign seq_is_wait = (seq_subop_i == {{ subop_wait }});
  assign seq_is_inc  = (seq_subop_i == {{ subop_inc }});
{%- if sem_pow2 %}
  assign seq_idx_ok  = 1'b1;
{%- else %}
  assign seq_idx_ok  = (seq_idx_i < IW'(N_SEM));
{%- endif %}
  // The value and the main bank are free of the bus in this cycle.
  assign seq_free    = init_done_q && !bus_a && !bus_b_q;
  assign seq_same    = sq_wait_q && !sq_dirty_q && (sq_idx_q == seq_idx_i) && (sq_val_q == seq_val_i);
  // Signed sq_val_q <= value: the difference's sign, unless the operands' signs differ.
  assign seq_ge      = (v_cur[SW-1] != sq_val_q[SW-1]) ? !v_cur[SW-1] : !v_diff[SW-1];
  assign seq_ready_o = seq_free && (!(seq_is_wait && seq_idx_ok) || (seq_same && seq_ge));
  assign seq_accept  = seq_valid_i && seq_ready_o;
  assign seq_upd     = seq_accept && seq_idx_ok && (seq_is_wait || seq_is_inc);
  assign seq_err_d   = seq_accept && !(seq_idx_ok && (seq_is_wait || seq_is_inc));
  assign seq_err_o   = seq_err_q;

  // Loaded whenever the bus or the sequencer may use them (not only when they do: the enable
  // stays off the compare's path, and idle cycles cost the simulator nothing).
  always_ff @(posedge clk_i) begin
    if (bus_a || seq_valid_i) begin
      sh_q     <= sh_d;
      sq_idx_q <= seq_idx_i;
      sq_val_q <= seq_val_i;
    end
  end

  // ------------------------------------------------------------------ main bank update
  // At most one of bus and sequencer updates per cycle (the sequencer yields). The read stage
  // registers a base and an amount; the write stage adds them. The bus's read stage is its
  // stage B, from the registered shares (nothing else updates the main bank while the bus holds
  // it). A SET stores the loaded value minus the hardware banks' share, so the banks' sum reads
  // back as the SET value plus the hardware increments of the request's first cycle and later;
  // INC, DEC and the sequencer add their delta to the main entry.
  logic          main_we, bus_upd;
  logic [SW-1:0] main_base, main_add;
  assign bus_upd = bus_b_q && req_we && (hit_set || hit_inc || hit_dec);

  always_comb begin
    main_base = v_main;
    main_add  = seq_is_inc ? seq_val_i : -seq_val_i;
    if (bus_b_q) begin
      main_base = sh_q[0 +: SW];
      if (hit_set) begin
        main_base = (v_cur & ~strb_mask[SEM_LSB +: SW]) | bus_val;
        main_add  = v_nhw;
      end
      if (hit_inc) main_add = bus_val;
      if (hit_dec) main_add = -bus_val;
    end
  end
  assign main_we = bus_upd || seq_upd;

  always_ff @(posedge clk_i) begin
    if (bus_b_q || seq_valid_i) begin
      m_idx_q  <= bus_b_q ? bus_idx : v_idx;
      m_base_q <= main_base;
      m_add_q  <= main_add;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!init_done_q) main_q[clr_idx_q] <= SW'({{ sem_reset }});
    else if (m_we_q)  main_q[m_idx_q]   <= m_new;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      evt_q      <= {N_EVT{ {{- evt_reset -}} }};
      m_we_q     <= 1'b0;
      seq_err_q  <= 1'b0;
      bus_b_q    <= 1'b0;
      sq_wait_q  <= 1'b0;
      sq_dirty_q <= 1'b0;
    end else begin
      if (evt_we) evt_q[evt_idx] <= req_wdata[EVT_LSB];
      m_we_q     <= main_we;
      seq_err_q  <= seq_err_d;
      bus_b_q    <= bus_a;
      // The shares read this cycle are the sequencer's, and still its value next cycle unless an
      // update of that semaphore is taken in this cycle.
      sq_wait_q  <= seq_free && seq_valid_i && seq_is_wait && seq_idx_ok;
      sq_dirty_q <= seq_upd || (|hw_hit);
    end
  end

  assign event_o = evt_q;
endmodule
