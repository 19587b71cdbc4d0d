#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| shishi::fuzzing::usi_lines(data));
