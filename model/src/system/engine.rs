//! One engine step: execute the M2S/S2M descriptor pair at the heads of one queue.

use super::{side_idx, System, SIDES};
use crate::error::Result;
use crate::events::{Event, Writer};
use crate::topology::DieId;

impl System {
    /// Execute the pair at the heads of one queue. Returns false when it cannot run.
    pub(super) fn try_pair(&mut self, die: DieId, e: u32, q: u32) -> Result<bool> {
        let len = self.config.ring_len;
        let Some(rings) = self.dies.get(&die).and_then(|d| d.rings.get(&(e, q))) else {
            return Ok(false);
        };
        let ready = rings.iter().all(|r| r.tail > r.head && !r.halted);
        if !ready {
            return Ok(false);
        }
        let heads = [rings[0].head, rings[1].head];
        let tag = rings[0].tags.get(&heads[0]).copied();
        let partner = rings[1].tags.get(&heads[1]).copied();
        if tag.is_some() && partner.is_some() && tag != partner {
            // Two legs' gens interleaved on one queue: the hardware pairs by position anyway.
            self.events.push(Event::Fault {
                die,
                what: format!(
                    "engine {e} queue {q}: M2S entry {tag:?} paired with S2M entry {partner:?}"
                ),
            });
        }
        let mut descs = Vec::new();
        let mut bad = false;
        for side in SIDES {
            let i = side_idx(side);
            let slot =
                self.ring_base(e, side, q) + (heads[i] % len) * self.layout.params.desc_bytes;
            let bytes = self.read_local(die, slot, self.layout.params.desc_bytes);
            let d = self.layout.decode_desc(side, &bytes)?;
            let expected = self.layout.ring_id(heads[i], len);
            if d.ring_id != expected {
                self.events.push(Event::RingIdError {
                    die,
                    engine: e,
                    side,
                    queue: q,
                    found: d.ring_id,
                    expected,
                });
                if let Some(r) = self
                    .dies
                    .get_mut(&die)
                    .and_then(|d| d.rings.get_mut(&(e, q)))
                {
                    r[i].halted = true;
                }
                bad = true;
            }
            descs.push(d);
        }
        if bad {
            return Ok(true);
        }
        let (m, s) = (descs[0], descs[1]);
        match self.route_access(die, m.buf_ptr, false) {
            Ok((sd, sl)) => {
                let data = self.read_local(sd, sl, m.len);
                match self.route(die, s.buf_ptr) {
                    Ok((dd, dl)) => self.land(
                        dd,
                        dl,
                        data,
                        Writer::Engine {
                            die,
                            engine: e,
                            queue: q,
                            leg: tag.map(|t| t.0),
                            kind: tag.map(|t| t.1),
                        },
                    ),
                    Err(err) => self.events.push(Event::Fault {
                        die,
                        what: err.to_string(),
                    }),
                }
            }
            Err(err) => self.events.push(Event::Fault {
                die,
                what: err.to_string(),
            }),
        }
        if let Some(r) = self
            .dies
            .get_mut(&die)
            .and_then(|d| d.rings.get_mut(&(e, q)))
        {
            r[0].head += 1;
            r[1].head += 1;
        }
        Ok(true)
    }
}
