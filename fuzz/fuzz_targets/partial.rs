#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| inarow_fuzz::partial(data));
