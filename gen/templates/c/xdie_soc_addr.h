/* {{ header }} */
/*
 * The routed SoC address: one set of macros per view, prefixed by the view name, so both views
 * can be used in one translation unit. For every field: _LSB, _WIDTH, _MASK (right-aligned
 * value mask), GET(a) and SET(a, v). SET is clear-then-insert and truncates v to the field, so
 * GET(SET(a, v)) == v for every v that fits. The views share bits (the id-valid bit is one bit in
 * both); build an address with one view only. The folds below are generated from the fold steps.
 */
#ifndef XDIE_SOC_ADDR_H
#define XDIE_SOC_ADDR_H

#include <stdint.h>
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
/* ---- folds */
{% for f in folds %}
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
#endif /* XDIE_SOC_ADDR_H */
