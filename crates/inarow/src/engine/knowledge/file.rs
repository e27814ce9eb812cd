//! Files the engine writes and reads back (books, databases): a text header of `name value`
//! lines under a magic first line, a blank line, then binary data; written to a temporary file
//! and renamed, so that a reader never sees a half-written file.

use crate::error::Error;
use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// `path` with `suffix` appended to its file name.
pub(crate) fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Removes what a build of `out` keeps while it runs (its saved state, and temporary files an
/// interruption may have left), once `out` is written.
pub(crate) fn remove_build_files(out: &Path) {
    for suffix in [".partial", ".partial.tmp", ".cells", ".cells.tmp"] {
        let _ = fs::remove_file(with_suffix(out, suffix));
    }
}

/// The header (up to the first blank line) and the data after it.
pub(crate) fn split_header(bytes: &[u8]) -> Option<(&str, &[u8])> {
    let end = bytes.windows(2).position(|w| w == b"\n\n")?;
    let header = std::str::from_utf8(&bytes[..end]).ok()?;
    Some((header, &bytes[end + 2..]))
}

/// The `name value` fields of a header whose first line is `magic`.
pub(crate) fn parse_header(header: &str, magic: &str) -> Option<HashMap<String, String>> {
    let mut lines = header.lines();
    if lines.next()? != magic {
        return None;
    }
    Some(
        lines
            .filter_map(|l| l.split_once(' '))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    )
}

/// A header's `name value` fields.
pub(crate) type Fields = HashMap<String, String>;

/// The fields of a header whose first line is `magic`, and where the data after it starts; the
/// error says why the bytes are not such a file.
pub(crate) fn header_fields(bytes: &[u8], magic: &str) -> Result<(Fields, usize), Error> {
    let (header, body) = split_header(bytes)
        .ok_or_else(|| Error::File("no header ending in a blank line".to_string()))?;
    let fields =
        parse_header(header, magic).ok_or_else(|| Error::File(format!("expected '{magic}'")))?;
    Ok((fields, bytes.len() - body.len()))
}

/// The first bytes of a file: enough for any header.
pub(crate) fn read_head(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut head = Vec::new();
    File::open(path)?.take(4096).read_to_end(&mut head)?;
    Ok(head)
}

/// A field's value; the error names it.
pub(crate) fn field<'a>(fields: &'a Fields, name: &str) -> Result<&'a str, Error> {
    fields
        .get(name)
        .map(String::as_str)
        .ok_or_else(|| Error::File(format!("header has no '{name}'")))
}

/// A field's decimal number.
pub(crate) fn number_field(fields: &Fields, name: &str) -> Result<u64, Error> {
    field(fields, name)?
        .parse()
        .map_err(|_| Error::File(format!("'{name}' is not a number")))
}

/// The `crc32` field (hexadecimal).
pub(crate) fn crc_field(fields: &Fields) -> Result<u32, Error> {
    u32::from_str_radix(field(fields, "crc32")?, 16)
        .map_err(|_| Error::File("'crc32' is not a hexadecimal number".to_string()))
}

/// Free bytes for an unprivileged user on the file system that holds `path` (a file that may
/// not exist yet); `None` when it cannot be told.
#[cfg(unix)]
pub(crate) fn free_bytes(path: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: `name` is a NUL-terminated path and `stat` a valid out-parameter.
    if unsafe { libc::statvfs(name.as_ptr(), &mut stat) } != 0 {
        return None;
    }
    Some(stat.f_bavail as u64 * stat.f_frsize as u64)
}

/// Free bytes: not told where the system has no `statvfs` (the web).
#[cfg(not(unix))]
pub(crate) fn free_bytes(_path: &Path) -> Option<u64> {
    None
}

/// The one-line error of a write to `path` that failed: what the system said, and the bytes
/// the write needs beside the bytes free there.
pub(crate) fn write_error(path: &Path, needed: u64, e: &dyn std::fmt::Display) -> String {
    let free = free_bytes(path).map_or(String::new(), |f| format!(", {f} free there"));
    format!(
        "cannot write '{}': {e} (it needs {needed} bytes{free})",
        path.display()
    )
}

/// An error up front, before anything is written, when the disk that holds `path` has less
/// than `needed` bytes free.
pub(crate) fn check_room(path: &Path, needed: u64) -> Result<(), Error> {
    match free_bytes(path) {
        Some(free) if free < needed => Err(Error::File(write_error(
            path,
            needed,
            &"not enough space on disk",
        ))),
        _ => Ok(()),
    }
}

/// Writes `header` and then `body_len` bytes that `body` writes to a temporary file beside
/// `path`, then renames it over `path`. A write that fails (a full disk, a size limit) leaves
/// no temporary file and nothing under `path` but what was there before.
pub(crate) fn write_atomically_with(
    path: &Path,
    header: &[u8],
    body_len: u64,
    body: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), Error> {
    write_atomically_patched(path, header, body_len, |w| body(w).map(|_| None))
}

/// [`write_atomically_with`], where `body` may answer a new header of the same length, written
/// over the first: for what is known only once the body is written (its checksum).
pub(crate) fn write_atomically_patched(
    path: &Path,
    header: &[u8],
    body_len: u64,
    body: impl FnOnce(&mut dyn Write) -> std::io::Result<Option<Vec<u8>>>,
) -> Result<(), Error> {
    use std::io::{Seek, SeekFrom};
    let needed = header.len() as u64 + body_len;
    // The file is replaced by a rename: never a device, a directory or a pipe of that name.
    if fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return Err(Error::File(format!(
            "cannot write '{}': it exists and is not a regular file",
            path.display()
        )));
    }
    check_room(path, needed)?;
    let tmp = with_suffix(path, ".tmp");
    let written = File::create(&tmp).and_then(|file| {
        let mut file = BufWriter::with_capacity(1 << 20, file);
        file.write_all(header)?;
        let patch = body(&mut file)?;
        let mut file = file.into_inner().map_err(|e| e.into_error())?;
        if let Some(patch) = patch {
            assert_eq!(patch.len(), header.len(), "a patch replaces the header");
            file.seek(SeekFrom::Start(0))?;
            file.write_all(&patch)?;
        }
        file.sync_all()
    });
    if let Err(e) = written.and_then(|_| fs::rename(&tmp, path)) {
        let _ = fs::remove_file(&tmp);
        return Err(Error::File(write_error(path, needed, &e)));
    }
    Ok(())
}

/// [`write_atomically_with`] for a body in one piece.
pub(crate) fn write_atomically(path: &Path, header: &[u8], body: &[u8]) -> Result<(), Error> {
    write_atomically_with(path, header, body.len() as u64, |w| w.write_all(body))
}
