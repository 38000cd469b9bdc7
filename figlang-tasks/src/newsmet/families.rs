//! NewsMet's headline families, rebuilt from a `*_goldplus.csv` file: each gold headline that got
//! an accepted candidate has exactly 6 `gold_plus` children, consecutive in the file, each the
//! headline with the same whitespace token (the focus verb) replaced by a candidate; a child
//! whose label differs from its parent's is an accepted candidate. The parent of a block of 6 is
//! the one gold headline of the file that differs from every child in exactly one token, at the
//! same position.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use super::data::{Headline, SampleType};
use crate::error::{TaskError, TaskResult};

/// Children per family in the release.
pub const CHILDREN: usize = 6;

/// One gold headline and its children.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Family {
    /// Index of the parent among the file's rows.
    pub parent: usize,
    /// Indices of the children.
    pub children: Vec<usize>,
    /// Position of the replaced whitespace token.
    pub token: usize,
    /// Children with the opposite label (accepted candidates).
    pub accepted: usize,
}

/// Counts over one or more files (the paper's Table 2 and candidate statistics).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct FamilyStats {
    /// Gold headlines per label (`"0"`, `"1"`).
    pub gold: BTreeMap<String, usize>,
    /// Accepted candidates per PARENT label (`"1"`: literal candidates of metaphorical headlines).
    pub accepted: BTreeMap<String, usize>,
    /// Families per parent label.
    pub families: BTreeMap<String, usize>,
    /// Per parent label: number of families with k accepted candidates (k = 1..=6).
    pub accepted_per_family: BTreeMap<String, BTreeMap<usize, usize>>,
}

fn diff_position(a: &[&str], b: &[&str]) -> Option<usize> {
    if a.len() != b.len() {
        return None;
    }
    let mut at = None;
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        if x != y {
            if at.is_some() {
                return None;
            }
            at = Some(i);
        }
    }
    at
}

/// Rebuilds the families of one file's rows.
///
/// # Errors
/// [`TaskError::Input`] naming the line of a block of children that is not 6 long or has no
/// single parent.
pub fn families(rows: &[Headline]) -> TaskResult<Vec<Family>> {
    let tokens: Vec<Vec<&str>> = rows
        .iter()
        .map(|r| r.text.split_whitespace().collect())
        .collect();
    let mut golds_by_len: HashMap<usize, Vec<usize>> = HashMap::new();
    for (i, r) in rows.iter().enumerate() {
        if r.sample_type == SampleType::Gold {
            golds_by_len.entry(tokens[i].len()).or_default().push(i);
        }
    }
    let kids: Vec<usize> = (0..rows.len())
        .filter(|&i| rows[i].sample_type == SampleType::GoldPlus)
        .collect();
    let mut out = Vec::with_capacity(kids.len() / CHILDREN);
    for block in kids.chunks(CHILDREN) {
        let line = rows[block[0]].line;
        if block.len() != CHILDREN {
            return Err(TaskError::Input(format!(
                "line {line}: a last block of {} gold_plus rows, not {CHILDREN}",
                block.len()
            )));
        }
        let candidates = golds_by_len
            .get(&tokens[block[0]].len())
            .map_or(&[][..], Vec::as_slice);
        let mut found = None;
        for &g in candidates {
            let pos: Option<Vec<usize>> = block
                .iter()
                .map(|&c| diff_position(&tokens[g], &tokens[c]))
                .collect();
            if let Some(pos) = pos {
                if pos.iter().all(|&p| p == pos[0]) {
                    if found.is_some() {
                        return Err(TaskError::Input(format!(
                            "line {line}: two gold headlines fit the block of children"
                        )));
                    }
                    found = Some((g, pos[0]));
                }
            }
        }
        let (parent, token) = found.ok_or_else(|| {
            TaskError::Input(format!(
                "line {line}: no gold headline differs from these {CHILDREN} children in one token"
            ))
        })?;
        let accepted = block
            .iter()
            .filter(|&&c| rows[c].label != rows[parent].label)
            .count();
        out.push(Family {
            parent,
            children: block.to_vec(),
            token,
            accepted,
        });
    }
    Ok(out)
}

impl FamilyStats {
    /// Adds one file's rows and families.
    pub fn add(&mut self, rows: &[Headline], fams: &[Family]) {
        for r in rows.iter().filter(|r| r.sample_type == SampleType::Gold) {
            *self.gold.entry(r.label.to_string()).or_default() += 1;
        }
        for f in fams {
            let l = rows[f.parent].label.to_string();
            *self.accepted.entry(l.clone()).or_default() += f.accepted;
            *self.families.entry(l.clone()).or_default() += 1;
            *self
                .accepted_per_family
                .entry(l)
                .or_default()
                .entry(f.accepted)
                .or_default() += 1;
        }
    }

    /// Gold headlines plus accepted candidates (Table 2's total).
    pub fn total(&self) -> usize {
        self.gold.values().sum::<usize>() + self.accepted.values().sum::<usize>()
    }
}
