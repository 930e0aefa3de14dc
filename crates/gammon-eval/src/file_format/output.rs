//! The one way gammon writes a file the user asked for (reports, positions
//! files, labels, weights, checkpoints, shards, caches): never in place.
//!
//! The bytes go to a uniquely named temporary file in the target's folder
//! (`.NAME.XXXXXX.gammon-tmp`, created exclusively, so it can never be a
//! file of the user's), which is flushed to disk and then renamed over the
//! target; the folder is synced so that the rename survives a crash. On
//! any failure, a full disk included, the temporary file is removed and the
//! old file is as it was.
//!
//! What the target may be:
//! - a regular file (replaced; it keeps its permissions) or nothing yet (the
//!   new file gets the usual `0666` less the umask);
//! - a symbolic link: written **through** to the file it points to, which is
//!   replaced as above, so the link stays a link (as editors and `cp` do; a
//!   link to a missing file creates that file). Up to 40 links are followed;
//! - never a folder, a named pipe, a device or a socket: those are refused
//!   with [`FileError::NotWritable`] before anything is written (a rename
//!   would replace `/dev/null` by a plain file).
//!
//! A file with several hard links gets a new inode: the other names keep
//! the old contents (as with any write by rename).

use super::FileError;
use std::fs::{self, Permissions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// How many symbolic links are followed before giving up (Linux's limit).
const MAX_LINKS: usize = 40;

/// The suffix of every temporary file gammon writes (see
/// [`is_temporary_name`]).
pub const TEMP_SUFFIX: &str = ".gammon-tmp";

/// Writes `bytes` to `path` safely (see the [module documentation](self)).
///
/// # Errors
/// The target is not a regular file or a link to one, its folder does not
/// exist, or a file-system step failed; the target is then untouched.
pub fn write_output(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    let mut out = Output::create(path)?;
    out.write_all(bytes).map_err(|e| out.error(e))?;
    out.commit()
}

/// Checks, before long work starts, that `path` can be written: what it
/// names is a regular file, a link to one or nothing, its folder exists and
/// a file can be created there (one is, and removed).
///
/// # Errors
/// As [`write_output`] would fail on those grounds.
pub fn check_output(path: &Path) -> Result<(), FileError> {
    Output::create(path).map(drop)
}

/// Whether `name` is a temporary file of [`Output`] (left behind only by a
/// process that was killed mid-write): `.` then the target's name, a random
/// part and `.gammon-tmp`.
pub fn is_temporary_name(name: &str) -> bool {
    name.starts_with('.') && name.len() > 1 + TEMP_SUFFIX.len() && name.ends_with(TEMP_SUFFIX)
}

/// An output file being written: [`Write`] into it, then
/// [`commit`](Self::commit). Dropped without a commit, it leaves no trace.
#[derive(Debug)]
pub struct Output {
    /// The path as the user gave it (for messages).
    shown: PathBuf,
    /// The file that is replaced: `shown` with its links followed.
    target: PathBuf,
    /// The temporary file, written through the standard library's `File`
    /// so that its errors are the system's own.
    file: BufWriter<fs::File>,
    /// Removes the temporary file when dropped, unless persisted.
    tmp: tempfile::TempPath,
}

impl Output {
    /// Starts writing `path`: checks the target and creates the temporary
    /// file beside it.
    ///
    /// # Errors
    /// See [`write_output`].
    pub fn create(path: &Path) -> Result<Output, FileError> {
        let write_error = |source| FileError::Write { path: path.to_path_buf(), source };
        let (target, existing) = resolve(path)?;
        let folder = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        match fs::metadata(&folder) {
            Ok(m) if m.is_dir() => {}
            Ok(_) | Err(_) => return Err(FileError::NoFolder { path: path.to_path_buf(), folder }),
        }
        let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let prefix = format!(".{name}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(TEMP_SUFFIX);
        #[cfg(unix)]
        let default_mode = {
            use std::os::unix::fs::PermissionsExt;
            // Created with this mode, the umask applies as for any new file.
            Permissions::from_mode(0o666)
        };
        #[cfg(unix)]
        builder.permissions(existing.clone().unwrap_or(default_mode));
        let (file, tmp) = builder.tempfile_in(&folder).map_err(|e| write_error(plain(e)))?.into_parts();
        #[cfg(not(unix))]
        if let Some(p) = existing {
            fs::set_permissions(&tmp, p).map_err(write_error)?;
        }
        Ok(Output { shown: path.to_path_buf(), target, file: BufWriter::new(file), tmp })
    }

    /// `source`, as the error of writing this output.
    pub fn error(&self, source: io::Error) -> FileError {
        FileError::Write { path: self.shown.clone(), source }
    }

    /// Flushes the file to disk and renames it over the target.
    ///
    /// # Errors
    /// A file-system step failed; the temporary file is then removed and
    /// the target untouched.
    pub fn commit(self) -> Result<(), FileError> {
        let shown = self.shown;
        let write_error = |source| FileError::Write { path: shown.clone(), source };
        let file = self.file.into_inner().map_err(|e| write_error(e.into_error()))?;
        file.sync_all().map_err(write_error)?;
        drop(file);
        self.tmp.persist(&self.target).map_err(|e| write_error(plain(e.error)))?;
        // Make the rename itself durable.
        if let Some(folder) = self.target.parent().filter(|p| !p.as_os_str().is_empty()) {
            if let Ok(d) = fs::File::open(folder) {
                let _ = d.sync_all();
            }
        }
        Ok(())
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// `e` without the temporary file's path that `tempfile` appends to its
/// errors ("... at path /x/.y.abc.gammon-tmp"): the message names the
/// output the user gave, once.
fn plain(e: io::Error) -> io::Error {
    if e.raw_os_error().is_some() {
        return e;
    }
    let text = e.to_string();
    match text.find(" at path ") {
        Some(cut) => io::Error::new(e.kind(), text[..cut].to_string()),
        None => e,
    }
}

/// The file `path` names, its links followed, and that file's permissions
/// if it exists.
fn resolve(path: &Path) -> Result<(PathBuf, Option<Permissions>), FileError> {
    let mut current = path.to_path_buf();
    for _ in 0..=MAX_LINKS {
        let meta = match fs::symlink_metadata(&current) {
            Ok(m) => m,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((current, None)),
            Err(source) => return Err(FileError::Write { path: path.to_path_buf(), source }),
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            let link =
                fs::read_link(&current).map_err(|source| FileError::Write { path: path.to_path_buf(), source })?;
            current = match current.parent() {
                Some(folder) if link.is_relative() => folder.join(link),
                _ => link,
            };
        } else if kind.is_file() {
            return Ok((current, Some(meta.permissions())));
        } else {
            return Err(FileError::NotWritable { path: path.to_path_buf(), what: super::file_type_name(&kind) });
        }
    }
    Err(FileError::Write {
        path: path.to_path_buf(),
        source: io::Error::other(format!("more than {MAX_LINKS} levels of symbolic links")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("gammon-output-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("temp folder");
        dir
    }

    /// The names in `dir`, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> =
            fs::read_dir(dir).expect("list").map(|e| e.expect("entry").file_name().to_string_lossy().into()).collect();
        v.sort();
        v
    }

    #[test]
    fn writes_a_new_file_and_replaces_an_old_one_leaving_no_temporary_file() {
        let dir = folder("plain");
        let path = dir.join("out.txt");
        write_output(&path, b"first").expect("write");
        write_output(&path, b"second").expect("replace");
        assert_eq!(fs::read(&path).expect("read"), b"second");
        assert_eq!(names(&dir), ["out.txt"]);
    }

    #[test]
    fn a_file_named_like_a_fixed_temporary_name_is_left_alone() {
        let dir = folder("collide");
        for name in ["data.tmp", "data.txt.tmp", ".data.txt.tmp", "data.html.tmp"] {
            fs::write(dir.join(name), "IMPORTANT").expect("user file");
        }
        write_output(&dir.join("data.txt"), b"x").expect("write");
        for name in ["data.tmp", "data.txt.tmp", ".data.txt.tmp", "data.html.tmp"] {
            assert_eq!(fs::read_to_string(dir.join(name)).expect("kept"), "IMPORTANT", "{name}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_is_written_through_and_stays_a_link() {
        let dir = folder("link");
        fs::create_dir_all(dir.join("real")).expect("folder");
        let real = dir.join("real/target.txt");
        fs::write(&real, "old").expect("target");
        // A relative link, through a second link.
        std::os::unix::fs::symlink("real/target.txt", dir.join("first")).expect("link");
        std::os::unix::fs::symlink("first", dir.join("second")).expect("link");
        write_output(&dir.join("second"), b"new").expect("write");
        assert_eq!(fs::read_to_string(&real).expect("read"), "new");
        for link in ["first", "second"] {
            assert!(fs::symlink_metadata(dir.join(link)).expect("meta").file_type().is_symlink(), "{link}");
        }
        assert_eq!(names(&dir.join("real")), ["target.txt"]);
        // A dangling link creates the file it names.
        std::os::unix::fs::symlink("real/new.txt", dir.join("dangling")).expect("link");
        write_output(&dir.join("dangling"), b"made").expect("write");
        assert_eq!(fs::read_to_string(dir.join("real/new.txt")).expect("read"), "made");
        // A loop is an error, not a hang.
        std::os::unix::fs::symlink("loop-b", dir.join("loop-a")).expect("link");
        std::os::unix::fs::symlink("loop-a", dir.join("loop-b")).expect("link");
        let e = write_output(&dir.join("loop-a"), b"x").expect_err("a loop");
        assert!(e.to_string().contains("loop-a"), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_a_device_or_a_folder_is_refused_and_left_as_it_is() {
        let dir = folder("special");
        let fifo = dir.join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success());
        if made {
            let e = write_output(&fifo, b"x").expect_err("a FIFO");
            assert!(e.to_string().contains("named pipe"), "{e}");
            assert!(fs::symlink_metadata(&fifo).expect("meta").file_type().is_fifo_like());
        }
        let e = write_output(Path::new("/dev/null"), b"x").expect_err("a device");
        assert_eq!(e.to_string(), "/dev/null is a device: gammon writes only to regular files");
        let e = write_output(&dir, b"x").expect_err("a folder");
        assert!(e.to_string().ends_with("is a folder: gammon writes only to regular files"), "{e}");
        let e = check_output(&dir.join("no/such/folder/out.txt")).expect_err("no folder");
        assert!(e.to_string().contains("does not exist"), "{e}");
    }

    #[cfg(unix)]
    trait FifoLike {
        fn is_fifo_like(&self) -> bool;
    }

    #[cfg(unix)]
    impl FifoLike for fs::FileType {
        fn is_fifo_like(&self) -> bool {
            std::os::unix::fs::FileTypeExt::is_fifo(self)
        }
    }

    #[cfg(unix)]
    #[test]
    fn permissions_are_kept_on_replace_and_follow_the_umask_when_new() {
        use std::os::unix::fs::PermissionsExt;
        let dir = folder("mode");
        let path = dir.join("script.sh");
        fs::write(&path, "old").expect("write");
        fs::set_permissions(&path, Permissions::from_mode(0o750)).expect("chmod");
        write_output(&path, b"new").expect("replace");
        assert_eq!(fs::metadata(&path).expect("meta").permissions().mode() & 0o777, 0o750);
        let fresh = dir.join("fresh.txt");
        write_output(&fresh, b"x").expect("write");
        let mode = fs::metadata(&fresh).expect("meta").permissions().mode() & 0o777;
        // Readable by others as any new file is under the usual umasks (not
        // tempfile's private 0600).
        assert_eq!(mode & 0o644, 0o644, "{mode:o}");
    }

    #[test]
    fn a_write_that_is_never_committed_leaves_the_old_file_and_no_trace() {
        let dir = folder("abandon");
        let path = dir.join("weights.gnn");
        fs::write(&path, "old").expect("write");
        {
            let mut out = Output::create(&path).expect("create");
            out.write_all(b"half of the new").expect("write");
            // Dropped here, as on an error.
        }
        assert_eq!(fs::read_to_string(&path).expect("read"), "old");
        assert_eq!(names(&dir), ["weights.gnn"]);
    }

    #[test]
    fn temporary_names_are_recognised_and_nothing_else() {
        assert!(is_temporary_name(".weights.gnn.a1B2c3.gammon-tmp"));
        assert!(!is_temporary_name("weights.gnn.gammon-tmp"));
        assert!(!is_temporary_name(".gammon-tmp"));
        assert!(!is_temporary_name(".weights.gnn.tmp-123"));
    }
}
