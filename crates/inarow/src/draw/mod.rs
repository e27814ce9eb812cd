//! Every game's board as an SVG picture: the web page's board (web/index.html draws none of
//! its own: the served page gets it from `POST /api/draw`, the static page from WebAssembly's
//! `draw`), `inarow draw` and Python's `Position.svg`, drawn from the position's structured
//! view ([`PositionView`]), optionally with every legal move's value where it is played
//! ([`position`]; the page's options, [`position_with`] and [`Options`]).
//!
//! - Connect Four and PopOut: the blue frame with its columns, stones falling to the bottom; a
//!   drop's value above its column, a pop's on the player's own bottom stone (inside a dashed
//!   ring); a move that is neither (PopOut's draw claim, `d`) is listed under the board.
//! - The cube (gravity along `z`): the sixteen columns seen from above, each with its four
//!   levels as small stones and its drop's value, beside the four levels as grids (2 x 2).
//! - Qubic: the four levels, two to a row, bottom first, a value in every empty cell.
//! - Pentago: the four quadrants with Irving's numbers and the turn arrows; an empty cell shows
//!   the best value of the moves that place there (over all turns, as the page does); once a
//!   cell is chosen ([`Options::selected`]), or where the stone was placed before (a turn
//!   alone), each arrow shows the value of the turn it makes.
//!
//! The last move is marked as on the page: the stone it placed ringed (white on Pentago's
//! quadrants), a popped column's name in bold between two arrows, the quadrant turned framed
//! with a dashed line and its arrow dark. The lines held are crossed out, their stones ringed.
//! Values read as on the page: `+6` an exact score, `win` / `draw` / `loss` where exact values
//! carry no distance ([`Options::weak`]), `~12`, `~57%` estimates, `?`.
//!
//! Colours are attributes (no style sheet), so that the picture looks the same inline and as an
//! image; the elements also carry the page's classes (`stone first`, `chip win s1 best`,
//! `lastmark`, `winline`...), which its style sheet dresses alike. Every cell is a
//! `<g class="cell">` with `data-cell` (its number), `data-name` and `data-owner`; every value
//! a `<g class="value chip">` with `data-move` (the move valued), `data-value` (its text in the
//! wire format) and `data-exact`.

mod columns;
mod levels;
mod turning;

use columns::columns;
use levels::{cube, levels};
use turning::pentago;
pub use turning::{Last, last_move};

use crate::error::Error;
use crate::game::Player;
use crate::game::view::{PositionView, Turn};
use crate::session::{Game, Line, MoveValue, Valuation};
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
pub struct DrawnValue {
    /// The move, in the game's notation.
    pub mv: String,
    /// What it is worth.
    pub value: Valuation,
    /// The ply the game ends on with best play (the chip's shade), where known.
    pub end_ply: Option<u32>,
}

impl From<&MoveValue> for DrawnValue {
    fn from(m: &MoveValue) -> DrawnValue {
        DrawnValue {
            mv: m.mv.clone(),
            value: m.value,
            end_ply: m.end_ply,
        }
    }
}

/// How to draw: what the page adds to the picture ([`position_with`]). The default is the
/// picture alone, as `inarow draw` and Python's `Position.svg` give it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    /// Whether exact values are win / draw / loss only (an analysis' `weak`): their chips say
    /// `win`, `draw`, `loss` rather than a score. `None`: as the game's exact scores go (`win`
    /// where they carry no distance: PopOut, Pentago).
    pub weak: Option<bool>,
    /// The page's board: no margin nor background (the page's), and what a player clicks and
    /// hovers: the class `target` and `data-move` on every element that plays a move (a column,
    /// a pop, a cell, a turn's arrow, a move with no place on the board), a `target` cell
    /// without `data-move` (Pentago's placement, chosen before its turn), the ghost stone that
    /// the page's style shows on hover, the cube's landing marks (`data-landing`, the cell a
    /// column's drop fills, `data-placed` on the column).
    pub interactive: bool,
    /// Pentago's cell chosen before its turn (its number): marked, the other cells' values
    /// dimmed, and the eight turns' values on the arrows.
    pub selected: Option<usize>,
    /// Numbers on stones (cell number, the number): the expected line stepped through.
    pub numbers: Vec<(usize, u32)>,
    /// The width the picture has room for (the page's, on a phone): where the cube's levels
    /// would not fit beside its columns, they go under them, as the page's did.
    pub width: Option<f64>,
}

/// The picture of `pos` (a position of `rules`) with `values` on its moves (none: the board
/// alone), its last move marked, found by playing the line again to the position before it.
///
/// # Errors
/// None for a position the session read; an [`Error`] only if its line no longer replays.
pub fn position(rules: &dyn Game, pos: &dyn Line, values: &[DrawnValue]) -> Result<String, Error> {
    position_with(rules, pos, values, &Options::default())
}

/// [`position`] drawn with `options`: the page's board ([`Options::interactive`]), Pentago's
/// cell chosen, numbered stones.
///
/// # Errors
/// As [`position`]; [`Error::Input`] for a selected cell or a numbered one not on the board.
pub fn position_with(
    rules: &dyn Game,
    pos: &dyn Line,
    values: &[DrawnValue],
    options: &Options,
) -> Result<String, Error> {
    let view = pos.view();
    let cells = view.cells.len();
    let outside = |c: usize| {
        Error::Input(format!(
            "cell {c}: not a cell of this board (0 to {})",
            cells - 1
        ))
    };
    if let Some(c) = options.selected.filter(|&c| c >= cells) {
        return Err(outside(c));
    }
    if let Some(&(c, _)) = options.numbers.iter().find(|(c, _)| *c >= cells) {
        return Err(outside(c));
    }
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
    let weak = options.weak.unwrap_or(!pos.policy().scores_carry_distance);
    Ok(picture(
        &view,
        values,
        pos.ply(),
        last.as_ref(),
        &Options {
            weak: Some(weak),
            ..options.clone()
        },
    ))
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
    values: HashMap<&'a str, &'a DrawnValue>,
    best: Option<(i32, i64)>,
    win: Vec<bool>,
    ply: u32,
    last: Option<&'a Last>,
    weak: bool,
    interactive: bool,
    selected: Option<usize>,
    numbers: HashMap<usize, u32>,
    width: Option<f64>,
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

    /// ` target` where the page lets the player click.
    fn target(&self, playable: bool) -> &'static str {
        if playable && self.interactive {
            " target"
        } else {
            ""
        }
    }
}

/// ` data-NAME="VALUE"`, or nothing.
fn data(name: &str, value: Option<&str>) -> String {
    value
        .map(|v| format!(r#" data-{name}="{}""#, escape(v)))
        .unwrap_or_default()
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
                r#"class="label lbl" font-size="12" font-weight="500" fill="{MUTED}" text-anchor="middle" dominant-baseline="central""#
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

    /// The transparent shape the page's hover shades (`.hit`): drawn for the page only.
    fn hit_rect(&mut self, ctx: &Ctx, x: f64, y: f64, w: f64, h: f64) {
        if ctx.interactive {
            self.rect(x, y, w, h, r#"class="hit" fill="transparent""#);
        }
    }

    fn hit_circle(&mut self, ctx: &Ctx, cx: f64, cy: f64, r: f64) {
        if ctx.interactive {
            self.circle(cx, cy, r, r#"class="hit" fill="transparent""#);
        }
    }

    /// The mover's stone where a move would put it, which the page shows on hover (`.ghost`,
    /// `on`: shown, Pentago's chosen cell).
    fn ghost(&mut self, ctx: &Ctx, cx: f64, cy: f64, r: f64, on: bool) {
        let mover = ctx.v.to_move;
        let (fill, _) = stone_colours(mover);
        self.circle(
            cx,
            cy,
            r,
            &format!(
                r#"class="ghost{} {}" fill="{fill}" opacity="{}" pointer-events="none""#,
                if on { " on" } else { "" },
                mover.name(),
                if on { "0.8" } else { "0" }
            ),
        );
    }

    /// A cell's group: opened here, closed by [`Out::end`]; `class` and `attrs` added.
    fn cell(&mut self, ctx: &Ctx, c: usize, class: &str, attrs: &str) {
        let owner = ctx.owners[c].map(Player::name).unwrap_or("");
        let _ = write!(
            self.0,
            r#"<g class="cell{class}" data-cell="{c}" data-name="{}" data-owner="{owner}"{attrs}>"#,
            escape(ctx.name(c))
        );
    }

    fn end(&mut self) {
        self.0.push_str("</g>");
    }

    /// A stone (the page's `.stone`), or the empty hole in `hole`'s colour; the last move's
    /// ring, the winning line's, and the expected line's number.
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
                        r#"class="stone {cls}" data-cell="{c}" fill="{fill}" stroke="{edge}" stroke-width="1.5""#
                    ),
                );
            }
            None if !hole.is_empty() => {
                let cls = if hole == QUAD_HOLE {
                    "quad-hole"
                } else {
                    "hole"
                };
                self.circle(
                    cx,
                    cy,
                    r,
                    &format!(r#"class="{cls}" data-cell="{c}" fill="{hole}""#),
                )
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
                &format!(r#"class="last lastmark" fill="none" stroke="{stroke}" stroke-width="3""#),
            );
        }
        if ctx.win[c] {
            self.circle(
                cx,
                cy,
                r - 4.0,
                r##"class="winring" fill="none" stroke="#fff" stroke-width="3" stroke-dasharray="5 3" pointer-events="none""##,
            );
        }
        if let (Some(number), Some(p)) = (ctx.numbers.get(&c), ctx.owners[c]) {
            let fill = if p == Player::First { "#fff" } else { INK };
            self.text(
                cx,
                cy + 0.5,
                &format!(
                    r#"class="num {}" font-size="14" font-weight="700" fill="{fill}" text-anchor="middle" dominant-baseline="central" pointer-events="none""#,
                    p.name()
                ),
                &number.to_string(),
            );
        }
    }

    /// A move's value in a rounded chip (the page's `chip`), centred on `x`, `y`, at most `room`
    /// wide; `attrs` added to its group, `dim` where Pentago's chosen cell puts it behind.
    #[allow(clippy::too_many_arguments)]
    fn chip(
        &mut self,
        ctx: &Ctx,
        x: f64,
        y: f64,
        v: &DrawnValue,
        room: f64,
        small: bool,
        attrs: &str,
        dim: bool,
    ) {
        let text = value_text(v.value, ctx.weak);
        let k: f64 = if small { 0.82 } else { 1.0 };
        let mut w = (30.0 * k).max((chip_text_width(&text) + 12.0) * k);
        let mut size = if small { Some(10.5) } else { None };
        if w > room {
            // A long estimate: a smaller font, so that the chip keeps to its room.
            size = Some((13.0 * k * (room - 8.0) / (w - 12.0 * k)).max(8.5));
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
        let opacity = if look.estimate {
            r#" opacity="0.8""#
        } else if dim {
            r#" opacity="0.3""#
        } else {
            ""
        };
        let _ = write!(
            self.0,
            r#"<g class="value chip {}{}{}" data-move="{}" data-value="{}" data-exact="{}"{attrs}{opacity} pointer-events="none">"#,
            look.class,
            if best { " best" } else { "" },
            if dim { " dim" } else { "" },
            escape(&v.mv),
            escape(&v.value.to_string()),
            v.value.is_exact(),
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
        // A size other than the chip's own as a style (which the page's sheet leaves).
        let size = size
            .map(|s| format!(r#"style="font-size:{s:.1}px""#))
            .unwrap_or_else(|| r#"font-size="13""#.to_string());
        self.text(
            x,
            y + 0.5,
            &format!(
                r#"{size} {style} fill="{}" text-anchor="middle" dominant-baseline="central""#,
                look.text
            ),
            &text,
        );
        let _ = write!(
            self.0,
            "<title>{}</title></g>",
            escape(&words(v, ctx.v.to_move))
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
            let numbers: Vec<String> = cells.iter().map(usize::to_string).collect();
            let _ = write!(
                self.0,
                r#"<line class="winline" data-owner="{}" data-line="{}" x1="{}" y1="{}" x2="{}" y2="{}" stroke="{INK}" stroke-width="7" stroke-linecap="round" opacity="0.7" pointer-events="none"/>"#,
                line.owner.name(),
                numbers.join(" "),
                n(x1),
                n(y1),
                n(x2),
                n(y2)
            );
        }
    }

    /// Places `part` (drawn from 0, 0) at `x`, `y`, its group with `attrs`.
    fn place(&mut self, x: f64, y: f64, part: Out, attrs: &str) {
        let _ = write!(
            self.0,
            r#"<g{attrs} transform="translate({} {})">{}</g>"#,
            n(x),
            n(y),
            part.0
        );
    }
}

/// The chip's text, as the page writes it: `+3` for a win by an exact score, `win` where only the
/// outcome is known, `~13` or `~64%` for an estimate, `?`.
pub fn chip_text(v: Valuation) -> String {
    value_text(v, false)
}

/// The width of a chip's text at its font (13 px, bold): 7.6 px a character, a `%` (an
/// estimate's share, `~62%`) one and a half.
fn chip_text_width(text: &str) -> f64 {
    text.chars()
        .map(|c| if c == '%' { 1.5 } else { 1.0 })
        .sum::<f64>()
        * 7.6
}

/// [`chip_text`], where `weak` (exact values are win / draw / loss only) an exact score as its
/// outcome.
fn value_text(v: Valuation, weak: bool) -> String {
    match v {
        Valuation::Exact(_) if weak => v.outcome().unwrap_or("?").to_string(),
        Valuation::Exact(s) if s > 0 => format!("+{s}"),
        v => v.to_string(),
    }
}

/// An estimate's lean, positive where it favours the mover (the page's `estimate`).
fn lean(v: Valuation) -> Option<f64> {
    match v {
        Valuation::Heuristic(h) => Some(h as f64),
        Valuation::WinRate(r) => Some((r * 100.0).round() - 50.0),
        _ => None,
    }
}

/// A player's name on the page.
fn player_name(p: Player) -> &'static str {
    match p {
        Player::First => "Red",
        Player::Second => "Yellow",
    }
}

/// A move's value in words, the chip's tooltip (the page's `words`).
fn words(v: &DrawnValue, mover: Player) -> String {
    if let Some(outcome) = v.value.outcome() {
        if outcome == "draw" {
            return "draw with best play".into();
        }
        let winner = player_name(if outcome == "win" {
            mover
        } else {
            mover.opponent()
        });
        return match v.end_ply {
            Some(e) if e > 0 => format!("{winner} wins by move {e}"),
            _ => format!("{winner} wins"),
        };
    }
    match lean(v.value) {
        None => "not reached yet".into(),
        Some(0.0) => format!("estimate {}: even", v.value),
        Some(l) => format!(
            "estimate {}: {} is better",
            v.value,
            player_name(if l > 0.0 { mover } else { mover.opponent() })
        ),
    }
}

struct Look {
    class: String,
    fill: &'static str,
    text: &'static str,
    stroke: Option<&'static str>,
    dash: Option<&'static str>,
    estimate: bool,
}

/// The page's chip classes: wins blue, losses orange, darker the sooner the game ends; draws
/// grey; estimates white with a dashed edge.
fn chip_look(v: &DrawnValue, ply: u32) -> Look {
    let solid = |class: String, fill, text| Look {
        class,
        fill,
        text,
        stroke: None,
        dash: None,
        estimate: false,
    };
    let estimate = |sign: f64| {
        let (stroke, text, class) = if sign > 0.0 {
            (WIN[2], WIN[1], "est pos")
        } else if sign < 0.0 {
            (LOSS[2], LOSS[1], "est neg")
        } else {
            ("#9aa1ab", MUTED, "est even")
        };
        Look {
            class: class.into(),
            fill: "#fff",
            text,
            stroke: Some(stroke),
            dash: Some("3 2"),
            estimate: true,
        }
    };
    let shade = match v.end_ply.filter(|&e| e > 0).map(|e| e.saturating_sub(ply)) {
        None => 1,
        Some(d) if d <= 5 => 0,
        Some(d) if d <= 11 => 1,
        Some(d) if d <= 21 => 2,
        Some(_) => 3,
    };
    match v.value {
        Valuation::Exact(s) | Valuation::Proven(s) => match s.signum() {
            0 => solid("draw".into(), DRAW, "#fff"),
            1 => solid(
                format!("win s{shade}"),
                WIN[shade],
                if shade == 3 { "#06284a" } else { "#fff" },
            ),
            _ => solid(
                format!("loss s{shade}"),
                LOSS[shade],
                if shade >= 2 { "#2b1300" } else { "#fff" },
            ),
        },
        Valuation::Heuristic(_) | Valuation::WinRate(_) => estimate(lean(v.value).unwrap_or(0.0)),
        Valuation::Unknown => Look {
            class: "unknown".into(),
            fill: "#fff",
            text: MUTED,
            stroke: Some("#9aa1ab"),
            dash: Some("2 2"),
            estimate: false,
        },
    }
}

/// The picture of `view` (`ply` moves into the game) with `values` drawn on its moves and the
/// `last` move marked (the default [`Options`]).
pub fn draw(
    view: &PositionView<u16>,
    values: &[DrawnValue],
    ply: u32,
    last: Option<&Last>,
) -> String {
    picture(view, values, ply, last, &Options::default())
}

/// [`draw`] with `options`.
fn picture(
    view: &PositionView<u16>,
    values: &[DrawnValue],
    ply: u32,
    last: Option<&Last>,
    options: &Options,
) -> String {
    let size = view.layout.size.map(|s| s as usize);
    let mut win = vec![false; view.cells.len()];
    for line in &view.lines {
        for c in line.cells.iter() {
            win[c as usize] = true;
        }
    }
    let legal: Vec<&str> = view.moves.iter().map(|m| m.text.as_str()).collect();
    let values: HashMap<&str, &DrawnValue> = values
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
        weak: options.weak.unwrap_or(false),
        interactive: options.interactive,
        selected: options.selected,
        numbers: options.numbers.iter().copied().collect(),
        width: options.width,
    };
    let turning = view.moves.iter().any(|m| m.effect.turned.is_some())
        || (view.layout.blocks.len() > 1 && size[2] == 1);
    let (kind, (part, w, h, drawn)) = if size[2] > 1 && view.layout.gravity.is_some() {
        ("cube", cube(&ctx))
    } else if size[2] > 1 {
        ("levels", levels(&ctx, 44.0))
    } else if turning {
        ("pentago", pentago(&ctx))
    } else if view.layout.gravity.is_some() {
        ("columns", columns(&ctx))
    } else {
        ("levels", levels(&ctx, 44.0))
    };
    // The page's board has no margin (the page's own) and no background.
    let margin = if ctx.interactive { 0.0 } else { 8.0 };
    let mut body = Out::default();
    body.place(margin, margin, part, "");
    let mut height = h + 2.0 * margin;
    // Moves with no place on the board (PopOut's draw claim): a button each under it (the
    // page's look), with its value.
    for m in view.moves.iter().filter(|m| !drawn.contains(&m.text)) {
        let words = if m.text == "d" {
            "Claim a draw (d)".to_string()
        } else {
            m.text.clone()
        };
        let _ = write!(
            body.0,
            r#"<g class="loose{}" data-move="{}">"#,
            ctx.target(true),
            escape(&m.text)
        );
        let top = height + if ctx.interactive { 12.0 } else { 4.0 };
        let (x, y) = (margin + 11.0, top + 14.0);
        let text_w = words.chars().count() as f64 * 7.0;
        let value = ctx.values.get(m.text.as_str());
        let chip_w = value.map_or(0.0, |v| {
            (chip_text_width(&value_text(v.value, ctx.weak)) + 12.0).max(30.0) + 8.0
        });
        body.rect(
            margin,
            top,
            text_w + chip_w + 22.0,
            28.0,
            r##"class="button" rx="6" fill="#fff" stroke="#c4c9d1""##,
        );
        body.text(
            x,
            y,
            &format!(r#"class="move" font-size="13" fill="{INK}" dominant-baseline="central""#),
            &words,
        );
        if let Some(v) = value {
            let after = x + text_w + chip_w / 2.0 + 4.0;
            body.chip(&ctx, after, y, v, 80.0, false, "", false);
        }
        body.end();
        height = top + 28.0 + if ctx.interactive { 0.0 } else { 4.0 };
    }
    let width = w + 2.0 * margin;
    let background = if ctx.interactive {
        String::new()
    } else {
        format!(
            r##"<rect class="background" width="{}" height="{}" rx="8" fill="#fff"/>"##,
            n(width),
            n(height)
        )
    };
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" class="inarow {kind}" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{FONT}" role="img">{background}{body}</svg>"##,
        w = n(width),
        h = n(height),
        body = body.0
    )
}

/// A part of the picture, its width and height, and the moves it shows.
type Part = (Out, f64, f64, Vec<String>);
