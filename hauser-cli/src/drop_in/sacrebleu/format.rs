//! The text `hauser sacrebleu` prints, laid out as sacreBLEU 2.4.3 lays it out: Python's float
//! spellings, its two JSON layouts (`json.dumps(indent=1, ensure_ascii=False)` for one system,
//! `json.dumps(indent=4)` for several), the `=`-aligned text lines of one system, and the two
//! tables it draws with tabulate 0.10.0 (`fancy_grid` for `-f text`, `latex_booktabs` for
//! `-f latex`, first column right-aligned, the others centred, widths in code points since the
//! sacreBLEU install has no `wcwidth`).

pub use crate::drop_in::py_text::{dumps, fixed, Json};

/// Sets `key` in a dict as Python does: an existing key keeps its place, a new one goes last.
pub fn dict_set(items: &mut Vec<(String, Json)>, key: &str, value: Json) {
    match items.iter_mut().find(|(k, _)| k == key) {
        Some(slot) => slot.1 = value,
        None => items.push((key.to_string(), value)),
    }
}

/// sacreBLEU's `print_single_results` for `-f text`: lines with a ` = ` aligned on it (the
/// part before right-justified to the longest); a line without `=` (`-b`) printed as is.
pub fn align_single(results: &[String]) -> String {
    let mut out = String::new();
    if results.len() == 1 {
        out.push_str(&results[0]);
        out.push('\n');
        return out;
    }
    let mut lens = Vec::new();
    for line in results {
        match line.find('=') {
            // Python counts code points; `index('=') - 1` may be -1 when the line starts with
            // `=`, which slices off all but the last character: not reachable with metric names.
            Some(byte) => lens.push(line[..byte].chars().count().saturating_sub(1)),
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    // Python zips the lengths with the first lines, as sacreBLEU does.
    if let Some(&w) = lens.iter().max() {
        for (len, line) in lens.iter().zip(results) {
            let split = line.char_indices().nth(*len).map_or(line.len(), |(i, _)| i);
            let (left, right) = line.split_at(split);
            let n = left.chars().count();
            out.push_str(&" ".repeat(w.saturating_sub(n)));
            out.push_str(left);
            out.push_str(right);
            out.push('\n');
        }
    }
    out
}

/// Python's `str.strip()`.
fn py_strip(s: &str) -> &str {
    s.trim_matches(hauser_core::tokenize::is_python_space)
}

/// sacreBLEU's `Color.format`: `s` in a colorama colour (`yellow`, `cyan`, `red`, `green`)
/// then reset, when `on` (standard output is a terminal, no `--no-color`, no `NO_COLOR`).
pub fn paint(s: &str, color: &str, on: bool) -> String {
    let code = match color {
        "red" => 31,
        "green" => 32,
        "yellow" => 33,
        _ => 36,
    };
    if on {
        format!("\x1b[{code}m{s}\x1b[0m")
    } else {
        s.to_string()
    }
}

/// The visible width: code points, without the colour sequences (as tabulate measures).
fn width(s: &str) -> usize {
    let mut n = 0;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1b' && chars.peek() == Some(&'[') {
            for d in chars.by_ref() {
                if d == 'm' {
                    break;
                }
            }
        } else {
            n += 1;
        }
    }
    n
}

/// sacreBLEU's colouring of the confidence intervals of `-f text` (`(μ = 1.0 ± 0.5)` in cyan).
pub fn paint_confidence(line: &str, on: bool) -> String {
    if !on {
        return line.to_string();
    }
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find("(μ = ") {
        out.push_str(&rest[..start]);
        let tail = &rest[start..];
        let matched = tail.find(')').filter(|&end| {
            let inner = &tail["(μ = ".len()..end];
            let number =
                |x: &str| !x.is_empty() && x.chars().all(|c| c.is_ascii_digit() || c == '.');
            inner
                .split_once(" ± ")
                .is_some_and(|(m, c)| number(m) && number(c))
        });
        match matched {
            Some(end) => {
                out.push_str(&paint(&tail[..=end], "cyan", true));
                rest = &tail[end + 1..];
            }
            None => {
                out.push_str(&tail[..1]);
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// `"{:^w}"`: the extra space of an odd difference goes right.
fn center(s: &str, w: usize) -> String {
    let n = width(s);
    if n >= w {
        return s.to_string();
    }
    let left = (w - n) / 2;
    format!("{}{s}{}", " ".repeat(left), " ".repeat(w - n - left))
}

fn right(s: &str, w: usize) -> String {
    format!("{}{s}", " ".repeat(w.saturating_sub(width(s))))
}

fn align(s: &str, w: usize, first: bool) -> String {
    if first {
        right(s, w)
    } else {
        center(s, w)
    }
}

/// A table: the headers and one row of cells per system.
#[derive(Debug, Clone)]
pub struct Table {
    /// Column titles.
    pub headers: Vec<String>,
    /// One row of cells per system (a cell may hold lines).
    pub rows: Vec<Vec<String>>,
}

impl Table {
    fn widths(&self, multiline: bool) -> Vec<usize> {
        (0..self.headers.len())
            .map(|c| {
                let header = width(&self.headers[c]) + 2;
                let cells = self.rows.iter().map(|r| {
                    let cell = py_strip(&r[c]);
                    if multiline {
                        cell.lines().map(width).max().unwrap_or(0)
                    } else {
                        width(cell)
                    }
                });
                cells.fold(header, usize::max)
            })
            .collect()
    }

    /// tabulate's `fancy_grid`.
    pub fn fancy_grid(&self) -> String {
        let multiline = self.rows.iter().flatten().any(|c| c.contains(['\n', '\r']));
        let widths = self.widths(multiline);
        let line = |l: &str, m: &str, r: &str, fill: &str| {
            let parts: Vec<String> = widths.iter().map(|w| fill.repeat(w + 2)).collect();
            format!("{l}{}{r}\n", parts.join(m))
        };
        let row = |cells: &[String]| {
            let parts: Vec<String> = cells.iter().map(|c| format!(" {c} ")).collect();
            format!("│{}│\n", parts.join("│"))
        };
        let mut out = line("╒", "╤", "╕", "═");
        let header: Vec<String> = self
            .headers
            .iter()
            .enumerate()
            .map(|(c, h)| align(h, widths[c], c == 0))
            .collect();
        out.push_str(&row(&header));
        out.push_str(&line("╞", "╪", "╡", "═"));
        for (r, cells) in self.rows.iter().enumerate() {
            if r > 0 {
                out.push_str(&line("├", "┼", "┤", "─"));
            }
            let split: Vec<Vec<&str>> = cells
                .iter()
                .map(|c| {
                    let c = py_strip(c);
                    if multiline {
                        c.lines().collect()
                    } else {
                        vec![c]
                    }
                })
                .collect();
            let n = split.iter().map(Vec::len).max().unwrap_or(1).max(1);
            for k in 0..n {
                let line_cells: Vec<String> = split
                    .iter()
                    .enumerate()
                    .map(|(c, lines)| match lines.get(k) {
                        Some(text) => align(text, widths[c], c == 0),
                        None => " ".repeat(widths[c]),
                    })
                    .collect();
                out.push_str(&row(&line_cells));
            }
        }
        out.push_str(&line("╘", "╧", "╛", "═"));
        out
    }

    /// tabulate's `latex_booktabs` (cells escaped after padding, as tabulate does).
    pub fn latex_booktabs(&self) -> String {
        let widths = self.widths(false);
        let spec: String = (0..widths.len())
            .map(|c| if c == 0 { 'r' } else { 'c' })
            .collect();
        let row = |cells: Vec<String>| {
            let parts: Vec<String> = cells
                .iter()
                .map(|c| latex_escape(&format!(" {c} ")))
                .collect();
            format!("{}\\\\", parts.join("&")).trim_end().to_string() + "\n"
        };
        let mut out = format!("\\begin{{tabular}}{{{spec}}}\n\\toprule\n");
        out.push_str(&row(self
            .headers
            .iter()
            .enumerate()
            .map(|(c, h)| align(h, widths[c], c == 0))
            .collect()));
        out.push_str("\\midrule\n");
        for cells in &self.rows {
            out.push_str(&row(cells
                .iter()
                .enumerate()
                .map(|(c, v)| align(py_strip(v), widths[c], c == 0))
                .collect()));
        }
        out.push_str("\\bottomrule\n\\end{tabular}\n");
        out
    }
}

fn latex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("\\&"),
            '%' => out.push_str("\\%"),
            '$' => out.push_str("\\$"),
            '#' => out.push_str("\\#"),
            '_' => out.push_str("\\_"),
            '^' => out.push_str("\\^{}"),
            '{' => out.push_str("\\{"),
            '}' => out.push_str("\\}"),
            '~' => out.push_str("\\textasciitilde{}"),
            '\\' => out.push_str("\\textbackslash{}"),
            '<' => out.push_str("\\ensuremath{<}"),
            '>' => out.push_str("\\ensuremath{>}"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drop_in::py_text::py_float_repr;

    #[test]
    fn floats_as_python_writes_them() {
        for (x, s) in [
            (36.5, "36.5"),
            (36.0, "36.0"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1e16, "1e+16"),
            (1.5e17, "1.5e+17"),
            (123456789.0, "123456789.0"),
            (-0.0, "-0.0"),
            (0.49305069493050696, "0.49305069493050696"),
        ] {
            assert_eq!(py_float_repr(x), s);
        }
        let wide = fixed(0.1, 70000);
        assert_eq!(wide.len(), 70002);
        assert!(wide.starts_with("0.1000000000000000055511151231257827"));
    }

    #[test]
    fn json_layouts() {
        let v = Json::Array(vec![Json::Object(vec![
            ("system".into(), Json::Str("é\"".into())),
            ("p".into(), Json::Null),
        ])]);
        assert_eq!(
            dumps(&v, 4, true),
            "[\n    {\n        \"system\": \"\\u00e9\\\"\",\n        \"p\": null\n    }\n]"
        );
        assert_eq!(
            dumps(
                &Json::Object(vec![("a".into(), Json::Str("μ".into()))]),
                1,
                false
            ),
            "{\n \"a\": \"μ\"\n}"
        );
    }

    #[test]
    fn tables() {
        let t = Table {
            headers: vec!["System".into(), "BLEU".into()],
            rows: vec![
                vec!["a_b".into(), "36.5".into()],
                vec!["c".into(), "1.0\n(p)".into()],
            ],
        };
        assert_eq!(
            t.fancy_grid(),
            "╒══════════╤════════╕\n│   System │  BLEU  │\n╞══════════╪════════╡\n│      a_b │  36.5  │\n├──────────┼────────┤\n│        c │  1.0   │\n│          │  (p)   │\n╘══════════╧════════╛\n"
        );
        assert!(t.latex_booktabs().contains("      a\\_b &"));
    }
}
