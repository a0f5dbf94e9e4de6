{%- import "sv/regs.sv" as regs -%}
// {{ header }}
//
{% for l in description %}// {{ l }}
{% endfor %}//
// The lookup is combinational. K and L are xt-wide and zero-extended to the SoC width. With no
// match, hit is 0 and win/soc_addr are 0; the die's host port answers that with DECERR.

module {{ module }} (
  input  logic clk_i,
  input  logic rst_ni,
{%- call regs::axil_ports(rf.aw) %}{% endcall %}
  // Lookup
  input  logic [{{ xt_w - 1 }}:0] xt_addr_i,
  output logic        hit_o,
  output logic [{{ idx_w - 1 }}:0]  win_o,
  output logic [{{ soc_w - 1 }}:0] soc_addr_o
);
{%- call regs::decls(rf) %}{% endcall %}

  // ---- Window lookup
  logic [{{ count_name }}-1:0] win_match;
  logic [{{ idx_w - 1 }}:0] win_sel;
  // xt bits of the winning window that pass through, and the SoC bits that replace the rest.
  logic [{{ xt_w - 1 }}:0] keep;
  logic [{{ soc_w - 1 }}:0] base;
{%- call regs::logic(rf) %}{% endcall %}

  always_comb begin
    for (int i = 0; i < {{ count_name }}; i++) begin
      win_match[i] = {{ valid_i }} && ({{ mode_i }} ?
          ((xt_addr_i & {{ mask_i }}) == {{ match_i }}) :
          ((xt_addr_i & {{ u_mask_i }}) == ({{ xt_i }} & {{ u_mask_i }})));
    end
  end

  // Scan downwards so that the lowest-numbered match is the last one assigned.
  always_comb begin
    hit_o   = 1'b0;
    win_sel = '0;
    for (int i = {{ count_name }} - 1; i >= 0; i--) begin
      if (win_match[i]) begin
        hit_o   = 1'b1;
        win_sel = i[{{ idx_w - 1 }}:0];
      end
    end
  end

  always_comb begin
    if ({{ mode_sel }}) begin
      keep = ~{{ mask_sel }};
      base = {{ replace_sel }};
    end else begin
      keep = {{ l_mask_sel }};
      base = {{ soc_sel }};
    end
  end

  assign win_o      = win_sel;
  assign soc_addr_o = hit_o ? ((base & ~{{ keep_ext }}) | {{ pass_ext }}) : '0;
endmodule
