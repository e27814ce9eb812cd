//! A game of our own where a move can end the game in any way: Twist, a small Pentago. The
//! board is 2 rows of 4 cells, two 2x2 quadrants side by side; a move places a stone on an
//! empty cell and then turns one quadrant a quarter turn either way. Three in a row (along a
//! row) wins. As in Pentago, a line made by placing wins at once; otherwise the turn may make
//! lines for either player: for both, a draw; for one, that player wins, even if it is the
//! opponent of the mover. A full board without a line is a draw.
//!
//! The game implements only the rules and the notation; every accelerator keeps its default.
//! The searches must score each finished child as what it is: alpha-beta (every root driver,
//! with and without a table) against the exhaustive reference on every position, the
//! proof-number searches and the engine likewise, and certificates checked by the verifier.

use inarow::Error;
use inarow::certificate::verify;
use inarow::engine::{Algorithm, Engine, Options};
use inarow::game::{
    Bounded, Finite, MoveList, Notation, Player, RankedMove, Rules, Status, Tactics,
};
use inarow::limits::{Clock, Limits};
use inarow::search::minimax::Minimax;
use inarow::search::{AlphaBeta, Config, Driver};
use std::collections::{HashMap, HashSet};

/// Cells `row * 4 + column`; stones of each player as bit sets.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
struct Twist {
    stones: [u8; 2],
}

/// The three-cell lines: columns 0-2 and 1-3 of each row.
const LINES: [u8; 4] = [0b0000_0111, 0b0000_1110, 0b0111_0000, 0b1110_0000];

/// A quadrant's cells in turning order (a quarter turn moves each to the next).
const QUADRANTS: [[u32; 4]; 2] = [[0, 1, 5, 4], [2, 3, 7, 6]];

fn has_line(set: u8) -> bool {
    LINES.iter().any(|&l| l & !set == 0)
}

/// `set` with quadrant `q` turned one step forward (`forward`) or back.
fn turn(set: u8, q: usize, forward: bool) -> u8 {
    let cells = QUADRANTS[q];
    let mut out = set;
    for i in 0..4 {
        let to = if forward { (i + 1) % 4 } else { (i + 3) % 4 };
        out &= !(1 << cells[to]);
    }
    for i in 0..4 {
        let to = if forward { (i + 1) % 4 } else { (i + 3) % 4 };
        if set & (1 << cells[i]) != 0 {
            out |= 1 << cells[to];
        }
    }
    out
}

impl Twist {
    fn start() -> Twist {
        Twist { stones: [0, 0] }
    }

    fn empty(&self) -> u8 {
        !(self.stones[0] | self.stones[1])
    }
}

/// A move: cell (0..8), quadrant (0..2), turn forward or back, as `cell * 4 + q * 2 + back`.
impl Rules for Twist {
    type Move = u8;
    type Kind = Finite;

    fn name(&self) -> String {
        "twist".to_string()
    }
    fn ply(&self) -> u32 {
        (self.stones[0] | self.stones[1]).count_ones()
    }
    fn legal_moves(&self, out: &mut MoveList<u8>) {
        if self.status() != Status::Ongoing {
            return;
        }
        for cell in 0..8 {
            if self.empty() & (1 << cell) != 0 {
                out.extend((0..4).map(|r| cell * 4 + r));
            }
        }
    }
    fn play(&self, m: u8) -> Self {
        let me = (self.ply() % 2) as usize;
        let mut stones = self.stones;
        stones[me] |= 1 << (m / 4);
        if !has_line(stones[me]) {
            let (q, forward) = ((m % 4 / 2) as usize, m.is_multiple_of(2));
            stones = stones.map(|s| turn(s, q, forward));
        }
        Twist { stones }
    }
    fn status(&self) -> Status {
        match (has_line(self.stones[0]), has_line(self.stones[1])) {
            (true, true) => Status::Draw,
            (true, false) => Status::Win(Player::First),
            (false, true) => Status::Win(Player::Second),
            (false, false) if self.ply() == 8 => Status::Draw,
            _ => Status::Ongoing,
        }
    }
    fn key(&self) -> u128 {
        self.stones[0] as u128 | (self.stones[1] as u128) << 8
    }
    fn key_bits(&self) -> u32 {
        16
    }
    fn move_code(&self, m: u8) -> u16 {
        m as u16
    }
}

impl Bounded for Twist {
    fn max_plies(&self) -> u32 {
        8
    }
}

impl Tactics for Twist {}

/// Nothing beyond the defaults: alpha-beta, exact scores.
impl inarow::game::Variant for Twist {}

/// A move is the cell (1 to 8), the quadrant (`l` or `r`) and the turn (`+` or `-`): `5l+`.
impl Notation for Twist {
    fn describe_moves(&self) -> String {
        "the cell 1-8, the quadrant l or r and the turn + or -, like 5l+".to_string()
    }
    fn parse_move(&self, token: &str) -> Result<u8, Error> {
        let b = token.as_bytes();
        if b.len() != 3 || !(b'1'..=b'8').contains(&b[0]) {
            return Err(Error::Input(format!("'{token}' is not a move like 5l+")));
        }
        let cell = b[0] - b'1';
        let q = match b[1] {
            b'l' => 0,
            b'r' => 1,
            _ => return Err(Error::Input(format!("'{token}': the quadrant is l or r"))),
        };
        let back = match b[2] {
            b'+' => 0,
            b'-' => 1,
            _ => return Err(Error::Input(format!("'{token}': the turn is + or -"))),
        };
        if self.empty() & (1 << cell) == 0 {
            return Err(Error::Input(format!("cell {} is taken", cell + 1)));
        }
        Ok(cell * 4 + q * 2 + back)
    }
    fn format_move(&self, m: u8) -> String {
        let q = if m % 4 < 2 { 'l' } else { 'r' };
        let turn = if m.is_multiple_of(2) { '+' } else { '-' };
        format!("{}{q}{turn}", m / 4 + 1)
    }
    fn render(&self) -> String {
        (0..2)
            .rev()
            .map(|row| {
                (0..4)
                    .map(|c| {
                        match (
                            self.stones[0] >> (row * 4 + c) & 1,
                            self.stones[1] >> (row * 4 + c) & 1,
                        ) {
                            (1, _) => 'X',
                            (_, 1) => 'O',
                            _ => '.',
                        }
                    })
                    .collect::<String>()
                    + "\n"
            })
            .collect()
    }
}

/// Every position reachable from the start, with the moves of one line reaching it.
fn every_position() -> Vec<(Twist, Vec<u8>)> {
    let mut seen = HashSet::new();
    let mut out = vec![(Twist::start(), Vec::new())];
    seen.insert(Twist::start());
    let mut i = 0;
    while i < out.len() {
        let (pos, line) = out[i].clone();
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        for m in moves {
            let child = pos.play(m);
            if seen.insert(child) {
                let mut l = line.clone();
                l.push(m);
                out.push((child, l));
            }
        }
        i += 1;
    }
    out
}

#[test]
fn moves_end_the_game_in_every_way() {
    // The game is what it claims: some moves lose at once, some draw by lines for both, and
    // the default accelerators follow the rules.
    let (mut lose_at_once, mut both_lines, mut wins_by_turning) = (0, 0, 0);
    for (pos, _) in every_position() {
        let me = pos.side_to_move();
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let mut safe = MoveList::<RankedMove<u8>>::new();
        if !pos.has_winning_move() {
            pos.safe_moves(&mut safe);
        }
        for &m in &moves {
            let child = pos.play(m);
            match child.status() {
                Status::Win(p) if p != me => lose_at_once += 1,
                Status::Draw if child.ply() < 8 => both_lines += 1,
                Status::Win(_) if !has_line(pos.stones[me as usize] | 1 << (m / 4)) => {
                    wins_by_turning += 1
                }
                _ => {}
            }
            if !pos.has_winning_move() {
                let is_safe = safe.iter().any(|r| r.mv == m);
                let loses_soon = match child.status() {
                    Status::Win(p) => p != me,
                    Status::Draw => false,
                    Status::Ongoing => child.has_winning_move(),
                };
                assert_eq!(is_safe, !loses_soon, "{pos:?} {m}");
            }
        }
    }
    assert!(lose_at_once > 100, "{lose_at_once} moves that lose at once");
    assert!(
        both_lines > 100,
        "{both_lines} moves that make lines for both"
    );
    assert!(wins_by_turning > 100, "{wins_by_turning} wins by turning");
}

#[test]
fn alpha_beta_agrees_with_the_exhaustive_reference_everywhere() {
    let positions = every_position();
    let mut memo = Minimax::new();
    let values: HashMap<Twist, i32> = positions.iter().map(|(p, _)| (*p, memo.value(p))).collect();
    // The empty board: the first player wins with its third stone at the latest.
    assert!(values[&Twist::start()] > 0);
    let drivers = [
        Driver::FullWindow,
        Driver::Bisection,
        Driver::Gallop,
        Driver::Mtdf,
        Driver::Deepening,
    ];
    for driver in drivers {
        for tt_mb in [0, 1] {
            let config = Config {
                driver,
                tt_mb,
                ..Config::default()
            };
            let mut solver = AlphaBeta::new(&Twist::start(), config);
            for (pos, line) in &positions {
                let want = values[pos];
                assert_eq!(
                    solver.solve(pos, false, &mut Clock::default()),
                    Ok(want),
                    "{driver} {line:?}"
                );
                assert_eq!(
                    solver.solve(pos, true, &mut Clock::default()),
                    Ok(want.signum()),
                    "{driver} {line:?} weak"
                );
                assert_eq!(
                    solver.value_at_most(pos, want, &mut Clock::default()),
                    Ok(true)
                );
                assert_eq!(
                    solver.value_at_most(pos, want - 1, &mut Clock::default()),
                    Ok(false)
                );
            }
        }
    }
}

#[test]
fn proof_numbers_and_the_engine_agree_too() {
    let positions = every_position();
    let mut memo = Minimax::new();
    let mut engine = Engine::new(&Twist::start(), Options::default());
    let mut proof_numbers: Vec<Engine<Twist>> = [Algorithm::DfPn, Algorithm::Pns, Algorithm::Pn2]
        .into_iter()
        .map(|a| {
            let options = Options {
                algorithm: Some(a),
                mem_mb: 16,
                ..Options::default()
            };
            Engine::new(&Twist::start(), options)
        })
        .collect();
    for (i, (pos, line)) in positions.iter().enumerate() {
        let want = memo.value(pos);
        for e in &mut proof_numbers {
            assert_eq!(
                e.solve(pos, &Limits::default()).score,
                Some(want.signum()),
                "{} {line:?}",
                e.method()
            );
        }
        if i % 7 != 0 {
            continue;
        }
        // Best moves and the principal variation, from the rules' point of view.
        let report = engine.solve_detailed(pos, &Limits::default());
        assert_eq!(report.score, Some(want), "{line:?}");
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let best: Vec<u8> = moves
            .iter()
            .copied()
            .filter(|&m| -memo.value(&pos.play(m)) == want)
            .collect();
        assert_eq!(report.best_moves, best, "{line:?}");
        let end = report.pv.iter().fold(*pos, |p, &m| p.play(m));
        assert_ne!(
            end.status(),
            Status::Ongoing,
            "{line:?}: the line ends the game"
        );
        let mut p = *pos;
        for &m in &report.pv {
            let before = memo.value(&p);
            p = p.play(m);
            assert_eq!(
                -memo.value(&p),
                before,
                "{line:?}: the line keeps the value"
            );
        }
    }
}

#[test]
fn certificates_of_every_outcome_verify() {
    let mut outcomes = HashSet::new();
    let mut engine = Engine::new(&Twist::start(), Options::default());
    let mut memo = Minimax::new();
    for (pos, line) in every_position().into_iter().step_by(11) {
        if pos.status() != Status::Ongoing {
            continue;
        }
        let text = engine
            .certificate_file(&Twist::start(), &line, &Limits::default())
            .unwrap_or_else(|e| panic!("{line:?}: {e}"));
        for section in text.split("inarow-proof").skip(1) {
            let summary = verify(Twist::start(), &format!("inarow-proof{section}"))
                .unwrap_or_else(|e| panic!("{line:?}: {e}"));
            assert_eq!(summary.unused_lines, 0);
        }
        outcomes.insert(memo.value(&pos).signum());
    }
    assert_eq!(
        outcomes.len(),
        3,
        "wins, draws and losses were all certified"
    );
}

#[test]
fn commands_that_need_a_numbering_refuse_a_game_without_one() {
    use inarow::engine::knowledge::database::{self, BuildOptions};
    use std::path::Path;
    let err = database::open(Path::new("nowhere.db"), &Twist::start())
        .err()
        .unwrap();
    assert_eq!(
        err,
        inarow::Error::Unsupported(
            "twist has no numbering of its positions: retrograde analysis and databases need one"
                .into()
        )
    );
    let options = BuildOptions {
        threads: 1,
        mem_bytes: 1 << 20,
        save_every: std::time::Duration::from_secs(60),
        limits: inarow::engine::Limits::default(),
        compact: false,
    };
    let err = database::build(&Twist::start(), Path::new("nowhere.db"), &options, &|_| {});
    let err = err.unwrap_err();
    assert!(matches!(err, Error::Unsupported(_)), "{err:?}");
    assert!(err.to_string().contains("has no numbering"));
    assert!(!Path::new("nowhere.db").exists());
}
