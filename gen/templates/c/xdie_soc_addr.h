/* {{ header }} */
/*
 * The routed SoC address in the address view of the system the firmware is built for. A system
 * routes in one view (the seed's two decoders are alternatives and share one include guard), so
 * define XDIE_SYSTEM_VIEW to one of the XDIE_VIEW_* values below before including this header
 * (for instance -DXDIE_SYSTEM_VIEW=XDIE_VIEW_NEIGHBOR); only that view's macros and folds are
 * defined, and using the other view's is a compile error, not a silent misroute. The value is
 * the code of the generated decoder's VIEW parameter (xdie_soc_addr_pkg::VIEW_*).
 *
 * For every field of the view: _LSB, _WIDTH, _MASK (right-aligned value mask), GET(a) and
 * SET(a, v), prefixed by the view's name. SET is clear-then-insert and truncates v to the field,
 * so GET(SET(a, v)) == v for every v that fits. The folds are generated from the fold steps.
 */
#ifndef XDIE_SOC_ADDR_H
#define XDIE_SOC_ADDR_H

#include <stdint.h>
{% for v in views %}
#define {{ v.code }} {{ v.value }}
{%- endfor %}

#ifndef XDIE_SYSTEM_VIEW
#error "define XDIE_SYSTEM_VIEW to the system's address view ({% for v in views %}{{ v.code }}{% if !loop.last %} or {% endif %}{% endfor %}) before including xdie_soc_addr.h"
#endif
{% for s in sections %}
/* ---- {{ s.title }} */
{%- let w = s.name_width() %}
{%- for d in s.defines %}
{%- if !d.comment.is_empty() %}
/* {{ d.comment }} */
{%- endif %}
#define {{ d.padded(w) }} {{ d.value }}
{%- endfor %}
{% endfor %}
{%- for v in views %}
{% if loop.first %}#if{% else %}#elif{% endif %} XDIE_SYSTEM_VIEW == {{ v.code }}

/* ---- {{ v.section.title }} */
{%- let w = v.section.name_width() %}
{%- for d in v.section.defines %}
{%- if !d.comment.is_empty() %}
/* {{ d.comment }} */
{%- endif %}
#define {{ d.padded(w) }} {{ d.value }}
{%- endfor %}

/* ---- folds of this view */
{% for f in v.folds %}
/* {{ f.description }} */
static inline uint64_t {{ f.name }}({{ f.params }})
{
    uint64_t a = 0;
{%- for s in f.steps %}
    a = {{ s.setter }}(a, {{ s.value }});
{%- endfor %}
    return a;
}
{% endfor %}
{%- endfor %}
#else
#error "XDIE_SYSTEM_VIEW names no address view ({% for v in views %}{{ v.code }}{% if !loop.last %} or {% endif %}{% endfor %})"
#endif

#endif /* XDIE_SOC_ADDR_H */
