//! Discriminative prediction files: the released format (each data row plus `"prediction"`,
//! 0 for `option1` and 1 for `option2`), the files `hauser narratives score|choose` write
//! (`"prediction": "option1"|"option2"`), and the GPT-3 file (`"predictions": ["(2)"]`).

use std::path::Path;

use serde_json::Value;

use super::data::{parse_lines, Choice};
use crate::error::TaskResult;

fn choice_of(v: &Value) -> Option<Choice> {
    match v {
        Value::Number(n) => match n.as_u64() {
            Some(0) => Some(Choice::Option1),
            Some(1) => Some(Choice::Option2),
            _ => None,
        },
        Value::String(s) => match s.trim() {
            "option1" | "(1)" => Some(Choice::Option1),
            "option2" | "(2)" => Some(Choice::Option2),
            _ => None,
        },
        _ => None,
    }
}

/// One choice per line of a prediction file, or the error naming the line.
pub fn parse_choice_predictions(text: &str, path: &Path) -> Vec<TaskResult<Choice>> {
    parse_lines(text, path, |l| {
        let v: Value = serde_json::from_str(l).map_err(|e| e.to_string())?;
        let p = v
            .get("prediction")
            .or_else(|| v.get("predictions").and_then(|p| p.get(0)))
            .ok_or("no \"prediction\" field")?;
        choice_of(p).ok_or_else(|| format!("prediction {p} is not 0/1, option1/option2 or (1)/(2)"))
    })
    .into_iter()
    .map(|(_, r)| r)
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_three_formats_and_names_bad_lines() {
        let text = "{\"prediction\": 1}\n{\"prediction\": \"option1\"}\r\n\n{\"predictions\": [\"(2)\"]}\n{\"prediction\": 2}\n";
        let got = parse_choice_predictions(text, Path::new("p.jsonl"));
        assert_eq!(got.len(), 4);
        assert_eq!(got[0].as_ref().unwrap(), &Choice::Option2);
        assert_eq!(got[1].as_ref().unwrap(), &Choice::Option1);
        assert_eq!(got[2].as_ref().unwrap(), &Choice::Option2);
        let e = got[3].as_ref().unwrap_err().to_string();
        assert!(e.starts_with("p.jsonl:5:"), "{e}");
    }
}
