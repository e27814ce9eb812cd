//! Helpers shared by the test modules.

use inarow::game::{AnyGame, GameSpec, Status};
use inarow::search::Driver;
use std::path::PathBuf;

/// Runs `$body` with `$g` bound to the Connect Four board inside an [`AnyGame`]; any other game
/// is a bug of the test.
macro_rules! with_connect {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            inarow::game::AnyGame::Connect4(board) => match board {
                inarow::game::ConnectBoard::Standard($g) => $body,
                inarow::game::ConnectBoard::Narrow($g) => $body,
                inarow::game::ConnectBoard::Wide($g) => $body,
            },
            other => panic!("a Connect Four board was expected, not {other:?}"),
        }
    };
}

/// Runs `$body` with `$g` bound to the PopOut board inside an [`AnyGame`].
macro_rules! with_popout {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            inarow::game::AnyGame::PopOut(board) => match board {
                inarow::game::PopOutBoard::Standard($g) => $body,
                inarow::game::PopOutBoard::Narrow($g) => $body,
            },
            other => panic!("a PopOut board was expected, not {other:?}"),
        }
    };
}

/// Runs `$body` with `$g` bound to a board of a game with a numbering ([`inarow::game::Indexed`]):
/// Connect Four or PopOut.
macro_rules! with_indexed {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            inarow::game::AnyGame::Connect4(board) => match board {
                inarow::game::ConnectBoard::Standard($g) => $body,
                inarow::game::ConnectBoard::Narrow($g) => $body,
                inarow::game::ConnectBoard::Wide($g) => $body,
            },
            inarow::game::AnyGame::PopOut(board) => match board {
                inarow::game::PopOutBoard::Standard($g) => $body,
                inarow::game::PopOutBoard::Narrow($g) => $body,
            },
            other => panic!("a game with a numbering was expected, not {other:?}"),
        }
    };
}

/// Every root driver of the solver.
pub const DRIVERS: [Driver; 5] = [
    Driver::FullWindow,
    Driver::Bisection,
    Driver::Gallop,
    Driver::Mtdf,
    Driver::Deepening,
];

/// The public data folder, `../shared/data` beside the clone (CI has it there; see the README).
fn shared_data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data")
}

/// A sub-folder or file of the public data, for a test built ignored without it
/// (`#[cfg_attr(not(shared_data), ignore = "needs the public data in ../shared/data")]`, so that
/// the runner lists it as ignored with the reason): one run anyway (`--include-ignored`) fails
/// here, naming what is missing, instead of passing with nothing checked.
pub fn shared_path(relative: &str) -> PathBuf {
    let path = shared_data().join(relative);
    assert!(
        path.exists(),
        "this test needs the public data '../shared/data/{relative}' beside the clone (the \
         README says where it comes from); without ../shared/data it is built ignored"
    );
    path
}

/// The tests that need the public data are built ignored without it (build.rs), so the build
/// must know whether it is there: data added after the build would leave them ignored unrun.
#[test]
fn the_build_saw_the_public_data_as_it_is() {
    let there = shared_data().is_dir();
    assert_eq!(
        there,
        cfg!(shared_data),
        "../shared/data is {} but the tests were built {} it: `touch build.rs` and run again",
        if there { "there" } else { "gone" },
        if cfg!(shared_data) { "with" } else { "without" }
    );
}

/// A path for a scratch file of this test run.
pub fn temp_file(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("inarow-test-{}-{name}", std::process::id()))
}

/// Parses a game spec that must be valid.
pub fn spec(text: &str) -> GameSpec {
    text.parse()
        .unwrap_or_else(|e| panic!("spec '{text}' should parse: {e}"))
}

/// The empty board of a spec that must be valid.
pub fn start(text: &str) -> AnyGame {
    spec(text).start()
}

/// The score, for the side to move at ply `ply`, of a game on a board of `cells` cells that ends
/// on ply `end` (1-based) with `status`: a win on ply `e` is worth `(cells + 2 - e) / 2` to the
/// winner (published convention, e.g. 22 - stones of the winner on 7x6).
pub fn score_for(cells: u32, ply: u32, end: u32, status: Status) -> i32 {
    use inarow::game::Player;
    let value = (cells as i32 + 2 - end as i32) / 2;
    match status {
        Status::Draw => 0,
        Status::Ongoing => panic!("the game has not ended"),
        Status::Win(p) => {
            if p == Player::at_ply(ply) {
                value
            } else {
                -value
            }
        }
    }
}

/// The library's deterministic generator: a seed gives the same cases on every machine.
pub use inarow::search::rng::SplitMix;

/// A plain grid model of Connect Four, written from the rules alone: the reference that the
/// bitboard implementation is checked against.
#[derive(Clone, Debug)]
pub struct Naive {
    pub width: usize,
    pub height: usize,
    pub k: usize,
    /// `grid[col][row]`, row 0 at the bottom: 0 empty, 1 first player, 2 second.
    pub grid: Vec<Vec<u8>>,
    pub ply: u32,
    pub winner: Option<u8>,
}

impl Naive {
    pub fn new(width: usize, height: usize, k: usize) -> Naive {
        Naive {
            width,
            height,
            k,
            grid: vec![vec![0; height]; width],
            ply: 0,
            winner: None,
        }
    }

    fn column_height(&self, col: usize) -> usize {
        self.grid[col].iter().take_while(|&&c| c != 0).count()
    }

    pub fn is_over(&self) -> bool {
        self.winner.is_some() || self.ply as usize == self.width * self.height
    }

    /// Whether a stone may be dropped in `col` (0-based) now.
    pub fn can_play(&self, col: usize) -> bool {
        !self.is_over() && col < self.width && self.column_height(col) < self.height
    }

    /// The legal columns, left to right.
    pub fn legal(&self) -> Vec<usize> {
        (0..self.width).filter(|&c| self.can_play(c)).collect()
    }

    pub fn play(&mut self, col: usize) {
        assert!(self.can_play(col), "naive model: illegal move {col}");
        let row = self.column_height(col);
        let me = if self.ply.is_multiple_of(2) { 1 } else { 2 };
        self.grid[col][row] = me;
        self.ply += 1;
        if self.line_through(col, row) {
            self.winner = Some(me);
        }
    }

    /// Whether the stone at (col, row) is part of a line of `k` of its colour.
    fn line_through(&self, col: usize, row: usize) -> bool {
        let me = self.grid[col][row];
        let at = |c: i64, r: i64| -> bool {
            c >= 0
                && r >= 0
                && (c as usize) < self.width
                && (r as usize) < self.height
                && self.grid[c as usize][r as usize] == me
        };
        [(1i64, 0i64), (0, 1), (1, 1), (1, -1)]
            .iter()
            .any(|&(dc, dr)| {
                let mut run = 1;
                for sign in [1i64, -1] {
                    let (mut c, mut r) = (col as i64 + sign * dc, row as i64 + sign * dr);
                    while at(c, r) {
                        run += 1;
                        c += sign * dc;
                        r += sign * dr;
                    }
                }
                run >= self.k
            })
    }

    pub fn status(&self) -> Status {
        use inarow::game::Player;
        match self.winner {
            Some(1) => Status::Win(Player::First),
            Some(_) => Status::Win(Player::Second),
            None if self.is_over() => Status::Draw,
            None => Status::Ongoing,
        }
    }

    /// The board as the library's `render` is documented to draw it.
    pub fn render(&self) -> String {
        render_grid(&self.grid, self.height)
    }
}

/// A grid (`grid[col][row]`, row 0 at the bottom: 0 empty, 1 first player, 2 second) as the
/// library's `render` is documented to draw it: top row first, `X` first player, `O` second, `.`
/// empty, cells separated by spaces, then the column labels mod 10.
pub fn render_grid(grid: &[Vec<u8>], height: usize) -> String {
    let mut s = String::new();
    for row in (0..height).rev() {
        let cells: Vec<&str> = grid
            .iter()
            .map(|column| match column[row] {
                0 => ".",
                1 => "X",
                _ => "O",
            })
            .collect();
        s += &cells.join(" ");
        s.push('\n');
    }
    let labels: Vec<String> = (1..=grid.len()).map(|c| (c % 10).to_string()).collect();
    s += &labels.join(" ");
    s.push('\n');
    s
}
