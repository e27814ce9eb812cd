//! The cube's and Qubic's rules, lines, symmetries, notation and tactics.

use super::*;

#[test]
fn the_shift_families_are_the_geometry() {
    let geometry = Geometry::cube(false);
    let mut ours: Vec<u128> = LINES.iter().map(|&l| l as u128).collect();
    ours.sort_unstable();
    assert_eq!(ours, geometry.lines());
    let mut x = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let (p, empty) = (x & x.rotate_left(17), !x & x.rotate_left(29));
        assert_eq!(has_line(p), geometry.has_line(p as u128));
        assert_eq!(
            winning_cells(p, empty) as u128,
            geometry.winning_cells(p as u128, empty as u128)
        );
    }
    assert_eq!(symmetries::<true>().len(), 8);
    assert_eq!(symmetries::<false>().len(), 192);
    // Walking a set's bits gives its cells in the order of every cell.
    for set in [0, u64::MAX, 0x8000_0000_0000_0001, 0x2545_f491_4f6c_dd1d] {
        let walked: Vec<u32> = in_cell_order(set).collect();
        let ordered: Vec<u32> = CELL_ORDER
            .iter()
            .map(|&c| c as u32)
            .filter(|&c| set >> c & 1 == 1)
            .collect();
        assert_eq!(walked, ordered);
    }
    // Cells on 7 lines come first: the 8 corners and the 8 inner cells.
    assert!(
        CELL_ORDER[..16]
            .iter()
            .all(|&c| LINES_THROUGH[c as usize][6] != 255)
    );
}

#[test]
fn the_flips_are_the_floor_symmetries() {
    let b: u64 = 0x0123_4567_89ab_cdef;
    let mut flips = Vec::new();
    for a in [b, flip_diagonal(b)] {
        for a in [a, flip_rows(a)] {
            for a in [a, flip_columns(a)] {
                flips.push(a);
            }
        }
    }
    flips.sort_unstable();
    let mut images: Vec<u64> = symmetries::<true>().iter().map(|t| t.apply(b)).collect();
    images.sort_unstable();
    assert_eq!(flips, images);
}

/// A position's image under each symmetry is the position its moves' images reach, and the
/// canonical key is the least image key where it covers the symmetries.
#[test]
fn images_are_the_games_of_the_moved_images() {
    fn check<const GRAVITY: bool>() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200 {
            let mut pos = Cube::<GRAVITY>::new();
            let mut moves = Vec::new();
            while pos.status() == Status::Ongoing && moves.len() < 20 {
                let mut legal = MoveList::new();
                pos.legal_moves(&mut legal);
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let m = legal[(seed % legal.len() as u64) as usize];
                moves.push(m);
                pos = pos.play(m);
            }
            for i in 0..pos.symmetry_count() {
                let mut image = Cube::<GRAVITY>::new();
                let mut before = Cube::<GRAVITY>::new();
                for &m in &moves {
                    image = image.play(before.image_move(m, i));
                    before = before.play(m);
                }
                assert_eq!(image.key(), pos.image_key(i), "{pos:?} under {i}");
                assert_eq!(image, pos.image(i), "{pos:?} under {i}");
            }
            let least = (0..pos.symmetry_count()).map(|i| pos.image_key(i)).min();
            if GRAVITY || pos.ply() <= QUBIC_SYMMETRY_STONES {
                assert_eq!(Some(pos.canonical_key()), least, "{pos:?}");
            }
        }
    }
    check::<true>();
    check::<false>();
}

/// The threats kept move by move are those found from the stones, on random games of both
/// variants.
#[test]
fn threat_cells_are_the_cells_of_open_twos() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..2000 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let (a, b) = (seed & seed.rotate_left(23), !seed & seed.rotate_left(41));
        let want = LINES
            .iter()
            .filter(|&&l| l & b == 0 && (l & a).count_ones() == 2)
            .fold(0, |cells, &l| cells | (l & !a));
        assert_eq!(threat_cells(a, b), want, "{a:#x} {b:#x}");
    }
}

#[test]
fn kept_threats_are_the_threats() {
    fn check<const GRAVITY: bool>() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200 {
            let mut pos = Cube::<GRAVITY>::new();
            while pos.status() == Status::Ongoing {
                for p in 0..2 {
                    let empty = !pos.filled();
                    assert_eq!(pos.threats[p], winning_cells(pos.stones[p], empty));
                }
                let mut moves = MoveList::new();
                pos.legal_moves(&mut moves);
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos = pos.play(moves[(seed % moves.len() as u64) as usize]);
            }
        }
    }
    check::<true>();
    check::<false>();
}
