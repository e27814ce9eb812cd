//! Exact counts of legal positions against the published ones (state_counts.tsv: popout-thesis
//! Table 10, Tromp) on the boards quick enough for every run, and the `count` command's format.

use super::cli::inarow;
use super::common::{shared_path, start};
use inarow::search::census;

/// The published count of a board (the public data's state_counts.tsv).
fn published(game: &str, width: u32, height: u32) -> Option<u64> {
    let path = shared_path("tables/state_counts.tsv");
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|f| {
            f.len() == 4 && f[0] == game && f[1] == width.to_string() && f[2] == height.to_string()
        })
        .map(|f| f[3].parse().unwrap())
}

/// The published counts (popout-thesis Table 10 / Tromp), restated so that the count test
/// needs no data; [`the_restated_counts_are_the_published_ones`] checks them against it.
const COUNTS: [(&str, u32, u32, u64); 6] = [
    ("connect4", 4, 4, 161_029),
    ("connect4", 4, 5, 1_706_255),
    ("connect4", 5, 4, 3_945_711),
    ("popout", 4, 4, 692_427),
    ("popout", 4, 5, 7_942_028),
    ("popout", 5, 4, 18_531_835),
];

#[test]
#[cfg_attr(not(shared_data), ignore = "needs the public data in ../shared/data")]
fn the_restated_counts_are_the_published_ones() {
    for (game, w, h, want) in COUNTS {
        assert_eq!(published(game, w, h), Some(want), "{game}:{w}x{h}");
    }
}

#[test]
fn counts_match_the_published_ones() {
    for (game, w, h, want) in COUNTS {
        let spec = format!("{game}:{w}x{h}");
        let counted = inarow::with_game!(start(&spec), g => census::count(g, 1 << 30, |_| {}))
            .unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert_eq!(counted.total, want, "{spec}");
        assert_eq!(
            counted.by_discs.iter().sum::<u64>(),
            want,
            "{spec}: per disc count"
        );
    }
}

#[test]
fn connect4_4x4_counts_by_disc() {
    // One position per ply 0, then 4 columns, then 4 x 4 two-disc boards; the last layer is 16
    // discs (tests/suite/rules.rs checks 7x6 per ply against OEIS A212693).
    let c =
        inarow::with_game!(start("connect4:4x4"), g => census::count(g, 1 << 30, |_| {})).unwrap();
    assert_eq!(&c.by_discs[..3], &[1, 4, 16]);
    assert_eq!(c.by_discs.len(), 17);
}

#[test]
fn count_command_format_and_budget() {
    let r = inarow(&["count", "--game", "popout:4x4"], None);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let last = r.stdout.lines().last().unwrap();
    assert_eq!(last, "total 692427");
    assert!(r.stdout.contains("\ndiscs 0 1\n"), "{}", r.stdout);
    let r = inarow(&["count", "--game", "connect4", "--mem-mb", "1024"], None);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("memory budget"), "{}", r.stderr);
    assert_eq!(r.stderr.lines().count(), 1);
    // A set under a MiB is told as one, not as none.
    let r = inarow(&["count", "--game", "connect4:4x4", "--mem-mb", "0"], None);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("2^20 keys (1 MiB)"), "{}", r.stderr);
}
