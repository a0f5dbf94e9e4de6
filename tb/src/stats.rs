//! Summaries of repeated measurements. A benchmark on a shared machine runs its cases
//! interleaved several times and reports the median (robust to one slow run) with the smallest
//! and largest value, so a reader sees how noisy the figure was.

/// Median, minimum and maximum of repeated measurements of one quantity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub runs: usize,
}

impl Summary {
    /// `None` for no samples.
    pub fn of(samples: &[f64]) -> Option<Summary> {
        let mut v: Vec<f64> = samples.iter().copied().filter(|x| !x.is_nan()).collect();
        if v.is_empty() {
            return None;
        }
        v.sort_by(f64::total_cmp);
        let n = v.len();
        let median = if n % 2 == 1 {
            v[n / 2]
        } else {
            (v[n / 2 - 1] + v[n / 2]) / 2.0
        };
        Some(Summary {
            median,
            min: v[0],
            max: v[n - 1],
            runs: n,
        })
    }

    /// (max - min) / median: the relative spread of the runs.
    pub fn spread(&self) -> f64 {
        if self.median == 0.0 {
            0.0
        } else {
            (self.max - self.min) / self.median
        }
    }

    /// JSON fields `"<name>": median, "<name>_min": .., "<name>_max": .., "<name>_spread": ..`.
    pub fn json_fields(&self, name: &str, decimals: usize) -> String {
        format!(
            "\"{name}\": {:.d$}, \"{name}_min\": {:.d$}, \"{name}_max\": {:.d$}, \"{name}_spread\": {:.3}",
            self.median,
            self.min,
            self.max,
            self.spread(),
            d = decimals
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_counts() {
        let s = Summary::of(&[3.0, 1.0, 2.0]).expect("samples");
        assert_eq!((s.median, s.min, s.max, s.runs), (2.0, 1.0, 3.0, 3));
        let s = Summary::of(&[4.0, 1.0, 2.0, 3.0]).expect("samples");
        assert_eq!(s.median, 2.5);
        assert!((s.spread() - 3.0 / 2.5).abs() < 1e-12);
        assert!(Summary::of(&[]).is_none());
    }
}
