//! Tells the tests whether the public data (`../shared/data` beside the clone: Pons' Connect
//! Four sets, Irving's Pentago values, published tables) is there: the tests that need it are
//! built ignored without it, so that the test runner lists them as ignored with the reason
//! instead of passing them.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(shared_data)");
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    if data.is_dir() {
        println!("cargo::rustc-cfg=shared_data");
        // Run again if it changes or goes away.
        println!("cargo::rerun-if-changed=../shared/data");
    } else {
        // A path that does not exist would run this script again on every build (cargo takes
        // it for changed), and watching the folder above it would scan everything beside the
        // clone. So only this file is watched: data added later needs `touch build.rs`, which
        // the test `the_build_saw_the_public_data_as_it_is` says when it finds the data there.
        println!("cargo::rerun-if-changed=build.rs");
    }
}
