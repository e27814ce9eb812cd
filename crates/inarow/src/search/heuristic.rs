//! Iterative-deepening alpha-beta over a game's heuristic evaluation
//! ([`Tactics::evaluate`]): a playing engine for positions too big to solve, as in the Pentago
//! thesis (PentagoAI: negamax with alpha-beta, a table and iterative deepening under a time
//! limit). Its values are heuristic, except where the search saw every line to the end of the
//! game or found a forced win or loss: those are exact, and said to be.

use super::tt::{Bound, spread};
use crate::game::{Kind, MoveList, Status, Tactics};
use crate::limits::{Clock, Limits, Stop};

/// What the search says of a position or a move, for the side to move there.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Appraisal {
    /// The value of the game: 1 win, 0 draw, -1 loss.
    Exact(i32),
    /// The evaluation of the principal line's last position (zero-sum: positive favours the
    /// side to move).
    Heuristic(i32),
}

/// A win that ends the game at ply `p` of the game scores `WIN - p` (the same on every path, so
/// the table keeps it as it is); evaluations stay below [`FORCED`].
const WIN: i32 = 1 << 28;
const FORCED: i32 = WIN - 100_000;

/// Which iterations of the deepening may answer where a limit stops it. The games' evaluations
/// favour the side that has just moved (it placed the last stone), so an iteration's values
/// swing with the parity of its depth: on PopOut's empty board, column 3 is `~19` after 8 plies
/// of the reply and `~-17` after 9. Searches stopped at depths of both parities (the moves of a
/// position valued in separate workers, each deepening for its own time) would give
/// mirror-image moves opposite signs; one parity keeps them comparable.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Parity {
    /// The deepest finished iteration.
    Any,
    /// The deepest finished iteration of an odd depth: the line ends with a move of the side
    /// to move at the root.
    Odd,
    /// The deepest finished iteration of an even depth.
    Even,
}

impl Parity {
    fn admits(self, depth: u32) -> bool {
        match self {
            Parity::Any => true,
            Parity::Odd => !depth.is_multiple_of(2),
            Parity::Even => depth.is_multiple_of(2),
        }
    }
}

/// The answer of [`search`].
#[derive(Clone, Debug)]
pub struct Choice<M> {
    /// The move the search prefers.
    pub best: M,
    /// The position's value for its side to move.
    pub value: Appraisal,
    /// Each move's value (best first), when all were asked for; else empty.
    pub moves: Vec<(M, Appraisal)>,
    /// The expected line from the position: the best move, then the table's best replies.
    pub pv: Vec<M>,
    /// The depth of the last finished iteration, in plies.
    pub depth: u32,
    /// Nodes searched, over every iteration.
    pub nodes: u64,
    /// Why the deepening stopped before the end of the game (`None`: it saw every line end).
    pub stop: Option<Stop>,
}

/// One slot of the direct-mapped table.
#[derive(Copy, Clone, Default)]
struct Entry {
    key: u128,
    score: i32,
    depth: u8,
    bound: Option<Bound>,
    /// Whether every line below ended within the depth (the score is exact).
    ended: bool,
    /// The best move's index in the move list.
    best: u16,
}

struct Searcher {
    table: Vec<Entry>,
    clock: Clock,
    /// Whether the search evaluated a position at its horizon since this was last cleared.
    horizon: bool,
    /// Whether the game's wins and losses may be claimed exact (not where positions repeat:
    /// this search does not apply the repetition rule).
    exact_allowed: bool,
}

impl Searcher {
    /// Negamax with alpha-beta: the score of `pos` for its side to move, searched `depth`
    /// plies deep.
    fn negamax<G: Tactics>(
        &mut self,
        pos: &G,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> Result<i32, Stop> {
        self.clock.tick()?;
        let ply = pos.ply() as i32;
        match pos.status() {
            Status::Win(p) if p == pos.side_to_move() => return Ok(WIN - ply),
            Status::Win(_) => return Ok(ply - WIN),
            Status::Draw => return Ok(0),
            Status::Ongoing => {}
        }
        if depth == 0 {
            self.horizon = true;
            return Ok(pos.evaluate().unwrap_or(0).clamp(1 - FORCED, FORCED - 1));
        }
        let key = pos.key();
        let slot = spread(key, self.table.len());
        let entry = self.table[slot];
        let mut first = None;
        if entry.key == key && entry.bound.is_some() {
            first = Some(entry.best as usize);
            let score = entry.score;
            let usable = entry.depth as u32 >= depth || entry.ended;
            let cuts = match entry.bound {
                Some(Bound::Exact) => true,
                Some(Bound::Lower) => score >= beta,
                Some(Bound::Upper) => score <= alpha,
                None => false,
            };
            if usable && cuts {
                self.horizon |= !entry.ended;
                return Ok(score);
            }
        }
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let order = first
            .filter(|&i| i < moves.len())
            .into_iter()
            .chain((0..moves.len()).filter(|&i| Some(i) != first));
        let outer = std::mem::replace(&mut self.horizon, false);
        let alpha0 = alpha;
        let mut best = (i32::MIN, 0);
        for i in order {
            let score = -self.negamax(&pos.play(moves[i]), depth - 1, -beta, -alpha)?;
            if score > best.0 {
                best = (score, i);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        let ended = !self.horizon;
        self.horizon |= outer;
        let bound = if best.0 >= beta {
            Bound::Lower
        } else if best.0 <= alpha0 {
            Bound::Upper
        } else {
            Bound::Exact
        };
        self.table[slot] = Entry {
            key,
            score: best.0,
            depth: depth.min(255) as u8,
            bound: Some(bound),
            ended,
            best: best.1 as u16,
        };
        Ok(best.0)
    }

    /// `first`, then the best moves the table holds after it, at most `depth` moves in all.
    fn line<G: Tactics>(&self, pos: &G, first: G::Move, depth: u32) -> Vec<G::Move> {
        let mut line = vec![first];
        let mut p = pos.play(first);
        while (line.len() as u32) < depth && p.status() == Status::Ongoing {
            let entry = self.table[spread(p.key(), self.table.len())];
            let mut moves = MoveList::new();
            p.legal_moves(&mut moves);
            if entry.key != p.key() || entry.bound.is_none() || entry.best as usize >= moves.len() {
                break;
            }
            let mv = moves[entry.best as usize];
            line.push(mv);
            p = p.play(mv);
        }
        line
    }

    /// What a root score means, given whether its lines all ended.
    fn value(&self, score: i32, ended: bool) -> Appraisal {
        if !self.exact_allowed {
            Appraisal::Heuristic(score)
        } else if score >= FORCED {
            Appraisal::Exact(1)
        } else if score <= -FORCED {
            Appraisal::Exact(-1)
        } else if ended {
            Appraisal::Exact(score.signum())
        } else {
            Appraisal::Heuristic(score)
        }
    }
}

/// Deepens an alpha-beta search of `pos` over the game's evaluation until `limits` stop it,
/// it reaches `max_depth` plies or every line has ended, with a table of `table_bytes`. With
/// `all_moves`, every move is searched with a full window, so that each gets its own value;
/// otherwise only the best is sure. `None` if the position is over, or the limits stopped the
/// first iteration.
pub fn search<G: Tactics>(
    pos: &G,
    limits: &Limits,
    max_depth: Option<u32>,
    table_bytes: usize,
    all_moves: bool,
) -> Option<Choice<G::Move>> {
    search_with_parity(pos, limits, max_depth, table_bytes, all_moves, Parity::Any)
}

/// [`search`], answering where the limits stop it with the deepest finished iteration that
/// `parity` admits (the deepest of any depth where none does).
pub fn search_with_parity<G: Tactics>(
    pos: &G,
    limits: &Limits,
    max_depth: Option<u32>,
    table_bytes: usize,
    all_moves: bool,
    parity: Parity,
) -> Option<Choice<G::Move>> {
    if pos.status() != Status::Ongoing {
        return None;
    }
    let mut s = Searcher {
        table: vec![Entry::default(); (table_bytes / size_of::<Entry>()).max(1024)],
        clock: Clock::new(limits.clone()),
        horizon: false,
        exact_allowed: !G::Kind::REPEATS,
    };
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    // The root's moves, best first after each iteration, with their scores and whether their
    // lines ended.
    let mut ranked: Vec<(G::Move, i32, bool)> = moves.iter().map(|&m| (m, 0, false)).collect();
    let mut done: Option<Choice<G::Move>> = None;
    // The deepest finished iteration of the asked parity, the answer where a limit stops.
    let mut kept: Option<Choice<G::Move>> = None;
    // Deeper than the end of a bounded game is pointless; elsewhere the limits decide.
    let deepest = G::Kind::max_plies(pos).map_or(64, |m| m.saturating_sub(pos.ply()).max(1));
    let deepest = max_depth.map_or(deepest, |d| d.clamp(1, deepest));
    for depth in 1..=deepest {
        let mut alpha = -WIN;
        let mut stop = None;
        let mut scored = Vec::with_capacity(ranked.len());
        for &(mv, _, _) in &ranked {
            s.horizon = false;
            let window = if all_moves { -WIN } else { alpha };
            match s.negamax(&pos.play(mv), depth - 1, -WIN, -window) {
                Ok(score) => {
                    let score = -score;
                    alpha = alpha.max(score);
                    scored.push((mv, score, !s.horizon));
                }
                Err(e) => {
                    stop = Some(e);
                    break;
                }
            }
        }
        if let Some(e) = stop {
            let mut answer = kept.or(done);
            if let Some(c) = answer.as_mut() {
                c.stop = Some(e);
                c.nodes = s.clock.ticks;
            }
            return answer;
        }
        // Stable: among equal scores the earlier move stays first.
        scored.sort_by_key(|&(_, score, _)| std::cmp::Reverse(score));
        ranked = scored;
        let (best, score, _) = ranked[0];
        // Without all moves, a move that failed low has only an upper bound; the best is
        // exact all the same.
        let all_ended = ranked.iter().all(|&(_, _, ended)| ended);
        done = Some(Choice {
            best,
            value: s.value(score, all_ended || score >= FORCED),
            moves: if all_moves {
                ranked
                    .iter()
                    .map(|&(m, sc, ended)| (m, s.value(sc, ended)))
                    .collect()
            } else {
                Vec::new()
            },
            pv: s.line(pos, best, depth),
            depth,
            nodes: s.clock.ticks,
            stop: None,
        });
        if parity.admits(depth) {
            kept.clone_from(&done);
        }
        if all_ended || (score >= FORCED && !all_moves) {
            break;
        }
    }
    done
}
