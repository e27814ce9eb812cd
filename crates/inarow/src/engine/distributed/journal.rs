//! The answers of a job-level search's jobs kept on disk, so that a search of days survives a
//! kill: a run started again with the same file skips every job answered before (the DAG is
//! rebuilt from the position, which is quick next to the jobs).
//!
//! The file is text: a header line `inarow-jobs 1 GAME`, then a line for each answer,
//! `KEY WINS CRC`: the job position's canonical key (32 hex digits), `1` if its side to move
//! wins, `0` if not and `s` if the job was given up at its node budget and its position split
//! into deeper jobs, and the CRC-32 of the two (8 hex digits). A line is written whole and
//! at once; a kill in the middle of one leaves a last line that does not check, which the next
//! run drops. A bad line elsewhere is damage, and the file is refused.

use crate::error::Error;
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// What a line says of a job.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Entry {
    /// Whether its side to move wins.
    Answer(bool),
    /// Given up at its node budget and split into deeper jobs.
    Split,
}

/// The answers so far, and the file that keeps them.
pub struct Journal {
    path: PathBuf,
    file: File,
    answers: HashMap<u128, Entry>,
}

fn record(key: u128, entry: Entry) -> String {
    let what = match entry {
        Entry::Answer(wins) => {
            if wins {
                "1"
            } else {
                "0"
            }
        }
        Entry::Split => "s",
    };
    let body = format!("{key:032x} {what}");
    format!("{body} {:08x}\n", crc32fast::hash(body.as_bytes()))
}

fn parse(line: &str) -> Option<(u128, Entry)> {
    let (body, crc) = line.rsplit_once(' ')?;
    if u32::from_str_radix(crc, 16).ok()? != crc32fast::hash(body.as_bytes()) {
        return None;
    }
    let (key, wins) = body.split_once(' ')?;
    let wins = match wins {
        "0" => Entry::Answer(false),
        "1" => Entry::Answer(true),
        "s" => Entry::Split,
        _ => return None,
    };
    (key.len() == 32).then_some(())?;
    Some((u128::from_str_radix(key, 16).ok()?, wins))
}

impl Journal {
    /// The journal in `path` for `game`, with the answers it holds; a new one if there is no
    /// file.
    ///
    /// # Errors
    /// [`Error::File`], one line: the file cannot be read or written, is another game's or not
    /// a journal, or is damaged before its last line.
    pub fn open(path: &Path, game: &str) -> Result<Journal, Error> {
        let name = path.display();
        let header = format!("inarow-jobs 1 {game}\n");
        let mut bytes = Vec::new();
        if path.exists() {
            File::open(path)
                .and_then(|mut f| f.read_to_end(&mut bytes))
                .map_err(|e| Error::File(format!("cannot read {name}: {e}")))?;
        }
        // Damage may be any bytes: it shows as a line that does not check.
        let text = String::from_utf8_lossy(&bytes);
        let mut answers = HashMap::new();
        // The bytes that are good: the header and whole lines that check.
        let mut good = 0;
        if !text.is_empty() {
            if !text.starts_with(&header) {
                let first = text.lines().next().unwrap_or("");
                return Err(Error::File(match first.strip_prefix("inarow-jobs 1 ") {
                    Some(other) => format!("{name} holds the jobs of {other}, not of {game}"),
                    None => format!("{name} is not a journal of jobs (inarow-jobs)"),
                }));
            }
            good = header.len();
            let mut lines = text[good..].split_inclusive('\n').enumerate().peekable();
            while let Some((i, line)) = lines.next() {
                let whole = line.ends_with('\n');
                match parse(line.trim_end_matches('\n')).filter(|_| whole) {
                    Some((key, wins)) => {
                        answers.insert(key, wins);
                        good += line.len();
                    }
                    // A kill while the last line was written.
                    None if lines.peek().is_none() => {}
                    None => {
                        return Err(Error::File(format!("{name}: line {} is damaged", i + 2)));
                    }
                }
            }
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| Error::File(format!("cannot write {name}: {e}")))?;
        file.set_len(good as u64)
            .map_err(|e| Error::File(format!("cannot write {name}: {e}")))?;
        let mut journal = Journal {
            path: path.to_path_buf(),
            file,
            answers,
        };
        if good == 0 {
            journal.write(&header)?;
        }
        Ok(journal)
    }

    /// The answer kept for the position of canonical key `key`: whether its side to move wins.
    pub fn get(&self, key: u128) -> Option<bool> {
        match self.answers.get(&key) {
            Some(Entry::Answer(wins)) => Some(*wins),
            _ => None,
        }
    }

    /// Whether the job of the position of canonical key `key` was split into deeper jobs.
    pub fn was_split(&self, key: u128) -> bool {
        self.answers.get(&key) == Some(&Entry::Split)
    }

    /// The answers and splits it holds.
    pub fn len(&self) -> usize {
        self.answers.len()
    }

    /// Whether it holds no answer.
    pub fn is_empty(&self) -> bool {
        self.answers.is_empty()
    }

    /// Keeps an answer, on disk before it returns.
    ///
    /// # Errors
    /// [`Error::File`], one line, when the file cannot be written (a full disk).
    pub fn add(&mut self, key: u128, wins: bool) -> Result<(), Error> {
        self.keep(key, Entry::Answer(wins))
    }

    /// Keeps that the job of `key` was split, on disk before it returns.
    ///
    /// # Errors
    /// As [`Journal::add`].
    pub fn add_split(&mut self, key: u128) -> Result<(), Error> {
        self.keep(key, Entry::Split)
    }

    fn keep(&mut self, key: u128, entry: Entry) -> Result<(), Error> {
        if self.answers.insert(key, entry).is_none() {
            self.write(&record(key, entry))?;
        }
        Ok(())
    }

    fn write(&mut self, text: &str) -> Result<(), Error> {
        self.file
            .write_all(text.as_bytes())
            .map_err(|e| Error::File(format!("cannot write {}: {e}", self.path.display())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("inarow-journal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        let _ = std::fs::remove_file(&path);
        path
    }

    #[test]
    fn answers_come_back_and_a_torn_last_line_is_dropped() {
        let path = scratch("torn");
        let mut j = Journal::open(&path, "cube").unwrap();
        j.add(5, true).unwrap();
        j.add(1 << 100, false).unwrap();
        drop(j);
        // A kill in the middle of a third line.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(&record(7, Entry::Answer(true)).as_bytes()[..20])
            .unwrap();
        drop(f);
        let mut j = Journal::open(&path, "cube").unwrap();
        assert_eq!(
            (j.get(5), j.get(1 << 100), j.get(7), j.len()),
            (Some(true), Some(false), None, 2)
        );
        j.add(7, true).unwrap();
        j.add_split(9).unwrap();
        drop(j);
        let j = Journal::open(&path, "cube").unwrap();
        assert_eq!((j.get(7), j.len()), (Some(true), 4));
        assert_eq!(
            (j.get(9), j.was_split(9), j.was_split(7)),
            (None, true, false)
        );
    }

    #[test]
    fn damage_or_another_game_is_refused_in_one_line() {
        let path = scratch("damaged");
        let mut j = Journal::open(&path, "cube").unwrap();
        for k in 0..3 {
            j.add(k, k % 2 == 0).unwrap();
        }
        drop(j);
        assert_eq!(
            Journal::open(&path, "qubic").err().unwrap(),
            Error::File(format!(
                "{} holds the jobs of cube, not of qubic",
                path.display()
            ))
        );
        let text = std::fs::read_to_string(&path).unwrap();
        let kept = record(0, Entry::Answer(true));
        let flipped = kept.replacen(" 1 ", " 0 ", 1);
        std::fs::write(&path, text.replace(&kept, &flipped)).unwrap();
        assert_eq!(
            Journal::open(&path, "cube").err().unwrap(),
            Error::File(format!("{}: line 2 is damaged", path.display()))
        );
        std::fs::write(&path, "hello\n").unwrap();
        assert!(
            Journal::open(&path, "cube")
                .err()
                .unwrap()
                .to_string()
                .ends_with("is not a journal of jobs (inarow-jobs)")
        );
    }
}
