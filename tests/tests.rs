//! The integration test suite: one binary, with modules under `tests/suite/`.

mod suite;
