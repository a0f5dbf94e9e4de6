{%- import "sv/regs.sv" as regs -%}
// {{ header }}
//
{% for l in description %}// {{ l }}
{% endfor %}//
// Inputs: the bus, and the fields of the link's health report (xdie_d2d_pkg::health_t: link up,
// and this cycle's flit CRC errors, DLLP CRC errors, replays and flits waiting for a send credit
// per channel). Nothing else drives the triggers: a data-plane event has no path in.
//
// Triggers, each a sticky bit of intr_raw (an event in the cycle of a clear wins):
//   CRC_ERR         a CRC error counter goes from at most crc_threshold to above it
//   REPLAY          a replay starts (any channel)
//   LINK_DOWN       link up falls;  LINK_UP  link up rises (also the first bring-up after reset)
//   CREDIT_TIMEOUT  with the link up, some channel has had a flit waiting without a send credit
//                   for credit_timeout cycles in a row (fires once per wait; 0 turns it off)
// intr_status = intr_raw & ~intr_mask; writing 1 to an intr_status bit clears the trigger (masked
// or not); irq_o is the OR of intr_status. The counters saturate and are cleared by the W1P bits
// of counter_clear (clear on write; a clear does not raise CRC_ERR). One adder per counter and
// one for the credit-wait timer; no per-entry logic.

module {{ module }} #(
  // Channels in each field of the health report (request and response)
  parameter int unsigned CH = 2,
{%- call regs::bus_clock_param() %}{% endcall %}
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          bus_clk_i,
{%- call regs::axil_ports(aw, 8) %}{% endcall %}
  // The link's health report (the fields of xdie_d2d_pkg::health_t)
  input  logic          link_up_i,
  input  logic [CH-1:0] flit_crc_err_i,
  input  logic [CH-1:0] dllp_crc_err_i,
  input  logic [CH-1:0] replay_i,
  input  logic [CH-1:0] credit_wait_i,
  // Interrupt: any unmasked trigger pending
  output logic          irq_o
);
  localparam int unsigned AW = {{ aw }};
  localparam logic [31:0] TRIG = {{ trig_mask }};
  localparam int unsigned TW = {{ threshold.width }};
  localparam int unsigned OW = {{ timeout.width }};

  if (CH < 1) begin : g_bad_ch
    $error("{{ module }}: CH must be at least 1");
  end

  // ------------------------------------------------------------------ bus front-end
  logic          req, req_we, req_err, wr;
  logic [AW-1:0] req_addr;
  logic [31:0]   req_wdata, req_rdata, bits;
  logic [3:0]    req_wstrb;

{% include "sv/axil_frontend.sv" %}

  assign wr = req && req_we;
  // The write's data bits that its byte strobes carry.
  always_comb begin
    for (int b = 0; b < 4; b++) bits[8*b +: 8] = req_wdata[8*b +: 8] & {8{req_wstrb[b]}};
  end

  // Per-byte write enables widened to bits (for the merge of a partial write).
  logic [31:0] lanes;
  always_comb begin
    for (int b = 0; b < 4; b++) lanes[8*b +: 8] = {8{req_wstrb[b]}};
  end

  // ------------------------------------------------------------------ state
  logic [31:0]   raw_q, raw_d, mask_q, status, ev;
  logic [TW-1:0] thr_q;
  logic [OW-1:0] tmo_q, wait_q, wait_d;
  logic          up_q, waiting, tmo_ev;
  logic [31:0]   clr;
  assign clr = (wr && req_addr == {{ clear_off }}) ? bits : 32'h0;
  // Only the clear bits of clr are read.
  logic unused_clr;
  assign unused_clr = ^clr;
{%- for c in counters %}
  logic [{{ c.n.width - 1 }}:0] {{ c.name }}_q, {{ c.name }}_d;
  logic [{{ c.n.width }}:0] {{ c.name }}_sum;
{%- if c.crc %}
  logic          {{ c.name }}_pass;
{%- endif %}
{%- endfor %}

  // Counters: add this cycle's events, saturate, or clear.
{%- for c in counters %}
  always_comb begin
    {{ c.name }}_sum = {1'b0, {{ c.name }}_q};
    for (int i = 0; i < CH; i++) {{ c.name }}_sum = {{ c.name }}_sum + {{ c.n.width + 1 }}'({{ c.input }}[i]);
    {{ c.name }}_d = {{ c.name }}_sum[{{ c.n.width }}] ? '1 : {{ c.name }}_sum[{{ c.n.width - 1 }}:0];
    if (clr[{{ c.clear_lsb }}]) {{ c.name }}_d = '0;
  end
{%- if c.crc %}
  assign {{ c.name }}_pass = ({{ c.name }}_q <= {{ c.n.width }}'(thr_q)) && ({{ c.name }}_d > {{ c.n.width }}'(thr_q));
{%- endif %}
{%- endfor %}

  // Credit wait: consecutive cycles (up to this one) in which some channel held a flit without
  // a send credit while the link was up; saturating.
  assign waiting = link_up_i && (|credit_wait_i);
  always_comb begin
    wait_d = '0;
    if (waiting) wait_d = (wait_q == '1) ? wait_q : wait_q + 1'b1;
  end
  assign tmo_ev = waiting && (tmo_q != '0) && ({1'b0, wait_q} + 1'b1 == {1'b0, tmo_q});

  always_comb begin
    ev = 32'h0;
    ev[{{ t_crc }}] = {% for c in counters %}{% if c.crc %}{% if !loop.first %} || {% endif %}{{ c.name }}_pass{% endif %}{% endfor %};
    ev[{{ t_replay }}] = |replay_i;
    ev[{{ t_down }}] = up_q && !link_up_i;
    ev[{{ t_up }}] = !up_q && link_up_i;
    ev[{{ t_timeout }}] = tmo_ev;
  end

  // intr_raw: a W1C through intr_status clears, an event sets (and wins).
  always_comb begin
    raw_d = raw_q;
    if (wr && req_addr == {{ status_off }}) raw_d = raw_d & ~bits;
    raw_d = (raw_d | ev) & TRIG;
  end

  assign status = raw_q & ~mask_q & TRIG;
  assign irq_o  = |status;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      raw_q  <= 32'h0;
      mask_q <= {{ mask_reset }};
      thr_q  <= {{ threshold.reset }};
      tmo_q  <= {{ timeout.reset }};
      wait_q <= '0;
      up_q   <= 1'b0;
{%- for c in counters %}
      {{ c.name }}_q <= {{ c.n.reset }};
{%- endfor %}
    end else begin
      raw_q  <= raw_d;
      wait_q <= wait_d;
      up_q   <= link_up_i;
{%- for c in counters %}
      {{ c.name }}_q <= {{ c.name }}_d;
{%- endfor %}
      if (wr && req_addr == {{ mask_off }}) mask_q <= ((mask_q & ~lanes) | bits) & TRIG;
      if (wr && req_addr == {{ threshold.off }}) begin
        thr_q <= TW'((((32'(thr_q) << {{ threshold.lsb }}) & ~lanes) | bits) >> {{ threshold.lsb }});
      end
      if (wr && req_addr == {{ timeout.off }}) begin
        tmo_q <= OW'((((32'(tmo_q) << {{ timeout.lsb }}) & ~lanes) | bits) >> {{ timeout.lsb }});
      end
    end
  end

  // ------------------------------------------------------------------ readback
  always_comb begin
    req_rdata = 32'h0;
    req_err   = 1'b0;
    unique case (req_addr)
      {{ raw_off }}: req_rdata = raw_q;
      {{ mask_off }}: req_rdata = mask_q;
      {{ status_off }}: req_rdata = status;
      {{ threshold.off }}: req_rdata = 32'(thr_q) << {{ threshold.lsb }};
      {{ timeout.off }}: req_rdata = 32'(tmo_q) << {{ timeout.lsb }};
{%- for c in counters %}
      {{ c.n.off }}: req_rdata = 32'({{ c.name }}_q) << {{ c.n.lsb }};
{%- endfor %}
      {{ clear_off }}: req_rdata = 32'h0;
      default: req_err = 1'b1;
    endcase
  end
endmodule
