use super::*;

fn triples(simile: &str, literal: Option<&str>) -> Vec<[Option<String>; 3]> {
    RuleExtractor::new()
        .extract(simile, literal)
        .unwrap()
        .into_iter()
        .map(|c| [c.topic, c.vehicle, c.event])
        .collect()
}

fn t(topic: &str, vehicle: &str, event: &str) -> [Option<String>; 3] {
    let f = |s: &str| (s != "-").then(|| s.to_string());
    [f(topic), f(vehicle), f(event)]
}

#[test]
fn subject_verb_like_np() {
    assert_eq!(
        triples(
            "As for Paganel, he wept like a child who does not think.",
            None
        ),
        [t("he", "a child", "wept")]
    );
    assert_eq!(
        triples("The idea resounded like thunder throughout the land.", None),
        [t("The idea", "thunder", "resounded")]
    );
}

#[test]
fn relative_clauses_coordination_and_infinitives() {
    assert_eq!(
        triples(
            "He possessed a power of sarcasm which could scorch like vitriol, but no more.",
            None
        ),
        [t("a power of sarcasm", "vitriol", "scorch")]
    );
    assert_eq!(
        triples(
            "His hormones boiled and steamed like a volcano and yet he waited.",
            None
        ),
        [t("His hormones", "a volcano", "steamed")]
    );
    assert_eq!(
        triples(
            "The Lord is great at making the lame man to leap like a deer.",
            None
        ),
        [t("the lame man", "a deer", "leap")]
    );
    assert_eq!(
        triples(
            "A big round moon hung so low that it seemed to roll like a ball of fire.",
            None
        ),
        [t("A big round moon", "a ball of fire", "roll")]
    );
}

#[test]
fn vehicle_boundaries() {
    let v = |s: &str| triples(s, None)[0][1].clone().unwrap();
    assert_eq!(
        v("It looked like a huge, square coupé, and a wagon."),
        "a huge, square coupé"
    );
    assert_eq!(
        v("It is like an orchestra or band."),
        "an orchestra or band"
    );
    assert_eq!(
        v("I think my music is like Dr. Jekyll and Mr. Hyde, he says."),
        "Dr. Jekyll and Mr. Hyde"
    );
    assert_eq!(
        v("The seaweed looked like the \"smutty nose\" of some vast sea animal."),
        "the \"smutty nose\" of some vast sea animal"
    );
    // Parentheses are left out: the MAPS-KB labels mostly do.
    assert_eq!(v("The sun looks like an annulus (ring)."), "an annulus");
    assert_eq!(
        v("Reading it is like taking a tutorial with Lewis (xi)."),
        "taking a tutorial with Lewis"
    );
    assert_eq!(
        v("They were like the sun and the moon, forever."),
        "the sun and the moon"
    );
    assert_eq!(
        v("A guard is like a firewall and guards may act."),
        "a firewall"
    );
    // A trailing adverb modifies the verb: "forward" is mostly an adverb.
    assert_eq!(v("It feels like a blueprint forward."), "a blueprint");
    assert_eq!(
        v("His death is like a television being turned off."),
        "a television"
    );
    assert_eq!(
        v("she chattered like a pig at a party and then left"),
        "a pig"
    );
    // Without a literal a closing locative phrase belongs to the vehicle (MAPS-KB's
    // convention); with one, the inserted text bounds it.
    assert_eq!(
        v("she chattered like a pig at a party."),
        "a pig at a party"
    );
    assert_eq!(
        triples(
            "she chattered like a pig at a party.",
            Some("she chattered at a party .")
        )[0][1]
            .as_deref(),
        Some("a pig")
    );
}

#[test]
fn quotations_brackets_and_names_in_vehicles() {
    let v = |s: &str| triples(s, None)[0][1].clone().unwrap();
    // A wholly quoted phrase: the quoted words, without the writer's determiner.
    assert_eq!(
        v("He looked like a \"dodgy sommelier\"."),
        "dodgy sommelier"
    );
    assert_eq!(v("He needs to act like a \"normal boy.\""), "normal boy");
    assert_eq!(v("The canal is like our 'petroleum'."), "petroleum");
    assert_eq!(
        v("Aliens looked like H. R. Giger's \"exo-skeletal nightmares\", he said."),
        "exo-skeletal nightmares"
    );
    // ... but not a quotation that is only part of the phrase.
    assert_eq!(
        v("It looked like the \"smutty nose\" of a sea animal."),
        "the \"smutty nose\" of a sea animal"
    );
    // Square brackets: an editor's insertion inside the phrase (parentheses stay out).
    assert_eq!(
        v("The house is like a [native's] hut, covered."),
        "a [native's] hut"
    );
    // A name after a common noun: an apposition, unless a fronted comparison precedes the
    // main clause's subject.
    assert_eq!(
        v("Others flourished like defensive giant Yeats did."),
        "defensive giant Yeats"
    );
    assert_eq!(
        v("It looks like the work of artists Will Cotton and Mark Ryden."),
        "the work of artists Will Cotton and Mark Ryden"
    );
    assert_eq!(
        triples("And like all burnished gold Nikumbha was bright.", None)[0][0].as_deref(),
        Some("Nikumbha")
    );
}

#[test]
fn corpus_phrases_and_topics() {
    let v = |s: &str| triples(s, None)[0][1].clone().unwrap();
    let topic = |s: &str| triples(s, None)[0][0].clone().unwrap();
    // A closing phrase whose possessive or pronoun is bound by the subject stays out.
    assert_eq!(
        v("Americans feel like outsiders in their own country."),
        "outsiders"
    );
    assert_eq!(v("It seems like an adventure in itself."), "an adventure");
    assert_eq!(v("It looked like a knight in armor."), "a knight in armor");
    // Lexicon: the head after a genitive, the object of a preposition, an unknown noun
    // without the third-person -s.
    assert_eq!(
        v("It is like a poker player's tell: it shows."),
        "a poker player's tell"
    );
    assert_eq!(v("They rush like geese into fog."), "geese into fog");
    assert_eq!(
        v("His smile is like the silver plate on a coffin, dear."),
        "the silver plate"
    );
    // Without a literal, a possessor is dropped from the topic, except a classifying one.
    assert_eq!(topic("Jason's death looked like an accident."), "death");
    assert_eq!(
        topic("A cowboy's hat looks like a bucket."),
        "A cowboy's hat"
    );
    assert_eq!(
        triples(
            "Jason's death looked like an accident.",
            Some("Jason's death looked .")
        )[0][0]
            .as_deref(),
        Some("Jason's death")
    );
}

#[test]
fn like_adjectives_ellipsis_lists_and_it() {
    assert_eq!(
        triples("They slayed a dragon-like monster living there.", None),
        [t("monster", "dragon", "-")]
    );
    assert!(triples(
        "They slayed a dragon-like monster.",
        Some("They slayed a monster.")
    )
    .iter()
    .any(|c| c[1].as_deref() == Some("dragon")));
    // An elliptical comparison shares the previous one's topic and event...
    let c = triples(
        "The scream did not sound like Torquil, but rather more like a grown man.",
        None,
    );
    assert_eq!(c[1], t("The scream", "a grown man", "sound"));
    // ... a fronted one followed by its own verb does not.
    let c = triples(
        "Troopers fly like the wind, and like the breeze allow themselves to be butchered.",
        None,
    );
    assert_eq!(c[1][1].as_deref(), Some("the breeze"));
    assert_eq!(c[1][2], None);
    // A list of verb phrases after a comparison shares the first verb's subject.
    let c = triples(
        "He dressed like a Majnu, wandered like a faqir and left.",
        None,
    );
    assert_eq!(c[1], t("He", "a faqir", "wandered"));
    // "it" inside a quotation refers to its first noun phrase, else to what precedes it.
    assert_eq!(
        triples(
            "Stastny said of the rivalry, \"It's like two camps.\"",
            None
        )[0][0]
            .as_deref(),
        Some("the rivalry")
    );
    assert_eq!(
        triples(
            "Kevin Thomas wrote, \"The idea was expressed so freshly that it seemed like a revelation.\"",
            None
        )[0][0]
            .as_deref(),
        Some("The idea")
    );
}

#[test]
fn relative_clauses_and_purpose_infinitives() {
    let topic = |s: &str| triples(s, None)[0][0].clone().unwrap();
    // After a relative pronoun, the verb reading; the antecedent is the nearest noun phrase.
    assert_eq!(
        topic("It is a strip about an anthropomorphic cat who lives on his own like a human."),
        "an anthropomorphic cat"
    );
    assert_eq!(
        topic("The city held a people who \"looked like ghosts.\""),
        "a people"
    );
    // Parentheticals between subject and verb or antecedent and pronoun are skipped; a
    // participle right before an auxiliary is a reduced relative on the noun before it.
    assert_eq!(
        topic("Skullcap seeds (used as a headache remedy) can appear to look like skulls."),
        "Skullcap seeds"
    );
    assert_eq!(
        topic(
            "Fans printed with photographs (bullfighting scenes) that would unfold like a mosaic."
        ),
        "photographs"
    );
    assert_eq!(
        topic("The ghetto was walled; the stones used were designed to look like tombstones."),
        "the stones"
    );
    // A number word after a head noun starts a second object: "rating the album four stars".
    assert_eq!(
        topic("Rating the album four stars, Philip Aldis states, it is like an energy drink."),
        "the album"
    );
    // The object of a preposition controls no infinitive, except after "for".
    assert_eq!(
        topic(
            "The name was coined by Henry Rowe Schoolcraft to sound like a Native American word."
        ),
        "The name"
    );
    assert_eq!(
        topic("Geoffrey Darby gave the direction for the set to look like a natatorium."),
        "the set"
    );
}

#[test]
fn several_similes_none_and_other_comparators() {
    assert_eq!(
        triples(
            "Its gaze blazed like fire when crossed but when calm glittered like a lake at dusk.",
            None
        )
        .len(),
        2
    );
    assert!(triples("I like apples and would like to go.", None).is_empty());
    assert!(triples("He ran as fast as he could.", None).is_empty());
    assert_eq!(
        triples("His figure was as supple as a young leopard.", None),
        [t("His figure", "a young leopard", "was")]
    );
    assert_eq!(
        triples("Her smile was brighter than the sun.", None),
        [t("Her smile", "the sun", "was")]
    );
    assert!(triples("", None).is_empty());
}

#[test]
fn literal_bounds_the_inserted_vehicle() {
    let simile = "A big round moon seemed to roll like a ball of fire right across the hills.";
    let literal = "A big round moon seemed to roll right across the hills .";
    assert_eq!(
        triples(simile, Some(literal))[0][1].as_deref(),
        Some("a ball of fire")
    );
    let cs = RuleExtractor::new().comparisons(simile, Some(literal));
    assert!(cs[0].inserted);
    assert_eq!(&simile[cs[0].vehicle_span.clone()], "a ball of fire");
}

#[test]
fn like_only_mirrors_the_reference() {
    let x = RuleExtractor::new().with_comparators(&[Comparator::Like]);
    assert!(x
        .extract("Her smile was brighter than the sun.", None)
        .unwrap()
        .is_empty());
    assert!(x.signature().to_string().contains("comparators:like|"));
}

/// Prints tags and comparisons of `HAUSER_DEBUG_SENTENCE` (a development aid: run with
/// `--nocapture`), or of a plain "like" simile when unset, which it must find.
#[test]
fn debug_sentence() {
    let given = std::env::var("HAUSER_DEBUG_SENTENCE").ok();
    let text = given
        .clone()
        .unwrap_or_else(|| "Her smile was like the sun.".to_string());
    let tokens = tokenize::tokenize(&text);
    let tags = lexicon::tag(&text, &tokens);
    assert_eq!(tokens.len(), tags.len(), "one tag per token");
    for (t, g) in tokens.iter().zip(&tags) {
        print!("{}/{:?} ", &text[t.start..t.end], g);
    }
    println!();
    let found = RuleExtractor::new().comparisons(&text, None);
    println!("{found:?}");
    if given.is_none() {
        assert_eq!(found.len(), 1, "{found:?}");
    }
}
