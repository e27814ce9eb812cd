//! The rules of PopOut: move strings and their errors, the pop-win rules, the draw claim on a
//! full board, keys and mirror symmetry, random games against a plain grid model written from
//! the rules alone (popout-thesis §2.1), and the published numbers of legal positions.

use super::common::{SplitMix, render_grid, shared_path, spec, start};
use inarow::game::{
    AnyGame, ConnectBoard, GameSpec, MAX_MOVES, MoveList, Notation, Player, PopMove, PopOutBoard,
    RankedMove, Repeating, Rules, SafeChoice, Status, Tactics, format_moves, play_moves,
};
use std::collections::{HashMap, HashSet};

/// Plays `moves` and returns the error's (index, reason), which must occur.
fn error_of(spec_text: &str, moves: &str) -> (usize, String) {
    with_popout!(start(spec_text), g => match play_moves(g, moves) {
        Ok((pos, _)) => panic!("{spec_text} '{moves}' should be rejected, got ply {}", pos.ply()),
        Err(e) => (e.index, e.reason.clone()),
    })
}

/// The status after `moves`, which must be legal; the game must not end before the last move.
fn status_after(spec_text: &str, moves: &str) -> Status {
    with_popout!(start(spec_text), g => {
        let (pos, played) = play_moves(g, moves)
            .unwrap_or_else(|e| panic!("{spec_text} '{moves}' should be legal: {e}"));
        let mut p = g;
        for (i, &m) in played.iter().enumerate() {
            assert_eq!(p.status(), Status::Ongoing, "'{moves}': over before move {}", i + 1);
            p = p.play(m);
        }
        // The grid model agrees.
        let (w, h) = (pos.grid().width as usize, pos.grid().height as usize);
        let mut model = NaivePop::new(w, h, 4);
        for &m in &played {
            model.play(m);
        }
        assert_eq!(model.status(), pos.status(), "grid model after '{moves}'");
        pos.status()
    })
}

#[test]
fn spec_parsing() {
    assert_eq!(
        spec("popout"),
        GameSpec::PopOut {
            width: 7,
            height: 6
        }
    );
    assert_eq!(
        spec("popout:4x5"),
        GameSpec::PopOut {
            width: 4,
            height: 5
        }
    );
    for good in ["popout:7x6", "popout:4x4", "popout:8x7", "popout:10x5"] {
        assert_eq!(spec(good).to_string(), good, "Display round trip");
        with_popout!(spec(good).start(), g => assert_eq!(g.name(), good));
    }
    assert!(matches!(
        start("popout"),
        AnyGame::PopOut(PopOutBoard::Standard(_))
    ));
    assert!(matches!(
        start("popout:7x6"),
        AnyGame::PopOut(PopOutBoard::Standard(_))
    ));
    assert!(matches!(
        start("popout:6x7"),
        AnyGame::PopOut(PopOutBoard::Narrow(_))
    ));
    for bad in [
        "popout:0x5",
        "popout:3x3",
        "popout:9x7",
        "popout:7x6:k4",
        "popout:7-6",
        "popout:ax6",
        "popout:7x",
        "popout7x6",
    ] {
        let e = bad
            .parse::<GameSpec>()
            .expect_err(&format!("'{bad}' should be rejected"));
        assert!(
            e.to_string().contains(bad),
            "the error should quote '{bad}': {e}"
        );
    }
    // Connect Four is unchanged.
    assert_eq!(spec("connect4"), GameSpec::default());
    assert!(matches!(
        start("connect4"),
        AnyGame::Connect4(ConnectBoard::Standard(_))
    ));
}

#[test]
fn notation_round_trips() {
    with_popout!(start("popout"), g => {
        let (pos, moves) = play_moves(g, "44p4").unwrap();
        assert_eq!(moves, vec![PopMove::Drop(3), PopMove::Drop(3), PopMove::Pop(3)]);
        assert_eq!(format_moves(g, &moves), "44p4");
        assert_eq!(pos.ply(), 3);
        assert_eq!(pos.side_to_move(), Player::Second);
        // The first player's disc is gone; the second's fell to the bottom.
        assert_eq!(
            pos.render(),
            ". . . . . . .\n\
             . . . . . . .\n\
             . . . . . . .\n\
             . . . . . . .\n\
             . . . . . . .\n\
             . . . O . . .\n\
             1 2 3 4 5 6 7\n"
        );
        assert_eq!(pos.name(), "popout:7x6");
        // The comma form is read on any board.
        let (_, same) = play_moves(g, "4, 4 ,p4").unwrap();
        assert_eq!(same, moves);
        // Every move of a position formats and parses back to itself.
        let (pos, _) = play_moves(g, "4455p4").unwrap();
        let mut legal = MoveList::new();
        pos.legal_moves(&mut legal);
        assert!(legal.contains(&PopMove::Pop(3)));
        for m in legal {
            assert_eq!(pos.parse_move(&pos.format_move(m)), Ok(m));
        }
    });
    // More than 9 columns: comma-separated.
    with_popout!(start("popout:10x5"), g => {
        let (pos, moves) = play_moves(g, "10,1,p10").unwrap();
        assert_eq!(moves, vec![PopMove::Drop(9), PopMove::Drop(0), PopMove::Pop(9)]);
        assert_eq!(format_moves(g, &moves), "10,1,p10");
        assert_eq!(
            pos.render(),
            ". . . . . . . . . .\n\
             . . . . . . . . . .\n\
             . . . . . . . . . .\n\
             . . . . . . . . . .\n\
             O . . . . . . . . .\n\
             1 2 3 4 5 6 7 8 9 0\n"
        );
        let e = play_moves(g, "10,p11").expect_err("column 11 of 10");
        assert_eq!(e.index, 2);
    });
    // The draw claim.
    with_popout!(start("popout:4x4"), g => {
        let (_, moves) = play_moves(g, "1234123443214321d").unwrap();
        assert_eq!(moves.last(), Some(&PopMove::Draw));
        assert_eq!(format_moves(g, &moves), "1234123443214321d");
    });
}

#[test]
fn move_string_errors() {
    let cases: [(&str, &str, usize, &str); 16] = [
        ("popout", "p1", 1, "empty"),
        ("popout", "44p3", 3, "empty"),
        ("popout", "1p1", 2, "opponent"),
        ("popout", "12p2", 3, "opponent"),
        ("popout", "1111111", 7, "full"),
        ("popout:4x4", "11111", 5, "full"),
        ("popout", "d", 1, "full board"),
        ("popout:4x4", "123412344321432d", 16, "full board"),
        ("popout", "x", 1, "'x' is not a move"),
        ("popout", "44q", 3, "'q' is not a move"),
        ("popout", "p", 1, "'p' is not a move"),
        ("popout", "4px", 2, "'px' is not a move"),
        ("popout", "8", 1, "column 8 is outside 1..7"),
        ("popout", "0", 1, "column 0 is outside 1..7"),
        ("popout", "4p8", 2, "column 8 is outside 1..7"),
        ("popout", "D", 1, "'D' is not a move"),
    ];
    for (spec_text, moves, index, reason) in cases {
        let (i, r) = error_of(spec_text, moves);
        assert_eq!(i, index, "{spec_text} '{moves}': {r}");
        assert!(
            r.contains(reason),
            "{spec_text} '{moves}': the reason should say '{reason}': {r}"
        );
    }
    // After a win, nothing more is played: the first player wins vertically on ply 7.
    assert_eq!(
        status_after("popout", "1212121"),
        Status::Win(Player::First)
    );
    let (i, r) = error_of("popout", "1212121p1");
    assert_eq!(i, 8, "{r}");
    // After a draw claim, neither.
    let (i, _) = error_of("popout:4x4", "1234123443214321dp1");
    assert_eq!(i, 18);
    // Whitespace around the string is ignored; the empty string is the empty board.
    with_popout!(start("popout"), g => {
        assert_eq!(play_moves(g, " 44p4 ").unwrap().0.ply(), 3);
        assert_eq!(play_moves(g, "").unwrap().0.ply(), 0);
    });
}

#[test]
fn pop_wins() {
    // The pop makes four for both players (second player on the bottom row, first player on
    // the second row): the popper wins.
    assert_eq!(
        status_after("popout", "1223344117p1"),
        Status::Win(Player::First)
    );
    // The pop makes four only for the opponent: the opponent wins.
    assert_eq!(
        status_after("popout", "1223346171p1"),
        Status::Win(Player::Second)
    );
    // Only for the popper: the popper wins.
    assert_eq!(
        status_after("popout", "122331474716p1"),
        Status::Win(Player::First)
    );
    // The second player pops to a win for both.
    assert_eq!(
        status_after("popout", "71223344117p1"),
        Status::Win(Player::Second)
    );
    // A drop still wins as in Connect Four.
    assert_eq!(
        status_after("popout", "1122334"),
        Status::Win(Player::First)
    );
    // has_winning_move sees the pops: before the last move of each line above.
    with_popout!(start("popout"), g => {
        for moves in ["1223344117", "122331474716"] {
            let (pos, _) = play_moves(g, moves).unwrap();
            assert!(pos.has_winning_move(), "'{moves}' + pop 1");
        }
        // A pop that wins only for the opponent is no winning move.
        let (pos, _) = play_moves(g, "1223346171").unwrap();
        assert!(!pos.has_winning_move());
    });
}

#[test]
fn full_board_draw_claim() {
    with_popout!(start("popout:4x4"), g => {
        // A full board without a line: the game goes on; the side to move may pop or claim.
        let (full, _) = play_moves(g, "1234123443214321").unwrap();
        assert!(full.is_full());
        assert_eq!(full.status(), Status::Ongoing);
        assert_eq!(full.side_to_move(), Player::First);
        let mut legal = MoveList::new();
        full.legal_moves(&mut legal);
        // The bottom row is X O X O: the first player may pop columns 1 and 3 (centre first).
        assert_eq!(legal.as_slice(), [PopMove::Pop(2), PopMove::Pop(0), PopMove::Draw]);
        let drawn = full.play(PopMove::Draw);
        assert_eq!(drawn.status(), Status::Draw);
        assert_eq!(drawn.side_to_move(), Player::Second);
        assert_ne!(drawn.key(), full.key());
        let mut none = MoveList::new();
        drawn.legal_moves(&mut none);
        assert!(none.is_empty());
        // The side to move may also play on.
        assert_eq!(full.play(PopMove::Pop(0)).status(), Status::Ongoing);
        // No draw claim before the board is full.
        let (almost, _) = play_moves(g, "123412344321432").unwrap();
        let mut legal = MoveList::new();
        almost.legal_moves(&mut legal);
        assert!(!legal.contains(&PopMove::Draw));
        assert!(legal.contains(&PopMove::Drop(0)));
    });
    assert_eq!(
        status_after("popout:4x4", "1234123443214321d"),
        Status::Draw
    );
}

#[test]
fn keys_ignore_the_move_counter() {
    with_popout!(start("popout"), g => {
        // Drop, drop, pop, pop: the empty board again, first player to move, four plies later.
        let (again, _) = play_moves(g, "12p1p2").unwrap();
        assert_eq!(again.ply(), 4);
        assert_eq!(again, g);
        assert_eq!(again.key(), g.key());
        assert_eq!(again.side_to_move(), Player::First);
        // A position's ply has the parity of its discs (a drop adds one, a pop removes one,
        // each passes the turn): the same board never comes with the other side to move, except
        // after a draw claim.
        let (a, _) = play_moves(g, "2134p3p4").unwrap();
        let (b, _) = play_moves(g, "21").unwrap();
        assert_eq!(a.render(), b.render());
        assert_eq!(a, b);
        assert_eq!(a.key(), b.key());
        assert_eq!((a.ply(), b.ply()), (6, 2));
    });
}

/// A plain grid model of PopOut, written from the rules alone.
#[derive(Clone, Debug)]
struct NaivePop {
    width: usize,
    height: usize,
    k: usize,
    /// `grid[col][row]`, row 0 at the bottom: 0 empty, 1 first player, 2 second.
    grid: Vec<Vec<u8>>,
    ply: u32,
    drawn: bool,
    winner: Option<u8>,
}

impl NaivePop {
    fn new(width: usize, height: usize, k: usize) -> NaivePop {
        NaivePop {
            width,
            height,
            k,
            grid: vec![vec![0; height]; width],
            ply: 0,
            drawn: false,
            winner: None,
        }
    }

    fn to_move(&self) -> u8 {
        if self.ply.is_multiple_of(2) { 1 } else { 2 }
    }

    fn column_height(&self, col: usize) -> usize {
        self.grid[col].iter().take_while(|&&c| c != 0).count()
    }

    fn is_full(&self) -> bool {
        (0..self.width).all(|c| self.column_height(c) == self.height)
    }

    fn is_over(&self) -> bool {
        self.winner.is_some() || self.drawn
    }

    fn is_legal(&self, m: PopMove) -> bool {
        !self.is_over()
            && match m {
                PopMove::Drop(c) => {
                    (c as usize) < self.width && self.column_height(c as usize) < self.height
                }
                PopMove::Pop(c) => {
                    (c as usize) < self.width && self.grid[c as usize][0] == self.to_move()
                }
                PopMove::Draw => self.is_full(),
            }
    }

    /// The legal moves: drops left to right, pops left to right, the draw claim.
    fn legal(&self) -> Vec<PopMove> {
        let w = self.width as u8;
        (0..w)
            .map(PopMove::Drop)
            .chain((0..w).map(PopMove::Pop))
            .chain([PopMove::Draw])
            .filter(|&m| self.is_legal(m))
            .collect()
    }

    /// Whether `player` has a line of `k` anywhere.
    fn has_line(&self, player: u8) -> bool {
        let at = |c: i64, r: i64| {
            c >= 0
                && r >= 0
                && (c as usize) < self.width
                && (r as usize) < self.height
                && self.grid[c as usize][r as usize] == player
        };
        for c in 0..self.width as i64 {
            for r in 0..self.height as i64 {
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    if (0..self.k as i64).all(|i| at(c + i * dc, r + i * dr)) {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn play(&mut self, m: PopMove) {
        assert!(self.is_legal(m), "grid model: illegal move {m:?}");
        let me = self.to_move();
        let other = 3 - me;
        match m {
            PopMove::Drop(c) => {
                let row = self.column_height(c as usize);
                self.grid[c as usize][row] = me;
            }
            PopMove::Pop(c) => {
                let col = &mut self.grid[c as usize];
                col.remove(0);
                col.push(0);
            }
            PopMove::Draw => self.drawn = true,
        }
        self.ply += 1;
        if self.has_line(me) {
            self.winner = Some(me);
        } else if self.has_line(other) {
            self.winner = Some(other);
        }
    }

    fn status(&self) -> Status {
        match self.winner {
            Some(1) => Status::Win(Player::First),
            Some(_) => Status::Win(Player::Second),
            None if self.drawn => Status::Draw,
            None => Status::Ongoing,
        }
    }

    fn render(&self) -> String {
        render_grid(&self.grid, self.height)
    }

    /// The position as a string: board, side to move, draw claim.
    fn repr(&self) -> String {
        format!("{}{}{}", self.render(), self.to_move(), self.drawn)
    }

    /// The player to move, as [`Status`] names players.
    fn status_to_move(&self) -> Player {
        if self.to_move() == 1 {
            Player::First
        } else {
            Player::Second
        }
    }

    fn wins_at_once(&self) -> bool {
        let me = self.to_move();
        self.legal().into_iter().any(|m| {
            let mut next = self.clone();
            next.play(m);
            next.winner == Some(me)
        })
    }
}

fn mirror_move(m: PopMove, width: u8) -> PopMove {
    match m {
        PopMove::Drop(c) => PopMove::Drop(width - 1 - c),
        PopMove::Pop(c) => PopMove::Pop(width - 1 - c),
        PopMove::Draw => PopMove::Draw,
    }
}

fn sorted(mut v: Vec<PopMove>) -> Vec<PopMove> {
    v.sort_unstable_by_key(|m| match *m {
        PopMove::Drop(c) => c as u32,
        PopMove::Pop(c) => 1000 + c as u32,
        PopMove::Draw => 2000,
    });
    v
}

/// Compares a position (and its mirror image) with the grid model.
fn compare<G: Repeating<Move = PopMove> + Tactics + Notation>(
    pos: &G,
    mirror: &G,
    model: &NaivePop,
    line: &str,
) {
    let w = model.width as u8;
    assert_eq!(pos.status(), model.status(), "status after '{line}'");
    assert_eq!(pos.ply(), model.ply);
    assert_eq!(
        pos.side_to_move(),
        Player::at_ply(model.ply),
        "side after '{line}'"
    );
    assert_eq!(pos.render(), model.render(), "render after '{line}'");
    assert!(pos.key() < 1u128 << pos.key_bits());
    assert_eq!(
        pos.canonical_key(),
        mirror.canonical_key(),
        "mirror after '{line}'"
    );
    assert_eq!(pos.canonical_key(), pos.key().min(mirror.key()));
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let legal: Vec<PopMove> = moves.to_vec();
    assert_eq!(sorted(legal.clone()), model.legal(), "legal after '{line}'");
    // Drops centre first, then pops, then the draw claim.
    let kind = |m: &PopMove| match m {
        PopMove::Drop(_) => 0,
        PopMove::Pop(_) => 1,
        PopMove::Draw => 2,
    };
    assert!(legal.windows(2).all(|p| kind(&p[0]) <= kind(&p[1])));
    let mut codes = HashSet::new();
    for &m in &legal {
        let code = pos.move_code(m);
        let want = match m {
            PopMove::Drop(c) => c,
            PopMove::Pop(c) => w + c,
            PopMove::Draw => 2 * w,
        };
        assert_eq!(code, want as u16);
        assert!((code as usize) < MAX_MOVES && codes.insert(code));
        assert_eq!(pos.parse_move(&pos.format_move(m)), Ok(m));
    }
    // Every token parses exactly when the model allows the move.
    for c in 0..w {
        for m in [PopMove::Drop(c), PopMove::Pop(c)] {
            if model.is_over() {
                break;
            }
            assert_eq!(
                pos.parse_move(&pos.format_move(m)).is_ok(),
                model.is_legal(m),
                "parse of {m:?} after '{line}'"
            );
        }
    }
    if !model.is_over() {
        assert_eq!(pos.parse_move("d").is_ok(), model.is_full());
    }
    if pos.status() != Status::Ongoing {
        return;
    }
    let winning = model.wins_at_once();
    assert_eq!(
        pos.has_winning_move(),
        winning,
        "has_winning_move after '{line}'"
    );
    if !winning {
        let mut safe = MoveList::<RankedMove<PopMove>>::new();
        pos.safe_moves(&mut safe);
        let got = sorted(safe.iter().map(|r| r.mv).collect());
        let want: Vec<PopMove> = model
            .legal()
            .into_iter()
            .filter(|&m| {
                // Safe: the game is drawn, or goes on with no win at once for the opponent (a
                // pop that makes only the opponent's line loses at once).
                let mut next = model.clone();
                next.play(m);
                match next.status() {
                    Status::Ongoing => !next.wins_at_once(),
                    Status::Draw => true,
                    Status::Win(p) => p == model.status_to_move(),
                }
            })
            .collect();
        assert_eq!(got, want, "safe_moves after '{line}'");
        // In the order of the legal moves, and counted alike by safe_choice.
        let listed: Vec<PopMove> = safe.iter().map(|r| r.mv).collect();
        let in_order: Vec<PopMove> = legal.iter().copied().filter(|m| got.contains(m)).collect();
        assert_eq!(listed, in_order, "safe_moves' order after '{line}'");
        let choice = SafeChoice::counting(listed.iter().copied());
        assert_eq!(pos.safe_choice(), choice, "safe_choice after '{line}'");
    }
}

/// Random games, biased towards pops so that they run long, checked move by move against the
/// grid model; keys must name one model position each, and each model position one key.
fn random_games<G: Repeating<Move = PopMove> + Tactics + Notation>(
    g: G,
    games: usize,
    max_moves: usize,
    seed: u64,
) {
    let (w, h) = match g
        .name()
        .strip_prefix("popout:")
        .and_then(|s| s.split_once('x'))
    {
        Some((w, h)) => (w.parse().unwrap(), h.parse().unwrap()),
        None => panic!("unexpected name {}", g.name()),
    };
    let mut rng = SplitMix(seed);
    let mut key_owner: HashMap<u128, String> = HashMap::new();
    let mut owner_key: HashMap<String, u128> = HashMap::new();
    for _ in 0..games {
        let mut model = NaivePop::new(w, h, 4);
        let (mut pos, mut mirror) = (g, g);
        let mut played = Vec::new();
        compare(&pos, &mirror, &model, "");
        for _ in 0..max_moves {
            let legal = model.legal();
            if legal.is_empty() {
                break;
            }
            let pops: Vec<PopMove> = legal
                .iter()
                .copied()
                .filter(|m| matches!(m, PopMove::Pop(_)))
                .collect();
            let m = if legal.contains(&PopMove::Draw) && rng.below(8) != 0 {
                // Full board: mostly play on.
                let others: Vec<PopMove> = legal
                    .iter()
                    .copied()
                    .filter(|&m| m != PopMove::Draw)
                    .collect();
                if others.is_empty() {
                    PopMove::Draw
                } else {
                    others[rng.below(others.len())]
                }
            } else if !pops.is_empty() && rng.below(3) == 0 {
                pops[rng.below(pops.len())]
            } else {
                legal[rng.below(legal.len())]
            };
            model.play(m);
            pos = pos.play(m);
            mirror = mirror.play(mirror_move(m, w as u8));
            played.push(m);
            let line = format_moves(g, &played);
            compare(&pos, &mirror, &model, &line);
            let discs: usize = model
                .grid
                .iter()
                .map(|c| c.iter().filter(|&&d| d != 0).count())
                .sum();
            assert!(
                model.drawn || discs % 2 == model.ply as usize % 2,
                "disc parity = ply parity"
            );
            let repr = model.repr();
            if let Some(other) = key_owner.insert(pos.key(), repr.clone()) {
                assert_eq!(other, repr, "two positions share a key after '{line}'");
            }
            if let Some(other) = owner_key.insert(repr, pos.key()) {
                assert_eq!(other, pos.key(), "one position, two keys after '{line}'");
            }
        }
        // The move string replays to the same position.
        let line = format_moves(g, &played);
        let (replayed, _) = play_moves(g, &line).expect("a played line replays");
        assert_eq!(replayed, pos);
        assert_eq!(replayed.ply(), pos.ply());
    }
}

#[test]
fn bitboards_agree_with_a_grid_model() {
    let boards = [
        ("popout", 300),
        ("popout:4x4", 300),
        ("popout:5x4", 300),
        ("popout:4x5", 200),
        ("popout:6x7", 200),
        ("popout:8x7", 200),
        ("popout:10x5", 200),
    ];
    for (i, (spec_text, games)) in boards.into_iter().enumerate() {
        with_popout!(start(spec_text), g => random_games(g, games, 200, 0x5eed + i as u64));
    }
}

#[test]
fn the_grid_model_knows_the_hand_made_cases() {
    let play = |moves: &[PopMove]| {
        let mut m = NaivePop::new(7, 6, 4);
        for &mv in moves {
            m.play(mv);
        }
        m.status()
    };
    use PopMove::{Drop as D, Pop as P};
    // 1223344117p1: a pop making lines for both wins for the popper.
    let both = [
        D(0),
        D(1),
        D(1),
        D(2),
        D(2),
        D(3),
        D(3),
        D(0),
        D(0),
        D(6),
        P(0),
    ];
    assert_eq!(play(&both), Status::Win(Player::First));
    // 1223346171p1: a pop making a line only for the opponent loses.
    let theirs = [
        D(0),
        D(1),
        D(1),
        D(2),
        D(2),
        D(3),
        D(5),
        D(0),
        D(6),
        D(0),
        P(0),
    ];
    assert_eq!(play(&theirs), Status::Win(Player::Second));
}

/// The number of positions reachable from the empty board (the game stopping at a win) by
/// breadth-first search, under two conventions: `(board and side to move, board alone)`. Draw
/// claims are not counted: the claimed position has the board of the full one before it. With
/// `check_keys`, also checks that keys and canonical keys name one position (or one pair of
/// mirror images) each.
fn count_positions<G: Repeating<Move = PopMove> + Tactics + Notation>(
    g: G,
    check_keys: bool,
) -> (usize, usize) {
    // Sets of keys as bitsets: the small boards' keys have 22 (4x4) and 26 (4x5) bits.
    assert!(g.key_bits() <= 30, "count_positions is for small boards");
    let side_bit = 1u128 << (g.key_bits() - 2);
    let mut seen = BitSet::new(g.key_bits());
    let mut boards = BitSet::new(g.key_bits());
    let mut owner: HashMap<u128, String> = HashMap::new();
    let mut canonical_owner: HashMap<u128, (String, String)> = HashMap::new();
    seen.insert(g.key());
    let mut layer = vec![g];
    while !layer.is_empty() {
        let mut next = Vec::new();
        for pos in layer {
            boards.insert(pos.key() & (side_bit - 1));
            if check_keys {
                let repr = format!("{}{:?}", pos.render(), pos.side_to_move());
                let mirror = mirror_repr(&repr);
                if let Some(other) = owner.insert(pos.key(), repr.clone()) {
                    panic!("two positions share a key:\n{other}\n{repr}");
                }
                let pair = if repr <= mirror {
                    (repr, mirror)
                } else {
                    (mirror, repr)
                };
                if let Some(other) = canonical_owner.insert(pos.canonical_key(), pair.clone()) {
                    assert_eq!(other, pair, "not mirror images, one canonical key");
                }
            }
            if pos.status() != Status::Ongoing {
                continue;
            }
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            for m in moves {
                if m == PopMove::Draw {
                    continue;
                }
                let child = pos.play(m);
                if seen.insert(child.key()) {
                    next.push(child);
                }
            }
        }
        layer = next;
    }
    (seen.len(), boards.len())
}

/// A set of keys below `2^bits`.
struct BitSet {
    words: Vec<u64>,
    len: usize,
}

impl BitSet {
    fn new(bits: u32) -> BitSet {
        BitSet {
            words: vec![0; (1usize << bits).div_ceil(64)],
            len: 0,
        }
    }

    /// Whether `key` was not in the set yet.
    fn insert(&mut self, key: u128) -> bool {
        let (word, bit) = ((key / 64) as usize, 1u64 << (key % 64));
        let new = self.words[word] & bit == 0;
        self.words[word] |= bit;
        self.len += new as usize;
        new
    }

    fn len(&self) -> usize {
        self.len
    }
}

/// A render (plus side to move) mirrored left to right.
fn mirror_repr(repr: &str) -> String {
    let mut lines: Vec<String> = repr.lines().map(str::to_string).collect();
    let last = lines.len() - 2; // the labels, then the side to move
    for line in &mut lines[..last] {
        *line = line.split(' ').rev().collect::<Vec<_>>().join(" ");
    }
    lines.join("\n")
}

/// PopOut 4x4 and 4x5 (width x height): legal positions, popout-thesis Table 10, restated from
/// `shared/data/tables/state_counts.tsv`.
const POSITIONS_4X4: usize = 692_427;
const POSITIONS_4X5: usize = 7_942_028;

#[test]
fn positions_of_4x4_and_keys() {
    with_popout!(start("popout:4x4"), g => {
        let (with_side, boards) = count_positions(g, true);
        eprintln!("popout 4x4: {with_side} positions (board + side), {boards} boards");
        assert_eq!(with_side, boards, "the discs' parity tells the side to move");
        assert_eq!(with_side, POSITIONS_4X4, "legal 4x4 positions");
    });
}

#[test]
fn positions_of_4x5() {
    with_popout!(start("popout:4x5"), g => {
        let (with_side, boards) = count_positions(g, false);
        eprintln!("popout 4x5: {with_side} positions (board + side), {boards} boards");
        assert_eq!(with_side, boards, "the discs' parity tells the side to move");
        assert_eq!(with_side, POSITIONS_4X5, "legal 4x5 positions");
    });
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs the public data in ../shared/data")]
fn position_counts_agree_with_the_published_file() {
    let path = shared_path("tables/state_counts.tsv");
    let text = std::fs::read_to_string(path).expect("readable");
    for (w, h, n) in [(4, 4, POSITIONS_4X4), (4, 5, POSITIONS_4X5)] {
        let row = [
            "popout".to_string(),
            w.to_string(),
            h.to_string(),
            n.to_string(),
        ];
        assert!(
            text.lines()
                .any(|l| l.split('\t').map(str::to_string).collect::<Vec<_>>() == row),
            "state_counts.tsv should list popout {w}x{h} with {n} positions"
        );
    }
}
