// {{ header }}
//
// Register map of block `{{ block.name }}` ({{ block.kind.as_str() }}).
{% for l in description %}// {{ l }}
{% endfor %}//
// Every constant is the single value of its own enum type: Verilator -Wall reports each package
// localparam that no module reads (UNUSEDPARAM), but not unused enum values, and a module reads
// only a few of these. Use them like localparams: {{ package }}::NAME.

package {{ package }};
{% for c in consts %}{% if !c.comment.is_empty() %}  // {{ c.comment }}
{% endif %}{% if c.one_line() %}  typedef enum {{ c.ty }} { {{- c.name }} = {{ c.value -}} } {{ c.name|lower }}_e;
{% else %}  typedef enum {{ c.ty }} {
    {{ c.name }} = {{ c.value }}
  } {{ c.name|lower }}_e;
{% endif %}{% endfor %}endpackage
