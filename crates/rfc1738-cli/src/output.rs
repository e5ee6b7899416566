//! Output files written as a plain write would, and never half.
//!
//! `fetch -o FILE` keeps two promises:
//!
//! - **What `echo x > FILE` does.** FILE is opened for writing by the
//!   kernel, before any connection: a file the user may not write is
//!   refused with the shell's words ("Permission denied"), and a symlink
//!   is followed by the kernel's rules (live or dangling alike; in a
//!   sticky directory, `fs.protected_symlinks` applies). The owner, the
//!   group and hard links stay; no set-id or set-gid file is ever made.
//! - **Nothing lost.** The resource goes to a temporary file first
//!   (`.FILE.XXXXXX.part`, mode 0600, in FILE's directory). Only a
//!   complete transfer takes FILE's place; on an error, or on SIGINT,
//!   SIGTERM or SIGHUP, the temporary file is removed and FILE keeps its
//!   bytes.
//!
//! How the complete file takes FILE's place:
//!
//! ```text
//! FILE absent                           rename the temporary file to FILE (atomic),
//!                                         with the mode of a plain write (0666 less
//!                                         the umask)
//! FILE a regular file, one link, whose  rename over FILE (atomic), with FILE's
//!   owner and group the new file can      owner, group and mode less the set-id bits
//!   have
//! anything else: a symlink, a second    rename the temporary file to FILE.XXXXXX.fetched,
//!   hard link, an owner that cannot       copy it into the file the kernel opened, then
//!   be given (not as root)                remove it: not atomic (a reader may see a
//!                                         part), but the whole stays on disk until FILE
//!                                         has it; a failed copy or a signal names it
//! ```
//!
//! "FILE's directory" is compared by device and inode, so `file`,
//! `./file` and `/abs/dir/file` are all renamed over.
//!
//! A temporary file is locked (`flock`) while its run lives. A run that
//! was killed (SIGKILL) leaves it behind; the next run into that directory
//! removes the ones that are regular files, unlocked, an hour old and its
//! user's own, and names the others. It never opens anything else under
//! such a name (a FIFO, a device, a symlink), and never removes a kept
//! `.fetched` file.

use std::fs;
use std::io::{self, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

/// A file being written, not yet in place.
pub struct Pending {
    temp: tempfile::NamedTempFile,
    /// The temporary path, named to the signal thread while it lives.
    _watched: Watched,
    /// FILE as the user named it.
    path: PathBuf,
    /// FILE opened for writing by the kernel, when it existed or was a
    /// symlink; `None` when FILE did not exist.
    target: Option<Target>,
    no_clobber: bool,
}

/// FILE, opened for writing before the transfer.
struct Target {
    file: fs::File,
    /// FILE was a symlink (the link stays; its target is written).
    symlink: bool,
    /// The file did not exist and this run created it (through a dangling
    /// symlink): removed again when the transfer fails.
    created: bool,
}

/// Why an output file cannot be written.
#[derive(Debug)]
pub enum OutputError {
    /// FILE exists and is a device, a FIFO, a directory or a socket.
    NotRegular(PathBuf),
    /// FILE exists and `--no-clobber` keeps it.
    Exists(PathBuf),
    /// Opening, creating, writing or renaming failed.
    Io(PathBuf, io::Error),
    /// The transfer was complete, but copying it into FILE failed: FILE
    /// may hold a part, and the whole is kept at the second path.
    Kept(PathBuf, io::Error, PathBuf),
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
            OutputError::Io(p, e) => write!(f, "{}: {}", p.display(), shell_words(e)),
            OutputError::Kept(p, e, kept) => write!(
                f,
                "{}: {} while copying the complete transfer into it; the whole is kept in {}",
                p.display(),
                shell_words(e),
                kept.display()
            ),
        }
    }
}

/// An error as the shell says it: "Permission denied", without Rust's
/// " (os error 13)" and what a library may add after it (the temporary
/// file's path).
pub fn shell_words(e: &io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error ") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

impl Pending {
    /// Opens FILE for writing as the shell would (without truncating it)
    /// and makes the temporary file the transfer goes to. Refuses a FILE
    /// that is not a regular file, one the user may not write, and with
    /// `no_clobber` one that exists at all.
    ///
    /// # Errors
    /// [`OutputError`] as above, or the error of creating the file.
    pub fn create(path: &Path, no_clobber: bool) -> Result<Pending, OutputError> {
        let target = match fs::symlink_metadata(path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(OutputError::Io(path.to_path_buf(), e)),
            Ok(_) if no_clobber => return Err(OutputError::Exists(path.to_path_buf())),
            Ok(m) => Some(open_target(path, m.file_type().is_symlink())?),
        };
        Pending::beside(path, target, no_clobber)
    }

    /// A file that replaces `path` as `install` does: a new file renamed
    /// over the name, whatever was there (a hard link to the old file
    /// keeps the old bytes). For files the command generates (`man
    /// --dir`), not for the user's own.
    ///
    /// # Errors
    /// [`OutputError::NotRegular`] for a directory or a device, or the
    /// error of creating the file.
    pub fn replacing(path: &Path) -> Result<Pending, OutputError> {
        match fs::metadata(path) {
            Ok(m) if !m.is_file() => Err(OutputError::NotRegular(path.to_path_buf())),
            _ => Pending::beside(path, None, false),
        }
    }

    /// The temporary file beside `path`, once `target` is open.
    fn beside(path: &Path, target: Option<Target>, no_clobber: bool) -> Result<Pending, OutputError> {
        let io_err = |e| OutputError::Io(path.to_path_buf(), e);
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        remove_stale(&dir);
        let temp = match new_temp(&dir, path) {
            Ok(temp) => temp,
            // A file the user may write in a directory they may not: the
            // transfer waits elsewhere, then is copied in.
            Err(e) if e.kind() == io::ErrorKind::PermissionDenied && target.is_some() => {
                new_temp(&std::env::temp_dir(), path).map_err(io_err)?
            }
            // `target` is dropped: a file it created is removed.
            Err(e) => return Err(io_err(e)),
        };
        let _watched = remove_on_signal(temp.path());
        Ok(Pending { temp, _watched, path: path.to_path_buf(), target, no_clobber })
    }

    /// The file to write to.
    pub fn file(&mut self) -> &mut fs::File {
        self.temp.as_file_mut()
    }

    /// Puts the complete file in place (see the module's table).
    ///
    /// # Errors
    /// A failed sync, rename or copy. After a failed copy the complete
    /// file is kept and named ([`OutputError::Kept`]); otherwise the
    /// temporary file is removed.
    pub fn commit(self) -> Result<(), OutputError> {
        let Pending { temp, _watched, path, mut target, no_clobber } = self;
        let fail = |e| OutputError::Io(path.clone(), e);
        temp.as_file().sync_all().map_err(fail)?;
        let forget_temp = || forget(&_watched.0);
        match &mut target {
            Some(target) => {
                // From here on FILE holds the transfer, or is replaced by it.
                target.created = false;
                if !renamable(&path, target, temp.path(), temp.as_file()).map_err(fail)? {
                    return copy_kept(temp, &target.file, &path);
                }
            }
            // A new file gets the mode a plain write would give it.
            None => set_plain_mode(temp.as_file()).map_err(fail)?,
        }
        let placed = if no_clobber { temp.persist_noclobber(&path) } else { temp.persist(&path) };
        // The temporary path is gone (renamed, or removed by the drop of
        // the error's file): nothing is left for the signal thread.
        forget_temp();
        match placed {
            Ok(_) => Ok(()),
            Err(e) if no_clobber && e.error.kind() == io::ErrorKind::AlreadyExists => {
                Err(OutputError::Exists(path.clone()))
            }
            Err(e) => Err(fail(e.error)),
        }
    }
}

impl Drop for Target {
    fn drop(&mut self) {
        // `created` is cleared once the transfer is in place.
        if self.created {
            drop_created(self);
        }
    }
}

/// FILE opened for writing by the kernel's rules: the shell's `>` less the
/// truncation, never blocking on a FIFO, never a controlling terminal.
fn open_target(path: &Path, symlink: bool) -> Result<Target, OutputError> {
    let mut options = fs::File::options();
    options.write(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let flags = rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOCTTY;
        options.custom_flags(flags.bits() as i32);
    }
    let mut created = false;
    let opened = match options.open(path) {
        // A dangling symlink: the kernel creates the file it names, as `>` does.
        Err(e) if symlink && e.kind() == io::ErrorKind::NotFound => {
            created = true;
            options.create(true).open(path)
        }
        other => other,
    };
    let file = match opened {
        Ok(file) => file,
        Err(e) if is_not_regular(&e) => return Err(OutputError::NotRegular(path.to_path_buf())),
        Err(e) => return Err(OutputError::Io(path.to_path_buf(), e)),
    };
    let target = Target { file, symlink, created };
    match target.file.metadata() {
        Ok(m) if m.is_file() => Ok(target),
        Ok(_) => Err(OutputError::NotRegular(path.to_path_buf())),
        Err(e) => Err(OutputError::Io(path.to_path_buf(), e)),
    }
}

/// A directory (EISDIR) or a FIFO without a reader (ENXIO).
fn is_not_regular(e: &io::Error) -> bool {
    #[cfg(unix)]
    {
        let code = e.raw_os_error();
        code == Some(rustix::io::Errno::ISDIR.raw_os_error())
            || code == Some(rustix::io::Errno::NXIO.raw_os_error())
    }
    #[cfg(not(unix))]
    {
        e.kind() == io::ErrorKind::IsADirectory
    }
}

/// Whether the temporary file may simply be renamed over FILE: FILE is
/// still the one opened, not a symlink, has one link, and the temporary
/// file can take its owner and group (its own already, or by `fchown` as
/// root). Gives it FILE's mode less the set-id and sticky bits.
#[cfg(unix)]
fn renamable(path: &Path, target: &Target, temp_path: &Path, temp: &fs::File) -> io::Result<bool> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let old = target.file.metadata()?;
    let now = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(_) => return Ok(false),
    };
    let same_file = now.file_type().is_file() && (now.dev(), now.ino()) == (old.dev(), old.ino());
    if target.symlink || !same_file || old.nlink() != 1 || !same_dir(temp_path, path) {
        return Ok(false);
    }
    let mine = temp.metadata()?;
    if (mine.uid(), mine.gid()) != (old.uid(), old.gid())
        && std::os::unix::fs::fchown(temp, Some(old.uid()), Some(old.gid())).is_err()
    {
        return Ok(false);
    }
    // chown may clear bits; the mode is set after it.
    temp.set_permissions(fs::Permissions::from_mode(old.mode() & 0o777))?;
    Ok(true)
}

/// Whether the temporary file lies in FILE's own directory, so that a
/// rename can put it in FILE's place. The directories are compared by
/// device and inode: `file`, `./file` and `/abs/dir/file` name one place
/// in as many texts.
#[cfg(unix)]
fn same_dir(temp_path: &Path, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let dir_of =
        |p: &Path| p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf();
    match (fs::metadata(dir_of(temp_path)), fs::metadata(dir_of(path))) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    }
}

#[cfg(not(unix))]
fn renamable(_: &Path, target: &Target, _: &Path, _: &fs::File) -> io::Result<bool> {
    Ok(!target.symlink)
}

/// Copies the complete transfer into FILE, which cannot be replaced by a
/// rename (a symlink, a second link, another owner). Before the copy
/// starts, the transfer leaves the list a signal removes and takes a
/// name the sweep never removes (`FILE.XXXXXX.fetched`): until FILE
/// holds all of it, the whole exists somewhere, a signal included. It is
/// removed once the copy is done, and named when the copy fails.
fn copy_kept(temp: tempfile::NamedTempFile, target: &fs::File, path: &Path) -> Result<(), OutputError> {
    let part = temp.path().to_path_buf();
    let kept_path = kept_name(&part);
    let (file, kept_path) = match temp.persist_noclobber(&kept_path) {
        Ok(file) => (file, kept_path),
        // The name is taken: the transfer stays where it is, out of the
        // signal's list all the same.
        Err(e) => e.file.keep().map_err(|e| OutputError::Io(path.to_path_buf(), e.error))?,
    };
    let _kept = Kept::name(&kept_path, path);
    forget(&part);
    match copy_into(&file, target) {
        Ok(()) => {
            let _ = fs::remove_file(&kept_path);
            Ok(())
        }
        Err(e) => Err(OutputError::Kept(path.to_path_buf(), e, kept_path)),
    }
}

/// `DIR/.NAME.XXXXXX.part` becomes `DIR/NAME.XXXXXX.fetched`: shown, not
/// hidden, and not a name [`is_part_name`] takes.
fn kept_name(part: &Path) -> PathBuf {
    let name = part.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let middle = name.strip_prefix('.').and_then(|n| n.strip_suffix(".part")).unwrap_or(&name);
    part.with_file_name(format!("{middle}.fetched"))
}

/// Gives a new file the mode `open(2)` would: 0666 less the umask (the
/// temporary file was made 0600, so no one else read the transfer).
fn set_plain_mode(file: &fs::File) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(fs::Permissions::from_mode(0o666 & !umask()))?;
    }
    #[cfg(not(unix))]
    let _ = file;
    Ok(())
}

/// This process's umask: read from the kernel's status file, or else set
/// and set back.
#[cfg(unix)]
fn umask() -> u32 {
    let from_status = fs::read_to_string("/proc/self/status").ok().and_then(|status| {
        let value = status.lines().find_map(|l| l.strip_prefix("Umask:"))?;
        u32::from_str_radix(value.trim(), 8).ok()
    });
    from_status.unwrap_or_else(|| {
        let old = rustix::process::umask(rustix::fs::Mode::from_raw_mode(0o077));
        rustix::process::umask(old);
        old.as_raw_mode()
    })
}

/// Copies the complete transfer into FILE (truncated first), flushed to
/// disk; a set-id bit FILE had is cleared, as no set-id file is made.
fn copy_into(temp: &fs::File, target: &fs::File) -> io::Result<()> {
    let mut from = temp;
    from.seek(io::SeekFrom::Start(0))?;
    let mut to = target;
    to.set_len(0)?;
    to.seek(io::SeekFrom::Start(0))?;
    io::copy(&mut from, &mut to)?;
    to.flush()?;
    to.sync_all()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = target.metadata()?.permissions().mode();
        if mode & 0o7000 != 0 {
            target.set_permissions(fs::Permissions::from_mode(mode & 0o777))?;
        }
    }
    Ok(())
}

/// Removes the empty file this run created through a dangling symlink,
/// found by the kernel's own name for it, and only while it is that file.
fn drop_created(target: &Target) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::MetadataExt;
        let file = &target.file;
        use std::os::unix::io::AsRawFd;
        let Ok(name) = fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd())) else { return };
        let (Ok(opened), Ok(named)) = (file.metadata(), fs::symlink_metadata(&name)) else { return };
        if (opened.dev(), opened.ino()) == (named.dev(), named.ino()) && named.len() == 0 {
            let _ = fs::remove_file(&name);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = target;
}

/// A new file in `dir`, named after FILE so that a user who sees it knows
/// what it is, and locked for as long as this run lives. Its mode is
/// 0600: no other user reads the transfer before it is in place.
fn new_temp(dir: &Path, path: &Path) -> io::Result<tempfile::NamedTempFile> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut builder = tempfile::Builder::new();
    let prefix = format!(".{name}.");
    builder.prefix(&prefix).suffix(".part");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o600));
    }
    let temp = builder.tempfile_in(dir)?;
    #[cfg(unix)]
    rustix::fs::flock(temp.as_file(), rustix::fs::FlockOperation::NonBlockingLockExclusive)?;
    Ok(temp)
}

/// How old an unlocked temporary file must be before it counts as stale:
/// a run takes the lock right after it makes the file.
const STALE_AFTER: Duration = Duration::from_secs(3600);

/// Removes the temporary files of dead runs in `dir` (named
/// `.NAME.XXXXXX.part`, unlocked, an hour old, the user's own), and names
/// on stderr those it may not remove.
fn remove_stale(dir: &Path) {
    #[cfg(unix)]
    {
        let Ok(entries) = fs::read_dir(dir) else { return };
        for entry in entries.flatten() {
            let name = entry.file_name();
            if is_part_name(&name.to_string_lossy()) {
                remove_if_stale(&entry.path());
            }
        }
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// `.NAME.XXXXXX.part`, the names `new_temp` makes.
fn is_part_name(name: &str) -> bool {
    let Some(middle) = name.strip_prefix('.').and_then(|n| n.strip_suffix(".part")) else { return false };
    let Some((file, random)) = middle.rsplit_once('.') else { return false };
    !file.is_empty() && random.len() == 6 && random.bytes().all(|b| b.is_ascii_alphanumeric())
}

#[cfg(unix)]
fn remove_if_stale(path: &Path) {
    use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
    // Only a regular file, looked at before it is opened, and opened so
    // that nothing blocks: a FIFO or device planted under such a name is
    // never opened, and a symlink never followed.
    let Ok(named) = fs::symlink_metadata(path) else { return };
    if !named.file_type().is_file() {
        return;
    }
    let flags = rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NOCTTY;
    let Ok(file) = fs::File::options().read(true).custom_flags(flags.bits() as i32).open(path) else {
        return;
    };
    let Ok(meta) = file.metadata() else { return };
    let age = meta.modified().ok().and_then(|t| t.elapsed().ok()).unwrap_or_default();
    if !meta.is_file() || (meta.dev(), meta.ino()) != (named.dev(), named.ino()) || age < STALE_AFTER {
        return;
    }
    // Locked: its run is alive.
    if rustix::fs::flock(&file, rustix::fs::FlockOperation::NonBlockingLockExclusive).is_err() {
        return;
    }
    let shown = rfc1738_access::show(path.as_os_str().as_encoded_bytes());
    if owner_is_me(meta.uid()) && fs::remove_file(path).is_ok() {
        eprintln!("rfc1738: removed {shown}, left by a fetch that was killed");
    } else {
        eprintln!(
            "rfc1738: note: {shown} was left by a fetch that was killed; it is not this user's to remove"
        );
    }
}

/// Whether `uid` is this process's effective user (or this user is root).
#[cfg(unix)]
fn owner_is_me(uid: u32) -> bool {
    let me = rustix::process::geteuid();
    me.is_root() || me.as_raw() == uid
}

/// The temporary files of this process not yet in place: what a signal
/// removes.
static UNFINISHED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// A temporary path named as unfinished; forgotten when dropped.
struct Watched(PathBuf);

impl Drop for Watched {
    fn drop(&mut self) {
        forget(&self.0);
    }
}

/// Names `path` as unfinished, and on the first call starts the thread
/// that, on SIGINT, SIGTERM or SIGHUP, removes every unfinished file and
/// exits with 128 plus the signal's number, as a shell does.
fn remove_on_signal(path: &Path) -> Watched {
    unfinished().push(path.to_path_buf());
    #[cfg(unix)]
    {
        static WATCH: std::sync::Once = std::sync::Once::new();
        WATCH.call_once(|| {
            use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
            let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
                return;
            };
            std::thread::spawn(move || {
                if let Some(signal) = signals.forever().next() {
                    for path in unfinished().drain(..) {
                        let _ = fs::remove_file(path);
                    }
                    for (whole, file) in kept().iter() {
                        eprintln!(
                            "rfc1738: stopped while copying into {}; the complete transfer is kept in {}",
                            rfc1738_access::show(file.as_os_str().as_encoded_bytes()),
                            rfc1738_access::show(whole.as_os_str().as_encoded_bytes()),
                        );
                    }
                    let _ = io::stderr().flush();
                    std::process::exit(128 + signal);
                }
            });
        });
    }
    Watched(path.to_path_buf())
}

/// Complete transfers being copied into FILE, with FILE: what a signal
/// names and leaves.
static KEPT: Mutex<Vec<(PathBuf, PathBuf)>> = Mutex::new(Vec::new());

fn kept() -> std::sync::MutexGuard<'static, Vec<(PathBuf, PathBuf)>> {
    KEPT.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A complete transfer named as kept while it is copied into FILE.
struct Kept(PathBuf);

impl Kept {
    fn name(whole: &Path, file: &Path) -> Kept {
        kept().push((whole.to_path_buf(), file.to_path_buf()));
        Kept(whole.to_path_buf())
    }
}

impl Drop for Kept {
    fn drop(&mut self) {
        kept().retain(|(p, _)| p != &self.0);
    }
}

/// `path` is in place or gone: a signal has nothing to remove for it.
fn forget(path: &Path) {
    unfinished().retain(|p| p != path);
}

fn unfinished() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    UNFINISHED.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn part_names_are_those_new_temp_makes() {
        assert!(is_part_name(".file.Ab3dE9.part"));
        assert!(is_part_name(".a.b.c.XXXXXX.part"));
        for name in [
            "file.part",
            ".file.part",
            "..Ab3dE9.part",
            ".file.Ab3d.part",
            ".file.Ab-dE9.part",
            ".f.Ab3dE9.partx",
        ] {
            assert!(!is_part_name(name), "{name}");
        }
    }

    #[test]
    fn a_kept_transfer_has_a_name_the_sweep_never_takes() {
        let kept = kept_name(Path::new("/d/.file.Ab3dE9.part"));
        assert_eq!(kept, Path::new("/d/file.Ab3dE9.fetched"));
        assert!(!is_part_name(&kept.file_name().unwrap().to_string_lossy()));
    }

    /// From the moment the copy into FILE starts, a signal removes
    /// nothing: the transfer is out of the list and named as kept.
    #[cfg(unix)]
    #[test]
    fn a_signal_during_the_copy_removes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("file");
        fs::write(&path, b"old").unwrap();
        let target = fs::File::options().write(true).open(&path).unwrap();
        let mut temp = new_temp(dir.path(), &path).unwrap();
        let part = temp.path().to_path_buf();
        let _watched = remove_on_signal(&part);
        temp.write_all(b"new").unwrap();
        // A target that refuses the copy: a file opened read-only.
        let read_only = fs::File::open(&path).unwrap();
        let err = copy_kept(temp, &read_only, &path).unwrap_err();
        let OutputError::Kept(_, _, whole) = err else { panic!("{err}") };
        assert!(!unfinished().contains(&part) && !unfinished().contains(&whole));
        assert!(kept().iter().all(|(p, _)| p != &whole), "named only while the copy runs");
        assert_eq!(fs::read(&whole).unwrap(), b"new");
        drop(target);
    }

    #[test]
    fn errors_read_as_the_shell_says_them() {
        let e = io::Error::from(io::ErrorKind::PermissionDenied);
        assert!(!shell_words(&e).contains("os error"));
        #[cfg(unix)]
        assert_eq!(shell_words(&io::Error::from_raw_os_error(13)), "Permission denied");
    }
}
