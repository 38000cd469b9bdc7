//! Phrase conventions on top of the core rules: wholly quoted vehicles, the phrase that closes
//! a vehicle when there is no literal sentence (corpus mode), the possessor of a corpus topic,
//! and "-like" adjectives ("a dragon-like monster").

use super::lexicon::{Tag, VForm};
use super::rules::{Analysis, Span};

impl Analysis<'_> {
    /// A noun phrase that is wholly a quotation, after at most a determiner, a possessive or a
    /// genitive: 'like a "dodgy sommelier"', "like our 'petroleum'", 'like H. R. Giger's
    /// "exo-skeletal nightmares"', 'like a "smurf on acid".' The quoted words are a mention of
    /// someone's wording and they are the comparison's vehicle; the determiner is the writer's
    /// frame, so the vehicle is the words inside the quotes (the majority convention of the
    /// MAPS-KB labels: 8 of 11 such phrases). Not when the quotation is only part of the phrase
    /// ('the "smutty nose" of some vast sea animal') or runs on past it (a long quotation
    /// that starts with the vehicle and goes on into a clause).
    pub(crate) fn quoted_vehicle(&self, s: usize, bound: usize) -> Option<Span> {
        let mut i = s;
        while i < bound && matches!(self.tags[i], Tag::Det | Tag::PossDet) {
            i += 1;
        }
        if i == s {
            // "H. R. Giger's": a short name or noun run with a genitive.
            let mut k = s;
            while k < bound && k < s + 4 && matches!(self.tags[k], Tag::Proper | Tag::Noun) {
                k += 1;
            }
            if k > s && self.tag(k) == Some(Tag::Genitive) && self.lower(k) == "'s" {
                i = k + 1;
            }
        }
        if i >= bound || self.tags[i] != Tag::Quote {
            return None;
        }
        let inner = i + 1;
        // The closing mark; a closing "'" after a noun is tagged as a genitive.
        let close = (inner..bound.min(inner + 8)).find(|&j| {
            self.tags[j] == Tag::Quote || (self.tags[j] == Tag::Genitive && self.lower(j) == "'")
        })?;
        // 'a "normal boy."': a final period inside the quotes is not part of the vehicle.
        let end = if close > inner && self.tags[close - 1] == Tag::Stop {
            close - 1
        } else {
            close
        };
        let clause_inside = (inner..end).any(|j| {
            matches!(
                self.tags[j],
                Tag::Stop | Tag::Comma | Tag::Quote | Tag::Rel | Tag::Sub | Tag::Aux | Tag::Modal
            )
        });
        // The phrase goes on after the quotation: 'the "smutty nose" of ...'.
        let continues = matches!(
            self.tag(close + 1),
            Some(Tag::Of | Tag::Genitive | Tag::Noun | Tag::Proper)
        );
        if end == inner || clause_inside || continues {
            return None;
        }
        self.np_forward(inner, end)?;
        Some((inner, end))
    }

    /// "a knight in armor.", "an actor winning an Oscar.": a phrase after the head that runs to
    /// the end of the clause.
    pub(crate) fn corpus_extension(&self, e: usize, bound: usize) -> usize {
        let closes = |k: usize| {
            k >= bound
                || matches!(
                    self.tags[k],
                    Tag::Stop | Tag::Comma | Tag::Close | Tag::Quote | Tag::Open
                )
        };
        // A possessive or a pronoun in the phrase is bound by the clause's subject ("feel like
        // outsiders in their own country", "watch it like a movie in my own head", "seems like
        // an adventure in itself"): the phrase locates the topic, not the vehicle.
        let bound_to_subject = matches!(self.tag(e + 1), Some(Tag::PossDet | Tag::ObjPron));
        if !bound_to_subject
            && matches!(
                self.lower(e),
                "in" | "with" | "without" | "at" | "during" | "into" | "over"
            )
        {
            if let Some(e2) = self.np_forward(e + 1, bound) {
                if closes(e2) {
                    return e2;
                }
            }
        }
        if self.tag(e) == Some(Tag::Verb(VForm::Gerund)) {
            let mut k = e + 1;
            while k < bound
                && !closes(k)
                && !matches!(self.tags[k], Tag::Conj | Tag::Rel | Tag::Sub)
            {
                k += 1;
            }
            if closes(k) {
                return k;
            }
        }
        e
    }

    /// Without a literal sentence, a topic's possessor is dropped: "Jason's death" -> "death",
    /// "All 11 of Torrington's fire hydrants" -> "fire hydrants". A genitive determiner plays
    /// the part of "his" or "their", which the knowledge base's key normalisation strips, and
    /// the MAPS-KB annotators drop it (8 of 10 topics with a genitive). A classifying genitive
    /// after an indefinite article names a kind and stays: "a cowboy's hat".
    pub(crate) fn drop_possessor(&self, (s, e): Span) -> Span {
        if matches!(self.lower(s), "a" | "an") {
            return (s, e);
        }
        match (s + 1..e.saturating_sub(1))
            .rev()
            .find(|&g| self.tags[g] == Tag::Genitive)
        {
            Some(g) => (g + 1, e),
            None => (s, e),
        }
    }

    /// "a dragon-like monster", "a chimney-like body": an adjective "X-like" is a comparison
    /// with vehicle X (the token's text before the suffix) and, as topic, the noun phrase it
    /// modifies; used predicatively ("were Earth-like") the topic is the clause's subject.
    /// Returns the token, the vehicle's byte range and the topic.
    pub(crate) fn like_suffix(&self, i: usize) -> Option<(std::ops::Range<usize>, Option<Span>)> {
        let stem = self.lower(i).strip_suffix("-like")?;
        if stem.len() < 2 || !stem.chars().all(|c| c.is_alphabetic() || c == '-') {
            return None;
        }
        let start = self.tokens[i].start;
        let vehicle = start..start + stem.len();
        let attributive = self
            .np_forward(i + 1, self.tokens.len())
            .filter(|_| matches!(self.tag(i + 1), Some(Tag::Noun | Tag::Adj | Tag::Proper)));
        let topic = match attributive {
            Some(e) => Some((i + 1, e)),
            None => self.topic(self.event(i), i),
        };
        Some((vehicle, topic))
    }

    /// True when tokens `[from, to)` hold only commas, coordinators, adverbs, comparatives and
    /// negations: ", but rather more", "or", ", not": what joins an elliptical comparison to
    /// the previous one.
    pub(crate) fn elliptical_between(&self, from: usize, to: usize) -> bool {
        (from..to).all(|k| {
            matches!(
                self.tags[k],
                Tag::Comma | Tag::Conj | Tag::Adv | Tag::Comparative | Tag::Neg
            )
        })
    }
}
