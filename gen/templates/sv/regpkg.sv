// {{ header }}
//
// Register map of block `{{ block.name }}` ({{ block.kind.as_str() }}).
{% for l in description %}// {{ l }}
{% endfor %}//
// Use the constants qualified: {{ package }}::NAME. A module reads only a few of them;
// rtl/lint.vlt says why Verilator's UNUSEDPARAM is waived for the generated packages.

package {{ package }};
{% for c in consts %}{% if !c.comment.is_empty() %}  // {{ c.comment }}
{% endif %}{% if c.one_line() %}  localparam {{ c.ty }} {{ c.name }} = {{ c.value }};
{% else %}  localparam {{ c.ty }} {{ c.name }} =
      {{ c.value }};
{% endif %}{% endfor %}endpackage
