// {{ header }}
//
// Register map of block `{{ block.name }}` ({{ block.kind.as_str() }}).
{% for l in description %}// {{ l }}
{% endfor %}
package {{ package }};
{% for c in consts %}{% if !c.comment.is_empty() %}  // {{ c.comment }}
{% endif %}  localparam {{ c.ty }} {{ c.name }} = {{ c.value }};
{% endfor %}endpackage
