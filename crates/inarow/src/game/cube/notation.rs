//! How the cube's moves are written and read (`cube`: hex columns; `qubic`: cells such as
//! `a11`), and how its board is laid out for drawing: the four levels side by side.

use super::{Cube, LINES};
use crate::error::Error;
use crate::game::view::{
    Axis, Block, Board, CellId, CellName, CellSet, Effect, Layout, WinningLine,
};
use crate::game::{Notation, Player};
use std::fmt::Write;

impl<const GRAVITY: bool> Notation for Cube<GRAVITY> {
    fn parse_move(&self, token: &str) -> Result<u8, Error> {
        if GRAVITY {
            let column = u8::from_str_radix(token, 16)
                .ok()
                .filter(|c| token.len() == 1 && *c < 16)
                .ok_or_else(|| {
                    Error::Input(format!(
                        "'{token}' is not a column: expected a hex digit 0-f"
                    ))
                })?;
            if self.filled() >> (48 + column as u32) & 1 == 1 {
                return Err(Error::Input(format!("column {token} is full")));
            }
            Ok(column)
        } else {
            let b = token.as_bytes();
            let bad = || {
                Error::Input(format!(
                    "'{token}' is not a cell: expected a column a-d, a row 1-4 and a level 1-4, like b23"
                ))
            };
            if b.len() != 3 {
                return Err(bad());
            }
            let x = b[0].to_ascii_lowercase().wrapping_sub(b'a');
            let (y, z) = (b[1].wrapping_sub(b'1'), b[2].wrapping_sub(b'1'));
            if x > 3 || y > 3 || z > 3 {
                return Err(bad());
            }
            let cell = x + 4 * y + 16 * z;
            if self.filled() >> cell & 1 == 1 {
                return Err(Error::Input(format!("cell {token} is taken")));
            }
            Ok(cell)
        }
    }

    fn describe_moves(&self) -> String {
        if GRAVITY {
            "a hex digit 0-f: the column of the 4x4 floor, numbered row by row (0-3 the first \
             row, c-f the last); a disc falls to its lowest empty cell; like 05af"
                .to_string()
        } else {
            "a cell: column a-d, row 1-4, level 1-4 (b23 is column b, row 2, level 3); like a11b23"
                .to_string()
        }
    }

    fn format_move(&self, m: u8) -> String {
        if GRAVITY {
            format!("{m:x}")
        } else {
            let (x, y, z) = (m % 4, m / 4 % 4, m / 16);
            format!("{}{}{}", (b'a' + x) as char, y + 1, z + 1)
        }
    }

    /// One character a move (`cube`) or three (`qubic`), or comma-separated.
    fn split_moves<'a>(&self, text: &'a str) -> Vec<&'a str> {
        if text.contains(',') {
            return text.split(',').map(str::trim).collect();
        }
        let width = if GRAVITY { 1 } else { 3 };
        let mut tokens = Vec::new();
        let mut start = 0;
        let bounds: Vec<usize> = text
            .char_indices()
            .map(|(i, _)| i)
            .chain([text.len()])
            .collect();
        while start + 1 < bounds.len() {
            let end = (start + width).min(bounds.len() - 1);
            tokens.push(&text[bounds[start]..bounds[end]]);
            start = end;
        }
        tokens
    }

    fn join_moves(&self, moves: &[String]) -> String {
        moves.concat()
    }

    /// The four levels side by side, bottom level on the left; `X` first player, `O` second.
    /// The four levels side by side, bottom first, each named above its block. Qubic's rows
    /// are numbered on the left and its columns lettered below (`b23`: column b, row 2, level
    /// 3); the cube's columns are keyed on the right by the hex digit that drops a disc there.
    fn render(&self) -> String {
        let margin = if GRAVITY { "" } else { "   " };
        let mut s = String::new();
        s.push_str(margin);
        s.push_str("level 1   level 2   level 3   level 4");
        s.push_str(if GRAVITY { "   columns\n" } else { "\n" });
        for y in (0..4).rev() {
            if !GRAVITY {
                s.push_str(&format!("{}  ", y + 1));
            }
            for z in 0..4 {
                for x in 0..4 {
                    let cell = x + 4 * y + 16 * z;
                    s.push(if self.stones[0] >> cell & 1 == 1 {
                        'X'
                    } else if self.stones[1] >> cell & 1 == 1 {
                        'O'
                    } else {
                        '.'
                    });
                    s.push_str(if x < 3 { " " } else { "" });
                }
                s.push_str(if z < 3 { "   " } else { "" });
            }
            if GRAVITY {
                let key: Vec<String> = (0..4).map(|x| format!("{:x}", x + 4 * y)).collect();
                s.push_str(&format!("   {}", key.join(" ")));
            }
            s.push('\n');
        }
        if !GRAVITY {
            s.push_str(margin);
            s.push_str(&["a b c d"; 4].join("   "));
            s.push('\n');
        }
        s
    }
}

/// The four levels side by side, bottom first, as the terminal draws them; a cube cell is
/// named by its column (`0`-`f`), a Qubic cell by itself (`b23`).
impl<const GRAVITY: bool> Board for Cube<GRAVITY> {
    fn layout(&self) -> Layout {
        const LEVELS: [&str; 4] = ["level 1", "level 2", "level 3", "level 4"];
        Layout {
            size: [4, 4, 4],
            k: 4,
            gravity: GRAVITY.then_some(Axis::Z),
            blocks: (0..4u8)
                .map(|z| Block {
                    name: LEVELS[z as usize],
                    from: [0, 0, z],
                    size: [4, 4, 1],
                    place: [0, z],
                })
                .collect(),
        }
    }

    fn owner(&self, cell: CellId) -> Option<Player> {
        if self.stones[0] >> cell & 1 == 1 {
            Some(Player::First)
        } else if self.stones[1] >> cell & 1 == 1 {
            Some(Player::Second)
        } else {
            None
        }
    }

    fn cell_name(&self, cell: CellId) -> CellName {
        let mut name = CellName::new();
        let (x, y, z) = (cell % 4, cell / 4 % 4, cell / 16);
        let _ = if GRAVITY {
            write!(name, "{:x}", cell % 16)
        } else {
            write!(name, "{}{}{}", (b'a' + x as u8) as char, y + 1, z + 1)
        };
        name
    }

    fn lines_held(&self, out: &mut Vec<WinningLine>) {
        for (owner, stones) in [
            (Player::First, self.stones[0]),
            (Player::Second, self.stones[1]),
        ] {
            for &line in &LINES {
                if line & stones == line {
                    let cells = CellSet(line as u128);
                    out.push(WinningLine { owner, cells });
                }
            }
        }
    }

    /// A cube move is a column, and its stone lands on the lowest empty cell; a Qubic move is
    /// the cell.
    fn effect(&self, m: u8) -> Effect {
        let cell = if GRAVITY {
            const COLUMN: u64 = 0x0001_0001_0001_0001;
            m as CellId + 16 * (self.filled() & COLUMN << m).count_ones() as CellId
        } else {
            m as CellId
        };
        Effect {
            placed: Some(cell),
            ..Effect::default()
        }
    }
}
