// {{ header }}
//
// Die sizing profiles (csrs/sizing.*): how much of the register map a build wires up and how much
// memory and buffering stands behind it. The register map is the same in every profile. One
// constant set per profile, and the default profile's set again as DEFAULT_*: the parameter
// defaults of xdie_die, which the model and the testbench simulate. Every other profile has a
// wrapper top xdie_die_<name> (rtl/gen/) that passes its set to xdie_die. Numbers are written
// out because Yosys 0.23 cannot read another package's constant inside a package.

package {{ pkg }};
{% for p in profiles %}
  // ---------------------------------------------------------------- profile `{{ p.name }}`{% if p.is_default %} (default){% endif %}
{%- if !p.description.is_empty() %}
{{ p.description }}
{%- endif %}
{%- for c in p.consts %}
  // {{ c.comment }}
  localparam int unsigned {{ c.name }} = {{ c.value }};
{%- endfor %}
{% endfor %}
  // ---------------------------------------------------------------- default: `{{ default_name }}`
{%- for c in defaults %}
  // {{ c.comment }}
  localparam int unsigned {{ c.name }} = {{ c.value }};
{%- endfor %}

endpackage
