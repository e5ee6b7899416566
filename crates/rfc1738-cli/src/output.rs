//! Output files that replace the user's file only when complete.
//!
//! `fetch -o FILE` writes to a new temporary file in FILE's directory and
//! renames it over FILE after the transfer is verified. On an error, or on
//! SIGINT, SIGTERM or SIGHUP, the temporary file is removed and FILE keeps
//! every byte it had. A rename within one directory is atomic: a reader of
//! FILE sees the old bytes or the new ones, never a mix.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A file being written, not yet in place.
pub struct Pending {
    temp: tempfile::NamedTempFile,
    /// Where it goes: FILE, or the file a symlink FILE points to.
    dest: PathBuf,
    no_clobber: bool,
    /// The temporary path, shared with the signal thread.
    cleanup: Arc<Mutex<Option<PathBuf>>>,
}

/// Why an output file cannot be written.
#[derive(Debug)]
pub enum OutputError {
    /// FILE exists and is a device, a FIFO, a directory or a socket.
    NotRegular(PathBuf),
    /// FILE exists and `--no-clobber` keeps it.
    Exists(PathBuf),
    /// Creating, writing or renaming failed.
    Io(PathBuf, io::Error),
}

impl std::fmt::Display for OutputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OutputError::NotRegular(p) => write!(
                f,
                "{}: not a regular file (a device, FIFO or directory); nothing was fetched (use -o - for stdout)",
                p.display()
            ),
            OutputError::Exists(p) => write!(f, "{}: exists, and --no-clobber keeps it; nothing was fetched", p.display()),
            OutputError::Io(p, e) => write!(f, "{}: {e}", p.display()),
        }
    }
}

impl Pending {
    /// A temporary file beside `path` (beside the file it links to, for a
    /// symlink). Refuses a `path` that exists and is not a regular file,
    /// or that exists at all with `no_clobber`.
    ///
    /// # Errors
    /// [`OutputError`] as above, or the error of creating the file.
    pub fn create(path: &Path, no_clobber: bool) -> Result<Pending, OutputError> {
        let dest = match fs::metadata(path) {
            Ok(m) if !m.is_file() => return Err(OutputError::NotRegular(path.to_path_buf())),
            Ok(_) if no_clobber => return Err(OutputError::Exists(path.to_path_buf())),
            // The file a symlink names is the one replaced; the link stays.
            Ok(_) => fs::canonicalize(path).map_err(|e| OutputError::Io(path.to_path_buf(), e))?,
            Err(e) if e.kind() == io::ErrorKind::NotFound => path.to_path_buf(),
            Err(e) => return Err(OutputError::Io(path.to_path_buf(), e)),
        };
        let dir = match dest.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let temp = new_temp(&dir, &dest).map_err(|e| OutputError::Io(dest.clone(), e))?;
        let cleanup = Arc::new(Mutex::new(Some(temp.path().to_path_buf())));
        remove_on_signal(Arc::clone(&cleanup));
        Ok(Pending { temp, dest, no_clobber, cleanup })
    }

    /// The file to write to.
    pub fn file(&mut self) -> &mut fs::File {
        self.temp.as_file_mut()
    }

    /// Puts the complete file in place: flushed to disk, then renamed over
    /// the destination (hard-linked, with `--no-clobber`, so that a file
    /// that appeared meanwhile is kept).
    ///
    /// # Errors
    /// A failed sync or rename; the temporary file is then removed.
    pub fn commit(self) -> Result<(), OutputError> {
        let Pending { temp, dest, no_clobber, cleanup } = self;
        let fail = |e| OutputError::Io(dest.clone(), e);
        temp.as_file().sync_all().map_err(fail)?;
        let placed = if no_clobber { temp.persist_noclobber(&dest) } else { temp.persist(&dest) };
        // The temporary path is gone (renamed, or removed by the drop of
        // the error's file): nothing is left for the signal thread.
        *cleanup.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = None;
        match placed {
            Ok(_) => Ok(()),
            Err(e) if no_clobber && e.error.kind() == io::ErrorKind::AlreadyExists => {
                Err(OutputError::Exists(dest.clone()))
            }
            Err(e) => Err(fail(e.error)),
        }
    }
}

/// A new file in `dir`, named after `dest` so that a user who sees it knows
/// what it is; its mode is the default one (0666 less the umask), or the
/// old file's when there is one.
fn new_temp(dir: &Path, dest: &Path) -> io::Result<tempfile::NamedTempFile> {
    let name = dest.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut builder = tempfile::Builder::new();
    let prefix = format!(".{name}.");
    builder.prefix(&prefix).suffix(".part");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    let temp = builder.tempfile_in(dir)?;
    if let Ok(old) = fs::metadata(dest) {
        temp.as_file().set_permissions(old.permissions())?;
    }
    Ok(temp)
}

/// On SIGINT, SIGTERM or SIGHUP, removes the temporary file still named in
/// `cleanup` and exits with 128 plus the signal's number, as a shell does.
fn remove_on_signal(cleanup: Arc<Mutex<Option<PathBuf>>>) {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        std::thread::spawn(move || {
            if let Some(signal) = signals.forever().next() {
                let path = cleanup.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
                if let Some(path) = path {
                    let _ = fs::remove_file(path);
                }
                let _ = io::stderr().flush();
                std::process::exit(128 + signal);
            }
        });
    }
    #[cfg(not(unix))]
    let _ = cleanup;
}
