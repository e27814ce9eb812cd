//! Files the engine writes and reads back (books, databases): a text header of `name value`
//! lines under a magic first line, a blank line, then binary data; written to a temporary file
//! and renamed, so that a reader never sees a half-written file.

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
pub(crate) fn header_fields(bytes: &[u8], magic: &str) -> Result<(Fields, usize), String> {
    let (header, body) =
        split_header(bytes).ok_or("no header ending in a blank line".to_string())?;
    let fields = parse_header(header, magic).ok_or_else(|| format!("expected '{magic}'"))?;
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
pub(crate) fn field<'a>(fields: &'a Fields, name: &str) -> Result<&'a str, String> {
    fields
        .get(name)
        .map(String::as_str)
        .ok_or_else(|| format!("header has no '{name}'"))
}

/// A field's decimal number.
pub(crate) fn number_field(fields: &Fields, name: &str) -> Result<u64, String> {
    field(fields, name)?
        .parse()
        .map_err(|_| format!("'{name}' is not a number"))
}

/// The `crc32` field (hexadecimal).
pub(crate) fn crc_field(fields: &Fields) -> Result<u32, String> {
    u32::from_str_radix(field(fields, "crc32")?, 16)
        .map_err(|_| "'crc32' is not a hexadecimal number".to_string())
}

/// Writes `header` and then whatever `body` writes to a temporary file beside `path`, then
/// renames it over `path`.
pub(crate) fn write_atomically_with(
    path: &Path,
    header: &[u8],
    body: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), String> {
    let tmp = with_suffix(path, ".tmp");
    let fail = |e: std::io::Error| format!("cannot write '{}': {e}", path.display());
    let mut file = BufWriter::with_capacity(1 << 20, File::create(&tmp).map_err(fail)?);
    file.write_all(header).map_err(fail)?;
    body(&mut file).map_err(fail)?;
    file.into_inner()
        .map_err(|e| fail(e.into_error()))?
        .sync_all()
        .map_err(fail)?;
    fs::rename(&tmp, path).map_err(fail)
}

/// [`write_atomically_with`] for a body in one piece.
pub(crate) fn write_atomically(path: &Path, header: &[u8], body: &[u8]) -> Result<(), String> {
    write_atomically_with(path, header, |w| w.write_all(body))
}
