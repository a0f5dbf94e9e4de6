{#- Shared register-block macros. `rf` is an emit::sv_regs::RegFile. A block template calls:
    axil_ports (port list lines), decls (signals), logic (front-end, decode, storage, readback).
    Everything numeric comes from RegFile; nothing here is block-specific. axil_ports takes only
    the address width, so hand-written blocks that have no RegFile use it too. -#}

{#- One `<dir> logic <range> s_axil_<name>,` line; the range is left-aligned in a column
    range_w wide so that a block's own ports can line up with these. #}
{%- macro axil_port(dir, range, name, range_w) %}
  {{ dir }} logic {{ "{:<1$}"|format(range, range_w) }} s_axil_{{ name }},
{%- endmacro %}

{#- The BUS_CLOCK parameter of a register block whose bus front-end may run on a gated copy of
    its clock (the front-end's clock choice is sv/frontend_clock.sv). #}
{%- macro bus_clock_param() %}
  // 1: the bus front-end runs on bus_clk_i, a copy of clk_i that the caller gates off in cycles
  // where the bus holds no transaction of this block (xdie_die does, so that a simulator skips
  // the front-end while the register bus is idle); 0: one clock, bus_clk_i unused.
  parameter bit BUS_CLOCK = 1'b0
{%- endmacro %}

{#- range_w: width of the packed-range column, for templates whose own port list uses a wider
    one than the default (which fits [31:0]). #}
{%- macro axil_ports(aw, range_w = 6) %}
{%- let addr = "[{}:0]"|format(aw - 1) %}
  // AXI4-Lite slave
{%- call axil_port("input ", "", "awvalid_i", range_w) %}{% endcall %}
{%- call axil_port("output", "", "awready_o", range_w) %}{% endcall %}
{%- call axil_port("input ", addr, "awaddr_i", range_w) %}{% endcall %}
{%- call axil_port("input ", "", "wvalid_i", range_w) %}{% endcall %}
{%- call axil_port("output", "", "wready_o", range_w) %}{% endcall %}
{%- call axil_port("input ", "[31:0]", "wdata_i", range_w) %}{% endcall %}
{%- call axil_port("input ", "[3:0]", "wstrb_i", range_w) %}{% endcall %}
{%- call axil_port("output", "", "bvalid_o", range_w) %}{% endcall %}
{%- call axil_port("input ", "", "bready_i", range_w) %}{% endcall %}
{%- call axil_port("output", "[1:0]", "bresp_o", range_w) %}{% endcall %}
{%- call axil_port("input ", "", "arvalid_i", range_w) %}{% endcall %}
{%- call axil_port("output", "", "arready_o", range_w) %}{% endcall %}
{%- call axil_port("input ", addr, "araddr_i", range_w) %}{% endcall %}
{%- call axil_port("output", "", "rvalid_o", range_w) %}{% endcall %}
{%- call axil_port("input ", "", "rready_i", range_w) %}{% endcall %}
{%- call axil_port("output", "[31:0]", "rdata_o", range_w) %}{% endcall %}
{%- call axil_port("output", "[1:0]", "rresp_o", range_w) %}{% endcall %}
{%- endmacro %}

{%- macro decls(rf) %}
  // ---- Register front-end
  logic        reg_req, reg_we, reg_wr, reg_err;
{%- if !rf.singles.is_empty() %}
  logic [{{ rf.aw - 1 }}:0] reg_addr;
{%- endif %}
  logic [{{ rf.aw - 1 }}:0] reg_issue_addr;
  logic        reg_issue;
  logic [31:0] reg_wdata, reg_rdata, reg_wbits;
  logic [3:0]  reg_wstrb;
{%- for a in rf.arrays %}

  // ---- {{ a.name }}: {{ a.count }} instances
  localparam int {{ a.count_name }} = {{ a.count }};
  logic [{{ rf.aw - 1 }}:0] {{ a.prefix }}_rel;
  logic        {{ a.prefix }}_sel;
  logic [{{ a.idx_w - 1 }}:0] {{ a.prefix }}_idx;
  logic [{{ a.off_w - 1 }}:0] {{ a.prefix }}_off;
{%- for r in a.regs %}{% if r.stored %}
  logic [31:0] {{ r.sig }}_m [{{ a.count_name }}];
  logic [{{ a.count_name }}-1:0] {{ r.sig }}_ok;
{%- if a.ok_ahead %}
  logic        {{ r.sig }}_okq;
{%- endif %}
{%- if r.flops %}
  logic [31:0] {{ r.sig }}_q [{{ a.count_name }}];
{%- endif %}
{%- endif %}{% endfor %}
{%- for p in a.picks %}
  logic {{ p.range }}{{ p.name }};
{%- endfor %}
{%- for n in a.nexts %}
  logic {{ n.range }}{{ n.name }};
{%- endfor %}
{%- endfor %}
{%- if rf.singles_stored %}

  // ---- Single registers
{%- for r in rf.singles %}{% if r.stored %}
  logic [31:0] {{ r.sig }}_q, {{ r.sig }}_d;
{%- endif %}{% endfor %}
{%- endif %}
{%- endmacro %}

{%- macro logic(rf) %}

  // AXI4-Lite to single-cycle register requests.
  xdie_axil_regif #(
    .AW({{ rf.aw }})
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
    .req_o       (reg_req),
    .req_we_o    (reg_we),
    .req_addr_o  ({% if !rf.singles.is_empty() %}reg_addr{% endif %}),
    .issue_o     (reg_issue),
    .issue_addr_o(reg_issue_addr),
    .req_wdata_o (reg_wdata),
    .req_wstrb_o (reg_wstrb),
    .req_rdata_i (reg_rdata),
    .req_err_i   (reg_err)
  );

  assign reg_wr    = reg_req && reg_we;
  // Byte strobes widened to one enable per data bit.
  assign reg_wbits = {{ "{{" }}8{reg_wstrb[3]}}, {8{reg_wstrb[2]}}, {8{reg_wstrb[1]}}, {8{reg_wstrb[0]}}};
{%- for a in rf.arrays %}

  // {{ a.name }}: which instance, and which word inside it. Decoded from the address being
  // issued and held in flops for the request's cycle (timing: the request cycle starts with the
  // storage read).
  assign {{ a.prefix }}_rel = reg_issue_addr - {{ a.base }};
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {{ a.prefix }}_sel <= 1'b0;
      {{ a.prefix }}_idx <= '0;
      {{ a.prefix }}_off <= '0;
    end else if (reg_issue) begin
      {{ a.prefix }}_sel <= {1'b0, {{ a.prefix }}_rel} < {{ a.span }};
      {{ a.prefix }}_idx <= {{ a.prefix }}_rel[{{ a.off_w + a.idx_w - 1 }}:{{ a.off_w }}];
      {{ a.prefix }}_off <= {{ a.prefix }}_rel[{{ a.off_w - 1 }}:0];
    end
  end
{%- if a.ok_ahead %}

  // {{ a.name }}: the written-since-reset flags of the instance being issued, decoded with its
  // index (a write to that instance in the same cycle is forwarded) and kept up to date by
  // writes until the next issue, so readback and write merges start at these flops.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
{%- for r in a.regs %}{% if r.stored %}
      {{ r.sig }}_okq <= 1'b0;
{%- endif %}{% endfor %}
    end else if (reg_issue) begin
{%- for r in a.regs %}{% if r.stored %}
      {{ r.sig }}_okq <= {{ r.sig }}_ok[{{ a.prefix }}_rel[{{ a.off_w + a.idx_w - 1 }}:{{ a.off_w }}]] ||
          (reg_wr && {{ a.prefix }}_sel && {{ a.prefix }}_off == {{ r.off }} &&
           {{ a.prefix }}_idx == {{ a.prefix }}_rel[{{ a.off_w + a.idx_w - 1 }}:{{ a.off_w }}]);
{%- endif %}{% endfor %}
    end else if (reg_wr && {{ a.prefix }}_sel) begin
{%- for r in a.regs %}{% if r.stored %}
      if ({{ a.prefix }}_off == {{ r.off }}) {{ r.sig }}_okq <= 1'b1;
{%- endif %}{% endfor %}
    end
  end
{%- endif %}
{%- endfor %}

{%- for a in rf.arrays %}{% if a.stored %}

  // {{ a.name }} storage. Memories (no reset; LUT-RAM on an FPGA) with one written-since-reset
  // flop per instance: an unwritten entry reads as its reset value. A write merges the strobed
  // bits into the addressed word, read through the readback port.
{%- for p in a.picks %}
  assign {{ p.name }} = {{ p.ok }} ? {{ p.sig }}_m[{{ p.idx }}]{{ p.slice }} : {{ p.reset }};
{%- endfor %}
{%- if !a.nexts.is_empty() %}

  // Fields of the addressed instance as they stand after this cycle's request: the strobed
  // write bits merged in where the request writes the register, else the stored value.
{%- for n in a.nexts %}
  assign {{ n.name }} = (reg_wr && {{ a.prefix }}_sel && {{ a.prefix }}_off == {{ n.off }}) ?
      (({{ n.sig }}_rb{{ n.slice }} & ~reg_wbits{{ n.slice }}) | (reg_wdata{{ n.slice }} & reg_wbits{{ n.slice }})) :
      {{ n.sig }}_rb{{ n.slice }};
{%- endfor %}
{%- endif %}

  always_ff @(posedge clk_i) begin
    if (reg_wr && {{ a.prefix }}_sel) begin
      unique case ({{ a.prefix }}_off)
{%- for r in a.regs %}{% if r.stored %}
        {{ r.off }}: {{ r.sig }}_m[{{ a.prefix }}_idx] <=
            ({{ r.sig }}_rb & ~(reg_wbits & {{ r.wmask }})) | (reg_wdata & reg_wbits & {{ r.wmask }});
{%- endif %}{% endfor %}
        default: ;
      endcase
    end
  end

  // Written-since-reset flags{% if a.flops %}, and the flop copies that lookups of every instance read{% endif %}.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
{%- for r in a.regs %}{% if r.stored %}
      {{ r.sig }}_ok <= '0;
{%- endif %}{% endfor %}
{%- if a.flops %}
      for (int i = 0; i < {{ a.count_name }}; i++) begin
{%- for r in a.regs %}{% if r.flops %}
        {{ r.sig }}_q[i] <= {{ r.reset }};
{%- endif %}{% endfor %}
      end
{%- endif %}
    end else if (reg_wr && {{ a.prefix }}_sel) begin
      unique case ({{ a.prefix }}_off)
{%- for r in a.regs %}{% if r.stored %}
        {{ r.off }}: begin
          {{ r.sig }}_ok[{{ a.prefix }}_idx] <= 1'b1;
{%- if r.flops %}
          {{ r.sig }}_q[{{ a.prefix }}_idx] <=
              ({{ r.sig }}_rb & ~(reg_wbits & {{ r.wmask }})) | (reg_wdata & reg_wbits & {{ r.wmask }});
{%- endif %}
        end
{%- endif %}{% endfor %}
        default: ;
      endcase
    end
  end
{%- endif %}{% endfor %}
{%- if rf.singles_stored %}

  // Single registers: hold, or merge the strobed write bits.
  always_comb begin
{%- for r in rf.singles %}{% if r.stored %}
    {{ r.sig }}_d = {{ r.sig }}_q;
{%- endif %}{% endfor %}
    if (reg_wr) begin
      unique case (reg_addr)
{%- for r in rf.singles %}{% if r.stored %}
        {{ r.off }}: {{ r.sig }}_d = ({{ r.sig }}_q & ~(reg_wbits & {{ r.wmask }})) |
            (reg_wdata & reg_wbits & {{ r.wmask }});
{%- endif %}{% endfor %}
        default: ;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
{%- for r in rf.singles %}{% if r.stored %}
      {{ r.sig }}_q <= {{ r.reset }};
{%- endif %}{% endfor %}
    end else begin
{%- for r in rf.singles %}{% if r.stored %}
      {{ r.sig }}_q <= {{ r.sig }}_d;
{%- endif %}{% endfor %}
    end
  end
{%- endif %}

  // Readback: pick the bundle, then the word of the addressed instance. Offsets that name no
  // register answer SLVERR.
  always_comb begin
    reg_rdata = 32'h0;
    reg_err   = 1'b1;
{%- for a in rf.arrays %}
    {% if !loop.first %}end else {% endif %}if ({{ a.prefix }}_sel) begin
      unique case ({{ a.prefix }}_off)
{%- for r in a.regs %}
        {{ r.off }}: begin
          reg_rdata = {{ r.read }};
          reg_err   = 1'b0;
        end
{%- endfor %}
        default: ;
      endcase
{%- endfor %}
{%- if !rf.singles.is_empty() %}
{%- if !rf.arrays.is_empty() %}
    end else begin
{%- else %}
    begin
{%- endif %}
      unique case (reg_addr)
{%- for r in rf.singles %}
        {{ r.off }}: begin
          reg_rdata = {{ r.read }};
          reg_err   = 1'b0;
        end
{%- endfor %}
        default: ;
      endcase
    end
{%- else if !rf.arrays.is_empty() %}
    end
{%- endif %}
  end
{%- endmacro %}
