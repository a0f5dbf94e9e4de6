// {{ header }}
//
// Ring descriptor formats and ring rules. A descriptor is read as one little-endian vector of
// DESC_W bits (bit 32w+b is bit b of word w). Per field: <FMT>_<FIELD>_LSB/_WIDTH and
// <fmt>_get_<field>(desc); <fmt>_len_bytes(desc) decodes LEN (0 stands for MAX_LEN_CODE).
//
// A module reads only some of the constants; rtl/lint.vlt says why Verilator's UNUSEDPARAM is
// waived for the generated packages. Functions assign to their own name (no `return`) and read
// fields as sized casts of shifts: the form Verilator 5.006 and Yosys 0.23 both accept.

package {{ pkg }};
{% for c in consts %}
  // {{ c.comment }}

  localparam int unsigned {{ c.name }} = {{ c.value }};
{%- endfor %}
{% for f in formats %}
  // ---------------------------------------------------------------- {{ f.name }}
{% for l in f.comment %}  // {{ l }}
{% endfor %}{% for x in f.fields %}
{% for l in x.comment %}  // {{ l }}
{% endfor %}  localparam int unsigned {{ x.prefix }}_LSB = {{ x.lsb }};
  localparam int unsigned {{ x.prefix }}_WIDTH = {{ x.width }};

  function automatic logic [{{ x.prefix }}_WIDTH-1:0] {{ x.getter }}(input logic [DESC_W-1:0] desc);
    {{ x.getter }} = {{ x.prefix }}_WIDTH'(desc >> {{ x.prefix }}_LSB);
  endfunction
{% endfor %}{% if let Some(l) = f.len %}
  // Bytes the descriptor moves: LEN, where 0 stands for MAX_LEN_CODE.
  function automatic logic [LEN_BYTES_W-1:0] {{ l.func }}(input logic [DESC_W-1:0] desc);
    logic [{{ l.width_param }}-1:0] code;
    code = {{ l.getter }}(desc);
    {{ l.func }} = (code == '0) ? LEN_BYTES_W'(MAX_LEN_CODE) : LEN_BYTES_W'(code);
  endfunction
{% endif %}{% endfor %}
endpackage
