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
  // The rule every window compares, in flops: valid, and a compare mask and value (x matches
  // when (x & rule_mask) == rule_val): mask and match in match mode, u_mask and xt_addr & u_mask
  // in range mode. So a lookup reads three signals per address bit, not six.
  logic [{{ count_name }}-1:0] rule_valid_q;
  logic [{{ xt_w - 1 }}:0] rule_mask_q [{{ count_name }}];
  logic [{{ xt_w - 1 }}:0] rule_val_q [{{ count_name }}];
  logic [{{ count_name }}-1:0] win_match;
  // The winner as an index and as a one-hot vector (win_taken: a lower window matched).
  logic [{{ idx_w - 1 }}:0] win_sel;
  logic [{{ count_name }}-1:0] win_first;
  logic        win_taken;
  // xt bits of the winning window that pass through, and the SoC bits that replace the rest.
  logic [{{ xt_w - 1 }}:0] keep;
  logic [{{ soc_w - 1 }}:0] base;
{%- call regs::logic(rf) %}{% endcall %}

  // A write to any register of a window rewrites its rule from the window's words as they stand
  // after the write, in the cycle the registers change: the lookup sees both at the same edge.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < {{ count_name }}; i++) begin
        rule_valid_q[i] <= {{ valid_reset }};
        rule_mask_q[i]  <= {{ cmp_mask_reset }};
        rule_val_q[i]   <= {{ cmp_val_reset }};
      end
    end else if (reg_wr && {{ req_sel }}) begin
      rule_valid_q[{{ req_idx }}] <= {{ valid_nx }};
      rule_mask_q[{{ req_idx }}]  <= {{ mode_nx }} ? {{ mask_nx }} : {{ u_mask_nx }};
      rule_val_q[{{ req_idx }}]   <= {{ mode_nx }} ? {{ match_nx }} :
          ({{ xt_nx }} & {{ u_mask_nx }});
    end
  end

  always_comb begin
    for (int i = 0; i < {{ count_name }}; i++) begin
      win_match[i] = rule_valid_q[i] && ((xt_addr_i & rule_mask_q[i]) == rule_val_q[i]);
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
    win_first = '0;
    win_taken = 1'b0;
    for (int i = 0; i < {{ count_name }}; i++) begin
      win_first[i] = win_match[i] && !win_taken;
      win_taken    = win_taken || win_match[i];
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
