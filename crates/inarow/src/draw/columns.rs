//! Connect Four's and PopOut's board: the columns, the values above them, the pops.

use super::*;

/// Connect Four and PopOut (the page's `drawColumns`): a group per column (`col`, `data-col`
/// its index, `data-move` its drop) with its cells and its drop's value above it; the pops on
/// the player's own bottom stones (`pop`, `data-move`).
pub(super) fn columns(ctx: &Ctx) -> Part {
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
