"""Texts for the tokenizer fixtures: every sentence of the corpus plus tricky extras."""

from text_metric_corpus import pairs


def texts():
    seen, out = set(), []
    for hyp, refs in pairs():
        for t in [hyp] + refs:
            if t not in seen:
                seen.add(t)
                out.append(t)
    return out


EXTRA_TOKENIZER_TEXTS = [
    "Good muffins cost $3.88\nin New York.  Please buy me\ntwo of them.\nThanks.",
    "They'll save and invest more.", "hi, my name can't hello,", "wanna gotta gimme lemme gonna",
    "d'ye more'n 'twas", "The [quick] {brown} <fox>", "Hello --- world -- again",
    "He said ``hi'' and ''bye''", "‘Single’ “double” „low“ «guillemets»", "a…b ... c....",
    "dates: 12:30, 1,000; x@y #tag 50% & co *star*", "en–dash and em—dash ‒ ―",
    "'quoted' 'Re 're 'll 'S 'ss", "I'M HE'S WE'LL THEY'RE YOU'VE DON'T", "O'Neill's",
    "end with quote.\"", "end with paren.)", "What?!", "rock 'n' roll", "ſome 'ſ",
    "¿Qué? ¡Sí!", "x,y z:w 3,4 5:6", "U.S.A. is big.", "Mr. and Mrs. Smith went to Washington.",
    "It costs 5.5. Next sentence.", "Hello... Is it me?", "(Sent one.) Sent two.",
    "She said \"Stop.\" Then she left.", "e.g. this i.e. that etc. end", "No. 5 is here.",
    "The score was 3-2. J. R. R. Tolkien wrote it.", "trailing space . ", "\tindented line",
    "line one\n\nline three", "A. B. C.", "'Tis the season.", "\"Quoted start", "' lone quote",
]


def all_texts():
    return texts() + EXTRA_TOKENIZER_TEXTS
