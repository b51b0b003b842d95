//! Delta debugging (Zeller's ddmin) over the characters of an input, with a
//! predicate that judges many candidates at once, so that each step costs one
//! browser round trip.

/// Shrinks `input` while `fails` says it still shows the failure, down to a
/// 1-minimal input (no single chunk at the finest granularity can be removed)
/// or until `max_rounds` calls of `fails`.
///
/// `fails` gets the candidates of one step and returns, for each, whether it
/// still fails (the same length; a shorter answer counts as "does not fail").
///
/// ```
/// use tagloom_browser::minimize::minimize;
///
/// let small = minimize("xxabyyyy", 100, |cands| {
///     cands.iter().map(|c| c.contains('a') && c.contains('b')).collect()
/// });
/// assert_eq!(small, "ab");
/// ```
pub fn minimize(
    input: &str,
    max_rounds: usize,
    mut fails: impl FnMut(&[String]) -> Vec<bool>,
) -> String {
    let mut current: Vec<char> = input.chars().collect();
    let mut n = 2usize;
    let mut rounds = 0;
    while current.len() >= 2 && rounds < max_rounds {
        let chunks = split(current.len(), n);
        // Subsets first (they shrink fastest), then complements.
        let mut candidates: Vec<Vec<char>> = Vec::with_capacity(2 * chunks.len());
        for &(from, to) in &chunks {
            candidates.push(current.get(from..to).unwrap_or_default().to_vec());
        }
        if n > 2 {
            for &(from, to) in &chunks {
                let mut c = current.get(..from).unwrap_or_default().to_vec();
                c.extend_from_slice(current.get(to..).unwrap_or_default());
                candidates.push(c);
            }
        }
        let texts: Vec<String> = candidates.iter().map(|c| c.iter().collect()).collect();
        let verdicts = fails(&texts);
        rounds += 1;
        match verdicts.iter().position(|&f| f) {
            Some(i) if i < chunks.len() => {
                current = candidates.swap_remove(i);
                n = 2;
            }
            Some(i) => {
                current = candidates.swap_remove(i);
                n = (n - 1).max(2);
            }
            None if n >= current.len() => break,
            None => n = (2 * n).min(current.len()),
        }
    }
    current.into_iter().collect()
}

/// `n` contiguous ranges covering `0..len` (sizes differ by at most one).
fn split(len: usize, n: usize) -> Vec<(usize, usize)> {
    let n = n.clamp(1, len.max(1));
    (0..n).map(|i| (i * len / n, (i + 1) * len / n)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reaches_a_one_minimal_input() {
        let input = "<p><b>noise<table>more noise<i>x</b>tail";
        let pred = |c: &str| c.contains("<b>") && c.contains("</b>") && c.contains("<t");
        let small = minimize(input, 1000, |cands| cands.iter().map(|c| pred(c)).collect());
        assert!(pred(&small));
        // 1-minimal: removing any single character loses the failure.
        let chars: Vec<char> = small.chars().collect();
        for i in 0..chars.len() {
            let mut c = chars.clone();
            c.remove(i);
            let c: String = c.into_iter().collect();
            assert!(!pred(&c), "{small:?} is not 1-minimal: {c:?} still fails");
        }
    }

    #[test]
    fn stops_after_max_rounds() {
        let mut calls = 0;
        let _ = minimize(&"a".repeat(1000), 3, |cands| {
            calls += 1;
            vec![false; cands.len()]
        });
        assert_eq!(calls, 3);
    }

    #[test]
    fn split_covers_the_range() {
        assert_eq!(split(5, 2), vec![(0, 2), (2, 5)]);
        assert_eq!(split(3, 7), vec![(0, 1), (1, 2), (2, 3)]);
    }
}
