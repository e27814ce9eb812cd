//! df-pn's tests: its values against minimax and alpha-beta on small boards (a tiny table
//! too), its limits, repetitions and the graph-history interaction, and the sliced search.

use super::*;
use crate::game::{Cyclic, Notation, Repeating, Rules, Status};
use crate::search::Limits;
use crate::search::pn::testing::{BOARDS, Reference, Rng, board, random_positions};
use crate::search::pn::{FIRST_SLICE, weak_value};

/// A tiny game on a directed graph, where positions repeat: the position is the node the
/// token is on; a move takes it along an edge; some nodes end the game. Nodes of even number
/// belong to the first player, odd ones to the second, and edges join nodes of different
/// parity, so the side to move always matches the ply. The game starts at node 0.
#[derive(Debug, PartialEq, Eq)]
pub struct Graph {
    pub edges: Vec<Vec<u8>>,
    pub end: Vec<Option<Status>>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GraphGame {
    pub at: u8,
    pub ply: u32,
    pub graph: &'static Graph,
}

impl GraphGame {
    pub fn start(graph: Graph) -> GraphGame {
        GraphGame {
            at: 0,
            ply: 0,
            graph: Box::leak(Box::new(graph)),
        }
    }

    /// A random graph of 4 to 10 nodes, each open node with 1 to 3 edges.
    pub fn random(rng: &mut Rng) -> GraphGame {
        let n = 4 + rng.below(7);
        Self::random_graph(rng, n, 3, 3)
    }

    /// A random graph of `n` nodes, each open node with 1 to `max_edges` edges.
    pub fn random_n(rng: &mut Rng, n: usize, max_edges: usize) -> GraphGame {
        Self::random_graph(rng, n, 2, max_edges)
    }

    /// The `i`-th graph of a test run: [`GraphGame::random`] for even `i`, else one of 6
    /// to 14 nodes with 1 to at most 3, 4 or 5 edges each.
    pub fn random_nth(rng: &mut Rng, i: usize) -> GraphGame {
        if i.is_multiple_of(2) {
            Self::random(rng)
        } else {
            Self::random_n(rng, 6 + i % 9, 5 - i % 3)
        }
    }

    /// `n` nodes; each but the start ends the game with probability `end_tenths` / 10; each
    /// open node gets 1 to `max_edges` edges to nodes of the other parity (a node with none
    /// to go to is a draw).
    fn random_graph(rng: &mut Rng, n: usize, end_tenths: usize, max_edges: usize) -> GraphGame {
        let mut end = vec![None; n];
        for e in end.iter_mut().skip(1) {
            if rng.below(10) < end_tenths {
                *e = Some(match rng.below(3) {
                    0 => Status::Win(Player::First),
                    1 => Status::Win(Player::Second),
                    _ => Status::Draw,
                });
            }
        }
        let mut edges = vec![Vec::new(); n];
        for (i, out) in edges.iter_mut().enumerate() {
            if end[i].is_some() {
                continue;
            }
            let targets: Vec<u8> = (0..n as u8)
                .filter(|&j| (j as usize + i) % 2 == 1)
                .collect();
            if targets.is_empty() {
                end[i] = Some(Status::Draw);
                continue;
            }
            for _ in 0..1 + rng.below(max_edges) {
                let t = targets[rng.below(targets.len())];
                if !out.contains(&t) {
                    out.push(t);
                }
            }
        }
        GraphGame::start(Graph { edges, end })
    }

    /// The value for the side to move (1, 0, -1) with "a repeated position is a draw", by
    /// trying every path.
    pub fn reference(&self, path: &mut Vec<u8>) -> i32 {
        match self.status() {
            Status::Win(p) => return if p == self.side_to_move() { 1 } else { -1 },
            Status::Draw => return 0,
            Status::Ongoing => {}
        }
        if path.contains(&self.at) {
            return 0;
        }
        path.push(self.at);
        let mut best = -1;
        for &m in &self.graph.edges[self.at as usize] {
            best = best.max(-self.play(m).reference(path));
        }
        path.pop();
        best
    }
}

impl Rules for GraphGame {
    type Move = u8;
    type Kind = Cyclic;

    fn name(&self) -> String {
        "graph".to_string()
    }
    fn ply(&self) -> u32 {
        self.ply
    }
    fn legal_moves(&self, out: &mut MoveList<u8>) {
        if self.status() == Status::Ongoing {
            out.extend(self.graph.edges[self.at as usize].iter().copied());
        }
    }
    fn play(&self, m: u8) -> Self {
        GraphGame {
            at: m,
            ply: self.ply + 1,
            graph: self.graph,
        }
    }
    fn status(&self) -> Status {
        self.graph.end[self.at as usize].unwrap_or(Status::Ongoing)
    }
    fn key(&self) -> u128 {
        self.at as u128
    }
    fn key_bits(&self) -> u32 {
        8
    }
    fn move_code(&self, m: u8) -> u16 {
        m as u16
    }
}

impl Repeating for GraphGame {
    fn stones(&self) -> u32 {
        0
    }
}

impl Tactics for GraphGame {}
impl crate::game::Variant for GraphGame {}

impl Notation for GraphGame {
    fn describe_moves(&self) -> String {
        "a node number".to_string()
    }
    fn parse_move(&self, token: &str) -> Result<u8, Error> {
        let m: u8 = token
            .parse()
            .map_err(|_| Error::Input(format!("'{token}' is not a node")))?;
        if self.graph.edges[self.at as usize].contains(&m) {
            Ok(m)
        } else {
            Err(Error::Input(format!("no edge from {} to {m}", self.at)))
        }
    }
    fn format_move(&self, m: u8) -> String {
        m.to_string()
    }
    fn render(&self) -> String {
        format!("node {}\n", self.at)
    }
}

fn dfpn_weak<G: Tactics>(solver: &mut DfPn<G>, pos: &G) -> i32 {
    weak_value(|goal| solver.prove(pos, goal, &mut Clock::default())).expect("no limits")
}

#[test]
fn agrees_with_minimax_and_alphabeta() {
    for &(w, h, k) in BOARDS {
        let start = board(w, h, k);
        let mut reference = Reference::new(&start);
        let mut solver = DfPn::new(1 << 20);
        let mut positions = vec![(start, Vec::new())];
        positions.extend(random_positions(start, 40, 1, w * h - 2, 7 + w as u64));
        for (pos, moves) in positions {
            let want = reference.weak(&pos);
            let got = dfpn_weak(&mut solver, &pos);
            assert_eq!(got, want, "{w}x{h} k{k} after {moves:?}");
        }
    }
}

#[test]
fn tiny_table_still_agrees() {
    // 64 entries: replacement runs all the time.
    let start = board(4, 4, 4);
    let mut reference = Reference::new(&start);
    let mut solver = DfPn::with_entries(64);
    assert_eq!(solver.table_entries(), 64);
    for (pos, moves) in random_positions(start, 30, 0, 10, 3) {
        assert_eq!(
            dfpn_weak(&mut solver, &pos),
            reference.weak(&pos),
            "after {moves:?}"
        );
    }
}

#[test]
fn node_limit_stops() {
    let start = board(5, 4, 4);
    let limits = Limits {
        nodes: Some(100),
        ..Limits::default()
    };
    let mut solver = DfPn::new(1 << 16);
    assert_eq!(
        solver.prove(&start, Goal::Win, &mut Clock::new(limits)),
        Err(Stop::Nodes),
        "5x4 needs more than 100 nodes"
    );
    assert!(solver.stats().expanded <= 101);
}

#[test]
fn depth_limit_stops() {
    let start = board(5, 4, 4);
    let mut solver = DfPn::new(1 << 20);
    solver.set_max_depth(4);
    assert_eq!(
        solver.prove(&start, Goal::Win, &mut Clock::default()),
        Err(Stop::Depth)
    );
    let mut solver = DfPn::new(1 << 20);
    solver.set_max_depth(20);
    assert_eq!(
        solver.prove(&start, Goal::Win, &mut Clock::default()),
        Ok(Verdict::Disproven)
    );
}

#[test]
fn repetitions_follow_the_path_rule() {
    let mut rng = Rng::new(11);
    let mut draws_by_repetition = 0;
    for i in 0..60_000 {
        let g = GraphGame::random_nth(&mut rng, i);
        let want = g.reference(&mut Vec::new());
        let mut solver = DfPn::with_entries(if i % 2 == 0 { 1024 } else { 8 });
        let got = dfpn_weak(&mut solver, &g);
        assert_eq!(got, want, "graph {:?}", g.graph);
        if want == 0 && !g.graph.end.contains(&Some(Status::Draw)) {
            draws_by_repetition += 1;
        }
    }
    assert!(
        draws_by_repetition > 50,
        "{draws_by_repetition} repetition draws"
    );
}

#[test]
fn both_players_questions_share_one_table() {
    // Under one history the table keeps the entries of "can the first player win?" and of
    // "can the second?" (each with its complement) side by side: asked in turn, in one
    // order and then in the other, every question gets its own answer, at the start and
    // after a move (another history), in a table of 8 entries as in one of 1,024.
    let mut rng = Rng::new(23);
    let mut questions = Vec::new();
    for attacker in [Player::First, Player::Second] {
        for goal in [Goal::Win, Goal::NotLose] {
            questions.push((attacker, goal));
        }
    }
    for i in 0..20_000 {
        let g = GraphGame::random_nth(&mut rng, i);
        let mut solver = DfPn::with_entries(if i % 2 == 0 { 1024 } else { 8 });
        let lines = lines_to_ask(g);
        for line in &lines {
            let pos = line.position();
            // For the side to move, after the line's positions (each one is a draw again).
            let mut path: Vec<u8> = line.earlier_keys().map(|k| k as u8).collect();
            let value = pos.reference(&mut path);
            for round in 0..2 {
                for k in 0..questions.len() {
                    let (attacker, goal) = questions[if round == 0 { k } else { 3 - k }];
                    let v = if attacker == pos.side_to_move() {
                        value
                    } else {
                        -value
                    };
                    let reached = match goal {
                        Goal::Win => v == 1,
                        Goal::NotLose => v >= 0,
                    };
                    let want = if reached {
                        Verdict::Proven
                    } else {
                        Verdict::Disproven
                    };
                    assert_eq!(
                        solver.prove_for(line, attacker, goal, &mut Clock::default()),
                        Ok(want),
                        "{attacker:?} {goal:?} round {round} after {:?}, graph {:?}",
                        line.moves(),
                        g.graph
                    );
                }
            }
        }
    }
}

/// The start of `g` and, where it has no immediate win, the line after each of its moves: a
/// history is trusted to hold no position whose side to move could have won at once (see
/// the module documentation).
fn lines_to_ask(g: GraphGame) -> Vec<GameLine<GraphGame>> {
    let mut lines = vec![GameLine::new(g)];
    if !g.has_winning_move() {
        let mut moves = MoveList::new();
        g.legal_moves(&mut moves);
        lines.extend(moves.iter().map(|&m| GameLine::from_moves(g, &[m])));
    }
    lines
}

#[test]
fn sliced_answers_equal_whole_ones() {
    // Win and NotLose asked in slices from a few expansions each, doubling, in turn, one
    // table for both (as the engine races them), give the values of the path-aware reference, at
    // the start and after a move, whatever the slice and however small the table.
    let mut rng = Rng::new(29);
    for i in 0..20_000 {
        let g = GraphGame::random_nth(&mut rng, i);
        let mut solver = DfPn::with_entries(if i % 2 == 0 { 1024 } else { 8 });
        let lines = lines_to_ask(g);
        let slice = 1 + (i % 5) as u64;
        for line in &lines {
            let pos = line.position();
            let mut path: Vec<u8> = line.earlier_keys().map(|k| k as u8).collect();
            let value = pos.reference(&mut path);
            let me = pos.side_to_move();
            let got = super::super::raced_value(|goal, budget| {
                let question = Question::new(me, goal);
                // The race's doubling budgets, from a few expansions.
                match budget {
                    Some(b) => solver.answer_within(
                        line,
                        question,
                        slice * b / FIRST_SLICE,
                        &mut Clock::default(),
                    ),
                    None => solver
                        .answer(line, question, &mut Clock::default())
                        .map(Some),
                }
            });
            assert_eq!(
                got,
                Ok(value),
                "after {:?}, graph {:?}",
                line.moves(),
                g.graph
            );
        }
    }
}

/// A graph where a node's value depends on the path: 0 A -> 3 F -> 4 E -> 1 B -> 2 C -> 5 D
/// -> 4 E. From A the first player wins by A-B-C-D-E-G-..-win. The search meets B first
/// below F-E, where D's only move repeats E (a draw), so B looks lost there; if that were
/// stored, A-B would later read it and A would look drawn. F also has a slow way out to a
/// draw (6 -> 13 -> 12), so A must win through B.
pub fn ghi_graph() -> GraphGame {
    let mut edges = vec![Vec::new(); 14];
    let mut end = vec![None; 14];
    for (from, to) in [
        (0, vec![3, 1]),
        (1, vec![2]),
        (2, vec![5]),
        (3, vec![4, 6]),
        (4, vec![1, 7]),
        (5, vec![4]),
        (6, vec![13]),
        (7, vec![8]),
        (8, vec![9]),
        (9, vec![10]),
        (10, vec![11]),
        (13, vec![12]),
    ] {
        edges[from] = to;
    }
    end[11] = Some(Status::Win(Player::First));
    end[12] = Some(Status::Draw);
    GraphGame::start(Graph { edges, end })
}

#[test]
fn graph_history_interaction() {
    let g = ghi_graph();
    assert_eq!(g.reference(&mut Vec::new()), 1);
    let mut solver = DfPn::new(1 << 12);
    assert_eq!(
        solver.prove(&g, Goal::Win, &mut Clock::default()),
        Ok(Verdict::Proven)
    );
    assert_eq!(dfpn_weak(&mut solver, &g), 1);

    // B after a line through E (A, D, E, B): D's only move repeats E, a draw, so B is no
    // win there, while reached at once B is a win. Neither answer may leak into the other.
    let through_e = GameLine::from_moves(g, &[3, 4, 1]);
    let at_once = GameLine::from_moves(g, &[1]);
    let first = Player::First;
    for _ in 0..2 {
        assert_eq!(
            solver.prove_for(&through_e, first, Goal::Win, &mut Clock::default()),
            Ok(Verdict::Disproven)
        );
        assert_eq!(
            solver.prove_for(&at_once, first, Goal::Win, &mut Clock::default()),
            Ok(Verdict::Proven)
        );
    }
    let mut fresh = DfPn::new(1 << 12);
    assert_eq!(
        fresh.prove_for(&through_e, first, Goal::Win, &mut Clock::default()),
        Ok(Verdict::Disproven)
    );
    assert_eq!(
        fresh.prove_for(&GameLine::new(g), first, Goal::Win, &mut Clock::default()),
        Ok(Verdict::Proven)
    );
}
