//! What the session costs ([`inarow::session`]): the same work through the typed engine and
//! through the session's dynamic position and solver, side by side. A front pays the session's
//! price (reading the move string, the erased calls, the plain-data answer) on every request,
//! so each pair should be within noise.
//!
//! Run: `cargo bench -p inarow --bench session`

use divan::{Bencher, black_box};
use inarow::engine::agent::{Level, TypedAgent};
use inarow::engine::{Engine, Limits, Options};
use inarow::game::{Connect, GameLine, Standard, read_line};
use inarow::session::{Ask, BookSource, Session, Settings, Source, game as read_game};

fn main() {
    divan::main();
}

/// Positions of Pons' public set Test_L3_R1 (end games, microseconds each: the session's
/// overhead is the largest share of them) and Test_L2_R1 (midgames).
const POSITIONS: [&str; 8] = [
    "2252576253462244111563365343671351441",
    "7422341735647741166133573473242566",
    "23163416124767223154467471272416755633",
    "65214673556155731566316327373221417",
    "5554224333234511764415115",
    "52753311433677442422121",
    "271713432331713132",
    "3455565261655364217",
];

fn options() -> Options {
    let mut options = Options::default();
    options.config.tt_mb = 16;
    options
}

fn settings() -> Settings {
    Settings {
        table_mb: 16,
        book: BookSource::Off,
        ..Settings::default()
    }
}

#[divan::bench]
fn solve_by_engine(bencher: Bencher) {
    let start: Connect<u64, Standard> = Connect::new(Standard);
    let mut engine = Engine::try_new(&start, options()).expect("an engine");
    engine.ready();
    bencher.bench_local(|| {
        let mut sum = 0;
        for text in POSITIONS {
            let line = read_line(start, text).expect("a position");
            engine.reset();
            sum += engine
                .solve(black_box(&line), &Limits::default())
                .score
                .expect("solved");
        }
        sum
    });
}

#[divan::bench]
fn solve_by_session(bencher: Bencher) {
    let game = read_game("connect4").expect("the game");
    let mut solver = game.agent(&settings(), 1).expect("a solver");
    solver.ready();
    bencher.bench_local(|| {
        let mut sum = 0;
        for text in POSITIONS {
            let pos = game.read(text).expect("a position");
            solver.reset();
            sum += solver
                .solve(black_box(pos.as_ref()), &Ask::default())
                .expect("solved")
                .score
                .expect("solved");
        }
        sum
    });
}

#[divan::bench]
fn solve_many_by_session(bencher: Bencher) {
    let game = read_game("connect4").expect("the game");
    let session = Session::new(1, 1);
    let sources: Vec<Source> = POSITIONS
        .iter()
        .map(|t| Source::Text(t.to_string()))
        .collect();
    bencher.bench_local(|| {
        let mut solvers = session
            .take(game.as_ref(), &settings(), 1)
            .expect("a solver");
        let solved = game.solve_many(&sources, &Ask::default(), &mut solvers);
        session.give_back(game.as_ref(), solvers);
        solved.expect("solved").len()
    });
}

#[divan::bench]
fn analyze_by_agent(bencher: Bencher) {
    let start: Connect<u64, Standard> = Connect::new(Standard);
    let mut agent = TypedAgent::new(Level::Best, &start, options(), 1).expect("an agent");
    bencher.bench_local(|| {
        let mut moves = 0;
        for text in &POSITIONS[..4] {
            let line: GameLine<_> = read_line(start, text).expect("a position");
            agent.engine_mut().expect("exact").reset();
            moves += agent
                .analyze(black_box(&line), &Limits::default())
                .moves
                .len();
        }
        moves
    });
}

#[divan::bench]
fn analyze_by_session(bencher: Bencher) {
    let game = read_game("connect4").expect("the game");
    let mut solver = game.agent(&settings(), 1).expect("a solver");
    solver.ready();
    bencher.bench_local(|| {
        let mut moves = 0;
        for text in &POSITIONS[..4] {
            let pos = game.read(text).expect("a position");
            solver.reset();
            moves += solver
                .analyze(black_box(pos.as_ref()), &Limits::default())
                .expect("analyzed")
                .moves
                .len();
        }
        moves
    });
}
