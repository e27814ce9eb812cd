//! Checkpoints of an alpha-beta run: its transposition table and the results of its root
//! driver's tests, on disk, so that a long solve that stops (a limit, Ctrl-C, a killed process)
//! resumes with everything it had found. Every table entry is a true bound on its position's
//! score whenever it was stored, so a table saved while the search runs is as sound as one
//! saved after it.
//!
//! ```text
//! inarow-checkpoint 1
//! game connect4:8x6:k4
//! buckets 1073741789
//! ways 2
//! stride 1
//! tests 1
//!
//! `tests` records: the root's canonical key (16 bytes), the test and its result (4 each);
//! the table's words; then the crc32 of all of that. Little-endian throughout.
//! ```
//!
//! The file is written to a temporary file and renamed, so that a reader never sees half of
//! one; it loads only into a table of the same geometry (the same `--tt-mb`).

use super::file::{field, header_fields, number_field, read_head, write_atomically_with};
use crate::error::Error;
use crate::search::alphabeta::SearchState;
use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

const MAGIC: &str = "inarow-checkpoint 1";
const GEOMETRY: [&str; 3] = ["buckets", "ways", "stride"];
/// Bytes of one `tests` record.
const TEST_RECORD: usize = 24;

/// What a search learnt, and the file it is saved in.
pub struct Checkpoint {
    path: PathBuf,
    game: String,
    state: SearchState,
}

impl Checkpoint {
    /// The checkpoint of a run of `game` kept at `path`. If the file exists, `state` is
    /// filled from it; a file that is damaged, for another game or for a table of another
    /// size is an error (and leaves the table empty). Whether a file was loaded comes back too.
    ///
    /// # Errors
    /// [`Error::File`] for a file that cannot be read, or is damaged or made for another run.
    pub fn open(path: &Path, game: &str, state: SearchState) -> Result<(Checkpoint, bool), Error> {
        let checkpoint = Checkpoint {
            path: path.to_path_buf(),
            game: game.to_string(),
            state,
        };
        let loaded = match File::open(path) {
            Ok(file) => {
                checkpoint.load(file)?;
                true
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
            Err(e) => {
                return Err(Error::File(format!(
                    "cannot read '{}': {e}",
                    path.display()
                )));
            }
        };
        Ok((checkpoint, loaded))
    }

    /// The file the checkpoint is saved to and loaded from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes what the searches know now (they may be running).
    ///
    /// # Errors
    /// [`Error::File`] when the file cannot be written.
    pub fn save(&self) -> Result<u64, Error> {
        self.write()
    }

    fn write(&self) -> Result<u64, Error> {
        let tests = self.state.tests.entries();
        let mut header = format!("{MAGIC}\ngame {}\n", self.game);
        for (name, value) in GEOMETRY.iter().zip(self.state.table.geometry()) {
            header += &format!("{name} {value}\n");
        }
        header += &format!("tests {}\n\n", tests.len());
        let body = (tests.len() * TEST_RECORD) as u64 + self.state.table.saved_bytes() + 4;
        write_atomically_with(&self.path, header.as_bytes(), body, |out| {
            let mut crc = crc32fast::Hasher::new();
            let mut records = Vec::with_capacity(tests.len() * TEST_RECORD);
            for (key, test, result) in tests {
                records.extend_from_slice(&key.to_le_bytes());
                records.extend_from_slice(&test.to_le_bytes());
                records.extend_from_slice(&result.to_le_bytes());
            }
            crc.update(&records);
            out.write_all(&records)?;
            self.state.table.save(out, &mut crc)?;
            out.write_all(&crc.finalize().to_le_bytes())
        })?;
        Ok(header.len() as u64 + body)
    }

    fn load(&self, mut file: File) -> Result<(), Error> {
        let shown = self.path.display();
        let bad = |why: String| Error::File(format!("checkpoint '{shown}' is corrupt: {why}"));
        let unreadable = |e: std::io::Error| Error::File(format!("cannot read '{shown}': {e}"));
        let head = read_head(&self.path).map_err(unreadable)?;
        let (fields, start) = header_fields(&head, MAGIC)
            .map_err(|why| Error::File(format!("'{shown}' is not an inarow checkpoint ({why})")))?;
        let game = field(&fields, "game").map_err(|e| bad(e.to_string()))?;
        if game != self.game {
            return Err(Error::File(format!(
                "checkpoint '{shown}' is for {game}, not for {}",
                self.game
            )));
        }
        for (name, ours) in GEOMETRY.iter().zip(self.state.table.geometry()) {
            let theirs = number_field(&fields, name).map_err(|e| bad(e.to_string()))?;
            if theirs != ours {
                return Err(Error::File(format!(
                    "checkpoint '{shown}' holds a table of another size ({name} {theirs}, this \
                     one has {ours}): give the --tt-mb it was made with"
                )));
            }
        }
        let tests = number_field(&fields, "tests").map_err(|e| bad(e.to_string()))?;
        let expected = (start as u128)
            + tests as u128 * TEST_RECORD as u128
            + self.state.table.saved_bytes() as u128
            + 4;
        let len = file.metadata().map_err(unreadable)?.len();
        if len as u128 != expected {
            return Err(bad(format!(
                "{len} bytes, expected {expected} (truncated?)"
            )));
        }
        file.seek(SeekFrom::Start(start as u64))
            .map_err(unreadable)?;
        let mut input = BufReader::with_capacity(1 << 20, file);
        let mut crc = crc32fast::Hasher::new();
        let mut records = vec![0u8; tests as usize * TEST_RECORD];
        input.read_exact(&mut records).map_err(unreadable)?;
        crc.update(&records);
        let restored = self.state.table.restore(&mut input, &mut crc);
        let mut check = [0u8; 4];
        let read = restored.and_then(|_| input.read_exact(&mut check));
        if let Err(e) = read {
            self.state.table.forget_all();
            return Err(unreadable(e));
        }
        if u32::from_le_bytes(check) != crc.finalize() {
            self.state.table.forget_all();
            return Err(bad("checksum mismatch".into()));
        }
        for r in records.chunks_exact(TEST_RECORD) {
            let key = u128::from_le_bytes(r[..16].try_into().expect("16 bytes"));
            let test = i32::from_le_bytes(r[16..20].try_into().expect("4 bytes"));
            let result = i32::from_le_bytes(r[20..24].try_into().expect("4 bytes"));
            self.state.tests.record(key, test, result);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::alphabeta::Tests;
    use crate::search::tt::{Bound, Scheme, Table};
    use std::sync::Arc;

    /// The message of a checkpoint refused, whose error is of the file's kind.
    fn refused(opened: Result<(Checkpoint, bool), Error>) -> String {
        let e = opened.err().expect("the file is refused");
        assert!(matches!(e, Error::File(_)), "{e:?}");
        e.to_string()
    }

    fn state(mb: usize, key_bits: u32) -> SearchState {
        SearchState {
            table: Arc::new(Table::new(mb, Scheme::TwoBig, key_bits)),
            tests: Arc::new(Tests::default()),
        }
    }

    #[test]
    fn a_saved_state_loads_alike_and_damage_is_refused() {
        let dir = std::env::temp_dir().join(format!("inarow-ckpt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.ckpt");
        let game = "connect4:5x4:k4";
        // Keys of 49 bits fit the packed entry; 100-bit keys need the wide layout.
        for key_bits in [49, 100] {
            let saved = state(1, key_bits);
            let mut log = saved.table.write_log();
            let keys: Vec<u128> = (1..200u128)
                .map(|i| (i * 0x9e37_79b9_7f4a_7c15) % (1 << key_bits.min(64)))
                .collect();
            for (i, &key) in keys.iter().enumerate() {
                let value = i as i32 % 50 - 25;
                saved
                    .table
                    .store(&mut log, key, value, Bound::Lower, Some(3), 1 << (i % 20));
            }
            saved.tests.record(keys[0], -3, 5);
            let (checkpoint, loaded) = Checkpoint::open(&path, game, saved.clone()).unwrap();
            assert!(!loaded);
            checkpoint.save().unwrap();

            let fresh = state(1, key_bits);
            let (_, loaded) = Checkpoint::open(&path, game, fresh.clone()).unwrap();
            assert!(loaded);
            assert!(keys.iter().any(|&k| fresh.table.probe(k).is_some()));
            for &key in &keys {
                assert_eq!(
                    fresh.table.probe(key),
                    saved.table.probe(key),
                    "key {key:x}"
                );
            }
            assert_eq!(fresh.tests.entries(), vec![(keys[0], -3, 5)]);

            let other = Checkpoint::open(&path, "connect4", state(1, key_bits));
            let other = refused(other);
            assert!(
                other.contains("is for connect4:5x4:k4, not for connect4"),
                "{other}"
            );
            let bigger = refused(Checkpoint::open(&path, game, state(2, key_bits)));
            assert!(bigger.contains("--tt-mb"), "{bigger}");

            let mut bytes = std::fs::read(&path).unwrap();
            let last = bytes.len() - 20;
            bytes[last] ^= 1;
            std::fs::write(&path, &bytes).unwrap();
            let damaged = state(1, key_bits);
            let error = refused(Checkpoint::open(&path, game, damaged.clone()));
            assert!(error.contains("checksum mismatch"), "{error}");
            assert!(
                keys.iter().all(|&k| damaged.table.probe(k).is_none()),
                "a damaged file leaves the table empty"
            );
            std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
            let cut = refused(Checkpoint::open(&path, game, state(1, key_bits)));
            assert!(cut.contains("truncated"), "{cut}");
            std::fs::remove_file(&path).unwrap();
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
