//! A book checked by two means of its own: every position of fewer plies than the depth against
//! its children's entries (negamax over the book, which also finds an entry missing or a
//! position the format ranks wrongly), and a random sample of its entries solved again by a
//! search (another driver, without the book).

use super::book::{Book, best_from_children, no_exact_scores, positions_by_ply};
use crate::engine::Engine;
use crate::error::Error;
use crate::game::{Bounded, Kind, KindVisitor, Repeating, Rules, Tactics, one_line};
use crate::limits::Limits;
use crate::search::rng::SplitMix;
use std::collections::HashSet;

/// The most failing positions a check keeps to show.
pub const PROBLEMS_KEPT: usize = 10;

/// What [`check`] found.
#[derive(Clone, Debug)]
pub struct BookCheck<G> {
    /// Positions of at most the book's depth (one per symmetry class, unfinished) looked up.
    pub positions: usize,
    /// Of them, those the book does not hold.
    pub missing: usize,
    /// Positions of fewer plies than the depth compared with the best over their children.
    pub derived: usize,
    /// Of them, those whose entry is not that best.
    pub inconsistent: usize,
    /// The positions solved again, each with the book's score for it.
    pub sample: Vec<(G, i32)>,
    /// Of them, those whose search found another score.
    pub disagreements: usize,
    /// Nodes of those searches.
    pub nodes: u64,
    /// The first failing positions (at most [`PROBLEMS_KEPT`]), each with what fails.
    pub problems: Vec<(G, String)>,
}

impl<G> BookCheck<G> {
    /// Whether nothing failed.
    pub fn passed(&self) -> bool {
        self.missing == 0 && self.inconsistent == 0 && self.disagreements == 0
    }

    fn fail(&mut self, pos: G, why: String) {
        if self.problems.len() < PROBLEMS_KEPT {
            self.problems.push((pos, why));
        }
    }
}

/// Checks `book` (for `start`'s game): every position to its depth is in it, each of fewer
/// plies holds the best over its children, and `sample` entries drawn with `seed` (all of
/// them if there are fewer) give the same score to `engine`'s search (which should not read
/// the book) under `limits`. `progress(done, total)` follows the sample.
///
/// # Errors
/// [`Error::Search`] when a limit stops a search, [`Error::Unsupported`] for a game whose
/// positions repeat (a book of exact scores has none).
pub fn check<G: Tactics>(
    book: &Book,
    start: G,
    engine: &mut Engine<G>,
    sample: usize,
    seed: u64,
    limits: &Limits,
    progress: impl FnMut(usize, usize),
) -> Result<BookCheck<G>, Error> {
    G::Kind::visit(Check {
        book,
        start,
        engine,
        sample,
        seed,
        limits,
        progress,
    })
}

struct Check<'a, G: Tactics, P> {
    book: &'a Book,
    start: G,
    engine: &'a mut Engine<G>,
    sample: usize,
    seed: u64,
    limits: &'a Limits,
    progress: P,
}

impl<G: Tactics, P: FnMut(usize, usize)> KindVisitor<G> for Check<'_, G, P> {
    type Output = Result<BookCheck<G>, Error>;

    fn bounded(self) -> Self::Output
    where
        G: Bounded,
    {
        check_bounded(self)
    }

    fn repeating(self) -> Self::Output
    where
        G: Repeating,
    {
        Err(no_exact_scores(&self.start))
    }
}

fn check_bounded<G: Bounded + Tactics>(
    run: Check<'_, G, impl FnMut(usize, usize)>,
) -> Result<BookCheck<G>, Error> {
    let Check {
        book,
        start,
        engine,
        sample,
        seed,
        limits,
        mut progress,
    } = run;
    let levels = positions_by_ply(start, book.depth());
    let mut found = BookCheck {
        positions: 0,
        missing: 0,
        derived: 0,
        inconsistent: 0,
        sample: Vec::new(),
        disagreements: 0,
        nodes: 0,
        problems: Vec::new(),
    };
    for level in &levels {
        for pos in level {
            found.positions += 1;
            let Some(score) = book.lookup(pos) else {
                found.missing += 1;
                found.fail(*pos, "not in the book".into());
                continue;
            };
            if pos.ply() < book.depth() {
                found.derived += 1;
                match best_from_children(pos, |child| book.lookup(child)) {
                    Some(best) if best == score => {}
                    Some(best) => {
                        found.inconsistent += 1;
                        found.fail(
                            *pos,
                            format!("the book says {score}, its children's best is {best}"),
                        );
                    }
                    // The child is counted missing at its own ply.
                    None => {}
                }
            }
        }
    }

    // The sample: distinct entries drawn uniformly, in the order drawn.
    let all: Vec<&G> = levels.iter().flatten().collect();
    let wanted = sample.min(all.len());
    let mut rng = SplitMix(seed);
    let mut drawn = HashSet::with_capacity(wanted);
    while drawn.len() < wanted {
        let i = rng.below(all.len());
        if drawn.insert(i) {
            let pos = *all[i];
            if let Some(score) = book.lookup(&pos) {
                found.sample.push((pos, score));
            }
        }
    }
    let total = found.sample.len();
    progress(0, total);
    for i in 0..total {
        let (pos, score) = found.sample[i];
        let report = engine.solve(&pos, limits);
        found.nodes += report.nodes;
        let Some(searched) = report.score else {
            let why = report.stopped.map_or("stopped".into(), |s| s.to_string());
            return Err(Error::Search(one_line(&format!(
                "book check stopped at {i} of {total} sampled positions ({why})"
            ))));
        };
        if searched != score {
            found.disagreements += 1;
            found.fail(
                pos,
                format!("the book says {score}, a search finds {searched}"),
            );
        }
        progress(i + 1, total);
    }
    Ok(found)
}

/// Moves that lead from `start` to `target` (exactly, not an image of it), where stones only
/// fall down columns ([`Rules::gravity_position`]); `None` elsewhere or when none do.
pub fn line_to<G: Rules>(start: G, target: &G) -> Option<Vec<G::Move>> {
    let (_, mover, other) = target.gravity_position()?;
    // Stones never leave a gravity board: only positions whose stones the target holds, each
    // player's among its own, lead there.
    let inside = |pos: &G| match pos.gravity_position() {
        Some((_, m, o)) if (target.ply() - pos.ply()).is_multiple_of(2) => {
            m & !mover == 0 && o & !other == 0
        }
        Some((_, m, o)) => m & !other == 0 && o & !mover == 0,
        None => false,
    };
    let mut line = Vec::new();
    search_line(start, target, &inside, &mut line).then_some(line)
}

fn search_line<G: Rules>(
    pos: G,
    target: &G,
    inside: &impl Fn(&G) -> bool,
    line: &mut Vec<G::Move>,
) -> bool {
    if pos.ply() == target.ply() {
        return pos == *target;
    }
    if pos.status() != crate::game::Status::Ongoing {
        return false;
    }
    let mut moves = crate::game::MoveList::new();
    pos.legal_moves(&mut moves);
    for m in moves {
        let child = pos.play(m);
        if inside(&child) {
            line.push(m);
            if search_line(child, target, inside, line) {
                return true;
            }
            line.pop();
        }
    }
    false
}
