{%- import "sv/regs.sv" as regs -%}
// {{ header }}
//
// Broadcast doorbell `{{ block.name }}`: a group mask of {{ engines }} engines and a queue select,
// both RW; a write of N != 0 to the M2S or S2M increment register pulses, for the next cycle, the
// increment valid of every engine whose mask bit is set, with inc_queue_o = the queue select and
// inc_val_o = N. A zero write does nothing. The increment registers read 0. Offsets, field
// positions and resets come from {{ pkg }}.

module xdie_{{ block.name }} #(
{%- call regs::bus_clock_param() %}{% endcall %}
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                bus_clk_i,
{%- call regs::axil_ports(aw, 14) %}{% endcall %}
  // Broadcast increments, one valid bit per engine (to bcast_inc_valid_i of engine e)
  output logic [{{ engines - 1 }}:0]         m2s_inc_valid_o,
  output logic [{{ engines - 1 }}:0]         s2m_inc_valid_o,
  output logic [{{ queue_w - 1 }}:0]          inc_queue_o,
  output logic [{{ inc_w - 1 }}:0]         inc_val_o
);
  localparam int unsigned AW = {{ aw }};
  localparam int unsigned E  = {{ engines }};
  localparam int unsigned QW = {{ queue_w }};
  localparam int unsigned VW = {{ inc_w }};

  localparam logic [AW-1:0] GROUP_OFF = {{ group.offset }};
  localparam logic [AW-1:0] QUEUE_OFF = {{ queue.offset }};
  localparam logic [AW-1:0] M2S_OFF   = {{ m2s.offset }};
  localparam logic [AW-1:0] S2M_OFF   = {{ s2m.offset }};
  localparam int unsigned   MASK_LSB  = {{ group.lsb }};
  localparam int unsigned   QUEUE_LSB = {{ queue.lsb }};
  localparam int unsigned   INC_LSB   = {{ m2s.lsb }};

  // ------------------------------------------------------------------ bus front-end
  logic          req, req_we, req_err;
  logic [AW-1:0] req_addr;
  logic [31:0]   req_wdata, req_rdata;
  logic [3:0]    req_wstrb;

{% include "sv/axil_frontend.sv" %}

  // Byte strobes select which bits a write carries.
  logic [31:0] strb_mask, wbits;
  always_comb begin
    for (int b = 0; b < 4; b++) strb_mask[8*b +: 8] = {8{req_wstrb[b]}};
  end
  assign wbits = req_wdata & strb_mask;

  // Bits of the write data that no field uses.
  logic unused_wbits;
  assign unused_wbits = ^wbits;

  // ------------------------------------------------------------------ registers
  logic [E-1:0]  mask_q, mask_d, m2s_valid_q, m2s_valid_d, s2m_valid_q, s2m_valid_d;
  logic [QW-1:0] queue_q, queue_d, inc_queue_q, inc_queue_d;
  logic [VW-1:0] inc_val_q, inc_val_d, wr_val;
  logic          wr_group, wr_queue, wr_m2s, wr_s2m;

  assign wr_val = wbits[INC_LSB +: VW];

  always_comb begin
    req_rdata = 32'h0;
    req_err   = 1'b0;
    wr_group  = 1'b0;
    wr_queue  = 1'b0;
    wr_m2s    = 1'b0;
    wr_s2m    = 1'b0;
    unique case (req_addr)
      GROUP_OFF: begin
        req_rdata[MASK_LSB +: E] = mask_q;
        wr_group = req && req_we;
      end
      QUEUE_OFF: begin
        req_rdata[QUEUE_LSB +: QW] = queue_q;
        wr_queue = req && req_we;
      end
      M2S_OFF: wr_m2s = req && req_we && (wr_val != '0);
      S2M_OFF: wr_s2m = req && req_we && (wr_val != '0);
      default: req_err = 1'b1;
    endcase
  end

  always_comb begin
    mask_d      = mask_q;
    queue_d     = queue_q;
    inc_queue_d = inc_queue_q;
    inc_val_d   = inc_val_q;
    m2s_valid_d = '0;
    s2m_valid_d = '0;
    if (wr_group) begin
      mask_d = (mask_q & ~strb_mask[MASK_LSB +: E]) | wbits[MASK_LSB +: E];
    end
    if (wr_queue) begin
      queue_d = (queue_q & ~strb_mask[QUEUE_LSB +: QW]) | wbits[QUEUE_LSB +: QW];
    end
    if (wr_m2s || wr_s2m) begin
      inc_queue_d = queue_q;
      inc_val_d   = wr_val;
      m2s_valid_d = wr_m2s ? mask_q : '0;
      s2m_valid_d = wr_s2m ? mask_q : '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mask_q      <= {{ group.reset }};
      queue_q     <= {{ queue.reset }};
      inc_queue_q <= '0;
      inc_val_q   <= '0;
      m2s_valid_q <= '0;
      s2m_valid_q <= '0;
    end else begin
      mask_q      <= mask_d;
      queue_q     <= queue_d;
      inc_queue_q <= inc_queue_d;
      inc_val_q   <= inc_val_d;
      m2s_valid_q <= m2s_valid_d;
      s2m_valid_q <= s2m_valid_d;
    end
  end

  assign m2s_inc_valid_o = m2s_valid_q;
  assign s2m_inc_valid_o = s2m_valid_q;
  assign inc_queue_o     = inc_queue_q;
  assign inc_val_o       = inc_val_q;
endmodule
