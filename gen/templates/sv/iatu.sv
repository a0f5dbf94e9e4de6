{%- import "sv/regs.sv" as regs -%}
// {{ header }}
//
{% for l in description %}// {{ l }}
{% endfor %}//
// Lookup (combinational): a region matches when it is enabled and base <= addr <= limit (both
// inclusive, hi:lo words joined). The lowest-numbered matching region wins and the address is
// translated to addr - base + target. With no match, hit is 0 and region/addr are 0.

module {{ module }} (
  input  logic clk_i,
  input  logic rst_ni,
{%- call regs::axil_ports(rf.aw) %}{% endcall %}
  // Lookup
  input  logic [{{ addr_w - 1 }}:0] lookup_addr_i,
  output logic        lookup_hit_o,
  output logic [{{ idx_w - 1 }}:0]  lookup_region_o,
  output logic [{{ addr_w - 1 }}:0] lookup_addr_o,
  // Link status
  input  logic {{ link_up_range }}link_up_i,
  input  logic {{ credits_range }}credits_i
);
{%- call regs::decls(rf) %}{% endcall %}

  // ---- Region lookup
  logic [{{ count_name }}-1:0] region_match;
  logic [{{ idx_w - 1 }}:0] region_sel;
  logic [{{ addr_w - 1 }}:0] sel_base, sel_target;
{%- call regs::logic(rf) %}{% endcall %}

  always_comb begin
    for (int i = 0; i < {{ count_name }}; i++) begin
      region_match[i] = {{ enable_i }} &&
          (lookup_addr_i >= {{ base_i }}) &&
          (lookup_addr_i <= {{ limit_i }});
    end
  end

  // Scan downwards so that the lowest-numbered match is the last one assigned.
  always_comb begin
    lookup_hit_o = 1'b0;
    region_sel   = '0;
    for (int i = {{ count_name }} - 1; i >= 0; i--) begin
      if (region_match[i]) begin
        lookup_hit_o = 1'b1;
        region_sel   = i[{{ idx_w - 1 }}:0];
      end
    end
  end

  assign lookup_region_o = region_sel;
  assign sel_base        = {{ base_sel }};
  assign sel_target      = {{ target_sel }};
  assign lookup_addr_o   = lookup_hit_o ? (lookup_addr_i - sel_base + sel_target) : '0;
endmodule
