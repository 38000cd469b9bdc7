//! Where a model comes from: a local directory or a Hugging Face hub repository.

use std::path::{Path, PathBuf};

use hf_hub::{Cache, Repo, RepoType};

use crate::error::{NliError, Result};

/// A model location: a directory holding `config.json`, weights and tokenizer files, or a hub
/// repository id with an optional revision.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ModelSource {
    /// A local directory.
    Dir(PathBuf),
    /// A hub repository, fetched through hf-hub (honouring `HF_HOME`, `HF_ENDPOINT` and
    /// `HF_HUB_OFFLINE`; cached files are used without network access).
    Hub {
        /// Repository id, e.g. `sentence-transformers/all-MiniLM-L6-v2`.
        id: String,
        /// Branch, tag or commit; `main` when absent.
        revision: Option<String>,
    },
}

impl ModelSource {
    /// Parses a command-line value: a local path, or a hub id `name` or `org/name` with an
    /// optional `@revision`.
    ///
    /// A spec is a local path, never sent to the hub, when it exists on disk, is absolute,
    /// starts with `./`, `../` or `~` (or is `.` or `..`), ends with a path separator, or
    /// cannot be a hub id (more than one `/`, an empty part, or a character other than ASCII
    /// letters, digits, `-`, `_` and `.`). Loading a local path that does not exist or is not
    /// a directory is then [`NliError::NotADirectory`], naming the path.
    ///
    /// ```
    /// use hauser_nli::ModelSource;
    /// assert!(matches!(ModelSource::parse("./no/such/model"), ModelSource::Dir(_)));
    /// assert!(matches!(ModelSource::parse("/opt/models/minilm"), ModelSource::Dir(_)));
    /// assert!(matches!(ModelSource::parse("a/b/c"), ModelSource::Dir(_)));
    /// assert!(matches!(ModelSource::parse("org/name@v2"), ModelSource::Hub { .. }));
    /// ```
    pub fn parse(spec: &str) -> Self {
        let path = Path::new(spec);
        if looks_local(spec) {
            return ModelSource::Dir(path.to_path_buf());
        }
        match spec.split_once('@') {
            Some((id, rev)) if !rev.is_empty() => ModelSource::Hub {
                id: id.to_string(),
                revision: Some(rev.to_string()),
            },
            _ => ModelSource::Hub {
                id: spec.to_string(),
                revision: None,
            },
        }
    }

    /// The model's display name (directory path or hub id), used in errors and signatures.
    pub fn name(&self) -> String {
        match self {
            ModelSource::Dir(p) => p.display().to_string(),
            ModelSource::Hub { id, .. } => id.clone(),
        }
    }

    /// The revision for signatures: the hub revision, or `local` for a directory.
    pub fn revision(&self) -> String {
        match self {
            ModelSource::Dir(_) => "local".to_string(),
            ModelSource::Hub { revision, .. } => {
                revision.clone().unwrap_or_else(|| "main".to_string())
            }
        }
    }

    /// The path of `file` if the model has it, `Ok(None)` when it does not.
    ///
    /// # Errors
    /// For a hub model whose file can neither be fetched nor found in the cache.
    pub fn optional(&self, file: &str) -> Result<Option<PathBuf>> {
        match self {
            ModelSource::Dir(dir) => {
                if !dir.is_dir() {
                    let problem = match std::fs::metadata(dir) {
                        Err(e) if e.kind() == std::io::ErrorKind::NotFound => "does not exist",
                        Err(_) => "cannot be read",
                        Ok(m) if m.is_file() => "is a regular file, not a directory",
                        Ok(_) => "is not a directory",
                    };
                    return Err(NliError::NotADirectory {
                        model: self.name(),
                        path: dir.clone(),
                        problem,
                    });
                }
                let p = dir.join(file);
                Ok(p.is_file().then_some(p))
            }
            ModelSource::Hub { id, revision } => {
                let repo = Repo::with_revision(
                    id.clone(),
                    RepoType::Model,
                    revision.clone().unwrap_or_else(|| "main".into()),
                );
                let cache = Cache::from_env();
                if let Some(p) = cache.repo(repo.clone()).get(file) {
                    return Ok(Some(p));
                }
                if offline() {
                    return Ok(None);
                }
                let api = hf_hub::api::sync::ApiBuilder::from_env()
                    .with_progress(false)
                    .build()
                    .map_err(|e| self.hub_error(file, e.to_string(), &cache))?;
                match api.repo(repo).get(file) {
                    Ok(p) => Ok(Some(p)),
                    // A 404 means the repository simply lacks this optional file.
                    Err(e) if e.to_string().contains("status code 404") => Ok(None),
                    Err(e) => Err(self.hub_error(file, e.to_string(), &cache)),
                }
            }
        }
    }

    /// The path of a file the model must have.
    ///
    /// # Errors
    /// [`NliError::MissingFile`] or [`NliError::Hub`] naming the model and the file.
    pub fn required(&self, file: &str) -> Result<PathBuf> {
        self.optional(file)?.ok_or_else(|| self.missing(file))
    }

    /// The first of `files` the model has.
    ///
    /// # Errors
    /// [`NliError::MissingFile`] listing all alternatives when none exists.
    pub fn first_of(&self, files: &[&str]) -> Result<(PathBuf, usize)> {
        for (i, f) in files.iter().enumerate() {
            if let Some(p) = self.optional(f)? {
                return Ok((p, i));
            }
        }
        Err(self.missing(&files.join(" or ")))
    }

    /// Where a hub model's files lie on this machine: its folder in the hub cache
    /// (`models--ORG--NAME`, every revision and blob), whether or not it is there yet; `None`
    /// for a local directory. Nothing is fetched. Programs use it to keep their outputs off the
    /// files a run loads.
    pub fn cache_folder(&self) -> Option<PathBuf> {
        match self {
            ModelSource::Dir(_) => None,
            ModelSource::Hub { id, .. } => Some(
                Cache::from_env()
                    .path()
                    .join(Repo::model(id.clone()).folder_name()),
            ),
        }
    }

    /// The local path of `file` when it is on this machine already: in the directory, or in
    /// the hub cache for the revision; never fetched.
    pub fn cached(&self, file: &str) -> Option<PathBuf> {
        match self {
            ModelSource::Dir(dir) => Some(dir.join(file)).filter(|p| p.is_file()),
            ModelSource::Hub { id, revision } => {
                let repo = Repo::with_revision(
                    id.clone(),
                    RepoType::Model,
                    revision.clone().unwrap_or_else(|| "main".into()),
                );
                Cache::from_env().repo(repo).get(file)
            }
        }
    }

    fn missing(&self, file: &str) -> NliError {
        let hint = match self {
            ModelSource::Hub { .. } if offline() => {
                format!(
                    " (HF_HUB_OFFLINE is set and the cache at {} lacks it)",
                    Cache::from_env().path().display()
                )
            }
            _ => String::new(),
        };
        NliError::MissingFile {
            model: self.name(),
            file: file.to_string(),
            hint,
        }
    }

    fn hub_error(&self, file: &str, reason: String, cache: &Cache) -> NliError {
        NliError::Hub {
            model: self.name(),
            file: file.to_string(),
            reason,
            cache: cache.path().clone(),
        }
    }
}

impl std::fmt::Display for ModelSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelSource::Dir(p) => write!(f, "{}", p.display()),
            ModelSource::Hub { id, revision: None } => f.write_str(id),
            ModelSource::Hub {
                id,
                revision: Some(r),
            } => write!(f, "{id}@{r}"),
        }
    }
}

/// Whether a model spec names a local path rather than a hub repository (see
/// [`ModelSource::parse`]).
fn looks_local(spec: &str) -> bool {
    let path = Path::new(spec);
    if path.exists() || path.is_absolute() {
        return true;
    }
    let explicit = ["./", "../", ".\\", "..\\", "~"];
    if spec == "." || spec == ".." || explicit.iter().any(|p| spec.starts_with(p)) {
        return true;
    }
    if spec.ends_with('/') || spec.ends_with('\\') {
        return true;
    }
    let id = spec.split_once('@').map_or(spec, |(id, _)| id);
    let parts: Vec<&str> = id.split('/').collect();
    let valid_part = |p: &&str| {
        !p.is_empty()
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    };
    !(parts.len() <= 2 && parts.iter().all(valid_part))
}

/// True when `HF_HUB_OFFLINE` asks for cache-only access.
fn offline() -> bool {
    std::env::var("HF_HUB_OFFLINE")
        .map(|v| {
            matches!(
                v.trim().to_ascii_lowercase().as_str(),
                "1" | "true" | "yes" | "on"
            )
        })
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_hub_ids_and_revisions() {
        assert_eq!(
            ModelSource::parse("org/model@v1"),
            ModelSource::Hub {
                id: "org/model".into(),
                revision: Some("v1".into())
            }
        );
        let s = ModelSource::parse("org/model");
        assert_eq!(s.revision(), "main");
        assert_eq!(s.to_string(), "org/model");
    }

    #[test]
    fn local_looking_specs_are_never_hub_ids() {
        for spec in [
            "./model",
            "../models/x",
            "/abs/path/to/model",
            "~/models/minilm",
            ".",
            "models/minilm/",
            "a/b/c",
            "my model",
            "org/na:me",
        ] {
            assert!(
                matches!(ModelSource::parse(spec), ModelSource::Dir(_)),
                "{spec}"
            );
        }
        for spec in [
            "gpt2",
            "roberta-large",
            "sentence-transformers/all-MiniLM-L6-v2",
            "mujeensung/roberta-base_mnli_bc@main",
            "org/model@refs/pr/1",
        ] {
            assert!(
                matches!(ModelSource::parse(spec), ModelSource::Hub { .. }),
                "{spec}"
            );
        }
    }

    #[test]
    fn missing_or_file_paths_name_the_path() {
        let dir = tempfile::tempdir().expect("tempdir");
        let missing = dir.path().join("nope");
        let src = ModelSource::parse(&missing.display().to_string());
        let e = src.required("config.json").expect_err("missing");
        assert!(matches!(e, NliError::NotADirectory { .. }), "{e}");
        let msg = e.to_string();
        assert!(
            msg.contains("does not exist") && msg.contains(&missing.display().to_string()),
            "{msg}"
        );
        let file = dir.path().join("weights.bin");
        std::fs::write(&file, b"x").expect("write");
        let e = ModelSource::parse(&file.display().to_string())
            .required("config.json")
            .expect_err("a file");
        assert!(e.to_string().contains("is a regular file"), "{e}");
    }

    #[test]
    fn missing_file_in_dir_names_model_and_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let src = ModelSource::Dir(dir.path().to_path_buf());
        let err = src.required("config.json").expect_err("missing");
        let msg = err.to_string();
        assert!(
            msg.contains("config.json") && msg.contains(&src.name()),
            "{msg}"
        );
    }
}
