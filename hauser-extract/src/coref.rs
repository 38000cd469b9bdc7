//! Resolution of a topic "it" within its sentence (the reference resolves it with a CoreNLP
//! coreference server): the first noun phrase of the sentence, or, inside a quotation, the
//! quotation's first noun phrase or what the quotation is attached to.

use super::lexicon::Tag;
use super::rules::{Analysis, Span};

impl Analysis<'_> {
    /// The first noun phrase of the sentence holding token `at` (a fallback topic).
    pub(crate) fn first_np(&self, at: usize) -> Option<Span> {
        self.resolve_it(at)
    }

    /// Resolves a topic "it" to the first noun phrase of its sentence, as the reference's
    /// coreference step usually does for these sentences; inside a quotation, to the
    /// quotation's first noun phrase before it, else to the noun phrase the quotation follows.
    pub(crate) fn resolve_it(&self, it: usize) -> Option<Span> {
        let mut start = it;
        while start > 0 && !self.is_sentence_end(start - 1) {
            start -= 1;
        }
        if let Some(q) = self.opening_quote(start, it) {
            if let Some(np) = self.first_np_in(q + 1, it) {
                return Some(np);
            }
            if let Some(np) = self.np_before_quote(q) {
                return Some(np);
            }
        }
        self.first_np_in(start, it)
    }

    /// The quotation mark that opens a quotation still open at token `at`, if any.
    fn opening_quote(&self, start: usize, at: usize) -> Option<usize> {
        let mut open = None;
        for k in start..at {
            match self.lower(k) {
                "\"" => open = if open.is_some() { None } else { Some(k) },
                "“" => open = Some(k),
                "”" => open = None,
                _ => {}
            }
        }
        open
    }

    /// Inside a quotation whose own words name nothing before "it", "it" refers to what the
    /// quotation is about: the noun phrase right before it ('said of the rivalry, "It's like',
    /// 'hating Naperville because "it felt like'), not the speaker, who is the subject of a
    /// verb of saying right before the quotation and is then left to the default.
    fn np_before_quote(&self, q: usize) -> Option<Span> {
        let mut k = q.checked_sub(1)?;
        while matches!(self.tags[k], Tag::Comma | Tag::Sub | Tag::Quote) || self.lower(k) == ":" {
            k = k.checked_sub(1)?;
        }
        matches!(self.tags[k], Tag::Noun | Tag::Proper).then(|| self.np_backward(k))
    }

    /// The first noun phrase with a noun in `[from, to)`.
    fn first_np_in(&self, start: usize, it: usize) -> Option<Span> {
        let mut i = start;
        while i < it {
            if matches!(
                self.tags[i],
                Tag::Det | Tag::PossDet | Tag::Noun | Tag::Proper | Tag::Num
            ) || (i == start && self.tags[i] == Tag::Adj)
            {
                if let Some(e) = self.np_forward(i, it) {
                    if (i..e).any(|k| matches!(self.tags[k], Tag::Noun | Tag::Proper)) {
                        return Some((i, e));
                    }
                }
            }
            i += 1;
        }
        None
    }
}
