//! Tells the tests whether the public data (`../shared/data` beside the clone: Pons' Connect
//! Four sets, Irving's Pentago values, published tables) is there: the tests that need it are
//! built ignored without it, so that the test runner lists them as ignored with the reason
//! instead of passing them.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(shared_data)");
    println!("cargo::rerun-if-changed=../shared/data");
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    if data.is_dir() {
        println!("cargo::rustc-cfg=shared_data");
    }
}
