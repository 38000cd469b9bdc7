//! Every file a run reads and writes, declared when the command starts and checked together
//! before any work is done (before an input is parsed or a model loaded):
//!
//! - at most one input is standard input (`-`), and flags that cannot read it refuse it;
//! - every output location can be written: its directory exists and is writable, the target is
//!   not a directory (or, for `--plot`, is one);
//! - no output is the same file as an input: data and label files, prediction files, word
//!   vectors, every file of a WordNet directory or of a local model directory, every file of a
//!   hub model's folder in the hub cache, every file of the encoder a COMET checkpoint's
//!   `hparams.yaml` names, and standard input, output or error when redirected from or to a
//!   file (`>>` included);
//! - an output that names a standard stream, directly or through symbolic links, is that
//!   stream: it is compared as the stream, never followed to the file behind it.
//!
//! A command builds a [`RunFiles`] from its flags and calls [`RunFiles::check`]; the
//! [`Checked`] it gets back is what [`crate::io::files::OutputFile::create`] requires, so an output
//! cannot be opened without the run's inputs having been declared.

use std::fs::{File, Metadata};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::error::CliError;

/// Whether `path` names standard input (`-`).
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Refuses a run where more than one input flag names standard input: they would compete for
/// the same bytes. `inputs` pairs each flag with its value.
///
/// # Errors
/// [`CliError::Usage`] naming the flags.
pub fn check_single_stdin(inputs: &[(&str, &Path)]) -> Result<(), CliError> {
    let flags: Vec<&str> = inputs
        .iter()
        .filter(|(_, p)| is_stdin(p))
        .map(|(f, _)| *f)
        .collect();
    if flags.len() > 1 {
        return Err(CliError::Usage(format!(
            "only one input may be standard input (`-`), got it for {}",
            flags.join(" and ")
        )));
    }
    Ok(())
}

/// The standard stream a path names, when it names one: 1 for standard output, 2 for standard
/// error, whether given as such (`/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`) or through a
/// chain of symbolic links that reaches one of those names. Writing to the stream itself keeps
/// its mode (a `>>` redirection appends) and never replaces the file or pipe behind it: a link
/// to `/proc/self/fd/1` must not be followed to the file it stands for and replaced there.
pub(crate) fn standard_stream(path: &Path) -> Option<u8> {
    link_chain(path).find_map(|p| match p.to_str()? {
        "/dev/stdout" | "/dev/fd/1" | "/proc/self/fd/1" => Some(1),
        "/dev/stderr" | "/dev/fd/2" | "/proc/self/fd/2" => Some(2),
        _ => None,
    })
}

/// What an input flag names.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    /// A file, or standard input (`-`).
    Stream,
    /// A file that cannot be standard input; the reason is given in the refusal.
    File(&'static str),
    /// A directory whose files are read (WordNet, a data folder).
    Dir,
    /// A model: a local directory (each file inside is an input) or file, or a hub id (every
    /// file of its folder in the hub cache is an input); for a COMET checkpoint, the encoder
    /// its `hparams.yaml` names as well.
    Model,
}

#[derive(Debug, Clone)]
struct Input {
    flag: String,
    path: PathBuf,
    kind: Kind,
}

#[derive(Debug, Clone)]
struct Output {
    flag: String,
    path: PathBuf,
    /// Why the output must be a regular file (seeked, or read back), when it must.
    regular_only: Option<&'static str>,
}

/// The files of one run, declared flag by flag, then checked with [`RunFiles::check`].
///
/// ```
/// use std::path::Path;
/// use hauser_cli::io::run_files::RunFiles;
/// let err = RunFiles::new()
///     .input("--data", Path::new("-"))
///     .inputs("--labels", Some(Path::new("-")))
///     .check()
///     .unwrap_err();
/// assert!(err.to_string().contains("--data and --labels"));
/// ```
#[derive(Debug, Clone, Default)]
#[must_use = "the files are only checked by RunFiles::check"]
pub struct RunFiles {
    inputs: Vec<Input>,
    outputs: Vec<Output>,
    plot_dirs: Vec<(String, PathBuf)>,
}

impl RunFiles {
    /// No files yet.
    pub fn new() -> Self {
        Self::default()
    }

    fn push(mut self, flag: &str, path: &Path, kind: Kind) -> Self {
        self.inputs.push(Input {
            flag: flag.to_string(),
            path: path.to_path_buf(),
            kind,
        });
        self
    }

    /// An input file of `flag`, `-` for standard input.
    pub fn input(self, flag: &str, path: &Path) -> Self {
        self.push(flag, path, Kind::Stream)
    }

    /// Every input of a repeated or optional flag (`Option<&Path>` and `&[PathBuf]` both work).
    pub fn inputs<P: AsRef<Path>>(self, flag: &str, paths: impl IntoIterator<Item = P>) -> Self {
        paths
            .into_iter()
            .fold(self, |s, p| s.push(flag, p.as_ref(), Kind::Stream))
    }

    /// An input that must be a file: `-` is refused, naming `flag` and `why` (e.g. "it is read
    /// twice").
    pub fn file_input(self, flag: &str, path: Option<&Path>, why: &'static str) -> Self {
        match path {
            Some(p) => self.push(flag, p, Kind::File(why)),
            None => self,
        }
    }

    /// A directory whose files are inputs (WordNet, a data folder, a COMET checkpoint, whose
    /// encoder's files are inputs too); `-` is refused.
    pub fn dir(self, flag: &str, path: Option<&Path>) -> Self {
        match path {
            Some(p) => self.push(flag, p, Kind::Dir),
            None => self,
        }
    }

    /// A model given as on the command line (`org/name[@rev]` or a local path): the files of a
    /// local directory, of a hub model's folder in the hub cache, or a local file, are inputs
    /// (with a COMET checkpoint's encoder); `-` is refused.
    pub fn model(self, flag: &str, spec: Option<&str>) -> Self {
        match spec {
            Some(s) => self.push(flag, Path::new(s), Kind::Model),
            None => self,
        }
    }

    /// The output of `flag`: `None` or `-` is standard output (always checked against the
    /// inputs when it is redirected to a file), anything else a file.
    pub fn output(mut self, flag: &str, path: Option<&Path>) -> Self {
        if let Some(p) = path.filter(|p| !is_stdin(p)) {
            self.outputs.push(Output {
                flag: flag.to_string(),
                path: p.to_path_buf(),
                regular_only: None,
            });
        }
        self
    }

    /// An output that must be a regular file (a device or FIFO is refused, naming `flag` and
    /// `why`).
    pub fn regular_output(mut self, flag: &str, path: &Path, why: &'static str) -> Self {
        if !is_stdin(path) {
            self.outputs.push(Output {
                flag: flag.to_string(),
                path: path.to_path_buf(),
                regular_only: Some(why),
            });
        }
        self
    }

    /// A directory the run writes `names` into (`--plot DIR`), created when missing: it must
    /// be a directory, and each of its files is an output.
    pub fn plot_dir(mut self, flag: &str, dir: Option<&Path>, names: &[&str]) -> Self {
        if let Some(dir) = dir {
            self.plot_dirs.push((flag.to_string(), dir.to_path_buf()));
            for name in names {
                self = self.output(flag, Some(&dir.join(name)));
            }
        }
        self
    }

    /// Checks the run's files, in this order: inputs that cannot be `-`, two standard-input
    /// inputs, output directories and targets, outputs that are inputs.
    ///
    /// # Errors
    /// [`CliError::Usage`] naming the flags; [`CliError::Output`] for an output that cannot
    /// be written; [`CliError::SameFile`].
    pub fn check(self) -> Result<Checked, CliError> {
        for input in &self.inputs {
            refuse_stdin(input)?;
        }
        let flagged: Vec<(&str, &Path)> = self
            .inputs
            .iter()
            .map(|i| (i.flag.as_str(), i.path.as_path()))
            .collect();
        check_single_stdin(&flagged)?;
        for (flag, dir) in &self.plot_dirs {
            check_plot_dir(flag, dir)?;
        }
        let new_dirs: Vec<&PathBuf> = self
            .plot_dirs
            .iter()
            .map(|(_, d)| d)
            .filter(|d| !d.exists())
            .collect();
        let checked = self.clone().into_checked();
        for output in &checked.outputs {
            // A standard stream, named or through links: written as the stream, never
            // replaced; standard output is compared with the inputs below, standard error here.
            match standard_stream(&output.path) {
                Some(1) => continue,
                Some(fd) => {
                    checked.refuse_std(fd, &output.path)?;
                    continue;
                }
                None => {}
            }
            // A file of a directory still to be created: check_plot_dir probed where it goes.
            if new_dirs
                .iter()
                .any(|d| output.path.parent() == Some(d.as_path()))
            {
                continue;
            }
            let target = Target::of(&output.path)
                .map_err(|e| CliError::output(&output.flag, &output.path, e.to_string()))?;
            target.check(output)?;
            checked.refuse_input(&output.path)?;
        }
        checked.refuse_std(1, Path::new("- (standard output)"))?;
        Ok(checked)
    }
}

impl RunFiles {
    /// The files as declared, without the checks (for the single-output check of
    /// [`crate::io::files::check_not_an_input`]).
    pub(crate) fn into_checked(self) -> Checked {
        Checked {
            inputs: self.inputs,
            outputs: self.outputs,
            ids: OnceLock::new(),
        }
    }
}

fn refuse_stdin(input: &Input) -> Result<(), CliError> {
    if !is_stdin(&input.path) {
        return Ok(());
    }
    let why = match input.kind {
        Kind::Stream => return Ok(()),
        Kind::File(why) => why,
        Kind::Dir => "it names a directory",
        Kind::Model => "it names a model (a hub id or a local directory)",
    };
    Err(CliError::Usage(format!(
        "{}: standard input (`-`) cannot be used here: {why}",
        input.flag
    )))
}

/// `--plot DIR`: an existing DIR must be a directory; a missing one is created later, under an
/// existing writable directory.
fn check_plot_dir(flag: &str, dir: &Path) -> Result<(), CliError> {
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => probe_dir(flag, dir, dir),
        Ok(_) => Err(CliError::output(
            flag,
            dir,
            "exists and is not a directory (give a directory: the plots are written into it)",
        )),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let parent = dir
                .ancestors()
                .skip(1)
                .find(|a| a.as_os_str().is_empty() || a.exists())
                .map(|a| {
                    if a.as_os_str().is_empty() {
                        Path::new(".")
                    } else {
                        a
                    }
                })
                .unwrap_or(Path::new("."));
            match std::fs::metadata(parent) {
                Ok(m) if m.is_dir() => probe_dir(flag, dir, parent),
                _ => Err(CliError::output(
                    flag,
                    dir,
                    format!("cannot be created: {} is not a directory", parent.display()),
                )),
            }
        }
        Err(e) => Err(CliError::output(flag, dir, e.to_string())),
    }
}

/// Whether a file can be created in `dir`, by creating (and removing) an empty temporary file:
/// permissions, read-only filesystems and ACLs are all answered by the system itself.
fn probe_dir(flag: &str, output: &Path, dir: &Path) -> Result<(), CliError> {
    tempfile::Builder::new()
        .prefix(".hauser-check.")
        .tempfile_in(dir)
        .map(drop)
        .map_err(|e| {
            let e = e.kind();
            let why = match e {
                std::io::ErrorKind::NotFound => {
                    format!("directory {} does not exist", dir.display())
                }
                std::io::ErrorKind::PermissionDenied => {
                    format!("directory {} is not writable", dir.display())
                }
                _ => format!("cannot create a file in {}: {e}", dir.display()),
            };
            CliError::output(flag, output, why)
        })
}

/// What an output path is now, symbolic links followed.
#[derive(Debug)]
pub(crate) enum Target {
    /// Nothing there yet: the file will be created at this path (a dangling link's target).
    Missing(PathBuf),
    /// A regular file, replaced through a temporary file at this path (a link's target).
    Regular(PathBuf),
    /// A directory: refused.
    Dir,
    /// A socket: cannot be opened for writing.
    Socket,
    /// A character or block device, a FIFO, a terminal: written directly, never replaced.
    Special,
}

impl Target {
    /// Classifies `path`.
    ///
    /// # Errors
    /// The system's error when `path` cannot be examined (a permission problem on the way).
    pub(crate) fn of(path: &Path) -> std::io::Result<Self> {
        match std::fs::metadata(path) {
            Ok(m) => Ok(Self::from_meta(path, &m)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                Ok(Self::Missing(link_target(path)))
            }
            Err(e) => Err(e),
        }
    }

    fn from_meta(path: &Path, m: &Metadata) -> Self {
        let t = m.file_type();
        if t.is_dir() {
            return Self::Dir;
        }
        if t.is_file() {
            let is_link = std::fs::symlink_metadata(path).is_ok_and(|l| l.file_type().is_symlink());
            let at = if is_link {
                std::fs::canonicalize(path).unwrap_or_else(|_| link_target(path))
            } else {
                path.to_path_buf()
            };
            return Self::Regular(at);
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if t.is_socket() {
                return Self::Socket;
            }
        }
        Self::Special
    }

    fn check(&self, output: &Output) -> Result<(), CliError> {
        let fail = |why: String| CliError::output(&output.flag, &output.path, why);
        match self {
            Self::Dir => Err(fail("is a directory; give a file name".into())),
            Self::Socket => Err(fail(
                "is a socket, which cannot be written as a file".into(),
            )),
            Self::Special => match output.regular_only {
                Some(why) => Err(fail(format!("is not a regular file ({why})"))),
                None => Ok(()),
            },
            Self::Missing(at) | Self::Regular(at) => {
                probe_dir(&output.flag, &output.path, parent_dir(at))
            }
        }
    }
}

/// Where a chain of symbolic links ends (the path itself when it is not a link); used for a
/// link whose target does not exist yet, so that the file is created there and the link kept.
fn link_target(path: &Path) -> PathBuf {
    link_chain(path).fold(path.to_path_buf(), |_, p| p)
}

/// The chain of symbolic links from `path`: the path itself, then each link's target in turn (a
/// relative target is read beside its link), at most the system's own limit of 40 links
/// (Linux's MAXSYMLINKS).
fn link_chain(path: &Path) -> impl Iterator<Item = PathBuf> {
    std::iter::successors(Some(path.to_path_buf()), |p| match std::fs::read_link(p) {
        Ok(t) if t.is_absolute() => Some(t),
        Ok(t) => Some(parent_dir(p).join(t)),
        Err(_) => None,
    })
    .take(41)
}

/// The directory a file at `path` is created in (`.` for a bare name).
pub(crate) fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// The identity of a file for the same-file check: device and inode where the platform has
/// them (so hard links and symbolic links compare equal), else the canonical path.
#[derive(Debug, Clone, PartialEq, Eq)]
enum FileId {
    #[cfg(unix)]
    Inode(u64, u64),
    #[cfg(not(unix))]
    Path(PathBuf),
}

#[cfg(unix)]
fn file_id(_path: &Path, meta: &Metadata) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    Some(FileId::Inode(meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn file_id(path: &Path, _meta: &Metadata) -> Option<FileId> {
    std::fs::canonicalize(path).ok().map(FileId::Path)
}

/// The identity of standard input (0), output (1) or error (2) when it is a regular file
/// (`< FILE`, `> FILE`, `2> FILE`); pipes, terminals and devices cannot be overwritten by
/// mistake.
#[cfg(unix)]
fn std_id(fd: u8) -> Option<FileId> {
    use std::os::fd::AsFd;
    let fd = match fd {
        0 => std::io::stdin().as_fd().try_clone_to_owned().ok()?,
        1 => std::io::stdout().as_fd().try_clone_to_owned().ok()?,
        _ => std::io::stderr().as_fd().try_clone_to_owned().ok()?,
    };
    let meta = File::from(fd).metadata().ok()?;
    meta.is_file()
        .then(|| file_id(Path::new("-"), &meta))
        .flatten()
}

#[cfg(not(unix))]
fn std_id(_fd: u8) -> Option<FileId> {
    None
}

fn id_of(path: &Path) -> Option<FileId> {
    if is_stdin(path) {
        return std_id(0);
    }
    let meta = std::fs::metadata(path).ok()?;
    file_id(path, &meta)
}

/// Directory inputs are walked this deep and this far: enough for any model or WordNet
/// directory, bounded for a mistaken `--wordnet /`.
const MAX_DEPTH: usize = 4;
const MAX_FILES: usize = 20_000;

fn files_under(dir: &Path, depth: usize, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        if found.len() >= MAX_FILES {
            return;
        }
        let path = entry.path();
        match std::fs::metadata(&path) {
            Ok(m) if m.is_dir() && depth > 0 => files_under(&path, depth - 1, found),
            Ok(m) if m.is_file() => found.push(path),
            _ => {}
        }
    }
}

/// The files an input stands for, each with how it is named in messages.
fn input_files(input: &Input) -> Vec<(String, PathBuf)> {
    let shown = |p: &Path| format!("{} ({})", p.display(), input.flag);
    let source = match input.kind {
        Kind::Stream | Kind::File(_) if is_stdin(&input.path) => {
            return vec![(
                format!("- (standard input, {})", input.flag),
                input.path.clone(),
            )]
        }
        Kind::Stream | Kind::File(_) => return vec![(shown(&input.path), input.path.clone())],
        Kind::Dir => hauser_nli::ModelSource::Dir(input.path.clone()),
        Kind::Model => hauser_nli::ModelSource::parse(&input.path.to_string_lossy()),
    };
    let mut found = Vec::new();
    let of = format!("{} {source}", input.flag);
    model_files(&source, &of, &mut found);
    if found.is_empty() {
        if let hauser_nli::ModelSource::Dir(p) = &source {
            if !p.is_dir() {
                // A model or data flag naming a file: that file is the input.
                found.push((shown(p), p.clone()));
            }
        }
    }
    found
}

/// Every file of a model on this machine, each named with `of` (how the model was given): a
/// local directory's files, or the whole of a hub model's folder in the hub cache (every
/// revision, the blobs the snapshots link to); and, for a COMET checkpoint, the same for the
/// encoder its `hparams.yaml` names (local, or a hub id), which a run loads as well.
fn model_files(source: &hauser_nli::ModelSource, of: &str, found: &mut Vec<(String, PathBuf)>) {
    let Some(root) = model_folder(source) else {
        return;
    };
    let checkpoint = match source {
        hauser_nli::ModelSource::Dir(dir) => Some(dir.clone()),
        hub => hub
            .cached("hparams.yaml")
            .and_then(|p| p.parent().map(Path::to_path_buf)),
    };
    push_files(&root, &format!("a file of {of}"), found);
    // One level only: an encoder is a plain transformer, not another checkpoint.
    let Some(encoder) = checkpoint
        .as_deref()
        .and_then(hauser_nli::comet_encoder_source)
    else {
        return;
    };
    match model_folder(&encoder) {
        Some(folder) if folder != root => push_files(
            &folder,
            &format!("a file of the encoder {encoder} that {of} names"),
            found,
        ),
        _ => {}
    }
}

/// The folder holding a model's files on this machine: a local directory, or a hub model's
/// folder in the hub cache; `None` for a local path that is not a directory.
fn model_folder(source: &hauser_nli::ModelSource) -> Option<PathBuf> {
    match source {
        hauser_nli::ModelSource::Dir(dir) => dir.is_dir().then(|| dir.clone()),
        hub => hub.cache_folder(),
    }
}

/// Every file under `root`, named `PATH (what)`.
fn push_files(root: &Path, what: &str, found: &mut Vec<(String, PathBuf)>) {
    let mut files = Vec::new();
    files_under(root, MAX_DEPTH, &mut files);
    found.extend(
        files
            .into_iter()
            .map(|f| (format!("{} ({what})", f.display()), f)),
    );
}

/// The files of a run once [`RunFiles::check`] has accepted them: what
/// [`crate::io::files::OutputFile::create`] requires.
#[derive(Debug)]
pub struct Checked {
    inputs: Vec<Input>,
    outputs: Vec<Output>,
    /// The identity of every input file, computed when first needed (only an output that
    /// exists, or standard output redirected to a file, needs them).
    ids: OnceLock<Vec<(String, FileId)>>,
}

impl Checked {
    fn ids(&self) -> &[(String, FileId)] {
        self.ids.get_or_init(|| {
            self.inputs
                .iter()
                .flat_map(input_files)
                .filter_map(|(shown, path)| id_of(&path).map(|id| (shown, id)))
                .collect()
        })
    }

    /// Whether `path` was declared as an output (a debugging aid: every output should be).
    pub(crate) fn declares(&self, path: &Path) -> bool {
        self.outputs.iter().any(|o| o.path == path)
    }

    /// Refuses an output that is the same file as one of the inputs (same path, symbolic or
    /// hard link, or standard input redirected from it). Only a regular file is compared:
    /// writing into a device or FIFO destroys nothing (`-o /dev/null` with an input
    /// `/dev/null` is fine).
    ///
    /// # Errors
    /// [`CliError::SameFile`] naming both.
    pub fn refuse_input(&self, output: &Path) -> Result<(), CliError> {
        let Ok(meta) = std::fs::metadata(output) else {
            // A file that does not exist yet cannot be any existing input.
            return Ok(());
        };
        if !meta.is_file() {
            return Ok(());
        }
        let Some(out_id) = file_id(output, &meta) else {
            return Ok(());
        };
        match self.ids().iter().find(|(_, id)| *id == out_id) {
            Some((shown, _)) => Err(CliError::SameFile {
                output: output.to_path_buf(),
                input: PathBuf::from(shown),
            }),
            None => Ok(()),
        }
    }

    /// Refuses a standard stream (1: output, 2: error) redirected to one of the inputs
    /// (`> FILE`, `>> FILE`, `2>> FILE`): the input would be read while it is written (an
    /// endless loop for a streamed input), or grow with the run's lines. `shown` names the
    /// stream in the refusal.
    fn refuse_std(&self, fd: u8, shown: &Path) -> Result<(), CliError> {
        let Some(out_id) = std_id(fd) else {
            return Ok(());
        };
        match self.ids().iter().find(|(_, id)| *id == out_id) {
            Some((input, _)) => Err(CliError::SameFile {
                output: shown.to_path_buf(),
                input: PathBuf::from(input),
            }),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_file_through_a_hard_link_or_a_model_directory_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.txt");
        std::fs::write(&input, b"x").unwrap();
        let link = dir.path().join("link.txt");
        std::fs::hard_link(&input, &link).unwrap();
        let files = RunFiles::new().input("--input", &input);
        let err = files.clone().output("-o", Some(&link)).check().unwrap_err();
        assert!(matches!(err, CliError::SameFile { .. }), "{err}");
        assert!(files
            .output("-o", Some(&dir.path().join("new.txt")))
            .check()
            .is_ok());
        let model = dir.path().join("model");
        std::fs::create_dir_all(model.join("sub")).unwrap();
        std::fs::write(model.join("sub/config.json"), b"{}").unwrap();
        let err = RunFiles::new()
            .model("--model", model.to_str())
            .output("-o", Some(&model.join("sub/config.json")))
            .check()
            .unwrap_err();
        assert!(err.to_string().contains("a file of --model"), "{err}");
    }

    #[test]
    fn stdin_is_refused_where_a_file_is_needed() {
        let err = RunFiles::new()
            .file_input("--vectors", Some(Path::new("-")), "it is read twice")
            .check()
            .unwrap_err();
        assert!(err.to_string().contains("--vectors"), "{err}");
        let err = RunFiles::new()
            .model("--model", Some("-"))
            .check()
            .unwrap_err();
        assert!(err.to_string().contains("--model"), "{err}");
    }

    #[test]
    fn output_locations_are_checked() {
        let dir = tempfile::tempdir().unwrap();
        let err = RunFiles::new()
            .output("-o", Some(&dir.path().join("no/such/out.txt")))
            .check()
            .unwrap_err();
        assert!(err.to_string().contains("does not exist"), "{err}");
        let err = RunFiles::new()
            .output("-o", Some(dir.path()))
            .check()
            .unwrap_err();
        assert!(err.to_string().contains("is a directory"), "{err}");
        let file = dir.path().join("f");
        std::fs::write(&file, b"").unwrap();
        let err = RunFiles::new()
            .plot_dir("--plot", Some(&file), &["a.svg"])
            .check()
            .unwrap_err();
        assert!(err.to_string().contains("not a directory"), "{err}");
        assert!(RunFiles::new()
            .plot_dir("--plot", Some(&dir.path().join("new/plots")), &["a.svg"])
            .check()
            .is_ok());
        // Nothing is left behind by the checks.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
