//! Pentago's board: the quadrants, their turn arrows and what a turn does to a cell.

use super::*;

/// The cell that `cell` goes to when `turn` turns its quadrant (the page's `turnCell`).
pub(super) fn turn_cell(v: &PositionView<u16>, cell: usize, turn: Turn) -> usize {
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
pub(super) fn after_turn(
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
pub(super) fn all_turns(v: &PositionView<u16>) -> Vec<Turn> {
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
    pub(super) cells: Vec<usize>,
    pub(super) popped: Option<u8>,
    pub(super) turned: Option<Turn>,
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
pub(super) fn quadrant(ctx: &Ctx, block: usize) -> String {
    let name = ctx.v.layout.blocks[block].name;
    let digits = name.trim_start_matches(|c: char| !c.is_ascii_digit());
    if digits.is_empty() {
        block.to_string()
    } else {
        digits.to_string()
    }
}

/// A circular arrow, clockwise or its mirror image (the page's `arrow`: `icon` and `head`).
pub(super) fn arrow(s: &mut Out, cx: f64, cy: f64, clockwise: bool, colour: &str) {
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
pub(super) struct Turning<'a> {
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
pub(super) fn pentago(ctx: &Ctx) -> Part {
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
            let mut best: Option<&DrawnValue> = None;
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
