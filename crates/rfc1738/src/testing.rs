//! Inputs for the unit tests that hold a one-pass check to the rules it
//! shortcuts: every text over a small alphabet, and long random ones.

/// Every text of `lengths` bytes over `alphabet`.
pub(crate) fn every_text(alphabet: &[u8], lengths: core::ops::RangeInclusive<u32>) -> Vec<Vec<u8>> {
    let mut texts = Vec::new();
    for n in lengths {
        for mut code in 0..alphabet.len().pow(n) {
            texts.push(
                (0..n)
                    .map(|_| {
                        let b = alphabet[code % alphabet.len()];
                        code /= alphabet.len();
                        b
                    })
                    .collect(),
            );
        }
    }
    texts
}

/// `count` texts of 1 to `max_len` bytes drawn from `alphabet` by a
/// xorshift generator from `seed`: the same texts on every run.
pub(crate) fn random_texts(mut seed: u64, count: usize, max_len: usize, alphabet: &[u8]) -> Vec<Vec<u8>> {
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    (0..count)
        .map(|_| {
            let len = 1 + (next() % max_len as u64) as usize;
            (0..len).map(|_| alphabet[(next() % alphabet.len() as u64) as usize]).collect()
        })
        .collect()
}
