//! [`OutputFile`]: how every output of the CLI is written.
//!
//! - a regular file (or a path where nothing exists yet) is written to a temporary file in its
//!   directory and renamed over it only when the command succeeds, so an interrupted, crashed or
//!   failed run never leaves a truncated file where the output belongs; a symbolic link is
//!   written through (its target is replaced, the link stays a link);
//! - anything else that can be opened for writing (a character or block device such as
//!   `/dev/null`, a FIFO, a terminal) is written directly: it is never replaced;
//! - `-`, `/dev/stdout` and `/dev/fd/1` are standard output, streamed as results come (an
//!   interrupted run leaves what was written so far, as any stream does); `/dev/stderr` and
//!   `/dev/fd/2` are standard error.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::error::CliError;
use crate::io::run_files::{is_stdin, parent_dir, standard_stream, Checked, Target};

enum Sink {
    Stdout(BufWriter<std::io::StdoutLock<'static>>),
    Stderr(BufWriter<std::io::Stderr>),
    /// A device, FIFO or terminal, opened for writing as it is.
    Direct(BufWriter<File>),
    Temp {
        target: PathBuf,
        temp: BufWriter<tempfile::NamedTempFile>,
    },
}

/// An output of a subcommand (see the module's documentation). Dropped without a commit (an
/// error, a panic), a temporary file is removed and the target is untouched.
pub struct OutputFile {
    shown: PathBuf,
    sink: Sink,
    /// Keeps the temporary file on the list a signal handler removes, while it exists.
    _temp: Option<TempGuard>,
}

/// A temporary file's place on [`crate::io::interrupt`]'s list of files to remove when a signal
/// ends the process; dropped (committed or abandoned), it leaves the list.
struct TempGuard(PathBuf);

impl TempGuard {
    fn new(path: &Path) -> Self {
        crate::io::interrupt::register_temp(path);
        Self(path.to_path_buf())
    }
}

impl Drop for TempGuard {
    fn drop(&mut self) {
        crate::io::interrupt::forget_temp(&self.0);
    }
}

impl std::fmt::Debug for OutputFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OutputFile")
            .field("path", &self.shown)
            .finish_non_exhaustive()
    }
}

impl OutputFile {
    /// Opens the output `path` of a run whose files `files` has checked: `None` or `-` is
    /// standard output; a file is checked again against the run's inputs (it may have appeared
    /// since), then opened as the module's documentation says.
    ///
    /// # Errors
    /// [`CliError::SameFile`]; [`CliError::Output`] for a directory or socket at `path`;
    /// [`CliError::Io`] naming the output when it cannot be opened or its directory is
    /// missing or not writable.
    pub fn create(path: Option<&Path>, files: &Checked) -> Result<Self, CliError> {
        let Some(path) = path.filter(|p| !is_stdin(p)) else {
            return Ok(Self::stdout(PathBuf::from("-")));
        };
        debug_assert!(
            files.declares(path),
            "output {} not declared in the run's RunFiles",
            path.display()
        );
        let shown = path.to_path_buf();
        match standard_stream(path) {
            Some(1) => return Ok(Self::stdout(shown)),
            Some(_) => {
                return Ok(Self {
                    shown,
                    sink: Sink::Stderr(BufWriter::new(std::io::stderr())),
                    _temp: None,
                })
            }
            None => {}
        }
        files.refuse_input(path)?;
        let mut guard = None;
        let sink = match Target::of(path).map_err(|e| CliError::io(path, e))? {
            Target::Dir => {
                return Err(CliError::output("output", path, "is a directory"));
            }
            Target::Socket => {
                return Err(CliError::output("output", path, "is a socket"));
            }
            Target::Special => {
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .open(path)
                    .map_err(|e| CliError::io(path, e))?;
                Sink::Direct(BufWriter::with_capacity(1 << 16, file))
            }
            Target::Missing(target) | Target::Regular(target) => {
                let temp = temp_beside(&target).map_err(|e| CliError::io(path, e))?;
                guard = Some(TempGuard::new(temp.path()));
                Sink::Temp {
                    target,
                    temp: BufWriter::with_capacity(1 << 16, temp),
                }
            }
        };
        Ok(Self {
            shown,
            sink,
            _temp: guard,
        })
    }

    fn stdout(shown: PathBuf) -> Self {
        Self {
            shown,
            sink: Sink::Stdout(BufWriter::new(std::io::stdout().lock())),
            _temp: None,
        }
    }

    /// The output as given on the command line (`-` for standard output), for messages.
    pub fn path(&self) -> &Path {
        &self.shown
    }

    /// The temporary file being written, for writers that need a seekable file (`None` for a
    /// stream or device). Buffered bytes are flushed first.
    ///
    /// # Errors
    /// [`CliError::Io`] when flushing fails.
    pub fn temp_file(&mut self) -> Result<Option<&mut File>, CliError> {
        match &mut self.sink {
            Sink::Temp { temp, .. } => {
                temp.flush().map_err(|e| CliError::io(&self.shown, e))?;
                Ok(Some(temp.get_mut().as_file_mut()))
            }
            _ => Ok(None),
        }
    }

    /// Finishes the output: flushes a stream or device, or flushes and syncs the temporary
    /// file and renames it over the target.
    ///
    /// # Errors
    /// [`CliError::Io`] naming the output.
    pub fn commit(self) -> Result<(), CliError> {
        let shown = self.shown;
        let err = |e| CliError::io(&shown, e);
        match self.sink {
            Sink::Stdout(mut out) => out.flush().map_err(err),
            Sink::Stderr(mut out) => out.flush().map_err(err),
            Sink::Direct(mut out) => out.flush().map_err(err),
            Sink::Temp { target, temp } => {
                let temp = temp.into_inner().map_err(|e| err(e.into_error()))?;
                // Sync before the rename: otherwise a crash right after it can leave an empty
                // file under the new name on some filesystems.
                temp.as_file().sync_all().map_err(err)?;
                keep_permissions(&target, temp.as_file());
                temp.persist(&target).map_err(|e| err(e.error))?;
                Ok(())
            }
        }
    }
}

impl Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match &mut self.sink {
            Sink::Stdout(w) => w.write(buf),
            Sink::Stderr(w) => w.write(buf),
            Sink::Direct(w) => w.write(buf),
            Sink::Temp { temp, .. } => temp.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        match &mut self.sink {
            Sink::Stdout(w) => w.write_all(buf),
            Sink::Stderr(w) => w.write_all(buf),
            Sink::Direct(w) => w.write_all(buf),
            Sink::Temp { temp, .. } => temp.write_all(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.sink {
            Sink::Stdout(w) => w.flush(),
            Sink::Stderr(w) => w.flush(),
            Sink::Direct(w) => w.flush(),
            Sink::Temp { temp, .. } => temp.flush(),
        }
    }
}

/// A temporary file in the target's directory (so the final rename stays on one filesystem),
/// hidden and named after the target so that a leftover is recognisable.
fn temp_beside(target: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let dir = parent_dir(target);
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    remove_stale_temps(dir, &name);
    // The process id in the name lets a later run tell a leftover of a killed run from the
    // file of a run still going.
    let prefix = format!(".{name}.{}.", std::process::id());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    // The mode a plain File::create would give (0666 less the umask), instead of
    // tempfile's private 0600.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    builder.tempfile_in(dir)
}

/// Removes the temporary files that killed runs (`kill -9`, power loss) left beside `name`:
/// those whose process no longer exists. Best effort, and only where `/proc` tells which
/// processes exist; a process id reused by another live process only delays the cleanup.
fn remove_stale_temps(dir: &Path, name: &str) {
    let proc_root = Path::new("/proc");
    if !proc_root.join("self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let prefix = format!(".{name}.");
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(rest) = file_name
            .to_str()
            .and_then(|n| n.strip_prefix(&prefix))
            .and_then(|n| n.strip_suffix(".tmp"))
        else {
            continue;
        };
        let Some(pid) = rest.split('.').next().filter(|p| p.parse::<u32>().is_ok()) else {
            continue;
        };
        if !proc_root.join(pid).exists() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// A replaced file keeps its permissions, as it would when rewritten in place.
fn keep_permissions(target: &Path, temp: &File) {
    if let Ok(meta) = std::fs::metadata(target) {
        // Best effort: failing to copy the mode must not lose the output.
        let _ = temp.set_permissions(meta.permissions());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::run_files::RunFiles;

    fn checked(target: &Path) -> Checked {
        RunFiles::new().output("-o", Some(target)).check().unwrap()
    }

    #[test]
    fn uncommitted_output_leaves_the_target_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.jsonl");
        std::fs::write(&target, b"old").unwrap();
        {
            let mut out = OutputFile::create(Some(&target), &checked(&target)).unwrap();
            out.write_all(b"new").unwrap();
        }
        assert_eq!(std::fs::read(&target).unwrap(), b"old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        let mut out = OutputFile::create(Some(&target), &checked(&target)).unwrap();
        out.write_all(b"new").unwrap();
        out.commit().unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn leftovers_of_dead_processes_are_removed() {
        if !Path::new("/proc/self").exists() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.jsonl");
        // u32::MAX is above any Linux pid_max, so no process has it.
        let dead = dir
            .path()
            .join(format!(".out.jsonl.{}.abc123.tmp", u32::MAX));
        let alive = dir
            .path()
            .join(format!(".out.jsonl.{}.abc123.tmp", std::process::id()));
        let other = dir.path().join(".other.jsonl.1.abc123.tmp");
        for p in [&dead, &alive, &other] {
            std::fs::write(p, b"partial").unwrap();
        }
        OutputFile::create(Some(&target), &checked(&target))
            .unwrap()
            .commit()
            .unwrap();
        assert!(!dead.exists());
        assert!(alive.exists() && other.exists());
        assert!(target.exists());
    }

    #[test]
    fn paths_of_the_standard_streams_are_the_streams() {
        for (path, fd) in [
            ("/dev/stdout", Some(1)),
            ("/dev/fd/1", Some(1)),
            ("/proc/self/fd/1", Some(1)),
            ("/dev/stderr", Some(2)),
            ("/dev/fd/2", Some(2)),
            ("/dev/stdin", None),
            ("out.jsonl", None),
        ] {
            assert_eq!(standard_stream(Path::new(path)), fd, "{path}");
        }
        // Through links (issue 37): a link to /proc/self/fd/1, and a relative link to that.
        #[cfg(unix)]
        {
            let dir = tempfile::tempdir().unwrap();
            let link = dir.path().join("out");
            std::os::unix::fs::symlink("/proc/self/fd/1", &link).unwrap();
            let again = dir.path().join("again");
            std::os::unix::fs::symlink("out", &again).unwrap();
            let err = dir.path().join("err");
            std::os::unix::fs::symlink("/dev/stderr", &err).unwrap();
            assert_eq!(standard_stream(&link), Some(1));
            assert_eq!(standard_stream(&again), Some(1));
            assert_eq!(standard_stream(&err), Some(2));
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_device_is_written_directly_and_a_dangling_link_kept() {
        use std::os::unix::fs::FileTypeExt;
        let devnull = Path::new("/dev/null");
        if devnull.exists() {
            let mut out = OutputFile::create(Some(devnull), &checked(devnull)).unwrap();
            out.write_all(b"x").unwrap();
            assert!(out.temp_file().unwrap().is_none());
            out.commit().unwrap();
            assert!(std::fs::metadata(devnull)
                .unwrap()
                .file_type()
                .is_char_device());
        }
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink("target", &link).unwrap();
        let mut out = OutputFile::create(Some(&link), &checked(&link)).unwrap();
        out.write_all(b"new").unwrap();
        out.commit().unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(dir.path().join("target")).unwrap(), b"new");
    }
}
