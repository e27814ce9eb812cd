//! Replays every seed and every input that once made a target fail (`fuzz/seeds/TARGET/`,
//! `fuzz/regressions/TARGET/`): what the fuzzer found stays fixed.

use std::path::Path;

#[test]
fn seeds_and_past_failures_pass() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut replayed = 0;
    for (name, target) in inarow_fuzz::TARGETS {
        for kind in ["seeds", "regressions"] {
            let Ok(dir) = std::fs::read_dir(root.join(kind).join(name)) else {
                continue;
            };
            for entry in dir {
                let path = entry.expect("a directory entry").path();
                let data = std::fs::read(&path).expect("a readable input");
                eprintln!("{name}: {}", path.display());
                target(&data);
                replayed += 1;
            }
        }
    }
    // Every target has seeds: a replay of nothing would pass for the wrong reason.
    assert!(
        replayed >= 2 * inarow_fuzz::TARGETS.len(),
        "only {replayed} inputs"
    );
}
