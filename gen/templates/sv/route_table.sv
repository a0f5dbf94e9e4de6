{%- import "sv/regs.sv" as regs -%}
// {{ header }}
//
{% for l in description %}// {{ l }}
{% endfor %}//
// Lookup (combinational), LOOKUPS ports: port l reads the entry at lookup_idx_i[l] and gives its
// VALID bit and PORT field. The die has one port per bus master that may send a request off
// the die.

module {{ module }} #(
  parameter int unsigned LOOKUPS = 1,
  localparam int unsigned IDX_W  = {{ idx_w }},
  localparam int unsigned PORT_W = {{ port_w }}
) (
  input  logic clk_i,
  input  logic rst_ni,
{%- call regs::axil_ports(rf.aw) %}{% endcall %}
  // Lookups
  input  logic [LOOKUPS*IDX_W-1:0]  lookup_idx_i,
  output logic [LOOKUPS-1:0]        lookup_valid_o,
  output logic [LOOKUPS*PORT_W-1:0] lookup_port_o
);
{%- call regs::decls(rf) %}{% endcall %}

  if (LOOKUPS < 1) begin : g_bad_lookups
    $error("{{ module }}: LOOKUPS must be at least 1");
  end

  // Flop copies of every entry's VALID and PORT, for the lookups (packed: reset as one vector).
  logic [{{ count_name }}-1:0]        entry_valid_q;
  logic [{{ count_name }}*PORT_W-1:0] entry_port_q;
  logic [31:0] entry_wr;
{%- call regs::logic(rf) %}{% endcall %}

  // The written entry word (the same merge as the storage); only VALID and PORT are kept here.
  assign entry_wr = ({{ sig }}_rb & ~(reg_wbits & {{ wmask }})) | (reg_wdata & reg_wbits & {{ wmask }});
  logic unused_entry_wr;
  assign unused_entry_wr = ^entry_wr;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      entry_valid_q <= {% raw %}{{% endraw %}{{ count_name }}{% raw %}{{% endraw %}{{ valid_reset }}{% raw %}}}{% endraw %};
      entry_port_q  <= {% raw %}{{% endraw %}{{ count_name }}{% raw %}{{% endraw %}{{ port_reset }}{% raw %}}}{% endraw %};
    end else if (reg_wr && {{ prefix }}_sel && {{ prefix }}_off == {{ off }}) begin
      entry_valid_q[{{ prefix }}_idx]                 <= entry_wr[{{ valid_lsb }}];
      entry_port_q[{{ prefix }}_idx*PORT_W +: PORT_W] <= entry_wr[{{ port_msb }}:{{ port_lsb }}];
    end
  end

  always_comb begin
    for (int unsigned l = 0; l < LOOKUPS; l++) begin
      lookup_valid_o[l]                 = entry_valid_q[lookup_idx_i[l*IDX_W +: IDX_W]];
      lookup_port_o[l*PORT_W +: PORT_W] = entry_port_q[lookup_idx_i[l*IDX_W +: IDX_W]*PORT_W +: PORT_W];
    end
  end
endmodule
