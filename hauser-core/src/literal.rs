//! Parser for the Python list-of-tuples literals in which the HAUSER release stores components,
//! e.g. `[('he', 'a child', 'wept'), ('it', "the sun's eye", None)]`.

use crate::error::{CoreError, Result};
use crate::types::Components;

/// Parses a Python literal list of `(topic, vehicle, event)` tuples (or lists). Strings may use
/// single or double quotes with backslash escapes; `None` is an unknown part.
///
/// # Errors
/// [`CoreError::ComponentsLiteral`] with the byte offset of the first problem.
///
/// ```
/// use hauser_core::parse_components_literal;
/// let c = parse_components_literal("[('he', 'a child', 'wept')]").unwrap();
/// assert_eq!(c[0].vehicle.as_deref(), Some("a child"));
/// ```
pub fn parse_components_literal(text: &str) -> Result<Vec<Components>> {
    let mut p = Parser {
        s: text.as_bytes(),
        text,
        pos: 0,
    };
    p.ws();
    p.expect(b'[')?;
    let mut out = Vec::new();
    p.ws();
    if p.eat(b']') {
        return p.finish(out);
    }
    loop {
        p.ws();
        let close = match p.peek() {
            Some(b'(') => b')',
            Some(b'[') => b']',
            _ => return Err(p.err("expected '(' or '['")),
        };
        p.pos += 1;
        let mut parts: Vec<Option<String>> = Vec::new();
        loop {
            p.ws();
            if p.eat(close) {
                break;
            }
            parts.push(p.item()?);
            p.ws();
            if !p.eat(b',') {
                p.ws();
                p.expect(close)?;
                break;
            }
        }
        if parts.len() != 3 {
            return Err(p.err(&format!("expected 3 parts per tuple, got {}", parts.len())));
        }
        let mut it = parts.into_iter();
        let triple = [
            it.next().flatten(),
            it.next().flatten(),
            it.next().flatten(),
        ];
        out.push(Components::from_triple(triple));
        p.ws();
        if p.eat(b',') {
            p.ws();
            if p.eat(b']') {
                return p.finish(out);
            }
            continue;
        }
        p.expect(b']')?;
        return p.finish(out);
    }
}

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn err(&self, message: &str) -> CoreError {
        CoreError::ComponentsLiteral {
            offset: self.pos,
            message: message.to_string(),
        }
    }
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }
    fn ws(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: u8) -> Result<()> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.err(&format!("expected '{}'", c as char)))
        }
    }
    fn finish(&mut self, out: Vec<Components>) -> Result<Vec<Components>> {
        self.ws();
        if self.pos != self.s.len() {
            return Err(self.err("trailing characters"));
        }
        Ok(out)
    }
    fn item(&mut self) -> Result<Option<String>> {
        if self.text[self.pos..].starts_with("None") {
            self.pos += 4;
            return Ok(None);
        }
        let quote = match self.peek() {
            Some(q @ (b'\'' | b'"')) => q,
            _ => return Err(self.err("expected a string or None")),
        };
        self.pos += 1;
        let mut value = String::new();
        loop {
            let rest = &self.text[self.pos..];
            let Some(ch) = rest.chars().next() else {
                return Err(self.err("unterminated string"));
            };
            self.pos += ch.len_utf8();
            match ch {
                c if c as u32 == quote as u32 => return Ok(Some(value)),
                '\\' => {
                    let Some(esc) = self.text[self.pos..].chars().next() else {
                        return Err(self.err("unterminated escape"));
                    };
                    self.pos += esc.len_utf8();
                    value.push(match esc {
                        'n' => '\n',
                        't' => '\t',
                        other => other,
                    });
                }
                c => value.push(c),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_tuples_quotes_and_none() {
        let c = parse_components_literal(
            r#"[('he', 'a child', 'wept'), ("it", "the sun's eye", None), ['a', 'b\'c', 'd'],]"#,
        )
        .unwrap();
        assert_eq!(c.len(), 3);
        assert_eq!(c[0], Components::new("he", "a child", "wept"));
        assert_eq!(c[1].vehicle.as_deref(), Some("the sun's eye"));
        assert_eq!(c[1].event, None);
        assert_eq!(c[2].vehicle.as_deref(), Some("b'c"));
        assert!(parse_components_literal("[]").unwrap().is_empty());
    }

    #[test]
    fn reports_offset_of_errors() {
        for bad in [
            "",
            "[('a', 'b')]",
            "[('a', 'b', 'c')",
            "[('a', 'b', 'c)]",
            "[(1, 2, 3)]",
            "[] x",
        ] {
            assert!(
                matches!(
                    parse_components_literal(bad),
                    Err(CoreError::ComponentsLiteral { .. })
                ),
                "{bad:?}"
            );
        }
    }
}
