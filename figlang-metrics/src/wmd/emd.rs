//! The exact earth mover's distance between two integer histograms: the minimum-cost
//! transportation plan, by successive shortest paths with node potentials (Dijkstra on reduced
//! costs over the dense bipartite residual graph).
//!
//! WMD's weights are word counts divided by document length, so scaling the two sides by each
//! other's length makes every supply and demand an integer and the flow exact; only the costs are
//! floating point. The optimum's value is unique, so it equals what any exact solver (POT's
//! network simplex among them) returns, up to the rounding of the final sum. Each augmentation
//! exhausts a supply, a demand or the flow on a reversed arc, so the number of rounds stays near
//! the number of distinct words; each round is O((n1 + n2)^2).

/// Why a transport problem was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EmdError {
    /// The two sides do not carry the same total mass.
    #[error("supplies sum to {supply} and demands to {demand}; they must be equal")]
    Unbalanced {
        /// Total supply.
        supply: u128,
        /// Total demand.
        demand: u128,
    },
    /// The cost matrix does not have `supply.len() * demand.len()` entries, or holds a negative
    /// or non-finite cost.
    #[error("cost matrix: {0}")]
    BadCost(String),
}

/// The minimum of `sum f[i][j] * cost[i * n2 + j]` over flows `f >= 0` whose row sums are
/// `supply` and column sums are `demand` (row-major `cost`, `n2 = demand.len()`).
///
/// # Errors
/// [`EmdError`] for unequal totals, a cost matrix of the wrong size, or a negative or
/// non-finite cost.
pub fn emd(supply: &[u64], demand: &[u64], cost: &[f64]) -> Result<f64, EmdError> {
    let (n1, n2) = (supply.len(), demand.len());
    let total_s: u128 = supply.iter().map(|&x| u128::from(x)).sum();
    let total_d: u128 = demand.iter().map(|&x| u128::from(x)).sum();
    if total_s != total_d {
        return Err(EmdError::Unbalanced {
            supply: total_s,
            demand: total_d,
        });
    }
    if cost.len() != n1.saturating_mul(n2) {
        return Err(EmdError::BadCost(format!(
            "{} entries for {n1} x {n2}",
            cost.len()
        )));
    }
    if let Some(c) = cost.iter().find(|c| !(c.is_finite() && **c >= 0.0)) {
        return Err(EmdError::BadCost(format!(
            "cost {c} (costs must be finite and >= 0)"
        )));
    }
    let flow = Solver::new(supply, demand, cost).solve();
    Ok(flow.iter().zip(cost).map(|(&f, &c)| f as f64 * c).sum())
}

/// Nodes: 0 = super source, 1..=n1 sources, n1+1..=n1+n2 sinks, n1+n2+1 = super sink.
struct Solver<'a> {
    n1: usize,
    n2: usize,
    cost: &'a [f64],
    supply: Vec<u64>,
    demand: Vec<u64>,
    flow: Vec<u64>,
    potential: Vec<f64>,
}

impl<'a> Solver<'a> {
    fn new(supply: &[u64], demand: &[u64], cost: &'a [f64]) -> Self {
        let (n1, n2) = (supply.len(), demand.len());
        Self {
            n1,
            n2,
            cost,
            supply: supply.to_vec(),
            demand: demand.to_vec(),
            flow: vec![0; n1 * n2],
            // All costs are >= 0, so zero potentials start with non-negative reduced costs.
            potential: vec![0.0; n1 + n2 + 2],
        }
    }

    fn solve(mut self) -> Vec<u64> {
        let nodes = self.n1 + self.n2 + 2;
        let sink = nodes - 1;
        let mut dist = vec![f64::INFINITY; nodes];
        let mut prev = vec![usize::MAX; nodes];
        let mut done = vec![false; nodes];
        while self.supply.iter().any(|&s| s > 0) {
            dist.fill(f64::INFINITY);
            prev.fill(usize::MAX);
            done.fill(false);
            dist[0] = 0.0;
            loop {
                // Dense graph: a linear scan beats a heap at these sizes.
                let mut u = usize::MAX;
                let mut best = f64::INFINITY;
                for v in 0..nodes {
                    if !done[v] && dist[v] < best {
                        best = dist[v];
                        u = v;
                    }
                }
                if u == usize::MAX || u == sink {
                    break;
                }
                done[u] = true;
                self.relax(u, &mut dist, &mut prev, &done);
            }
            let reach = dist[sink];
            if !reach.is_finite() {
                // Unreachable only if the totals differed, which `emd` has ruled out.
                break;
            }
            // Stopped at the sink: nodes not settled move by the sink's distance, which keeps
            // every residual arc's reduced cost non-negative.
            for (p, d) in self.potential.iter_mut().zip(&dist) {
                *p += d.min(reach);
            }
            self.augment(&prev);
        }
        self.flow
    }

    /// Reduced cost of an arc of real cost `c` from `u` to `v` (never below 0: rounding).
    fn reduced(&self, c: f64, u: usize, v: usize) -> f64 {
        (c + self.potential[u] - self.potential[v]).max(0.0)
    }

    fn relax(&self, u: usize, dist: &mut [f64], prev: &mut [usize], done: &[bool]) {
        let (n1, n2) = (self.n1, self.n2);
        let sink = n1 + n2 + 1;
        let visit = |v: usize, c: f64, dist: &mut [f64], prev: &mut [usize]| {
            if done[v] {
                return;
            }
            let d = dist[u] + self.reduced(c, u, v);
            if d < dist[v] {
                dist[v] = d;
                prev[v] = u;
            }
        };
        if u == 0 {
            for i in 0..n1 {
                if self.supply[i] > 0 {
                    visit(1 + i, 0.0, dist, prev);
                }
            }
        } else if u <= n1 {
            let i = u - 1;
            for j in 0..n2 {
                visit(1 + n1 + j, self.cost[i * n2 + j], dist, prev);
            }
        } else if u < sink {
            let j = u - 1 - n1;
            for i in 0..n1 {
                if self.flow[i * n2 + j] > 0 {
                    visit(1 + i, -self.cost[i * n2 + j], dist, prev);
                }
            }
            if self.demand[j] > 0 {
                visit(sink, 0.0, dist, prev);
            }
        }
    }

    /// Pushes the path's bottleneck along `prev` from the super sink back to the super source.
    fn augment(&mut self, prev: &[usize]) {
        let (n1, n2) = (self.n1, self.n2);
        let sink = n1 + n2 + 1;
        let mut path = vec![sink];
        let mut v = sink;
        while v != 0 {
            v = prev[v];
            path.push(v);
        }
        path.reverse();
        let mut push = u64::MAX;
        for w in path.windows(2) {
            let (u, v) = (w[0], w[1]);
            push = push.min(match (u, v) {
                (0, v) => self.supply[v - 1],
                (u, v) if v == sink => self.demand[u - 1 - n1],
                (u, _) if u <= n1 => u64::MAX,
                (u, v) => self.flow[(v - 1) * n2 + (u - 1 - n1)],
            });
        }
        for w in path.windows(2) {
            let (u, v) = (w[0], w[1]);
            match (u, v) {
                (0, v) => self.supply[v - 1] -= push,
                (u, v) if v == sink => self.demand[u - 1 - n1] -= push,
                (u, v) if u <= n1 => self.flow[(u - 1) * n2 + (v - 1 - n1)] += push,
                (u, v) => self.flow[(v - 1) * n2 + (u - 1 - n1)] -= push,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_to_one_moves_everything_at_its_cost() {
        assert_eq!(emd(&[3], &[3], &[2.0]).unwrap(), 6.0);
    }

    #[test]
    fn picks_the_cheaper_assignment() {
        // Two units each; crossing costs 1, staying costs 5 and 4.
        let cost = [5.0, 1.0, 1.0, 4.0];
        assert_eq!(emd(&[1, 1], &[1, 1], &cost).unwrap(), 2.0);
    }

    #[test]
    fn needs_a_reversed_arc_to_reach_the_optimum() {
        // Greedy cheapest-first sends source 0 to sink 0 (cost 1); the optimum reroutes it.
        let cost = [1.0, 2.0, 1.0, 100.0];
        // source0 -> sink1 (2) and source1 -> sink0 (1) = 3, not 1 + 100.
        assert_eq!(emd(&[1, 1], &[1, 1], &cost).unwrap(), 3.0);
    }

    #[test]
    fn refuses_unbalanced_and_bad_costs() {
        assert!(matches!(
            emd(&[1], &[2], &[1.0]),
            Err(EmdError::Unbalanced { .. })
        ));
        assert!(matches!(emd(&[1], &[1], &[]), Err(EmdError::BadCost(_))));
        assert!(matches!(
            emd(&[1], &[1], &[-1.0]),
            Err(EmdError::BadCost(_))
        ));
        assert!(matches!(
            emd(&[1], &[1], &[f64::NAN]),
            Err(EmdError::BadCost(_))
        ));
    }
}
