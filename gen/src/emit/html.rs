//! `docs/register-map.html`: every register block as a page a person can scan: one bitfield
//! diagram (inline SVG) per register, then its fields. Geometry is computed here; the template
//! only draws boxes. Text reaches the page through askama's HTML escaping.

use super::docs::bits;
use super::{OutFile, DO_NOT_EDIT};
use askama::Template;
use std::result::Result;
use xdie_csr::{Block, Csrs, Register};

/// Width of one bit cell of a diagram, in SVG user units.
const CELL: u32 = 26;
/// Bits of a register (every register of csrs/ is one 32-bit word).
const REG_BITS: u32 = 32;

/// One box of a diagram: a field, or a run of reserved bits.
pub struct Cell {
    pub x: u32,
    pub w: u32,
    pub mid: u32,
    pub label: String,
    pub msb: u32,
    pub lsb: u32,
    pub reserved: bool,
    pub access: &'static str,
}

pub struct FieldRow {
    pub bits: String,
    pub name: String,
    pub access: &'static str,
    pub reset: String,
    pub description: String,
}

pub struct Reg {
    pub anchor: String,
    pub name: String,
    pub offset: String,
    pub description: String,
    pub cells: Vec<Cell>,
    pub fields: Vec<FieldRow>,
}

pub struct BlockPage {
    pub name: String,
    pub description: String,
    pub regs: Vec<Reg>,
}

#[derive(Template)]
#[template(path = "html/register_map.html")]
struct RegisterMapHtml {
    header: &'static str,
    blocks: Vec<BlockPage>,
    width: u32,
}

/// The boxes of one register, most significant bit on the left as in a data sheet.
fn cells(r: &Register) -> Vec<Cell> {
    let mut fields: Vec<_> = r.fields.iter().collect();
    fields.sort_by_key(|f| std::cmp::Reverse(f.lsb));
    let mut out = Vec::new();
    let mut next_msb = REG_BITS as i64 - 1;
    let mut push = |msb: u32, lsb: u32, label: String, reserved: bool, access: &'static str| {
        let x = (REG_BITS - 1 - msb) * CELL;
        let w = (msb - lsb + 1) * CELL;
        out.push(Cell {
            x,
            w,
            mid: x + w / 2,
            label,
            msb,
            lsb,
            reserved,
            access,
        });
    };
    for f in fields {
        if (f.msb() as i64) < next_msb {
            push(next_msb as u32, f.msb() + 1, String::new(), true, "");
        }
        // A label wider than its box is cut to what fits (the table below has the full name).
        let fits = ((f.width * CELL) / 8).max(1) as usize;
        let label = if f.name.chars().count() > fits {
            f.name
                .chars()
                .take(fits.saturating_sub(1).max(1))
                .collect::<String>()
                + "…"
        } else {
            f.name.clone()
        };
        push(f.msb(), f.lsb, label, false, f.access.as_str());
        next_msb = f.lsb as i64 - 1;
    }
    if next_msb >= 0 {
        push(next_msb as u32, 0, String::new(), true, "");
    }
    out
}

fn reg(block: &Block, r: &Register, offset: String) -> Reg {
    let mut fields: Vec<_> = r.fields.iter().collect();
    fields.sort_by_key(|f| std::cmp::Reverse(f.lsb));
    Reg {
        anchor: format!("{}-{}", block.name, r.name).to_lowercase(),
        name: r.name.clone(),
        offset,
        description: super::escape::html_text(&r.description),
        cells: cells(r),
        fields: fields
            .into_iter()
            .map(|f| FieldRow {
                bits: bits(f.msb(), f.lsb),
                name: f.name.clone(),
                access: f.access.as_str(),
                reset: format!("0x{:X}", f.reset),
                description: super::escape::html_text(&f.description),
            })
            .collect(),
    }
}

fn block_page(b: &Block) -> BlockPage {
    let mut regs: Vec<(u64, Reg)> = b
        .registers
        .iter()
        .map(|r| (r.offset, reg(b, r, format!("0x{:X}", r.offset))))
        .collect();
    for bu in &b.bundles {
        for r in &bu.registers {
            let first = bu.offset + r.offset;
            let offset = if bu.count > 1 {
                format!(
                    "0x{first:X} + i × 0x{:X} (i = 0..{}, {})",
                    bu.stride,
                    bu.count - 1,
                    bu.name
                )
            } else {
                format!("0x{first:X}")
            };
            regs.push((first, reg(b, r, offset)));
        }
    }
    // In address order, so the page reads as the block's map.
    regs.sort_by_key(|(o, _)| *o);
    BlockPage {
        name: b.name.clone(),
        description: super::escape::html_text(&b.description),
        regs: regs.into_iter().map(|(_, r)| r).collect(),
    }
}

pub fn render(csrs: &Csrs) -> Result<Vec<OutFile>, askama::Error> {
    let t = RegisterMapHtml {
        header: DO_NOT_EDIT,
        blocks: csrs.blocks.iter().map(block_page).collect(),
        width: REG_BITS * CELL,
    };
    let mut text = t.render()?;
    if !text.ends_with('\n') {
        text.push('\n');
    }
    Ok(vec![OutFile::new("docs/register-map.html", text)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_cover_every_bit_once_from_msb_to_lsb() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../csrs");
        let csrs = xdie_csr::load(&dir).expect("the repository's csrs/ load");
        for b in &csrs.blocks {
            let regs = b
                .registers
                .iter()
                .chain(b.bundles.iter().flat_map(|bu| &bu.registers));
            for r in regs {
                let cs = cells(r);
                let mut next = REG_BITS as i64 - 1;
                for c in &cs {
                    assert_eq!(c.msb as i64, next, "{}.{}: gap or overlap", b.name, r.name);
                    assert_eq!(c.x, (REG_BITS - 1 - c.msb) * CELL);
                    assert_eq!(c.w, (c.msb - c.lsb + 1) * CELL);
                    next = c.lsb as i64 - 1;
                }
                assert_eq!(next, -1, "{}.{}: bits below the last box", b.name, r.name);
                let named = cs.iter().filter(|c| !c.reserved).count();
                assert_eq!(named, r.fields.len(), "{}.{}", b.name, r.name);
            }
        }
    }
}
