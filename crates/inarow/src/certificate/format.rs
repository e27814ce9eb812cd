//! The certificate file format, version 5 (versions 1 to 4 are read too: version 1 has no
//! threat lines; version 3 leaves out the positions whose symmetric image the walk settled
//! before, which the verifier of version 2 would have asked for; version 4 adds rule lines;
//! version 5 adds rule lines of a loss, `!!`). A certificate is written with the lowest version
//! that holds it (3 without rule lines, 4 without `!!`), so that older verifiers read it.
//!
//! # File format (`inarow-proof 5`)
//! ```text
//! inarow-proof 5
//! game connect4:7x6:k4    # must equal the start position's Rules::name()
//! root 4453               # moves from the game's start to the root ('-': the start itself)
//! goal notlose            # or win (`!` rule lines: notlose only)
//! prover first            # the side that has the proof: first or second (player)
//! # one line per position where the prover moves:
//! # PATH MOVE  (PATH = one sequence of moves from the root reaching it, '-' for the root;
//! #             MOVE = the prover's move there; both in the game's own notation)
//! - 3
//! 34 5
//! # threat lines:
//! # PATH : M1 M2 ... Mk
//! 3452 : 1 1 6
//! # rule lines (gravity games): PATH ! WITNESS (goal notlose), PATH !! WITNESS (any goal)
//! 3456 ! claimeven 0.2 0.3; baseinverse 1.4 2.4; aftereven 3.5 4.5
//! 3457 !! claimeven 0.2 0.3; claimeven 4.2 4.3
//! ```
//! Blank lines and everything from a `#` to the end of a line are ignored. The header lines come
//! first, in this order. A path and a move never contain whitespace; the move is the last
//! whitespace-separated token of its line, the path everything before it.
//!
//! A position where the prover can win at once needs no line: the verifier finds the win. A
//! threat line `PATH : M1 ... Mk` gives the prover's moves below the position P after PATH (whoever
//! moves there): wherever the walk below P meets a prover position that has no `PATH MOVE` line
//! and no threat line of its own, and where the prover cannot win at once, it plays the next
//! move of the sequence (`M1` at the first such position on the way down, `M2` at the next, and
//! so on); running out of moves is a failure. The verifier still follows every reply of the
//! opponent, so a threat line proves nothing it does not check: it is a compact way to write the
//! prover's moves of a forced sequence, and the moves after each of the opponent's replies to a
//! position (P where the opponent moves) that all meet the same sequence.
//!
//! A rule line `PATH ! WITNESS` (goal `notlose` only, in a game with a gravity board,
//! [`Rules::gravity_position`](crate::game::Rules::gravity_position)) settles the position after
//! PATH, where the opponent moves: by Victor's threat rules the opponent cannot win there, so
//! the prover does not lose. WITNESS is the rule applications the prover answers by, in the
//! form of [`Witness::to_text`](victor::Witness::to_text); the verifier checks it
//! against the position ([`victor::verify`]) and follows no move below.
//!
//! A rule line of a loss `PATH !! WITNESS` (version 5, any goal) settles the position after
//! PATH, where the opponent moves, as a win of the prover: the witness's cover keeps the
//! opponent from any line, and its pairs give the prover every empty cell of a line of its own
//! ([`victor::verify_win`]).

use super::{Certificate, victor};
use crate::game::{Notation, format_moves};
use std::fmt::Write as _;

/// The first word of every certificate.
pub const MAGIC: &str = "inarow-proof";
/// The newest format version: the one this module writes for a certificate with a rule line
/// of a loss, and the highest the verifier reads.
pub const VERSION: u32 = 5;
/// The version written for a certificate whose rule lines all say "cannot win".
const VERSION_WITHOUT_WINS: u32 = 4;
/// The version written for a certificate without rule lines (nothing in it needs version 4).
const VERSION_WITHOUT_RULES: u32 = 3;

/// A sequence of moves from `from`, or `-` for none.
pub(super) fn moves_text<G: Notation>(from: G, moves: &[G::Move]) -> String {
    if moves.is_empty() {
        "-".to_string()
    } else {
        format_moves(from, moves)
    }
}

/// Writes a certificate: `start` is the game's start position (its name goes in the header) and
/// `root_moves` lead from it to `proof.root`.
pub fn write<G: Notation>(start: &G, root_moves: &[G::Move], proof: &Certificate<G>) -> String {
    let mut s = String::new();
    let version = if proof.witnesses.is_empty() {
        VERSION_WITHOUT_RULES
    } else if proof
        .witnesses
        .iter()
        .all(|(_, _, goal)| *goal == victor::Goal::MoverCannotWin)
    {
        VERSION_WITHOUT_WINS
    } else {
        VERSION
    };
    let _ = writeln!(s, "{MAGIC} {version}");
    let _ = writeln!(s, "game {}", start.name());
    let _ = writeln!(s, "root {}", moves_text(*start, root_moves));
    let _ = writeln!(s, "goal {}", proof.goal);
    let _ = writeln!(s, "prover {}", proof.prover.name());
    let _ = writeln!(
        s,
        "# {} positions where the prover moves: PATH (moves from the root, '-' = the root) MOVE",
        proof.lines.len()
    );
    for (path, mv) in &proof.lines {
        let node = path.iter().fold(proof.root, |p, &m| p.play(m));
        let _ = writeln!(
            s,
            "{} {}",
            moves_text(proof.root, path),
            node.format_move(*mv)
        );
    }
    if !proof.threat_lines.is_empty() {
        let _ = writeln!(
            s,
            "# {} threat lines: PATH : the prover's moves below it, in order",
            proof.threat_lines.len()
        );
    }
    for (path, line) in &proof.threat_lines {
        // Games with threat lines write their moves the same wherever they are played.
        let node = path.iter().fold(proof.root, |p, &m| p.play(m));
        let _ = write!(s, "{} :", moves_text(proof.root, path));
        for &m in line {
            let _ = write!(s, " {}", node.format_move(m));
        }
        s.push('\n');
    }
    if !proof.witnesses.is_empty() {
        let _ = writeln!(
            s,
            "# {} rule lines: PATH ! (or !!) the threat rules by which the opponent, to move, cannot win (loses)",
            proof.witnesses.len()
        );
    }
    for (path, witness, goal) in &proof.witnesses {
        let node = path.iter().fold(proof.root, |p, &m| p.play(m));
        let (geometry, _, _) = node
            .gravity_position()
            .expect("rule lines are written for gravity boards only");
        let _ = writeln!(
            s,
            "{} {} {}",
            moves_text(proof.root, path),
            match goal {
                victor::Goal::MoverCannotWin => "!",
                victor::Goal::FollowerWins => "!!",
            },
            witness.to_text(geometry)
        );
    }
    s
}
