//! The benchmarks' positions and their known values: plain data, which the tests read too
//! (they hold each value against its published table).

/// The built-in suite: empty boards with their published values (Tromp; the size table in
/// `shared/data/tables/connect4_sizes.tsv`), every board of up to 35 cells that solves in about a
/// second. Its total node count is the bench signature: any change of search behaviour shows.
pub const BUILTIN_SUITE: [(&str, i32); 10] = [
    ("connect4:4x4", 0),
    ("connect4:5x4", 0),
    ("connect4:6x4", -1),
    ("connect4:7x4", 0),
    ("connect4:4x5", 0),
    ("connect4:5x5", 0),
    ("connect4:6x5", 0),
    ("connect4:4x6", 0),
    ("connect4:5x6", 0),
    ("connect4:4x7", 0),
];

/// Empty Connect Four boards of the full suite with their published exact scores (Tromp; the
/// size table `shared/data/tables/connect4_sizes.tsv`): the largest the test loop once solved.
pub const FULL_BOARDS: [(&str, i32); 5] = [
    ("connect4:5x7", 0),
    ("connect4:7x5", 0),
    ("connect4:8x4", -1),
    ("connect4:6x6", -1),
    ("connect4", 1),
];

/// Pons' public 7x6 sets of the full suite (files under `connect4/` of the public data) and how
/// many of their lines it solves: every line of the easier ones, the first 200 and 20 of the
/// harder ones.
pub const FULL_SETS: [(&str, usize); 6] = [
    ("Test_L3_R1", 1000),
    ("Test_L2_R1", 1000),
    ("Test_L2_R2", 1000),
    ("Test_L1_R1", 1000),
    ("Test_L1_R2", 200),
    ("Test_L1_R3", 20),
];

/// The Connect Four 3D difficulty sets of the full suite (files under `cube/` of the public
/// data, `win` / `nowin` for the first player to move), every line.
pub const FULL_CUBE_SETS: [&str; 2] = ["gravity_36.txt", "gravity_32.txt"];

/// The PopOut boards of the full suite with their published values for the first player
/// (popout-thesis Table 8; `shared/data/tables/popout_values.tsv`), solved with the default
/// method and no flag, each within [`POPOUT_SECONDS`].
pub const FULL_POPOUT: [(&str, i32); 12] = [
    ("popout:4x4", 0),
    ("popout:4x5", 1),
    ("popout:4x6", 1),
    ("popout:5x4", 0),
    ("popout:5x5", 1),
    ("popout:5x6", 1),
    ("popout:6x4", 1),
    ("popout:6x5", 1),
    ("popout:6x6", 1),
    ("popout:7x4", 1),
    ("popout:7x5", 1),
    ("popout:7x6", 1),
];

/// The most time a PopOut board of the full suite may take.
pub const POPOUT_SECONDS: u64 = 30;

/// Irving's 18-stone midgame benchmark (under the public data): its root and the positions
/// one turn below it, with their values for the side to move there.
pub const PENTAGO_18: (&str, &str) = (
    "pentago/irving_midsolve_benchmark_18.tsv",
    "274440791932540184",
);

/// The Pentago stone-count table (`inarow bench --suite pentago`): positions of Irving's games
/// (`shared/data/pentago/irving_game_values.tsv`, none waiting for its turn), by stones, each
/// with its name and value for the side to move. The counts are in the order they run: least
/// memory first, so that the process's peak after each is that count's.
pub const PENTAGO_STONES: [(u32, &[(&str, i32)]); 4] = [
    (
        22,
        &[
            ("2435059866445547608", 0),
            ("3313261793782807696", 0),
            ("3313244167237011544", 1),
            ("4135433025101237646", 1),
            ("505531725440627070", 1),
        ],
    ),
    (
        20,
        &[
            ("3313261793879196326", 0),
            ("4078856103986397862", 1),
            ("5362399624332772006", 1),
            ("434318556332821902", 1),
            ("94296784466358654", 1),
        ],
    ),
    (
        19,
        &[
            ("3313243007595250342", 0),
            ("4078854944345227942", 0),
            ("434318556331651454", -1),
            ("94296784960631166", 1),
            ("3313242079979307686", 1),
        ],
    ),
    (18, &[("274440791932540184", 1)]),
];

/// Won 7x6 positions of plies 6 to 8, each won by the side to move by the least margin (a
/// score of 1 or 2: the win comes with the last discs, so every move until then must keep
/// it), from which the engine must keep the win (`inarow bench --suite convert`). Drawn by
/// `inarow gen --stones N --count 16 --seed 11` and kept where `inarow solve` gave 1 or 2.
pub const WON_POSITIONS: [&str; 6] = [
    "324425", "545655", "7145514", "6575144", "25163472", "43347265",
];

/// The games of the analysis benchmark, by game spec, and the plies of each it analyzes (from
/// 0): made by `inarow match --game G best best --games 1 --opening 2 --time 0.5 --seed S` for
/// seeds 1 to 8 (Connect Four) and 1 to 4 (PopOut), the distinct games kept.
pub const ANALYSIS_GAMES: [(&str, &str, usize); 2] = [
    (
        "connect4",
        include_str!("../../../crates/inarow/benches/games/connect4.txt"),
        30,
    ),
    (
        "popout",
        include_str!("../../../crates/inarow/benches/games/popout.txt"),
        20,
    ),
];

/// The midgame sets of the analysis benchmark: game spec, plies, positions per ply, and the
/// seed of the reasonable positions (those of `inarow gen --game G --stones P --count N --seed
/// S`).
pub const MIDGAME_SETS: [(&str, std::ops::RangeInclusive<u32>, usize, u64); 2] =
    [("connect4", 6..=12, 4, 52), ("popout", 4..=20, 2, 52)];
