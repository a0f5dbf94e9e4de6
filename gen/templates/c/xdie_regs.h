/* {{ header }} */
/*
 * Die map, register blocks, ring descriptors and ExtendedInst words.
 * Register fields: _LSB, _WIDTH, _MASK (right-aligned value mask), _RESET. Register _OFFSET is
 * the byte offset within the block (top-level registers) or within one bundle instance; the
 * function-like macro NAME(i) gives the block offset of a bundle register of instance i.
 * Add an aperture instance base (XDIE_AP_*_INST(i)) to reach a block from the die-local space.
 */
#ifndef XDIE_REGS_H
#define XDIE_REGS_H

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
#endif /* XDIE_REGS_H */
