//! No import circles between the modules of a crate (issue 38, item 4): a module that uses
//! another (`crate::a::b`, `super::b`, grouped `use crate::{a, b}`) must not be used back by
//! it, directly or through others. Edges between a module and its own ancestors or
//! descendants (a parent re-exporting its children, a child using its parent's items) are the
//! tree itself, not circles; test modules and comments are left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

/// Every module of the crate whose sources are in `src`, with its file.
fn modules(src: &Path) -> BTreeMap<Module, PathBuf> {
    fn walk(dir: &Path, src: &Path, out: &mut BTreeMap<Module, PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, src, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(src).unwrap().with_extension("");
                let mut m: Module = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if matches!(m.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                    m.pop();
                }
                out.insert(m, path);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(src, src, &mut out);
    out
}

/// The code of a file without its test module and comments.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => &text[..],
    };
    text.lines()
        .map(|l| l.find("//").map_or(l, |i| &l[..i]))
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The paths that start at `at` in `s` (`a::b::c`, or each item of a `{...}` group), as
/// segment lists.
fn paths_at(s: &str) -> Vec<Vec<String>> {
    let mut segs = Vec::new();
    let mut rest = s;
    loop {
        let n = rest.find(|c: char| !is_ident(c)).unwrap_or(rest.len());
        if n == 0 {
            break;
        }
        segs.push(rest[..n].to_string());
        rest = &rest[n..];
        match rest.strip_prefix("::") {
            Some(r) => rest = r,
            None => return vec![segs],
        }
    }
    let Some(group) = rest.strip_prefix('{') else {
        return vec![segs];
    };
    // The top-level items of the group.
    let mut out = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                out.push(&group[start..i]);
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.into_iter()
        .flat_map(|item| paths_at(item.trim()))
        .map(|tail| segs.iter().cloned().chain(tail).collect())
        .collect()
}

/// The modules `m` (in file `path`) uses, resolved to the longest known module prefix.
fn uses(m: &Module, path: &Path, known: &BTreeMap<Module, PathBuf>) -> BTreeSet<Module> {
    let text = code(path);
    let mut out = BTreeSet::new();
    let mut resolve = |full: Vec<String>| {
        for k in (1..=full.len()).rev() {
            if known.contains_key(&full[..k]) {
                out.insert(full[..k].to_vec());
                return;
            }
        }
    };
    let bytes = text.as_bytes();
    for (i, _) in text.match_indices("crate::") {
        if i > 0 && is_ident(bytes[i - 1] as char) {
            continue;
        }
        for p in paths_at(&text[i + "crate::".len()..]) {
            resolve(p);
        }
    }
    let mut i = 0;
    while let Some(off) = text[i..].find("super::") {
        let start = i + off;
        if start > 0 && (is_ident(bytes[start - 1] as char) || bytes[start - 1] == b':') {
            i = start + 1;
            continue;
        }
        let mut ups = 0;
        let mut rest = &text[start..];
        while let Some(r) = rest.strip_prefix("super::") {
            ups += 1;
            rest = r;
        }
        let base = &m[..m.len().saturating_sub(ups)];
        for p in paths_at(rest) {
            resolve(base.iter().cloned().chain(p).collect());
        }
        i = start + 1;
    }
    out.retain(|t| !(t.starts_with(m) || m.starts_with(t)));
    out
}

/// The circles (strongly connected sets of more than one module) of a crate.
fn circles(src: &Path) -> Vec<Vec<String>> {
    let known = modules(src);
    let graph: BTreeMap<Module, BTreeSet<Module>> = known
        .iter()
        .map(|(m, p)| (m.clone(), uses(m, p, &known)))
        .collect();
    // Two modules are in one circle when each reaches the other.
    let reach = |from: &Module| -> BTreeSet<Module> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(m) = todo.pop() {
            for n in graph.get(&m).into_iter().flatten() {
                if seen.insert(n.clone()) {
                    todo.push(n.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&Module, BTreeSet<Module>> =
        graph.keys().map(|m| (m, reach(m))).collect();
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    for m in graph.keys() {
        if done.contains(m) || !reaches[m].contains(m) {
            continue;
        }
        let circle: Vec<String> = graph
            .keys()
            .filter(|n| reaches[m].contains(*n) && reaches[*n].contains(m))
            .map(|n| {
                done.insert(n.clone());
                n.join("::")
            })
            .collect();
        out.push(circle);
    }
    out
}

#[test]
fn no_crate_has_an_import_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let members = manifest
        .split_once("members = [")
        .and_then(|(_, r)| r.split_once(']'))
        .map(|(m, _)| m)
        .unwrap();
    let mut crates: Vec<PathBuf> = members
        .split(',')
        .map(|m| m.trim().trim_matches('"'))
        .filter(|m| !m.is_empty())
        .map(|m| root.join(m).join("src"))
        .collect();
    crates.push(root.join("bindings/python/src"));
    let mut found = Vec::new();
    for src in crates.iter().filter(|s| s.is_dir()) {
        for circle in circles(src) {
            found.push(format!("{}: {}", src.display(), circle.join(" <-> ")));
        }
    }
    assert!(crates.len() > 8, "{crates:?}");
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

#[test]
fn the_scan_sees_a_circle_and_grouped_imports() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir(src.join("a")).unwrap();
    std::fs::write(src.join("lib.rs"), "mod a;\nmod b;\nmod c;\n").unwrap();
    std::fs::write(src.join("a/mod.rs"), "mod x;\npub use x::X;\n").unwrap();
    std::fs::write(src.join("a/x.rs"), "use crate::{c::C, b};\n").unwrap();
    std::fs::write(src.join("b.rs"), "// use crate::a;\nfn f() {}\n").unwrap();
    std::fs::write(src.join("c.rs"), "use super::a::x::X;\n").unwrap();
    assert_eq!(
        circles(src),
        vec![vec!["a::x".to_string(), "c".to_string()]]
    );
    std::fs::write(src.join("c.rs"), "pub struct C;\n").unwrap();
    assert!(circles(src).is_empty());
}
