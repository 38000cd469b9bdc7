//! The extraction rules over a tagged sentence: comparators, vehicle noun phrases, the event
//! verb and the topic (subject) of the comparison.

use super::lexicon::{lexicon, Tag, VForm};
use super::tokenize::Token;
use crate::comparator::Comparator;

/// A tokenised, tagged text.
pub(crate) struct Analysis<'a> {
    pub text: &'a str,
    pub tokens: Vec<Token>,
    pub tags: Vec<Tag>,
    /// No literal sentence: vehicles take a closing prepositional or participle phrase, as
    /// corpus annotators (MAPS-KB) mostly do.
    pub corpus: bool,
}

/// A comparator found in the text.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Found {
    pub kind: Comparator,
    /// First token of the comparison phrase ("like", the first "as", the comparative).
    pub anchor: usize,
    /// First token of the vehicle noun phrase.
    pub vehicle_start: usize,
}

/// Token range `[start, end)`.
pub(crate) type Span = (usize, usize);

/// Second "as" of these is not a comparison ("as well as", "as soon as").
const AS_AS_IDIOMS: &[&str] = &[
    "well", "soon", "long", "far", "much", "many", "little", "few", "such", "early", "late",
];
/// Words after "as ... as" that end a non-simile ("as fast as possible").
const AS_AS_NON_VEHICLES: &[&str] = &["possible", "ever", "usual", "before", "always", "needed"];
/// Nouns taking an infinitive complement: "the capability to speak" is no controller.
const ABSTRACT_NOUNS: &[&str] = &[
    "ability",
    "capability",
    "capacity",
    "power",
    "chance",
    "way",
    "time",
    "right",
    "need",
    "desire",
    "attempt",
    "effort",
    "opportunity",
    "tendency",
    "decision",
    "plan",
    "idea",
    "direction",
];
/// Words before "like" that make it a verb.
const LIKE_VERB_BEFORE: &[&str] = &[
    "i", "you", "we", "they", "would", "should", "'d", "do", "does", "did", "n't", "to", "not",
    "might", "may", "will", "could", "ye", "thou",
];

impl<'a> Analysis<'a> {
    pub(crate) fn lower(&self, i: usize) -> &str {
        self.tokens.get(i).map_or("", |t| t.lower.as_str())
    }

    pub(crate) fn tag(&self, i: usize) -> Option<Tag> {
        self.tags.get(i).copied()
    }

    /// The source text of a token span.
    pub(crate) fn slice(&self, (s, e): Span) -> &'a str {
        &self.text[self.tokens[s].start..self.tokens[e - 1].end]
    }

    /// The source text of one token.
    pub(crate) fn word(&self, i: usize) -> &'a str {
        &self.text[self.tokens[i].start..self.tokens[i].end]
    }

    pub(crate) fn is_sentence_end(&self, i: usize) -> bool {
        matches!(self.lower(i), "." | "!" | "?" | "..." | "…")
    }

    /// Every comparator of the enabled kinds, in text order.
    pub(crate) fn comparators(&self, enabled: &[Comparator]) -> Vec<Found> {
        let mut out = Vec::new();
        let n = self.tokens.len();
        let mut i = 0;
        while i < n {
            let w = self.lower(i);
            let found = match w {
                "like" if enabled.contains(&Comparator::Like) => self.like_at(i),
                "as" => self.as_at(i, enabled),
                "than" if enabled.contains(&Comparator::Than) => self.than_at(i),
                _ => None,
            };
            if let Some(f) = found {
                i = f.vehicle_start.max(i + 1);
                out.push(f);
            } else {
                i += 1;
            }
        }
        out
    }

    fn like_at(&self, i: usize) -> Option<Found> {
        let prev = if i == 0 { "" } else { self.lower(i - 1) };
        if LIKE_VERB_BEFORE.contains(&prev) {
            return None;
        }
        // "like to", "like it when": a verb again.
        if matches!(self.lower(i + 1), "to" | "when" | "that") && i > 0 {
            return None;
        }
        Some(Found {
            kind: Comparator::Like,
            anchor: i,
            vehicle_start: i + 1,
        })
    }

    fn as_at(&self, i: usize, enabled: &[Comparator]) -> Option<Found> {
        let next = self.lower(i + 1);
        if matches!(next, "if" | "though") {
            return enabled.contains(&Comparator::AsIf).then_some(Found {
                kind: Comparator::AsIf,
                anchor: i,
                vehicle_start: i + 2,
            });
        }
        if !enabled.contains(&Comparator::AsAs) || AS_AS_IDIOMS.contains(&next) {
            return None;
        }
        // as ADJ as / as ADV ADJ as
        for k in [i + 2, i + 3] {
            if self.lower(k) != "as" {
                continue;
            }
            let words_ok = (i + 1..k).all(|j| {
                matches!(
                    self.tag(j),
                    Some(Tag::Adj | Tag::Adv | Tag::Noun | Tag::Verb(VForm::Participle))
                )
            });
            if words_ok && !AS_AS_NON_VEHICLES.contains(&self.lower(k + 1)) {
                return Some(Found {
                    kind: Comparator::AsAs,
                    anchor: i,
                    vehicle_start: k + 1,
                });
            }
        }
        None
    }

    fn than_at(&self, i: usize) -> Option<Found> {
        if i == 0 {
            return None;
        }
        let prev = self.lower(i - 1);
        if matches!(
            prev,
            "rather" | "other" | "more" | "less" | "fewer" | "no" | "better"
        ) {
            return None;
        }
        let comparative = |j: usize| {
            self.tag(j) == Some(Tag::Comparative)
                || self.lower(j).ends_with("er") && matches!(self.tag(j), Some(Tag::Adj | Tag::Adv))
        };
        let anchor = if comparative(i - 1) {
            i - 1
        } else if i >= 2 && matches!(self.lower(i - 2), "more" | "less") {
            i - 2
        } else {
            return None;
        };
        Some(Found {
            kind: Comparator::Than,
            anchor,
            vehicle_start: i + 1,
        })
    }

    /// The vehicle noun phrase starting at `start`, not reaching `bound`.
    pub(crate) fn vehicle(&self, start: usize, bound: usize, fronted: bool) -> Option<Span> {
        let bound = bound.min(self.tokens.len());
        let gerund = self.tag(start) == Some(Tag::Verb(VForm::Gerund))
            || (self.lower(start).ends_with("ing")
                && lexicon()
                    .get(self.lower(start))
                    .is_some_and(|c| c.contains('G'))
                && matches!(
                    self.tag(start + 1),
                    Some(Tag::Det | Tag::PossDet | Tag::Prep | Tag::ObjPron | Tag::To | Tag::Num)
                ));
        if gerund {
            // "like taking a tutorial with Lewis": the gerund phrase up to the clause's end.
            let mut e = start + 1;
            while e < bound
                && !matches!(
                    self.tags[e],
                    Tag::Stop
                        | Tag::Comma
                        | Tag::Open
                        | Tag::Close
                        | Tag::Quote
                        | Tag::Rel
                        | Tag::Sub
                )
                && !(self.tags[e] == Tag::Conj && e > start + 1)
            {
                e += 1;
            }
            return Some((start, e));
        }
        let mut s = start;
        // "like unto the fire": the archaic preposition belongs to the comparator.
        if self.lower(s) == "unto" {
            s += 1;
        }
        if let Some(quoted) = self.quoted_vehicle(s, bound) {
            return Some(quoted);
        }
        // A name after a common noun begins the main clause's subject only after a fronted
        // comparison ("Like all burnished gold Nikumbha was ..."); elsewhere it is a title or
        // an apposition inside the vehicle ("like defensive giant Yeats").
        let mut e = self.np_forward_with(s, bound, !fronted)?;
        if self.corpus {
            e = self.corpus_extension(e, bound);
        }
        Some((start, e))
    }

    /// True when the span is a lone subject pronoun followed by a verb.
    pub(crate) fn pronoun_clause(&self, (s, e): Span) -> bool {
        e == s + 1
            && self.tags[s] == Tag::SubjPron
            && matches!(self.tag(e), Some(Tag::Aux | Tag::Modal | Tag::Verb(_)))
    }

    /// End (exclusive) of the noun phrase starting at `s`; a name right after a common noun
    /// starts a new phrase ("like all burnished gold Nikumbha was").
    pub(crate) fn np_forward(&self, s: usize, bound: usize) -> Option<usize> {
        self.np_forward_with(s, bound, false)
    }

    /// [`Self::np_forward`]; with `names_join`, a name after a common noun continues the phrase
    /// as a title or apposition ("defensive giant Yeats", "artists Will Cotton and Mark Ryden").
    fn np_forward_with(&self, s: usize, bound: usize, names_join: bool) -> Option<usize> {
        let mut i = s;
        let mut seen_noun = false;
        let mut content = false;
        let mut end = s;
        let mut open_quote = false;
        while i < bound {
            let t = self.tags[i];
            let w = self.lower(i);
            match t {
                Tag::Det | Tag::PossDet | Tag::Num if !seen_noun => {
                    if t == Tag::Num {
                        content = true;
                        end = i + 1;
                    }
                    i += 1;
                }
                Tag::Quote => {
                    // Quotes inside a noun phrase: 'the "smutty nose" of'.
                    if open_quote {
                        open_quote = false;
                        i += 1;
                        end = i;
                    } else if !seen_noun
                        && (i + 1..bound.min(i + 6)).any(|j| self.tags[j] == Tag::Quote)
                    {
                        open_quote = true;
                        i += 1;
                    } else {
                        break;
                    }
                }
                // A noun used as a modifier before adjectives and a head: "a giant black monster".
                Tag::Adj if seen_noun && self.adjectives_then_noun(i, bound) => {
                    seen_noun = false;
                }
                Tag::Adj | Tag::Comparative | Tag::Adv if !seen_noun => {
                    // An adverb only as a modifier ("a very old man"), not "like crazy, then".
                    if t == Tag::Adv
                        && !matches!(
                            self.tag(i + 1),
                            Some(Tag::Adj | Tag::Adv | Tag::Noun | Tag::Comparative)
                        )
                    {
                        break;
                    }
                    if t != Tag::Adv {
                        content = true;
                        end = i + 1;
                    }
                    i += 1;
                }
                Tag::Verb(VForm::Gerund | VForm::Participle | VForm::Past)
                    if !seen_noun
                        && matches!(self.tag(i + 1), Some(Tag::Noun | Tag::Proper | Tag::Adj)) =>
                {
                    i += 1;
                }
                Tag::Noun | Tag::Proper | Tag::Num => {
                    // After the head, an adverb reading before a preposition ends the phrase
                    // ("a ball of fire right across"), and so does a name after a common noun
                    // ("like all burnished gold Nikumbha was") and a numeral that starts a
                    // second object ("rating the album four stars").
                    if seen_noun
                        && (self.adverb_before_prep(i)
                            || t == Tag::Num
                                && self.tags[i - 1] == Tag::Noun
                                && matches!(self.tag(i + 1), Some(Tag::Noun | Tag::Adj))
                            || t == Tag::Proper && self.tags[i - 1] == Tag::Noun && !names_join)
                    {
                        break;
                    }
                    seen_noun = true;
                    content = true;
                    i += 1;
                    end = i;
                }
                // "like one singular beat": the numeral reading.
                Tag::ObjPron
                    if w == "one"
                        && matches!(self.tag(i + 1), Some(Tag::Adj | Tag::Noun | Tag::Proper)) =>
                {
                    i += 1;
                }
                Tag::SubjPron | Tag::ObjPron if !content && i == s => {
                    return Some(i + 1);
                }
                Tag::Genitive if seen_noun => {
                    i += 1;
                    end = i;
                    seen_noun = false;
                }
                Tag::Of if seen_noun => match self.np_forward_with(i + 1, bound, names_join) {
                    Some(e) => {
                        i = e;
                        end = e;
                    }
                    None => break,
                },
                Tag::Conj if seen_noun && matches!(w, "and" | "or") => {
                    let next = self.tag(i + 1);
                    if !matches!(next, Some(Tag::Noun | Tag::Proper | Tag::Adj | Tag::Det)) {
                        break;
                    }
                    match self.np_forward_with(i + 1, bound, names_join) {
                        // "a firewall and guards may ...": a new clause, not a coordination.
                        Some(e)
                            if !matches!(
                                self.tag(e),
                                Some(Tag::Aux | Tag::Modal | Tag::Verb(_) | Tag::Adv)
                            ) && (next != Some(Tag::Det)
                                || e >= bound
                                || matches!(self.tags[e], Tag::Stop | Tag::Comma)) =>
                        {
                            i = e;
                            end = e;
                        }
                        _ => break,
                    }
                }
                // 'a [native's] hut', 'a twisted [Sherlock] Holmes': square brackets mark an
                // editor's insertion into a quotation, part of the phrase around it.
                Tag::Open if w == "[" => {
                    let Some(close) = (i + 1..bound.min(i + 6)).find(|&j| self.lower(j) == "]")
                    else {
                        break;
                    };
                    if !matches!(
                        self.tag(close + 1),
                        Some(Tag::Noun | Tag::Proper | Tag::Adj)
                    ) {
                        break;
                    }
                    content = true;
                    i = close + 1;
                }
                Tag::Comma
                    if !seen_noun
                        && content
                        && w == ","
                        && matches!(self.tag(i + 1), Some(Tag::Adj | Tag::Noun)) =>
                {
                    i += 1;
                }
                _ => break,
            }
        }
        (content && end > s).then_some(end)
    }

    fn adjectives_then_noun(&self, i: usize, bound: usize) -> bool {
        let mut k = i;
        while k < bound && self.tags[k] == Tag::Adj {
            k += 1;
        }
        k < bound && matches!(self.tags[k], Tag::Noun)
    }

    /// An adverb reading after the head that modifies the verb, not the noun: before a
    /// preposition ("a ball of fire right across"), or, when the adverb is the word's most
    /// frequent reading, closing the clause ("feels like a blueprint forward.").
    fn adverb_before_prep(&self, i: usize) -> bool {
        let codes = lexicon().get(self.lower(i));
        (codes.is_some_and(|codes| codes.contains('R'))
            && matches!(self.tag(i + 1), Some(Tag::Prep | Tag::To)))
            || (codes.is_some_and(|codes| codes.starts_with('R'))
                && self
                    .tag(i + 1)
                    .is_none_or(|t| matches!(t, Tag::Stop | Tag::Comma | Tag::Quote | Tag::Close)))
    }

    /// The verb the comparison starting at `anchor` attaches to: the nearest verb before it in
    /// the same clause.
    pub(crate) fn event(&self, anchor: usize) -> Option<usize> {
        let mut j = anchor;
        while j > 0 {
            j -= 1;
            match self.tags[j] {
                Tag::Verb(_) | Tag::Aux => return Some(j),
                Tag::Stop | Tag::Comma | Tag::Rel | Tag::Sub | Tag::Quote | Tag::Comparator => {
                    return None
                }
                _ => {}
            }
        }
        None
    }

    /// The subject of the verb at `v` (or, with no verb, the noun phrase right before the
    /// comparison).
    pub(crate) fn topic(&self, event: Option<usize>, anchor: usize) -> Option<Span> {
        // "treat her like a tramp": the object is what is compared.
        if anchor > 1
            && self.tags[anchor - 1] == Tag::ObjPron
            && self.tags[anchor - 2].is_verbal()
            && self.lower(anchor - 1) != "one"
        {
            return Some((anchor - 1, anchor));
        }
        match event {
            None => (anchor > 0 && self.tags[anchor - 1].is_nominal())
                .then(|| self.np_backward(anchor - 1)),
            Some(v) => self.subject_of(v, 0),
        }
    }

    fn subject_of(&self, v: usize, depth: usize) -> Option<Span> {
        if depth > 4 || v == 0 {
            return None;
        }
        let mut i = v - 1;
        // Auxiliaries, modals, negations and adverbs between subject and verb, and a quotation
        // that opens after a relative pronoun ('a people who "looked like ghosts."').
        while matches!(
            self.tags[i],
            Tag::Aux | Tag::Modal | Tag::Neg | Tag::Adv | Tag::Comparative
        ) || (self.tags[i] == Tag::Quote && i > 0 && self.tags[i - 1] == Tag::Rel)
        {
            if i == 0 {
                return None;
            }
            i -= 1;
        }
        match self.tags[i] {
            Tag::To => {
                // "To think like a mountain means ...": the infinitive is the topic.
                if i == 0 || matches!(self.tags[i - 1], Tag::Stop | Tag::Quote) {
                    return (i + 1 == v).then_some((i, v + 1));
                }
                let k = i - 1;
                // The object of a preposition controls nothing: "was coined by Henry Rowe
                // Schoolcraft to sound like", "disguised by the zoo authorities to look like"
                // (a purpose clause: the governing verb's subject is the topic).
                // "for the set to look like": "for" introduces the infinitive's subject.
                let in_pp = self.tags[k].is_nominal() && {
                    let (s, _) = self.np_backward(k);
                    s > 0 && self.tags[s - 1] == Tag::Prep && self.lower(s - 1) != "for"
                };
                if self.tags[k].is_nominal() && !in_pp && !ABSTRACT_NOUNS.contains(&self.lower(k)) {
                    // "making the lame man to leap": the controller is the topic.
                    Some(self.np_backward(k))
                } else {
                    // "seemed to roll", "was hard to approach": the governing verb's subject.
                    let gov = self.previous_verb(i)?;
                    self.subject_of(gov, depth + 1)
                }
            }
            Tag::Rel => self.antecedent(i),
            Tag::Conj => {
                // Coordinated verb phrases share the first one's subject.
                let prev = self.previous_verb(i)?;
                self.subject_of(prev, depth + 1)
            }
            // "X, verb": unless X closes a parenthetical prepositional phrase ("and, with delight
            // in his pantomime, opened"), whose subject is further away.
            Tag::Comma if i > 0 && self.tags[i - 1].is_nominal() => {
                let (s, e) = self.np_backward(i - 1);
                // "he dressed like a Majnu, wandered like a faqir": a comparison's vehicle is
                // never the subject of the next verb, so the comma joins a list of verb phrases
                // sharing the first one's subject. (After an object, "has a complex floor plan,
                // shaped like", the verb is rather a participle modifying that object.)
                if s > 0 && self.tags[s - 1] == Tag::Comparator {
                    let prev = self.previous_verb(s)?;
                    return self.subject_of(prev, depth + 1);
                }
                (s == 0 || !matches!(self.tags[s - 1], Tag::Prep | Tag::Of)).then_some((s, e))
            }
            // "until they themselves behaved"
            Tag::ObjPron
                if i > 0
                    && self.tags[i - 1] == Tag::SubjPron
                    && (self.lower(i).ends_with("self") || self.lower(i).ends_with("selves")) =>
            {
                Some((i - 1, i))
            }
            t if t.is_nominal() => Some(self.head_np(i)),
            // "Listening is like ...": a gerund subject opening its clause.
            // "knowing that doing so would be like torture".
            Tag::Verb(VForm::Gerund)
                if i == 0
                    || matches!(
                        self.tags[i - 1],
                        Tag::Stop | Tag::Quote | Tag::Comma | Tag::Sub
                    ) =>
            {
                let mut k = i + 1;
                while k < v && self.tags[k] == Tag::Adv {
                    k += 1;
                }
                Some((i, k))
            }
            // "skullcap seeds (used as a headache remedy) can appear": a parenthetical between
            // subject and verb is skipped.
            Tag::Close if self.lower(i) == ")" => {
                let o = self.parenthetical_start(i)?;
                (o > 0 && self.tags[o - 1].is_nominal()).then(|| self.head_np(o - 1))
            }
            Tag::Close | Tag::Quote if i > 0 && self.tags[i - 1].is_nominal() => {
                Some(self.np_backward(i - 1))
            }
            // "the stones used were designed": a participle right before an auxiliary is no
            // finite verb but a reduced relative on the noun before it.
            Tag::Verb(VForm::Past | VForm::Participle)
                if i > 0
                    && self.tags[i - 1].is_nominal()
                    && self.tag(i + 1) == Some(Tag::Aux)
                    && i + 1 < v =>
            {
                Some(self.head_np(i - 1))
            }
            _ => None,
        }
    }

    fn antecedent(&self, rel: usize) -> Option<Span> {
        let mut k = rel.checked_sub(1)?;
        if self.tags[k] == Tag::Comma {
            k = k.checked_sub(1)?;
        }
        if self.tags[k] == Tag::Adv {
            k = k.checked_sub(1)?;
        }
        // "photographs (especially bullfighting scenes) that would unfold".
        if self.lower(k) == ")" {
            k = self.parenthetical_start(k)?.checked_sub(1)?;
        }
        self.tags[k].is_nominal().then(|| self.np_backward(k))
    }

    /// The "(" matching the ")" at `close`, within the sentence and a short distance.
    fn parenthetical_start(&self, close: usize) -> Option<usize> {
        (close.saturating_sub(12)..close)
            .rev()
            .take_while(|&k| !self.is_sentence_end(k))
            .find(|&k| self.lower(k) == "(")
    }

    /// The noun phrase ending at `end`; when it is the object of a preposition attached to a
    /// noun ("the profuse seaweed at one end"), the noun phrase that the prepositional phrase
    /// modifies.
    fn head_np(&self, end: usize) -> Span {
        let (s, e) = self.np_backward(end);
        let clause_start =
            |k: usize| k == 0 || matches!(self.tags[k - 1], Tag::Stop | Tag::Quote | Tag::Comma);
        // A gerund subject: "Using one of these spells is", "Surrendering to him is".
        if s >= 1
            && self.tags[s - 1] == Tag::Verb(VForm::Gerund)
            && self.tags[s] != Tag::SubjPron
            && clause_start(s - 1)
        {
            return (s - 1, e);
        }
        if s >= 2
            && matches!(self.tags[s - 1], Tag::Prep | Tag::To)
            && self.tags[s - 2] == Tag::Verb(VForm::Gerund)
            && clause_start(s - 2)
        {
            return (s - 2, e);
        }
        // "The straight line joining the two extremities ... is": the participle's head.
        if s >= 2
            && self.tags[s - 1] == Tag::Verb(VForm::Gerund)
            && self.tags[s - 2].is_nominal()
            && matches!(self.tag(e), Some(Tag::Aux | Tag::Modal))
        {
            return self.np_backward(s - 2);
        }
        // "Iraq withdrawing from Kuwait would be": a gerund clause as subject.
        if s >= 3
            && self.tags[s - 1] == Tag::Prep
            && self.tags[s - 2] == Tag::Verb(VForm::Gerund)
            && matches!(self.tags[s - 3], Tag::Noun | Tag::Proper)
        {
            return (self.np_backward(s - 3).0, e);
        }
        if s >= 2
            && matches!(self.tags[s - 1], Tag::Prep | Tag::To)
            && self.tags[s - 2].is_nominal()
            && !matches!(self.tags[s - 2], Tag::SubjPron | Tag::ObjPron)
        {
            return self.np_backward(s - 2);
        }
        (s, e)
    }

    /// The nearest verb before token `i` in the same sentence.
    fn previous_verb(&self, i: usize) -> Option<usize> {
        let mut j = i;
        while j > 0 {
            j -= 1;
            if self.tags[j] == Tag::Stop {
                return None;
            }
            if self.tags[j].is_verbal() {
                return Some(j);
            }
        }
        None
    }

    /// The noun phrase ending at token `end` (inclusive).
    pub(crate) fn np_backward(&self, end: usize) -> Span {
        if matches!(self.tags[end], Tag::SubjPron | Tag::ObjPron) {
            return (end, end + 1);
        }
        let mut j = end;
        while j > 0 {
            let t = self.tags[j - 1];
            match t {
                // "In reality America": a name does not take a bare common noun before it.
                Tag::Noun if self.tags[j] == Tag::Proper => break,
                Tag::Noun
                | Tag::Proper
                | Tag::Adj
                | Tag::Num
                | Tag::Genitive
                | Tag::Comparative => j -= 1,
                // "at one end", "his unpretentious, snotty-nosed lyricism"
                Tag::ObjPron if self.lower(j - 1) == "one" => j -= 1,
                Tag::Comma
                    if j >= 2 && self.tags[j - 2] == Tag::Adj && self.tags[j] == Tag::Adj =>
                {
                    j -= 1
                }
                // "one of these spells"
                Tag::ObjPron if self.tags[j] == Tag::Of => {
                    j -= 1;
                    break;
                }
                Tag::Verb(VForm::Participle | VForm::Gerund)
                    if j >= 2 && matches!(self.tags[j - 2], Tag::Det | Tag::PossDet) =>
                {
                    j -= 1
                }
                Tag::Det | Tag::PossDet => {
                    j -= 1;
                    // "the intensity of his gaze": extend over "of" to the head phrase.
                    if j >= 2 && self.tags[j - 1] == Tag::Of && self.tags[j - 2].is_nominal() {
                        j -= 1;
                        continue;
                    }
                    break;
                }
                Tag::Of if j >= 2 && self.tags[j - 2].is_nominal() => j -= 1,
                Tag::Conj
                    if matches!(self.lower(j - 1), "and" | "or")
                        && j >= 2
                        && matches!(self.tags[j - 2], Tag::Noun | Tag::Adj)
                        && !matches!(self.tags[j], Tag::Det | Tag::PossDet) =>
                {
                    j -= 1
                }
                _ => break,
            }
        }
        (j, end + 1)
    }

    /// The subject noun phrase after a fronted comparison ("Like a flame, Nikumbha was ...").
    pub(crate) fn subject_after(&self, vehicle_end: usize) -> Option<Span> {
        let mut i = vehicle_end;
        if self.tag(i) == Some(Tag::Comma) {
            i += 1;
        }
        let e = self.np_forward(i, self.tokens.len())?;
        let verb_follows = matches!(
            self.tag(e),
            Some(Tag::Aux | Tag::Modal | Tag::Verb(_) | Tag::Adv)
        );
        verb_follows.then_some((i, e))
    }

    /// True when the comparison opens its clause (nothing but conjunctions before it).
    pub(crate) fn fronted(&self, anchor: usize) -> bool {
        anchor == 0
            || matches!(
                self.tags[anchor - 1],
                Tag::Conj | Tag::Stop | Tag::Comma | Tag::Quote | Tag::Sub
            )
    }
}
