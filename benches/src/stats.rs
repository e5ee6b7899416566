//! Summaries of repeated timings.

/// Median and spread of a set of samples.
#[derive(Clone, Copy, Debug)]
pub struct Summary {
    /// The middle sample (the mean of the two middle ones for an even count).
    pub median: f64,
    /// Interquartile range divided by the median: 0.05 means the middle half
    /// of the samples lies within a band 5 % of the median wide.
    pub spread: f64,
}

/// Summarises `samples` (at least one).
///
/// # Panics
///
/// Panics when `samples` is empty or holds a NaN.
#[must_use]
pub fn summarize(samples: &[f64]) -> Summary {
    assert!(!samples.is_empty(), "no samples");
    let mut sorted = samples.to_vec();
    sorted.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
    let median = quantile(&sorted, 0.5);
    let iqr = quantile(&sorted, 0.75) - quantile(&sorted, 0.25);
    let spread = if median > 0.0 { iqr / median } else { 0.0 };
    Summary { median, spread }
}

/// Linear-interpolated quantile of sorted samples.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let pos = q * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

#[cfg(test)]
mod tests {
    use super::summarize;

    #[test]
    fn median_and_spread() {
        let s = summarize(&[4.0, 1.0, 3.0, 2.0, 5.0]);
        assert!((s.median - 3.0).abs() < 1e-9);
        // quartiles 2 and 4: IQR 2 over median 3
        assert!((s.spread - 2.0 / 3.0).abs() < 1e-9);
        let one = summarize(&[7.0]);
        assert!((one.median - 7.0).abs() < 1e-9 && one.spread == 0.0);
    }
}
