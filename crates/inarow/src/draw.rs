//! A position as an SVG picture, for sharing and for notebooks (`inarow draw`, Python's
//! `Position.svg`): the web page's board (web/index.html) drawn from the position's structured
//! view ([`PositionView`]), with its sizes, colours and labels, and optionally every legal
//! move's value where the page shows it ([`position`]).
//!
//! - Connect Four and PopOut: the blue frame with its columns, stones falling to the bottom; a
//!   drop's value above its column, a pop's on the player's own bottom stone (inside a dashed
//!   ring); a move that is neither (PopOut's draw claim, `d`) is listed under the board.
//! - The cube (gravity along `z`): the sixteen columns seen from above, each with its four
//!   levels as small stones and its drop's value, beside the four levels as grids (2 x 2).
//! - Qubic: the four levels side by side, bottom first, a value in every empty cell.
//! - Pentago: the four quadrants with Irving's numbers and the turn arrows; an empty cell shows
//!   the best value of the moves that place there (over all turns, as the page does); a turn
//!   alone (a position whose stone was placed before) shows its value beside each arrow that
//!   makes its position.
//!
//! The last move is marked as on the page: the stone it placed ringed (white on Pentago's
//! quadrants), a popped column's name in bold between two arrows, the quadrant turned framed
//! with a dashed line and its arrow dark. The lines held are crossed out, their stones ringed.
//!
//! Colours are attributes (no style sheet), so that the picture looks the same inline and as an
//! image. Every cell is a `<g class="cell">` with `data-cell` (its number), `data-name` and
//! `data-owner`; every value a `<g class="value">` with `data-move`.

use crate::error::Error;
use crate::game::Player;
use crate::game::view::{CellId, PositionView, Turn};
use crate::session::{MoveValue, Position, Rules, Valuation};
use std::collections::HashMap;
use std::fmt::Write;

const INK: &str = "#1d2430";
const MUTED: &str = "#5b6472";
const RED: &str = "#d8433b";
const RED_EDGE: &str = "#a92f29";
const YELLOW: &str = "#f2c63f";
const YELLOW_EDGE: &str = "#c99a12";
const FRAME: &str = "#33609f";
const HOLE: &str = "#f5f6f8";
const QUAD: &str = "#3b4658";
const QUAD_HOLE: &str = "#556277";
const SQUARE: &str = "#fff";
const SQUARE_EDGE: &str = "#c9ced6";
const WIN: [&str; 4] = ["#08457e", "#1f6fb2", "#4b93cf", "#9cc6e8"];
const LOSS: [&str; 4] = ["#8a3400", "#c25100", "#e77b26", "#f6bd86"];
const DRAW: &str = "#6c727c";
const FONT: &str = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

/// A move's value to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct Value {
    /// The move, in the game's notation.
    pub mv: String,
    /// What it is worth.
    pub value: Valuation,
    /// The ply the game ends on with best play (the chip's shade), where known.
    pub end_ply: Option<u32>,
}

impl From<&MoveValue> for Value {
    fn from(m: &MoveValue) -> Value {
        Value {
            mv: m.mv.clone(),
            value: m.value,
            end_ply: m.end_ply,
        }
    }
}

/// The picture of `pos` (a position of `rules`) with `values` on its moves (none: the board
/// alone), its last move marked, found by playing the line again to the position before it.
///
/// # Errors
/// None for a position the session read; an [`Error`] only if its line no longer replays.
pub fn position(rules: &dyn Rules, pos: &dyn Position, values: &[Value]) -> Result<String, Error> {
    let view = pos.view();
    let mut moves = pos.move_list();
    let last = match moves.pop() {
        Some(text) => {
            let mut parent = rules.read(pos.origin().unwrap_or(""))?;
            for m in &moves {
                parent = parent.play(m)?;
            }
            last_move(&parent.view(), &text, &view)
        }
        None => None,
    };
    Ok(draw(&view, values, pos.ply(), last.as_ref()))
}

/// The fill (and edge) of a player's stones.
pub fn stone_colours(p: Player) -> (&'static str, &'static str) {
    match p {
        Player::First => (RED, RED_EDGE),
        Player::Second => (YELLOW, YELLOW_EDGE),
    }
}

/// A number as short as SVG takes it.
fn n(v: f64) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// What every part of the picture draws from.
struct Ctx<'a> {
    v: &'a PositionView<u16>,
    size: [usize; 3],
    owners: Vec<Option<Player>>,
    values: HashMap<&'a str, &'a Value>,
    best: Option<(i32, i64)>,
    win: Vec<bool>,
    ply: u32,
    last: Option<&'a Last>,
}

impl Ctx<'_> {
    fn id(&self, x: usize, y: usize, z: usize) -> usize {
        x + self.size[0] * (y + self.size[1] * z)
    }

    fn name(&self, c: usize) -> &str {
        self.v.cells[c].name.as_str()
    }

    fn is_last(&self, c: usize) -> bool {
        self.last.is_some_and(|l| l.cells.contains(&c))
    }

    fn last_turn(&self) -> Option<Turn> {
        self.last.and_then(|l| l.turned)
    }
}

/// An SVG fragment being written.
#[derive(Default)]
struct Out(String);

impl Out {
    fn text(&mut self, x: f64, y: f64, attrs: &str, text: &str) {
        let _ = write!(
            self.0,
            r#"<text x="{}" y="{}" {attrs}>{}</text>"#,
            n(x),
            n(y),
            escape(text)
        );
    }

    /// A label, centred (the page's `.lbl`).
    fn label(&mut self, x: f64, y: f64, text: &str) {
        self.text(
            x,
            y,
            &format!(
                r#"class="label" font-size="12" font-weight="500" fill="{MUTED}" text-anchor="middle" dominant-baseline="central""#
            ),
            text,
        );
    }

    fn title(&mut self, x: f64, y: f64, text: &str) {
        self.text(
            x,
            y,
            &format!(r#"class="title" font-size="12" font-weight="600" fill="{INK}""#),
            text,
        );
    }

    fn circle(&mut self, cx: f64, cy: f64, r: f64, attrs: &str) {
        let _ = write!(
            self.0,
            r#"<circle cx="{}" cy="{}" r="{}" {attrs}/>"#,
            n(cx),
            n(cy),
            n(r)
        );
    }

    fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, attrs: &str) {
        let _ = write!(
            self.0,
            r#"<rect x="{}" y="{}" width="{}" height="{}" {attrs}/>"#,
            n(x),
            n(y),
            n(w),
            n(h)
        );
    }

    /// A cell's group: opened here, closed by [`Out::end`].
    fn cell(&mut self, ctx: &Ctx, c: usize) {
        let owner = ctx.owners[c].map(Player::name).unwrap_or("");
        let _ = write!(
            self.0,
            r#"<g class="cell" data-cell="{c}" data-name="{}" data-owner="{owner}">"#,
            escape(ctx.name(c))
        );
    }

    fn end(&mut self) {
        self.0.push_str("</g>");
    }

    /// A stone (the page's `.stone`), or the empty hole in `hole`'s colour.
    fn disc(&mut self, ctx: &Ctx, cx: f64, cy: f64, r: f64, c: usize, hole: &str) {
        match ctx.owners[c] {
            Some(p) => {
                let (fill, edge) = stone_colours(p);
                let cls = p.name();
                self.circle(
                    cx,
                    cy,
                    r,
                    &format!(
                        r#"class="stone {cls}" fill="{fill}" stroke="{edge}" stroke-width="1.5""#
                    ),
                );
            }
            None if !hole.is_empty() => {
                self.circle(cx, cy, r, &format!(r#"class="hole" fill="{hole}""#))
            }
            None => {}
        }
        if ctx.is_last(c) {
            // White on Pentago's dark quadrants, as the page's.
            let stroke = if hole == QUAD_HOLE { "#fff" } else { INK };
            self.circle(
                cx,
                cy,
                r + 1.5,
                &format!(r#"class="last" fill="none" stroke="{stroke}" stroke-width="3""#),
            );
        }
        if ctx.win[c] {
            self.circle(
                cx,
                cy,
                r - 4.0,
                r##"class="winring" fill="none" stroke="#fff" stroke-width="3" stroke-dasharray="5 3""##,
            );
        }
    }

    /// A move's value in a rounded chip (the page's `chip`), centred on `x`, `y`, at most `room`
    /// wide.
    fn chip(&mut self, ctx: &Ctx, x: f64, y: f64, v: &Value, room: f64, small: bool) {
        let text = chip_text(v.value);
        let k: f64 = if small { 0.82 } else { 1.0 };
        let mut w = (30.0 * k).max((text.chars().count() as f64 * 7.6 + 12.0) * k);
        let mut size = if small { 10.5 } else { 13.0 };
        if w > room {
            size = (13.0 * k * (room - 8.0) / (w - 12.0 * k)).max(8.5);
            w = room;
        }
        let ht = 22.0 * k;
        let look = chip_look(v, ctx.ply);
        let best = ctx.best == Some(v.value.rank());
        let (stroke, width) = if best {
            (INK, 2.0)
        } else {
            (look.stroke.unwrap_or("none"), 1.2)
        };
        let dash = look
            .dash
            .map(|d| format!(r#" stroke-dasharray="{d}""#))
            .unwrap_or_default();
        let _ = write!(
            self.0,
            r#"<g class="value" data-move="{}"{}>"#,
            escape(&v.mv),
            if look.estimate {
                r#" opacity="0.8""#
            } else {
                ""
            }
        );
        self.rect(
            x - w / 2.0,
            y - ht / 2.0,
            w,
            ht,
            &format!(
                r#"rx="{}" fill="{}" stroke="{stroke}" stroke-width="{width}"{dash}"#,
                n(ht / 2.0),
                look.fill
            ),
        );
        let style = if look.estimate {
            r#"font-weight="500" font-style="italic""#
        } else {
            r#"font-weight="700""#
        };
        self.text(
            x,
            y + 0.5,
            &format!(
                r#"font-size="{}" {style} fill="{}" text-anchor="middle" dominant-baseline="central""#,
                n(size),
                look.text
            ),
            &text,
        );
        let _ = write!(
            self.0,
            "<title>{}: {}</title></g>",
            escape(&v.mv),
            escape(&text)
        );
    }

    /// Lines through each held line's two farthest cells (the page's `winLines`).
    fn win_lines(&mut self, ctx: &Ctx, at: impl Fn(usize) -> (f64, f64)) {
        for line in &ctx.v.lines {
            let cells: Vec<usize> = line.cells.iter().map(|c| c as usize).collect();
            let mut ends = (cells[0], cells[0]);
            let mut far = -1.0;
            for &p in &cells {
                for &q in &cells {
                    let ((x1, y1), (x2, y2)) = (at(p), at(q));
                    let d = (x1 - x2).powi(2) + (y1 - y2).powi(2);
                    if d > far {
                        (ends, far) = ((p, q), d);
                    }
                }
            }
            let ((x1, y1), (x2, y2)) = (at(ends.0), at(ends.1));
            let _ = write!(
                self.0,
                r#"<line class="winline" data-owner="{}" x1="{}" y1="{}" x2="{}" y2="{}" stroke="{INK}" stroke-width="7" stroke-linecap="round" opacity="0.7"/>"#,
                line.owner.name(),
                n(x1),
                n(y1),
                n(x2),
                n(y2)
            );
        }
    }

    /// Places `part` (drawn from 0, 0) at `x`, `y`.
    fn place(&mut self, x: f64, y: f64, part: Out) {
        let _ = write!(
            self.0,
            r#"<g transform="translate({} {})">{}</g>"#,
            n(x),
            n(y),
            part.0
        );
    }
}

/// The chip's text, as the page writes it: `+3` for a win by an exact score, `win` where only the
/// outcome is known, `~13` or `~64%` for an estimate, `?`.
pub fn chip_text(v: Valuation) -> String {
    match v {
        Valuation::Exact(s) if s > 0 => format!("+{s}"),
        v => v.to_string(),
    }
}

struct Look {
    fill: &'static str,
    text: &'static str,
    stroke: Option<&'static str>,
    dash: Option<&'static str>,
    estimate: bool,
}

/// The page's chip classes: wins blue, losses orange, darker the sooner the game ends; draws
/// grey; estimates white with a dashed edge.
fn chip_look(v: &Value, ply: u32) -> Look {
    let solid = |fill, text| Look {
        fill,
        text,
        stroke: None,
        dash: None,
        estimate: false,
    };
    let estimate = |sign: f64| {
        let (stroke, text) = if sign > 0.0 {
            (WIN[2], WIN[1])
        } else if sign < 0.0 {
            (LOSS[2], LOSS[1])
        } else {
            ("#9aa1ab", MUTED)
        };
        Look {
            fill: "#fff",
            text,
            stroke: Some(stroke),
            dash: Some("3 2"),
            estimate: true,
        }
    };
    let shade = match v.end_ply.map(|e| e.saturating_sub(ply)) {
        None => 1,
        Some(d) if d <= 5 => 0,
        Some(d) if d <= 11 => 1,
        Some(d) if d <= 21 => 2,
        Some(_) => 3,
    };
    match v.value {
        Valuation::Exact(s) | Valuation::Proven(s) => match s.signum() {
            0 => solid(DRAW, "#fff"),
            1 => solid(WIN[shade], if shade == 3 { "#06284a" } else { "#fff" }),
            _ => solid(LOSS[shade], if shade >= 2 { "#2b1300" } else { "#fff" }),
        },
        Valuation::Heuristic(h) => estimate(h as f64),
        Valuation::WinRate(r) => estimate((r * 100.0).round() - 50.0),
        Valuation::Unknown => Look {
            fill: "#fff",
            text: MUTED,
            stroke: Some("#9aa1ab"),
            dash: Some("2 2"),
            estimate: false,
        },
    }
}

/// The picture of `view` (`ply` moves into the game) with `values` drawn on its moves and the
/// `last` move marked.
pub fn draw(view: &PositionView<u16>, values: &[Value], ply: u32, last: Option<&Last>) -> String {
    let size = view.layout.size.map(|s| s as usize);
    let mut win = vec![false; view.cells.len()];
    for line in &view.lines {
        for c in line.cells.iter() {
            win[c as usize] = true;
        }
    }
    let legal: Vec<&str> = view.moves.iter().map(|m| m.text.as_str()).collect();
    let values: HashMap<&str, &Value> = values
        .iter()
        .filter(|v| legal.contains(&v.mv.as_str()))
        .map(|v| (v.mv.as_str(), v))
        .collect();
    let ctx = Ctx {
        v: view,
        size,
        owners: view.cells.iter().map(|c| c.owner).collect(),
        best: values.values().map(|v| v.value.rank()).max(),
        values,
        win,
        ply,
        last,
    };
    let turning = view.moves.iter().any(|m| m.effect.turned.is_some())
        || (view.layout.blocks.len() > 1 && size[2] == 1);
    let (part, w, h, drawn) = if size[2] > 1 && view.layout.gravity.is_some() {
        cube(&ctx)
    } else if size[2] > 1 {
        levels(&ctx, 44.0)
    } else if turning {
        pentago(&ctx)
    } else if view.layout.gravity.is_some() {
        columns(&ctx)
    } else {
        levels(&ctx, 44.0)
    };
    // Moves with no place on the board (PopOut's draw claim): a line each under it.
    let mut body = Out::default();
    body.place(8.0, 8.0, part);
    let mut height = h + 16.0;
    for m in view.moves.iter().filter(|m| !drawn.contains(&m.text)) {
        let words = if m.text == "d" {
            "claim a draw (d)".to_string()
        } else {
            m.text.clone()
        };
        let x = 12.0;
        body.text(
            x,
            height + 4.0,
            &format!(r#"class="move" font-size="13" fill="{INK}" dominant-baseline="central""#),
            &words,
        );
        if let Some(v) = ctx.values.get(m.text.as_str()) {
            let after = x + words.chars().count() as f64 * 7.0 + 30.0;
            body.chip(&ctx, after, height + 4.0, v, 80.0, false);
        }
        height += 28.0;
    }
    let width = w + 16.0;
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" class="inarow" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT}"><rect class="background" width="{w}" height="{h}" rx="8" fill="#fff"/>{body}</svg>"##,
        w = n(width),
        h = n(height),
        body = body.0
    )
}

/// A part of the picture, its width and height, and the moves it shows.
type Part = (Out, f64, f64, Vec<String>);

/// Connect Four and PopOut (the page's `drawColumns`).
fn columns(ctx: &Ctx) -> Part {
    let [w, h, _] = ctx.size;
    let (c, p, t, l) = (50.0, 7.0, 36.0, 24.0);
    let mut s = Out::default();
    let mut drawn = Vec::new();
    let x_at = |x: usize| p + x as f64 * c + c / 2.0;
    let y_at = |y: usize| t + p + (h - 1 - y) as f64 * c + c / 2.0;
    let width = w as f64 * c + 2.0 * p;
    s.rect(
        0.0,
        t,
        width,
        h as f64 * c + 2.0 * p,
        &format!(r#"class="frame" rx="12" fill="{FRAME}""#),
    );
    for x in 0..w {
        for y in 0..h {
            let id = ctx.id(x, y, 0);
            s.cell(ctx, id);
            s.disc(ctx, x_at(x), y_at(y), 20.0, id, HOLE);
            s.end();
        }
        let popped = ctx.last.is_some_and(|last| last.popped == Some(x as u8));
        let ly = t + h as f64 * c + 2.0 * p + l / 2.0 + 1.0;
        if popped {
            // The page's mark of the column popped last: its name in bold between two arrows.
            s.text(
                x_at(x),
                ly,
                &format!(
                    r#"class="label last" font-size="12" font-weight="700" fill="{INK}" text-anchor="middle" dominant-baseline="central""#
                ),
                ctx.name(ctx.id(x, 0, 0)),
            );
            let y0 = t + h as f64 * c + 2.0 * p + 2.0;
            let _ = write!(
                s.0,
                r#"<path class="popped" d="M{} {}l-5 -5h10z M{} {}l-5 -5h10z" fill="{INK}"><title>popped last</title></path>"#,
                n(x_at(x) - 14.0),
                n(y0 + 7.0),
                n(x_at(x) + 14.0),
                n(y0 + 7.0)
            );
        } else {
            s.label(x_at(x), ly, ctx.name(ctx.id(x, 0, 0)));
        }
    }
    for m in &ctx.v.moves {
        if let Some(placed) = m.effect.placed {
            let x = ctx.v.cells[placed as usize].at[0] as usize;
            drawn.push(m.text.clone());
            if let Some(v) = ctx.values.get(m.text.as_str()) {
                s.chip(ctx, x_at(x), t / 2.0, v, c - 3.0, false);
            }
        } else if let Some(x) = m.effect.popped {
            let x = x as usize;
            drawn.push(m.text.clone());
            s.circle(
                x_at(x),
                y_at(0),
                23.0,
                &format!(
                    r#"class="pop" data-move="{}" fill="none" stroke="{INK}" stroke-width="2" stroke-dasharray="4 3""#,
                    escape(&m.text)
                ),
            );
            if let Some(v) = ctx.values.get(m.text.as_str()) {
                // On the stone's lower half, so that its colour shows.
                s.chip(ctx, x_at(x), y_at(0) + 11.0, v, c - 10.0, true);
            }
        }
    }
    s.win_lines(ctx, |cell| {
        let [x, y, _] = ctx.v.cells[cell].at;
        (x_at(x as usize), y_at(y as usize))
    });
    (s, width, t + h as f64 * c + 2.0 * p + l, drawn)
}

/// One level as a grid of squares (the page's `levelGrid`): a stone in each held cell, and
/// where `values` a chip in each empty cell a move fills.
fn level_grid(ctx: &Ctx, z: usize, c: f64, values: bool) -> (Out, f64, f64, Vec<String>) {
    let [w, h, levels] = ctx.size;
    let (lb, tt, p, bl) = (16.0, if levels > 1 { 20.0 } else { 0.0 }, 3.0, 16.0);
    let mut s = Out::default();
    let mut drawn = Vec::new();
    if tt > 0.0 {
        let words = match z {
            0 => " · bottom",
            z if z == levels - 1 => " · top",
            _ => "",
        };
        s.title(lb, 13.0, &format!("level {}{words}", z + 1));
    }
    let x_at = |x: usize| lb + p + x as f64 * c + c / 2.0;
    let y_at = |y: usize| tt + p + (h - 1 - y) as f64 * c + c / 2.0;
    let by_cell: HashMap<usize, &str> = ctx
        .v
        .moves
        .iter()
        .filter_map(|m| m.effect.placed.map(|p| (p as usize, m.text.as_str())))
        .collect();
    for y in 0..h {
        for x in 0..w {
            let id = ctx.id(x, y, z);
            let (cx, cy) = (x_at(x), y_at(y));
            s.cell(ctx, id);
            s.rect(
                cx - c / 2.0,
                cy - c / 2.0,
                c,
                c,
                &format!(r#"class="square" fill="{SQUARE}" stroke="{SQUARE_EDGE}""#),
            );
            if ctx.owners[id].is_some() {
                s.disc(ctx, cx, cy, c * 0.38, id, "");
            }
            if ctx.win[id] {
                s.rect(
                    cx - c / 2.0 + 2.0,
                    cy - c / 2.0 + 2.0,
                    c - 4.0,
                    c - 4.0,
                    &format!(r#"class="winsquare" fill="none" stroke="{INK}" stroke-width="3.5""#),
                );
            }
            s.end();
            if values && let Some(&mv) = by_cell.get(&id) {
                drawn.push(mv.to_string());
                if let Some(v) = ctx.values.get(mv) {
                    s.chip(ctx, cx, cy, v, c - 4.0, false);
                }
            }
        }
    }
    // Qubic names cells `a11` (column, row, level): its letters and digits label the grid.
    let letters = |c: usize| {
        let b = ctx.name(c).as_bytes();
        b.len() == 3 && b[0].is_ascii_lowercase() && b[1].is_ascii_digit()
    };
    for x in 0..w {
        let id = ctx.id(x, 0, 0);
        let text = if letters(id) {
            ctx.name(id)[..1].to_string()
        } else if ctx.v.layout.gravity.is_some() {
            ctx.name(id).to_string()
        } else {
            (x + 1).to_string()
        };
        s.label(x_at(x), tt + h as f64 * c + 2.0 * p + bl / 2.0 + 1.0, &text);
    }
    for y in 0..h {
        let id = ctx.id(0, y, 0);
        let text = if letters(id) {
            ctx.name(id)[1..2].to_string()
        } else if ctx.v.layout.gravity.is_some() {
            ctx.name(id).to_string()
        } else {
            (y + 1).to_string()
        };
        s.label(lb / 2.0, y_at(y), &text);
    }
    let width = lb + w as f64 * c + 2.0 * p;
    (s, width, tt + h as f64 * c + 2.0 * p + bl, drawn)
}

/// Qubic (and a flat board without gravity): the levels side by side, bottom first.
fn levels(ctx: &Ctx, c: f64) -> Part {
    let mut s = Out::default();
    let (mut x, mut height, mut drawn) = (0.0, 0.0f64, Vec::new());
    for z in 0..ctx.size[2] {
        let (part, w, h, moves) = level_grid(ctx, z, c, true);
        if z > 0 {
            x += 12.0;
        }
        s.place(x, 0.0, part);
        x += w;
        height = height.max(h);
        drawn.extend(moves);
    }
    (s, x, height, drawn)
}

/// The cube (the page's `drawCube`): the columns from above with their drops' values, and the
/// four levels in two rows of two.
fn cube(ctx: &Ctx) -> Part {
    let [w, h, levels] = ctx.size;
    let (c, lb, p, tt, bl) = (64.0, 22.0, 3.0, 22.0, 34.0);
    let mut s = Out::default();
    let mut drawn = Vec::new();
    s.title(lb + 18.0, 12.0, "the columns, from above");
    let x_at = |x: usize| lb + p + x as f64 * c + c / 2.0;
    let y_at = |y: usize| tt + p + (h - 1 - y) as f64 * c + c / 2.0;
    let by_column: HashMap<usize, &str> = ctx
        .v
        .moves
        .iter()
        .filter_map(|m| {
            m.effect.placed.map(|p| {
                let [x, y, _] = ctx.v.cells[p as usize].at;
                (x as usize + w * y as usize, m.text.as_str())
            })
        })
        .collect();
    for y in 0..h {
        for x in 0..w {
            let (cx, cy) = (x_at(x), y_at(y));
            let name = ctx.name(ctx.id(x, y, 0)).to_string();
            let _ = write!(s.0, r#"<g class="column" data-name="{}">"#, escape(&name));
            s.rect(
                cx - c / 2.0,
                cy - c / 2.0,
                c,
                c,
                &format!(r#"class="floor" fill="{SQUARE}" stroke="{SQUARE_EDGE}""#),
            );
            s.text(
                cx - c / 2.0 + 5.0,
                cy - c / 2.0 + 12.0,
                r##"font-size="10" font-weight="500" fill="#8a929e""##,
                &name,
            );
            // The column's stones, level 1 at the bottom.
            for z in 0..levels {
                let id = ctx.id(x, y, z);
                let sy = cy + c / 2.0 - 9.0 - z as f64 * 11.0;
                let look = match ctx.owners[id] {
                    Some(p) => {
                        let (fill, edge) = stone_colours(p);
                        format!(
                            r#"class="stack {}" fill="{fill}" stroke="{edge}" stroke-width="1.5""#,
                            p.name()
                        )
                    }
                    None => format!(r#"class="stack" fill="{SQUARE}" stroke="{SQUARE_EDGE}""#),
                };
                s.rect(
                    cx - c / 2.0 + 5.0,
                    sy - 4.5,
                    11.0,
                    9.0,
                    &format!(r#"rx="2" data-cell="{id}" {look}"#),
                );
                if ctx.is_last(id) {
                    s.rect(
                        cx - c / 2.0 + 3.0,
                        sy - 6.5,
                        15.0,
                        13.0,
                        &format!(
                            r#"class="last" rx="3" fill="none" stroke="{INK}" stroke-width="2""#
                        ),
                    );
                }
            }
            s.end();
            if let Some(&mv) = by_column.get(&(x + w * y)) {
                drawn.push(mv.to_string());
                if let Some(v) = ctx.values.get(mv) {
                    s.chip(ctx, cx + 9.0, cy + 2.0, v, c - 20.0, false);
                }
            }
        }
    }
    for x in 0..w {
        s.label(
            x_at(x),
            tt + h as f64 * c + 2.0 * p + 11.0,
            ctx.name(ctx.id(x, 0, 0)),
        );
    }
    for y in 0..h {
        s.label(lb / 2.0, y_at(y), ctx.name(ctx.id(0, y, 0)));
    }
    s.label(
        lb + p + w as f64 * c / 2.0,
        tt + h as f64 * c + 2.0 * p + 27.0,
        "x →",
    );
    s.label(lb / 2.0, tt - 6.0, "y ↑");
    let top_w = lb + w as f64 * c + 2.0 * p + 4.0;
    let top_h = tt + h as f64 * c + 2.0 * p + bl;
    // The levels, two to a row, beside.
    let (mut right, mut bottom) = (top_w, top_h);
    let mut y = 0.0;
    for row in 0..levels.div_ceil(2) {
        let mut x = top_w + 16.0;
        let mut row_h = 0.0f64;
        for z in (2 * row..levels).take(2) {
            let (part, pw, ph, _) = level_grid(ctx, z, 30.0, false);
            s.place(x, y, part);
            x += pw + 12.0;
            right = right.max(x - 12.0);
            row_h = row_h.max(ph);
        }
        y += row_h + 10.0;
        bottom = bottom.max(y - 10.0);
    }
    (s, right, bottom, drawn)
}

/// The cell that `cell` goes to when `turn` turns its quadrant (the page's `turnCell`).
fn turn_cell(v: &PositionView<u16>, cell: usize, turn: Turn) -> usize {
    let b = &v.layout.blocks[turn.block as usize];
    let [x, y, _] = v.cells[cell].at;
    let (fx, fy) = (b.from[0], b.from[1]);
    let side = b.size[0];
    if x < fx || y < fy || x - fx >= side || y - fy >= b.size[1] {
        return cell;
    }
    let (lx, ly) = (x - fx, y - fy);
    let (nx, ny) = if turn.clockwise {
        (ly, side - 1 - lx)
    } else {
        (side - 1 - ly, lx)
    };
    fx as usize + nx as usize + v.layout.size[0] as usize * (fy as usize + ny as usize)
}

/// The owners of `v`'s cells after its mover places on `placed` (or not) and turns `turn` (or
/// not) (the page's `afterTurn`).
fn after_turn(
    v: &PositionView<u16>,
    placed: Option<usize>,
    turn: Option<Turn>,
) -> Vec<Option<Player>> {
    let mut put: Vec<Option<Player>> = v.cells.iter().map(|c| c.owner).collect();
    if let Some(c) = placed {
        put[c] = Some(v.to_move);
    }
    let Some(turn) = turn else { return put };
    let mut out = put.clone();
    for (c, &o) in put.iter().enumerate() {
        out[turn_cell(v, c, turn)] = o;
    }
    out
}

/// The turns of a board's blocks, anticlockwise first.
fn all_turns(v: &PositionView<u16>) -> Vec<Turn> {
    (0..v.layout.blocks.len())
        .flat_map(|block| {
            [false, true].map(|clockwise| Turn {
                block: block as u8,
                clockwise,
            })
        })
        .collect()
}

/// The last move, marked as the page marks it: the cells it filled, the column it popped, the
/// quadrant it turned.
pub struct Last {
    cells: Vec<usize>,
    popped: Option<u8>,
    turned: Option<Turn>,
}

/// The last move, `text`, played in `parent` to reach `now` (the page's `lastMove`).
pub fn last_move(parent: &PositionView<u16>, text: &str, now: &PositionView<u16>) -> Option<Last> {
    if let Some(m) = parent.moves.iter().find(|m| m.text == text) {
        let e = m.effect;
        let cells = e.placed.map(|p| match e.turned {
            Some(t) => turn_cell(parent, p as usize, t),
            None => p as usize,
        });
        return Some(Last {
            cells: cells.into_iter().collect(),
            popped: e.popped,
            turned: e.turned,
        });
    }
    // A move written otherwise than the list's (Pentago lists one move per position reached):
    // a placement and turn that give this position.
    let owners: Vec<Option<Player>> = now.cells.iter().map(|c| c.owner).collect();
    let turns = all_turns(parent);
    for c in (0..parent.cells.len()).filter(|&c| parent.cells[c].owner.is_none()) {
        for t in std::iter::once(None).chain(turns.iter().map(|&t| Some(t))) {
            if after_turn(parent, Some(c), t) == owners {
                return Some(Last {
                    cells: vec![t.map_or(c, |t| turn_cell(parent, c, t))],
                    popped: None,
                    turned: t,
                });
            }
        }
    }
    None
}

/// The quadrant's number in the notation (the end of its block's name).
fn quadrant(ctx: &Ctx, block: usize) -> String {
    let name = ctx.v.layout.blocks[block].name;
    let digits = name.trim_start_matches(|c: char| !c.is_ascii_digit());
    if digits.is_empty() {
        block.to_string()
    } else {
        digits.to_string()
    }
}

/// A circular arrow, clockwise or its mirror image (the page's `arrow`).
fn arrow(s: &mut Out, cx: f64, cy: f64, clockwise: bool, colour: &str) {
    let r = 9.0;
    let f = if clockwise { 1.0 } else { -1.0 };
    let (a0, a1) = (135f64.to_radians(), 405f64.to_radians());
    let p = |a: f64| (cx + f * r * a.cos(), cy + r * a.sin());
    let ((x0, y0), (x1, y1)) = (p(a0), p(a1));
    let _ = write!(
        s.0,
        r#"<path d="M{} {}A{r} {r} 0 1 {} {} {}" fill="none" stroke="{colour}" stroke-width="2.2" stroke-linecap="round"/>"#,
        n(x0),
        n(y0),
        if clockwise { 1 } else { 0 },
        n(x1),
        n(y1)
    );
    let (tx, ty) = (-a1.sin() * f, a1.cos());
    let (nx, ny) = (a1.cos() * f, a1.sin());
    let tip = (x1 + tx * 5.0, y1 + ty * 5.0);
    let b1 = (x1 + nx * 4.5 - tx, y1 + ny * 4.5 - ty);
    let b2 = (x1 - nx * 4.5 - tx, y1 - ny * 4.5 - ty);
    let _ = write!(
        s.0,
        r#"<path d="M{} {}L{} {}L{} {}Z" fill="{colour}"/>"#,
        n(tip.0),
        n(tip.1),
        n(b1.0),
        n(b1.1),
        n(b2.0),
        n(b2.1)
    );
}

/// Pentago (the page's `drawTurning`): the quadrants, a value in each empty cell (the best of
/// the moves that place there, whatever they turn), the turn arrows with their quadrant's
/// number, and a turn alone's value beside its arrow.
fn pentago(ctx: &Ctx) -> Part {
    let [w, h, _] = ctx.size;
    let (c, p, lb, a, bl) = (52.0, 5.0, 18.0, 46.0, 20.0);
    let g = 2.0 * p + 8.0;
    let blocks = &ctx.v.layout.blocks;
    let mut xs: Vec<u8> = blocks
        .iter()
        .map(|b| b.from[0])
        .filter(|&x| x > 0)
        .collect();
    xs.dedup();
    xs.sort_unstable();
    xs.dedup();
    let mut ys: Vec<u8> = blocks
        .iter()
        .map(|b| b.from[1] + b.size[1])
        .filter(|&y| (y as usize) < h)
        .collect();
    ys.sort_unstable();
    ys.dedup();
    let gx = |x: usize| xs.iter().filter(|&&b| x >= b as usize).count() as f64 * g;
    let gy = |y: usize| ys.iter().filter(|&&b| y < b as usize).count() as f64 * g;
    let x_at = |x: usize| lb + p + x as f64 * c + gx(x) + c / 2.0;
    let y_at = |y: usize| a + p + (h - 1 - y) as f64 * c + gy(y) + c / 2.0;
    let width = lb + 2.0 * p + w as f64 * c + xs.len() as f64 * g;
    let board_bottom = a + 2.0 * p + h as f64 * c + ys.len() as f64 * g;
    let mut s = Out::default();
    let mut drawn = Vec::new();
    for (q, b) in blocks.iter().enumerate() {
        let x0 = x_at(b.from[0] as usize) - c / 2.0 - p;
        let y0 = y_at((b.from[1] + b.size[1] - 1) as usize) - c / 2.0 - p;
        let (bw, bh) = (
            b.size[0] as f64 * c + 2.0 * p,
            b.size[1] as f64 * c + 2.0 * p,
        );
        s.rect(
            x0,
            y0,
            bw,
            bh,
            &format!(
                r#"class="quadrant" data-name="{}" rx="10" fill="{QUAD}""#,
                b.name
            ),
        );
        if ctx.last_turn().is_some_and(|t| t.block as usize == q) {
            s.rect(
                x0 - 3.0,
                y0 - 3.0,
                bw + 6.0,
                bh + 6.0,
                &format!(
                    r#"class="last" rx="12" fill="none" stroke="{INK}" stroke-width="2" stroke-dasharray="6 4""#
                ),
            );
        }
    }
    // Each listed move by the position it makes (the list holds one move per position).
    let by_result: HashMap<Vec<Option<Player>>, &str> = ctx
        .v
        .moves
        .iter()
        .filter(|m| m.effect.turned.is_some())
        .map(|m| {
            let after = after_turn(ctx.v, m.effect.placed.map(|c| c as usize), m.effect.turned);
            (after, m.text.as_str())
        })
        .collect();
    let turns = all_turns(ctx.v);
    for y in 0..h {
        for x in 0..w {
            let id = ctx.id(x, y, 0);
            let (cx, cy) = (x_at(x), y_at(y));
            s.cell(ctx, id);
            s.disc(ctx, cx, cy, 21.0, id, QUAD_HOLE);
            s.end();
            if ctx.owners[id].is_some() {
                continue;
            }
            // The moves that place here: at once (a five), with any turn, as listed or as the
            // listed move that makes the same position.
            let mut here: Vec<&str> = ctx
                .v
                .moves
                .iter()
                .filter(|m| m.effect.placed == Some(id as CellId))
                .map(|m| m.text.as_str())
                .collect();
            for &t in &turns {
                if let Some(&mv) = by_result.get(&after_turn(ctx.v, Some(id), Some(t))) {
                    here.push(mv);
                }
            }
            drawn.extend(here.iter().map(|m| m.to_string()));
            let best = here
                .iter()
                .filter_map(|m| ctx.values.get(m))
                .max_by_key(|v| v.value.rank());
            if let Some(v) = best {
                s.chip(ctx, cx, cy, v, c - 6.0, false);
            }
        }
    }
    // The arrows: two per quadrant on its outer side, anticlockwise on the left; a turn alone
    // (no placement) shows its value beside its arrow.
    for (q, b) in blocks.iter().enumerate() {
        let top = (b.from[1] + b.size[1]) as usize >= h;
        let cy = if top {
            a / 2.0
        } else {
            board_bottom + bl + a / 2.0
        };
        let left = x_at(b.from[0] as usize) - c / 2.0;
        let right = x_at((b.from[0] + b.size[0] - 1) as usize) + c / 2.0;
        s.text(
            (left + right) / 2.0,
            cy,
            &format!(
                r#"class="quadrant-number" font-size="13" font-weight="700" fill="{MUTED}" text-anchor="middle" dominant-baseline="central""#
            ),
            &quadrant(ctx, q),
        );
        for clockwise in [false, true] {
            let cx = if clockwise { right - 36.0 } else { left + 36.0 };
            // A turn alone (the stone placed before): the listed move, or the listed move that
            // makes the same position (turning an empty quadrant either way is one).
            let turn = Turn {
                block: q as u8,
                clockwise,
            };
            let pending = ctx.v.moves.iter().any(|m| m.effect.placed.is_none());
            let alone = ctx
                .v
                .moves
                .iter()
                .find(|m| m.effect.placed.is_none() && m.effect.turned == Some(turn))
                .map(|m| m.text.as_str())
                .or_else(|| {
                    pending
                        .then(|| by_result.get(&after_turn(ctx.v, None, Some(turn))).copied())
                        .flatten()
                });
            // Dark where it may be played, or was last.
            let last = ctx.last_turn()
                == Some(Turn {
                    block: q as u8,
                    clockwise,
                });
            let colour = if alone.is_some() || last {
                INK
            } else {
                "#b3bac4"
            };
            arrow(&mut s, cx - 24.0, cy, clockwise, colour);
            if let Some(m) = alone {
                drawn.push(m.to_string());
                if let Some(v) = ctx.values.get(m) {
                    s.chip(ctx, cx + 10.0, cy, v, 48.0, false);
                }
            }
        }
    }
    for x in 0..w {
        let name = ctx.name(ctx.id(x, 0, 0));
        s.label(
            x_at(x),
            board_bottom + bl / 2.0,
            name.trim_end_matches(|c: char| c.is_ascii_digit()),
        );
    }
    for y in 0..h {
        let name = ctx.name(ctx.id(0, y, 0));
        s.label(
            lb / 2.0,
            y_at(y),
            name.trim_start_matches(|c: char| c.is_ascii_lowercase()),
        );
    }
    s.win_lines(ctx, |cell| {
        let [x, y, _] = ctx.v.cells[cell].at;
        (x_at(x as usize), y_at(y as usize))
    });
    (s, width, board_bottom + bl + a, drawn)
}
