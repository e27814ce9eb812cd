//! Fuzz targets: every parser and reader of inarow, and its searches under tiny limits. Each
//! target takes arbitrary bytes and must never panic, overflow its stack or hang; where it can,
//! it also checks that what it reads back is right (a move string read, written and read
//! again is the same position; a search's answer equals a second method's on small boards).
//!
//! `fuzz/run` drives them with libFuzzer (coverage-guided, on the stable toolchain);
//! `fuzz/tests/regressions.rs` replays the seeds and every input that once failed, as part of
//! `cargo test`.

use inarow::engine::knowledge::book::Book;
use inarow::engine::knowledge::database::{self, BuildOptions, Database};
use inarow::engine::{Algorithm, Engine, Limits, Options, RetroValue, verify};
use inarow::game::{
    AnyGame, ConnectBoard, GameSpec, MoveList, Notation, Rules, Status, Tactics, format_moves,
    read_position,
};
use inarow::session::{self, BookSource, Settings};
use inarow::with_game;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

/// A fuzz target: takes any bytes.
pub type Target = fn(&[u8]);

/// Every target by name, for the regression replay.
pub const TARGETS: &[(&str, Target)] = &[
    ("spec", spec),
    ("moves", moves),
    ("certificate", certificate),
    ("book", book),
    ("database", database),
    ("partial", partial),
    ("bench", bench),
    ("search", search),
];

/// The games the targets pick from by a byte: every game, every board representation.
const GAMES: &[&str] = &[
    "connect4",
    "connect4:4x4",
    "connect4:5x4:k3",
    "connect4:4x5",
    "connect4:11x10:k5",
    "popout",
    "popout:4x4",
    "cube",
    "qubic",
    "pentago",
];

/// Small games a second method can check exactly (see [`reference`]).
const SMALL: &[&str] = &[
    "connect4:4x4",
    "connect4:5x4:k3",
    "connect4:4x5",
    "popout:4x4",
];

fn start(spec: &str) -> AnyGame {
    spec.parse::<GameSpec>().expect("a valid spec").start()
}

/// The game a byte picks from `list`.
fn pick(list: &[&'static str], byte: Option<&u8>) -> &'static str {
    list[byte.copied().unwrap_or(0) as usize % list.len()]
}

fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// An error a user sees: one line.
fn check_message(message: &impl ToString) {
    let message = &message.to_string();
    assert!(!message.is_empty(), "an empty error message");
    assert!(
        !message.chars().any(char::is_control),
        "a message with control characters: {message:?}"
    );
}

/// Game specs: parsed; a valid one prints back to itself and gives a start position.
pub fn spec(data: &[u8]) {
    match text(data).parse::<GameSpec>() {
        Err(e) => {
            assert!(matches!(e, inarow::Error::Spec(_)), "{e:?}");
            check_message(&e)
        }
        Ok(spec) => {
            let again: GameSpec = spec.to_string().parse().expect("a printed spec parses");
            assert_eq!(again, spec);
            with_game!(spec.start(), g => {
                assert_eq!(g.ply(), 0);
                assert_eq!(g.status(), Status::Ongoing);
            });
        }
    }
}

/// Move strings and positions of every game: read; a valid one is written back as moves and
/// read again to the same position.
pub fn moves(data: &[u8]) {
    let game = pick(GAMES, data.first());
    let input = text(data.get(1..).unwrap_or_default());
    with_game!(start(game), g => match read_position(g, &input) {
        Err(e) => check_message(&e.to_string()),
        Ok((root, pos, played)) => {
            let written = format_moves(root, &played);
            let (_, again, _) = read_position(root, &written)
                .unwrap_or_else(|e| panic!("'{written}' (written back) does not read: {e}"));
            assert_eq!(again.key(), pos.key(), "'{input}' and '{written}' differ");
            let _ = pos.render();
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            if pos.status() == Status::Ongoing {
                assert!(!list.is_empty(), "an ongoing position without moves");
            }
        }
    });
}

/// Certificates of the small games and the cubes: checked by the rules-only verifier.
pub fn certificate(data: &[u8]) {
    let game = pick(
        &[
            "connect4:4x4",
            "connect4:5x4:k3",
            "popout:4x4",
            "qubic",
            "cube",
        ],
        data.first(),
    );
    let input = text(data.get(1..).unwrap_or_default());
    with_game!(start(game), g => if let Err(e) = verify(g, &input) {
        check_message(&e);
    });
}

/// The game of the book and database targets: small enough to rebuild in milliseconds.
const TINY: &str = "connect4:3x3:k3";

/// Books: read; a book that reads answers only scores a score can be.
pub fn book(data: &[u8]) {
    let game = start("connect4:4x4");
    with_game!(game, g => match Book::parse(data.to_vec(), "fuzz", &g.name()) {
        Err(e) => check_message(&e),
        Ok(book) => for_each_position(g, 3, |p| {
            if let Some(score) = book.lookup(&p) {
                assert!(score.abs() <= 8, "score {score} in a 4x4 book");
            }
        }),
    });
}

/// Databases: read; a database that reads answers every position.
pub fn database(data: &[u8]) {
    let AnyGame::Connect4(ConnectBoard::Narrow(g)) = start(TINY) else {
        unreachable!("{TINY} is a narrow board")
    };
    match Database::parse(data.to_vec(), "fuzz", &g) {
        Err(e) => check_message(&e),
        Ok(db) => for_each_position(g, 9, |p| {
            assert!(db.value(&p).is_some(), "no value for a legal position");
        }),
    }
}

/// Calls `f` on every position reached from `start` in at most `depth` plies.
fn for_each_position<G: Rules>(start: G, depth: u32, mut f: impl FnMut(G)) {
    fn walk<G: Rules>(pos: G, depth: u32, f: &mut impl FnMut(G)) {
        f(pos);
        if depth == 0 || pos.status() != Status::Ongoing {
            return;
        }
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        for m in list {
            walk(pos.play(m), depth - 1, f);
        }
    }
    walk(start, depth, &mut f);
}

/// A directory of this process's own for files the targets write.
fn scratch() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("inarow-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        dir
    })
}

fn retro_options() -> BuildOptions {
    BuildOptions {
        threads: 1,
        mem_bytes: 64 << 20,
        save_every: Duration::ZERO,
        limits: Limits::default(),
        compact: false,
    }
}

fn book_engine<G: Tactics>(g: &G) -> Engine<G> {
    let mut options = Options::default();
    options.config.tt_mb = 1;
    Engine::new(g, options)
}

/// A file built from scratch, as the reference for a build that resumed.
fn built(name: &str, build: impl FnOnce(&Path)) -> Vec<u8> {
    let path = scratch().join(name);
    build(&path);
    std::fs::read(&path).expect("the reference build")
}

/// Partial files of interrupted builds (retrograde analysis, then a book; the first byte
/// chooses): a build that resumes from one either refuses it with a clear message or writes
/// the same file as a build from scratch.
pub fn partial(data: &[u8]) {
    let AnyGame::Connect4(ConnectBoard::Narrow(tiny)) = start(TINY) else {
        unreachable!("{TINY} is a narrow board")
    };
    let AnyGame::Connect4(ConnectBoard::Narrow(small)) = start("connect4:4x4") else {
        unreachable!("4x4 is a narrow board")
    };
    static RETRO: OnceLock<Vec<u8>> = OnceLock::new();
    static BOOK: OnceLock<Vec<u8>> = OnceLock::new();
    let out = scratch().join("resumed");
    let _ = std::fs::remove_file(&out);
    std::fs::write(
        scratch().join("resumed.partial"),
        data.get(1..).unwrap_or_default(),
    )
    .expect("a scratch file");
    let (result, reference) = if data.first().is_some_and(|b| b % 2 == 0) {
        let reference = RETRO.get_or_init(|| {
            built("retro.ref", |p| {
                database::build(&tiny, p, &retro_options(), &|_| {}).expect("a build from scratch");
            })
        });
        let result = database::build(&tiny, &out, &retro_options(), &|_| {}).map(|_| ());
        (result, reference)
    } else {
        let reference = BOOK.get_or_init(|| {
            built("book.ref", |p| {
                Book::build(
                    small,
                    3,
                    p,
                    &mut book_engine(&small),
                    &Limits::default(),
                    |_, _| {},
                )
                .expect("a build from scratch");
            })
        });
        let result = Book::build(
            small,
            3,
            &out,
            &mut book_engine(&small),
            &Limits::default(),
            |_, _| {},
        )
        .map(|_| ());
        (result, reference)
    };
    match result {
        Err(e) => {
            check_message(&e);
            assert!(!out.exists(), "a failed build left '{}'", out.display());
        }
        Ok(()) => assert!(
            std::fs::read(&out).expect("the resumed build") == *reference,
            "a build resumed from a partial file differs from one from scratch"
        ),
    }
}

/// Benchmark files: read and solved under a small node limit; the tally adds up.
pub fn bench(data: &[u8]) {
    let game = session::game(pick(GAMES, data.first())).expect("a valid spec");
    let input = text(data.get(1..).unwrap_or_default());
    let settings = game.fitted(Settings {
        table_mb: 1,
        memory_mb: 16,
        book: BookSource::Off,
        ..Settings::default()
    });
    let mut agent = game.agent(&settings, 1).expect("a small agent");
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let mut lines = 0;
    let (tally, problems) = session::bench(
        game.as_ref(),
        agent.as_mut(),
        "fuzz",
        &input,
        Some(8),
        &limits,
        &mut || lines += 1,
    )
    .expect("an exact agent");
    for p in &problems {
        check_message(p);
    }
    assert_eq!(tally.n, lines, "one tally entry a line read");
    let _ = tally.summary("fuzz");
}

/// The methods a search can be asked for (`None`: the game's default).
const METHODS: &[Option<&str>] = &[
    None,
    Some("gallop"),
    Some("bisect"),
    Some("mtdf"),
    Some("deepening"),
    Some("ab"),
    Some("pns"),
    Some("pn2"),
    Some("dfpn"),
    Some("minimax"),
    Some("tss"),
];

/// Searches: a position of any game reached by moves the bytes choose, solved and analyzed by
/// any method under tiny node, time and memory limits. An answer is checked against a second method
/// on the small boards.
///
/// Bytes: game, method, flags (weak, distance, two threads, analyze, a 1 ms time limit), node
/// limit, memory, then one byte per move.
pub fn search(data: &[u8]) {
    let [game, method, flags, nodes, memory, line @ ..] = data else {
        return;
    };
    let spec = pick(GAMES, Some(game));
    let method = METHODS[*method as usize % METHODS.len()];
    let mut options = Options {
        algorithm: method.map(|m| m.parse::<Algorithm>().expect("a method")),
        ..Options::default()
    };
    if let Some(m) = method.filter(|_| options.algorithm == Some(Algorithm::AlphaBeta)) {
        options.config.driver = m.parse().expect("a driver");
    }
    options.weak = flags & 1 != 0;
    options.distance = flags & 2 != 0;
    options.config.threads = if flags & 4 != 0 { 2 } else { 1 };
    options.config.tt_mb = (*memory % 3) as usize;
    options.mem_mb = [0, 1, 4, 16][(*memory / 3 % 4) as usize];
    // Without the tiny time limit, a second one still bounds the run: a node limit alone may
    // rightly take minutes where a node is dear (a proof-number expansion on Pentago judges
    // ~250 children by their safe moves), and the fuzzer takes a long run for a hang.
    let limits = Limits {
        time: Some(Duration::from_millis(if flags & 16 != 0 {
            1
        } else {
            2000
        })),
        nodes: Some(1 + *nodes as u64 * 200),
        ..Limits::default()
    };
    let analyze = flags & 8 != 0;
    with_game!(start(spec), g => {
        let mut pos = g;
        for &b in line {
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            if pos.status() != Status::Ongoing || list.is_empty() {
                break;
            }
            pos = pos.play(list[b as usize % list.len()]);
        }
        let mut engine = match Engine::try_new(&pos, options.clone()) {
            Ok(engine) => engine,
            Err(e) => return check_message(&e),
        };
        let weak = engine.is_weak();
        let check = |p: &_, score: i32| {
            if let Some(right) = reference(spec, p) {
                let agree = if weak { score.signum() == right.signum() } else { score == right };
                assert!(agree, "{spec} {method:?}: score {score}, the reference says {right}");
            }
        };
        if analyze {
            for ms in engine.analyze(&pos, &limits) {
                if let Some(score) = ms.score {
                    check(&pos.play(ms.mv), -score);
                }
            }
        } else {
            let report = engine.solve(&pos, &limits);
            match report.score {
                Some(score) => check(&pos, score),
                None => assert!(report.stopped.is_some(), "no score and no reason"),
            }
        }
    });
}

/// The exact score of `pos` on the small boards by a second method: Connect Four by the
/// default alpha-beta without limits, PopOut 4x4 from its strong solution (built once);
/// `None` elsewhere.
fn reference<G: Tactics>(spec: &str, pos: &G) -> Option<i32> {
    if !SMALL.contains(&spec) || pos.status() != Status::Ongoing {
        return None;
    }
    if spec.starts_with("popout") {
        return popout_value(pos);
    }
    let mut options = Options::default();
    options.config.tt_mb = 1;
    Engine::new(pos, options)
        .solve(pos, &Limits::default())
        .score
}

/// The win / draw / loss value of a PopOut 4x4 position from its strong solution.
fn popout_value<G: Rules>(pos: &G) -> Option<i32> {
    static DB: OnceLock<PathBuf> = OnceLock::new();
    let path = DB.get_or_init(|| {
        let path = scratch().join("popout-4x4.db");
        with_game!(start("popout:4x4"), g => {
            database::build(&g, &path, &retro_options(), &|_| {}).expect("the PopOut 4x4 database");
        });
        path
    });
    let db = database::open(path, pos).ok()?;
    Some(match db.lookup(pos)? {
        RetroValue::Win(_) => 1,
        RetroValue::Draw => 0,
        RetroValue::Loss(_) => -1,
    })
}
