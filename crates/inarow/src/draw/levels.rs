//! Qubic's and the cube's boards: the levels as grids, and the cube's columns from above.

use super::*;

/// One level as a grid of squares (the page's `levelGrid`): a stone in each held cell, and
/// (`cube` false) a chip in each empty cell a move fills; the cube's cells play their column
/// (`data-move`) and mark where its drop lands (`landing`, for the page's hover).
pub(super) fn level_grid(ctx: &Ctx, z: usize, c: f64, cube: bool) -> (Out, f64, f64, Vec<String>) {
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
            // A square just inside the cell.
            let inset = |s: &mut Out, attrs: &str| {
                s.rect(
                    cx - c / 2.0 + 2.0,
                    cy - c / 2.0 + 2.0,
                    c - 4.0,
                    c - 4.0,
                    attrs,
                )
            };
            if ctx.win[id] {
                inset(
                    &mut s,
                    &format!(
                        r#"class="winsquare winsq" fill="none" stroke="{INK}" stroke-width="3.5" pointer-events="none""#
                    ),
                );
            }
            if cube && ctx.interactive {
                inset(
                    &mut s,
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
pub(super) fn two_by_two(
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
pub(super) fn levels(ctx: &Ctx, c: f64) -> Part {
    let mut s = Out::default();
    let (w, h, drawn) = two_by_two(&mut s, ctx, (0.0, 0.0), c, false, 196.0);
    (s, w, h, drawn)
}

/// The cube (the page's `drawCube`): the columns from above (`col`, `data-move` its drop,
/// `data-placed` the cell it fills) with their drops' values, and the four levels in two rows
/// of two.
pub(super) fn cube(ctx: &Ctx) -> Part {
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
