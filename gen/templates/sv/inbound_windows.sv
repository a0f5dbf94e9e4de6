{%- import "sv/regs.sv" as regs -%}
// {{ header }}
//
{% for l in description %}// {{ l }}
{% endfor %}//
// Windows enabled at reset (READ and WRITE), resolved from the die map:
{% for d in defaults %}//   {{ d }}
{% endfor %}//
// Check ports (combinational), one per D2D port: chk_ok_o[p] is 1 when some enabled window
// matches the die-local address chk_local_i[p] and grants the direction chk_write_i[p]. The die
// refuses a request that would land while its check fails, and reports it on refuse_i[p] (with
// its routed address and direction) in the cycle the crossbar takes it. The capture takes the
// lowest-numbered refusing port while VALID is clear (a refusal in the cycle of VALID's W1C is
// captured); the counter adds every refusal of the cycle, saturating (its clear wins).
// irq_o = VALID && IRQ_EN. The windows are flops (every one is compared at once): one XOR, AND
// and OR-reduce over the die-local address per window and port, no adder.

module {{ module }} #(
  // D2D ports checked
  parameter int unsigned PORTS = 1,
  // Die-local address bits (window base and mask) and SoC address bits (the capture)
  localparam int unsigned LW = {{ lw }},
  localparam int unsigned SW = {{ sw }},
{%- call regs::bus_clock_param() %}{% endcall %}
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                bus_clk_i,
{%- call regs::axil_ports(aw, 8) %}{% endcall %}
  // Checks, port p in bits [p*LW +: LW]
  input  logic [PORTS*LW-1:0] chk_local_i,
  input  logic [PORTS-1:0]    chk_write_i,
  output logic [PORTS-1:0]    chk_ok_o,
  // Refusals the crossbar took this cycle, with their routed address and direction
  input  logic [PORTS-1:0]    refuse_i,
  input  logic [PORTS*SW-1:0] refuse_addr_i,
  input  logic [PORTS-1:0]    refuse_write_i,
  // Permission interrupt (a refusal captured and IRQ_EN set)
  output logic                irq_o
);
  localparam int unsigned AW = {{ aw }};
  localparam int unsigned N  = {{ n }};
  localparam int unsigned IW = {{ idx_w }};
  localparam int unsigned OW = {{ off_w }};
  localparam int unsigned PW = {{ port_w }};
  localparam int unsigned CW = {{ count_w }};
  localparam int unsigned BLO = {{ base.lo_w }};
  localparam int unsigned MLO = {{ mask.lo_w }};
  localparam int unsigned ALO = {{ addr_lo.1 }};
  // Reset of every window, window N-1 first
  localparam logic [N-1:0]    RST_EN   = {{ rst_en }};
  localparam logic [N*LW-1:0] RST_BASE = {{ rst_base }};
  localparam logic [N*LW-1:0] RST_MASK = {{ rst_mask }};

  if (PORTS < 1 || PORTS > (1 << PW)) begin : g_bad_ports
    $error("{{ module }}: PORTS must be 1 .. 2**(width of err_status.PORT)");
  end

  // ------------------------------------------------------------------ bus front-end
  logic          req, req_we, req_err, wr;
  logic [AW-1:0] req_addr;
  logic [31:0]   req_wdata, req_rdata, bits, lanes, nw;
  logic [3:0]    req_wstrb;

{% include "sv/axil_frontend.sv" %}

  assign wr = req && req_we;
  // The write's data bits its byte strobes carry, and the strobes widened to bits.
  always_comb begin
    for (int b = 0; b < 4; b++) begin
      bits[8*b +: 8]  = req_wdata[8*b +: 8] & {8{req_wstrb[b]}};
      lanes[8*b +: 8] = {8{req_wstrb[b]}};
    end
  end
  // The addressed word after the write: the strobed bytes replaced (readback is the old word).
  assign nw = (req_rdata & ~lanes) | bits;

  // ------------------------------------------------------------------ state
  logic [N-1:0]  en_q, rd_q, wr_q;
  logic [LW-1:0] base_q [N];
  logic [LW-1:0] mask_q [N];
  logic          valid_q, cap_write_q, irq_en_q;
  logic [PW-1:0] cap_port_q, cap_p;
  logic [SW-1:0] cap_addr_q;
  logic [CW-1:0] count_q, count_d;
  logic [CW:0]   count_sum;

  // Window decode: which window, which word inside it.
  logic [AW:0]   win_rel;
  logic          win_sel;
  logic [IW-1:0] win_idx;
  logic [OW-1:0] win_off;
  assign win_rel = {1'b0, req_addr} - {1'b0, {{ win_base }}};
  assign win_sel = win_rel < {{ win_span }};
  assign win_idx = win_rel[OW +: IW];
  assign win_off = win_rel[OW-1:0];

  // The top-level writes of this cycle
  logic w1c, clear, arm;
  assign w1c   = wr && req_addr == {{ status_off }} && bits[{{ valid_lsb }}];
  assign clear = wr && req_addr == {{ ctrl2_off }} && bits[{{ clear_lsb }}];
  assign arm   = !valid_q || w1c;

  // ------------------------------------------------------------------ checks
  always_comb begin
    for (int p = 0; p < PORTS; p++) begin
      chk_ok_o[p] = 1'b0;
      for (int i = 0; i < N; i++) begin
        if (en_q[i] && (chk_write_i[p] ? wr_q[i] : rd_q[i]) &&
            (((chk_local_i[p*LW +: LW] ^ base_q[i]) & mask_q[i]) == '0)) begin
          chk_ok_o[p] = 1'b1;
        end
      end
    end
  end

  // ------------------------------------------------------------------ refusals
  // The lowest-numbered refusing port, its direction and address.
  logic          cap_w;
  logic [SW-1:0] cap_a;
  always_comb begin
    cap_p = '0;
    cap_w = 1'b0;
    cap_a = '0;
    for (int p = PORTS - 1; p >= 0; p--) begin
      if (refuse_i[p]) begin
        cap_p = PW'(p);
        cap_w = refuse_write_i[p];
        cap_a = refuse_addr_i[p*SW +: SW];
      end
    end
  end

  always_comb begin
    count_sum = {1'b0, count_q};
    for (int p = 0; p < PORTS; p++) count_sum = count_sum + {{ count_w + 1 }}'(refuse_i[p]);
    count_d = count_sum[CW] ? '1 : count_sum[CW-1:0];
    if (clear) count_d = '0;
  end

  assign irq_o = valid_q && irq_en_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q     <= 1'b0;
      cap_write_q <= 1'b0;
      cap_port_q  <= '0;
      cap_addr_q  <= '0;
      count_q     <= '0;
      irq_en_q    <= 1'b{{ irq_reset }};
    end else begin
      count_q <= count_d;
      if (arm && (|refuse_i)) begin
        valid_q     <= 1'b1;
        cap_port_q  <= cap_p;
        cap_write_q <= cap_w;
        cap_addr_q  <= cap_a;
      end else if (w1c) begin
        valid_q <= 1'b0;
      end
      if (wr && req_addr == {{ ctrl2_off }}) irq_en_q <= nw[{{ irq_lsb }}];
    end
  end

  // ------------------------------------------------------------------ windows
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < N; i++) begin
        en_q[i]   <= RST_EN[i];
        rd_q[i]   <= RST_EN[i];
        wr_q[i]   <= RST_EN[i];
        base_q[i] <= RST_BASE[i*LW +: LW];
        mask_q[i] <= RST_MASK[i*LW +: LW];
      end
    end else if (wr && win_sel) begin
      case (win_off)
        {{ ctrl_off }}: begin
          en_q[win_idx] <= nw[{{ en_lsb }}];
          rd_q[win_idx] <= nw[{{ rd_lsb }}];
          wr_q[win_idx] <= nw[{{ wr_lsb }}];
        end
        {{ base.lo_off }}: base_q[win_idx][BLO-1:0] <= nw[{{ base.lo_lsb }} +: BLO];
        {{ base.hi_off }}: base_q[win_idx][LW-1:BLO] <= nw[{{ base.hi_lsb }} +: LW-BLO];
        {{ mask.lo_off }}: mask_q[win_idx][MLO-1:0] <= nw[{{ mask.lo_lsb }} +: MLO];
        {{ mask.hi_off }}: mask_q[win_idx][LW-1:MLO] <= nw[{{ mask.hi_lsb }} +: LW-MLO];
        default: ;
      endcase
    end
  end

  // ------------------------------------------------------------------ readback
  always_comb begin
    req_rdata = 32'h0;
    req_err   = 1'b0;
    if (win_sel) begin
      unique case (win_off)
        {{ ctrl_off }}: req_rdata = (32'(en_q[win_idx]) << {{ en_lsb }}) | (32'(rd_q[win_idx]) << {{ rd_lsb }})
                          | (32'(wr_q[win_idx]) << {{ wr_lsb }});
        {{ base.lo_off }}: req_rdata = 32'(base_q[win_idx][BLO-1:0]) << {{ base.lo_lsb }};
        {{ base.hi_off }}: req_rdata = 32'(base_q[win_idx][LW-1:BLO]) << {{ base.hi_lsb }};
        {{ mask.lo_off }}: req_rdata = 32'(mask_q[win_idx][MLO-1:0]) << {{ mask.lo_lsb }};
        {{ mask.hi_off }}: req_rdata = 32'(mask_q[win_idx][LW-1:MLO]) << {{ mask.hi_lsb }};
        default: req_err = 1'b1;
      endcase
    end else begin
      unique case (req_addr)
        {{ status_off }}: req_rdata = (32'(valid_q) << {{ valid_lsb }}) | (32'(cap_write_q) << {{ write_lsb }})
                          | (32'(cap_port_q) << {{ port_lsb }});
        {{ addr_lo_off }}: req_rdata = 32'(cap_addr_q[ALO-1:0]) << {{ addr_lo.0 }};
        {{ addr_hi_off }}: req_rdata = 32'(cap_addr_q[SW-1:ALO]) << {{ addr_hi.0 }};
        {{ count_off }}: req_rdata = 32'(count_q) << {{ count_lsb }};
        {{ ctrl2_off }}: req_rdata = 32'(irq_en_q) << {{ irq_lsb }};
        default: req_err = 1'b1;
      endcase
    end
  end
endmodule
