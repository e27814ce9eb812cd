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

use crate::error::Error;
use crate::game::Player;
use crate::game::view::{PositionView, Turn};
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
pub fn position(rules: &dyn Rules, pos: &dyn Position, values: &[Value]) -> Result<String, Error> {
    position_with(rules, pos, values, &Options::default())
}

/// [`position`] drawn with `options`: the page's board ([`Options::interactive`]), Pentago's
/// cell chosen, numbered stones.
///
/// # Errors
/// As [`position`]; [`Error::Input`] for a selected cell or a numbered one not on the board.
pub fn position_with(
    rules: &dyn Rules,
    pos: &dyn Position,
    values: &[Value],
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
    values: HashMap<&'a str, &'a Value>,
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
        v: &Value,
        room: f64,
        small: bool,
        attrs: &str,
        dim: bool,
    ) {
        let text = value_text(v.value, ctx.weak);
        let k: f64 = if small { 0.82 } else { 1.0 };
        let mut w = (30.0 * k).max((text.chars().count() as f64 * 7.6 + 12.0) * k);
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
fn words(v: &Value, mover: Player) -> String {
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
fn chip_look(v: &Value, ply: u32) -> Look {
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
pub fn draw(view: &PositionView<u16>, values: &[Value], ply: u32, last: Option<&Last>) -> String {
    picture(view, values, ply, last, &Options::default())
}

/// [`draw`] with `options`.
fn picture(
    view: &PositionView<u16>,
    values: &[Value],
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
            (value_text(v.value, ctx.weak).chars().count() as f64 * 7.6 + 12.0).max(30.0) + 8.0
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

/// Connect Four and PopOut (the page's `drawColumns`): a group per column (`col`, `data-col`
/// its index, `data-move` its drop) with its cells and its drop's value above it; the pops on
/// the player's own bottom stones (`pop`, `data-move`).
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
    let mut drops: HashMap<usize, (&str, usize)> = HashMap::new();
    let mut pops: Vec<(usize, &str)> = Vec::new();
    for m in &ctx.v.moves {
        if let Some(placed) = m.effect.placed {
            let x = ctx.v.cells[placed as usize].at[0] as usize;
            drops.insert(x, (m.text.as_str(), placed as usize));
        } else if let Some(x) = m.effect.popped {
            pops.push((x as usize, m.text.as_str()));
        }
    }
    for x in 0..w {
        let drop = drops.get(&x);
        let _ = write!(
            s.0,
            r#"<g class="col{}" data-col="{x}"{}>"#,
            ctx.target(drop.is_some()),
            data("move", drop.map(|d| d.0))
        );
        s.hit_rect(ctx, p + x as f64 * c, 0.0, c, t + h as f64 * c + 2.0 * p);
        for y in 0..h {
            let id = ctx.id(x, y, 0);
            s.cell(ctx, id, "", "");
            s.disc(ctx, x_at(x), y_at(y), 20.0, id, HOLE);
            s.end();
        }
        if let Some(&(mv, placed)) = drop {
            if ctx.interactive {
                let y = ctx.v.cells[placed].at[1] as usize;
                s.ghost(ctx, x_at(x), y_at(y), 20.0, false);
            }
            drawn.push(mv.to_string());
            if let Some(v) = ctx.values.get(mv) {
                s.chip(ctx, x_at(x), t / 2.0, v, c - 3.0, false, "", false);
            }
        }
        s.end();
        let popped = ctx.last.is_some_and(|last| last.popped == Some(x as u8));
        let ly = t + h as f64 * c + 2.0 * p + l / 2.0 + 1.0;
        if popped {
            // The page's mark of the column popped last: its name in bold between two arrows.
            s.text(
                x_at(x),
                ly,
                &format!(
                    r#"class="label lbl strong last" font-size="12" font-weight="700" fill="{INK}" text-anchor="middle" dominant-baseline="central""#
                ),
                ctx.name(ctx.id(x, 0, 0)),
            );
            let y0 = t + h as f64 * c + 2.0 * p + 2.0;
            let _ = write!(
                s.0,
                r#"<path class="popped lastdot" d="M{} {}l-5 -5h10z M{} {}l-5 -5h10z" fill="{INK}"><title>popped last</title></path>"#,
                n(x_at(x) - 14.0),
                n(y0 + 7.0),
                n(x_at(x) + 14.0),
                n(y0 + 7.0)
            );
        } else {
            s.label(x_at(x), ly, ctx.name(ctx.id(x, 0, 0)));
        }
    }
    for (x, mv) in pops {
        drawn.push(mv.to_string());
        let _ = write!(
            s.0,
            r#"<g class="pop{}" data-move="{}">"#,
            ctx.target(true),
            escape(mv)
        );
        s.circle(
            x_at(x),
            y_at(0),
            23.0,
            &format!(
                r#"class="popring" fill="none" stroke="{INK}" stroke-width="2" stroke-dasharray="4 3""#
            ),
        );
        s.hit_circle(ctx, x_at(x), y_at(0), 20.0);
        if let Some(v) = ctx.values.get(mv) {
            // On the stone's lower half, so that its colour shows.
            s.chip(ctx, x_at(x), y_at(0) + 11.0, v, c - 10.0, true, "", false);
        }
        let _ = write!(s.0, "<title>pop: {}</title></g>", escape(mv));
    }
    s.win_lines(ctx, |cell| {
        let [x, y, _] = ctx.v.cells[cell].at;
        (x_at(x as usize), y_at(y as usize))
    });
    (s, width, t + h as f64 * c + 2.0 * p + l, drawn)
}

/// One level as a grid of squares (the page's `levelGrid`): a stone in each held cell, and
/// (`cube` false) a chip in each empty cell a move fills; the cube's cells play their column
/// (`data-move`) and mark where its drop lands (`landing`, for the page's hover).
fn level_grid(ctx: &Ctx, z: usize, c: f64, cube: bool) -> (Out, f64, f64, Vec<String>) {
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
    // The move that fills a cell (Qubic), or that drops in its column (the cube).
    let by_cell: HashMap<usize, &str> = ctx
        .v
        .moves
        .iter()
        .filter_map(|m| {
            m.effect.placed.map(|p| {
                let key = if cube {
                    let [x, y, _] = ctx.v.cells[p as usize].at;
                    x as usize + w * y as usize
                } else {
                    p as usize
                };
                (key, m.text.as_str())
            })
        })
        .collect();
    for y in 0..h {
        for x in 0..w {
            let id = ctx.id(x, y, z);
            let (cx, cy) = (x_at(x), y_at(y));
            let mv = by_cell.get(&if cube { x + w * y } else { id }).copied();
            s.cell(ctx, id, ctx.target(mv.is_some()), &data("move", mv));
            s.rect(
                cx - c / 2.0,
                cy - c / 2.0,
                c,
                c,
                &format!(r#"class="square sq" fill="{SQUARE}" stroke="{SQUARE_EDGE}""#),
            );
            if ctx.owners[id].is_some() {
                s.disc(ctx, cx, cy, c * 0.38, id, "");
            } else if mv.is_some() && ctx.interactive && !cube {
                s.ghost(ctx, cx, cy, c * 0.38, false);
            }
            if !cube && let Some(mv) = mv {
                drawn.push(mv.to_string());
                if let Some(v) = ctx.values.get(mv) {
                    s.chip(ctx, cx, cy, v, c - 4.0, false, "", false);
                }
            }
            if ctx.win[id] {
                s.rect(
                    cx - c / 2.0 + 2.0,
                    cy - c / 2.0 + 2.0,
                    c - 4.0,
                    c - 4.0,
                    &format!(
                        r#"class="winsquare winsq" fill="none" stroke="{INK}" stroke-width="3.5" pointer-events="none""#
                    ),
                );
            }
            if cube && ctx.interactive {
                s.rect(
                    cx - c / 2.0 + 2.0,
                    cy - c / 2.0 + 2.0,
                    c - 4.0,
                    c - 4.0,
                    &format!(
                        r#"class="landing" data-landing="{id}" fill="none" stroke="{INK}" stroke-width="2.5" opacity="0""#
                    ),
                );
            }
            s.end();
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

/// Places the levels (`level`, `data-level` from 1) two to a row, bottom first, from `x0`, `y0`, each
/// scaled to `width` (the page's sizes: 150 for the cube's, 196 for Qubic's).
fn two_by_two(
    s: &mut Out,
    ctx: &Ctx,
    (x0, y0): (f64, f64),
    c: f64,
    cube: bool,
    width: f64,
) -> (f64, f64, Vec<String>) {
    let levels = ctx.size[2];
    let (mut right, mut bottom, mut y) = (x0, y0, y0);
    let mut drawn = Vec::new();
    for row in 0..levels.div_ceil(2) {
        let mut x = x0;
        let mut row_h = 0.0f64;
        for z in (2 * row..levels).take(2) {
            let (part, pw, ph, moves) = level_grid(ctx, z, c, cube);
            let k = width / pw;
            let _ = write!(
                s.0,
                r#"<g class="level" data-level="{}" transform="translate({} {}) scale({})">{}</g>"#,
                z + 1,
                n(x),
                n(y),
                format!("{k:.4}")
                    .trim_end_matches('0')
                    .trim_end_matches('.'),
                part.0
            );
            drawn.extend(moves);
            x += width + 12.0;
            right = right.max(x - 12.0);
            row_h = row_h.max(ph * k);
        }
        y += row_h + 10.0;
        bottom = bottom.max(y - 10.0);
    }
    (right, bottom, drawn)
}

/// Qubic (and a flat board without gravity): the levels two to a row, bottom first.
fn levels(ctx: &Ctx, c: f64) -> Part {
    let mut s = Out::default();
    let (w, h, drawn) = two_by_two(&mut s, ctx, (0.0, 0.0), c, false, 196.0);
    (s, w, h, drawn)
}

/// The cube (the page's `drawCube`): the columns from above (`col`, `data-move` its drop,
/// `data-placed` the cell it fills) with their drops' values, and the four levels in two rows
/// of two.
fn cube(ctx: &Ctx) -> Part {
    let [w, h, levels] = ctx.size;
    let (c, lb, p, tt, bl) = (64.0, 22.0, 3.0, 22.0, 34.0);
    let mut s = Out::default();
    let mut drawn = Vec::new();
    s.title(lb + 18.0, 12.0, "the columns, from above");
    let x_at = |x: usize| lb + p + x as f64 * c + c / 2.0;
    let y_at = |y: usize| tt + p + (h - 1 - y) as f64 * c + c / 2.0;
    let by_column: HashMap<usize, (&str, u16)> = ctx
        .v
        .moves
        .iter()
        .filter_map(|m| {
            m.effect.placed.map(|p| {
                let [x, y, _] = ctx.v.cells[p as usize].at;
                (x as usize + w * y as usize, (m.text.as_str(), p))
            })
        })
        .collect();
    for y in 0..h {
        for x in 0..w {
            let (cx, cy) = (x_at(x), y_at(y));
            let name = ctx.name(ctx.id(x, y, 0)).to_string();
            let drop = by_column.get(&(x + w * y)).copied();
            let placed = drop.map(|(_, p)| p.to_string());
            let _ = write!(
                s.0,
                r#"<g class="column col{}" data-name="{}" data-col="{}"{}{}>"#,
                ctx.target(drop.is_some()),
                escape(&name),
                escape(&name),
                data("move", drop.map(|d| d.0)),
                data("placed", placed.as_deref())
            );
            s.rect(
                cx - c / 2.0,
                cy - c / 2.0,
                c,
                c,
                &format!(r#"class="floor" fill="{SQUARE}" stroke="{SQUARE_EDGE}""#),
            );
            s.hit_rect(ctx, cx - c / 2.0, cy - c / 2.0, c, c);
            s.text(
                cx - c / 2.0 + 5.0,
                cy - c / 2.0 + 12.0,
                r##"class="cname" font-size="10" font-weight="500" fill="#8a929e""##,
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
                            r#"class="stack stone {}" fill="{fill}" stroke="{edge}" stroke-width="1.5""#,
                            p.name()
                        )
                    }
                    None => format!(r#"class="stack sq" fill="{SQUARE}" stroke="{SQUARE_EDGE}""#),
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
                            r#"class="last lastmark" rx="3" fill="none" stroke="{INK}" stroke-width="2""#
                        ),
                    );
                }
            }
            if let Some((mv, _)) = drop {
                drawn.push(mv.to_string());
                if let Some(v) = ctx.values.get(mv) {
                    s.chip(ctx, cx + 9.0, cy + 2.0, v, c - 20.0, false, "", false);
                }
            }
            s.end();
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
    // The levels, two to a row, beside; under, where the room is narrower (a phone's).
    let beside = ctx
        .width
        .is_none_or(|room| top_w + 16.0 + 2.0 * 150.0 + 12.0 <= room);
    let at = if beside {
        (top_w + 16.0, 0.0)
    } else {
        (0.0, top_h + 12.0)
    };
    let (right, bottom, _) = two_by_two(&mut s, ctx, at, 30.0, true, 150.0);
    (s, right.max(top_w), bottom.max(top_h), drawn)
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

/// A circular arrow, clockwise or its mirror image (the page's `arrow`: `icon` and `head`).
fn arrow(s: &mut Out, cx: f64, cy: f64, clockwise: bool, colour: &str) {
    let r = 9.0;
    let f = if clockwise { 1.0 } else { -1.0 };
    let (a0, a1) = (135f64.to_radians(), 405f64.to_radians());
    let p = |a: f64| (cx + f * r * a.cos(), cy + r * a.sin());
    let ((x0, y0), (x1, y1)) = (p(a0), p(a1));
    let _ = write!(
        s.0,
        r#"<path class="icon" d="M{} {}A{r} {r} 0 1 {} {} {}" fill="none" stroke="{colour}" stroke-width="2.2" stroke-linecap="round"/>"#,
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
        r#"<path class="head" d="M{} {}L{} {}L{} {}Z" fill="{colour}"/>"#,
        n(tip.0),
        n(tip.1),
        n(b1.0),
        n(b1.1),
        n(b2.0),
        n(b2.1)
    );
}

/// A turn a player may make (the page's `turningModel`): the move as the player names it
/// (the cell, the quadrant, `l` or `r`) and the listed move that reaches the same position
/// (the list holds one move per position reached), where there is one.
struct Turning<'a> {
    turn: Turn,
    text: String,
    same: Option<&'a str>,
}

/// Pentago (the page's `drawTurning`): the quadrants (`quad`, `data-block`), the cells (a
/// `target` where a stone may go; `data-move` where it ends the game at once) with the best
/// value of the moves that place there (over all turns), and the turn arrows (`turn`,
/// `data-block`, `data-clockwise`; `data-move` the move as named, `data-same` the listed move)
/// with their quadrant's number. The turns' values go on the arrows where the stone is placed:
/// the cell chosen ([`Options::selected`]), or before (a turn alone).
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
                r#"class="quadrant quad" data-block="{q}" data-name="{}" rx="10" fill="{QUAD}""#,
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
                    r#"class="last quadlast" rx="12" fill="none" stroke="{INK}" stroke-width="2" stroke-dasharray="6 4""#
                ),
            );
        }
    }
    // Each listed move by the position it makes (the first listed, as the page).
    let mut by_result: HashMap<Vec<Option<Player>>, &str> = HashMap::new();
    for m in ctx.v.moves.iter().filter(|m| m.effect.turned.is_some()) {
        let after = after_turn(ctx.v, m.effect.placed.map(|c| c as usize), m.effect.turned);
        by_result.entry(after).or_insert(m.text.as_str());
    }
    // A placement that ends the game, with no turn.
    let at_once: HashMap<usize, &str> = ctx
        .v
        .moves
        .iter()
        .filter(|m| m.effect.turned.is_none())
        .filter_map(|m| m.effect.placed.map(|c| (c as usize, m.text.as_str())))
        .collect();
    // The stone placed before (a board given whole): the turn alone is left.
    let pending = !ctx.v.moves.is_empty()
        && ctx
            .v
            .moves
            .iter()
            .all(|m| m.effect.placed.is_none() && m.effect.turned.is_some());
    let turns_of = |cell: Option<usize>| -> Vec<Turning> {
        all_turns(ctx.v)
            .into_iter()
            .map(|turn| {
                let same = by_result
                    .get(&after_turn(ctx.v, cell, Some(turn)))
                    .copied()
                    .or_else(|| {
                        ctx.v
                            .moves
                            .iter()
                            .find(|m| {
                                m.effect.placed.map(|c| c as usize) == cell
                                    && m.effect.turned == Some(turn)
                            })
                            .map(|m| m.text.as_str())
                    });
                let prefix = cell.map_or("", |c| ctx.name(c));
                let text = format!(
                    "{prefix}{}{}",
                    quadrant(ctx, turn.block as usize),
                    if turn.clockwise { "r" } else { "l" }
                );
                Turning { turn, text, same }
            })
            .collect()
    };
    let selected = ctx
        .selected
        .filter(|&c| !pending && ctx.owners[c].is_none());
    let mut selected_turns = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let id = ctx.id(x, y, 0);
            let (cx, cy) = (x_at(x), y_at(y));
            let empty = ctx.owners[id].is_none();
            let once = at_once.get(&id).copied();
            let turns = if empty && once.is_none() && !pending {
                turns_of(Some(id))
            } else {
                Vec::new()
            };
            let playable = !pending && (once.is_some() || turns.iter().any(|t| t.same.is_some()));
            s.cell(ctx, id, ctx.target(playable), &data("move", once));
            s.hit_circle(ctx, cx, cy, c / 2.0 - 1.0);
            s.disc(ctx, cx, cy, 21.0, id, QUAD_HOLE);
            if selected == Some(id) {
                s.ghost(ctx, cx, cy, 21.0, true);
                s.circle(
                    cx,
                    cy,
                    23.5,
                    r##"class="selected" fill="none" stroke="#fff" stroke-width="3""##,
                );
            } else if playable && ctx.interactive {
                s.ghost(ctx, cx, cy, 21.0, false);
            }
            // The moves that place here: at once (a five), or with a turn, as listed or as the
            // listed move that makes the same position; the first best shows.
            let here: Vec<&str> = once
                .into_iter()
                .chain(turns.iter().filter_map(|t| t.same))
                .collect();
            drawn.extend(here.iter().map(|m| m.to_string()));
            let mut best: Option<&Value> = None;
            for v in here.iter().filter_map(|m| ctx.values.get(m)) {
                if best.is_none_or(|b| v.value.rank() > b.value.rank()) {
                    best = Some(v);
                }
            }
            if let Some(v) = best
                && selected != Some(id)
            {
                // Within the disc (a long estimate, ~-1295, in a smaller font).
                let attrs = format!(
                    r#" data-best="{}" data-cell-value="{}""#,
                    escape(&v.mv),
                    escape(ctx.name(id))
                );
                s.chip(
                    ctx,
                    cx,
                    cy,
                    v,
                    2.0 * 21.0,
                    false,
                    &attrs,
                    selected.is_some(),
                );
            }
            s.end();
            if selected == Some(id) {
                selected_turns = turns;
            }
        }
    }
    // The arrows: two per quadrant on its outer side, anticlockwise on the left.
    let choosing = pending || selected.is_some();
    let shown = if pending {
        turns_of(None)
    } else {
        selected_turns
    };
    if pending {
        drawn.extend(shown.iter().filter_map(|t| t.same.map(str::to_string)));
    }
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
                r#"class="quadrant-number qnum" font-size="13" font-weight="700" fill="{MUTED}" text-anchor="middle" dominant-baseline="central""#
            ),
            &quadrant(ctx, q),
        );
        for clockwise in [false, true] {
            let cx = if clockwise { right - 36.0 } else { left + 36.0 };
            let turn = Turn {
                block: q as u8,
                clockwise,
            };
            let t = shown.iter().find(|t| t.turn == turn && t.same.is_some());
            let active = choosing && t.is_some();
            let last = !choosing && ctx.last_turn() == Some(turn);
            let class = match (active, ctx.interactive) {
                (true, true) => " target",
                (true, false) => "",
                (false, _) => " idle",
            };
            let _ = write!(
                s.0,
                r#"<g class="turn{class}{}" data-block="{q}" data-clockwise="{clockwise}"{}{}>"#,
                if last { " last" } else { "" },
                data("move", t.map(|t| t.text.as_str())),
                data("same", t.and_then(|t| t.same))
            );
            if ctx.interactive {
                s.rect(
                    cx - 36.0,
                    cy - 19.0,
                    72.0,
                    38.0,
                    r#"class="bg" rx="8" fill="transparent""#,
                );
            }
            // Dark where it may be played, or was last.
            let colour = if active || last { INK } else { "#b3bac4" };
            arrow(&mut s, cx - 24.0, cy, clockwise, colour);
            if let Some(t) = t
                && let Some(same) = t.same
                && let Some(v) = ctx.values.get(same)
            {
                let attrs = format!(r#" data-same="{}""#, escape(same));
                s.chip(ctx, cx + 10.0, cy, v, 48.0, false, &attrs, false);
            }
            let _ = write!(
                s.0,
                "<title>turn quadrant {} {}</title></g>",
                quadrant(ctx, q),
                if clockwise {
                    "clockwise"
                } else {
                    "anticlockwise"
                }
            );
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
