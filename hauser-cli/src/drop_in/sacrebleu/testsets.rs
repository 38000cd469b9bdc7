//! sacreBLEU's test sets for `hauser sacrebleu`, read from sacreBLEU's own cache and never
//! downloaded (there is no network): `$SACREBLEU` (default `~/.sacrebleu`) holds, for a test set
//! sacreBLEU has fetched and processed, one text file per field, `NAME/NAME_.LANGPAIR.FIELD`
//! (`/` in the name becomes `_` in the file name, `:` in the field `-`). Which test sets exist,
//! their language pairs and the reference fields sacreBLEU scores against come from
//! `sacrebleu_testsets.tsv`, written by tools/gen/gen_sacrebleu_testsets.py from sacreBLEU 2.4.3's
//! registry, so that unknown names and pairs are refused as sacreBLEU refuses them (exit 1).

use std::path::PathBuf;

use super::score::Exit;

const TABLE: &str = include_str!("testsets.tsv");

/// One language pair of a test set.
#[derive(Debug, Clone)]
pub struct Pair {
    /// `en-de`.
    pub langpair: &'static str,
    /// The reference fields sacreBLEU scores against (`ref`, `ref:A`...).
    pub refs: Vec<&'static str>,
    /// Every field, in sacreBLEU's order (empty for the WMT XML sets, whose fields only their
    /// downloaded file names).
    pub fields: Vec<&'static str>,
}

/// One test set: its language pairs.
#[derive(Debug, Clone)]
pub struct TestSet {
    /// sacreBLEU's name (`wmt14`, `wmt21/dev`).
    pub name: &'static str,
    /// Its language pairs.
    pub pairs: Vec<Pair>,
}

fn list(s: &'static str) -> Vec<&'static str> {
    s.split(',').filter(|r| !r.is_empty()).collect()
}

/// The test set called `name`, if sacreBLEU 2.4.3 knows it.
pub fn lookup(name: &str) -> Option<TestSet> {
    let line = TABLE.lines().find(|l| l.split('\t').next() == Some(name))?;
    let mut cols = line.split('\t');
    let name = cols.next()?;
    let pairs = cols
        .filter_map(|c| c.split_once('='))
        .map(|(langpair, rest)| {
            let (refs, fields) = rest.split_once(';').unwrap_or((rest, ""));
            Pair {
                langpair,
                refs: list(refs),
                fields: list(fields),
            }
        })
        .collect();
    Some(TestSet { name, pairs })
}

/// sacreBLEU's cache folder: `$SACREBLEU`, else `~/.sacrebleu`.
pub fn cache_dir() -> PathBuf {
    match std::env::var_os("SACREBLEU") {
        Some(d) => PathBuf::from(d),
        None => std::env::var_os("HOME")
            .map_or_else(|| PathBuf::from("."), PathBuf::from)
            .join(".sacrebleu"),
    }
}

impl TestSet {
    /// The language pair `langpair`, if the set has it.
    pub fn pair(&self, langpair: &str) -> Option<&Pair> {
        self.pairs.iter().find(|p| p.langpair == langpair)
    }

    /// The reference fields of `langpair`, if the set has the pair.
    pub fn refs(&self, langpair: &str) -> Option<&[&'static str]> {
        self.pair(langpair).map(|p| p.refs.as_slice())
    }

    /// Refuses (exit 2) unless the cache has every file sacreBLEU would otherwise download for
    /// `langpair` (every field where known, else the source and the references).
    ///
    /// # Errors
    /// A missing file, named.
    pub fn ready(&self, langpair: &str) -> Result<(), Exit> {
        let Some(p) = self.pair(langpair) else {
            return Ok(());
        };
        let fields: Vec<&str> = if p.fields.is_empty() {
            std::iter::once("src")
                .chain(p.refs.iter().copied())
                .collect()
        } else {
            p.fields.clone()
        };
        for f in fields {
            self.cached(langpair, f)?;
        }
        Ok(())
    }

    /// The processed file of `field` for `langpair` in the cache.
    pub fn path(&self, langpair: &str, field: &str) -> PathBuf {
        cache_dir().join(self.name).join(format!(
            "{}.{langpair}.{}",
            self.name.replace('/', "_"),
            field.replace(':', "-")
        ))
    }

    /// The processed file of `field`, or exit status 2 naming it when the cache lacks it.
    ///
    /// # Errors
    /// The file is not in the cache.
    pub fn cached(&self, langpair: &str, field: &str) -> Result<PathBuf, Exit> {
        let p = self.path(langpair, field);
        if p.is_file() {
            Ok(p)
        } else {
            Err(not_cached(self.name, langpair, &p))
        }
    }
}

/// The refusal (exit 2) of what needs sacreBLEU's network, registry texts or raw files.
pub fn unavailable(what: &str) -> Exit {
    Exit::unsupported(format!(
        "{what}: not available in hauser sacrebleu, which reads sacreBLEU's test sets from its \
         cache but has neither the network nor sacreBLEU's registry texts and raw files; give \
         the references as files instead"
    ))
}

/// The refusal for a test set that is not in the cache.
pub fn not_cached(name: &str, langpair: &str, path: &std::path::Path) -> Exit {
    Exit::unsupported(format!(
        "test set {name} ({langpair}) is not in sacreBLEU's cache ({} is missing): hauser \
         sacrebleu reads test sets that sacreBLEU has downloaded ($SACREBLEU or ~/.sacrebleu) \
         and cannot download them (no network); run sacreBLEU once with -t {name} -l {langpair}, \
         or give the references as files",
        path.display()
    ))
}

/// sacreBLEU's checks of `-t` and `-l` before it reads a test set (exit 1), and the test sets.
///
/// # Errors
/// An unknown test set; references given too; no `-l`; a pair the set does not have.
pub fn check(
    test_set: &str,
    langpair: Option<&str>,
    refs_given: bool,
) -> Result<Vec<TestSet>, Exit> {
    let mut sets = Vec::new();
    for name in test_set.split(',') {
        match lookup(name) {
            Some(s) => sets.push(s),
            None => {
                return Err(Exit::one(format!(
                    "Unknown test set {}\nPlease run with --list to see the available test sets.",
                    py_quote(name)
                )))
            }
        }
    }
    if refs_given {
        return Err(Exit::one(
            "I need exactly one of (a) a predefined test set (-t) or (b) a list of references",
        ));
    }
    let Some(lp) = langpair else {
        return Err(Exit::one(
            "I need a language pair (-l). Use --list to see available language pairs for this test set.",
        ));
    };
    for s in &sets {
        if s.refs(lp).is_none() {
            let mut msg = format!(
                "No such language pair {}\nAvailable language pairs for {} are:",
                py_quote(lp),
                py_quote(s.name)
            );
            for p in &s.pairs {
                msg.push_str(&format!("\n > {}", p.langpair));
            }
            return Err(Exit::one(msg));
        }
    }
    Ok(sets)
}

fn py_quote(s: &str) -> String {
    format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_sacrebleus_sets() {
        let wmt14 = lookup("wmt14").unwrap();
        assert_eq!(wmt14.refs("en-de"), Some(&["ref"][..]));
        let wmt22 = lookup("wmt22").unwrap();
        assert_eq!(wmt22.refs("en-de"), Some(&["ref:A"][..]));
        assert!(wmt22
            .path("en-de", "ref:A")
            .ends_with("wmt22/wmt22.en-de.ref-A"));
        assert!(lookup("wmt21/dev")
            .unwrap()
            .path("en-de", "src")
            .ends_with("wmt21/dev/wmt21_dev.en-de.src"));
        assert!(lookup("nope").is_none());
        assert_eq!(
            check("wmt14,nope", Some("en-de"), false).unwrap_err().code,
            1
        );
        assert_eq!(check("wmt14", Some("xx-yy"), false).unwrap_err().code, 1);
        assert_eq!(check("wmt14", None, false).unwrap_err().code, 1);
        assert_eq!(check("wmt14", Some("en-de"), true).unwrap_err().code, 1);
    }
}
